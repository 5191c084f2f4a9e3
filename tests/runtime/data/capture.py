"""How the trace fixtures here were made: run a program under TORCH_TRACE
(and vtlint's hook), then keep the entries the parser reads, with this
machine's paths rewritten to a neutral root and payload checksums recomputed.

    python tests/runtime/data/capture.py TRACE_DIR OUT_DIR PROJECT_ROOT"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

DROP = ("chromium_event", "describe_storage", "describe_tensor", "describe_source", "create_symbol",
        "dynamo_output_graph", "aot_inference_graph")
NEUTRAL_ROOT = "/project"
NEUTRAL_SITE = "/env/site-packages"


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: tests/runtime
from trace_data import log_entries  # noqa: E402

VTLINT_SRC = str(Path(__file__).resolve().parents[3])  # where vtlint's hook was loaded from


def _neutral_tail(match: re.Match[str], root: str) -> str:
    """Guard comments print a file relative to its common prefix with torch's
    install, which can cut into the root (`ome/me/src/x.py`): make it `project/x.py`."""
    tail = match[1]
    for cut in range(1, len(root)):
        head = root[cut:]
        if tail.startswith(head + "/"):
            return match[0].replace(tail, "project" + tail[len(head):], 1)
    return match[0]


def rewrite(text: str, root: str, site: str) -> str:
    text = re.sub(r"  # ([^\s#]+):\d+ in ", lambda m: _neutral_tail(m, root), text)
    return text.replace(site, NEUTRAL_SITE).replace(root, NEUTRAL_ROOT).replace(VTLINT_SRC, "/vtlint")


def sanitize_log(path: Path, root: str, site: str) -> str:
    out: list[str] = []
    for prefix, body, payload in log_entries(path.read_text(encoding="utf-8")):
        data = json.loads(body)
        name = data.get("artifact", {}).get("name", "")
        if any(k in data for k in DROP) or name.endswith("_BYTECODE") or name in ("dynamo_side_effects",):
            continue
        if "compilation_metrics" in data:  # the configs are most of the bytes and none of the facts
            data["compilation_metrics"] = {k: v for k, v in data["compilation_metrics"].items() if not k.endswith("config")}
        text = rewrite("\n".join(payload), root, site)
        if "has_payload" in data:
            data["has_payload"] = hashlib.md5(text.encode()).hexdigest()
        if "str" in data:
            data["str"][0] = rewrite(data["str"][0], root, site)
        out.append(f"{prefix}] {rewrite(json.dumps(data), root, site)}")
        if "has_payload" in data:
            out.extend("\t" + line for line in text.split("\n"))
    return "\n".join(out) + "\n"


def main() -> None:
    trace, dest, root = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3].rstrip("/")
    import torch

    site = str(Path(torch.__file__).parent.parent)
    dest.mkdir(parents=True, exist_ok=True)
    for log in trace.glob("dedicated_log_torch_trace_*.log"):
        name = re.sub(r"_[a-z0-9]+\.log$", "_fixture.log", log.name)
        (dest / name).write_text(sanitize_log(log, root, site), encoding="utf-8")
    for inline in trace.glob("vtlint_inline_*.jsonl"):
        (dest / "vtlint_inline_fixture.jsonl").write_text(rewrite(inline.read_text(), root, site), encoding="utf-8")


if __name__ == "__main__":
    main()
