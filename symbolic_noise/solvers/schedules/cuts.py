"""Cutting [a, b] into ranges of p, and joining the values solved on them.

The value of a position at p depends only on its followers' values at the same
p, so a solve can be shared between workers by ranges of p.  Where the cuts
fall only balances work (:func:`balanced_cuts` places them by the breakpoints of
a probe); :func:`stitch` joins the ranges' values exactly and checks that both
sides of every cut give the same optimal set, so the result is the serial
solve's.
"""

from __future__ import annotations

from flint import fmpq

from ...exact.piecewise import PiecewiseFunction
from ...exact.formula import exact_number


def split_interval(a, b, chunks: int) -> list[tuple[fmpq, fmpq]]:
    """``[a, b]`` cut into ``chunks`` equal sub-intervals with exact end points.

    >>> [(str(x), str(y)) for x, y in split_interval(0, 1, 3)]
    [('0', '1/3'), ('1/3', '2/3'), ('2/3', '1')]
    """
    a, b = exact_number(a), exact_number(b)
    if chunks < 1:
        raise ValueError("need at least one chunk")
    cuts = [a + (b - a) * fmpq(i, chunks) for i in range(chunks + 1)]
    return list(zip(cuts, cuts[1:]))


def balanced_cuts(values, a, b, chunks: int) -> list[tuple[fmpq, fmpq]]:
    """Cut [a, b] into ``chunks`` sub-intervals holding about the same number of
    the distinct breakpoints of ``values`` (a probe: the solved small
    positions), since the work of a solve grows with the breakpoints it meets
    and larger positions break where smaller ones do.  Cuts are dyadic
    rationals with 20 bits; this only balances work, it decides nothing.

    >>> from symbolic_noise import Nim, solve
    >>> cuts = balanced_cuts(solve(Nim(12), "binary").values(), 0, 1, 4)
    >>> len(cuts), str(cuts[0][0]), str(cuts[-1][1])
    (4, '0', '1')
    """
    a, b = exact_number(a), exact_number(b)
    seen, points = set(), []
    for f in values.values():
        for x in f.breakpoints:
            if id(x) not in seen:  # a breakpoint inherited by many positions counts once
                seen.add(id(x))
                lo, hi = x.interval
                points.append((lo + hi) / 2)
    points.sort()
    if chunks <= 1 or not points:
        return split_interval(a, b, max(chunks, 1))
    cuts = [a]
    scale = 2**20
    for i in range(1, chunks):
        q = points[(i * len(points)) // chunks]
        c = fmpq((q * scale).floor(), scale)
        if cuts[-1] < c < b:
            cuts.append(c)
    cuts.append(b)
    return list(zip(cuts, cuts[1:]))


def stitch(parts: list[PiecewiseFunction]) -> PiecewiseFunction:
    """Join piecewise functions on consecutive intervals ``[c_0, c_1], [c_1, c_2], ...``.

    At every cut both sides must give the same optimal set (they are the same
    exact point); pieces continuing across a cut with the same formula and
    labels are merged.
    """
    points = list(parts[0].points)
    formulas = list(parts[0].formulas)
    labels = list(parts[0].labels) if parts[0].labels is not None else None
    plabels = list(parts[0].point_labels) if parts[0].point_labels is not None else None
    for part in parts[1:]:
        if points[-1].compare(part.points[0]) != 0:
            raise ValueError("the parts are not on consecutive intervals")
        if plabels is not None and plabels[-1] != part.point_labels[0]:
            raise AssertionError(f"the two sides disagree on the optimal set at the cut {points[-1]}")
        points += part.points[1:]
        formulas += part.formulas
        if labels is not None:
            labels += part.labels
            plabels += part.point_labels[1:]
    return PiecewiseFunction(points, formulas, labels, plabels)
