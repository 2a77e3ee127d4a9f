"""Who knows what: one channel and one strategy per player (theory.md, section 5).

The state is ``(v, i)``, the position and the player ``i`` in {1, 2} to move.
Player ``i`` sends through its own channel psi^i and either maximises (plays
*optimally*, knowing both channels and the opponent's strategy) or follows a
fixed strategy sigma^i:

    W_v^i(w) = sum_u psi^i_v(w, u) (1 - W_u^j)            j = 3 - i
    W_v^i    = max_w W_v^i(w)                     (optimal)
    W_v^i    = sum_w sigma^i_v(w) W_v^i(w)        (fixed)

The first player's winning probability is ``N = W^1`` at the start.  Both
channels share the solve's parameter p unless a channel is fixed at a rational
(``binary@1/10``).  With one channel and both players optimal the game is the
paper's and :func:`solve_players` delegates to :func:`symbolic_noise.solvers.piecewise.solve`
(``W^1 = W^2 = N``).  Otherwise every ``W`` is built with exact piecewise
operations: on the common refinement of the followers' pieces every sent move's
value is one rational function, a fixed player's value is their weighted sum,
and an optimal player's is their maximum, whose switching points are isolated
exactly (:func:`max_on_cell`).  Both players fixed: one rational function on
the whole interval.

Strategies (:func:`get_strategy`): ``optimal``; ``classical``, the noise-free
strategy: send a move to a P-position of the classical game (nim-value 0,
misère P-position under misère play), the first in the game's move order, and
if there is none the first listed move (1-pile Nim: take all); ``uniform``;
or a table (:class:`TableStrategy`, JSON via :func:`strategy_from_json`).

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> sol = solve_players(Nim(2), "binary", opponent_channel="identity")
>>> [pc.formula.text() for pc in sol.value().pieces()]
['1 - p', 'p']
>>> sol.at("1/4").value, sorted(sol.at("1/4").optimal)
(3/4, [0])
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from flint import fmpz_poly

from ...exact.algebraic import RealAlgebraic, dyadic_hull, rational_between, real_roots
from ...games.channels import Channel, get_channel
from ...games.rulesets import Game
from ...exact.piecewise import PiecewiseFunction
from ...exact.formula import exact_number
from ...exact.polys import ONE
from ...exact.ratfunc import RationalFunction
from ..solution import PointResult
from ..piecewise import SolveProgress, exact_interval, solve
from .strategies import (  # noqa: F401  (re-exported: strategies are part of this layer's vocabulary)
    ClassicalStrategy,
    OptimalStrategy,
    Strategy,
    TableStrategy,
    UniformStrategy,
    get_strategy,
    load_strategy,
    strategy_from_json,
)


# --------------------------------------------------------------------------- exact max on a cell


def _sign_at(f: RationalFunction, x: RealAlgebraic) -> int:
    """The exact sign of ``f`` at ``x`` (its denominator does not vanish there)."""
    q = x.rational_value
    if q is not None:
        v = f(q)
        return (v > 0) - (v < 0)
    return x.sign_of(f.num) * x.sign_of(f.den)


def argmax_at(x: RealAlgebraic, cands) -> frozenset:
    """The labels of the candidates ``(formula, labels)`` whose value at ``x`` is largest."""
    best, out = cands[0][0], set(cands[0][1])
    for f, labels in cands[1:]:
        s = _sign_at(f - best, x)
        if s > 0:
            best, out = f, set(labels)
        elif s == 0:
            out |= labels
    return frozenset(out)


def _diff_num(f: RationalFunction, g: RationalFunction) -> fmpz_poly:
    return f.num * g.den - g.num * f.den


def max_on_cell(x: RealAlgebraic, y: RealAlgebraic, cands):
    """The maximum of rational functions on the open cell ``(x, y)``.

    ``cands`` is a list of ``(formula, labels)`` with distinct formulas.  Returns
    ``[(lo, hi, formula, labels)]`` for consecutive pieces covering (x, y) and the
    labels at every interior switching point (a list one shorter).  Every
    switching point is a root of the numerator of a difference, isolated exactly;
    the leader of a piece is decided by exact evaluation at a rational point.
    """
    pieces, points = [], []
    cur = x
    while True:
        right = y
        t = rational_between(cur, right)
        while True:
            values = [f(t) for f, _ in cands]
            top = max(values)
            leaders = [k for k, val in enumerate(values) if val == top]
            if len(leaders) > 1:  # t is a crossing point: look closer to cur
                right = RealAlgebraic.rational(t)
                t = rational_between(cur, right)
                continue
            b = leaders[0]
            lo, hi = dyadic_hull(cur, y)
            first = None
            for k, (g, _) in enumerate(cands):
                if k == b:
                    continue
                for r in real_roots(_diff_num(cands[b][0], g), lo, hi):
                    if r.compare(cur) > 0 and r.compare(y) < 0:
                        if first is None or r.compare(first) < 0:
                            first = r
                        break
            if first is not None and first.compare(RealAlgebraic.rational(t)) < 0:
                right = first
                t = rational_between(cur, right)
                continue
            break
        end = y if first is None else first
        pieces.append((cur, end, cands[b][0], frozenset(cands[b][1])))
        if first is None:
            return pieces, points
        first.minpoly()  # factor once: a rational switching point becomes rational
        points.append(argmax_at(first, cands))
        cur = first


def _walk(funcs, a: RealAlgebraic, b: RealAlgebraic):
    """The common refinement of piecewise functions on [a, b]: yields
    ``(x, y, [formula of each function on (x, y)])``."""
    idx = [0] * len(funcs)
    x = a
    while True:
        ends = [f.points[i + 1] for f, i in zip(funcs, idx)]
        y = ends[0]
        for e in ends[1:]:
            if e.compare(y) < 0:
                y = e
        yield x, y, [f.formulas[i] for f, i in zip(funcs, idx)]
        if y.compare(b) == 0:
            return
        for k, e in enumerate(ends):
            if e is y or e.compare(y) == 0:
                idx[k] += 1
        x = y


def _move_formulas(rows, values) -> list[RationalFunction]:
    """``sum_u psi(w, u) (1 - W_u)`` for every sent w, over a common denominator."""
    B = ONE
    for g in values:
        if not g.den.is_one():
            B = B * (g.den // B.gcd(g.den))
    lose = [(g.den - g.num) * (B // g.den) for g in values]
    out = []
    for den, row in zip(rows.den, rows.num):
        total = fmpz_poly([])
        for n, m in zip(row, lose):
            if not n.is_zero():
                total += n * m
        out.append(RationalFunction(total, den * B))
    return out


# --------------------------------------------------------------------------- the two-player solve


@dataclass(frozen=True)
class Player:
    """One player's channel and strategy."""

    channel: Channel
    strategy: Strategy

    def text(self) -> str:
        return f"{self.channel.name}, {self.strategy.name}"


