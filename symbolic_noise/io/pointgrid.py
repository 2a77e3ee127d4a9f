"""Certified tables and plots of N(p) on a grid of p, one point at a time.

For boards the piecewise solver cannot reach, every grid point is evaluated by
:func:`symbolic_noise.solvers.onepoint.fastpoint.point_solve` in arb ball arithmetic, at a
precision chosen for the digits to print.  A row is *ball-certified* when

* both ends of the value's ball round to the same printed decimals (rounding
  is monotone, so the exact value prints the same), and
* one move's ball lies above every other move's ball (the optimal set is that
  one move).

Otherwise the precision is doubled once, and if the balls still cannot decide
(a tie, such as p = 1/2 in binary-channel Nim, or a value on a rounding
boundary) the row is computed by the exact engine.  Chomp rows are always
computed exactly (their denominators stay small, and the integer engine is
faster than balls).  Each row records which method produced it.

Examples
--------
>>> from fractions import Fraction
>>> from symbolic_noise.games.rulesets import Nim
>>> [(r.decimals, r.optimal, r.method) for r in grid_rows(Nim(3), "binary", [Fraction(1, 4), Fraction(1, 2)], 6)]
[('0.650000', (0,), 'ball'), ('0.500000', (0, 1, 2), 'exact')]
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from fractions import Fraction

from ..games.channels import get_channel
from ..solvers.onepoint.fastpoint import ball_bounds, point_solve
from ..games.rulesets import Chomp, Nim
from ..exact.polys import to_fraction
from .reports import position_column, move_json, move_text, title
from ..exact.rounding import fixed
from ..exact.formula import exact_number

#: positions up to which ``--method auto`` prefers the piecewise solution
_PIECEWISE_NIM = 32
_PIECEWISE_POSITIONS = 70

METHODS = ("auto", "piecewise", "pointwise")
#: most grid points a pointwise table or plot evaluates
MAX_POINTS = 100_000


@dataclass(frozen=True)
class GridRow:
    """One certified row: ``p``, ``N`` printed to the requested decimals, the
    exact value when the exact engine produced the row (else ``None``), the
    optimal moves (sorted) and the method (``"ball"`` or ``"exact"``)."""

    p: Fraction  #: the point
    decimals: str  #: N printed to the requested decimals, certified
    exact: Fraction | None  #: N exactly, when the exact engine produced the row (else ``None``)
    optimal: tuple  #: the optimal moves, sorted
    method: str  #: ``"ball"`` or ``"exact"``


def certified_row(game, channel, p, digits: int, *, start=None, misere: bool = False) -> GridRow:
    """The row at ``p`` with ``digits`` decimals, certified by balls or computed exactly.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> certified_row(Nim(2), "binary", "1/3", 4)
    GridRow(p=Fraction(1, 3), decimals='0.6667', exact=None, optimal=(0,), method='ball')
    """
    channel = get_channel(channel)
    q = exact_number(p)
    if isinstance(game, Chomp):  # small denominators: the exact integer engine is faster than balls
        return _exact_row(q, point_solve(game, channel, q, start=start, misere=misere), digits)
    prec = int(digits * 3.33) + 64 + 2 * _depth_bits(game, start)
    for _ in range(2):
        ans = point_solve(game, channel, q, start=start, misere=misere, method="ball", prec=prec)
        if ans.method == "exact":  # the engine answered exactly anyway (e.g. Nim at p = 1)
            return _exact_row(q, ans, digits)
        lo, hi = (to_fraction(e) for e in ball_bounds(ans.value))
        text = fixed(lo, digits)
        if text == fixed(hi, digits):
            if ans.optimal is not None:
                return GridRow(to_fraction(q), text, None, tuple(sorted(ans.optimal)), "ball")
            break  # the digits are certain but moves' balls overlap: most likely a tie, which only exact can see
        prec *= 2
    return _exact_row(q, point_solve(game, channel, q, start=start, misere=misere), digits)


def _exact_row(q, ans, digits) -> GridRow:
    value = to_fraction(ans.value)
    return GridRow(to_fraction(q), fixed(value, digits), value, tuple(sorted(ans.optimal)), "exact")


def _depth_bits(game, start) -> int:
    """A few guard bits per doubling of the number of positions (rounding errors
    accumulate along the induction)."""
    return max(1, _size(game, start)).bit_length()


def _size(game, start) -> int:
    root = game.start() if start is None else start
    if isinstance(game, Nim):
        return root
    if isinstance(game, Chomp):
        return math.comb(len(root) + root[0], len(root))  # at most this many diagrams
    return len(game.positions(root))


def grid_rows(game, channel, points, digits: int, *, start=None, misere: bool = False) -> list[GridRow]:
    """:func:`certified_row` at every point of ``points``."""
    channel = get_channel(channel)
    return [certified_row(game, channel, p, digits, start=start, misere=misere) for p in points]


def choose_method(method: str, game, start, cached: bool) -> str:
    """``piecewise`` or ``pointwise`` for ``--method``: ``auto`` takes the
    piecewise solution when it is cached or the game is small (1-pile Nim up to
    k = 32, other games up to 70 positions), the pointwise one otherwise.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> choose_method("auto", Nim(10), None, False), choose_method("auto", Nim(128), None, False)
    ('piecewise', 'pointwise')
    """
    if method != "auto":
        return method
    if cached:
        return "piecewise"
    limit = _PIECEWISE_NIM if isinstance(game, Nim) else _PIECEWISE_POSITIONS
    return "piecewise" if _size(game, start) <= limit else "pointwise"


# --------------------------------------------------------------------------- renderings


class _Head:
    """What the report titles need to know (a Solution stand-in)."""

    def __init__(self, game, channel, start, interval, misere: bool = False):
        self.game, self.channel, self.interval, self.misere = game, get_channel(channel), interval, misere
        self.start = game.start() if start is None else start


def _methods_note(rows) -> str:
    balls = sum(r.method == "ball" for r in rows)
    return f"pointwise: {balls} row{'s' * (balls != 1)} certified by ball arithmetic, {len(rows) - balls} computed exactly"


def _p_text(p: Fraction, decimals: int) -> str:
    return fixed(p, decimals) if (p * 10**decimals).denominator == 1 else str(p)


def table_csv(head: _Head, rows, p_decimals: int) -> str:
    """``k,p,N,optimal,method``: the appendix columns and the method of each row."""
    name, pos = position_column(head)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([name, "p", "N", "optimal", "method"])
    for r in rows:
        w.writerow([pos, _p_text(r.p, p_decimals), r.decimals, ";".join(move_text(m) for m in r.optimal), r.method])
    return buf.getvalue()


def table_json(head: _Head, rows, p_decimals: int) -> list[dict]:
    """Rows as in :func:`symbolic_noise.io.reports.table_json`, plus ``method``;
    ``N_exact`` is ``null`` for ball-certified rows."""
    name, pos = position_column(head)
    return [
        {
            name: pos,
            "p": _p_text(r.p, p_decimals),
            "p_exact": str(r.p),
            "N": r.decimals,
            "N_exact": None if r.exact is None else str(r.exact),
            "optimal": [move_json(m) for m in r.optimal],
            "method": r.method,
        }
        for r in rows
    ]


def table_text(head: _Head, rows, p_decimals: int) -> str:
    """The rows as aligned text columns p, N, optimal and method, under the title and a note on the methods."""
    out = [["p", "N", "optimal", "method"]]
    for r in rows:
        out.append([_p_text(r.p, p_decimals), r.decimals, ", ".join(move_text(m) for m in r.optimal), r.method])
    widths = [max(len(x[i]) for x in out) for i in range(3)]
    lines = [title(head), _methods_note(rows)]
    lines += ["  " + x[0].rjust(widths[0]) + "  " + x[1].ljust(widths[1]) + "  " + x[2].ljust(widths[2]) + "  " + x[3] for x in out]
    return "\n".join(lines)


def plot_rows(head: _Head, rows):
    """N at the grid points (certified values; floats only for drawing), with
    the optimal moves written where they change.

    Artists carry gids: ``value`` (the sampled curve) and ``optimal`` (texts).
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.0, 4.5), layout="constrained")
    ax = fig.add_subplot()
    xs = [float(r.p) for r in rows]
    ys = [float(r.decimals) for r in rows]  # drawing coordinates only
    (line,) = ax.plot(xs, ys, marker=".", markersize=3, linewidth=1)
    line.set_gid("value")
    last, n = None, 0
    for r, x, y in zip(rows, xs, ys):
        if r.optimal != last:
            label = ", ".join(move_text(m) for m in r.optimal) if len(r.optimal) <= 3 else f"{len(r.optimal)} moves tie"
            t = ax.annotate(label, (x, y), textcoords="offset points", xytext=(0, 8 + 10 * (n % 3)), fontsize=7)
            t.set_gid("optimal")
            last, n = r.optimal, n + 1
    ax.set_xlabel("p")
    ax.set_ylabel("N(p)")
    ax.set_ylim(-0.04, 1.12)
    from .plots import figure_title

    ax.set_title(figure_title(head) + "\n" + _methods_note(rows), fontsize=9)
    return fig
