"""Exact decisions on a cell: which move is optimal, and where that changes.

Among the moves the screen keeps, the best one at a point of the cell is found
in balls or by exact evaluation; for every other survivor the numerator of the
difference of the two values is shown positive on the cell (Bernstein / VCA),
or its roots in the cell are isolated exactly and the first ends the piece (a
breakpoint).  A difference that vanishes identically puts both moves in the
optimal set.  The pair test (:mod:`.pairtest`) and the difference test
(:mod:`.difftest`) settle pairs first where they can.
"""

from __future__ import annotations

from typing import Callable

from flint import arb, ctx, fmpq, fmpz_poly

from ...exact import polys
from ...exact.algebraic import RealAlgebraic
from ...exact.ratfunc import RationalFunction
from . import spread as spread_module
from .cells import _SCREEN_PREC, _certain_leader, _Common, _pick_point, _roots_between
from .difftest import DifferenceTest
from .pairtest import PairTest

#: width to which new breakpoints are refined when found (keeps later
#: Bernstein tests on cells next to them conclusive)
_BREAKPOINT_WIDTH = fmpq(1, 2**48)
#: the pair test of moves (:mod:`pairtest`) runs before the exact test of a
#: pair on cells whose common denominator has at least this degree (below it
#: the exact test costs less than the followers' Taylor models)
_PAIR_MIN_DEGREE = 100
#: the batch screen's survivors are used as they are when they are this few
#: (more are screened again on the cell, which often drops some)
_PRE_ENOUGH = 8


