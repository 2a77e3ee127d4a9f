"""Plots of exact solutions: N(p) with its breakpoints and optimal moves, families
of positions on one axes, and scalar series.

Pure rendering, like :mod:`symbolic_noise.io.reports`: every function takes results
and returns a :class:`matplotlib.figure.Figure`, built directly (not through
``pyplot``), so no GUI backend is touched and no global state changes; writing
a file is the caller's job (:func:`save`).

Floats are drawing coordinates only.  A curve is sampled at exact rational
points; each sample is assigned to its piece by exact comparison with the
piece's end points, evaluated exactly by that piece's formula, and only then
converted to a float.  The samples include every point ``a + i (b - a)/400``
of ``[a, b]``, so on [0, 1] ``p = 1/4`` or ``3/5`` lie on the drawn curve exactly.

Artists carry a ``gid`` so that callers and tests can find them (:func:`tagged`):

========== ===================================================================
gid        artist
========== ===================================================================
value      the curve N(p), one ``Line2D`` per function
move       a sent move's own value N(w) (``plot_value(..., moves=True)``)
breakpoint a marker at (x, N(x)), one per interior breakpoint
rule       the dotted vertical line through a breakpoint (``plot_value``)
p          the breakpoint's p, written at the bottom of its rule
optimal    a text naming the optimal moves on the piece to the right
series     the points and line of :func:`plot_series`
missing    markers of :func:`plot_series` where there is no value
========== ===================================================================

Examples
--------
>>> from symbolic_noise import solve, Nim
>>> fig = plot_value(solve(Nim(5), "binary"))
>>> len(tagged(fig, "breakpoint")), [t.get_text() for t in tagged(fig, "optimal")]
(2, ['0', '3', '4'])
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from typing import Any, Sequence

from flint import arb, arb_poly, ctx, fmpq
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..exact.algebraic import RealAlgebraic
from ..exact.piecewise import PiecewiseFunction
from .figlayout import MoveColours, clusters, declutter, draw_ribbon, overlaps, runs
from .palette import apply_style, move_order
from .reports import move_text, moves_text, title

#: samples of a curve across its whole interval (besides the piece ends)
_GRID = 400
#: samples of a piece however narrow it is
_MIN_SAMPLES = 24
#: first width to which a piece's end points are refined for its inner bounds
_END_WIDTH = fmpq(1, 2**54)
_FIGSIZE = (7.0, 4.5)
#: N is a probability, so every plot has the same y-range, with room for labels
_YLIM = (-0.04, 1.12)
#: a label's box, white so that a curve drawn under it never runs through its text
_LABEL_BOX = {"boxstyle": "round,pad=0.12", "facecolor": "white", "edgecolor": "none", "alpha": 0.85}


# --------------------------------------------------------------------------- exact sampling


def _inner_bounds(lo: RealAlgebraic, hi: RealAlgebraic) -> tuple[fmpq, fmpq]:
    """Rationals ``a, b`` with ``lo <= a < b <= hi``, exactly, and a, b within
    about 2^-54 of the ends (equal to them when the ends are rational)."""
    width = _END_WIDTH
    while True:
        lo.refine_to(width)
        hi.refine_to(width)
        a, b = lo.hi, hi.lo
        if a < b:
            return a, b
        width /= 2**16


def _samples(f: PiecewiseFunction) -> tuple[list[float], list[float]]:
    """Points of the curve of ``f``: exact rational samples of every piece,
    evaluated exactly by the piece's formula, converted to floats at the end."""
    a, b = _inner_bounds(*f.interval)
    grid = [a + (b - a) * fmpq(i, _GRID) for i in range(_GRID + 1)]
    xs: list[float] = []
    ys: list[float] = []
    for pc in f.pieces():
        lo, hi = _inner_bounds(pc.lo, pc.hi)
        inside = grid[bisect.bisect_right(grid, lo) : bisect.bisect_left(grid, hi)]
        if len(inside) < _MIN_SAMPLES:
            extra = (lo + (hi - lo) * fmpq(i, _MIN_SAMPLES) for i in range(1, _MIN_SAMPLES))
            inside = sorted(set(inside).union(extra))
        ts = [lo, *inside, hi]
        xs += [float(t) for t in ts]
        ys += _drawing_values(pc.formula, ts)
    return xs, ys


