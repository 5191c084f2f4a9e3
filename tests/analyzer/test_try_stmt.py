"""A `try` of the root frame counts while its body runs, and stops counting however the body ends: a graph
break or an aborted eager walk unwinding through it must not leave later breaks of the frame marked as
inside a `try` (which skips the frame)."""

from __future__ import annotations

from types import SimpleNamespace

import libcst as cst
import pytest

from vtlint.analyzer import walk


class _Unwound(Exception):
    pass


def _try_statement() -> cst.Try:
    statement = cst.parse_module("try:\n    x = 1\nexcept ValueError:\n    pass\n").body[0]
    assert isinstance(statement, cst.Try)
    return statement


def _frame(block) -> SimpleNamespace:  # type: ignore[no-untyped-def]
    return SimpleNamespace(handlers=0, catching=[], in_try=0, block=block)


@pytest.mark.parametrize("unwinding", [_Unwound, walk._FrameSkipped, walk._GuessedBreak])
def test_a_body_that_unwinds_leaves_no_try_counted(unwinding: type[Exception]) -> None:
    seen: list[int] = []

    def block(body: cst.BaseSuite, act: object) -> None:
        seen.append(frame.in_try)
        raise unwinding

    frame = _frame(block)
    with pytest.raises(unwinding):
        walk.Walker.try_stmt(frame, _try_statement(), SimpleNamespace(depth=0))  # type: ignore[arg-type]
    assert seen == [1]
    assert (frame.in_try, frame.handlers, frame.catching) == (0, 0, [])


def test_an_inlined_callees_try_is_not_counted() -> None:
    seen: list[int] = []
    frame = _frame(lambda body, act: seen.append(frame.in_try))
    walk.Walker.try_stmt(frame, _try_statement(), SimpleNamespace(depth=2))  # type: ignore[arg-type]
    assert seen == [0] and frame.in_try == 0
