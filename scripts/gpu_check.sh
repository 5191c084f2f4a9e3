#!/usr/bin/env bash
# `make gpu-check`: on a machine with a CUDA GPU, run the examples' seed and a compiled
# training step (scripts/gpu_check/) through `vtlint trace` and `vtlint check
# --runtime-facts`, then `pytest tests/runtime`, and print a short report.
#
#   GPU_PYTHON   the interpreter whose torch (a CUDA build) and vtlint are used
#                [default: python3]; `pip install -e '.[dev]'` never changes its torch.
#   GPU_CHECK_DEVICE=cpu  rehearses the same steps on the CPU (C++ kernels instead of Triton).
#
# Without a GPU it says so and exits 0; otherwise it exits 1 when a step failed.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${GPU_PYTHON:-python3}
DEVICE=${GPU_CHECK_DEVICE:-cuda}
export GPU_CHECK_DEVICE=$DEVICE

if [ "$DEVICE" = cuda ]; then
    GPU=$("$PY" -c 'import torch; print(torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")' 2>/dev/null)
    if [ -z "$GPU" ]; then
        echo "gpu-check: no CUDA GPU visible to $PY (no torch, a CPU build, or no device): nothing to check."
        exit 0
    fi
else
    GPU="none (rehearsal on the $DEVICE)"
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/vtlint-gpu-check.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
FAILED=0
REPORT=()

# evidence FILE: how many findings of a check's text output carry each evidence state
evidence() {
    local state counts=""
    for state in confirmed refuted runtime-only predicted; do
        counts+="$(grep -c "\[$state\]$" "$1") $state, "
    done
    echo "${counts%, }"
}

# harness NAME DIR FILE SCRIPT: trace `python SCRIPT` (the harness runs in the project root,
# so SCRIPT is absolute), then check FILE (from DIR) with its facts
harness() {
    local name=$1 dir=$2 file=$3 script=$4 status
    (cd "$dir" && "$PY" -m vtlint trace -o "$OUT/$name.json" -- "$PY" "$script") >"$OUT/$name.trace" 2>&1
    status=$?
    (cd "$dir" && "$PY" -m vtlint check "$file" --no-cache --runtime-facts "$OUT/$name.json") >"$OUT/$name.check" 2>&1
    local check=$?
    if [ "$status" -ne 0 ] || [ "$check" -gt 1 ]; then
        FAILED=1
        REPORT+=("$name: FAILED (trace exit $status, check exit $check)")
        tail -n 20 "$OUT/$name.trace" "$OUT/$name.check" | sed 's/^/    /'
        return
    fi
    REPORT+=("$name: $(evidence "$OUT/$name.check")")
    REPORT+=("  $(grep -m1 '^Runtime:' "$OUT/$name.check")")
    REPORT+=("  $(grep -m1 '^Kernels:' "$OUT/$name.check" || echo 'Kernels: none reported')")
}

echo "gpu-check: $("$PY" -c 'import torch; print("torch", torch.__version__)'), GPU: $GPU"
harness seed "$ROOT/examples" seed.py "$ROOT/scripts/gpu_check/seed_on_gpu.py"
harness train_step "$ROOT/scripts/gpu_check" train_step.py "$ROOT/scripts/gpu_check/train_step.py"

(cd "$ROOT" && "$PY" -m pytest -q -p no:cacheprovider tests/runtime) >"$OUT/pytest" 2>&1 || FAILED=1
REPORT+=("tests/runtime: $(tail -n 1 "$OUT/pytest")")

echo "gpu-check report:"
printf '  %s\n' "${REPORT[@]}"
exit "$FAILED"