def _drawing_values(formula, ts) -> list[float]:
    """``formula(t)`` as floats for drawing: a ball evaluation at a precision
    above the coefficients' size, exact where the ball is not narrow (near
    cancellation).  Drawing only; nothing is decided from these numbers.  Exact
    evaluation of N_64's degree-300 formulas at hundreds of points per piece
    took minutes."""
    if formula.degree <= 8:
        return [float(formula(t)) for t in ts]
    prec = max(formula.num.height_bits(), formula.den.height_bits()) + 128
    out = []
    with ctx.workprec(prec):
        num, den = arb_poly(formula.num.coeffs()), arb_poly(formula.den.coeffs())
        for t in ts:
            y = num(arb(t)) / den(arb(t))
            if y.is_finite() and y.rad() < 1e-9:
                out.append(float(y.mid()))
            else:
                out.append(float(formula(t)))
    return out


def _breakpoints(f: PiecewiseFunction) -> list[tuple[int, float, float]]:
    """``(j, x, N(x))`` for every interior point x_j, as drawing coordinates."""
    return [(j, float(f.points[j]), float(f.point_value(j))) for j in range(1, len(f.points) - 1)]


def _point_text(x: RealAlgebraic, digits: int) -> str:
    return str(x.rational_value) if x.is_rational else x.decimal(digits)


# --------------------------------------------------------------------------- figure plumbing


def _figure_and_axes(ax: Axes | None) -> tuple[Figure, Axes]:
    if ax is None:
        fig = Figure(figsize=_FIGSIZE, layout="constrained")
        return fig, fig.add_subplot()
    # ax.figure may be a SubFigure; its .figure is the top-level Figure
    return ax.figure.figure, ax


def _value_axes(ax: Axes, f: PiecewiseFunction) -> None:
    a, b = f.interval
    ax.set_xlim(float(a), float(b))
    ax.set_ylim(*_YLIM)
    ax.set_xlabel("p")
    ax.grid(True, color="0.92", linewidth=0.6)
    ax.set_axisbelow(True)


def tagged(fig: Figure, gid: str) -> list:
    """The lines and texts of ``fig`` carrying ``gid``: axes by axes, lines then
    texts, each in the order drawn.

    >>> fig = plot_series([1, 2, 3], [0.5, None, 0.25], xlabel="k", ylabel="p0", title="")
    >>> len(tagged(fig, "series")), len(tagged(fig, "missing"))
    (1, 1)
    """
    return [a for ax in fig.axes for a in (*ax.lines, *ax.texts) if a.get_gid() == gid]


# --------------------------------------------------------------------------- plots


def _label_moves(ax: Axes, x: float, y: float, moves, k: int, gid: str = "optimal", **style) -> None:
    """Name ``moves`` just right of (x, y); ``k`` cycles through three heights
    so that labels of close breakpoints do not sit on each other."""
    ax.annotate(
        moves_text(moves),
        xy=(x, y),
        xytext=(3, 5 + 8 * (k % 3)),
        textcoords="offset points",
        fontsize=style.pop("fontsize", 8),
        gid=gid,
        bbox=_LABEL_BOX,
        zorder=5,
        **style,
    )


