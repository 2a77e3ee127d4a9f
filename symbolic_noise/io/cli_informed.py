"""Command-line pieces for who knows what: the two-player options of ``solve``,
``--series``, and the ``compare`` subcommand (used by :mod:`symbolic_noise.io.cli`).

Examples
--------
>>> from symbolic_noise.io.cli import main
>>> main(["compare", "nim", "2", "--no-cache"])
Delta(p) = N[optimal vs optimal] - N[classical vs classical] for 1-pile Nim, k = 2, binary channel, p in [0, 1]
  [0, 1/2]  Delta = 0
  [1/2, 1]  Delta = -1 + 2p
maximum: 1 at p = 1
minimum: 0 on [0, 1/2]
zero: on [0, 1/2]
0
"""

from __future__ import annotations

from ..exact.algebraic import RealAlgebraic
from ..errors import IntervalError, SymbolicNoiseError
from ..exact.formula import exact_number, parse_whole
from ..exact.ratfunc import poly_text
from .reports import dumps, number_json


def add_solve_options(p) -> None:
    """``--opponent-channel``, ``--strategy``, ``--opponent-strategy``, ``--series``, ``--order``."""
    add_player_options(p)
    p.add_argument("--series", metavar="X",
                   help="exact series of N at X from each side: a number (0, 1, 1/2), bJ (the J-th breakpoint) or breakpoints")
    p.add_argument("--order", type=_order, default=5, help="order of --series (default 5)")


def _order(text: str) -> int:
    """``--order``: a whole number in ASCII digits (its range is checked with ``--series``)."""
    import argparse

    try:
        return parse_whole(text, "--order", -10**6, 10**6)
    except SymbolicNoiseError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_player_options(p) -> None:
    """``--opponent-channel``, ``--strategy``, ``--opponent-strategy`` (``solve``, ``table``, ``plot``)."""
    p.add_argument("--opponent-channel", metavar="SPEC",
                   help="the second player's channel (default: the same); NAME@P fixes its parameter, e.g. binary@1/10")
    p.add_argument("--strategy", metavar="S", default="optimal",
                   help="the first player's strategy: optimal (default), classical, uniform, or a strategy JSON file")
    p.add_argument("--opponent-strategy", metavar="S", default="optimal", help="the second player's strategy (same choices)")


def uses_players(args) -> bool:
    """Whether the command line asks for more than the paper's symmetric game."""
    return getattr(args, "opponent_channel", None) is not None or getattr(args, "strategy", "optimal") != "optimal" or (
        getattr(args, "opponent_strategy", "optimal") != "optimal"
    )


def solve_from_args(args, game, channel, channel_from_spec, interval, start, store, progress=None):
    """The two-player solve the options describe."""
    from ..solvers.twoplayer.players import solve_players

    opponent = None if args.opponent_channel is None else channel_from_spec(args.opponent_channel, game)
    root = game.start() if start is None else start
    return solve_players(
        game, channel, opponent,
        strategy=_strategy(args.strategy, game), opponent_strategy=_strategy(args.opponent_strategy, game),
        interval=interval, start=root, misere=args.misere, store=store, progress=progress,
    )


def _strategy(spec: str, game):
    """A strategy named on the command line, or read from a JSON file (capped, as data)."""
    from .readers import read_json
    from ..errors import InvalidStrategyError
    from ..solvers.twoplayer.players import load_strategy

    return load_strategy(spec, game, lambda path: read_json(path, "the strategy file", InvalidStrategyError))


def _points(f, spec: str) -> list:
    if spec == "breakpoints":
        return list(f.breakpoints)
    if spec.startswith("b") and spec[1:].isascii() and spec[1:].isdigit():
        j = parse_whole(spec[1:], "--series bJ", 0, 10**9, IntervalError)
        if not 1 <= j <= len(f.breakpoints):
            raise IntervalError(f"--series {spec}: N has {len(f.breakpoints)} breakpoints")
        return [f.breakpoint(j)]
    return [RealAlgebraic.rational(exact_number(spec))]


