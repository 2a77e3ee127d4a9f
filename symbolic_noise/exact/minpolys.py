"""Minimal polynomials of many breakpoints at once, found with one record
of the factors they share.

A report prints every breakpoint of a value by its minimal polynomial; they
share small factors (:class:`FactorHints`).
"""

from __future__ import annotations

from flint import fmpq, fmpz_poly, nmod_poly  # noqa: F401  (fmpq: annotations)

from .polys import sign


class FactorHints:
    """Irreducible factors of low degree met while factoring defining
    polynomials, tried first on the next ones (exact division).

    The breakpoints of one solve share many small factors: a crossing found
    as a root of ``D = A_b Q_c - A_c Q_b`` keeps factors such as ``2x - 1``
    and the denominators of small positions' values, so ``D`` has 3-16
    irreducible factors where the minimal polynomial is one (nim 48: degree
    106 at the median, its minimal polynomial about 80).  Factoring only
    what is left after dividing out the factors met before takes 0.97 s
    instead of 1.80 s of CPU for nim 48's 235 irrational breakpoints and
    3.24 s instead of 5.95 s for nim 64's 361 (``benchmarks/minpoly_hints.py``,
    2026-11-26).

    A hint only saves time: ``f`` is divided out only when it divides the
    polynomial exactly, and taken as the minimal polynomial only when it
    changes sign on the isolating interval (then its root there is the
    number, and ``f`` is irreducible), the test :meth:`RealAlgebraic.minpoly`
    applies to the factors of a full factorization.

    >>> from symbolic_noise.exact.algebraic import RealAlgebraic
    >>> hints = FactorHints()
    >>> x = RealAlgebraic.root(fmpz_poly([-2, 0, 1]) * fmpz_poly([-1, 2]) * fmpz_poly([1, 1, 1]), 1, 2)
    >>> x.minpoly(hints), len(hints)
    (x^2 + (-2), 3)
    >>> y = RealAlgebraic.root(fmpz_poly([-3, 0, 1]) * fmpz_poly([-1, 2]), 1, 2)
    >>> y.minpoly(hints), hints.divided
    (x^2 + (-3), 1)
    """

    #: factors of at most this degree are kept
    MAX_DEGREE = 8
    #: at most this many factors are kept (the oldest go first)
    CAPACITY = 256
    #: a prime for the quick test that ``f`` may divide (a remainder modulo it
    #: that is not zero rules the exact division out)
    _PRIME = 2**61 - 1

    def __init__(self) -> None:
        self._factors: dict = {}  # coefficients -> (factor, its image modulo _PRIME)
        self.divided = 0  # factors divided out so far

    def __len__(self) -> int:
        return len(self._factors)

    def learn(self, factors) -> None:
        """Keep the irreducible ``factors`` (primitive) of low degree."""
        for f in factors:
            if 0 < f.degree() <= self.MAX_DEGREE and int(f.coeffs()[-1]) % self._PRIME:
                key = tuple(int(c) for c in f.coeffs())
                if key not in self._factors:
                    if len(self._factors) >= self.CAPACITY:
                        del self._factors[next(iter(self._factors))]
                    self._factors[key] = (f, nmod_poly(f, self._PRIME))

    def strip(self, poly: fmpz_poly, lo: fmpq, hi: fmpq) -> tuple[fmpz_poly | None, fmpz_poly]:
        """Divide the known factors out of ``poly``: the one with a root in
        (lo, hi) if found (the minimal polynomial of that root), and what is
        left of ``poly``."""
        image = nmod_poly(poly, self._PRIME)
        for f, fm in self._factors.values():
            if image % fm != 0:
                continue
            q, r = divmod(poly, f)
            if r != 0:
                continue
            while r == 0:
                poly = q
                self.divided += 1
                q, r = divmod(poly, f)
            if sign(f(lo)) != sign(f(hi)):
                return f, poly
            image = nmod_poly(poly, self._PRIME)
        return None, poly


def minimal_polynomials(points, hints: FactorHints | None = None) -> None:
    """Find the minimal polynomial of every point of ``points`` (a rational
    one collapses to its rational form), with one :class:`FactorHints` for
    all of them: what a report does before it prints them."""
    hints = FactorHints() if hints is None else hints
    for x in points:
        x.minpoly(hints)

