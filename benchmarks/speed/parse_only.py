"""The physical floor of a LibCST-based linter: read and parse every file, nothing else.

    python benchmarks/speed/parse_only.py DIR     (one process, like `--jobs 1`)"""

from __future__ import annotations

import sys
from pathlib import Path

import libcst as cst


def main() -> int:
    parsed = failed = 0
    for path in sorted(Path(sys.argv[1]).rglob("*.py")):
        try:
            cst.parse_module(path.read_bytes())
            parsed += 1
        except (cst.ParserSyntaxError, RecursionError):
            failed += 1
    print(f"parsed {parsed} files, {failed} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
