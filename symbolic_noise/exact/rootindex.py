"""The ``CRootOf`` index of an irrational real algebraic number: how many
real roots of its minimal polynomial lie below it.

:func:`roots_below` counts them by Descartes bisection over dyadic
intervals, and follows no part that lies wholly above the number: a part's
end is compared with the number by one exact sign (the number's isolating
interval holds one root of the polynomial).  Counting up to the isolating
interval's lower end instead, as :func:`symbolic_noise.exact.polys.count_real_roots`
would, makes every Descartes test near the number work on an interval whose
end carries the 50 to 100 bits of a refined breakpoint, and so on
coefficients that many bits per degree longer.

>>> from flint import fmpz_poly, fmpq
>>> m = fmpz_poly([-2, 0, 1])            # x^2 - 2: roots -sqrt(2), sqrt(2)
>>> roots_below(m, fmpq(1), fmpq(2), -1), roots_below(m, fmpq(-2), fmpq(-1), 1)
(1, 0)
"""

from __future__ import annotations

from flint import fmpq, fmpz_poly

from . import polys
from .polys import sign


def roots_below(m: fmpz_poly, lo: fmpq, hi: fmpq, slo: int) -> int:
    """The number of real roots of ``m`` below its root ``x``.

    ``m`` is irreducible of degree >= 2 (so it has no rational root), (lo, hi)
    isolates ``x`` (its only root of ``m`` there) and ``slo`` is the sign of
    ``m`` at ``lo``.
    """

    def below(a: fmpq) -> bool:
        """Whether ``x < a`` (exact: ``a`` is rational, ``x`` is not)."""
        if a <= lo:
            return False
        if a >= hi:
            return True
        return sign(m(a)) != slo  # (lo, hi) holds one root: below a iff the sign changes before a

    one = fmpq(1)
    if lo < -one or hi > one:  # beyond [-1, 1]: count up to the interval (rare for p-breakpoints)
        return polys.count_real_roots(m, -polys.root_bound(m), lo)
    # the roots below -1, as the roots in (0, 1) of y^d m(-1/y) (m(-1) != 0)
    n = polys.count_real_roots(polys._reversed(m, -1), 0, one) - (m(-one) == 0)
    for a, b in ((-one, fmpq(0)), (fmpq(0), one)):
        if not below(b):  # the whole part is below x
            n += polys.count_real_roots(m, a, b)
            continue
        return n + _below_in(m, a, b, below)
    raise AssertionError("x <= 1 was checked")  # pragma: no cover


def _below_in(m: fmpz_poly, a: fmpq, b: fmpq, below) -> int:
    """The roots of ``m`` in (a, b) below its root ``x``, where ``a < x < b``."""
    n = 0
    # (the local polynomial, the part's ends, whether the part lies below x;
    # a part that does not holds x, since no part above x is kept)
    stack = [(polys.local_poly(m, a, b), a, b, False)]
    while stack:
        g, u, v, whole = stack.pop()
        count = polys.descartes_count(g)
        if count == 0:
            continue
        if count == 1:  # one root: x itself when the part holds x
            n += whole
            continue
        mid = (u + v) / 2
        left = polys._halve(g)
        right = left(polys.ONE_PLUS_X)
        if right[0] == 0:  # pragma: no cover - an irreducible m of degree >= 2 has no rational root
            raise ValueError(f"{m} has the rational root {mid}")
        if whole:
            stack.append((right, mid, v, True))
            stack.append((left, u, mid, True))
        elif below(mid):  # the right half lies above x
            stack.append((left, u, mid, False))
        else:
            stack.append((right, mid, v, False))
            stack.append((left, u, mid, True))
    return n
