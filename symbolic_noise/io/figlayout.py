"""Layout for figures fit for a paper: a colour-blind-safe palette, optimal-move
ribbons, clusters of breakpoints, and labels that never overlap.

Everything here is drawing geometry: floats place labels and never decide a
value.  The exact work (which piece holds a sample, which moves are optimal)
is done before, in :mod:`symbolic_noise.io.plots`.

* :data:`PALETTE`, :class:`MoveColours`: the look of every move, the same in
  every figure (:mod:`symbolic_noise.io.palette`).
* :func:`clusters` groups breakpoints that lie closer than a fraction of the
  axis; a cluster of two or more gets a zoom panel (:func:`symbolic_noise.io.plots.plot_value`).
* :func:`declutter` measures the rendered labels and hides, in priority order,
  any label whose box would overlap one already kept (per axes), so what is
  printed is always readable; :func:`overlaps` is the test of that.

Examples
--------
>>> clusters([0.5, 0.7447, 0.7469, 0.7532, 0.81, 0.8141], 0.0, 1.0, gap=0.01)
[(0.7447, 0.7532, [1, 2, 3]), (0.81, 0.8141, [4, 5])]
>>> MoveColours().of(frozenset({0})) == PALETTE[0]
True
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from .palette import OTHER, PALETTE, MoveColours, apply_style, hatch_colour

__all__ = ["OTHER", "PALETTE", "MoveColours", "runs", "clusters", "draw_ribbon", "declutter", "overlaps"]


def runs(labels: Sequence, xs: Sequence[float]) -> list[tuple[float, float, Any]]:
    """Maximal runs of equal labels: ``(x_start, x_end, label)`` from piece
    labels ``labels[i]`` on ``[xs[i], xs[i+1]]``.

    >>> runs(["a", "a", "b"], [0, 0.2, 0.5, 1])
    [(0, 0.5, 'a'), (0.5, 1, 'b')]
    """
    out: list[tuple[float, float, Any]] = []
    for i, lab in enumerate(labels):
        if out and out[-1][2] == lab:
            out[-1] = (out[-1][0], xs[i + 1], lab)
        else:
            out.append((xs[i], xs[i + 1], lab))
    return out


def clusters(xs: Sequence[float], a: float, b: float, *, gap: float) -> list[tuple[float, float, list[int]]]:
    """Groups of two or more consecutive points closer than ``gap * (b - a)``:
    ``(first x, last x, indices)``.

    >>> clusters([0.1, 0.5, 0.52, 0.9], 0, 1, gap=0.05)
    [(0.5, 0.52, [1, 2])]
    """
    out = []
    group: list[int] = []
    for i, x in enumerate(xs):
        if group and x - xs[group[-1]] < gap * (b - a):
            group.append(i)
            continue
        if len(group) > 1:
            out.append((xs[group[0]], xs[group[-1]], group))
        group = [i]
    if len(group) > 1:
        out.append((xs[group[0]], xs[group[-1]], group))
    return out


def draw_ribbon(ax: Axes, spans: Sequence[tuple[float, float, Any]], colours: MoveColours, text) -> None:
    """Coloured bands along p, one per run of equal optimal sets, named inside
    when there is room (:func:`declutter` hides names that do not fit).

    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> draw_ribbon(ax, [(0, 0.5, {0}), (0.5, 1, {1, 2})], MoveColours(), lambda m: ",".join(map(str, sorted(m))))
    >>> [t.get_text() for t in ax.texts], len(ax.patches)
    (['0', '1,2'], 2)
    """
    ax.set_yticks([])
    ax.set_ylim(0, 1)
    for x0, x1, moves in spans:
        band = ax.axvspan(x0, x1, linewidth=0, gid="ribbon")
        style = colours.style(moves)
        apply_style(band, style)
        if moves:  # (on a light box where the band is hatched, so the name stays readable)
            box = {"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.75}
            ax.text((x0 + x1) / 2, 0.5, text(moves), ha="center", va="center", fontsize=7,
                    clip_on=True, gid="ribbon-label", bbox=box if style.hatch else None,
                    color="black" if style.hatch else hatch_colour(style.face))  # (white on a dark band)
    ax.set_ylabel("optimal", rotation=0, ha="right", va="center", fontsize=8)


def _boxes(fig: Figure, texts) -> list[tuple[Any, Bbox]]:
    renderer = fig._get_renderer()  # type: ignore[attr-defined]  # the canvas's, or a throwaway Agg one
    return [(t, t.get_window_extent(renderer)) for t in texts if t.get_visible() and t.get_text()]


def declutter(fig: Figure, gids: Sequence[str], *, pad: float = 2.0, rounds: int = 3) -> int:
    """Hide labels (texts whose gid is in ``gids``, earlier gids first) that
    would overlap a label kept before them on the same axes, or stick out of a
    ribbon band; returns how many were hidden.  Repeats until a draw shows no
    overlap, because a layout pass may move the axes (example: :func:`overlaps`)."""
    hidden = 0
    for _ in range(rounds):
        fig.draw_without_rendering()
        changed = False
        for ax in fig.axes:
            ordered = [t for gid in gids for t in ax.texts if t.get_gid() == gid]
            kept: list[Bbox] = []
            for t, box in _boxes(fig, ordered):
                grown = box.expanded(1, 1).padded(pad)
                fits = True
                if t.get_gid() == "ribbon-label":
                    x0, x1 = _span_pixels(ax, t)
                    fits = box.x0 >= x0 and box.x1 <= x1
                if not fits or any(grown.overlaps(k) for k in kept):
                    t.set_visible(False)
                    hidden += 1
                    changed = True
                else:
                    kept.append(box)
        if not changed:
            break
    return hidden


def _span_pixels(ax: Axes, t) -> tuple[float, float]:
    """The pixel extent of the ribbon band a ribbon label names."""
    x = t.get_position()[0]
    for patch in ax.patches:
        if patch.get_gid() != "ribbon":
            continue
        box = patch.get_window_extent()
        left, right = ax.transData.inverted().transform([(box.x0, 0), (box.x1, 0)])[:, 0]
        if left <= x <= right:
            return box.x0, box.x1
    return -float("inf"), float("inf")


def overlaps(fig: Figure, gids: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of visible labels (gids in ``gids``) whose boxes overlap on one axes,
    as drawn now.

    >>> fig = Figure(figsize=(3, 2))
    >>> ax = fig.add_subplot()
    >>> _ = ax.text(0.5, 0.5, "first", gid="p"), ax.text(0.5, 0.5, "second", gid="p")
    >>> overlaps(fig, ["p"])
    [('first', 'second')]
    >>> declutter(fig, ["p"]), overlaps(fig, ["p"])
    (1, [])
    """
    fig.draw_without_rendering()
    out = []
    for ax in fig.axes:
        boxes = _boxes(fig, [t for t in ax.texts if t.get_gid() in gids])
        for i, (t, box) in enumerate(boxes):
            for u, other in boxes[i + 1:]:
                if box.overlaps(other):
                    out.append((t.get_text(), u.get_text()))
    return out
