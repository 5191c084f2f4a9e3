"""Size bounds of the values the abstract interpreter computes: the walls of its sandbox.

The walk computes real Python values where the static pass can know them (`n * n`,
`"ab" * k`, `math.factorial(n)`, `s.replace(a, b)`), and a script decides how large
they get. Python makes a huge int or string in one native call that no step count
or clock interrupts, so an operation whose result would be over its bound is refused
*before* it runs, judged from its operands' sizes, and every result is checked after.
A refused value is one the walk does not follow (unknown, with a note), never an error."""

from __future__ import annotations

import math
import operator
import re
import sys
from collections.abc import Callable
from typing import Any

MAX_INT_BITS = 4096  # a size, a seed or a hash fits; Python prints up to 4,300 digits (~14,000 bits)
MAX_CHARS = 1 << 18  # characters: above the configuration texts the eager run parses (200,000)
MAX_ITEMS = 1 << 14  # elements of one list, tuple or dict, or values of one parsed configuration
MAX_MADE = 1 << 16  # elements one walk makes in bulk (`list(range(n))`, `xs + ys`, `s.split()`): ~50 MB of values
_MAX_DIGITS = int(MAX_INT_BITS * math.log10(2)) + 1  # decimal digits of the largest int kept


class TooLarge(Exception):
    """A value over its bound: the walk stops following it."""


class Allowance:
    """What one walk may still make in bulk: each container it builds whole from another (a list of a
    range, a concatenation, a split) is paid for by its length, so that a loop of them stays bounded."""

    def __init__(self, elements: int = MAX_MADE) -> None:
        self.left = elements

    def take(self, count: int) -> bool:
        """Whether `count` more elements may be made (then they are paid for)."""
        if count > self.left:
            return False
        self.left -= count
        return True


def fits(value: Any) -> bool:
    """Whether a computed scalar is within its bound (an int by bit length, a string by length)."""
    if isinstance(value, int):
        return value.bit_length() <= MAX_INT_BITS
    if isinstance(value, (str, bytes)):
        return len(value) <= MAX_CHARS
    return True


def described(*values: Any) -> str:
    """The bound a value made of these is over, for the note that says so."""
    if any(isinstance(v, (str, bytes)) for v in values):
        return f"a string over {MAX_CHARS:,} characters"
    if any(isinstance(v, int) for v in values):
        return f"an int over {MAX_INT_BITS:,} bits"
    return ITEMS


ITEMS = f"a container over {MAX_ITEMS:,} elements"


