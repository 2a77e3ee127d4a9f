"""The atlas of a family of games: a (p, k) map coloured by the optimal move,
with N(p) as shading, for a family with a size parameter k.

Families (the command line's words, :func:`family_values`):

* ``nim``: 1-pile Nim with k chips (binary channel by default); one solve of
  the largest heap gives every smaller one.
* a heap game (``subtraction:1,2,3``, ``kayles``, ``0.137``, ...): one heap of k.
* ``chomp``: the R x k bar (``R`` = the parameter, default 2), one solve of
  the widest bar.

With ``--method map`` each row is a certified map of its position instead
(:func:`family_map_rows`, :mod:`symbolic_noise.solvers.maps`): no formula is
built, so sizes far beyond the exact solver are drawn; a stretch the map
leaves undecided is drawn grey and cross-hatched ("undecided" in the legend),
a change interval (at most ``--width`` wide) in the set at its change point,
and the shading is the middle of the map's enclosure of N.  The exact atlas
is the default; the map atlas is chosen explicitly.

Colours come from :mod:`symbolic_noise.io.palette`: every move has one colour
in every figure, a hatching once the sixteen colours are used up, and no two
optimal-move sets of one atlas look the same; the legend lists them in move
order.  Heap-game moves ``h->h'`` that leave
one heap are named ``take h - h'``, so that the same move has the same colour
for every k.  The bands of optimal moves are vector rectangles with exact piece
ends (converted to floats for drawing); the shading is an image of N sampled
at exact rational p, lighter where N is lower.

Examples
--------
>>> rows = family_values("nim", range(1, 7))
>>> [k for k, _ in rows], sorted(rows[1][1].labels[0])
([1, 2, 3, 4, 5, 6], [0])
>>> fig = atlas(rows, title="1-pile Nim")
>>> sorted(t.get_text() for t in fig.axes[0].get_legend().get_texts())[:3]
['0', '1', '3']
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

from flint import fmpq

from ..errors import GameParameterError
from ..exact.piecewise import PiecewiseFunction
from .reports import move_text

if TYPE_CHECKING:  # (matplotlib is imported where it draws: every command line run registers atlas's parser)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: samples of N along p in every row of the shading
SAMPLES = 240
#: how much a row fades to white where N = 0 (0 for no shading)
FADE = 0.65


def family_values(name: str, ks: Sequence[int], *, param: str | None = None, channel=None,
                  interval=(0, 1), misere: bool = False, store=None,
                  progress=None) -> list[tuple[int, PiecewiseFunction]]:
    """``[(k, N_k)]`` for the family ``name`` (see the module docstring); the
    labels of N_k are the optimal-move sets, heap moves renamed ``take s``.
    ``store`` (a :class:`~symbolic_noise.solvers.storage.cache.SolutionCache`
    of the family's game, :func:`family_game`) is read and filled as the
    solve goes; ``progress`` is the solve's progress callback.

    >>> [sorted(f.labels[0]) for k, f in family_values("subtraction:1,2", [2, 3], channel="binary")]
    [['take 2'], ['take 1']]
    """
    game, chan, positions = family_game(name, ks, param=param, channel=channel)
    return family_rows(game, chan, positions, interval=interval, misere=misere, store=store, progress=progress)


def family_game(name: str, ks: Sequence[int], *, param: str | None = None, channel=None):
    """``(game, channel, {k: position})``: the one game whose solve gives every
    member of the family (the largest heap or the widest bar) and its channel.

    >>> game, channel, positions = family_game("nim", [3, 1, 2])
    >>> game.describe(), channel.name, positions
    ('1-pile Nim, k = 3', 'binary', {1: 1, 2: 2, 3: 3})
    """
    from ..games.channels import get_channel
    from ..games.rulesets import Chomp, Nim
    from ..games.registry import default_channel_name, game_from_spec

    ks = sorted(set(int(k) for k in ks))
    if not ks:
        raise GameParameterError("--k holds no size")
    family = name.strip().lower()
    if family == "nim":
        if ks[0] < 0:
            raise GameParameterError("Nim heaps cannot be negative")
        game: Any = Nim(ks[-1])
        positions = {k: k for k in ks}
    elif family == "chomp":
        from ..exact.formula import parse_whole
        from ..games.registry import parse_board

        rows = 2 if param is None else parse_whole(param, "the number of Chomp rows", 1, None, GameParameterError)
        if ks[0] < 1:
            raise GameParameterError("a Chomp bar needs at least one row and one column")
        game = Chomp(*parse_board(f"{rows}x{ks[-1]}"))
        positions = {k: game.check_position((k,) * rows) for k in ks}
    else:
        if ks[0] < 0:
            raise GameParameterError("heaps cannot be negative")
        game = game_from_spec(name, str(ks[-1]))
        positions = {k: game.parse_position(str(k)) for k in ks}
    if isinstance(channel, str) and not channel.strip():
        raise GameParameterError("--channel needs a channel name, not an empty word")
    chan = get_channel(channel or default_channel_name(game)) if isinstance(channel, str) or channel is None else channel
    return game, chan, positions


def family_rows(game, channel, positions: dict, *, interval=(0, 1), misere: bool = False, store=None,
                progress=None) -> list[tuple[int, PiecewiseFunction]]:
    """``[(k, N_k)]`` from one solve of ``game`` (positions not reachable from
    its start get their own), read from ``store`` where it holds them."""
    from ..solvers.piecewise import solve

    sol = None
    if store is not None and not getattr(store, "verify", False):
        from ..solvers.storage.stored import stored_solution

        sol = stored_solution(game, channel, interval, store, misere=misere)
    if sol is None:
        sol = solve(game, channel, interval, misere=misere, store=store, progress=progress)
    out = []
    for k, v in positions.items():
        try:
            f = sol.value(v)
        except KeyError:  # not reachable from the largest start: its own solve
            f = solve(game, channel, interval, start=v, misere=misere, store=store, progress=progress).value(v)
        out.append((k, _renamed(f)))
    return out


#: the label of a stretch of a map row where the map decides nothing
UNDECIDED = "undecided"


class MapRow:
    """One row of an atlas drawn from a certified map
    (:class:`~symbolic_noise.solvers.maps.result.Map`): ``interval`` its exact
    ends, ``points`` the ends of its intervals (floats, for drawing),
    ``labels`` per interval the proved optimal set, None for a change
    interval (at most the map's width: not drawn, as the exact atlas draws
    no breakpoint's own set), or :data:`UNDECIDED`; ``band`` the map's
    enclosures of N, ``(lo, hi, vlo, vhi)`` per settled box.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> from symbolic_noise.solvers.maps import build_map
    >>> row = MapRow(build_map(Nim(3), "binary", width="2^-20"))
    >>> [s if s is None else sorted(s) for s in row.labels]
    [[0], None, [1], None]
    """

    def __init__(self, m):
        from ..exact.algebraic import RealAlgebraic

        self.map = m
        self.interval = tuple(RealAlgebraic.rational(x) for x in m.interval)
        self.points = [float(iv.lo) for iv in m.intervals] + [float(m.intervals[-1].hi)]
        self.labels = [UNDECIDED if iv.kind == "undecided" else None if iv.kind == "change" else
                       frozenset(_move_name(x) for x in iv.optimal) for iv in m.intervals]
        self.band = [(float(lo), float(hi), float(vlo + vhi) / 2) for lo, hi, vlo, vhi in m.band]


def family_map_rows(game, channel, positions: dict, *, interval=(0, 1), misere: bool = False, width="2^-30",
                    budget: int = 200_000, progress=None) -> list[tuple[int, MapRow]]:
    """``[(k, MapRow)]``: a certified map of every position of the family
    (:func:`~symbolic_noise.solvers.maps.build_map`), heap moves renamed
    ``take s``; ``progress(done, total)`` is told the rows mapped.

    >>> rows = family_map_rows(*family_game("nim", [2, 3])[:3], width="2^-20")
    >>> [s if s is None else sorted(s) for s in rows[0][1].labels]
    [[0], None, [1]]
    """
    from ..solvers.maps import build_map
    from ..solvers.maps.structure import check_size

    if positions:  # the largest row first, before any is mapped
        check_size(game, positions[max(positions)])
    out = []
    for n, (k, v) in enumerate(positions.items()):
        m = build_map(game, channel, start=v, interval=interval, width=width, misere=misere, budget=budget)
        out.append((k, MapRow(m)))
        if progress is not None:
            progress(n + 1, len(positions))
    return out


def _row_runs(f) -> list:
    """The runs of equal labels of a row: ``(x0, x1, label)``."""
    from .figlayout import runs

    if isinstance(f, MapRow):
        return runs(f.labels, f.points)
    return runs(f.labels if f.labels is not None else [None] * len(f.formulas), [float(x) for x in f.points])


def _move_name(move) -> Any:
    """``"5->3"`` -> ``"take 2"``; anything else unchanged."""
    if isinstance(move, str) and "->" in move:
        left, right = move.split("->", 1)
        if left.isdigit() and (right.isdigit() or right == "0"):
            return f"take {int(left) - int(right)}"
    return move


def _renamed(f: PiecewiseFunction) -> PiecewiseFunction:
    if f.labels is None:
        return f
    def ren(s):
        return None if s is None else frozenset(_move_name(m) for m in s)

    return PiecewiseFunction(f.points, f.formulas, [ren(s) for s in f.labels],
                             None if f.point_labels is None else [ren(s) for s in f.point_labels], merge=False)


def _set_text(moves) -> str:
    if not moves:
        return "none (terminal)"
    from .palette import move_order

    return ", ".join(move_text(m) for m in sorted(moves, key=move_order))


def _shade_row(f, grid: list[fmpq]) -> list[float]:
    """N at the grid points of f's interval as floats (drawing; for a map row
    the middle of its enclosure, nothing where it is undecided): each point
    assigned to its piece exactly, the piece's formula evaluated in balls
    (:func:`symbolic_noise.io.plots._drawing_values`; exact evaluation of
    N_64's formulas at 240 points per row took a minute)."""
    import bisect

    from .plots import _drawing_values, _inner_bounds

    if isinstance(f, MapRow):
        xs = [float(t) for t in grid]
        out = [math.nan] * len(grid)
        i = 0
        for lo, hi, mid in f.band:
            while i < len(xs) and xs[i] < lo:
                i += 1
            j = i
            while j < len(xs) and xs[j] <= hi:
                out[j] = mid
                j += 1
        return out
    a, b = f.interval
    out = [math.nan] * len(grid)
    for pc in f.pieces():
        lo, hi = _inner_bounds(pc.lo, pc.hi)
        i, j = bisect.bisect_left(grid, lo), bisect.bisect_right(grid, hi)
        for n, y in zip(range(i, j), _drawing_values(pc.formula, grid[i:j])):
            out[n] = y
    for n, t in enumerate(grid):  # (within 2^-54 of a breakpoint: exactly)
        if math.isnan(out[n]) and a <= t <= b:
            out[n] = float(f(t))
    return out


#: direct labels on regions once hatchings are in use, their smallest font (points)
_LABEL_FONT = 5.5


def atlas(rows: Sequence[tuple[int, PiecewiseFunction]], *, ax: Axes | None = None, title: str = "",
          shade: bool = True, labels: bool | None = None) -> Figure:
    """The (p, k) map of a family: row k coloured by the optimal moves of N_k
    along p, faded towards white where N_k is low (``shade``).

    ``rows`` is ``[(k, N_k)]`` (:func:`family_values`), every N_k on the same
    interval.  Every optimal-move set has a look of its own in the figure:
    its moves' colour, the same as in every other figure, and a hatching past
    the palette's sixteen colours (:mod:`symbolic_noise.io.palette`).  With
    ``labels`` (by default: when some region is hatched) a region wide and
    tall enough for it carries the name of its moves.  Returns the figure; the
    legend names every look, in move order.

    >>> fig = atlas(family_values("nim", [2, 3, 4]))
    >>> len([p for p in fig.axes[0].patches if p.get_gid() == "atlas"])
    6
    """
    import numpy as np
    from matplotlib.colors import LinearSegmentedColormap, to_rgb
    from matplotlib.figure import Figure

    from .figlayout import MoveColours
    from .palette import apply_style, legend_handles

    if not rows:
        raise ValueError("an atlas needs at least one row")
    if ax is None:
        height = min(9.0, 2.2 + 0.16 * len(rows))
        fig = Figure(figsize=(7.0, height), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure.figure
    colours = MoveColours()
    a, b = (float(e) for e in rows[0][1].interval)
    qa, qb = rows[0][1].interval[0], rows[0][1].interval[1]
    spans = []
    undecided = False
    for k, f in rows:
        for x0, x1, moves in _row_runs(f):
            if moves == UNDECIDED:
                rect = _rect(x0, x1, k, UNDECIDED)
                rect.set(facecolor="0.85", hatch="xxx", edgecolor="0.5", linewidth=0)
                ax.add_patch(rect)
                undecided = True
                continue
            if moves is None and isinstance(f, MapRow):  # a change interval
                continue
            rect = _rect(x0, x1, k, _set_text(moves))
            apply_style(rect, colours.style(moves))
            ax.add_patch(rect)
            spans.append((x0, x1, k, moves))
    if shade:
        lo = qa.lo if qa.is_rational else qa.hi
        hi = qb.hi if qb.is_rational else qb.lo
        grid = [lo + (hi - lo) * fmpq(2 * i + 1, 2 * SAMPLES) for i in range(SAMPLES)]
        values = np.array([_shade_row(f, grid) for _, f in rows])
        alpha = np.clip(FADE * (1.0 - values), 0.0, 1.0)
        image = np.ones(values.shape + (4,))
        image[..., 3] = np.nan_to_num(alpha)
        ks = [k for k, _ in rows]
        step = ks[1] - ks[0] if len(ks) > 1 and all(y - x == ks[1] - ks[0] for x, y in zip(ks, ks[1:])) else None
        if step is not None:
            ax.imshow(image, extent=(a, b, ks[0] - step / 2, ks[-1] + step / 2), origin="lower",
                      aspect="auto", interpolation="nearest", zorder=2, gid="shade")
        else:
            for (k, _), row in zip(rows, image):
                ax.imshow(row[None], extent=(a, b, k - 0.5, k + 0.5), aspect="auto", interpolation="nearest",
                          zorder=2, gid="shade")
        grey = LinearSegmentedColormap.from_list("N", [_faded("#555555", 0.0), to_rgb("#555555")])
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import Normalize

        bar = fig.colorbar(ScalarMappable(Normalize(0, 1), grey), ax=ax, location="bottom", shrink=0.45,
                           aspect=30, pad=0.01)
        bar.set_label("shade: N(p)", fontsize=8)
        bar.ax.tick_params(labelsize=7)
    ks = [k for k, _ in rows]
    ax.set_xlim(a, b)
    ax.set_ylim(min(ks) - 0.5, max(ks) + 0.5)
    ax.set_xlabel("p")
    ax.set_ylabel("k")
    if title:
        ax.set_title(title, fontsize=10)
    handles = legend_handles(colours, _set_text)
    if undecided:
        from matplotlib.patches import Patch

        handles.append(Patch(facecolor="0.85", hatch="xxx", edgecolor="0.5", linewidth=0.4, label=UNDECIDED))
    ax.legend(handles=handles, title="optimal", fontsize=7, title_fontsize=8, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0, handleheight=1.2,
              ncol=1 if len(handles) <= 18 else 2 if len(handles) <= 40 else 3)
    if labels is None:
        labels = colours.exhausted() or any(style.hatch for _, style in colours.styles())
    if labels:
        _label_regions(fig, ax, spans, colours)
    return fig


def _stacks(spans) -> list[list[int]]:
    """Groups of spans (indices) of one set in consecutive rows that overlap
    along p: a region of the atlas that a reader sees as one."""
    parent = list(range(len(spans)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_row: dict = {}
    for i, (x0, x1, k, moves) in enumerate(spans):
        by_row.setdefault(k, []).append(i)
    ks = sorted(by_row)
    for below, k in zip(ks, ks[1:]):
        for i in by_row[k]:
            for j in by_row[below]:
                (a0, a1, _, m), (b0, b1, _, n) = spans[i], spans[j]
                if m == n and a0 < b1 and b0 < a1:
                    parent[root(i)] = root(j)
    groups: dict = {}
    for i in range(len(spans)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _label_regions(fig, ax, spans, colours) -> None:
    """Name the moves once inside every hatched region (every region, if two
    sets had to share a look), in its middle row, where the name fits; a
    name that fits nowhere in the region is not drawn."""
    fig.draw_without_rendering()
    renderer = fig._get_renderer()
    all_regions = colours.exhausted()
    for group in _stacks(spans):
        moves = spans[group[0]][3]
        if not moves or not (colours.style(moves).hatch or all_regions):
            continue
        middle = sorted(group, key=lambda i: spans[i][2])
        middle = sorted(middle, key=lambda i: abs(spans[i][2] - spans[middle[len(middle) // 2]][2]))
        for i in middle:  # the middle row first, then outwards
            x0, x1, k, _ = spans[i]
            t = ax.text((x0 + x1) / 2, k, _set_text(moves), ha="center", va="center", fontsize=_LABEL_FONT,
                        zorder=3, gid="atlas-label", clip_on=True,
                        bbox={"boxstyle": "square,pad=0.05", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
            box = t.get_window_extent(renderer)
            (px0, py0), (px1, py1) = ax.transData.transform([(x0, k - 0.5), (x1, k + 0.5)])
            if box.width <= px1 - px0 - 2 and box.height <= py1 - py0 + 1:
                break
            t.remove()


def _faded(colour: str, n: float) -> tuple[float, float, float]:
    """The colour as the shading shows it where N = n."""
    from matplotlib.colors import to_rgb

    alpha = FADE * (1.0 - n)
    return tuple(1.0 * alpha + c * (1.0 - alpha) for c in to_rgb(colour))  # type: ignore[return-value]


def _rect(x0: float, x1: float, k: int, label: str):
    from matplotlib.patches import Rectangle

    return Rectangle((x0, k - 0.5), x1 - x0, 1.0, edgecolor="none", linewidth=0, zorder=1, gid="atlas", label=label)


def run(args) -> int:
    """The ``symbolic-noise atlas`` command: compute the family, draw, save.

    >>> import os, tempfile
    >>> from symbolic_noise.io.cli import main
    >>> path = os.path.join(tempfile.mkdtemp(), "a.svg")
    >>> main(["atlas", "nim", "--k", "1..4", "-o", path]), os.path.getsize(path) > 0
    (0, True)
    """
    import sys

    from .cli import _interval, _k_range, _open_cache, _ProgressBar
    from .plots import save
    from ..games.registry import default_channel_name

    interval = _interval(args.interval) if args.interval else (0, 1)
    game, channel, positions = family_game(args.game, _k_range(args.k), param=args.param, channel=args.channel)
    by_map = args.method == "map"
    store = None if by_map else _open_cache(args, game, channel, interval)
    try:
        with _ProgressBar(game, not (args.quiet or not sys.stderr.isatty()), unit="rows" if by_map else "positions",
                          what="mapping" if by_map else "solving") as bar:
            if by_map:
                rows: list = family_map_rows(game, channel, positions, interval=interval, misere=args.misere,
                                             width=args.width, budget=args.budget, progress=bar)
            else:
                rows = family_rows(game, channel, positions, interval=interval, misere=args.misere, store=store,
                                   progress=bar)
    finally:
        if store is not None:
            store.close()
    family = args.game.lower()
    name = f"Chomp, {args.param or 2} x k bars" if family == "chomp" else args.game
    # the channel drawn: the one given, or the default the family's games take
    play = "misère play" if args.misere else "normal play"
    how = f"{args.channel or default_channel_name(game)} channel, {play}" + (", certified maps" if by_map else "")
    fig = atlas(rows, title=args.title or f"optimal moves of {name}, {how}, k = {rows[0][0]}..{rows[-1][0]}",
                shade=not args.no_shade)
    from ..errors import SymbolicNoiseError
    from ..games.provenance import record

    try:
        # the file's own metadata: the family's largest game, solved by the piecewise engine or mapped
        save(fig, args.output, meta=record(game, channel, misere=args.misere, interval=interval,
                                           method="map" if by_map else "piecewise"))
    except (OSError, ValueError) as exc:
        raise SymbolicNoiseError(f"cannot write {args.output}: {exc}") from None
    return 0


def _budget(text: str) -> int:
    from .cli_map import _budget as parse

    return parse(text)


def add_parser(sub) -> None:
    """Register ``atlas`` on the command line's subparsers.

    >>> from symbolic_noise.io.cli import build_parser
    >>> build_parser().parse_args(["atlas", "chomp", "3", "--k", "1..4", "-o", "x.pdf"]).param
    '3'
    """
    a = sub.add_parser("atlas", help="(p, k) map of a family coloured by optimal move, N shaded (PNG, SVG, PDF)",
                       description="symbolic-noise atlas GAME [PARAM] --k A..B -o FILE: nim (1-pile Nim, k chips), "
                       "a heap game (subtraction:1,2,3, kayles, 0.137, ...: one heap of k), or chomp "
                       "(the PARAM x k bar, PARAM rows, default 2).")
    a.add_argument("game", help="nim, chomp, or a heap game (subtraction:S, kayles, octal:CODE, ...)")
    a.add_argument("param", nargs="?", help="chomp: the number of rows (default 2)")
    a.add_argument("--k", required=True, metavar="A..B", help="the sizes k, e.g. 1..64")
    a.add_argument("--channel", help="move error distribution (default: king for Chomp, binary for Nim and the other heap games)")
    a.add_argument("--interval", metavar="A,B", help="p in [A, B] (exact numbers; default 0,1)")
    a.add_argument("--misere", action="store_true", help="misère play")
    a.add_argument("--no-shade", action="store_true", help="colours only, no shading by N")
    a.add_argument("--title", help="the figure's title")
    a.add_argument("--cache", metavar="PATH", help="SQLite cache of solved positions, read and filled as for solve"
                   " (default: the user cache directory)")
    a.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    a.add_argument("--method", choices=("exact", "map"), default="exact",
                   help="exact (default): every row from one exact piecewise solve; map: every row from a certified"
                        " map of its position (sizes far beyond the exact solver; undecided stretches drawn grey and"
                        " cross-hatched; no cache)")
    a.add_argument("--width", default="2^-30", metavar="W", help="with --method map: the largest width of a change"
                   " interval (default 2^-30)")
    a.add_argument("--budget", type=_budget, default=200_000, metavar="N",
                   help="with --method map: most boxes of p each row's map encloses (default 200000)")
    a.add_argument("--quiet", action="store_true", help="no progress bar")
    a.add_argument("-o", "--output", required=True, help="the image file (format from the suffix)")
    a.set_defaults(func=run)
