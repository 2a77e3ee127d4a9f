"""Solving one position: the sweep over p across its cells.

:class:`_PositionSolver` walks p from a to b; on each cell it makes the cell's
data (:mod:`.celldata`), screens the moves (:mod:`.screen`) and decides the
optimal set exactly (:mod:`.decide`), ending a piece at every breakpoint; for
channels affine in p it takes the batched path (:mod:`.batched`).
"""

from __future__ import annotations

from typing import Callable

from flint import fmpq

from ...exact.algebraic import RealAlgebraic
from ...exact.piecewise import PiecewiseFunction
from .batched import Batched
from .celldata import CellData
from .cells import _Cells
from .decide import Decisions
from .followers import _Follower, _Position
from .screen import Screen

class _PositionSolver(CellData, Screen, Decisions, Batched):
    """Solves one position whose followers' values are known."""

    def __init__(self, pos: _Position, followers: list, a: fmpq, b: fmpq, cells: _Cells, norm: dict):
        self.pos = pos
        self.foll = [_Follower(u, f, cells.unpacked) for u, f in zip(pos.followers, followers)]
        self._by_position = {f.position: f for f in self.foll}
        self._making = None  # the common data without ``cs`` that :meth:`_common` returned last
        self._pairtest = None
        self._difftest = None  # DifferenceTest, or False when the rows do not allow it
        self.A = RealAlgebraic.rational(a)
        self.B = RealAlgebraic.rational(b)
        self.cells = cells
        self.norm = norm
        self.key = tuple(pos.followers)
        self._rows: dict = {}  # (id(row), w) -> (row w extends that row, the row)
        self._last = None  # the last common made anew here, and its followers' (num, den) (:meth:`_fresh_common`)
        self._gs: dict = {}  # id(num) -> (num, num/den as fmpq_poly, or None unless den is a constant)


    def _cell_end(self) -> RealAlgebraic:
        """The nearest end of the followers' current pieces (followers share
        breakpoint objects: each distinct one is compared once)."""
        y = self.foll[0].end
        seen = {id(y)}
        for f in self.foll[1:]:
            e = f.end
            if id(e) not in seen:
                seen.add(id(e))
                if e.compare(y) < 0:
                    y = e
        return y


    def _step(self, h: RealAlgebraic) -> None:
        """Move every follower whose piece ends at ``h`` into its next piece."""
        at_h = {}  # id of a piece end (alive: a breakpoint of a follower) -> whether it is h
        for f in self.foll:
            e = f.end
            moves = at_h.get(id(e))
            if moves is None:
                moves = at_h[id(e)] = e is h or e.compare(h) == 0
            if moves:
                f.enter(f.index + 1, self.norm)


    def walk_cells(self, lo: RealAlgebraic, hi: RealAlgebraic):
        """The cells between the followers' breakpoints that meet [lo, hi], clipped
        to it: ``(x, y, common)`` (the common denominator and numerators, :class:`_Common`)."""
        for f in self.foll:
            f.enter(0, self.norm)
        x = self.A
        while True:
            y = self._cell_end()
            if y.compare(lo) > 0:
                cx = x if x.compare(lo) >= 0 else lo
                cy = y if y.compare(hi) <= 0 else hi
                if cx.compare(cy) < 0:
                    common = self._common(self.cells.get(cx, cy))
                    yield cx, cy, common
            if y.compare(hi) >= 0:
                return
            self._step(y)
            x = y


    def run(self, progress: Callable[[float], None] | None = None) -> PiecewiseFunction:
        for f in self.foll:
            f.enter(0, self.norm)
        if self.pos.affine is not None:
            return self._run_batched(progress)
        x = self.A
        span = self.B.lo - self.A.lo
        points, formulas, sets, point_sets = [x], [], [], []
        while True:
            formula, S, at_x, h = self._advance(x, self._cell_end())
            formulas.append(formula)
            sets.append(S)
            point_sets.append(at_x)
            points.append(h)
            if h is self.B or h.compare(self.B) == 0:
                break
            self._step(h)
            x = h
            if progress is not None:
                progress(float((x.lo - self.A.lo) / span))
        point_sets.append(self._close())
        return PiecewiseFunction(points, formulas, sets, point_sets)
