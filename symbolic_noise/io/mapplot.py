"""A map drawn: the optimal moves as a ribbon under the band of N.

Each proved interval is a coloured stretch of the ribbon (one colour per
optimal-move set) and a grey rectangle spanning its enclosure of N; change
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

from .reports import moves_text, provenance, title

_PALETTE = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C",
            "#CCB974", "#64B5CD"]


def map_figure(m) -> Figure:
    """The figure of a map (nothing written)."""
    fig = Figure(figsize=(7.0, 4.5))
    ax = fig.add_axes((0.1, 0.36, 0.85, 0.56))
    rib = fig.add_axes((0.1, 0.2, 0.85, 0.06), sharex=ax)
    colours: dict = {}
    for iv in m.intervals:
        x0, x1 = float(iv.lo), float(iv.hi)
        if iv.kind == "proved":
            c = colours.setdefault(iv.optimal, _PALETTE[len(colours) % len(_PALETTE)])
            rib.add_patch(Rectangle((x0, 0), x1 - x0, 1, color=c, lw=0, gid="ribbon"))
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
    ax.set_title(title(m), fontsize=9)
    rib.set_yticks([])
    rib.set_xlabel("p")
    for s, c in colours.items():
        rib.plot([], [], color=c, lw=6, label=moves_text(s))
    if colours:
        fig.legend(*rib.get_legend_handles_labels(), loc="lower center", ncol=min(len(colours), 4), fontsize=7,
                   frameon=False, title="optimal moves", title_fontsize=7)
    return fig


def plot_map(m, path) -> None:
    """Draw the map to ``path`` (format from the suffix), its provenance in the
    file's metadata."""
    from .plots import save

    save(map_figure(m), path, meta=provenance(m, method="map"))


__all__ = ["map_figure", "plot_map"]