#: breakpoints closer than this fraction of the p-axis form a cluster
_CLUSTER_GAP = 0.025
#: at most this many zoom panels under a value plot
_MAX_ZOOMS = 3
#: a cluster of breakpoints wider than this share of the axis is diffuse (Chomp
#: 7 x 7 king: 1,200 breakpoints over [0, 0.71]): a zoom would show it at
#: hardly a larger scale, so it gets none, and its breakpoints where the
#: optimal set stays the same become a rug of ticks instead of rules and dots
_DIFFUSE = 0.2
#: labels that must not overlap, in the order they are kept
LABEL_GIDS = ("zoom-tag", "optimal", "p", "zoom:optimal", "zoom:p", "ribbon-label")


def _value_figure(ribbon: bool, nzoom: int) -> tuple[Figure, Axes, Axes | None, list[Axes]]:
    """The main axes, an optimal-move ribbon under it, and a row of zoom panels."""
    height = _FIGSIZE[1] + (0.35 if ribbon else 0) + (2.0 if nzoom else 0)
    fig = Figure(figsize=(_FIGSIZE[0], height), layout="constrained")
    rows = [4.5] + ([0.35] if ribbon else []) + ([2.0] if nzoom else [])
    grid = fig.add_gridspec(len(rows), max(1, nzoom), height_ratios=rows)
    ax = fig.add_subplot(grid[0, :])
    rax = fig.add_subplot(grid[1, :], sharex=ax) if ribbon else None
    zooms = [fig.add_subplot(grid[len(rows) - 1, i]) for i in range(nzoom)]
    return fig, ax, rax, zooms


def _window(f: PiecewiseFunction, x0: float, x1: float) -> tuple[fmpq, fmpq]:
    """A rational window around [x0, x1], padded, inside f's interval (layout only)."""
    a, b = (float(e) for e in f.interval)
    pad = max((x1 - x0) * 0.15, (b - a) * 0.004)
    lo, hi = max(a, x0 - pad), min(b, x1 + pad)
    den = 2**24
    qa, qb = _inner_bounds(*f.interval)
    return max(qa, fmpq(math.floor(lo * den), den)), min(qb, fmpq(math.ceil(hi * den), den))


#: height (axes fraction) of a zoom panel's optimal-move names, above the curve and below the band
_ZOOM_LABEL_Y = 0.82


def _draw_zoom(zax: Axes, f: PiecewiseFunction, x0: float, x1: float, digits: int, colours: MoveColours) -> None:
    """A zoom panel: N on a window around a cluster, breakpoints with their p and
    the optimal moves where they change, the ribbon colours as a band at the top."""
    lo, hi = _window(f, x0, x1)
    g = f.restrict(lo, hi)
    xs, ys = _samples(g)
    zax.plot(xs, ys, color="black", linewidth=1.6, gid="zoom:value")
    zax.set_xlim(float(lo), float(hi))
    ymin, ymax = min(ys), max(ys)
    span = max(ymax - ymin, 1e-3)
    zax.set_ylim(ymin - 0.45 * span, ymax + 0.6 * span)
    zax.tick_params(labelsize=7)
    zax.locator_params(axis="x", nbins=3)
    zax.grid(True, color="0.92", linewidth=0.6)
    if g.labels is not None:
        for u0, u1, moves in runs(g.labels, [float(x) for x in g.points]):
            band = zax.axvspan(u0, u1, ymin=0.93, ymax=1.0, linewidth=0, gid="zoom:ribbon")
            apply_style(band, colours.style(moves))
    for j, x, y in _breakpoints(g):
        zax.axvline(x, color="0.55", linewidth=0.7, linestyle=":", zorder=1)
        zax.plot([x], [y], marker="o", markersize=3.5, color="black", linestyle="none", gid="zoom:breakpoint")
        zax.text(x, 0.02, _point_text(g.points[j], digits), transform=zax.get_xaxis_transform(),
                 rotation=90, fontsize=6.5, color="0.3", ha="right", va="bottom", gid="zoom:p")
        if g.labels is not None and g.labels[j] != g.labels[j - 1]:
            # in the free strip between the curve (at most 71% of the height,
            # by the limits above) and the band: never on the curve
            zax.text(x, _ZOOM_LABEL_Y, " " + moves_text(g.labels[j]), transform=zax.get_xaxis_transform(),
                     fontsize=7, ha="left", va="center", gid="zoom:optimal", bbox=_LABEL_BOX)