class _Describe:
    """What the reports print as the 'channel' of a two-player solution."""

    def __init__(self, first: Player, second: Player):
        c1, c2 = first.channel.name, second.channel.name
        s1, s2 = first.strategy.name, second.strategy.name
        chans = c1 if c1 == c2 else f"{c1} vs {c2}"
        self.name = chans if s1 == s2 == "optimal" else f"{chans} [{s1} vs {s2}]"

    def key(self):
        return None


class PlayersSolution:
    """``W_v^i`` for every position and player: ``value(v, player)``.

    Duck-types :class:`symbolic_noise.solvers.solution.Solution` for the reports: the
    value and labels are the first player's unless ``player=2``.  A piece's
    label is the optimal-move set of a maximising player, or the set of moves a
    fixed-strategy player sends.
    """

    def __init__(self, game, first: Player, second: Player, interval, values, start, misere, *, delegate=None):
        self.game = game
        self.players = (first, second)
        self.channel = _Describe(first, second)
        self.interval = interval
        self.start = start
        self.misere = misere
        self._values = values  # {(v, player): PiecewiseFunction}
        self._delegate = delegate
        self._move_values: dict = {}

    def _pos(self, v):
        if v is None:
            return self.start
        v = self.game.check_position(v)
        if (v, 1) not in self._values:
            raise KeyError(f"position {v!r} is not reachable from the start {self.start!r}")
        return v

    def positions(self) -> tuple:
        """Every solved position, followers before the positions they follow."""
        return tuple(v for v, i in self._values if i == 1)

    def value(self, v=None, player: int = 1) -> PiecewiseFunction:
        """``W_v^player`` (default: the first player at the start, i.e. N)."""
        return self._values[(self._pos(v), player)]

    def values(self, player: int = 1) -> dict:
        """``{position: W_position^player}`` for every solved position."""
        return {v: f for (v, i), f in self._values.items() if i == player}

    def __repr__(self) -> str:
        from ...io.display import solution_repr  # the renderer, in the rendering layer

        return solution_repr(self)

    def _repr_html_(self) -> str:
        from ...io.display import solution_html

        return solution_html(self)

    def at(self, p, v=None, player: int = 1) -> PointResult:
        """``W_v^player`` and its label (optimal or sent moves) at an exact ``p``."""
        f = self.value(v, player)
        x = p if isinstance(p, RealAlgebraic) else exact_number(p)
        return PointResult(p, f(x), f.label_at(x))

    def move_values(self, v=None, player: int = 1) -> dict:
        """For each sent move, ``W_v^player(w)`` as a piecewise function."""
        v = self._pos(v)
        if (v, player) not in self._move_values:
            if self._delegate is not None:
                self._move_values[(v, player)] = self._delegate.move_values(v)
            else:
                me = self.players[player - 1]
                fs = self.game.followers(v)
                labels = [self.game.move_label(v, w) for w in fs]
                funcs = [self.value(u, 3 - player) for u in fs]
                rows = me.channel.rows(self.game, v)
                a, b = funcs[0].interval
                points, formulas = [a], {m: [] for m in labels}
                for x, y, gs in _walk(funcs, a, b):
                    for m, f in zip(labels, _move_formulas(rows, gs)):
                        formulas[m].append(f)
                    points.append(y)
                self._move_values[(v, player)] = {m: PiecewiseFunction(points, fl) for m, fl in formulas.items()}
        return self._move_values[(v, player)]

    def stats(self) -> dict:
        """Sizes: pieces and breakpoints of ``N`` at the start, the largest formula
        degree over all positions and players, and the number of positions."""
        f = self.value()
        return {
            "pieces": len(f.formulas),
            "breakpoints": len(f.breakpoints),
            "max_degree": max((g.degree for h in self._values.values() for g in h.formulas), default=0),
            "positions": len(self.positions()),
        }


