"""Shards lose nothing (issue 16, item 3): `--shard K/N` for every K, merged with
`vtlint merge`, gives exactly the results of one unsharded run, on a generated
200-file tree where compiled entries call into files of other shards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vtlint.report.shard import Shard

LIBS, USERS, SHARDS = 20, 180, 4


def _tree(root: Path) -> Path:
    """Libraries whose helpers break the graph (print, time.time(), .item()) and
    bake constants; every user module compiles an entry that calls two of them."""
    root.mkdir()
    for k in range(LIBS):
        (root / f"lib_{k}.py").write_text(
            f"import time\n\nSCALE = {k}\n\n\ndef helper_{k}(x, n):\n    print(n)\n    t = time.time()\n"
            f"    return x * SCALE + n + t\n\n\ndef total_{k}(x):\n    return x.sum().item() + {k}\n")
    for i in range(USERS):
        a, b = i % LIBS, (i * 7 + 3) % LIBS
        (root / f"user_{i}.py").write_text(
            f"import torch\n\nfrom lib_{a} import helper_{a}\nfrom lib_{b} import total_{b}\n\n\n"
            f"@torch.compile\ndef step_{i}(x, n, items):\n    y = helper_{a}(x, n)\n"
            f"    return y + total_{b}(x) + items[0]\n\n\nstep_{i}(torch.ones(2), {i}, [1, 2])\n")
    return root


def _results(log: dict) -> list[tuple[str, str, int, int, str, str]]:
    (run,) = log["runs"]
    return sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                   r["locations"][0]["physicalLocation"]["region"]["startLine"],
                   r["locations"][0]["physicalLocation"]["region"].get("startColumn", 0),
                   r["message"]["text"], r["partialFingerprints"]["vtlint/v1"]) for r in run["results"])


def test_merged_shards_equal_one_run_on_200_files_with_cross_file_calls(run_cli, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))  # the shards reuse the whole tree's walk
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path / "state"))
    root = _tree(tmp_path / "project")
    whole = run_cli("check", ".", "--format", "sarif", "--jobs", "1", "-o", "whole.sarif", cwd=root)
    assert whole.exit_code == 1, whole.output
    for k in range(1, SHARDS + 1):
        shard = run_cli("check", ".", "--format", "sarif", "--jobs", "1", "--shard", f"{k}/{SHARDS}",
                        "-o", f"s{k}.sarif", cwd=root)
        assert shard.exit_code in (0, 1), shard.output
    merged = run_cli("merge", *(f"s{k}.sarif" for k in range(1, SHARDS + 1)), "-o", "merged.sarif", cwd=root)
    assert merged.exit_code == 0, merged.output
    expected = _results(json.loads((root / "whole.sarif").read_text()))
    got = _results(json.loads((root / "merged.sarif").read_text()))
    lib_results = [r for r in expected if r[1].startswith("lib_")]
    assert len(lib_results) >= 3 * LIBS, "the helpers' breaks and constants were not followed"
    assert got == expected
    shards = [Shard(k, SHARDS) for k in range(1, SHARDS + 1)]
    assert all(sum(s.owns(f"lib_{k}.py") for s in shards) == 1 for k in range(LIBS))
    props = json.loads((root / "merged.sarif").read_text())["runs"][0]["invocations"][0]["properties"]
    assert props["filesAnalyzed"] == LIBS + USERS and props["entries"] == USERS


def test_a_shard_with_nothing_to_report_merges_to_an_empty_results_list(run_cli, tmp_path: Path) -> None:
    """Regression: only `user.py` calls into `lib.py`; 4 shards + merge gave 0 results and no `results` key."""
    (tmp_path / "lib.py").write_text("import time\n\n\ndef helper(x):\n    print(x)\n    return x + time.time()\n")
    (tmp_path / "user.py").write_text("import torch\nfrom lib import helper\n\n\n@torch.compile\ndef f(x):\n"
                                      "    return helper(x)\n")
    (tmp_path / "other.py").write_text("x = 1\n")
    whole = run_cli("check", ".", "--no-cache", "--format", "sarif", "-o", "whole.sarif", cwd=tmp_path)
    assert whole.exit_code == 1
    for k in range(1, 5):
        run_cli("check", ".", "--no-cache", "--format", "sarif", "--shard", f"{k}/4", "-o", f"s{k}.sarif")
    run_cli("merge", *(f"s{k}.sarif" for k in range(1, 5)), "-o", "merged.sarif")
    expected = _results(json.loads((tmp_path / "whole.sarif").read_text()))
    assert len(expected) >= 2 and _results(json.loads((tmp_path / "merged.sarif").read_text())) == expected
    owner = next(k for k in range(1, 5) if Shard(k, 4).owns("other.py"))
    if not any(Shard(owner, 4).owns(p) for p in ("lib.py", "user.py")):
        empty = run_cli("merge", f"s{owner}.sarif")
        assert json.loads(empty.stdout)["runs"][0]["results"] == []
