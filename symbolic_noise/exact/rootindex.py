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
    """The roots of ``m`` in (a, b) below its root ``x``, where ``a < x < b``:
    the parts of a Descartes bisection that lie above ``x`` are dropped
    unseen, and of the parts holding one root each, those ending below ``x``
    are counted (the one holding ``x`` ends above it)."""
    found, parts = polys.descartes_bisection(m, a, b, skip=lambda u, v: below(u))
    if found:  # pragma: no cover - an irreducible m of degree >= 2 has no rational root
        raise ValueError(f"{m} has the rational roots {found}")
    return sum(1 for u, v in parts if not below(v))
