"""Bad input, generated: every case is bytes plus where vtlint must point.

No corpus file is committed; tests write these into a temporary tree next to
GOOD, a file whose findings must survive whatever its neighbours do."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

# A compiled function with a graph break: one warning-level finding (exit 1).
GOOD = b"""import torch


@torch.compile
def f(x):
    print("hi")
    return x + 1


f(torch.ones(2))
"""
GOOD_LINE = 6  # the print


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes
    code: str | None  # the finding on that file (VTL001 syntax, VTL002 unreadable); None: no finding
    line: int = 1
    words: str = ""  # a fragment the message must contain


def _nested(n: int) -> bytes:
    return ("\n".join("    " * i + f"def f{i}():" for i in range(n)) + "\n" + "    " * n + "pass\n").encode()


CASES: list[Case] = [
    Case("unclosed_paren", b"x = (1,\ny = 2\n", "VTL001", 2, "never closed"),
    Case("unclosed_bracket_eof", b"x = [1, 2\n", "VTL001", 1, "never closed"),
    Case("bad_indent", b"def f():\n  x = 1\n    y = 2\n", "VTL001", 3, "unexpected indent"),
    Case("tabs_spaces", b"def f():\n\tx = 1\n        y = 2\n", "VTL001", 3, "tabs and spaces"),
    Case("invalid_token", b"x = 1\ny = 1 $ 2\n", "VTL001", 2, "invalid syntax"),
    Case("fstring_conversion", b'x = 1\ny = f"{x!z}"\n', "VTL001", 2, "f-string"),
    Case("fstring_unclosed", b'x = 1\ny = f"{x"\n', "VTL001", 2, "f-string"),
    Case("incomplete_def", b"x = 1\ndef f(\n", "VTL001", 2, ""),
    Case("def_without_body", b"x = 1\ndef f():\n", "VTL001", 2, ""),
    Case("py2_print", b'import os\nprint "x"\n', "VTL001", 2, "print"),
    Case("py2_exec", b'exec "code"\n', "VTL001", 1, ""),
    Case("py2_backticks", b"x = 1\ny = `x`\n", "VTL001", 2, ""),
    Case("nul_byte", b"x = 1\x00\n", "VTL001", 1, "null bytes"),
    Case("nul_byte_on_a_later_line", b"x = 1\ny = 2  \x00\n", "VTL001", 2, "null bytes"),
    Case("invalid_utf8", b'x = 1\ny = 2\nz = "\xff"\n', "VTL002", 3, "not valid utf-8"),
    Case("unknown_codec", b"# -*- coding: nosuchcodec -*-\nx = 1\n", "VTL002", 1, "unknown encoding"),
    Case("utf16_bom", codecs.BOM_UTF16_LE + "x = 1\n".encode("utf-16-le"), "VTL002", 1, "byte-order mark"),
    Case("cookie_lies", b"# coding: ascii\nx = '\xc3\xa9'\n", "VTL002", 2, "not valid ascii"),
    Case("too_many_parens", b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n", "VTL001", 1, ""),
    Case("too_many_brackets", b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "VTL001", 1, ""),
    Case("nested_defs_5000", _nested(5000), "VTL001", 101, "indentation"),
    # Python's parser accepts these: vtlint must too, without a finding.
    Case("return_outside_function", b"return 5\n", None),
    Case("latin1_cookie", b"# -*- coding: latin-1 -*-\nx = '\xe9'\n", None),
    Case("cp1252_cookie", b"# -*- coding: cp1252 -*-\nx = '\x80'\n", None),
    Case("utf8_bom", codecs.BOM_UTF8 + b"x = 1\n", None),
    Case("empty", b"", None),
    Case("only_comments", b"# nothing\n", None),
    Case("exec_eval", b"exec('import os')\neval('1 + 1')\n", None),
    Case("metaclass", b"class M(type):\n    pass\n\n\nclass C(metaclass=M):\n    pass\n", None),
    Case("star_import", b"from os.path import *\nfrom . import *\n", None),
]