def checked(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` as Python computes it; TooLarge instead when its result would be
    over its bound (judged from the operands first, so that a huge result is never made)."""
    estimate = _ESTIMATES.get(fn)
    if estimate is not None and estimate(*args, **kwargs):
        raise TooLarge
    result = fn(*args, **kwargs)
    if not fits(result) or (isinstance(result, (list, tuple)) and len(result) > MAX_ITEMS):
        raise TooLarge
    return result


def length(numbers: range) -> int:
    """A range's length, also past what `len()` answers (`range(10**20)`)."""
    try:
        return len(numbers)
    except OverflowError:
        return sys.maxsize


# Each estimate answers "would the result be over its bound?" from the operands alone, for the
# operations whose result can be much larger than their operands (the others are bounded by them).

def _bits(value: Any) -> int:
    return abs(value).bit_length() if isinstance(value, int) else 0


def _sized(value: Any) -> bool:
    return isinstance(value, (str, bytes, list, tuple))


def _over_length(sequence: Any, count: float) -> bool:
    return count > (MAX_CHARS if isinstance(sequence, (str, bytes)) else MAX_ITEMS)


def _mul(a: Any, b: Any) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return _bits(a) + _bits(b) > MAX_INT_BITS
    if _sized(a) and isinstance(b, int):
        return _over_length(a, len(a) * b)
    if _sized(b) and isinstance(a, int):
        return _over_length(b, len(b) * a)
    return False


def _add(a: Any, b: Any) -> bool:
    return _sized(a) and _sized(b) and _over_length(a, len(a) + len(b))


def _pow(base: Any, exponent: Any, modulus: Any = None) -> bool:
    # the result has at least (bits - 1) * exponent bits; Python's own limits stop floats
    return modulus is None and isinstance(base, int) and isinstance(exponent, int) and exponent > 0 \
        and _bits(base) > 1 and (_bits(base) - 1) * exponent >= MAX_INT_BITS


def _lshift(a: Any, b: Any) -> bool:
    return isinstance(a, int) and isinstance(b, int) and a != 0 and _bits(a) + b > MAX_INT_BITS


_WIDTHS = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_SPEC_NUMBERS = re.compile(r"\d+")


def _too_wide(number: str | None, values: tuple[Any, ...]) -> bool:
    if number == "*":  # the width is the next value
        return any(isinstance(v, int) and v > MAX_CHARS for v in values)
    return number is not None and (len(number) > len(str(MAX_CHARS)) or int(number) > MAX_CHARS)


def _printf(template: Any, values: Any) -> bool:
    """`'%1000000000d' % 5`: a width or a precision past the bound."""
    if not isinstance(template, (str, bytes)):
        return False  # int % int: bounded by its operands
    text = template.decode("latin-1") if isinstance(template, bytes) else template
    given = values if isinstance(values, tuple) else (values,)
    return any(_too_wide(number, given) for found in _WIDTHS.finditer(text) for number in found.groups())


def _format(value: Any, spec: str = "") -> bool:
    """`format(x, "1000000000")`, `f"{x:>1000000000}"`: a width or a precision past the bound."""
    return any(_too_wide(number, ()) for number in _SPEC_NUMBERS.findall(spec))


def _round(number: Any, digits: Any = None) -> bool:
    # `round(5, -10**9)` computes 10**(10**9) before it answers 0
    return isinstance(number, int) and isinstance(digits, int) and -digits > _MAX_DIGITS


def _log2_binomial(n: float, k: float) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)


def _factorial(n: Any) -> bool:
    return isinstance(n, int) and n > 2 and math.lgamma(min(n, 1 << 60) + 1) / math.log(2) > MAX_INT_BITS


def _comb(n: Any, k: Any) -> bool:
    if not (isinstance(n, int) and isinstance(k, int)) or not 0 < k < n:
        return False
    k = min(k, n - k)
    # at most k * bits(n) bits; past that, the exact count (n below 2**1000 is a float)
    return k * _bits(n) > MAX_INT_BITS and (_bits(n) > 1000 or _log2_binomial(n, k) > MAX_INT_BITS)


def _perm(n: Any, k: Any = None) -> bool:
    k = n if k is None else k
    if not (isinstance(n, int) and isinstance(k, int)) or not 0 < k <= n:
        return False
    return k * _bits(n) > MAX_INT_BITS and (
        _bits(n) > 1000 or _log2_binomial(n, k) + math.lgamma(k + 1) / math.log(2) > MAX_INT_BITS)


def _lcm(*numbers: Any) -> bool:
    # at most the product: a few times the bound is still cheap to compute, and checked after
    return sum(_bits(n) for n in numbers) > 4 * MAX_INT_BITS


def _replace(text: Any, old: Any, new: Any, count: Any = -1) -> bool:
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)):
        return False
    found = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * (len(new) - len(old)) > MAX_CHARS


def _width(text: Any, width: Any, *fill: Any) -> bool:
    return isinstance(width, int) and width > MAX_CHARS


def _expandtabs(text: Any, tabsize: Any = 8) -> bool:
    return isinstance(text, str) and isinstance(tabsize, int) and len(text) + text.count("\t") * tabsize > MAX_CHARS


def _split(text: Any, sep: Any = None, maxsplit: Any = -1) -> bool:
    """More parts than a container holds: counted without splitting (a long text, split in a loop)."""
    if not isinstance(text, str) or (isinstance(maxsplit, int) and 0 <= maxsplit < MAX_ITEMS):
        return False
    parts = text.count(sep) + 1 if isinstance(sep, str) and sep else len(text) // 2 + 1
    return parts > MAX_ITEMS


def _splitlines(text: Any, keepends: Any = False) -> bool:
    return isinstance(text, str) and sum(text.count(c) for c in _LINE_BREAKS) + 1 > MAX_ITEMS


_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _join(separator: Any, parts: Any) -> bool:
    if not isinstance(separator, str) or not isinstance(parts, (list, tuple)):
        return False
    return sum(len(p) for p in parts if isinstance(p, str)) + len(separator) * len(parts) > MAX_CHARS


_ESTIMATES: dict[Callable[..., Any], Callable[..., bool]] = {
    operator.mul: _mul, operator.add: _add, operator.pow: _pow, pow: _pow, operator.lshift: _lshift,
    operator.mod: _printf, format: _format, round: _round, math.factorial: _factorial, math.comb: _comb,
    math.perm: _perm, math.lcm: _lcm, str.replace: _replace, str.zfill: _width, str.center: _width,
    str.ljust: _width, str.rjust: _width, str.expandtabs: _expandtabs, str.join: _join, str.split: _split,
    str.rsplit: _split, str.splitlines: _splitlines,
}
