"""Hyperparameters of torch.nn built-in modules that a run baked and never changed are
one note per module (VTL403), not one runtime-only baked constant each; a hyperparameter
the harness changed between calls (`model.drop.p = 0.3`) is not folded away and its
recompile is still reported; and the static pass's predictions for the same Sources
still join and are confirmed, with nothing repeated as runtime-only.

One real run (`vtlint trace`, backend="eager"), then `vtlint check --runtime-facts`."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from vtlint.findings import Evidence

pytestmark = pytest.mark.torch

MODEL = '''
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.norm(x))
'''

RUN = '''
import torch

from model import Net


def main():
    model = Net()
    compiled = torch.compile(model, backend="eager")
    x = torch.randn(2, 8)
    compiled(x)
    compiled(x)
    model.drop.p = 0.3
    compiled(x)


if __name__ == "__main__":
    main()
'''


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from click.testing import CliRunner

    from vtlint.cli import main

    root = tmp_path_factory.mktemp("builtin_hp").resolve()
    (root / "model.py").write_text(textwrap.dedent(MODEL).lstrip(), encoding="utf-8")
    (root / "run.py").write_text(textwrap.dedent(RUN).lstrip(), encoding="utf-8")
    (root / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    mp = pytest.MonkeyPatch()
    mp.chdir(root)
    try:
        result = CliRunner().invoke(main, ["trace", "--output", "facts.json", "--", sys.executable, "run.py"],
                                    catch_exceptions=False)
    finally:
        mp.undo()
    assert result.exit_code == 0, result.output
    return root


def _check(run_cli, root: Path, *paths: str) -> list[dict]:
    result = run_cli("check", *paths, "--runtime-facts", "facts.json", "--format", "json", "--exit-zero",
                     "--no-cache", "-v", cwd=root)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["findings"]


def test_unchanged_hyperparameters_are_one_note_per_module(traced: Path, run_cli) -> None:
    """Only model.py checked: the static pass never sees the model built, so every fact is
    runtime-only, as with a transformers model built by the harness from its config."""
    findings = _check(run_cli, traced, "model.py")
    notes = {f["source"]: f for f in findings if f["code"] == "VTL403"}
    assert set(notes) == {"L['self'].norm", "L['self'].drop"}, [f["message"] for f in findings]
    norm = notes["L['self'].norm"]
    assert norm["message"].startswith("`L['self'].norm` (LayerNorm): eps=1e-05, normalized_shape=(8,) baked into the graph")
    assert norm["level"] == "note" and norm["evidence"] == Evidence.RUNTIME_ONLY.value
    assert (norm["path"], norm["line"]) == ("model.py", 12)  # self.norm(x), where the project reads it
    assert "EQUALS_MATCH: L['self'].norm.eps == 1e-05" in norm["guard"]
    # the one that changed stays out of the fold: a baked constant, and its recompile
    drop = notes["L['self'].drop"]["message"]
    assert "inplace=False" in drop and "training=True" in drop and "p=" not in drop.replace("inplace=", "")
    baked = {f["source"] for f in findings if f["code"] == "VTL101"}
    assert baked == {"L['self'].drop.p"}, baked
    [recompile] = [f for f in findings if f["code"] == "VTL111"]
    assert recompile["source"] == "L['self'].drop.p" and "L['self'].drop.p == 0.1" in recompile["message"]


def test_predicted_hyperparameters_are_still_confirmed_one_by_one(traced: Path, run_cli) -> None:
    """The whole project checked: the static pass sees `Net()` built and predicts each
    hyperparameter; those join the runtime's and are confirmed, and nothing comes back
    folded or runtime-only."""
    findings = _check(run_cli, traced, ".")
    baked = {f["source"]: f["evidence"] for f in findings if f["code"] == "VTL101"}
    for source in ("L['self'].norm.eps", "L['self'].norm.normalized_shape", "L['self'].drop.training",
                   "L['self'].drop.inplace"):
        assert baked.get(source) == "confirmed", (source, baked)
    assert not [f["message"] for f in findings if f["code"] == "VTL403"]
    assert not [f["message"] for f in findings if f["evidence"] == "runtime-only" and f["code"] == "VTL101"]
    assert {f["evidence"] for f in findings if f["code"] == "VTL111" and f["source"] == "L['self'].drop.p"} <= \
        {"confirmed", "runtime-only"}
    assert [f for f in findings if f["code"] == "VTL111" and f["source"] == "L['self'].drop.p"]


def test_the_notes_are_shown_only_with_show_notes(traced: Path, run_cli) -> None:
    quiet = run_cli("check", "model.py", "--runtime-facts", "facts.json", "--exit-zero", "--no-cache", cwd=traced)
    assert "VTL403" not in quiet.stdout and "VTL111" in quiet.stdout, quiet.stdout
    shown = run_cli("check", "model.py", "--runtime-facts", "facts.json", "--exit-zero", "--no-cache",
                    "--show-notes", cwd=traced)
    assert "model.py:12:" in shown.stdout and "VTL403 `L['self'].norm` (LayerNorm): eps=1e-05" in shown.stdout, \
        shown.stdout


def test_without_the_rule_nothing_is_folded(traced: Path, run_cli) -> None:
    result = run_cli("check", "model.py", "--runtime-facts", "facts.json", "--format", "json", "--exit-zero",
                     "--no-cache", "-v", "--select", "VTL101", cwd=traced)
    sources = {f["source"] for f in json.loads(result.stdout)["findings"]}
    assert {"L['self'].norm.eps", "L['self'].drop.training", "L['self'].drop.p"} <= sources
