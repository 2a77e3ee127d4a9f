"""The exact piecewise solver: backward induction over the game graph, for every p.

For every position ``v`` the solver computes ``N_v`` on [a, b] as a continuous
piecewise-rational function with exact algebraic breakpoints, the optimal-move
set on every open piece and at every breakpoint (theory.md, section 2).

Method: a sweep over p.  At a sweep point ``x`` every position whose formula
may change there is *advanced*: on the next cell ``(x, y)``, where ``y`` is the
nearest point at which a follower changes formula, each follower has a single
formula ``N_u = n_u / d_u``, so each sent move's value is a rational function

    N_v(w) = sum_u (1 - N_u) psi_v(w, u) = A_w / (B Q_w),   B = lcm(d_u).

The best move ``b`` at a rational point ``t`` just right of ``x`` is found by
exact evaluation; then for every other move ``c`` the numerator
``D = A_b Q_c - A_c Q_b`` of ``N_v(b) - N_v(c)`` is shown positive on the cell
by its Bernstein coefficients, or its roots in the cell are isolated exactly.
The first root ends the cell for ``v`` (a breakpoint: the optimal set changes
there); a root left of ``t`` means ``b`` was not best right after ``x`` and the
step is redone on the shorter cell.  Ties are exact: ``D = 0`` identically puts
``c`` in the optimal set, and ``D(x) = 0`` puts it in the set at ``x``.
Every decision is an exact sign; no float is involved.

Examples
--------
>>> from symbolic_noise.games import Nim
>>> from symbolic_noise.channels import BinaryChannel
>>> sol = solve(Nim(3), BinaryChannel())
>>> for piece in sol.value().pieces():
...     print(piece.lo, piece.hi, piece.formula.text(), sorted(piece.label))
0 1/2 (1 - p + p^2)/(1 + p) [0]
1/2 1 (p - p^3)/(1 - p + p^2) [1]
>>> sorted(sol.at("1/2").optimal)
[0, 1, 2]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from flint import fmpq, fmpz_poly

from . import polys
from .algebraic import RealAlgebraic, real_roots
from .channels import Channel, Rows, get_channel
from .errors import IntervalError
from .games import Game
from .piecewise import PiecewiseFunction
from .polys import ONE, as_fmpq, sign
from .ratfunc import RationalFunction

#: width to which new breakpoints are refined when found (keeps later
#: Bernstein tests on cells next to them conclusive)
_BREAKPOINT_WIDTH = fmpq(1, 2**48)


def exact_interval(interval) -> tuple[fmpq, fmpq]:
    """Validate ``(a, b)`` with exact ``0 <= a < b <= 1``."""
    try:
        a, b = interval
    except (TypeError, ValueError):
        raise IntervalError(f"an interval is a pair (a, b), not {interval!r}") from None
    try:
        a, b = as_fmpq(a), as_fmpq(b)
    except Exception as exc:
        raise IntervalError(str(exc)) from None
    if not (0 <= a < b <= 1):
        raise IntervalError(f"the interval [{a}, {b}] must satisfy 0 <= a < b <= 1")
    return a, b


@dataclass
class SolveProgress:
    """What a progress callback receives, once per sweep point."""

    point: RealAlgebraic  #: the sweep point p
    fraction: float  #: (p - a) / (b - a), for display only
    sweep_points: int  #: sweep points done so far
    positions_done: int  #: positions whose value is complete up to b
    positions_total: int
    current: Any  #: the last position advanced
    elapsed: float  #: seconds since the solve started


@dataclass
class _Node:
    """Per-position state of the sweep."""

    position: Any
    followers: list  # indices of follower nodes
    labels: tuple  # move names, in follower order
    den: list  # Q_w, positive on the interval
    num: list  # P_wu
    # current piece: N_v = fnum / fden with fden > 0 on it, valid up to horizon
    fnum: fmpz_poly = None
    fden: fmpz_poly = None
    horizon: RealAlgebraic = None
    # output
    points: list = field(default_factory=list)
    formulas: list = field(default_factory=list)
    sets: list = field(default_factory=list)
    point_sets: list = field(default_factory=list)
    # a value given in advance (terminal positions, earlier solves): its pieces
    # are followed instead of computed
    known: PiecewiseFunction = None
    index: int = 0

    @property
    def terminal(self) -> bool:
        return not self.followers


def _simplest_between(u: fmpq, v: fmpq) -> fmpq:
    """The dyadic rational with the smallest denominator in the open interval (u, v)."""
    e = 0
    while True:
        scale = 2**e
        n = (u * scale).floor() + 1
        t = fmpq(n, scale)
        if t < v:
            return t
        e += 1


def _pick_point(x: RealAlgebraic, y: RealAlgebraic) -> fmpq:
    """A simple rational ``t`` with ``x < t < y``, close to ``x``."""
    while not x.hi < y.lo:
        if x.hi - x.lo >= y.hi - y.lo:
            x.refine()
        else:
            y.refine()
    u, w = x.hi, y.lo
    return _simplest_between(u, u + (w - u) / 8)


def _lcm(polys_list) -> fmpz_poly:
    out = ONE
    seen = set()
    for d in polys_list:
        if d.is_one():
            continue
        key = tuple(d.coeffs())
        if key in seen:
            continue
        seen.add(key)
        g = out.gcd(d)
        out = out * (d // g)
    return out


def _outer_bounds(x: RealAlgebraic, y: RealAlgebraic) -> tuple[fmpq, fmpq]:
    """Short dyadic ``lo <= x`` and ``hi >= y``, with a margin of about 1/16 of
    the cell: few bits keep the Bernstein transforms of large polynomials cheap
    (their coefficients grow by the end points' bits times the degree)."""
    while not x.hi < y.lo:  # x < y: refining separates them
        x.refine()
        y.refine()
    width = y.lo - x.hi
    m = 4
    while fmpq(1, 2**m) * 16 > width:
        m += 1
    scale = 2**m
    lo = x.lo if x.lo == x.hi and x.lo.q <= scale else fmpq((x.lo * scale).floor(), scale)
    hi = y.hi if y.lo == y.hi and y.hi.q <= scale else fmpq((y.hi * scale).ceil(), scale)
    return lo, hi


def _roots_between(D: fmpz_poly, x: RealAlgebraic, y: RealAlgebraic) -> tuple[list, bool]:
    """The roots of ``D`` strictly between ``x`` and ``y`` (increasing) and
    whether ``D(x) == 0``, for ``x < y``."""
    lo, hi = _outer_bounds(x, y)
    if polys.bernstein_sign(D, lo, hi):
        # D has no root in the open interval (lo, hi), which holds (x, y) and x
        # itself unless x == lo
        return [], (x.is_rational and x.lo == lo and D(lo) == 0)
    roots = real_roots(D, lo, hi)
    zero_at_x = False
    inside = []
    for r in roots:
        c = r.compare(x)
        if c == 0:
            zero_at_x = True
        elif c > 0 and r.compare(y) < 0:
            inside.append(r)
    return inside, zero_at_x


class _Sweep:
    def __init__(self, game: Game, channel: Channel, order, a: fmpq, b: fmpq, progress=None, misere=False, known=None):
        self.game = game
        self.misere = misere
        self.a = RealAlgebraic.rational(a)
        self.b = RealAlgebraic.rational(b)
        self.progress = progress
        self.t0 = time.perf_counter()
        index = {v: i for i, v in enumerate(order)}
        mid = (a + b) / 2
        known = known or {}
        # normal play: the player to move at a terminal position loses; misère: wins
        end = PiecewiseFunction.constant(1 if misere else 0, a, b, frozenset(), frozenset())
        self.nodes: list[_Node] = []
        for v in order:
            fs = game.followers(v)
            labels = tuple(game.move_label(v, w) for w in fs)
            node = _Node(v, [index[w] for w in fs], labels, [], [])
            if not fs:
                node.known = end
            elif v in known:
                f = known[v]
                if f.points[0].compare(self.a) != 0 or f.points[-1].compare(self.b) != 0:
                    f = f.restrict(self.a, self.b)
                node.known = f
            else:
                rows = channel.rows(game, v)
                channel.check(game, v, rows, (a, b))
                for q, row in zip(rows.den, rows.num):
                    if sign(q(mid)) < 0:  # rows are sign-normalised: Q_w > 0 on [a, b]
                        q, row = -q, tuple(-n for n in row)
                    node.den.append(q)
                    node.num.append(row)
            self.nodes.append(node)

    # ------------------------------------------------------------------ one cell

    def _candidates(self, node: _Node, t: fmpq):
        """Common denominator ``B`` (> 0 on the cell) and numerators ``A_w``."""
        foll = [self.nodes[i] for i in node.followers]
        B = _lcm(f.fden for f in foll)
        if B(t) < 0:
            B = -B
        c = [(B // f.fden) * (f.fden - f.fnum) for f in foll]
        A = []
        for row in node.num:
            acc = polys.ZERO
            for cu, pu in zip(c, row):
                if not pu.is_zero():
                    acc += cu * pu
            A.append(acc)
        return B, A

    def _advance(self, node: _Node, x: RealAlgebraic) -> None:
        """Compute ``node``'s formula and optimal set right of ``x``, up to the
        first point where either may change; record the piece and the optimal
        set at ``x``."""
        y = None
        for i in node.followers:
            h = self.nodes[i].horizon
            if y is None or (h is not y and h.compare(y) < 0):
                y = h
        Q = node.den
        m = len(Q)
        t = _pick_point(x, y)
        B, A = self._candidates(node, t)
        while True:
            values = [A[w](t) / Q[w](t) for w in range(m)]
            best = max(range(m), key=lambda w: values[w])
            S = {best}
            at_x = {best}
            restart = False
            for c in range(m):
                if c == best:
                    continue
                D = A[best] * Q[c] - A[c] * Q[best]
                if D.is_zero():
                    S.add(c)
                    at_x.add(c)
                    continue
                inside, zero_at_x = _roots_between(D, x, y)
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
        formula = RationalFunction(A[best], B * Q[best])
        s = sign(formula.den(t))
        node.fnum, node.fden = (formula.num, formula.den) if s > 0 else (-formula.num, -formula.den)
        node.horizon = y
        node.points.append(x)
        node.point_sets.append(frozenset(node.labels[w] for w in at_x))
        node.formulas.append(formula)
        node.sets.append(frozenset(node.labels[w] for w in S))

    def _close(self, node: _Node) -> None:
        """The optimal set at b, from the last piece."""
        b = self.b.lo
        t = b  # B only needs a sign at a point of the last cell; b is its end
        B, A = self._candidates(node, t)
        Q = node.den
        values = [A[w](b) / Q[w](b) for w in range(len(Q))]
        top = max(values)
        node.points.append(self.b)
        node.point_sets.append(frozenset(node.labels[w] for w in range(len(Q)) if values[w] == top))

    # ------------------------------------------------------------------ the sweep

    def _enter_piece(self, node: _Node, i: int) -> None:
        """Follow a known value into its ``i``-th piece."""
        f = node.known
        node.index = i
        formula = f.formulas[i]
        t = _pick_point(f.points[i], f.points[i + 1])
        num, den = formula.num, formula.den
        node.fnum, node.fden = (num, den) if den(t) > 0 else (-num, -den)
        node.horizon = f.points[i + 1]

    def run(self) -> dict:
        x = self.a
        for node in self.nodes:
            if node.known is not None:
                self._enter_piece(node, 0)
        pending = [n for n in self.nodes if n.known is None]
        total = len(self.nodes)
        sweeps = 0
        while True:
            for node in pending:
                if node.known is not None:
                    self._enter_piece(node, node.index + 1)
                else:
                    self._advance(node, x)
            sweeps += 1
            nxt = self.b
            for node in self.nodes:
                h = node.horizon
                if h is not nxt and h.compare(nxt) < 0:
                    nxt = h
            if self.progress is not None:
                done = sum(1 for n in self.nodes if n.horizon is self.b or n.horizon.compare(self.b) == 0)
                span = self.b.lo - self.a.lo
                self.progress(
                    SolveProgress(
                        nxt,
                        float((nxt.lo + nxt.hi) / 2 - self.a.lo) / float(span) if span else 1.0,
                        sweeps,
                        done,
                        total,
                        pending[-1].position if pending else None,
                        time.perf_counter() - self.t0,
                    )
                )
            if nxt is self.b or nxt.compare(self.b) == 0:
                break
            pending = [n for n in self.nodes if n.horizon is nxt or n.horizon.compare(nxt) == 0]
            x = nxt
        out = {}
        for node in self.nodes:
            if node.known is not None:
                out[node.position] = node.known
            else:
                self._close(node)
                out[node.position] = PiecewiseFunction(node.points, node.formulas, node.sets, node.point_sets)
        return out


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class PointResult:
    """The value and optimal moves of a position at one exact p."""

    p: Any
    value: Any  #: fmpq at a rational p, PointValue at an algebraic one
    optimal: frozenset


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
        """Exact value and optimal set at ``p`` (rational or RealAlgebraic)."""
        f = self.value(v)
        x = p if isinstance(p, RealAlgebraic) else as_fmpq(p)
        return PointResult(p, f(x), f.label_at(x))

    def move_values(self, v=None) -> dict:
        """For each sent move ``w`` (by name), ``N_v(w)`` as a piecewise function."""
        v = self._pos(v)
        if v not in self._move_values:
            fs = self.game.followers(v)
            out = {}
            if fs:
                rows = self.channel.rows(self.game, v)
                follower_values = [self._values[w] for w in fs]
                for i, w in enumerate(fs):
                    entries = [rows.entry(i, j) for j in range(len(fs))]

                    def op(formulas, entries=entries):
                        acc = RationalFunction.constant(0)
                        for e, f in zip(entries, formulas):
                            if not e.is_zero:
                                acc = acc + e * (1 - f)
                        return acc

                    out[self.game.move_label(v, w)] = PiecewiseFunction.combine(follower_values, op)
            self._move_values[v] = out
        return self._move_values[v]

    def classification(self, v=None) -> list[tuple]:
        """P/N/O classes: ``("piece", lo, hi, cls)`` for every open piece and
        ``("point", x, cls)`` for every breakpoint and end point."""
        f = self.value(v)
        out = []
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

    def stats(self) -> dict:
        """Sizes: pieces and breakpoints of ``N_start``, largest formula degree
        over all positions."""
        f = self.value()
        return {
            "pieces": len(f.formulas),
            "breakpoints": len(f.breakpoints),
            "max_degree": max((g.degree for h in self._values.values() for g in h.formulas), default=0),
            "positions": len(self._values),
        }


def solve(
    game: Game,
    channel: Channel | str,
    interval=(0, 1),
    *,
    start=None,
    misere: bool = False,
    known=None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> Solution:
    """Solve ``game`` through ``channel`` exactly for every p in ``interval``.

    ``start`` (default: the game's start position) selects the position whose
    subgame is solved; every position reachable from it is solved too.
    ``misere=True`` plays the misère convention: the player who makes the last
    move loses (a player with no move wins, N = 1 at terminal positions).
    ``known`` maps positions to values solved before (with the same channel,
    convention and an interval containing this one, e.g. a Solution's
    ``values()``); they are reused, not recomputed.
    ``progress`` is called once per sweep point with a :class:`SolveProgress`;
    it may raise to stop the solve.

    >>> from symbolic_noise.games import Chomp
    >>> sol = solve(Chomp(2, 2), "king")
    >>> [(str(pc.lo), str(pc.hi), pc.formula.text(), sorted(pc.label)) for pc in sol.value().pieces()]
    [('0', '1/3', '(1 - p)/2', [(1, 2), (2, 1)]), ('1/3', '1', 'p', [(2, 2)])]
    """
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    order = game.positions(root)
    if isinstance(known, Solution):
        known = known.values()
    values = _Sweep(game, channel, order, a, b, progress, misere, known).run()
    return Solution(game, channel, (a, b), values, root, misere)
