"""``check --method map`` and ``verify`` of a map certificate: the command line
of :mod:`symbolic_noise.analysis.mapcert`.

>>> from symbolic_noise.io.cli import main
>>> main(["check", "nim", "5", "optimal 3 on [3/5, 3/4]", "--method", "map"])
N(p) for 1-pile Nim, k = 5, binary channel, p in [3/5, 3/4]
holds   optimal 3 on [3/5, 3/4]  (proved from a certified map: 4 units, 4 class)
0
"""

from __future__ import annotations

import json
import sys

from . import readers, reports
from .cli_map import _budget
from ..errors import SymbolicNoiseError, VerificationError
from ..games.registry import game_from_spec

#: largest map certificate read by ``verify`` (units are capped too)
MAX_MAP_CERTIFICATE_CHARS = 64 * 2**20
#: the exit status of a statement the map does not decide
NOT_PROVED = 3


def add_check_options(c) -> None:
    """The options of ``check`` that choose and tune the map method."""
    c.add_argument("--method", choices=("exact", "map"), default="exact",
                   help="exact (default): solve N(p) exactly and check the statement on its formulas; map: prove it"
                        " from a certified map of the statement's interval (any game and channel, far beyond the exact"
                        " solver; exit status 3 when the map does not decide it; docs/maps.md)")
    c.add_argument("--width", default="2^-30", metavar="W",
                   help="with --method map: the largest width of a change interval (default 2^-30)")
    c.add_argument("--budget", type=_budget, default=200_000, metavar="N",
                   help="with --method map: most boxes of p the map encloses (default 200000)")


def _count(units) -> str:
    kinds: dict = {}
    for u in units:
        kinds[u[0]] = kinds.get(u[0], 0) + 1
    names = {"onesided": "one-sided"}
    parts = ", ".join(f"{n} {names.get(k, k)}" for k, n in kinds.items())
    return f"{len(units)} unit{'' if len(units) == 1 else 's'}, {parts}"


def run_check(args, channel_of, emit) -> int:
    """``check GAME PARAM STATEMENT --method map``: 0 if the statement is
    proved, 1 if it fails (an exact counterexample), 3 if the map does not
    decide it; ``--out`` writes the certificate of a decided statement."""
    from ..analysis.mapcert import map_check, map_certificate_document

    if args.interval:
        raise SymbolicNoiseError("--method map maps the statement's own interval: leave out --interval")
    game = game_from_spec(args.game, args.param)
    channel = channel_of(args, game)
    position = None if args.position is None else game.parse_position(args.position)
    cert = map_check(game, channel, args.target[2], position, misere=args.misere, width=args.width, budget=args.budget)
    st = cert.statement
    lines = [reports.title(cert)]
    if cert.verdict == "holds":
        lines.append(f"holds   {st.text()}  (proved from a certified map: {_count(cert.units)})")
    elif cert.verdict == "fails":
        from ..solvers.onepoint.fastpoint import point_solve

        p = cert.counterexample
        ans = point_solve(game, channel, p, start=cert.start, misere=args.misere)
        lines.append(f"FAILS   {st.text()}  at p = {p}: N = {_short(ans.value)}, optimal: {reports.moves_text(ans.optimal)}"
                     " (exact evaluation)")
    else:
        lines.append(f"NOT PROVED   {st.text()}: {cert.reason}")
    emit("\n".join(lines) + "\n", args)
    if args.out:
        if cert.verdict is None:
            sys.stderr.write("no certificate written: the map does not decide the statement\n")
        else:
            readers.write_text(args.out, document_text(map_certificate_document(cert)))
    return {"holds": 0, "fails": 1}.get(cert.verdict, NOT_PROVED)


def _short(q) -> str:
    """An exact rational, as a 20-digit decimal (rounded down) when its denominator is long."""
    if q.q <= 10**6:
        return str(q)
    n = (q * 10**20).floor()
    return f"{n // 10**20}.{int(n % 10**20):020d}..."


def document_text(document: dict) -> str:
    """A map certificate as compact JSON text, one line per unit."""
    head = {k: v for k, v in document.items() if k != "units"}
    units = ",\n".join(json.dumps(u, separators=(",", ":")) for u in document["units"])
    return json.dumps(head, separators=(",", ":"))[:-1] + ',"units":[\n' + units + "\n]}\n"


def verify_file(data: dict, path: str, size: int, max_seconds=None) -> int:
    """``verify`` of a map certificate: 0 when every claim is re-proved, 1 (REJECTED, one line) otherwise."""
    from ..analysis.mapcert import verify_map_document

    name = readers.shown(path)
    if size > MAX_MAP_CERTIFICATE_CHARS:
        raise VerificationError(f"the map certificate {name} has more than the cap of {MAX_MAP_CERTIFICATE_CHARS} characters")
    try:
        claims = verify_map_document(data, max_seconds=max_seconds)
    except VerificationError as exc:
        sys.stdout.write(f"REJECTED {name}: {readers.shown(' '.join(str(exc).split()))[:400]}\n")
        return 1
    g = data["game"]
    n = len(data["units"])
    for c in claims:
        sys.stdout.write(f"verified: {c.statement.text()} {c.verdict} at position {c.position!r} of {g['family']} "
                         f"{g['param']} (map certificate: {n} unit{'' if n == 1 else 's'} re-proved)\n")
    return 0


__all__ = ["NOT_PROVED", "add_check_options", "document_text", "run_check", "verify_file"]