#: legend entries per column (more moves, more columns)
_LEGEND_ROWS = 24


def figure_title(result, position=None) -> str:
    """A figure's title: the game, the position unless it is the start, the
    channel, and the play (normal or misère: a figure always says which).

    >>> from symbolic_noise import solve, Nim
    >>> figure_title(solve(Nim(3), "binary", misere=True))
    'N(p) for 1-pile Nim, k = 3, binary channel, misère play'
    >>> figure_title(solve(Nim(3), "binary"))
    'N(p) for 1-pile Nim, k = 3, binary channel, normal play'
    """
    text = title(result, position, interval=False)
    return text if getattr(result, "misere", False) else text + ", normal play"


def plot_function(f: PiecewiseFunction, *, ax: Axes | None = None, name: str = "f", digits: int = 4,
                  title: str = "", ribbon: bool | None = None, zoom: bool = True, window=None,
                  colours: MoveColours | None = None) -> Figure:
    """A piecewise function of p with its breakpoints marked and their p written
    at the bottom; for a labelled function (optimal moves) a name where the
    label changes and, on a new figure, a ribbon of labels along p.

    Breakpoints closer than 2.5% of the axis form a cluster: on a new figure
    each of the (at most three) largest clusters gets a zoom panel below, the
    main axes shades the cluster's span instead of writing on top of itself,
    and any label that would still overlap another is hidden
    (:func:`symbolic_noise.io.figlayout.declutter`).  A cluster wider than a
    fifth of the axis gets no zoom: its breakpoints are a rug of ticks at the
    bottom, but those where the optimal set changes, which keep their rule,
    dot and p.  ``window = (lo, hi)``
    (exact) draws only ``[lo, hi]``, with clusters found at that scale;
    ``colours`` shares the colour of each optimal-move set with other plots.

    >>> from symbolic_noise import solve, Nim
    >>> fig = plot_function(solve(Nim(10), "binary").value(), name="N")
    >>> len(fig.axes), [t.get_text() for t in tagged(fig, "p")]
    (4, ['1/2'])
    >>> len(tagged(fig, "zoom:breakpoint")), overlaps(fig, LABEL_GIDS)
    (9, [])
    """
    if window is not None:  # exact end points: draw only f on [lo, hi]
        f = f.restrict(*window)
    labels: Sequence = f.labels if f.labels is not None else ()
    labelled = f.labels is not None
    ribbon = labelled if ribbon is None else ribbon
    a, b = (float(e) for e in f.interval)
    bps = _breakpoints(f)
    groups = clusters([x for _, x, _ in bps], a, b, gap=_CLUSTER_GAP) if zoom else []
    diffuse = {bps[i][0] for x0, x1, idx in groups if x1 - x0 > _DIFFUSE * (b - a) for i in idx}
    groups = [g for g in groups if bps[g[2][0]][0] not in diffuse]
    in_cluster = {bps[i][0] for _, _, idx in groups for i in idx}
    shown = sorted(sorted(groups, key=lambda g: -len(g[2]))[:_MAX_ZOOMS]) if ax is None else []
    colours = colours if colours is not None else MoveColours()
    if ax is None:
        fig, ax, rax, zooms = _value_figure(ribbon and labelled, len(shown))
    else:
        fig, ax = _figure_and_axes(ax)
        rax, zooms = None, []
    _value_axes(ax, f)
    if rax is not None:
        ax.set_xlabel("")
        ax.tick_params(labelbottom=False)
    ax.set_ylabel(f"{name}(p)")
    if title:
        ax.set_title(title, fontsize=10)
    ax.plot(*_samples(f), color="black", linewidth=2.0, label=f"{name}(p), optimal play" if labelled else f"{name}(p)",
            gid="value", zorder=3)
    if labelled:
        _label_moves(ax, a, float(f.point_value(0)), labels[0], 0)
    rug = []
    for j, x, y in bps:
        if j in diffuse and not (labelled and labels[j] != labels[j - 1]):
            rug.append(x)
            continue
        ax.axvline(x, color="0.55", linewidth=0.8, linestyle=":", gid="rule", zorder=1)
        ax.plot([x], [y], marker="o", markersize=4.5, color="black", linestyle="none", gid="breakpoint", zorder=4)
        if j in in_cluster:
            continue  # written in the zoom panel, or not at all: never on top of a neighbour
        ax.text(
            x, 0.01, _point_text(f.points[j], digits), transform=ax.get_xaxis_transform(),
            rotation=90, fontsize=7, color="0.35", ha="right", va="bottom", gid="p",
        )
        if labelled and labels[j] != labels[j - 1]:
            _label_moves(ax, x, y, labels[j], j)
    if rug:  # (one artist for them all)
        ax.plot(rug, [0.0] * len(rug), marker="|", markersize=5, markeredgewidth=0.6, color="0.45",
                linestyle="none", transform=ax.get_xaxis_transform(), gid="rug", zorder=2, clip_on=False)
    for x0, x1, _ in groups:
        ax.axvspan(x0, x1, color="0.85", alpha=0.6, linewidth=0, gid="cluster", zorder=0)
    if rax is not None:
        draw_ribbon(rax, runs(labels, [float(x) for x in f.points]), colours, moves_text)
        rax.set_xlabel("p")
    for i, (zax, (x0, x1, _)) in enumerate(zip(zooms, shown)):
        _draw_zoom(zax, f, x0, x1, digits, colours)
        tag = "abc"[i]
        zax.set_title(f"({tag}) zoom", fontsize=8, loc="left")
        ax.text((x0 + x1) / 2, 0.995, tag, transform=ax.get_xaxis_transform(), ha="center", va="top",
                fontsize=8, fontweight="bold", gid="zoom-tag")
    declutter(fig, LABEL_GIDS)
    return fig


