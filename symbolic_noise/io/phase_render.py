"""Renderings of a phase diagram: text, JSON, plot; and the ``phase`` command.

Everything here is read from the exact decomposition; floats appear only in
drawing (boundary curves are exact roots at rational q, converted to draw).

Examples
--------
>>> from symbolic_noise.games import Nim
>>> from symbolic_noise.analysis.phase import phase
>>> phase_json(phase(Nim(3), "binary", "binary@q"))["critical_q"][1]["exact"]
'1/2'
"""

from __future__ import annotations

import json
from concurrent.futures import BrokenExecutor

from flint import fmpq

from ..exact.cad import interior_roots
from ..errors import IntervalError, SymbolicNoiseError, WorkerLostError
from ..exact.polys import to_fraction
from .palette import set_order
from .reports import move_json, moves_text
from ..exact.rounding import fixed
from ..exact.bivariate import mpoly_str
from ..exact.formula import exact_number

FORMAT = "symbolic-noise.phase/1"


def _moves(moves) -> list:
    return [move_json(m) for m in sorted(moves, key=str)]


def locate_json(r, meta: dict | None = None) -> dict:
    """``{meta, p, q, value, value_decimal, optimal, cell}`` of a :class:`~symbolic_noise.analysis.phase.Located`
    (the cell's formula in the machine form, as in :func:`phase_json`)."""
    cell = dict(r.cell)
    if "formula" in cell:
        cell["formula"] = cell["formula"].formula()
    for key in ("below", "above"):
        if key in cell and cell[key] is not None:
            cell[key] = {"polynomial": cell[key][0], "root": cell[key][1]}
    return {
        **({"format": FORMAT, "meta": meta} if meta is not None else {}),
        "p": str(r.p), "q": str(r.q), "value": str(r.value), "value_decimal": fixed(to_fraction(r.value), 15),
        "optimal": _moves(r.optimal), "cell": cell,
    }


def _two(d) -> bool:
    return bool(getattr(d.channel, "two_parameter", False))


def phase_meta(d) -> dict:
    """The provenance record of a phase diagram (its JSON ``meta``, and its plot file's metadata):
    the second player's channel at q."""
    from ..games.provenance import record

    meta = record(d.game, d.channel, position=getattr(d, "start", None), misere=getattr(d, "misere", False),
                  method=f"phase: {d.method}" if d.method else "phase", opponent=None if _two(d) else d.opponent)
    meta["interval"] = {"p": ["0", "1"], "q": ["0", "1"]}
    if "opponent_channel" in meta:  # the second player's parameter is q
        meta["opponent_channel"]["p"] = meta["opponent_channel"]["p"].replace("probability p", "probability q").replace(
            "p is the chance", "q is the chance")
    return meta


def phase_json(d) -> dict:
    """The whole decomposition as JSON: polynomials, critical values, columns and cells."""
    cols = []
    for col in d.columns:
        cells = []
        for k in range(len(col.sectors)):
            c = d.cells[(col.index, k)]
            cells.append({
                "name": c.name(), "sample": [str(c.p), str(c.q)], "optimal": _moves(c.optimal),
                "value": c.value.formula(),
                "below": None if c.below is None else {"polynomial": c.below[0], "root": c.below[1]},
                "above": None if c.above is None else {"polynomial": c.above[0], "root": c.above[1]},
            })
        cols.append({
            "index": col.index, "q": [col.lo.exact_str(), col.hi.exact_str()], "sample_q": str(col.q),
            "boundaries": [{"polynomial": f, "root": i} for f, i in col.boundaries], "cells": cells,
        })
    return {
        "format": FORMAT,
        "meta": phase_meta(d),
        "game": d.game.describe(),
        "channel": d.channel.name,
        "opponent_channel": d.opponent.name if _two(d) else f"{d.opponent.name}@q",
        "polynomials": [mpoly_str(f) for f in d.polys],
        "critical_q": [{"exact": c.exact_str(), "decimal": c.decimal(15)} for c in d.critical],
        "columns": cols,
        "stats": d.stats(),
    }


def phase_text(d) -> str:
    """A summary: critical values, and the optimal-move regions with their cells."""
    who = (f"both players through {d.channel.name} (two parameters p, q)" if _two(d)
           else f"first player {d.channel.name} at p, second {d.opponent.name} at q")
    lines = [f"N(p, q) for {d.game.describe()}: {who}"]
    s = d.stats()
    def count(n, noun, plural=None):
        return f"{n} {noun if n == 1 else plural or noun + 's'}"

    lines.append(f"{count(s['cells'], 'cell')}, {count(s['polynomials'], 'boundary polynomial')}, "
                 f"{count(s['critical_values'], 'critical value')} of q")
    lines.append("critical q: " + ", ".join(str(c) for c in d.critical[:20]) + (" ..." if len(d.critical) > 20 else ""))
    for moves, cells in sorted(d.regions().items(), key=lambda kv: str(sorted(kv[0], key=str))):
        c = cells[0]
        lines.append(f"optimal {moves_text(moves)}: {len(cells)} cells, e.g. {c.name()} at ({c.p}, {c.q}) N = {c.value.text()}")
    return "\n".join(lines) + "\n"


