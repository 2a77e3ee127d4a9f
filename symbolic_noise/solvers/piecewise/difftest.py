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

The same rows serve the rest of the sweep's comparisons of two moves without
either move's numerator ``A_w = sum_u c_u P_wu`` (over the followers' common
denominator ``B``, a sum over every follower): the leader at a point compares
``V_c(t) - V_b(t)`` over the support (:meth:`DifferenceTest.leader`), and the
exact test's ``D = A_b Q_c - A_c Q_b`` is ``sum_u (P_bu Q_c - P_cu Q_b) c_u``
over it (:meth:`DifferenceTest.weights`).  The solver uses all of this only
where rows differ pairwise in at most two followers (the all-neighbour
channel, Nim's ``tremble``), and then skips the per-cell screen of every
follower for the batch screen's survivors: Chomp 6 x 6 all 1.19-1.31x faster
side by side.  Through the king and rook channels rows differ in a
neighbourhood, and the numerators' path is cheaper.

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
        self._weights: dict = {}  # (b, c) -> [(u, W_u)]

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

    def weights(self, b: int, c: int) -> list:
        """``[(u, W_u), ...]`` with ``W_u = P_bu Q_c - P_cu Q_b`` (integer
        polynomials) for every ``u`` of :meth:`support`: the difference
        ``A_b Q_c - A_c Q_b`` of two moves' numerators ``A_w = sum_u c_u P_wu``
        is ``sum_u W_u c_u``, so it is made from the few followers the two rows
        weigh differently, without either numerator."""
        key = (b, c)
        got = self._weights.get(key)
        if got is None:
            qb, qc = self._Q[b], self._Q[c]
            got = self._weights[key] = [(u, self._P[b][u] * qc - self._P[c][u] * qb) for u, _, _ in self.support(b, c)]
        return got

    def leader(self, t: fmpq, moves: list, ball: Callable, exact: Callable) -> int:
        """The first of ``moves`` with the largest value at ``t``: each compared
        with the best so far by the sign of ``V_c(t) - V_b(t) = sum_u Delta_u(t)
        g_u(t)`` over their :meth:`support`, in balls (``ball(u)``: a ball
        holding ``g_u(t) = 1 - N_u(t)``) when the sign is certain, else
        exactly (``exact(u)``: ``g_u(t)`` as an fmpq)."""
        best = moves[0]
        for c in moves[1:]:
            terms = self.support(c, best)
            if not terms:
                continue  # the same row: the same value, and best comes first
            with ctx.workprec(PREC):
                total = arb(0)
                for u, d0, d1 in terms:
                    total += arb(d0 + d1 * t) * ball(u)
                if total > 0:
                    best = c
                    continue
                if total < 0:
                    continue
            if sum(((d0 + d1 * t) * exact(u) for u, d0, d1 in terms), fmpq(0)) > 0:
                best = c
        return best

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
