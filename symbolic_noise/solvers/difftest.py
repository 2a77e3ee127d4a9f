"""A first-order certified test that two moves' values do not cross on a cell,
from the enclosures of only the followers the two moves weigh differently.

The solver's exact test of a pair of moves ``b`` (the leader at a point of
the cell) and ``c`` is a Bernstein test of ``D = A_b Q_c - A_c Q_b``, a
polynomial of the followers' degree over their common denominator.  On Chomp
(5 x 6 through the all-neighbour channel: 208,000 tests, 92 % of them finding
no root, 13 % of the solve) most pairs are far apart, yet the per-cell screen
before it bounds each move's value on its own, so the spreads of every
follower it weighs add up in both moves' bounds and keep them both.

The difference of the two values involves only the followers the two rows
weigh differently: with ``psi_wu = P_wu / Q_w`` affine in p and ``Q_w`` a
positive constant (Chomp's king, rook and all-neighbour channels),

    V_b(x) - V_c(x) = sum_u Delta_u(x) g_u(x),   Delta_u = psi_bu - psi_cu,   g_u = 1 - N_u,

and through the all-neighbour channel ``Delta_u`` is zero for every ``u`` but
``b``'s and ``c``'s targets.  With ``|g_u(x) - e_u| <= s_u`` on [lo, hi] (the
solver's follower enclosures of the cell),

    V_b - V_c  >=  min(L(lo), L(hi)) - sum_u max(|Delta_u(lo)|, |Delta_u(hi)|) s_u,
    L(x) = sum_u Delta_u(x) e_u,

since ``L`` is affine in x and ``|Delta_u|`` is convex.  When that lower bound
is positive, ``b`` is strictly better than ``c`` on the whole closed cell: ``D``
has no root there and is not 0 at the cell's start, which is what the exact
test would have shown.  The bound is made in ball arithmetic (``e_u`` may be a
ball holding the exact value), so the answer True is certain; False only means
"not shown", and the exact test runs.

Examples
--------
>>> from flint import fmpq, fmpz_poly
>>> p = fmpz_poly([0, 1])
>>> P = [[p, 1 - p], [1 - p, p]]  # two moves, two followers: the target with probability p
>>> Q = [fmpz_poly([1]), fmpz_poly([1])]
>>> test = DifferenceTest(P, Q)
>>> [(j, str(d0), str(d1)) for j, d0, d1 in test.support(0, 1)]
[(0, '-1', '2'), (1, '1', '-2')]
>>> enclosures = {0: (fmpq(9, 10), fmpq(1, 100)), 1: (fmpq(1, 10), fmpq(1, 100))}
>>> test.apart(0, 1, fmpq(3, 4), fmpq(4, 5), enclosures.get)  # p > 1/2: the move aiming at g = 0.9 is better
True
>>> test.apart(0, 1, fmpq(2, 5), fmpq(3, 5), enclosures.get)  # the values cross at p = 1/2
False
"""

from __future__ import annotations

from typing import Callable

from flint import arb, ctx, fmpq, fmpz_poly

#: working precision (bits) of the bound
PREC = 128


class DifferenceTest:
    """Per-position channel rows ``P`` (``P[w][u]``, fmpz_poly of degree at
    most 1) over positive constants ``Q[w]``; :meth:`apart` tests a pair of
    moves on a cell.  The rows' differences are made once per pair."""

    def __init__(self, P: list, Q: list):
        if any(q.degree() != 0 or not q[0] > 0 for q in Q) or any(n.degree() > 1 for row in P for n in row):
            raise ValueError("the difference test needs rows of degree at most 1 over positive constants")
        self._P, self._Q = P, Q
        self._support: dict = {}  # (b, c) -> [(u, d0, d1)]

    def support(self, b: int, c: int) -> list:
        """``[(u, d0, d1), ...]``: every follower index ``u`` with ``Delta_u =
        psi_bu - psi_cu = d0 + d1 p`` not zero (exact rationals)."""
        key = (b, c)
        got = self._support.get(key)
        if got is None:
            got = []
            qb, qc = fmpq(self._Q[b][0]), fmpq(self._Q[c][0])
            for u, (nb, nc) in enumerate(zip(self._P[b], self._P[c])):
                if nb == nc and qb == qc:
                    continue
                d0 = fmpq(nb[0]) / qb - fmpq(nc[0]) / qc
                d1 = fmpq(nb[1]) / qb - fmpq(nc[1]) / qc
                if d0 or d1:
                    got.append((u, d0, d1))
            self._support[key] = got
        return got

    def apart(self, b: int, c: int, lo: fmpq, hi: fmpq, enclosure: Callable) -> bool:
        """Whether ``V_b > V_c`` is shown on the whole closed [lo, hi];
        ``enclosure(u)`` gives ``(e_u, s_u)`` with ``|1 - N_u(x) - e_u| <= s_u``
        there (``s_u`` None: not known, and nothing is shown)."""
        terms = self.support(b, c)
        if not terms:
            return False  # the same value: they do not differ
        with ctx.workprec(PREC):
            at_lo = at_hi = spread = arb(0)
            for u, d0, d1 in terms:
                e, s = enclosure(u)
                if s is None:
                    return False
                x0, x1 = d0 + d1 * lo, d0 + d1 * hi  # Delta_u at the ends (exact)
                at_lo += arb(x0) * e
                at_hi += arb(x1) * e
                spread += arb(max(abs(x0), abs(x1))) * s
            return bool(at_lo - spread > 0) and bool(at_hi - spread > 0)


__all__ = ["DifferenceTest"]