def _column_edges(d, col, samples: int):
    """``(qs, edges)``: the q samples of a column (its two ends included) and,
    for each, the p of every boundary between its cells, 0 and 1 at the ends.

    Drawing only: the sections are exact roots at rational q, converted to
    floats; the samples at the column's ends repeat the nearest inner ones, so
    that neighbouring columns meet on the same line q = critical value."""
    lo, hi = col.lo.enclosure(fmpq(1, 10**6))[0], col.hi.enclosure(fmpq(1, 10**6))[1]
    lo, hi = fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator)
    qs = []
    for t in [fmpq(1, 1000), fmpq(1, 100)] + [fmpq(t, samples) for t in range(1, samples)] + [fmpq(99, 100), fmpq(999, 1000)]:
        q = lo + (hi - lo) * t
        if col.lo.compare(q) < 0 and col.hi.compare(q) > 0:
            qs.append(q)
    qs = sorted(set(qs + [col.q]))
    curves: list[list[float]] = [[] for _ in col.boundaries]
    for q in qs:
        cache: dict = {}
        for k, (f, i) in enumerate(col.boundaries):
            if f not in cache:
                cache[f] = interior_roots(d.polys[f], q)
            curves[k].append(float(cache[f][i]))
    qf = [float(col.lo)] + [float(q) for q in qs] + [float(col.hi)]
    curves = [[c[0]] + c + [c[-1]] for c in curves]
    return qf, [[0.0] * len(qf)] + curves + [[1.0] * len(qf)]


def _phase_title(d) -> str:
    """The game, both channels and the play, for a figure's title."""
    game = d.game.describe()
    start = getattr(d, "start", None)
    if start is not None and start != d.game.start():
        game += f", position {d.game.position_label(start)}"
    who = (f"{d.channel.name} channel (p: 0 -> 1, q: 1 -> 0)" if _two(d)
           else f"{d.channel.name} channel at p vs {d.opponent.name} channel at q")
    return f"N(p, q) for {game}: {who}, " + ("misère play" if getattr(d, "misere", False) else "normal play")


#: width (points) of a wall
_WALL = 0.8