def plot_value(solution, position=None, *, moves: bool = False, ax: Axes | None = None, digits: int = 4,
               ribbon: bool = True, zoom: bool = True, window=None) -> Figure:
    """N_v(p) on the solution's interval, its breakpoints marked and every piece
    labelled with its optimal moves (and, with ``moves``, every sent move's N_v(w)).

    Each interior breakpoint gets a marker at (x, N(x)), a dotted vertical rule
    and its p at the bottom (rational exactly, else ``digits`` significant
    digits); the optimal moves are written where they change, and on a new
    figure a ribbon under the axes shows the optimal moves along p in
    colour-blind-safe colours, each move's colour the same in every figure
    (:mod:`symbolic_noise.io.palette`; ``ribbon=False`` leaves it out).
    Breakpoints that crowd get zoom panels (:func:`plot_function`;
    ``zoom=False`` for none), so no label is ever printed on another.  A sent
    move's curve has the colour of that move's band in the ribbon, and past
    sixteen moves a dash pattern too; the legend, in move order, sits outside
    the axes.  ``window = (lo, hi)`` (exact) draws only that part of the interval.

    >>> from symbolic_noise import solve, Chomp
    >>> fig = plot_value(solve(Chomp(2, 2), "king"), moves=True)
    >>> [t.get_text() for t in tagged(fig, "optimal")], [t.get_text() for t in tagged(fig, "p")]
    (['(1,2), (2,1)', '(2,2)'], ['1/3'])
    >>> len(tagged(fig, "value")), len(tagged(fig, "move"))
    (1, 3)
    """
    f = solution.value(position)
    colours = MoveColours()
    values = solution.move_values(position) if moves else {}
    fig = plot_function(f, ax=ax, name="N", digits=digits, ribbon=ribbon, zoom=zoom, window=window, colours=colours,
                        title=figure_title(solution, position))
    main = fig.axes[0] if ax is None else ax
    if moves:
        # a curve has its move's colour (the colour of its band in the ribbon)
        # and, past the palette's sixteen colours, a dash pattern of its own
        for move in sorted(values, key=move_order):
            g = values[move] if window is None else values[move].restrict(*window)
            one = frozenset([move])
            main.plot(*_samples(g), linewidth=0.9, alpha=0.85, color=colours.of(one), linestyle=colours.dashes(one),
                      label=f"send {move_text(move)}", gid="move", zorder=2)
        handles, labels = main.get_legend_handles_labels()
        order = sorted(range(len(labels)), key=lambda i: labels[i].startswith("N("))  # N last, moves in move order
        ncol = max(1, math.ceil(len(order) / _LEGEND_ROWS))
        main.legend([handles[i] for i in order], [labels[i] for i in order], fontsize=8 if ncol == 1 else 6.5,
                    loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, ncol=ncol,
                    handlelength=2.4, columnspacing=0.8)
    declutter(fig, LABEL_GIDS)
    return fig


