"""``symbolic-noise chance``: the command line of :mod:`symbolic_noise.analysis.chance`.

>>> from symbolic_noise.io.cli import main
>>> main(["chance", "nim", "4", "--channel", "binary"])
1-pile Nim, k = 4, binary channel, p in (0, 1): a chance game: 0 < N < 1 at every position that is not forced
  forced positions (N the same for every channel): 0 (N = 0), 1 (N = 1)
  every psi entry is positive on the interval, which alone makes it a chance game
0
"""

from __future__ import annotations

from . import reports
from ..games.registry import game_from_spec


#: the JSON contract of ``chance``
FORMAT = "symbolic-noise.chance/1"


def run(args, channel_of, emit) -> int:
    """Decide, print (text or JSON); exit status 0 for a chance game, 1 if not."""
    from ..analysis.chance import chance_report

    from ..games.provenance import record

    game = game_from_spec(args.game, args.param)
    channel = channel_of(args, game)
    rep = chance_report(game, channel, args.interval)
    if args.format == "json":
        meta = record(game, channel, method="chance: exact signs of N and 1 - N")
        meta["interval"] = rep.interval.text()  # ends open or closed
        emit(reports.dumps({"format": FORMAT, "meta": meta, **rep.as_json(args.digits)}), args)
    else:
        emit(rep.text(), args)
    return 0 if rep.holds else 1


def add_parser(sub, channel_of, digits_type, emit) -> None:
    """Register ``chance`` on the command line's subparsers (``channel_of``,
    ``digits_type`` and ``emit`` are the command line's own helpers)."""
    ch = sub.add_parser(
        "chance", help="decide exactly whether 0 < N < 1 at every unforced position for all p in an interval",
        description="Exit status 0 if the channel makes the game a chance game on the interval, 1 if not. "
        "Forced positions (N = 0 or 1 for every channel) are left out.",
    )
    ch.add_argument("game", help="the game family")
    ch.add_argument("param", nargs="?", help="the game's parameter (heap size, board, ...)")
    ch.add_argument("--channel", help="channel (default: king for Chomp, binary for Nim and the other heap games)")
    ch.add_argument(
        "--interval", default="(0,1)", metavar="I",
        help="(a,b), [a,b), (a,b], [a,b], or a,b meaning [a,b]; exact numbers (default (0,1))",
    )
    ch.add_argument("--digits", type=digits_type, default=20)
    ch.add_argument("--format", choices=("text", "json"), default="text")
    ch.add_argument("-o", "--output", help="write to this file instead of standard output")
    ch.set_defaults(func=lambda args: run(args, channel_of, emit))
