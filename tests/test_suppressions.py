from vtlint.findings import Finding, Kind, Level, Location
from vtlint.report.suppressions import apply_suppressions, noqa_edit_text, parse_suppressions


def finding(code: str, line: int, path: str = "m.py") -> Finding:
    return Finding(code, Kind.GRAPH_BREAK, Level.WARNING, Location(path, line, 1), "msg")


def test_line_codes_prefixes_and_blanket() -> None:
    text = "a = 1  # noqa: VTL101, VTL2\nb = 2  # noqa\nc = 3\nd = 4  # NOQA:vtl3\n"
    findings = [finding("VTL101", 1), finding("VTL205", 1), finding("VTL102", 1), finding("VTL999", 2),
                finding("VTL101", 3), finding("VTL301", 4)]
    kept, _ = apply_suppressions(findings, {"m.py": text}, report_unused=False)
    assert [(f.code, f.location.line) for f in kept] == [("VTL102", 1), ("VTL101", 3)]


def test_noqa_inside_a_string_is_not_a_suppression() -> None:
    text = 's = "# noqa: VTL101"\n'
    kept, _ = apply_suppressions([finding("VTL101", 1)], {"m.py": text}, report_unused=False)
    assert len(kept) == 1


def test_file_level_forms() -> None:
    whole = parse_suppressions("# vtlint: noqa\nx = 1\n")
    assert whole.file_codes is None
    some = parse_suppressions("# vtlint: noqa: VTL1\nx = 1\n")
    kept, _ = apply_suppressions([finding("VTL101", 2), finding("VTL201", 2)], {"m.py": "# vtlint: noqa: VTL1\nx = 1\n"}, False)
    assert some.file_codes == ("VTL1",)
    assert [f.code for f in kept] == ["VTL201"]


def test_unused_vtl_codes_are_reported_other_tools_codes_are_not() -> None:
    text = "a = 1  # noqa: VTL101, VTL205, E501\n"
    kept, unused = apply_suppressions([finding("VTL101", 1)], {"m.py": text}, report_unused=True)
    assert kept == []
    assert len(unused) == 1
    assert unused[0].code == "VTL901"
    assert "VTL205" in unused[0].message and "VTL101" not in unused[0].message and "E501" not in unused[0].message
    assert unused[0].location.column == 8


def test_unparsable_text_has_no_suppressions_but_does_not_fail() -> None:
    kept, unused = apply_suppressions([finding("VTL001", 1)], {"m.py": "def f(:\n  '''\n"}, report_unused=True)
    assert len(kept) == 1 and unused == []


def test_noqa_edit_text() -> None:
    assert noqa_edit_text("x = 1\n", "VTL101") == "x = 1  # noqa: VTL101\n"
    assert noqa_edit_text("x = 1  # noqa: VTL2\r\n", "VTL101") == "x = 1  # noqa: VTL2, VTL101\r\n"
    assert noqa_edit_text("x = 1  # noqa: VTL101\n", "VTL101") == "x = 1  # noqa: VTL101\n"
    assert noqa_edit_text("x = 1  # noqa\n", "VTL101") == "x = 1  # noqa\n"
