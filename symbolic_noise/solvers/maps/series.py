"""Exact one-sided Taylor series of every value at a rational point.

At a point c where several moves tie (p = 1/2 for binary Nim, p = 0 or 1, ...)
boxes cannot separate the moves; the series can.  With ``h = sgn (p - c) >= 0``
(``sgn = 1``: the right side of c, ``-1``: the left side), every psi entry is a
polynomial quotient with exact Taylor coefficients in h, and for p on that side
close enough to c the optimal moves at a position are those whose truncated
series is lexicographically largest (a difference of two analytic functions
has the sign of its first nonzero coefficient near c).  So, followers first,
the value of each position near c on that side is the series of its best move,
to the order kept (:data:`ORDER`), all in exact rationals.

What the series prove alone is only "for p close enough to c"; a map needs a
concrete box, which :mod:`~symbolic_noise.solvers.maps.build` gets by adding the sign of a derivative on
the box (:mod:`~symbolic_noise.solvers.maps.enclose`): if ``V_r - V_k`` has zero coefficients below order
j at c and its j-th derivative has one sign on the box, it has that sign on
the whole box minus c.

>>> from flint import fmpq
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import get_channel
>>> from symbolic_noise.solvers.maps.structure import Layout
>>> lay = Layout(Nim(3), get_channel("binary"), 3)
>>> at = side_series(lay, fmpq(1, 2), -1)          # left of 1/2
>>> at.moves[0][:3], at.moves[2][:3]       # take all (u - 3 + 3/u, u = 1 + p), or leave 2: equal to first order
([1/2, 1/3, 8/9], [1/2, 1/3, -8/3])
>>> sorted(at.tie[-1]), at.best[-1]
([0, 1, 2], [0])
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq, fmpq_poly

#: the highest power of h kept
ORDER = 4


@dataclass
class SideSeries:
    """Series at c on one side, for every position of a layout (in its order).

    ``tie[k]``: the moves of position k equal at c (its exact optimal set at
    c); ``flat[k]``: those tie moves grouped by equal first-order coefficient;
    ``best[k]``: the moves whose series is the largest to :data:`ORDER` (the
    optimal moves just beside c, unless two differ only beyond ORDER);
    ``gap[k][i]``: how far move i is below the value at c (exactly);
    ``order[k][i]``: the first order at which move i's series falls below the
    first best move's (0 for a move not tied at c, None for one equal to it
    to ORDER);
    ``moves``: the start's moves' series (coefficients of h^0, h^1, ...)."""

    #: the tie point
    c: fmpq
    #: the side, +1 to the right of c and -1 to the left
    sgn: int
    #: per position, the moves equal at c (its exact optimal set there)
    tie: list
    #: per position, the tie moves grouped by equal first-order coefficient
    flat: list
    #: per position, the moves whose series is the largest to ORDER
    best: list
    #: the start's moves' series, coefficients of h^0, h^1, ...
    moves: list
    #: per position, the series of its value N
    value: list
    #: per position and move, how far the move is below the value at c, exactly
    gap: list
    #: per position and move, the first order at which its series falls below the best move's
    order: list


def _taylor(q, c, sgn):
    out, f, fact = [], q, 1
    for k in range(ORDER + 1):
        out.append(fmpq(f(c)) / fact * (sgn**k))
        f = f.derivative()
        fact *= k + 1
    return out


def _inverse(d) -> fmpq_poly:
    """The series of 1/d to order :data:`ORDER` (d's coefficients, d[0] nonzero)."""
    if d[0] == 0:
        raise ZeroDivisionError("a row denominator vanishes at the point")
    q = []
    for k in range(ORDER + 1):
        s = (1 if k == 0 else 0) - sum((q[i] * d[k - i] for i in range(k)), fmpq(0))
        q.append(s / d[0])
    return fmpq_poly(q)


def side_series(layout, c: fmpq, sgn: int, misere: bool = False) -> SideSeries:
    """The exact series at ``c`` on side ``sgn`` of every position (see above)."""
    coeffs = [_taylor(q, c, sgn) for q in layout.exact_polys]
    polys = [fmpq_poly(x) for x in coeffs]
    term = [fmpq(0 if misere else 1)] + [fmpq(0)] * ORDER  # x = 1 - N at a terminal position
    inverse: dict = {}  # the series of 1/D per distinct row denominator
    n = len(layout.order)
    X = [None] * n
    tie, flat, best, value, gap, order = [], [], [], [], [], []
    moves = []
    for k in range(n):
        fs = layout.follow[k]
        if not fs:
            X[k] = term
            tie.append(frozenset())
            flat.append([])
            best.append([])
            value.append([1 - term[0]] + [-x for x in term[1:]])
            gap.append([])
            order.append([])
            continue
        f = []
        xs = [fmpq_poly(X[u]) for u in fs]
        for i, row in enumerate(layout.num[k]):
            s = fmpq_poly(0)
            for j, q in enumerate(row):
                if q >= 0:
                    s += polys[q].mul_low(xs[j], ORDER + 1)  # (the product truncated after h^ORDER)
            q = layout.den[k][i]
            if q not in inverse:
                inverse[q] = _inverse(coeffs[q])
            g = s.mul_low(inverse[q], ORDER + 1)
            f.append([g[t] for t in range(ORDER + 1)])
        top0 = max(x[0] for x in f)
        t = [i for i, x in enumerate(f) if x[0] == top0]
        groups: dict = {}
        for i in t:
            groups.setdefault(f[i][1], []).append(i)
        top = max(f[i] for i in t)
        tie.append(frozenset(t))
        flat.append([g for g in groups.values() if len(g) > 1])
        best.append([i for i in t if f[i] == top])
        value.append(top)
        gap.append([top0 - x[0] for x in f])
        order.append([first_nonzero(top, x)[0] for x in f])
        X[k] = [1 - top[0]] + [-x for x in top[1:]]
        if k == n - 1:
            moves = f
    return SideSeries(c, sgn, tie, flat, best, moves, value, gap, order)


def first_nonzero(a, b):
    """(j, sign): the first order where the series a - b is nonzero and the sign
    of that coefficient, or (None, 0) if they agree to :data:`ORDER`.

    >>> first_nonzero([fmpq(1), fmpq(2), fmpq(0)], [fmpq(1), fmpq(2), fmpq(-1)])
    (2, 1)
    """
    for j, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return j, (1 if x > y else -1)
    return None, 0


__all__ = ["ORDER", "SideSeries", "first_nonzero", "side_series"]
