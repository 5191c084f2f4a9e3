"""`vtlint lsp` end to end over stdio: what an editor sees."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from lsprotocol import types

from tests.lsp.conftest import lsp_session

pytestmark = pytest.mark.asyncio

BROKEN = "def f(x:\n    return x\n"
FIXED = "def f(x):\n    return x\n"


async def test_syntax_error_diagnostic_then_fixed_by_a_change(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        uri = s.open("mod.py", BROKEN)
        [diag] = await s.wait_diagnostics(uri, lambda d: len(d) == 1)
        assert diag.code == "VTL001" and diag.source == "vtlint"
        assert diag.severity == types.DiagnosticSeverity.Error
        assert diag.code_description is not None and diag.code_description.href.endswith("#vtl001-syntax-error")
        assert diag.range.start.line == 1
        s.replace(uri, FIXED)
        assert await s.wait_diagnostics(uri, lambda d: not d) == []
        status = await s.command("vtlint.serverStatus")
        assert status["torch_imported"] is False  # the diagnostics path never imports torch


async def test_hover_on_a_finding_is_markdown_with_the_rule_and_evidence(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        uri = s.open("mod.py", BROKEN)
        [diag] = await s.wait_diagnostics(uri, lambda d: len(d) == 1)
        hover = await s.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), diag.range.start)
        )
        assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
        assert "**VTL001** `syntax-error`" in hover.contents.value
        assert "Evidence: predicted" in hover.contents.value
        nothing = await s.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
        )
        assert nothing is None


async def test_unused_noqa_is_tagged_unnecessary_and_noqa_action_edits_the_line(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, {"select": ["VTL", "VTL901"]}) as s:
        uri = s.open("mod.py", "x = 1  # noqa: VTL101\ny = (\n")
        diags = await s.wait_diagnostics(uri, lambda d: {x.code for x in d} == {"VTL901", "VTL001"})
        unused = next(d for d in diags if d.code == "VTL901")
        assert list(unused.tags or []) == [types.DiagnosticTag.Unnecessary]
        syntax = next(d for d in diags if d.code == "VTL001")
        actions = await s.client.text_document_code_action_async(
            types.CodeActionParams(types.TextDocumentIdentifier(uri), syntax.range, types.CodeActionContext([syntax]))
        )
        [noqa] = [a for a in actions if a.title.startswith("Suppress VTL001")]
        [edit] = noqa.edit.changes[uri]
        assert edit.new_text.endswith("  # noqa: VTL001")
        assert edit.range.start.line == syntax.range.start.line


async def test_editor_ignore_setting_drops_a_code(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, {"ignore": ["VTL001"]}) as s:
        uri = s.open("mod.py", BROKEN)
        assert await s.wait_diagnostics(uri) == []


async def test_broken_pyproject_is_a_diagnostic_on_that_file_not_a_dead_server(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n\n[tool.vtlint]\nselect = "VTL"\n')
    async with lsp_session(tmp_path) as s:
        uri = s.open("mod.py", BROKEN)
        config_uri = s.uri("pyproject.toml")
        [problem] = await s.wait_diagnostics(config_uri)
        assert problem.range.start.line == 4  # the `select = "VTL"` line
        assert "select" in problem.message and problem.severity == types.DiagnosticSeverity.Error
        assert [d.code for d in await s.wait_diagnostics(uri)] == ["VTL001"]  # linted with the defaults


async def test_invalid_toml_points_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.vtlint]\nselect = [\"VTL\"\nignore = []\n")
    async with lsp_session(tmp_path) as s:
        s.open("mod.py", FIXED)
        [problem] = await s.wait_diagnostics(s.uri("pyproject.toml"))
        assert "invalid TOML" in problem.message and problem.range.start.line in (1, 2)


async def test_a_ten_megabyte_file_hits_the_budget_and_the_server_stays_responsive(tmp_path: Path) -> None:
    line = "value_{0} = compute(value_{0}, 1234567890)  # padding padding padding padding\n"
    huge = "".join(line.format(i) for i in range(130_000))
    assert len(huge) > 10_000_000
    async with lsp_session(tmp_path) as s:
        started = time.monotonic()
        uri = s.open("huge.py", huge)
        [diag] = await s.wait_diagnostics(uri, timeout=10)
        assert "analysis budget" in diag.message and diag.severity == types.DiagnosticSeverity.Information
        small = s.open("small.py", BROKEN)
        assert [d.code for d in await s.wait_diagnostics(small)] == ["VTL001"]
        assert time.monotonic() - started < 10


async def test_runtime_confirmation_is_refused_in_an_untrusted_workspace(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        s.open("mod.py", FIXED)
        answer = await s.command("vtlint.confirmAtRuntime")
        assert answer["ok"] is False and "untrusted" in answer["text"]


async def test_runtime_confirmation_without_a_harness_says_why(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, {"trusted": True}) as s:
        uri = s.open("mod.py", FIXED)
        await s.wait_diagnostics(uri)
        status = await s.command("vtlint.serverStatus")
        answer = await s.command("vtlint.confirmAtRuntime", uri)
        assert answer["ok"] is False
        expected = "no harness configured" if status["runtime_available"] else "runtime step is unavailable"
        assert expected in answer["text"]


SEED = Path(__file__).resolve().parents[2] / "examples" / "seed.py"


async def test_seed_example_diagnostics_and_hover_speak_dynamo(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.vtlint]\n")
    text = SEED.read_text(encoding="utf-8")
    (tmp_path / "seed.py").write_text(text, encoding="utf-8")
    async with lsp_session(tmp_path) as s:
        uri = s.open("seed.py")
        diags = await s.wait_diagnostics(uri, lambda d: {"VTL101", "VTL111"} <= {x.code for x in d})
        assert {"VTL101", "VTL102", "VTL111", "VTL301"} <= {d.code for d in diags}
        baked_n = next(d for d in diags if d.code == "VTL101" and "L['n']" in d.message)
        line = text.splitlines()[baked_n.range.start.line]
        assert line.strip() == "return y * n + items[0] + cfg.scale"
        on_n = types.Position(baked_n.range.start.line, line.index("* n") + 2)
        hover = await s.client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), on_n))
        first = hover.contents.value.split("---")[0]  # the finding about the hovered name comes first
        assert "- Source: `L['n']`" in first
        assert "- Guard: `EQUALS_MATCH: L['n'] == 3`" in first
        assert "- VariableTracker: `ConstantVariable`" in first
        # the change that stops mutating cfg.scale removes that recompile finding
        assert any(d.code == "VTL111" and "scale" in d.message for d in diags)
        s.replace(uri, text.replace("    cfg.scale = 5", "    pass"))
        after = await s.wait_diagnostics(uri, lambda d: not any(x.code == "VTL111" and "scale" in x.message for x in d))
        assert any(d.code == "VTL111" and "L['n']" in d.message for d in after)
        status = await s.command("vtlint.serverStatus")
        assert status["torch_imported"] is False


async def test_editing_a_helper_is_linted_through_the_entry_that_inlines_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.vtlint]\n")
    s_helpers = "def scale(t, k):\n    return t * k\n"
    s_main = "import torch\n\nfrom helpers import scale\n\n\n@torch.compile\ndef train_step(x):\n    return scale(x, 2) + 1\n"
    (tmp_path / "helpers.py").write_text(s_helpers)
    (tmp_path / "main.py").write_text(s_main)
    async with lsp_session(tmp_path) as s:
        main_uri = s.uri("main.py")  # never opened: its entry is known from the inline chains
        helpers_uri = s.open("helpers.py")
        assert await s.wait_diagnostics(helpers_uri) == []
        # an unsaved edit of the helper: the break is found through main.py's entry
        s.replace(helpers_uri, 'def scale(t, k):\n    print("k")\n    return t * k\n')
        diags = await s.wait_diagnostics(helpers_uri, lambda d: any(x.code.startswith("VTL2") for x in d))
        brk = next(d for d in diags if d.code.startswith("VTL2"))
        assert brk.range.start.line == 1 and "GB0059" in brk.message
        chain = [r for r in brk.related_information or [] if r.location.uri == main_uri]
        assert chain, "the inline chain points back at the call in main.py"
        assert (await s.command("vtlint.serverStatus"))["scans"] == 1  # learnt once, in the background


async def test_typing_is_debounced_and_a_save_of_a_linted_buffer_costs_nothing(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        uri = s.open("mod.py", FIXED)
        await s.wait_diagnostics(uri)
        assert (await s.command("vtlint.serverStatus"))["lints"] == 1
        for text in ("def f(x):\n    return x +\n", "def f(x):\n    return x + 1\n", BROKEN):  # a burst of keystrokes
            s.replace(uri, text)
        await s.wait_diagnostics(uri, lambda d: [x.code for x in d] == ["VTL001"])
        assert (await s.command("vtlint.serverStatus"))["lints"] == 2  # one lint for the burst
        save = types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))
        s.client.text_document_did_save(save)
        await asyncio.sleep(0.5)
        assert (await s.command("vtlint.serverStatus"))["lints"] == 2  # the buffer was already current
        s.replace(uri, FIXED)
        s.client.text_document_did_save(save)  # lints now and cancels the pending debounce
        await s.wait_diagnostics(uri, lambda d: not d)
        await asyncio.sleep(0.5)
        assert (await s.command("vtlint.serverStatus"))["lints"] == 3


async def test_each_file_gets_the_configuration_of_its_own_project(tmp_path: Path) -> None:
    (tmp_path / "quiet").mkdir()
    (tmp_path / "quiet" / "pyproject.toml").write_text('[tool.vtlint]\nignore = ["VTL001"]\n')
    async with lsp_session(tmp_path) as s:
        quiet = s.open("quiet/mod.py", BROKEN)
        loud = s.open("loud/mod.py", BROKEN)
        assert [d.code for d in await s.wait_diagnostics(loud)] == ["VTL001"]
        assert await s.wait_diagnostics(quiet) == []
        status = await s.command("vtlint.serverStatus")
        assert sorted(status["projects"]) == sorted([str(tmp_path.resolve()), str((tmp_path / "quiet").resolve())])


async def test_fixing_the_pyproject_clears_its_diagnostic(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.vtlint]\nselect = "VTL"\n')
    async with lsp_session(tmp_path) as s:
        uri = s.open("mod.py", FIXED)
        assert len(await s.wait_diagnostics(s.uri("pyproject.toml"))) == 1
        config.write_text('[tool.vtlint]\nselect = ["VTL"]\n')
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            [types.FileEvent(s.uri("pyproject.toml"), types.FileChangeType.Changed)]))
        assert await s.wait_diagnostics(s.uri("pyproject.toml"), lambda d: not d) == []
        assert await s.wait_diagnostics(uri) == []