def plot_family(solutions, *, ax: Axes | None = None) -> Figure:
    """Several functions N(p) on one axes, each with its breakpoints marked and
    labelled with the optimal moves to their right where the optimal set changes.

    ``solutions`` is a mapping ``label -> PiecewiseFunction`` or a sequence of
    ``(label, PiecewiseFunction)`` pairs (``Solution.value(v)`` for example);
    labels go to the legend, markers and move names take their curve's colour.
    A move label that would land on an earlier one is left out (every
    breakpoint keeps its marker); :func:`plot_value` labels them all.

    >>> from symbolic_noise import solve, Nim
    >>> sol = solve(Nim(6), "binary")
    >>> fig = plot_family({f"k = {k}": sol.value(k) for k in range(2, 7)})
    >>> len(tagged(fig, "value")), len(tagged(fig, "breakpoint"))
    (5, 9)
    """
    items = list(solutions.items()) if isinstance(solutions, Mapping) else list(solutions)
    fig, ax = _figure_and_axes(ax)
    if not items:
        return fig
    _value_axes(ax, items[0][1])
    ax.set_ylabel("N(p)")
    (xa, xb), (ya, yb) = ax.get_xlim(), _YLIM
    placed: list[tuple[float, float]] = []  # labels drawn, in axes fractions
    for label, f in items:
        (line,) = ax.plot(*_samples(f), linewidth=1.4, label=str(label), gid="value")
        color = line.get_color()
        for j, x, y in _breakpoints(f):
            ax.plot([x], [y], marker="o", markersize=3.5, color=color, linestyle="none", gid="breakpoint")
            if f.labels is None or f.labels[j] == f.labels[j - 1]:
                continue
            # layout only: a float decides where a label goes, never a value
            u, w = (x - xa) / (xb - xa), (y - ya) / (yb - ya)
            if all(abs(u - u0) > 0.03 or abs(w - w0) > 0.05 for u0, w0 in placed):
                placed.append((u, w))
                _label_moves(ax, x, y, f.labels[j], len(placed), fontsize=7, color=color)
    ax.legend(fontsize=8, loc="best")
    return fig


