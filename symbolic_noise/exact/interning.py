"""One object per breakpoint.

The solver tells equal breakpoints apart by identity first: an exact comparison
of two copies of one irrational point costs a gcd and a root count, every time
it is made.  Values that arrive from elsewhere (another process, the cache,
``known=``) come with a fresh object for every copy of a point that several
positions share, and positions solved apart can find the same crossing again
(Chomp does, often); :class:`Interner` maps them back to one object per point.
"""

from __future__ import annotations

from flint import fmpq

from .piecewise import PiecewiseFunction
from .polys import count_real_roots


class Interner:
    """One object per breakpoint (see the module docstring).

    Two points are the same number when their defining polynomials are equal
    and the intersection of their open isolating intervals holds a root of it
    (each interval holds exactly one).

    >>> from flint import fmpz_poly
    >>> from symbolic_noise.exact.algebraic import RealAlgebraic
    >>> seen = Interner()
    >>> x = RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, 2)
    >>> y = RealAlgebraic.root(fmpz_poly([-2, 0, 1]), fmpq(5, 4), fmpq(3, 2))
    >>> seen.point(x) is x, seen.point(y) is x
    (True, True)
    """

    def __init__(self):
        self._known: dict = {}  # polynomial coefficients -> [RealAlgebraic]

    def point(self, x):
        if x.is_rational:
            return x
        poly = x.poly
        # a cheap key; equal keys are told apart by comparing the polynomials
        key = (poly.degree(), int(poly[0]), int(poly[poly.degree()]))
        lo, hi = x.interval
        same = self._known.setdefault(key, [])
        for y in same:
            if y.poly != poly:
                continue
            ylo, yhi = y.interval
            a, b = max(lo, ylo), min(hi, yhi)
            if a >= b:
                continue  # the open isolating intervals are disjoint: different roots
            if (a, b) == (lo, hi) or (a, b) == (ylo, yhi):
                return y  # nested: the inner interval's root is the outer one's only root
            # partial overlap: a and b lie inside one of the open intervals, so
            # neither is a root, and a root in [a, b] is in both
            if count_real_roots(poly, a, b) == 1:
                return y
        same.append(x)
        return x

    def function(self, f: PiecewiseFunction) -> PiecewiseFunction:
        """``f`` with its points replaced by the known objects for them."""
        points = [self.point(x) for x in f.points]
        if all(x is y for x, y in zip(points, f.points)):
            return f
        return PiecewiseFunction(points, f.formulas, f.labels, f.point_labels, merge=False)
