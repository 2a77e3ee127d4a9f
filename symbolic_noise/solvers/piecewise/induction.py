"""Backward induction over the positions: the public :func:`solve`.

Positions are solved one at a time, followers first, each by a sweep over p
(:mod:`.position`), so a solve can be stored and resumed position by position;
values from ``known`` or a store are reused, terminal positions are constants,
and symmetric positions are taken from their mirror images (:mod:`.symmetry`).

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import BinaryChannel
>>> sol = solve(Nim(3), BinaryChannel())
>>> for piece in sol.value().pieces():
...     print(piece.lo, piece.hi, piece.formula.text(), sorted(piece.label))
0 1/2 (1 - p + p^2)/(1 + p) [0]
1/2 1 (p - p^3)/(1 - p + p^2) [1]
>>> sorted(sol.at("1/2").optimal)
[0, 1, 2]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable
import time

from flint import ctx as flint_ctx, fmpq

from ...errors import GameParameterError, IntervalError
from ...exact.algebraic import RealAlgebraic
from ...exact.interning import Interner
from ...exact.piecewise import PiecewiseFunction

from ...exact.ratfunc import RationalFunction
from ...games.channels import Channel, get_channel
from ...games.rulesets import Game
from ..solution import Solution
from . import symmetry
from .cells import _Cells
from .collector import fewer_collections
from .followers import _Position
from .position import _PositionSolver
from ...exact.formula import exact_number

def exact_interval(interval) -> tuple[fmpq, fmpq]:
    """Validate ``(a, b)`` with exact ``0 <= a < b <= 1``."""
    try:
        a, b = interval
    except (TypeError, ValueError):
        raise IntervalError(f"an interval is a pair (a, b), not {interval!r}") from None
    try:
        a, b = exact_number(a), exact_number(b)
    except Exception as exc:
        raise IntervalError(str(exc)) from None
    if not (0 <= a < b <= 1):
        raise IntervalError(f"the interval [{a}, {b}] must satisfy 0 <= a < b <= 1")
    return a, b


@dataclass
class SolveProgress:
    """What a progress callback receives: after every cell of the position being
    solved, and when a position is done or loaded."""

    done: int  #: positions solved (or loaded) so far
    total: int  #: positions to solve in all
    current: Any  #: the position being solved
    fraction: float  #: how far its sweep over p has gone, 0..1 (for display only)
    elapsed: float  #: seconds since the solve started


# --------------------------------------------------------------------------- the driver


def solve(
    game: Game,
    channel: Channel | str,
    interval=(0, 1),
    *,
    start=None,
    misere: bool = False,
    known=None,
    store=None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> "Solution":
    """Solve ``game`` through ``channel`` exactly for every p in ``interval``.

    ``start`` (default: the game's start position) selects the position whose
    subgame is solved; every position reachable from it is solved too.
    ``misere=True`` plays the misère convention: the player who makes the last
    move loses (a player with no move wins, N = 1 at terminal positions).
    ``known`` maps positions to values solved before (with the same channel and
    convention, on an interval containing this one; a Solution works too); they
    are reused, not recomputed.  ``store`` is an object with
    ``load(position) -> PiecewiseFunction | None`` and ``save(position, value)``
    (such as :class:`symbolic_noise.solvers.storage.cache.SolutionCache`): positions it holds
    are loaded, every position solved is saved as soon as it is done.
    ``progress`` is called with a :class:`SolveProgress` after every cell and
    every position; it may raise (e.g. KeyboardInterrupt) to stop the solve.

    >>> from symbolic_noise.games.rulesets import Chomp
    >>> sol = solve(Chomp(2, 2), "king")
    >>> [(str(pc.lo), str(pc.hi), pc.formula.text(), sorted(pc.label)) for pc in sol.value().pieces()]
    [('0', '1/3', '(1 - p)/2', [(1, 2), (2, 1)]), ('1/3', '1', 'p', [(2, 2)])]
    """
    if not isinstance(game, Game):
        hint = " (a networkx DiGraph is one with ExplicitGame(graph, start))" if hasattr(game, "successors") else ""
        raise GameParameterError(f"solve needs a Game, not a {type(game).__name__}{hint}")
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    if not known:
        from ..onepoint.fastpoint import solve_constant  # psi free of p: one exact evaluation

        sol = solve_constant(game, channel, (a, b), root, misere=misere)
        if sol is not None:
            return sol
    return solve_positions(
        game, channel, (a, b), game.positions(root), root=root, misere=misere, known=known, store=store, progress=progress
    )


def solve_positions(
    game: Game,
    channel: Channel | str,
    interval,
    order,
    *,
    root=None,
    misere: bool = False,
    known=None,
    store=None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> "Solution":
    """Like :func:`solve`, for the positions ``order`` (followers first, closed
    under followers, e.g. a prefix of ``game.positions()``); ``root`` is the
    position the Solution calls its start (default: the last one)."""
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = order[-1] if root is None else root
    cells, norm = None, None
    if isinstance(known, Solution):
        # continue in the earlier solve's workspace: its cells are ours too
        if known._workspace is not None and known.interval == (a, b):
            cells, norm = known._workspace
        known = known.values()
    if cells is None:
        cells, norm = _Cells(a, b), {}
    known = known or {}
    A, Bpt = RealAlgebraic.rational(a), RealAlgebraic.rational(b)
    terminal = PiecewiseFunction.constant(1 if misere else 0, a, b, frozenset(), frozenset())
    values = {}
    # values from the cache or ``known`` carry a fresh object for every copy of a
    # breakpoint several positions share, and positions solved here can find
    # the same breakpoint again: one object each, so that the cells tell them
    # apart by identity (nim 64's move values from the cache: 66 s of exact
    # comparisons of copies; Chomp 5 x 5 king: 23,021 root counts, 1,435 after)
    interner = Interner()
    t0 = time.perf_counter()
    total = len(order)
    with fewer_collections():  # (collector.py: the collector's runs cost 10 % of a Chomp solve)
        for i, v in enumerate(order):
            value = None
            if v in known:
                value = known[v]
                if value.points[0].compare(A) != 0 or value.points[-1].compare(Bpt) != 0:
                    value = value.restrict(A, Bpt)
                value = interner.function(value)
            elif not game.followers(v):
                value = terminal
            elif store is not None:
                value = store.load(v)
                if value is not None:
                    value = interner.function(value)
            if value is None:
                # a square Chomp board's transposed position: its image's value, relabelled
                value = symmetry.mirrored(game, channel, v, values, (a, b), interner)
                if value is not None and store is not None:
                    store.save(v, value)
            if value is None:
                # a self-symmetric position: one move of each mirror pair (worth the same)
                half = symmetry.representatives(game, channel, v, values, (a, b))
                pos = _Position(game, channel, v, a, b, *(half or ()))
                report = None
                if progress is not None:

                    def report(fraction, i=i, v=v):
                        progress(SolveProgress(i, total, v, fraction, time.perf_counter() - t0))

                value = _PositionSolver(pos, [values[w] for w in pos.followers], a, b, cells, norm).run(report)
                if half is not None:
                    value = symmetry.close_labels(value, game.symmetry())
                value = interner.function(value)  # (see the interner above)
                cells.held.add(value)
                cells.next_position()
                # FLINT keeps freed integers in pools of its own that only grow;
                # emptying them after each position bounds the memory of long solves
                flint_ctx.cleanup()
                if store is not None:
                    store.save(v, value)
            values[v] = value
            if progress is not None:
                progress(SolveProgress(i + 1, total, v, 1.0, time.perf_counter() - t0))
    sol = Solution(game, channel, (a, b), values, root, misere)
    sol._workspace = (cells, norm)
    return sol


def move_formulas(solution, v, lo=None, hi=None):
    """Every sent move's own value at position ``v`` of ``solution``, cell by cell
    over [lo, hi]: yields ``(x, y, {move: RationalFunction})`` for the cells
    between the followers' breakpoints, with the formulas ``A_w / (B Q_w)`` of the
    solver in lowest terms."""
    game = solution.game
    fs = game.followers(v)
    if not fs:
        return
    a, b = solution.interval
    lo = RealAlgebraic.rational(a) if lo is None else RealAlgebraic.coerce(lo)
    hi = RealAlgebraic.rational(b) if hi is None else RealAlgebraic.coerce(hi)
    pos = _Position(game, solution.channel, v, a, b)
    solver = _PositionSolver(pos, [solution.value(w) for w in fs], a, b, _Cells(a, b), {})
    for x, y, common in solver.walk_cells(lo, hi):
        yield x, y, {pos.labels[w]: RationalFunction(solver._numerator(common, w), common.B * pos.Q[w]) for w in range(len(fs))}
