"""`--format html`: one self-contained page (no network to view it), each compiled
entry's code drawn as graph segments split at the breaks, baked constants marked with
their guards, recompiles with their changing sites, inlined calls expandable. The
browser test renders it in headless Chromium when one is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def page(run_cli, tmp_path: Path) -> str:
    result = run_cli("check", str(EXAMPLES), "--format", "html", "-o", str(tmp_path / "report.html"), cwd=EXAMPLES)
    assert result.exit_code == 1, result.output
    return (tmp_path / "report.html").read_text(encoding="utf-8")


def _section(page: str, entry: str) -> str:
    start = page.index(f"<h2 id='e-{re.sub(r'[^A-Za-z0-9_-]+', '-', entry)}'>")
    return page[start:page.find("<section", start)]


def test_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for external in ("http://", "https://", "<script", "<link", "<img", "url(", "@import"):
        assert external not in page, external


def test_graphs_split_at_the_breaks(page: str) -> None:
    normalize = _section(page, "pitfalls.py:normalize")
    rows = re.findall(r"<div class='ln g(\d)'><span class='no'>(\d+)</span>", normalize)
    assert rows == [("1", "6"), ("1", "7"), ("0", "8"), ("2", "9"), ("2", "10")]
    assert "GB0170 Data-dependent branching</b>: graph 1 ends here" in normalize
    assert "predicted: 2 graphs" in normalize


def test_constants_guards_recompiles_and_inlined_calls(page: str) -> None:
    seed = _section(page, "seed.py:f")
    # each baked constant is marked at its own read (exact ranges)
    assert "<mark class='const' title='EQUALS_MATCH: L[&#x27;cfg&#x27;].scale == 2'>cfg.scale</mark>" in seed
    assert "<mark class='const' title='EQUALS_MATCH: L[&#x27;n&#x27;] == 3'>n</mark>" in seed
    assert "guard <code>LENGTH_CHECK: len(L[&#x27;items&#x27;]) == 2</code>" in seed
    assert "<h3>Recompiles</h3>" in seed and "changes here</span> 29  g(x, 4, [1, 2])" in seed
    inlined = seed[seed.index("<details class='ann inline'>"):]
    assert "def helper(t):\n    return t * 3" in inlined[:inlined.index("</details>")]
    assert "step_counter.py:StepCounter.forward</a>: `L[&#x27;self&#x27;].step` at" in page  # what will recompile


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium not installed (apt-get install chromium)")
def test_renders_in_headless_chromium(page: str, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    html.write_text(page, encoding="utf-8")
    shot = tmp_path / "report.png"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={tempfile.mkdtemp(dir=tmp_path)}"]
    dom = subprocess.run(["chromium", *flags, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.stdout.count("<section class=\"entry\">") == 6, dom.stderr[-2000:]
    subprocess.run(["chromium", *flags, "--window-size=1280,2000", f"--screenshot={shot}", html.as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000
