"""Exact series of N_v at a point, and the classical winning moves that best
survive a little noise ("robust moves", theory.md section 5).

A piecewise value is one rational function ``f`` on each piece, so its series
at an end point or a breakpoint, from either side, is the Taylor series of the
adjacent piece's formula.  The coefficients ``f^(k)(x) / k!`` are exact: rational
at a rational point (computed by shifting ``f`` to ``x`` and dividing power
series), and :class:`PointValue` (a rational function evaluated at the
algebraic point) at an irrational breakpoint.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> N3 = solve(Nim(3), "binary").value()
>>> series_at(N3, 0, 4)[0].text()
'1 - 2p + 3p^2 - 3p^3 + 3p^4 + O(p^5)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flint import fmpq, fmpq_poly

from ..exact.algebraic import RealAlgebraic
from ..errors import IntervalError
from ..exact.piecewise import PiecewiseFunction, PointValue

from ..exact.ratfunc import RationalFunction
from ..exact.formula import exact_number


def _shifted(f, x: fmpq) -> fmpq_poly:
    """``f(x + h)`` for an integer polynomial ``f``, as a polynomial in h."""
    return fmpq_poly([int(c) for c in f.coeffs()])(fmpq_poly([x, 1]))


def taylor_rational(f: RationalFunction, x, order: int) -> list[fmpq]:
    """The exact Taylor coefficients ``c_0..c_order`` of ``f`` at a rational ``x``.

    >>> from symbolic_noise.exact.formula import parse_formula
    >>> taylor_rational(parse_formula("1/(1 - p)"), 0, 3)
    [1, 1, 1, 1]
    """
    x = exact_number(x)
    n, d = _shifted(f.num, x), _shifted(f.den, x)
    dc = [d.coeffs()[k] if k < len(d.coeffs()) else fmpq(0) for k in range(order + 1)]
    nc = [n.coeffs()[k] if k < len(n.coeffs()) else fmpq(0) for k in range(order + 1)]
    if dc[0] == 0:
        raise ZeroDivisionError(f"{f} has a pole at p = {x}")
    out = []
    for k in range(order + 1):
        s = nc[k] - sum((dc[j] * out[k - j] for j in range(1, k + 1)), fmpq(0))
        out.append(s / dc[0])
    return out


def _derivative(f: RationalFunction) -> RationalFunction:
    return RationalFunction(f.num.derivative() * f.den - f.num * f.den.derivative(), f.den * f.den)


def taylor_coefficients(f: RationalFunction, x: RealAlgebraic, order: int) -> list:
    """Exact Taylor coefficients at ``x``: ``fmpq`` at a rational point,
    :class:`PointValue` (``f^(k)/k!`` at ``x``) at an irrational one."""
    q = x.rational_value
    if q is not None:
        return taylor_rational(f, q, order)
    out, g = [], f
    for k in range(order + 1):
        out.append(PointValue(g, x))
        g = _derivative(g) * RationalFunction.constant(fmpq(1, k + 1))
    return out


@dataclass(frozen=True)
class Series:
    """The series of a piece's formula at ``point`` (``side``: from the ``right``
    or the ``left``): ``sum_k coefficients[k] (p - point)^k + O((p - point)^(order+1))``."""

    point: RealAlgebraic  #: where the series is taken
    side: str  #: ``"left"`` or ``"right"`` at a breakpoint or an end point, ``"both"`` inside a piece
    coefficients: tuple  #: ``f^(k)(point) / k!`` for k = 0 .. order (``fmpq``, or ``PointValue`` at an irrational point)
    formula: RationalFunction  #: the formula of the piece on that side
    label: Any = None  #: that piece's label (its optimal-move set), or None

    @property
    def order(self) -> int:
        """The highest power of ``(p - point)`` kept."""
        return len(self.coefficients) - 1

    def rational_coefficients(self):
        """The coefficients as ``fmpq`` (``None`` if the point is irrational)."""
        if self.point.rational_value is None:
            return None
        return tuple(self.coefficients)

    def text(self, digits: int = 15) -> str:
        """``1 - 2p + 3p^2 + O(p^3)``; at ``x != 0`` in powers of ``(p - x)``."""
        q = self.point.rational_value
        if q == 0:
            h = "p"
        elif q is not None:
            h = f"(p - {q})"
        else:
            h = f"(p - {self.point.decimal(digits)}...)"
        terms = []
        for k, c in enumerate(self.coefficients):
            if isinstance(c, PointValue):
                r = c.rational_value
                c = r if r is not None else c
            if isinstance(c, fmpq):
                if c == 0:
                    continue
                sign = "-" if c < 0 else "+"
                mag = abs(c)
                coef = "" if (mag == 1 and k > 0) else str(mag)
                if k > 0 and "/" in coef:
                    coef = f"({coef})"
            else:
                text = c.decimal(digits) + "..."
                sign = "-" if text.startswith("-") else "+"
                coef = text.lstrip("-")
            power = "" if k == 0 else (h if k == 1 else f"{h}^{k}")
            body = coef + power if coef else power
            terms.append((sign, body))
        tail = f"O({h}^{self.order + 1})" if self.order + 1 > 1 else f"O({h})"
        if not terms:
            return tail
        out = ("-" if terms[0][0] == "-" else "") + terms[0][1]
        for sign, body in terms[1:]:
            out += f" {sign} {body}"
        return f"{out} + {tail}"

    def as_json(self, digits: int = 15) -> dict:
        """The series as JSON data: the point exact and in decimals, the side, the
        order, the exact coefficients and the :meth:`text`."""
        return {
            "point": self.point.exact_str(),
            "point_decimal": self.point.decimal(digits),
            "side": self.side,
            "order": self.order,
            "coefficients": [str(c) if isinstance(c, fmpq) else c.exact_str() for c in self.coefficients],
            "series": self.text(digits),
        }


def series_at(f: PiecewiseFunction, x, order: int = 5) -> list[Series]:
    """The series of ``f`` at ``x`` from every side that lies in its interval: one
    at an end point or inside a piece, two (left, right) at a breakpoint.

    >>> from symbolic_noise import Nim, solve
    >>> [s.text() for s in series_at(solve(Nim(2), "binary").value(), "1/2", 1)]
    ['1/2 - (p - 1/2) + O((p - 1/2)^2)', '1/2 + (p - 1/2) + O((p - 1/2)^2)']
    """
    x = x if isinstance(x, RealAlgebraic) else RealAlgebraic.rational(exact_number(x))
    a, b = f.interval
    if x.compare(a) < 0 or x.compare(b) > 0:
        raise IntervalError(f"p = {x} is outside [{a}, {b}]")
    kind, i = f.locate(x)
    sides = []
    if kind == "piece":
        sides.append(("both", i))
    else:
        if i > 0:
            sides.append(("left", i - 1))
        if i < len(f.formulas):
            sides.append(("right", i))
    out = []
    for side, j in sides:
        g = f.formulas[j]
        label = f.labels[j] if f.labels is not None else None
        out.append(Series(x, side, tuple(taylor_coefficients(g, x, order)), g, label))
    return out


# --------------------------------------------------------------------------- robust moves


@dataclass(frozen=True)
class RobustMoves:
    """The classical winning moves of a position under small noise.

    ``winning``: the moves to P-positions of the noise-free game, in the game's
    order; ``series``: each one's value ``N_v(w)`` at p = 0 as exact Taylor
    coefficients; ``ranking``: the winning moves best first (by the series, term
    by term; equal series share a rank); ``robust``: the winning moves optimal
    on some (0, eps), from the exact solution; ``until``: for each robust move
    the exact p where it stops being optimal (``None``: never on the interval).
    """

    position: Any  #: the position asked about
    winning: tuple  #: the moves to P-positions of the noise-free game, in the game's order
    series: dict  #: each winning move to its value ``N_v(w)`` at p = 0, as exact Taylor coefficients
    ranking: tuple  #: the winning moves best first, by their series term by term (equal series share a rank)
    robust: frozenset  #: the winning moves optimal on some (0, eps), from the exact solution
    until: dict  #: each robust move to the exact p where it stops being optimal (``None`` if never on the interval)


def _mul_low(f: list, g: list, n: int) -> list:
    out = [fmpq(0)] * n
    for i, a in enumerate(f[:n]):
        if a == 0:
            continue
        for j, b in enumerate(g[: n - i]):
            out[i + j] += a * b
    return out


def series_solve(game, channel, order: int = 6, *, start=None, misere: bool = False):
    """The exact series of every ``N_v`` and every sent move's value at p = 0+,
    to ``order``, without solving for all p: ``{v: (series of N_v, {move: series})}``.

    Backward induction on truncated power series: for p -> 0+ the largest of
    finitely many rational functions is the one whose series is largest term by
    term, and two moves whose series agree to ``order`` give ``max`` the same
    truncation, so every truncated series is exact.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> series_solve(Nim(3), "binary", 4)[3][0]
    (1, -2, 3, -3, 3)
    """
    from ..games.channels import get_channel

    channel = get_channel(channel)
    n = order + 1
    root = game.start() if start is None else game.check_position(start)
    out = {}
    for v in game.positions(root):
        fs = game.followers(v)
        if not fs:
            out[v] = (tuple([fmpq(int(misere))] + [fmpq(0)] * order), {})
            continue
        rows = channel.rows(game, v)
        lose = [[1 - out[u][0][0]] + [-c for c in out[u][0][1:]] for u in fs]
        moves = {}
        for i, w in enumerate(fs):
            total = [fmpq(0)] * n
            for j, u in enumerate(fs):
                e = rows.entry(i, j)
                if e.is_zero:
                    continue
                for k, c in enumerate(_mul_low(taylor_rational(e, 0, order), lose[j], n)):
                    total[k] += c
            moves[game.move_label(v, w)] = tuple(total)
        out[v] = (max(moves.values()), moves)
    return out


def robust_moves(game, channel, v=None, *, order: int = 6, misere: bool = False, solution=None, exact: bool = True) -> RobustMoves:
    """The most noise-robust classical winning moves of ``v`` (default: the start).

    With ``exact`` (the default) the game is solved for all p: ``robust`` is
    then exactly the set of winning moves optimal on some (0, eps), with the
    exact p where each stops.  ``exact=False`` uses only the series to
    ``order`` (much faster): ``robust`` is the set of winning moves whose series
    is largest to that order, and ``until`` is empty.

    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> r = robust_moves(MultiNim((1, 3, 3)), "binary")
    >>> r.winning, sorted(r.robust), str(r.until["1->0"])
    (('1->0', '3->2'), ['1->0'], '1/2')
    """
    from ..games.classical import winning_moves

    v = game.start() if v is None else game.check_position(v)
    wins = tuple(game.move_label(v, w) for w in winning_moves(game, v, misere=misere))
    if not wins:
        return RobustMoves(v, (), {}, (), frozenset(), {})
    if not exact:
        moves = series_solve(game, channel, order, start=v, misere=misere)[v][1]
        series = {m: moves[m] for m in wins}
        top = max(series.values())
        ranking = tuple(sorted(wins, key=lambda m: tuple(-c for c in series[m])))
        return RobustMoves(v, wins, series, ranking, frozenset(m for m in wins if series[m] == top), {})
    if solution is None:
        from ..solvers.piecewise import solve

        solution = solve(game, channel, start=v, misere=misere)
    moves = solution.move_values(v)
    series = {m: tuple(taylor_rational(moves[m].formulas[0], moves[m].points[0].rational_value, order)) for m in wins}
    ranking = tuple(sorted(wins, key=lambda m: tuple(-c for c in series[m])))
    N = solution.value(v)
    robust = frozenset(m for m in wins if m in N.labels[0])
    until = {}
    for m in robust:
        until[m] = None
        for i, lab in enumerate(N.labels):
            if m not in lab:
                until[m] = N.points[i]
                break
    return RobustMoves(v, wins, series, ranking, robust, until)


__all__ = ["RobustMoves", "Series", "robust_moves", "series_at", "series_solve", "taylor_coefficients", "taylor_rational"]
