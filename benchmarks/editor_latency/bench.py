"""Editor latency of `vtlint lsp`: the time from a save (didChange + didSave) to the
published diagnostics of that version, for a generated 2,000-line file with compiled
entries, over 50 saves. Target: p95 < 200 ms.

    python benchmarks/editor_latency/bench.py [--lines 2000] [--saves 50] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

BLOCK = '''
class Config{i}:
    scale = {i}
    enabled = True


cfg{i} = Config{i}()


def helper{i}(t, k):
    return t * k + {i}


@torch.compile
def step{i}(x, n, items, cfg=cfg{i}):
    y = helper{i}(x, n)
    if cfg.enabled:
        y = y + cfg.scale
    print("step {i}")
    return y * items[0]


class Block{i}(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0
        self.linear = torch.nn.Linear(8, 8)

    def forward(self, x):
        self.step += 1
        return self.linear(x) * self.step


def run{i}():
    x = torch.randn(8)
    step{i}(x, 3, [1, 2])
    return Block{i}()(x)
'''


def program(lines: int) -> str:
    parts = ['"""Generated for the editor-latency benchmark."""\n\nimport torch\n']
    i = 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(BLOCK.format(i=i))
        i += 1
    text = "".join(parts)
    return "\n".join(text.splitlines()[:lines]) + "\n"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def analysis_ms(target: Path, texts: list[str], warm: bool) -> list[float]:
    """`run_check` on each buffer in this process: as the CLI runs it (no parse kept
    between calls) or, with `warm`, as the server runs it (a ChunkCache kept)."""
    from vtlint.analyzer.chunks import ChunkCache
    from vtlint.analyzer.files import SourceFile
    from vtlint.check import run_check
    from vtlint.config import load_config

    config = load_config([target])
    files = [SourceFile(target, target.name)]
    chunks = ChunkCache() if warm else None
    if chunks is not None:  # the server parsed the file when it was opened
        run_check([target.parent], config, files=files, overrides={target: target.read_text()}, use_cache=False,
                  chunks=chunks)
    times = []
    for text in texts:
        started = time.perf_counter()
        run_check([target.parent], config, files=files, overrides={target: text}, use_cache=False, chunks=chunks)
        times.append((time.perf_counter() - started) * 1000)
    return times


def edit_for(version: int, lines: list[str]) -> tuple[int, int, str]:
    """A user's edit: odd versions insert a comment line, even ones change the value of a
    baked constant (`scale = N` of some config class). Every version's text is new: a save
    that changes nothing would be answered from the walk cache. (first line, end line, new text)."""
    at = 4 + (version * 37) % (len(lines) - 5)
    if version % 2:
        return at, at, f"# edit {version}\n"
    line = next((i for i in range(at, len(lines)) if lines[i].lstrip().startswith("scale = ")), None)
    if line is None:
        line = next(i for i in range(len(lines)) if lines[i].lstrip().startswith("scale = "))
    return line, line + 1, f"    scale = {1000 + version}\n"


async def measure(lines: int, saves: int) -> dict[str, object]:
    root = Path(tempfile.mkdtemp(prefix="vtlint-bench-"))
    (root / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    target = root / "big.py"
    text = program(lines)
    target.write_text(text, encoding="utf-8")
    uri = target.as_uri()

    published: dict[int, float] = {}
    counts: dict[int, int] = {}
    arrived = asyncio.Event()
    client = LanguageClient("bench", "1")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri and params.version is not None:
            published[params.version] = time.perf_counter()
            counts[params.version] = len(params.diagnostics)
            arrived.set()

    async def wait_for(version: int, timeout: float = 120) -> float:
        """Sleep until the diagnostics of `version` arrive (no polling: the client
        must not steal CPU from the server it measures)."""
        while version not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), timeout)
        return published[version]

    await client.start_io(sys.executable, "-m", "vtlint", "lsp", "--stdio")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "bench")],
        )
    )
    client.initialized(types.InitializedParams())

    started = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text)))
    first = await wait_for(1, timeout=300) - started

    latencies = []
    lines_of = text.splitlines(keepends=True)
    versions: list[str] = []
    for version in range(2, saves + 2):
        first_line, end_line, new_text = edit_for(version, lines_of)
        edit = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(first_line, 0), types.Position(end_line, 0)), text=new_text
        )
        lines_of[first_line:end_line] = [new_text]
        versions.append("".join(lines_of))
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(types.VersionedTextDocumentIdentifier(version=version, uri=uri), [edit])
        )
        sent = time.perf_counter()
        client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
        latencies.append((await wait_for(version) - sent) * 1000)

    # the same analysis in-process, without the server: what the protocol adds, and what
    # keeping the parse warm saves over the CLI's path
    cold = analysis_ms(target, versions[:10], warm=False)
    warm = analysis_ms(target, versions, warm=True)
    status = await client.workspace_execute_command_async(types.ExecuteCommandParams("vtlint.serverStatus"))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {
        "lines": lines,
        "saves": saves,
        "first_open_ms": round(first * 1000, 1),
        "p50_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "max_ms": round(max(latencies), 1),
        "run_check_cold_p50_ms": round(statistics.median(cold), 1),
        "run_check_warm_p50_ms": round(statistics.median(warm), 1),
        "run_check_warm_p95_ms": round(percentile(warm, 95), 1),
        "server_overhead_p50_ms": round(statistics.median(latencies) - statistics.median(warm), 1),
        "diagnostics": counts.get(saves + 1, 0),
        "torch_imported": status["torch_imported"],
        "target_p95_ms": 200,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--saves", type=int, default=50)
    parser.add_argument("--json", type=Path, help="also write the result to this file")
    args = parser.parse_args()
    result = asyncio.run(measure(args.lines, args.saves))
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if result["p95_ms"] < result["target_p95_ms"] else 1


if __name__ == "__main__":
    sys.exit(main())
