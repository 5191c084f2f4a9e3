# The two set-up commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# torch is not a dependency of vtlint: the tests' torch is pinned here and installed first,
# the CPU build from the local wheel, never a multi-GB CUDA download.
TORCH  ?= torch==2.13.0
STAMP  := $(VENV)/.installed

.PHONY: install demo dist test test-fast gpu-check sarif-tools validate-sarif e2e vsix vscode-test bench-editor bench-runtime bench clean

$(STAMP): pyproject.toml
	@echo "== creating $(VENV) (if absent) and installing $(TORCH), the CPU build: a minute or two on the first run"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check $(TORCH)
	@echo "== installing vtlint (editable) with its dev extras into $(VENV)"
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Static analysis of the bundled examples (exit 1 = findings, as expected), then
# the same with runtime confirmation from the examples' harness.
demo: $(STAMP)
	@echo "== vtlint check examples/: the static pass (never imports torch, about a second)"
	cd examples && ../$(BIN)/vtlint check . ; test $$? -le 1
	@echo "== vtlint check examples/ --runtime: runs examples/harness.py under torch.compile's structured trace"
	@echo "   (about a minute: Inductor compiles C++ kernels for the CPU; the output is captured, not shown)"
	cd examples && PATH="$(abspath $(BIN)):$$PATH" ../$(BIN)/vtlint check . --runtime --show-notes ; test $$? -le 1
	@echo "== vtlint is installed in $(VENV): run '. $(VENV)/bin/activate', then 'vtlint examples/' (or $(BIN)/vtlint examples/)"

# A wheel of vtlint in dist/, to install into any environment: pip install dist/vtlint-*.whl
dist: $(STAMP)
	@echo "== building the vtlint wheel into dist/"
	rm -rf dist/vtlint-*.whl
	$(BIN)/python -m pip wheel --no-deps --disable-pip-version-check -q -w dist .
	@ls dist/vtlint-*.whl

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m 'not torch'

# On a machine with a CUDA GPU: the seed and a training step through `vtlint trace` and
# `--runtime-facts`, then tests/runtime, with GPU_PYTHON's torch (default: python3, not
# the CPU-only $(VENV)); a short report. Without a GPU it says so and exits 0.
gpu-check:
	GPU_PYTHON=$${GPU_PYTHON:-python3} scripts/gpu_check.sh

# The VS Code extension: its packaged .vsix (vscode/dist/vtlint.vsix), bundling the wheel
# of `make dist` (the extension offers to install it: vtlint is not on the package index).
vsix: dist
	rm -rf vscode/dist/python && mkdir -p vscode/dist/python && cp dist/vtlint-*.whl vscode/dist/python/
	cd vscode && npm ci --no-audit --no-fund && npm run -s typecheck && npm run -s package

vscode-test:
	cd vscode && npm ci --no-audit --no-fund && npm test

# The extension in a real VS Code workbench (code-server + headless chromium): opens
# examples/seed.py, checks the Problems panel and the hover; then Restricted Mode and the
# trust transition (vscode/e2e/trust.js). Writes artifacts/e2e/. Downloads ~1.4 GB on
# first use (cached in $$E2E_CACHE); not part of `make test`.
e2e: $(STAMP)
	VTLINT_PYTHON=$(abspath $(BIN))/python vscode/e2e/run.sh

# vtlint's runtime step against the same harness run bare under TORCH_TRACE (a ratio).
bench-runtime: $(STAMP)
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python benchmarks/runtime_overhead/bench.py

# Save-to-diagnostics latency of the language server on a 2,000-line file.
bench-editor: $(STAMP)
	$(BIN)/python benchmarks/editor_latency/bench.py

# Accuracy (export-db examples + transformers models vs their runtime facts), speed (vs
# LibCST parse-only and TorchFix, which gets its own venv in benchmarks/.venvs) and scaling.
# Tables on stdout, JSON in build/bench/; see benchmarks/RESULTS.md. Takes tens of minutes.
bench: $(STAMP)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[bench]'
	mkdir -p build/bench
	$(BIN)/python benchmarks/accuracy/run.py --json build/bench/accuracy.json
	$(BIN)/python benchmarks/recompiles/run.py --json build/bench/recompiles.json
	$(BIN)/python benchmarks/speed/run.py --sample 4 --json build/bench/speed.json
	$(BIN)/python benchmarks/scaling/run.py --json build/bench/scaling.json

# The SARIF Multitool (npm, ~100 MB, cached outside the tree) that `make validate-sarif`
# and the SARIF tests use when present; GitHub's ingestion rules are its `Ghas` kind.
SARIF_TOOLS := $${XDG_CACHE_HOME:-$$HOME/.cache}/sarif-tools/multitool-5.7.0
sarif-tools:
	mkdir -p "$(SARIF_TOOLS)"
	echo '{"private":true,"allowScripts":{"@microsoft/sarif-multitool-linux":true}}' > "$(SARIF_TOOLS)/package.json"
	npm install --prefix "$(SARIF_TOOLS)" --no-audit --no-fund @microsoft/sarif-multitool@5.7.0

# The examples' SARIF against the official schema, GitHub's rules and (if installed) the Multitool.
validate-sarif: $(STAMP)
	mkdir -p build
	$(BIN)/vtlint check examples --no-cache --exit-zero --format sarif -o build/examples.sarif
	$(BIN)/python scripts/validate_sarif.py build/examples.sarif

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