def plot_series(
    xs: Sequence, ys: Sequence, *, xlabel: str, ylabel: str, title: str, ax: Axes | None = None
) -> Figure:
    """A scalar series (say a fairness threshold p0 against k) as points joined
    by a line; ``None`` in ``ys`` ("no such value") leaves a gap and an ``x``
    marker at the bottom of the axes.

    Values may be exact (``int``, ``Fraction``, ``fmpq``, ``RealAlgebraic``,
    ``PointValue``): they become floats for drawing only.

    >>> fig = plot_series([2, 3, 4], [0.5, None, 0.75], xlabel="k", ylabel="p0", title="threshold")
    >>> line = tagged(fig, "series")[0]
    >>> line.get_xdata().tolist(), line.get_ydata().tolist()
    ([2.0, 3.0, 4.0], [0.5, nan, 0.75])
    """
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} x values but {len(ys)} y values")
    fig, ax = _figure_and_axes(ax)
    fx = [float(x) for x in xs]
    fy = [math.nan if y is None else float(y) for y in ys]
    ax.plot(fx, fy, marker="o", markersize=4, linewidth=1.2, label=ylabel, gid="series")
    missing = [x for x, y in zip(fx, ys) if y is None]
    if missing:
        ax.plot(
            missing, [0.02] * len(missing), transform=ax.get_xaxis_transform(), marker="x",
            linestyle="none", color="0.4", label="none", gid="missing",
        )
        ax.legend(fontsize=8, loc="best")
        ax.margins(y=0.12)  # keep the real points clear of the markers at the bottom
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, color="0.92", linewidth=0.6)
    ax.set_axisbelow(True)
    return fig


def _file_metadata(fmt: str, meta: dict | None) -> dict | None:
    """The provenance record as the image format's own metadata fields."""
    if not meta:
        return None
    from .reports import comment_header

    title = meta["game"]["description"] + f", {meta['channel']['name']} channel"
    interval = meta.get("interval")
    if isinstance(interval, dict):  # a phase diagram's square: one range per parameter
        ranges = ", ".join(f"{name} in [{a}, {b}]" for name, (a, b) in interval.items())
        text = comment_header({**meta, "interval": ["", ""]}, prefix="").replace("interval: [, ]", f"interval: {ranges}")
    else:
        text = comment_header(meta, prefix="")
    text = text.strip()
    if fmt == "png":
        return {"Title": title, "Description": text, "Software": meta["software"]}
    if fmt == "pdf":
        return {"Title": title, "Subject": "; ".join(text.splitlines()), "Creator": meta["software"]}
    if fmt == "svg":
        return {"Title": title, "Description": text, "Creator": meta["software"]}
    return None


def save(fig: Figure, path, *, dpi: Any = "figure", meta: dict | None = None) -> None:
    """Write ``fig`` to ``path`` (format from the suffix: png, pdf, svg, ...),
    through matplotlib's non-interactive canvases only; ``meta``, a provenance
    record (:func:`symbolic_noise.games.provenance.record`), goes into the
    file's own metadata (PNG text chunks, PDF document info, SVG metadata).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "empty.png")
    >>> save(Figure(figsize=(2, 1), dpi=50), path)
    >>> os.path.getsize(path) > 0
    True
    """
    import io
    import os

    from matplotlib import rcParams

    from .readers import write_bytes

    # drawn in memory, then written by the one writer of output files (a
    # full device is an error there; the image writers do not all report it)
    fmt = os.path.splitext(str(path))[1][1:].lower() or rcParams["savefig.format"]
    if fmt in ("ps", "eps"):  # (their header names the file: drawn straight to it)
        from ..errors import SymbolicNoiseError
        from .readers import shown

        try:
            fig.savefig(path, dpi=dpi)
        except OSError as exc:
            raise SymbolicNoiseError(f"cannot write {shown(path)}: {exc.strerror or exc}") from None
        return
    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=dpi, format=fmt, metadata=_file_metadata(fmt, meta))
    write_bytes(path, buffer.getvalue())


def atlas(rows, **options) -> Figure:
    """The (p, k) map of a family coloured by optimal move, N shaded: see
    :func:`symbolic_noise.io.atlas.atlas` (rows from :func:`symbolic_noise.io.atlas.family_values`).

    >>> from symbolic_noise.io.atlas import family_values
    >>> atlas(family_values("nim", [1, 2, 3]), title="Nim").axes[0].get_ylabel()
    'k'
    """
    from .atlas import atlas as render

    return render(rows, **options)
