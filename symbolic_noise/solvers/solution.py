"""The result of a solve: every position's exact value, optimal moves and
per-move values.

:class:`Solution` is what :func:`symbolic_noise.solvers.piecewise.solve` returns.
``value(v)`` is the piecewise ``N_v`` whose piece labels are the optimal-move
sets (move names as the game gives them) and whose point labels are the optimal
sets at the breakpoints and at the ends of the interval.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> sol = solve(Nim(3), "binary")
>>> sol.at("1/4").value, sorted(sol.at("1/4").optimal)
(13/20, [0])
>>> [cls for kind, *rest, cls in sol.classification(1)]
['N', 'N', 'N']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..exact.algebraic import RealAlgebraic
from ..exact.piecewise import PiecewiseFunction
from ..exact.formula import exact_number


if TYPE_CHECKING:  # annotations only
    from ..games.channels import Channel
    from ..games.rulesets import Game

@dataclass(frozen=True)
class PointResult:
    """The value and optimal moves of a position at one exact p."""

    p: Any  #: the point, as given (a rational, or a RealAlgebraic)
    value: Any  #: fmpq at a rational p, PointValue at an algebraic one
    optimal: frozenset  #: the optimal moves at p, by name

    def _repr_html_(self) -> str:
        from ..io.display import point_html  # the renderer, in the rendering layer

        return point_html(self)

    def _repr_latex_(self) -> str:
        from ..io.display import point_latex

        return point_latex(self)


class Solution:
    """The exact solution of a game through a channel on an interval of p.

    ``value(v)`` is the piecewise ``N_v`` whose piece labels are the optimal-move
    sets (move names as the game gives them) and whose point labels are the
    optimal sets at the breakpoints and at the ends of the interval.
    """

    def __init__(self, game: Game, channel: Channel, interval, values: dict, start, misere: bool = False):
        self.game = game
        self.misere = misere
        self.channel = channel
        self.interval = interval
        self.start = start
        self._values = values
        self._move_values: dict = {}
        self._workspace = None  # the solver's per-cell caches, for continuing solves

    def positions(self) -> tuple:
        """Every solved position, followers before the positions they follow."""
        return tuple(self._values)

    def values(self) -> dict:
        """``{position: N_position}`` for every solved position."""
        return dict(self._values)

    def _pos(self, v):
        if v is None:
            return self.start
        if v in self._values:
            return v
        v = self.game.check_position(v)
        if v not in self._values:
            raise KeyError(f"position {v!r} is not reachable from the start {self.start!r}")
        return v

    def value(self, v=None) -> PiecewiseFunction:
        """``N_v`` (default: the start position)."""
        return self._values[self._pos(v)]

    def at(self, p, v=None) -> PointResult:
        """Exact value and optimal set at ``p`` (rational or RealAlgebraic); at a
        rational p, a position of the game that this solution did not solve is
        evaluated by the fast exact engine (:mod:`symbolic_noise.solvers.onepoint.fastpoint`)."""
        if v is not None and not isinstance(p, RealAlgebraic) and v not in self._values:
            v = self.game.check_position(v)
            if v not in self._values:
                from .onepoint.fastpoint import point_solve

                r = point_solve(self.game, self.channel, p, start=v, misere=self.misere)
                return PointResult(p, r.value, r.optimal)
        f = self.value(v)
        x = p if isinstance(p, RealAlgebraic) else exact_number(p)
        return PointResult(p, f(x), f.label_at(x))

    def move_formulas(self, v=None, lo=None, hi=None):
        """Every sent move's own value, cell by cell over [lo, hi] (default: the
        whole interval): yields ``(x, y, {move: RationalFunction})`` for the cells
        between the followers' breakpoints, formulas in lowest terms.  A
        generator: nothing is kept (see :func:`symbolic_noise.solvers.piecewise.move_formulas`)."""
        from .piecewise import move_formulas

        return move_formulas(self, self._pos(v), lo, hi)

    def move_values(self, v=None) -> dict:
        """For each sent move ``w`` (by name), ``N_v(w)`` as a piecewise function."""
        v = self._pos(v)
        if v not in self._move_values:
            points, formulas = None, dict()  # type: (list | None, dict)
            for x, y, by_move in self.move_formulas(v):
                if points is None:
                    points = [x]
                points.append(y)
                for move, f in by_move.items():
                    formulas.setdefault(move, []).append(f)
            self._move_values[v] = {move: PiecewiseFunction(points, fl) for move, fl in formulas.items()}
        return self._move_values[v]

    def classification(self, v=None) -> list[tuple]:
        """P/N/O classes: ``("piece", lo, hi, cls)`` for every open piece and
        ``("point", x, cls)`` for every breakpoint and end point."""
        f = self.value(v)
        out: list[tuple] = []
        for j, x in enumerate(f.points):
            value = f.point_value(j)
            q = value.rational_value
            cls = "P" if q == 0 else ("N" if q == 1 else "O")
            if q is None:
                cls = "O"  # an irrational value is strictly between 0 and 1
            out.append(("point", x, cls))
            if j < len(f.formulas):
                g = f.formulas[j]
                c = g.constant_value()
                out.append(("piece", x, f.points[j + 1], "P" if c == 0 else ("N" if c == 1 else "O")))
        return out

    # ------------------------------------------------------------------ display (renderers in display.py, plots.py)

    def __repr__(self) -> str:
        from ..io.display import solution_repr

        return solution_repr(self)

    def _repr_html_(self) -> str:
        from ..io.display import solution_html

        return solution_html(self)

    def _repr_latex_(self) -> str | None:
        from ..io.display import solution_latex

        return solution_latex(self)

    def plot(self, position=None, **options):
        """:func:`symbolic_noise.io.plots.plot_value` of ``N_position``; returns the figure."""
        from ..io.plots import plot_value

        return plot_value(self, position, **options)

    def stats(self) -> dict:
        """Sizes: pieces and breakpoints of ``N_start``, largest formula degree
        over all positions."""
        f = self.value()
        known = getattr(self._values, "max_degree", None)  # (values decoded on demand know it without decoding)
        return {
            "pieces": len(f.formulas),
            "breakpoints": len(f.breakpoints),
            "max_degree": known() if known is not None else max(
                (g.degree for h in self._values.values() for g in h.formulas), default=0
            ),
            "positions": len(self._values),
        }