def series_report(sol, spec: str, order: int, digits: int, fmt: str, meta: dict | None = None) -> str:
    """The series of the first player's N at the points ``spec`` names."""
    from ..analysis.series import series_at

    if not 0 <= order <= 200:
        raise SymbolicNoiseError("--order must be between 0 and 200")
    f = sol.value()
    found = [s for x in _points(f, spec) for s in series_at(f, x, order)]
    if fmt == "json":
        return dumps({"format": "symbolic-noise.series/1", **({"meta": meta} if meta is not None else {}),
                      "series": [s.as_json(digits) for s in found]})
    lines = []
    for s in found:
        x = s.point
        where = str(x) if x.is_rational else f"{x.decimal(digits)}... (root of {poly_text(x.minpoly())})"
        side = {"left": "from the left", "right": "from the right", "both": ""}[s.side]
        lines.append(f"N at p = {where} {side}:".replace("  ", " ").replace(" :", ":"))
        lines.append(f"  N = {s.text(digits)}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- compare


def add_compare_parser(sub, add_game_arguments, digits_type) -> None:
    """Add the ``compare`` command (the value of knowing p) to the subparsers ``sub``."""
    c = sub.add_parser(
        "compare",
        help="the value of knowing p: N with one strategy minus N with another, exactly",
        description="Delta(p) = N[STRATEGY] - N[AGAINST]: with --reading both, both players switch; with --reading first,"
        " only the first player plays STRATEGY while the opponent keeps AGAINST.",
    )
    add_game_arguments(c)
    c.add_argument("--strategy", default="optimal", help="the informed strategy (default optimal)")
    c.add_argument("--against", default="classical", help="the baseline strategy (default classical)")
    c.add_argument("--reading", choices=("both", "first"), default="both",
                   help="both players switch (default), or only the first player knows p")
    c.add_argument("--opponent-channel", metavar="SPEC", help="the second player's channel (default: the same)")
    c.add_argument("--digits", type=digits_type, default=15)
    c.add_argument("--format", choices=("text", "json"), default="text")


def _x_text(x: RealAlgebraic, digits: int) -> str:
    return str(x) if x.is_rational else f"{x.decimal(digits)}..."


def _value_text(v, digits: int) -> str:
    q = v.rational_value
    return str(q) if q is not None else v.decimal(digits) + "..."


def _where(points, intervals, digits) -> str:
    parts = [f"on [{_x_text(a, digits)}, {_x_text(b, digits)}]" for a, b in intervals]
    if points:
        parts.append("at p = " + ", ".join(_x_text(x, digits) for x in points))
    return "; ".join(parts) if parts else "nowhere"


def compare_report(k, game, channel_name, interval, digits: int, fmt: str, meta: dict | None = None) -> str:
    """Text or JSON (with the provenance record ``meta``) for a :class:`symbolic_noise.analysis.knowing.Knowing`."""
    informed = f"{k.strategy} vs {k.strategy if k.reading == 'both' else k.against}"
    base = f"{k.against} vs {k.against}"
    if fmt == "json":
        def num(x):
            return number_json(x, digits)

        def ext(value, points, intervals):
            return {"value": value.exact_str(), "value_decimal": value.decimal(digits),
                    "points": [num(x) for x in points], "intervals": [[num(a), num(b)] for a, b in intervals]}

        return dumps({
            "format": "symbolic-noise.knowing/1",
            **({"meta": meta} if meta is not None else {}),
            "game": {"name": game.name, "description": game.describe()},
            "channel": channel_name, "reading": k.reading, "informed": informed, "baseline": base,
            "pieces": [{"lo": num(pc.lo), "hi": num(pc.hi), "value": str(pc.formula)} for pc in k.delta.pieces()],
            "maximum": ext(k.maximum, k.argmax, k.argmax_intervals),
            "minimum": ext(k.minimum, k.argmin, k.argmin_intervals),
            "zeros": {"points": [num(x) for x in k.zeros], "intervals": [[num(a), num(b)] for a, b in k.zero_intervals]},
        })
    a, b = interval
    lines = [f"Delta(p) = N[{informed}] - N[{base}] for {game.describe()}, {channel_name} channel, p in [{a}, {b}]"]
    rows = [(f"[{_x_text(pc.lo, digits)}, {_x_text(pc.hi, digits)}]", pc.formula.text()) for pc in k.delta.pieces()]
    width = max(len(r[0]) for r in rows)
    lines += [f"  {r[0].ljust(width)}  Delta = {r[1]}" for r in rows]
    lines.append(f"maximum: {_value_text(k.maximum, digits)} {_where(k.argmax, k.argmax_intervals, digits)}")
    lines.append(f"minimum: {_value_text(k.minimum, digits)} {_where(k.argmin, k.argmin_intervals, digits)}")
    lines.append(f"zero: {_where(k.zeros, k.zero_intervals, digits)}")
    irrational = [x for x in (*k.argmax, *k.argmin, *k.zeros) if not x.is_rational]
    seen = []
    for x in irrational:
        if any(x.compare(y) == 0 for y in seen):
            continue
        seen.append(x)
        lo, hi = x.short_interval()
        lines.append(f"  {x.decimal(digits)} is the root of {poly_text(x.minpoly())} in [{lo}, {hi}]")
    return "\n".join(lines) + "\n"


def cmd_compare(args, game, channel, channel_from_spec, interval, start) -> str:
    """Run ``compare``: the report of :func:`~symbolic_noise.analysis.knowing.value_of_knowing` in the chosen format."""
    from ..analysis.knowing import value_of_knowing

    from ..games.provenance import record

    opponent = None if args.opponent_channel is None else channel_from_spec(args.opponent_channel, game)
    informed, against = _strategy(args.strategy, game), _strategy(args.against, game)  # each file read once
    k = value_of_knowing(
        game, channel, reading=args.reading, strategy=informed, against=against, opponent_channel=opponent,
        interval=interval, start=start, misere=args.misere,
    )
    name = channel.name if opponent is None else f"{channel.name} vs {opponent.name}"
    meta = record(game, channel, position=start, misere=args.misere, interval=interval, opponent=opponent,
                  method=f"value of knowing: N[{k.strategy} vs {k.strategy if k.reading == 'both' else k.against}]"
                         f" - N[{k.against} vs {k.against}], piecewise",
                  strategies=[informed, against])
    return compare_report(k, game, name, interval, args.digits, args.format, meta)