def _position_value(game, v, player: Player, rows, funcs, a, b, misere) -> PiecewiseFunction:
    fs = game.followers(v)
    labels = [game.move_label(v, w) for w in fs]
    weights = player.strategy.weights(game, v, misere)
    points, formulas, piece_labels, point_labels = [a], [], [], []
    for x, y, gs in _walk(funcs, a, b):
        moves = _move_formulas(rows, gs)
        if weights is not None:
            sent = frozenset(m for m, w in zip(labels, weights) if w)
            total = RationalFunction.constant(0)
            for f, w in zip(moves, weights):
                if w:
                    total = total + f * RationalFunction.constant(w)
            if not point_labels:
                point_labels.append(sent)
            formulas.append(total)
            piece_labels.append(sent)
            points.append(y)
            point_labels.append(sent)
            continue
        cands: dict = {}
        for m, f in zip(labels, moves):
            cands.setdefault(f, set()).add(m)
        cands = list(cands.items())
        if not point_labels:
            point_labels.append(argmax_at(x, cands))
        if len(cands) == 1:
            pieces, inner = [(x, y, cands[0][0], frozenset(cands[0][1]))], []
        else:
            pieces, inner = max_on_cell(x, y, cands)
        for k, (lo, hi, f, lab) in enumerate(pieces):
            formulas.append(f)
            piece_labels.append(lab)
            points.append(hi)
            point_labels.append(inner[k] if k < len(inner) else argmax_at(y, cands))
    return PiecewiseFunction(points, formulas, piece_labels, point_labels)


