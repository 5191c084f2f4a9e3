"""`vtlint.confirmAtRuntime` for real: the harness runs under Dynamo's structured
trace (eager backend) and the editor's diagnostics carry the runtime's evidence."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.lsp.conftest import lsp_session

pytestmark = [pytest.mark.asyncio, pytest.mark.torch]

SEED = Path(__file__).resolve().parents[2] / "examples" / "seed.py"


async def test_confirm_at_runtime_marks_the_seed_findings_confirmed(tmp_path: Path) -> None:
    text = SEED.read_text(encoding="utf-8").replace("torch.compile(f)", 'torch.compile(f, backend="eager")')
    assert 'backend="eager"' in text
    (tmp_path / "seed.py").write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.vtlint.runtime]\ncommand = '{sys.executable} seed.py'\ntimeout = 120\n", encoding="utf-8"
    )
    async with lsp_session(tmp_path, {"trusted": True}) as s:
        uri = s.open("seed.py")
        await s.wait_diagnostics(uri, lambda d: any(x.code == "VTL101" for x in d))
        answer = await s.command("vtlint.confirmAtRuntime", uri)
        assert answer["ok"] is True and answer["events"] > 0 and answer["faults"] == 0, answer
        diags = await s.wait_diagnostics(uri, lambda d: any("confirmed at runtime" in x.message for x in d))
        baked_n = next(d for d in diags if d.code == "VTL101" and "L['n']" in d.message)
        assert baked_n.message.endswith("(confirmed at runtime)")
        status = await s.command("vtlint.serverStatus")
        assert status["torch_imported"] is False  # the harness ran in its own process
