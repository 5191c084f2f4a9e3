"""Bad input, the no-import guarantee, the cache and parallel jobs."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from vtlint.analyzer import Prediction, analyze
from vtlint.analyzer.cache import Cache
from vtlint.analyzer.files import discover
from vtlint.config import Config
from vtlint.findings import Kind
from vtlint.trace import Action

Predict = Callable[..., Prediction]
ROOT = Path(__file__).resolve().parents[2]


def test_syntax_error_has_pythons_message_and_a_precise_location(predict: Predict) -> None:
    prediction = predict({"bad.py": "x = 1\ndef f(:\n    pass\n", "ok.py": "import torch\n@torch.compile\ndef g(x):\n"
                          "    return x\n"})
    [problem] = prediction.problems
    assert problem.kind is Kind.SYNTAX_ERROR and problem.location.path == "bad.py" and problem.location.line == 2
    assert problem.message.startswith("SyntaxError: invalid syntax")
    assert [e.entry for e in prediction.entries] == ["ok.py:g"]  # the rest of the project is still analyzed


def test_deep_nesting_never_raises(predict: Predict) -> None:
    deep = "import torch\n@torch.compile\ndef f(x):\n    return " + "(" * 400 + "x" + ")" * 400 + "\n"
    nested = "x = " + "[" * 3000 + "]" * 3000 + "\n"
    prediction = predict({"deep.py": deep, "nested.py": nested})
    assert {p.location.path for p in prediction.problems} <= {"nested.py", "deep.py"}


def test_dynamic_features_degrade_to_unknown(predict: Predict) -> None:
    source = """
        import torch
        from helpers import *

        @torch.compile
        def f(x, name):
            k = getattr(SETTINGS, name)
            exec("y = 1")
            return x * k + SCALE

        def main():
            f(torch.ones(2), "depth")
    """
    prediction = predict({"m.py": source, "helpers.py": "SCALE = 3\n"})
    assert [e.source for e in prediction.events if e.action is Action.WRAP] == []
    notes = " ".join(n.message for n in prediction.notifications)
    assert "star-import" in notes and "getattr" in notes


def test_the_static_pass_imports_neither_torch_nor_user_code(tmp_path: Path) -> None:
    marker = tmp_path / "imported.marker"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('x')\nimport torch\n\n"
                                      "@torch.compile\ndef f(x):\n    return x + 1\n")
    (tmp_path / "user.py").write_text("import evil\n\ndef main():\n    evil.f(1)\n")
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from vtlint.check import run_check
        from vtlint.config import Config
        root = Path({str(tmp_path)!r})
        result = run_check([root], Config(root=root), use_cache=False)
        assert [e.entry for e in result.entries] == ["evil.py:f"], result.entries
        assert "torch" not in sys.modules, "the static pass imported torch"
        assert "evil" not in sys.modules and "user" not in sys.modules
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    assert not marker.exists()


def _project(root: Path, count: int) -> list:
    for i in range(count):
        (root / f"mod{i}.py").write_text(
            f"import torch\n\nSCALE = {i}\n\ndef helper(t):\n    return t * SCALE\n\n"
            f"@torch.compile\ndef f{i}(x, n):\n    return helper(x) + n\n\ndef main():\n    f{i}(torch.ones(2), {i})\n"
        )
    config = Config(root=root)
    return discover([root], config).files


def test_cache_hits_and_rebuilds_corrupt_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))
    files = _project(tmp_path / "proj", 0) or None
    root = tmp_path / "proj"
    root.mkdir(exist_ok=True)
    files = _project(root, 4)
    config = Config(root=root)
    cold = analyze(files, config, use_cache=True)
    warm = analyze(files, config, use_cache=True)
    assert [e.to_dict() for e in warm.events] == [e.to_dict() for e in cold.events] and cold.events
    entries = list((tmp_path / "cache").rglob("*"))
    for path in entries:
        if path.is_file():
            path.write_bytes(path.read_bytes()[:20])  # truncated writes, disk errors
    rebuilt = analyze(files, config, use_cache=True)
    assert [e.to_dict() for e in rebuilt.events] == [e.to_dict() for e in cold.events]
    cache = Cache(True)
    assert cache.get("walk", "0" * 64) is None


def test_an_edit_invalidates_the_cached_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    root.mkdir()
    files = _project(root, 2)
    config = Config(root=root)
    before = {e.guard for e in analyze(files, config).events if e.action is Action.WRAP}
    (root / "mod1.py").write_text((root / "mod1.py").read_text().replace("SCALE = 1", "SCALE = 7"))
    after = {e.guard for e in analyze(files, config).events if e.action is Action.WRAP}
    assert "EQUALS_MATCH: G['SCALE'] == 1" in before and "EQUALS_MATCH: G['SCALE'] == 7" in after


def test_jobs_give_the_same_prediction(tmp_path: Path) -> None:
    files = _project(tmp_path, 12)
    config = Config(root=tmp_path)
    one = analyze(files, config, jobs=1, use_cache=False)
    two = analyze(files, config, jobs=2, use_cache=False)
    assert [e.to_dict() for e in one.events] == [e.to_dict() for e in two.events]
    assert len([e for e in one.events if e.action is Action.FRAME]) == 12
