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
        self._sets: dict = {}  # optimal-move set -> the one object kept for it

    def point(self, x):
        """The object kept for the number ``x`` (``x`` itself the first time it is seen;
        a rational number is returned as it is)."""
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

    def labels(self, sets):
        """``sets`` (optimal-move sets, or None) with each set replaced by the
        known object equal to it: a solve makes one frozenset per piece, and
        most are equal (Chomp 6 x 7 king has 1.9 million pieces, two sets
        each, about 200 bytes a set)."""
        if sets is None:
            return None
        known = self._sets
        return tuple([known.setdefault(s, s) for s in sets])

    def function(self, f: PiecewiseFunction) -> PiecewiseFunction:
        """``f`` with its points and optimal-move sets replaced by the known
        objects for them."""
        points = [self.point(x) for x in f.points]
        labels, point_labels = self.labels(f.labels), self.labels(f.point_labels)
        if (
            all(x is y for x, y in zip(points, f.points))
            and _same_objects(labels, f.labels)
            and _same_objects(point_labels, f.point_labels)
        ):
            return f
        return PiecewiseFunction(points, f.formulas, labels, point_labels, merge=False)


def _same_objects(a, b) -> bool:
    return a is b or (a is not None and b is not None and all(x is y for x, y in zip(a, b)))
