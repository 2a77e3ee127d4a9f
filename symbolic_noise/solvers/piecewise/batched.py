"""The batched sweep for channels whose rows are affine in p.

Chomp's king, rook and all-neighbour channels and ``tremble`` have rows affine
in p over constant denominators: a position's base cells (between its
followers' breakpoints) are ordered once and screened all at once by
:mod:`.batchscreen` (a few ball-matrix products); a base cell left with one
move takes that move's formula directly, and only the others go through the
per-cell steps of :mod:`.decide`.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import Callable

from flint import fmpq_poly, fmpz_poly

from ...exact import polys
from ...exact.algebraic import RealAlgebraic
from ...exact.piecewise import PiecewiseFunction
from ...exact.polys import ONE
from ...exact.ratfunc import RationalFunction
from . import batchscreen
from .cells import _distinct_in_order, _left_end

#: base cells screened in one batch (the batches follow the sweep along p)
_BATCH = 256


class Batched:
    """The batched sweep of one position (a part of :class:`~.position._PositionSolver`)."""

    def _row_formula(self, w: int) -> RationalFunction:
        """Move ``w``'s value ``sum_u P_wu (1 - N_u) / Q_w`` on the current
        pieces of the followers, over the common denominator of the followers
        in its row alone (in lowest terms it is the formula :meth:`_advance`
        makes over every follower's)."""
        groups, _ = self.pos.rows[w]
        foll = self.foll
        q = self.pos.Q[w]
        if q.degree() == 0:
            got = self._polynomial_row(groups, q)
            if got is not None:
                return got
        B = ONE
        for _, members in groups:
            for j in members:
                d = foll[j].den
                if not (B % d).is_zero():
                    B = B * (d // B.gcd(d))
        A = polys.ZERO
        for weight, members in groups:
            total = polys.ZERO
            for j in members:
                f = foll[j]
                total += (B // f.den) * (f.den - f.num)
            A += total * weight
        return RationalFunction(A, B * q)


    def _polynomial_row(self, groups: list, q: fmpz_poly) -> RationalFunction | None:
        """:meth:`_row_formula` when ``Q_w`` and the row's followers'
        denominators are constants (Chomp's channels: every value is a
        polynomial in p), in ``fmpq_poly`` arithmetic: a third of the time of
        the common denominator's polynomial divisions and gcds; None when a
        denominator is not a constant.  The formula is the same (both are in
        lowest terms)."""
        gs, foll = self._gs, self.foll
        A = None
        for weight, members in groups:
            total = None  # sum of N_u = num/den over the group; 1 - N_u summed is len(members) - total
            for j in members:
                num = foll[j].num
                got = gs.get(id(num))
                if got is None or got[0] is not num:
                    den = foll[j].den
                    got = gs[id(num)] = (num, fmpq_poly(num, den[0]) if den.degree() == 0 else None)
                g = got[1]
                if g is None:
                    return None
                total = g if total is None else total + g
            part = (len(members) - total) * weight
            A = part if A is None else A + part
        A = A / q[0]
        if A.is_zero():
            return RationalFunction(fmpz_poly([]))
        # (fmpq_poly keeps its numerator's content prime to its denominator, > 0)
        return RationalFunction._canonical(A.numer(), fmpz_poly([A.denom()]))


    def _base_cells(self) -> tuple[list, list, list]:
        """The position's base cells, between its followers' breakpoints:
        their ends, the followers (indices, a list) that enter their next piece at each
        end but the last, and every follower's formulas as spans ``(start, stop,
        num, den)`` of cell indices.

        The followers' distinct inner breakpoints are put in order by their
        intervals' left ends and the order is proved by one exact comparison
        of each neighbouring pair (a full exact sort where it fails): the
        sweep's walk compares every follower's end with the nearest one at
        every cell instead."""
        foll, norm = self.foll, self.norm
        inner: dict = {}
        for f in foll:
            for x in f.value.points[1:-1]:
                inner.setdefault(id(x), x)
        order = sorted(inner.values(), key=_left_end)
        ends, rank = _distinct_in_order(order)
        if ends is None:
            ends, rank = _distinct_in_order(sorted(order, key=cmp_to_key(RealAlgebraic.compare)))
        ends.append(self.B)
        n = len(ends)
        moving: list = [[] for _ in range(n - 1)]
        spans = []
        for j, f in enumerate(foll):
            # a piece ends at an inner breakpoint (rank at most n - 2) or at b
            stops = [rank[id(x)] + 1 for x in f.value.points[1:-1]]
            for stop in stops:
                moving[stop - 1].append(j)
            starts = [0] + stops
            stops.append(n)
            spans.append([(start, stop, rf, neg) for start, stop, (rf, neg) in zip(starts, stops, f.pairs(norm))])
        return ends, moving, spans


    def _run_batched(self, progress: Callable[[float], None] | None) -> PiecewiseFunction:
        """:meth:`run` for rows affine in p: the base cells are screened
        together, :data:`_BATCH` at a time along p, and a cell goes through
        :meth:`_advance` only where that left more than one move."""
        ends, moving, spans = self._base_cells()
        starts = [self.A] + ends[:-1]
        n = len(ends)
        at = [0] * len(spans)  # each follower's first span not behind the batch

        def screened(c0: int) -> list:
            # the batch screen of the base cells c0 .. c0 + _BATCH - 1: in
            # batches along p, so that a range worker's time per piece
            # (its load model) is measured where the work is
            c1 = min(c0 + _BATCH, n)
            hulls, names = [], []
            for cx, cy in zip(starts[c0:c1], ends[c0:c1]):
                cell = self.cells.get(cx, cy)
                hulls.append((cell.lo, cell.hi))
                names.append(cell.hid)
            part = []
            for j, mine in enumerate(spans):
                p = at[j]
                while mine[p][1] <= c0:
                    p += 1
                at[j] = p
                clipped = []
                while p < len(mine) and mine[p][0] < c1:
                    a, b, num, den = mine[p]
                    clipped.append((max(a, c0) - c0, min(b, c1) - c0, num, den))
                    p += 1
                part.append(clipped)
            return batchscreen.screen_cells(*self.pos.affine, hulls, part, names, self.cells.batch)

        x = self.A
        span = self.B.lo - self.A.lo
        points, formulas, sets, point_sets = [x], [], [], []
        labels, rows = self.pos.labels, self.pos.rows
        pairs = [f.pairs(self.norm) for f in self.foll]
        last = None  # (move, formula) when the last base cell was one piece of that move
        for i, y in enumerate(ends):
            if i % _BATCH == 0:
                pre = screened(i)
            only = pre[i % _BATCH]
            if only is not None and len(only) == 1:
                # one move left on the whole base cell: its own formula, the
                # last one's when no follower it weighs entered a new piece
                w = only[0]
                if last is not None and last[0] == w and rows[w][1].isdisjoint(moving[i - 1]):
                    formula = last[1]
                else:
                    formula = self._row_formula(w)
                label = frozenset((labels[w],))
                formulas.append(formula)
                sets.append(label)
                point_sets.append(label)
                points.append(y)
                x = y
                last = (w, formula)
            else:
                last = None
                while True:  # pieces until the base cell's end
                    formula, S, at_x, h = self._advance(x, y, only)
                    formulas.append(formula)
                    sets.append(S)
                    point_sets.append(at_x)
                    points.append(h)
                    x = h
                    if h is y:
                        break
                    if progress is not None:
                        progress(float((x.lo - self.A.lo) / span))
            if i < len(moving):
                for j in moving[i]:
                    f = self.foll[j]
                    f.index += 1
                    f.take(pairs[j][f.index])
                if progress is not None:
                    progress(float((x.lo - self.A.lo) / span))
        point_sets.append(self._close())
        return PiecewiseFunction(points, formulas, sets, point_sets)
