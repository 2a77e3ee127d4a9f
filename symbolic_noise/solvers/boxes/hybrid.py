"""Enclosures of every 1-pile Nim value over a box of p, in ball arithmetic.

The hybrid method (docs/hybrid.md) proves statements about N_k(p) for 1-pile
Nim through the binary channel without building exact piecewise formulas.  This
module is its first layer: over a box ``[a, b]`` of p it encloses every
position's ``N_j(p)`` and every sent move's ``N_j(s)(p)`` in arb balls that hold
the exact value for *every* p in the box.

Why the enclosure is valid
--------------------------
With ``t = p / (1 - p)`` the channel at heap j is
``psi_j(s, r) = t^d(s,r) / sum_{r'<j} t^d(s,r')`` (the factor ``(1 - p)^n``
cancels), so with ``x_r = 1 - N_r``

    N_j(s) = sum_d A_j[s][d] t^d / sum_d G_j[s][d] t^d,
    A_j[s][d] = sum_{r < j, d(s, r) = d} x_r,   G_j[s][d] = #{r < j : d(s, r) = d}.

``A`` is a sum of balls that hold the ``x_r`` for every p in the box, ``G`` is
an integer, and ``t^d`` runs over ``[t(a)^d, t(b)^d]`` (monotone), so the ratio
evaluated in ball arithmetic holds ``N_j(s)(p)`` for every p in the box.  The
value ``N_j = max_s N_j(s)`` lies in ``[max_s lo_s, max_s hi_s]`` whatever the
optimal move at each p is: the box may contain breakpoints of lower positions.
For ``p >= 1/2`` the same ratio is written in ``u = (1 - p) / p = 1 / t`` with
powers ``u^(D_s - d)`` where ``D_s`` is the largest distance present in row s, so
that the denominator stays away from 0 up to ``p = 1`` (where the channel is its
limit: the farthest codes, theory.md 3.1).  arb rounds outward, so every ball
holds the exact real number; the decisions made from balls are one-sided
comparisons that arb answers True only when certain.

Examples
--------
>>> from flint import fmpq
>>> box = enclose(3, fmpq(1, 4), fmpq(1, 4))          # a point box: N_3(1/4) = 13/20
>>> float(box.value[3].mid()), float(box.value[3].rad()) < 1e-20
(0.65, True)
>>> narrow = enclose(3, fmpq(1, 10), fmpq(1, 8))
>>> bool(narrow.moves[3][0].lower() >= 0.5)          # N_3(send 0) >= 1/2 on [1/10, 1/8]
True
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb, arb_mat, ctx, fmpq

HALF = fmpq(1, 2)


def distances(K: int) -> int:
    """The largest Hamming distance between two followers of heaps <= K.

    >>> distances(4), distances(256), distances(257)
    (2, 8, 9)
    """
    return max(1, (K - 1).bit_length())


@dataclass
class BoxEnclosure:
    """Balls over one box ``[a, b]``: ``value[j]`` holds N_j(p) and
    ``moves[j][s]`` holds N_j(send s)(p) for every p in the box."""

    a: fmpq  #: the box's left end
    b: fmpq  #: the box's right end
    value: list  #: ``value[j]``, a ball holding ``N_j(p)`` for every p in the box
    moves: list  #: ``moves[j][s]``, a ball holding ``N_j(send s)(p)`` for every p in the box


def _hull(lo: fmpq, hi: fmpq) -> arb:
    """A ball holding the whole interval [lo, hi] (outward rounded)."""
    return arb(lo).union(arb(hi))


def _powers(a: fmpq, b: fmpq, D: int, upper: bool):
    """Balls of ``y^e`` for e = 0..D over the box, y = t (lower half) or u."""
    if upper:  # u = (1 - p) / p decreases in p
        y0, y1 = (1 - b) / b, (1 - a) / a
    else:
        y0, y1 = a / (1 - a), b / (1 - b)
    return [_hull(y0**e, y1**e) for e in range(D + 1)]


class _Tables:
    """The integer data shared by every box for heaps <= K: per heap r, the
    distance of every code s to r, and the class counts G."""

    def __init__(self, K: int):
        self.K = K
        self.D = distances(K)
        self.codes = 1 << self.D
        self.dist = [[bin(s ^ r).count("1") for s in range(self.codes)] for r in range(K)]


_TABLES: dict = {}


def _tables(K: int) -> _Tables:
    if K not in _TABLES:
        _TABLES.clear()
        _TABLES[K] = _Tables(K)
    return _TABLES[K]


def enclose(K: int, a, b, *, prec: int = 96, misere: bool = False, keep=None) -> BoxEnclosure:
    """Balls holding N_j(p) and N_j(s)(p) for j <= K and every p in [a, b].

    ``keep`` (a set of heaps, default all) limits which heaps' per-move balls
    are returned.  The box must lie in [0, 1/2] or in [1/2, 1].

    >>> e = enclose(2, fmpq(0), fmpq(1, 2))             # N_2 = 1 - p runs over [1/2, 1]
    >>> bool(e.value[2].lower() <= 0.5) and bool(e.value[2].upper() >= 1)
    True
    """
    a, b = fmpq(a), fmpq(b)
    if not (0 <= a <= b <= 1) or (a < HALF < b):
        raise ValueError("the box must lie in [0, 1/2] or in [1/2, 1]")
    upper = a >= HALF and b > HALF
    T = _tables(K)
    D, codes = T.D, T.codes
    old = ctx.prec
    ctx.prec = prec
    try:
        ys = _powers(a, b, D, upper) if not (upper and b == 1 and a == 1) else None
        x0 = arb(0 if misere else 1)
        value = [arb(1) - x0]
        moves = [[]]
        # A[s][d] (sum of x_r over r at distance d), G[s][d] (their number), dmax[s]
        A = [[arb(0)] * (D + 1) for _ in range(codes)]
        G = [[0] * (D + 1) for _ in range(codes)]
        dmax = [0] * codes
        xs = []

        def add(r, x):
            dr = T.dist[r]
            for s in range(codes):
                d = dr[s]
                A[s][d] += x
                G[s][d] += 1
                if d > dmax[s]:
                    dmax[s] = d

        add(0, x0)
        xs.append(x0)
        for j in range(1, K + 1):
            row = _row_values(A, G, dmax, j, ys, upper, D, a, b)
            top = row[0]
            for v in row[1:]:
                top = top.max(v)
            value.append(top)
            moves.append(row if keep is None or j in keep else None)
            if j < K:
                x = arb(1) - top
                xs.append(x)
                add(j, x)
    finally:
        ctx.prec = old
    return BoxEnclosure(a, b, value, moves)


def _row_values(A, G, dmax, j, ys, upper, D, a, b):
    """Balls of N_j(s) for s < j."""
    out = []
    if ys is None:  # the point p = 1: the farthest codes only
        for s in range(j):
            dm = dmax[s]
            out.append(A[s][dm] / G[s][dm])
        return out
    if not upper:
        for s in range(j):
            As, Gs = A[s], G[s]
            num = As[0]
            den = arb(Gs[0])
            for d in range(1, dmax[s] + 1):
                if Gs[d]:
                    num += As[d] * ys[d]
                    den += Gs[d] * ys[d]
            out.append(num / den)
        return out
    for s in range(j):
        As, Gs, dm = A[s], G[s], dmax[s]
        num = As[dm]
        den = arb(Gs[dm])
        for d in range(dm):
            if Gs[d]:
                num += As[d] * ys[dm - d]
                den += Gs[d] * ys[dm - d]
        out.append(num / den)
    return out