def plot_phase(d, path=None, *, samples: int = 12):
    """Fill every region of one optimal-move set with the look of that set (the
    move colours of every figure, :mod:`symbolic_noise.io.palette`) and draw a
    wall only where the optimal set changes.

    The cells are polygons that share their edges exactly (a column of cells
    is cut by the same sampled curves, and neighbouring columns meet on the
    same line), all turning the same way; the cells of one optimal set form
    one compound path, which a renderer fills in one pass, so no background
    shows between two cells of a region at any resolution or in any viewer
    (drawn one by one, two anti-aliased edges leave a light seam).  Artists
    carry gids: ``region`` (one path per optimal set, its label the moves, its
    polygons the cells) and ``wall``.  Returns the figure; with ``path``,
    also writes it.
    """
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    from .figlayout import MoveColours
    from .palette import apply_style, legend_handles

    fig = Figure(figsize=(6, 5.8), layout="constrained")
    ax = fig.add_subplot()
    colours = MoveColours()
    for m in sorted(d.regions(), key=set_order):
        colours.style(m)
    polygons: dict = {}
    walls: list[tuple[list[float], list[float]]] = []
    below = None  # the top edge of the column under this one: [(p0, p1, optimal)]
    for col in d.columns:
        qf, edges = _column_edges(d, col, samples)
        sets = [d.cells[(col.index, k)].optimal for k in range(len(col.sectors))]
        for k, moves in enumerate(sets):
            xy = list(zip(edges[k], qf)) + list(zip(reversed(edges[k + 1]), reversed(qf)))
            polygons.setdefault(moves, []).append(Path(np.array(xy + xy[:1]), closed=True))
        for k in range(1, len(sets)):  # the section between cells k - 1 and k
            if sets[k] != sets[k - 1]:
                walls.append((edges[k], qf))
        bottom = [(edges[k][0], edges[k + 1][0], moves) for k, moves in enumerate(sets)]
        if below is not None:  # the line q = col.lo: a wall where the sets across it differ
            for a0, a1, m in below:
                for b0, b1, n in bottom:
                    x0, x1 = max(a0, b0), min(a1, b1)
                    if x1 > x0 and m != n:
                        walls.append(([x0, x1], [qf[0], qf[0]]))
        below = [(edges[k][-1], edges[k + 1][-1], moves) for k, moves in enumerate(sets)]
    for moves in sorted(polygons, key=set_order):
        region = PathPatch(Path.make_compound_path(*polygons[moves]), gid="region", label=moves_text(moves),
                           edgecolor="none", linewidth=0)
        apply_style(region, colours.style(moves))
        ax.add_patch(region)
    for xs, ys in walls:
        ax.plot(xs, ys, color="black", linewidth=_WALL, gid="wall", solid_capstyle="butt")
    ax.legend(handles=legend_handles(colours, lambda m: "optimal " + moves_text(m)),
              loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("p (0 -> 1 flips)" if _two(d) else "p (first player)")
    ax.set_ylabel("q (1 -> 0 flips)" if _two(d) else "q (second player)")
    ax.set_title(_phase_title(d), fontsize=9, wrap=True)
    if path is not None:
        from .plots import save

        save(fig, path, meta=phase_meta(d))
    return fig


def parse_point(text: str):
    """``P,Q`` as two exact rationals (the safe parser, never eval)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise IntervalError(f"a point is written P,Q (e.g. 1/3,1/2), not {text!r}")
    return exact_number(parts[0].strip()), exact_number(parts[1].strip())


def add_parser(sub, add_game_arguments) -> None:
    """The ``phase`` subcommand (``--jobs N`` / ``--dask ADDRESS``, from the shared
    game arguments: the sweep's discriminants and resultants in N local processes
    or on a Dask cluster)."""
    ph = sub.add_parser("phase", help="exact phase diagram in (p, q): first player at p, second at q")
    add_game_arguments(ph)
    ph.add_argument("--opponent-channel", metavar="C@q", help="the second player's channel, its parameter named q (default: the same as --channel)")
    ph.add_argument("--locate", metavar="P,Q", help="only the cell, exact value and optimal moves at (P, Q)")
    ph.add_argument("--format", choices=("text", "json"), default="text")
    ph.add_argument("--plot", metavar="FILE", help="draw the diagram to FILE (PNG, SVG, PDF)")
    ph.add_argument("--method", choices=("sweep", "cad"), default="sweep",
                    help="sweep over q of exact one-parameter solves (default) or the global decomposition")
    ph.set_defaults(func=cmd_phase)


def cmd_phase(args) -> int:
    """Run the ``phase`` command from its parsed arguments; the exit status."""
    import sys

    from .cli import _channel, _emit, _position, _ProgressBar
    from .workers import dask_client, local_pool, stop_pools
    from ..games.registry import game_from_spec
    from ..analysis.phase import phase

    game = game_from_spec(args.game, args.param)
    channel = _channel(args, game)
    if args.opponent_channel is not None and not args.opponent_channel.strip():
        raise SymbolicNoiseError("--opponent-channel needs a channel name, not an empty word")
    opponent = args.opponent_channel or f"{channel.name}@q"
    point = parse_point(args.locate) if args.locate else None
    if args.interval:
        raise SymbolicNoiseError("a phase diagram covers the whole square [0, 1]^2: --interval does not apply"
                                 " (--locate P,Q answers at one point)")
    executor, close = None, None
    if args.jobs > 1 or args.dask:
        if args.method != "sweep":
            raise SymbolicNoiseError("--jobs and --dask need --method sweep")
        if args.dask:
            client = dask_client(args.dask)
            executor, close = client.get_executor(pure=False), client.close
        else:
            executor = local_pool(args.jobs)
            close = lambda: stop_pools([executor])  # noqa: E731
    unit = "strips of q" if args.method == "sweep" else "positions"
    try:
        with _ProgressBar(game, not (args.quiet or not sys.stderr.isatty()), unit=unit, what="phase diagram") as bar:
            d = phase(game, channel, opponent, start=_position(game, args.position), misere=args.misere,
                      method=args.method, executor=executor, progress=bar)
    except BrokenExecutor:
        raise WorkerLostError("a worker process of --jobs died (out of memory, or killed)") from None
    finally:
        if close is not None:
            close()
    if args.plot:
        try:
            d.plot(args.plot)
        except (OSError, ValueError) as exc:  # (a full device, or a suffix no backend writes)
            from .readers import shown

            raise SymbolicNoiseError(f"cannot write {shown(args.plot)}: {exc}") from None
    if point is not None:
        r = d.locate(*point)
        if args.format == "json":
            out = json.dumps(locate_json(r, phase_meta(d))) + "\n"
        else:
            out = f"(p, q) = ({r.p}, {r.q})  N = {r.value}  optimal: {moves_text(r.optimal)}  cell: {r.cell.get('name', r.cell['kind'])}\n"
    else:
        out = json.dumps(phase_json(d)) + "\n" if args.format == "json" else phase_text(d)
    _emit(out, args)
    return 0
