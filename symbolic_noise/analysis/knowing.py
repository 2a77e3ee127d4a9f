"""The value of knowing p (theory.md, section 5): exact differences of winning
probabilities, their extrema and zeros.

``Delta(p) = N[informed](p) - N[baseline](p)`` where, with the ``both`` reading,
both players switch from ``against`` (default ``classical``) to ``strategy``
(default ``optimal``), and with the ``first`` reading only the first player
knows p and switches while the opponent keeps playing ``against``.  Delta is a
continuous piecewise-rational function; its maximum and minimum over the
interval are attained at end points, breakpoints or roots of the numerator of a
piece's derivative, all exact algebraic numbers, and are compared exactly
(numeric enclosures decide when they separate, minimal polynomials when not).

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> k = value_of_knowing(Nim(2), "binary")
>>> [pc.formula.text() for pc in k.delta.pieces()], str(k.maximum), [str(x) for x in k.argmax]
(['0', '-1 + 2p'], '1', ['1'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..exact.algebraic import RealAlgebraic, dyadic_hull, real_roots, sorted_exact
from ..errors import InvalidStrategyError, SymbolicNoiseError
from ..exact.piecewise import PiecewiseFunction, PointValue
from ..solvers.twoplayer.players import solve_players
from ..exact.ratfunc import RationalFunction


def _value(f: RationalFunction, x: RealAlgebraic) -> PointValue:
    return PointValue(f, x)


def compare_values(u: PointValue, v: PointValue) -> int:
    """The exact sign of ``u - v`` for values at (possibly different) algebraic points.

    >>> from symbolic_noise.exact.algebraic import RealAlgebraic
    >>> half = RealAlgebraic.rational("1/2")
    >>> from symbolic_noise.exact.formula import parse_formula
    >>> compare_values(PointValue(parse_formula("p"), half), PointValue(parse_formula("1 - p"), half))
    0
    """
    ru, rv = u.rational_value, v.rational_value
    if ru is not None and rv is not None:
        return (ru > rv) - (ru < rv)
    if u.point is v.point or u.point.compare(v.point) == 0:
        x = u.point
        d = u.formula - v.formula
        q = x.rational_value
        if q is not None:
            return (d(q) > 0) - (d(q) < 0)
        return x.sign_of(d.num) * x.sign_of(d.den)
    for digits in (20, 60):
        lu, hu = u.enclosure(digits)
        lv, hv = v.enclosure(digits)
        if hu < lv:
            return -1
        if hv < lu:
            return 1
    a, b = u.as_algebraic(max_degree=400), v.as_algebraic(max_degree=400)
    if a is None or b is None:  # pragma: no cover - degrees beyond what we meet
        raise SymbolicNoiseError("cannot compare two values whose points have minimal polynomials of degree > 400")
    return a.compare(b)


@dataclass(frozen=True)
class Extremum:
    """The exact maximum (or minimum) of a piecewise function: its ``value``
    (a :class:`PointValue`), the isolated points where it is attained and the
    pieces ``(lo, hi)`` on which the function is constantly equal to it."""

    value: PointValue  #: the extreme value, exact
    points: tuple  #: the isolated points where it is attained
    intervals: tuple  #: the pieces ``(lo, hi)`` on which the function equals it


def extremum(f: PiecewiseFunction, kind: str = "max") -> Extremum:
    """The exact maximum (``kind="max"``) or minimum of ``f`` over its interval.

    >>> from symbolic_noise import Nim, solve
    >>> m = extremum(solve(Nim(3), "binary").value(), "min")
    >>> str(m.value), [str(x) for x in m.points]
    ('0', ['1'])
    """
    sign = 1 if kind == "max" else -1
    cands = []  # (PointValue, point or None, interval or None)
    for j, x in enumerate(f.points):
        cands.append((_value(f.formulas[max(0, j - 1)], x), x, None))
    for i, g in enumerate(f.formulas):
        lo, hi = f.points[i], f.points[i + 1]
        if g.is_constant:
            cands.append((_value(g, lo), None, (lo, hi)))
            continue
        crit = g.num.derivative() * g.den - g.num * g.den.derivative()
        if crit.degree() < 1:
            continue
        a, b = dyadic_hull(lo, hi)
        for r in real_roots(crit, a, b):
            if r.compare(lo) > 0 and r.compare(hi) < 0:
                r.minpoly()  # a rational critical point becomes rational
                cands.append((_value(g, r), r, None))
    best = [cands[0]]
    for c in cands[1:]:
        s = sign * compare_values(c[0], best[0][0])
        if s > 0:
            best = [c]
        elif s == 0:
            best.append(c)
    intervals = tuple(c[2] for c in best if c[2] is not None)
    points = []
    for c in best:
        x = c[1]
        if x is None or any(lo.compare(x) <= 0 <= hi.compare(x) for lo, hi in intervals):
            continue
        if not any(x.compare(y) == 0 for y in points):
            points.append(x)
    return Extremum(best[0][0], tuple(points), intervals)


def zero_set(f: PiecewiseFunction) -> tuple[tuple, tuple]:
    """Where ``f`` vanishes: ``(intervals, points)``, maximal closed intervals
    ``(lo, hi)`` where it is identically 0 and the isolated zeros.

    >>> from symbolic_noise import Nim, solve
    >>> iv, pts = zero_set(value_of_knowing(Nim(2), "binary").delta)
    >>> [(str(a), str(b)) for a, b in iv], pts
    ([('0', '1/2')], ())
    """
    intervals, points = [], []
    for i, g in enumerate(f.formulas):
        lo, hi = f.points[i], f.points[i + 1]
        if g.is_zero:
            if intervals and intervals[-1][1].compare(lo) == 0:
                intervals[-1] = (intervals[-1][0], hi)
            else:
                intervals.append((lo, hi))
            continue
        if g.num.degree() >= 1:
            a, b = dyadic_hull(lo, hi)
            points += [r for r in real_roots(g.num, a, b) if lo.compare(r) < 0 and r.compare(hi) < 0]
    for x in points:
        x.minpoly()  # rational zeros print as rationals
    for j, x in enumerate(f.points):
        g = f.formulas[max(0, j - 1)]
        q = x.rational_value
        zero = (g(q) == 0) if q is not None else x.sign_of(g.num) == 0
        if zero:
            points.append(x)
    inside = lambda x: any(lo.compare(x) <= 0 and x.compare(hi) <= 0 for lo, hi in intervals)  # noqa: E731
    out = []
    for x in points:
        if not inside(x) and not any(x.compare(y) == 0 for y in out):
            out.append(x)
    return tuple(intervals), tuple(sorted_exact(out))


@dataclass(frozen=True)
class Knowing:
    """The value of knowing p: ``delta = informed - baseline`` with its exact
    extrema and zero set (see the module docstring)."""

    reading: str  #: ``"both"`` (both players switch) or ``"first"`` (the first player only)
    strategy: str  #: the strategy of the informed player(s), by name
    against: str  #: the strategy of the baseline (and of the opponent with the ``first`` reading)
    informed: PiecewiseFunction  #: N with the informed player(s) playing ``strategy``
    baseline: PiecewiseFunction  #: N with both players playing ``against``
    delta: PiecewiseFunction  #: ``informed - baseline``
    maximum: PointValue  #: the maximum of ``delta``, exact
    argmax: tuple  #: the isolated points where ``delta`` attains its maximum
    argmax_intervals: tuple  #: the pieces ``(lo, hi)`` on which ``delta`` equals its maximum
    minimum: PointValue  #: the minimum of ``delta``, exact
    argmin: tuple  #: the isolated points where ``delta`` attains its minimum
    argmin_intervals: tuple  #: the pieces ``(lo, hi)`` on which ``delta`` equals its minimum
    zeros: tuple  #: the isolated zeros of ``delta``
    zero_intervals: tuple  #: the maximal closed intervals ``(lo, hi)`` on which ``delta`` is 0
    solutions: Any = None  #: the two solves ``(informed, baseline)``, as PlayersSolution objects

    def _repr_html_(self) -> str:
        from ..io.display import knowing_html

        return knowing_html(self)


def value_of_knowing(
    game,
    channel,
    *,
    reading: str = "both",
    strategy="optimal",
    against="classical",
    opponent_channel=None,
    interval=(0, 1),
    start=None,
    misere: bool = False,
) -> Knowing:
    """``N[informed] - N[baseline]``, exactly, with its maximum, minimum and zeros.

    ``reading="both"``: both players play ``strategy`` against both playing
    ``against``; ``reading="first"``: the first player plays ``strategy``
    against an opponent who keeps ``against``, compared with both ``against``.
    """
    return knowing_family(
        game, channel, None, reading=reading, strategy=strategy, against=against,
        opponent_channel=opponent_channel, interval=interval, start=start, misere=misere,
    )[game.start() if start is None else game.check_position(start)]


def knowing_family(
    game,
    channel,
    positions=None,
    *,
    reading: str = "both",
    strategy="optimal",
    against="classical",
    opponent_channel=None,
    interval=(0, 1),
    start=None,
    misere: bool = False,
) -> dict:
    """:func:`value_of_knowing` for every position in ``positions`` (default: the
    start) with the first player to move there, from one pair of solves from
    ``start``: ``{v: Knowing}``.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> fam = knowing_family(Nim(3), "binary", [2, 3], reading="first")
    >>> [str(fam[k].maximum) for k in (2, 3)]
    ['1', '1/2']
    """
    if reading not in ("both", "first"):
        raise InvalidStrategyError(f'the reading of the value of knowing is "both" or "first", not {reading!r}')
    kw = dict(interval=interval, start=start, misere=misere)
    informed = solve_players(
        game, channel, opponent_channel, strategy=strategy,
        opponent_strategy=strategy if reading == "both" else against, **kw,
    )
    baseline = solve_players(game, channel, opponent_channel, strategy=against, opponent_strategy=against, **kw)
    name = lambda s: getattr(s, "name", s)  # noqa: E731
    out = {}
    for v in [informed.start] if positions is None else positions:
        N1, N0 = informed.value(v), baseline.value(v)
        delta = PiecewiseFunction.combine([N1, N0], lambda fs: fs[0] - fs[1])
        hi, lo = extremum(delta, "max"), extremum(delta, "min")
        zi, zp = zero_set(delta)
        out[v] = Knowing(
            reading, name(strategy), name(against), N1, N0, delta,
            hi.value, hi.points, hi.intervals, lo.value, lo.points, lo.intervals, zp, zi, (informed, baseline),
        )
    return out


__all__ = ["Extremum", "Knowing", "compare_values", "extremum", "knowing_family", "value_of_knowing", "zero_set"]