class Decisions:
    """The exact decisions of one position's sweep (a part of :class:`~.position._PositionSolver`)."""

    def _advance(self, x: RealAlgebraic, y: RealAlgebraic, pre: list | None = None):
        """Formula, optimal set and end of the piece starting at ``x`` (at most
        up to ``y``), and the optimal set at ``x``.  ``pre``: the survivors of
        a screen of a cell holding [x, y] (the batch screen of its base cell),
        or None."""
        cell = self.cells.get(x, y)
        narrow = pre is not None and len(pre) > 1 and self._narrow()
        if pre is not None and (len(pre) <= _PRE_ENOUGH or narrow):
            # (Chomp 5 x 5 king: of 5,355 base cells the batch left two moves
            # on, the per-cell screen left one on 128; a D test of two low-degree
            # formulas costs a tenth of that screen.  Rows that differ in two
            # followers, as the all-neighbour channel's: each pair is told apart
            # from those two followers' enclosures, not every follower's)
            survivors = pre
        else:
            survivors = self._screen(cell)
            if pre is not None:
                # both screens keep every move optimal somewhere on the cell
                survivors = [w for w in survivors if w in pre]
        common = self._common(cell)
        B = common.B
        Q = self.pos.Q

        def num(w):
            return self._numerator(common, w)

        if len(survivors) == 1:
            best = survivors[0]
            S = at_x = {best}
        else:
            t = cell.t
            # the pair test pays where the exact test is dear: D of high degree
            models = self._models(cell) if B.degree() >= _PAIR_MIN_DEGREE else None
            pairs = None if models is None else self._pairs().cell(models, cell.lo, cell.hi)
            differ = self._differences()
            while True:
                # (rows affine in p: the leader and each pair's D from the
                # followers the two rows weigh differently, no other move's numerator)
                best = self._best_at(t, survivors, num) if differ is None else self._leader(differ, t, survivors)
                S, at_x, restart = {best}, {best}, False
                for c in survivors:
                    if c == best:
                        continue
                    if pairs is not None and pairs.apart(best, c):
                        continue  # the two values differ on the whole closed cell: no crossing, c not optimal at x
                    if differ is not None and differ.apart(best, c, cell.lo, cell.hi, lambda j: self._enclosure(cell, j, narrow)):
                        continue  # likewise, from the followers the two moves weigh differently
                    if differ is None:
                        D = num(best) * Q[c] - num(c) * Q[best]
                    else:
                        D = self._difference(differ, common, best, c)
                    if D.is_zero():
                        S.add(c)
                        at_x.add(c)
                        continue
                    inside, zero_at_x = _roots_between(D, x, y, cell.lo, cell.hi)
                    if zero_at_x:
                        at_x.add(c)
                    if inside:
                        rho = inside[0]
                        rho.refine_to(_BREAKPOINT_WIDTH)
                        y = rho
                        if rho.compare(t) <= 0:
                            restart = True
                            break
                if not restart:
                    break
                t = _pick_point(x, y)
        formula = RationalFunction(num(best), B * Q[best])
        if max(formula.num.degree(), formula.den.degree()) >= spread_module.MIN_DEGREE:
            self._make_model(cell, best, formula)
        labels = self.pos.labels
        return formula, frozenset(labels[w] for w in S), frozenset(labels[w] for w in at_x), y


    def _differences(self) -> DifferenceTest | None:
        """The first-order difference test of pairs of moves
        (:mod:`symbolic_noise.solvers.difftest`), for rows affine in p over
        positive constants that differ pairwise in at most two followers (the
        all-neighbour channel's: the two targets); else None.  Where rows
        differ in more (Chomp's king and rook channels), a pair's test and its
        leader and D made from the differing followers cost more than the
        moves' numerators they spare (5 x 6 rook: 8.2-8.6 s against 6.5-7.3 s)."""
        if self._difftest is None:
            self._difftest = False
            m = len(self.pos.Q)
            if self.pos.affine is not None and m >= 2:
                test = DifferenceTest(self.pos.P, self.pos.Q)
                if all(len(test.support(b, c)) <= 2 for b, c in {(0, 1), (0, m - 1), (m // 2, m - 1)} if b != c):
                    self._difftest = test
        return self._difftest or None


    def _leader(self, differ: DifferenceTest, t: fmpq, survivors: list) -> int:
        """:meth:`_best_at` through the difference test's rows: the first of
        ``survivors`` with the largest value at ``t``, from the values at
        ``t`` of only the followers each compared pair weighs differently."""
        balls: dict = {}
        exacts: dict = {}
        foll = self.foll

        def ball(j):
            got = balls.get(j)
            if got is None:
                f = foll[j]
                with ctx.workprec(_SCREEN_PREC + max(f.num.height_bits(), f.den.height_bits())):
                    x = arb(t)
                    got = balls[j] = 1 - f.num(x) / f.den(x)
            return got

        def exact(j):
            got = exacts.get(j)
            if got is None:
                f = foll[j]
                got = exacts[j] = 1 - f.num(t) / f.den(t)
            return got

        return differ.leader(t, survivors, ball, exact)


    def _difference(self, differ: DifferenceTest, common: "_Common", b: int, c: int) -> fmpz_poly:
        """``A_b Q_c - A_c Q_b`` over ``common.B``, from the followers the two
        rows weigh differently (:meth:`DifferenceTest.weights`)."""
        foll = self.foll
        D = polys.ZERO
        for j, W in differ.weights(b, c):
            f = foll[j]
            D += W * common.follower(f.position, f)
        return D


    def _narrow(self) -> bool:
        """Whether pairs of moves are told apart by the difference test (rows
        that differ in at most two followers, :meth:`_differences`): then a
        pair's test needs two enclosures, and the per-cell screen's of every
        follower cost more."""
        return self._differences() is not None


    def _pairs(self) -> PairTest:
        if self._pairtest is None:
            self._pairtest = PairTest(self.pos.P, self.pos.Q)
        return self._pairtest


    def _best_at(self, t: fmpq, survivors: list, num: Callable) -> int:
        """The first of ``survivors`` with the largest value at ``t``, compared
        through ``A_w(t) / Q_w(t)`` (the values times ``B(t) > 0``): in balls
        when one ball lies above all the others (a certain comparison), else
        exactly (ties, and balls too close to tell apart)."""
        Q = self.pos.Q
        nums = [num(w) for w in survivors]
        with ctx.workprec(_SCREEN_PREC + max(n.height_bits() for n in nums)):
            x = arb(t)
            i = _certain_leader([n(x) / Q[w](x) for n, w in zip(nums, survivors)])
            if i is not None:
                return survivors[i]
        values = [n(t) / Q[w](t) for n, w in zip(nums, survivors)]
        return survivors[max(range(len(values)), key=values.__getitem__)]


    def _close(self) -> frozenset:
        """The optimal set at b on the last piece: in balls when one move's
        value lies above all the others (a certain comparison), else by exact
        evaluation (ties, and balls too close to tell apart)."""
        b = self.B.lo
        heights = [max(f.num.height_bits(), f.den.height_bits()) for f in self.foll]
        with ctx.workprec(_SCREEN_PREC + max(heights, default=0)):
            x = arb(b)
            lose = [1 - f.num(x) / f.den(x) for f in self.foll]
            balls = []
            for q, (groups, _) in zip(self.pos.Q, self.pos.rows):
                total = arb(0)
                for n, members in groups:  # followers of equal weight together
                    total += n(x) * sum((lose[j] for j in members), arb(0))
                balls.append(total / q(x))
            i = _certain_leader(balls)
            if i is not None:
                return frozenset((self.pos.labels[i],))
        lose = [1 - f.num(b) / f.den(b) for f in self.foll]
        values = []
        for q, row in zip(self.pos.Q, self.pos.P):
            qb = q(b)
            values.append(sum((n(b) * e for n, e in zip(row, lose) if not n.is_zero()), fmpq(0)) / qb)
        top = max(values)
        return frozenset(self.pos.labels[w] for w, x in enumerate(values) if x == top)
