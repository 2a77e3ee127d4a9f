"""A map drawn: the optimal moves as a ribbon under the band of N.

Each proved interval is a stretch of the ribbon in its optimal-move set's look
(:mod:`symbolic_noise.io.palette`, the same as in every other figure) and a grey
rectangle spanning its enclosure of N; change
intervals are thin vertical rules, undecided intervals hatched.  Floats are
drawing coordinates only.  Artists carry a ``gid`` (``band``, ``ribbon``,
``change``, ``undecided``).

>>> from symbolic_noise import Nim
>>> from symbolic_noise.solvers.maps import build_map
>>> fig = map_figure(build_map(Nim(3), "binary", width="2^-20"))
>>> ribbon, band = fig.axes[1].patches, fig.axes[0].patches
>>> [r.get_gid() for r in ribbon], len([b for b in band if b.get_gid() == "band"]) > 2
(['ribbon', 'ribbon'], True)
>>> len([line for line in fig.axes[0].lines if line.get_gid() == "change"])
2
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .palette import MoveColours, apply_style, legend_handles
from .reports import moves_text, provenance


def map_figure(m) -> Figure:
    """The figure of a map (nothing written)."""
    fig = Figure(figsize=(7.0, 4.5))
    ax = fig.add_axes((0.1, 0.36, 0.85, 0.56))
    rib = fig.add_axes((0.1, 0.2, 0.85, 0.06), sharex=ax)
    colours = MoveColours()
    for iv in m.intervals:
        x0, x1 = float(iv.lo), float(iv.hi)
        if iv.kind == "proved":
            patch = Rectangle((x0, 0), x1 - x0, 1, lw=0, gid="ribbon")
            apply_style(patch, colours.style(iv.optimal))
            rib.add_patch(patch)
        elif iv.kind == "change":
            ax.axvline((x0 + x1) / 2, color="k", lw=0.6, ls=":", gid="change")
        else:
            rib.add_patch(Rectangle((x0, 0), x1 - x0, 1, facecolor="white", edgecolor="0.3", hatch="///",
                                    gid="undecided"))
    for x0, x1, lo, hi in m.band or [(iv.lo, iv.hi, *iv.value) for iv in m.intervals if iv.value]:
        ax.add_patch(Rectangle((float(x0), float(lo)), float(x1 - x0), float(hi - lo), color="0.45", lw=0.3,
                               gid="band"))
    a, b = (float(x) for x in m.interval)
    ax.set_xlim(a, b)
    ax.set_ylim(-0.04, 1.04)
    ax.set_ylabel("N(p)")
    from .plots import figure_title

    ax.set_title(figure_title(m), fontsize=9)
    rib.set_yticks([])
    rib.set_xlabel("p")
    handles = legend_handles(colours, moves_text)
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 4), fontsize=7,
                   frameon=False, title="optimal moves", title_fontsize=7)
    return fig


def plot_map(m, path) -> None:
    """Draw the map to ``path`` (format from the suffix), its provenance in the
    file's metadata."""
    from .plots import save

    save(map_figure(m), path, meta=provenance(m, method="map"))


__all__ = ["map_figure", "plot_map"]
