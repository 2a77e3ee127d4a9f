"""Certified first-move maps of square Chomp boards and 1-pile Nim, and what they show.

  python scripts/map_results.py                       # every case below (hours)
  python scripts/map_results.py --only chomp:8x8      # the cases whose name contains a word
  python scripts/map_results.py --only nim --summary /tmp/nim.json   # a run beside another one
  python scripts/map_results.py --merge /tmp/nim.json                  # its cases into summary.json

For each case, the map of the start's optimal moves over [0, 1]
(``symbolic-noise map GAME ARG --channel C``, change intervals at most 2^-40
wide) is written to ``results/maps/<game>_<arg>_<channel>.json`` (the map's
JSON, with its provenance), and ``results/maps/summary.json`` collects, per
case, the CPU time, the boxes, whether the map is complete, and the sequence
of optimal first moves from p = 0 to p = 1 with the exact change points where
the engine identified them (decimal enclosures otherwise).  Everything in a
complete map is proved; ``observations`` in the summary are patterns read
across cases (how the optimal first move of an n x n board changes with p as n
grows), which are observed, not proved, beyond the boards listed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.io.mapreport import map_json
from symbolic_noise.io.reports import dumps
from symbolic_noise.solvers.maps import build_map

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "results", "maps")

CASES = ([("chomp", f"{n}x{n}", ch) for ch in ("king", "rook", "all", "chebyshev") for n in range(2, 9)]
         + [("nim", str(k), "binary") for k in (8, 16, 32, 64, 96, 128, 192, 256)])


def _name(game, arg, channel) -> str:
    return f"{game}_{arg}_{channel}"


def _sequence(doc: dict) -> list:
    """The optimal first moves from p = 0 to 1: proved sets and the changes between them."""
    out = []
    for iv in doc["intervals"]:
        span = [iv["lo_decimal"], iv["hi_decimal"]]
        if iv["kind"] == "proved":
            out.append({"on": span, "optimal": iv["optimal"]})
        elif iv["kind"] == "change":
            out.append({"change_in": span, "exactly_at": iv.get("point"), "at": iv["at"]})
        else:
            out.append({"undecided": span})
    return out


def run_case(game_name, arg, channel, budget) -> dict:
    game = game_from_spec(game_name, arg)
    t = time.process_time()
    m = build_map(game, channel, budget=budget)
    cpu = time.process_time() - t
    doc = map_json(m)
    with open(os.path.join(OUT, _name(game_name, arg, channel) + ".json"), "w") as fh:
        fh.write(dumps(doc))
    return {"case": _name(game_name, arg, channel), "cpu_seconds": round(cpu, 1), "boxes": m.stats["boxes"],
            "complete": m.complete, "first_moves": _sequence(doc)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="only the cases whose name contains this word")
    ap.add_argument("--budget", type=int, default=400_000)
    ap.add_argument("--summary", default=os.path.join(OUT, "summary.json"), help="the summary file (default %(default)s)")
    ap.add_argument("--merge", metavar="FILE", help="only add the cases of another summary file to the summary")
    args = ap.parse_args(argv)
    os.makedirs(OUT, exist_ok=True)
    path = args.summary
    summary = _read(path)
    if args.merge:
        summary.update(_read(args.merge))
        _write(path, summary)
        return 0
    for g, a, ch in CASES:
        name = _name(g, a, ch)
        if args.only and args.only not in f"{g}:{a}:{ch}":
            continue
        summary[name] = run_case(g, a, ch, args.budget)
        print(f"{name}: {summary[name]['cpu_seconds']} s CPU, {summary[name]['boxes']} boxes, "
              f"complete {summary[name]['complete']}", file=sys.stderr, flush=True)
        _write(path, summary)
    _write(path, summary)
    return 0


def _read(path) -> dict:
    if not os.path.exists(path):
        return {}
    with open(path) as fh:
        return {r["case"]: r for r in json.load(fh)["cases"]}


def _write(path, summary) -> None:
    order = {_name(*c): k for k, c in enumerate(CASES)}
    rows = sorted(summary.values(), key=lambda r: order.get(r["case"], len(order)))
    with open(path, "w") as fh:
        fh.write(dumps({"format": "symbolic-noise.map-summary/1",
                        "command": "python scripts/map_results.py", "cases": rows}))


if __name__ == "__main__":
    sys.exit(main())