def solve_players(
    game: Game,
    channel,
    opponent_channel=None,
    *,
    strategy="optimal",
    opponent_strategy="optimal",
    interval=(0, 1),
    start=None,
    misere: bool = False,
    store=None,
    progress=None,
    delegate: bool = True,
) -> PlayersSolution:
    """Solve the two-player game: the first player through ``channel`` with
    ``strategy``, the second through ``opponent_channel`` (default: the same)
    with ``opponent_strategy``.  ``delegate=False`` forces the two-player
    computation even for the paper's symmetric game (a test of the machinery).

    >>> from symbolic_noise.games.rulesets import Nim
    >>> sol = solve_players(Nim(3), "binary", strategy="classical", opponent_strategy="classical")
    >>> [pc.formula.text() for pc in sol.value().pieces()]
    ['(1 - p + p^2)/(1 + p)']
    """
    first = Player(get_channel(channel), get_strategy(strategy))
    second = Player(get_channel(channel if opponent_channel is None else opponent_channel), get_strategy(opponent_strategy))
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    for pl in (first, second):
        if isinstance(pl.strategy, TableStrategy):
            pl.strategy.validate(game, root, misere)
    same = first.channel is second.channel or (
        first.channel.key() is not None and first.channel.key() == second.channel.key()
    )
    both_optimal = isinstance(first.strategy, OptimalStrategy) and isinstance(second.strategy, OptimalStrategy)
    if delegate and same and both_optimal:
        sol = solve(game, first.channel, (a, b), start=root, misere=misere, store=store, progress=progress)
        values = {}
        for v in sol.positions():
            values[(v, 1)] = values[(v, 2)] = sol.value(v)
        return PlayersSolution(game, first, second, (a, b), values, root, misere, delegate=sol)
    A, B = RealAlgebraic.rational(a), RealAlgebraic.rational(b)
    terminal = PiecewiseFunction.constant(1 if misere else 0, a, b, frozenset(), frozenset())
    values = {}
    order = list(game.positions(root))
    t0 = time.perf_counter()
    for done, v in enumerate(order):
        if progress is not None:
            progress(SolveProgress(done, len(order), v, 0.0, time.perf_counter() - t0))
        fs = game.followers(v)
        psi = {}  # one channel for both players: psi once
        for i, pl in ((1, first), (2, second)):
            if not fs:
                values[(v, i)] = terminal
                continue
            rows = psi.get(id(pl.channel))
            if rows is None:
                rows = psi[id(pl.channel)] = pl.channel.rows(game, v)
                pl.channel.check(game, v, rows, (a, b))
            funcs = [values[(u, 3 - i)] for u in fs]
            values[(v, i)] = _position_value(game, v, pl, rows, funcs, A, B, misere)
    if progress is not None:
        progress(SolveProgress(len(order), len(order), root, 1.0, time.perf_counter() - t0))
    return PlayersSolution(game, first, second, (a, b), values, root, misere)


__all__ = [
    "ClassicalStrategy",
    "OptimalStrategy",
    "PlayersSolution",
    "Strategy",
    "TableStrategy",
    "UniformStrategy",
    "argmax_at",
    "get_strategy",
    "load_strategy",
    "max_on_cell",
    "solve_players",
    "strategy_from_json",
]
