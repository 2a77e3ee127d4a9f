"""Correctly rounded decimal strings from exact numbers and exact enclosures.

Rounding is round-half-to-even, decided exactly: a number known only by an
enclosure ``lo <= x <= hi`` is printed once both ends round to the same string
(rounding is monotone, so every number in between does too).

Examples
--------
>>> from fractions import Fraction
>>> fixed(Fraction(2, 3), 4)
'0.6667'
>>> significant(Fraction(1, 2), Fraction(1, 2), 5)
'0.50000'
>>> significant(Fraction(7623, 10000), Fraction(7624, 10000), 3)
'0.762'
>>> significant(Fraction(7623, 10000), Fraction(7627, 10000), 4) is None
True
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpz


def _decimal(n: int) -> str:
    """``str(n)`` for an int of any size (Python's own ``str`` refuses more
    than 4,300 digits; FLINT's conversion has no such limit, and is fast).

    >>> len(_decimal(10**5000))
    5001
    """
    return str(n) if -_STR_LIMIT < n < _STR_LIMIT else str(fmpz(n))


_STR_LIMIT = 10**4000  # (once: computing it on every call took most of a report's rounding time)


def fixed(x: Fraction, decimals: int) -> str:
    """``x`` rounded to ``decimals`` digits after the point (half to even)."""
    if decimals < 0:
        raise ValueError("decimals must be >= 0")
    n = round(Fraction(x) * 10**decimals)
    sign = "-" if n < 0 else ""
    digits = _decimal(abs(n)).rjust(decimals + 1, "0")
    if decimals == 0:
        return sign + digits
    return f"{sign}{digits[:-decimals]}.{digits[-decimals:]}"


def _exponent(x: Fraction) -> int:
    """The integer e with 10^e <= |x| < 10^(e+1), for x != 0."""
    x = abs(x)
    # an estimate from the bit lengths (no decimal conversion of a huge
    # numerator), corrected by the exact comparisons below
    e = int((x.numerator.bit_length() - x.denominator.bit_length()) * 0.30102999566398120)
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e


def _significant_exact(x: Fraction, digits: int) -> str:
    if x == 0:
        return "0"
    e = _exponent(x)
    n = round(x * Fraction(10) ** (digits - 1 - e))
    if abs(n) >= 10**digits:  # rounding carried into a new digit (9.99 -> 10.0)
        e += 1
        n = round(x * Fraction(10) ** (digits - 1 - e))
    sign = "-" if n < 0 else ""
    body = _decimal(abs(n))
    if -7 <= e < 21:
        point = e + 1  # digits before the decimal point
        if point <= 0:
            text = "0." + "0" * (-point) + body
        elif point >= len(body):
            text = body + "0" * (point - len(body))
        else:
            text = body[:point] + "." + body[point:]
        return sign + text
    mantissa = body[0] + ("." + body[1:] if len(body) > 1 else "")
    return f"{sign}{mantissa}e{e:+d}"


def significant(lo: Fraction, hi: Fraction, digits: int) -> str | None:
    """The value of any ``x`` in [lo, hi] to ``digits`` significant digits, or
    ``None`` if the enclosure is too wide to decide."""
    if digits < 1:
        raise ValueError("digits must be >= 1")
    a = _significant_exact(Fraction(lo), digits)
    if lo == hi:
        return a
    if (lo <= 0 <= hi):
        return None
    return a if a == _significant_exact(Fraction(hi), digits) else None


def exact_decimal(x: Fraction) -> str | None:
    """The finite decimal expansion of ``x``, or ``None`` if it has none.

    >>> exact_decimal(Fraction(953, 1250)), exact_decimal(Fraction(1, 3))
    ('0.7624', None)
    """
    x = Fraction(x)
    d = x.denominator
    k = 0
    while d % 10 == 0:
        d //= 10
        k += 1
    while d % 2 == 0:
        d //= 2
        k += 1
    while d % 5 == 0:
        d //= 5
        k += 1
    if d != 1:
        return None
    return fixed(x, k)
