"""``symbolic-noise map``: the command line of :mod:`symbolic_noise.solvers.maps`.

>>> from symbolic_noise.io.cli import main
>>> main(["map", "nim", "2", "--width", "2^-20", "--no-header"])
Map of the optimal moves: N(p) for 1-pile Nim, k = 2, binary channel, p in [0, 1]
proved   [0, 0.499999880790708]                   optimal: 0  N in [0.5, 1]
change   [0.499999880790707, 0.500000119209293]   0 -> 0, 1 -> 1 at p = 1/2  N in [0.499999, 0.500001]
proved   [0.500000119209292, 1]                   optimal: 1  N in [0.5, 1]
3 intervals: 2 proved, 1 change, 0 undecided; change intervals at most 2^-20 wide
0
"""

from __future__ import annotations

import argparse

from . import reports
from .mapreport import map_json, map_text
from ..errors import SymbolicNoiseError
from ..games.registry import game_from_spec

#: most boxes a map may enclose from the command line
MAX_BUDGET = 10_000_000


def _budget(text: str) -> int:
    from ..exact.formula import parse_whole

    try:
        n = parse_whole(text)
    except SymbolicNoiseError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
    if not 1 <= n <= MAX_BUDGET:
        raise argparse.ArgumentTypeError(f"--budget must be between 1 and {MAX_BUDGET}")
    return n


def run(args, channel_of, interval_of, emit) -> int:
    """Build the map and write it (text or JSON, and a plot with ``--plot``);
    exit status 0 when nothing is undecided, 1 otherwise."""
    from ..solvers.maps import build_map

    game = game_from_spec(args.game, args.param)
    channel = channel_of(args, game)
    interval = interval_of(args.interval) if args.interval else (0, 1)
    start = None if args.position is None else game.parse_position(args.position)
    import sys

    from .cli import _ProgressBar

    with _ProgressBar(game, not (args.quiet or not sys.stderr.isatty()), unit="thousandths of the interval",
                      what="mapping") as bar:
        if args.jobs > 1 or args.dask:
            m = _parallel(args, game, channel, start, interval, bar)
        else:
            m = build_map(game, channel, start=start, interval=interval, width=args.width, misere=args.misere,
                          budget=args.budget, progress=bar)
    if args.plot:
        from .mapplot import plot_map

        plot_map(m, args.plot)
    if args.format == "json":
        emit(reports.dumps(map_json(m)), args)
    else:
        emit(map_text(m, header=not args.no_header) + "\n", args)
    return 0 if m.complete else 1


def _parallel(args, game, channel, start, interval, bar):
    """The map on ``--jobs`` local processes or the ``--dask`` cluster's
    workers (:mod:`symbolic_noise.solvers.maps.parallel`), stopped however it ends."""
    from concurrent.futures import BrokenExecutor

    from ..errors import WorkerLostError
    from ..solvers.maps.parallel import build_map_parallel
    from .workers import _workers

    executors, close = _workers(args)
    try:
        return build_map_parallel(game, channel, start=start, interval=interval, width=args.width, misere=args.misere,
                                  executors=executors, budget=args.budget, progress=bar)
    except BrokenExecutor:
        raise WorkerLostError("a worker process of --jobs died (out of memory, or killed)") from None
    finally:
        close()


def add_parser(sub, add_game_arguments_min, channel_of, interval_of, emit) -> None:
    """Register ``map`` on the command line's subparsers (the other arguments
    are the command line's own helpers)."""
    mp = sub.add_parser(
        "map", help="a certified map of the optimal moves over a range of p, far beyond the exact solver",
        description="Cover [A, B] by proved intervals (the optimal-move set, proved, with an enclosure of N), "
        "change intervals (exactly one change inside, at most --width wide) and undecided intervals (the box "
        "budget ran out). Exit status 0 if nothing is undecided, 1 otherwise.",
    )
    add_game_arguments_min(mp)
    mp.add_argument("--width", default="2^-40", metavar="W",
                    help="largest width of a change interval: 2^-K or an exact number (default 2^-40)")
    mp.add_argument("--budget", type=_budget, default=200_000, metavar="N",
                    help="most boxes of p enclosed (default 200000); what is left is undecided")
    mp.add_argument("--format", choices=("text", "json"), default="text")
    mp.add_argument("--no-header", action="store_true", help="text without the provenance comment lines")
    mp.add_argument("--quiet", action="store_true", help="no progress bar (there is none when standard error is not a terminal)")
    from .cli import _jobs

    mp.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                    help="share the boxes of p between N local processes (the same map)")
    mp.add_argument("--dask", metavar="ADDRESS", help="share the boxes of p between the workers of the Dask scheduler"
                    " at ADDRESS")
    mp.add_argument("--plot", metavar="FILE", help="also draw the map: the optimal moves as a ribbon, N as a band")
    mp.set_defaults(func=lambda args: run(args, channel_of, interval_of, emit))


__all__ = ["add_parser", "run"]
