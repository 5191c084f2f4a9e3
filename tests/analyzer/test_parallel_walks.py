"""Entries walked in worker processes (`--jobs N`): each entry is walked alone, against the project as
discovery left it, and the walks are merged in the entries' order, so any N gives the output of one
process, byte for byte, cold or warm."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vtlint.analyzer import Prediction
from vtlint.analyzer import project as analyzer_project
from vtlint.trace import Action

# Entries in three modules (two compiled by the script, every `forward` by --assume-compiled); two of them
# call one helper that breaks, so its frame is compiled once for the run, whichever entry reaches it first.
FILES = {
    "blocks.py": """
        import torch
        from torch import nn


        def noisy(x):
            print("scale", x.shape)
            return x + 1


        class Block(nn.Module):
            def __init__(self, scale: float) -> None:
                super().__init__()
                self.scale = scale
                self.lin = nn.Linear(4, 4)

            def forward(self, x):
                return noisy(self.lin(x)) * self.scale
        """,
    "net.py": """
        import torch
        from torch import nn

        from blocks import Block, noisy


        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.blocks = nn.ModuleList([Block(2.0), Block(3.0)])
                self.calls = 0

            def forward(self, x):
                self.calls += 1
                for block in self.blocks:
                    x = block(x)
                if x.sum() > 0:
                    x = x * 2
                return noisy(x)
        """,
    "train.py": """
        import torch

        from net import Net
        from blocks import noisy


        @torch.compile
        def loss_fn(x, scale: float):
            return noisy(x).mean() * scale


        def main() -> None:
            model = Net()
            step = torch.compile(model)
            for i in range(3):
                out = step(torch.randn(2, 4))
                loss_fn(out, 0.5 * i)


        if __name__ == "__main__":
            main()
        """,
}


def _check(run_cli: Callable[..., Any], root: Path, jobs: int, fmt: str, cache: Path,
           monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(cache))
    out = root.parent / f"out-{fmt}-{jobs}-{cache.name}"
    result = run_cli("check", root, "--assume-compiled", "forward", "--jobs", jobs, "--format", fmt, "-o", out,
                     "--exit-zero", cwd=root)
    assert result.exit_code == 0, result.output
    return out.read_bytes()


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_output_is_byte_identical_for_any_jobs_cold_and_warm(run_cli, project, tmp_path: Path, fmt: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    root = project({f"src/{name}": text for name, text in FILES.items()}) / "src"
    cold1 = _check(run_cli, root, 1, fmt, tmp_path / "cache-a", monkeypatch)
    cold2 = _check(run_cli, root, 2, fmt, tmp_path / "cache-b", monkeypatch)
    warm1 = _check(run_cli, root, 1, fmt, tmp_path / "cache-b", monkeypatch)  # the cache --jobs 2 wrote
    warm2 = _check(run_cli, root, 2, fmt, tmp_path / "cache-a", monkeypatch)  # the cache --jobs 1 wrote
    assert cold1 == cold2 == warm1 == warm2
    if fmt == "json":
        findings = json.loads(cold1)["findings"]
        assert {f["code"] for f in findings} >= {"VTL101"}, findings  # the breaks are there to compare
        assert len({f["path"] for f in findings}) >= 2


def test_walks_run_in_workers_and_merge_as_one_process_would(predict, monkeypatch: pytest.MonkeyPatch) -> None:
    pooled: list[str] = []
    real = analyzer_project._in_workers

    def spy(jobs: int, work: Callable[[Any], list[Any]], batches: list[Any], context: Any = None) -> list[Any]:
        pooled.append(getattr(work, "__name__", type(work).__name__))
        return real(jobs, work, batches, context)

    monkeypatch.setattr(analyzer_project, "_in_workers", spy)
    files = {f"src/{name}": text.replace("\n        ", "\n") for name, text in FILES.items()}
    one: Prediction = predict(files, jobs=1, assume_compiled=("forward",))
    assert pooled == []
    two: Prediction = predict(files, jobs=2, assume_compiled=("forward",))
    assert pooled == ["_walk_task"]
    assert [e.to_dict() for e in two.events] == [e.to_dict() for e in one.events]
    assert two.entries == one.entries and two.notifications == one.notifications
    entries = {e.entry.rpartition(":")[2] for e in one.events if e.action is Action.FRAME}
    assert {"loss_fn", "Net.forward", "Block.forward"} <= entries
    # the helper that breaks is one compiled frame of the run, however many entries reach it
    helper_frames = [e for e in one.events if e.action is Action.FRAME and e.entry.endswith(":noisy")]
    assert len(helper_frames) == 1
