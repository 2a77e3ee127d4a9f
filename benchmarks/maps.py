"""Certified maps against the exact solver: CPU time, boxes, agreement.

For each case: the map of the start's optimal moves over [0, 1]
(``symbolic_noise.solvers.maps.build_map``), and where ``--exact`` asks for it
the exact piecewise solve of the same game in the same run, with the check
that every exact change of the optimal set lies in exactly one of the map's
change intervals, with the same sets on either side.

    python benchmarks/maps.py nim:32 nim:64 chomp:5x5:king --exact nim:32 chomp:5x5:king

Cases are ``nim:K`` (binary channel) or ``chomp:RxC:CHANNEL``.  Times are
process CPU seconds (``time.process_time``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import symbolic_noise as sn  # noqa: E402
from symbolic_noise.games.registry import game_from_spec  # noqa: E402
from symbolic_noise.solvers.maps import build_map  # noqa: E402


def parse(case: str):
    parts = case.split(":")
    if parts[0] == "nim":
        return game_from_spec("nim", parts[1]), "binary"
    if parts[0] == "chomp":
        return game_from_spec("chomp", parts[1]), parts[2]
    raise SystemExit(f"unknown case {case!r}")


def exact_changes(f):
    out = []
    for j, x in enumerate(f.points):
        left = f.labels[j - 1] if j > 0 else None
        right = f.labels[j] if j < len(f.points) - 1 else None
        if any(s is not None and s != f.point_labels[j] for s in (left, right)):
            out.append((x, left, f.point_labels[j], right))
    return out


def agree(m, f) -> str:
    bad = 0
    changes = exact_changes(f)
    for x, left, at, right in changes:
        hits = [iv for iv in m.kinds("change") if x.compare(iv.lo) >= 0 and x.compare(iv.hi) <= 0]
        ok = len(hits) == 1 and hits[0].at == at and hits[0].left in (None, left) and hits[0].right in (None, right)
        bad += not ok
    return f"{len(changes) - bad}/{len(changes)} exact changes inside their change interval"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--exact", nargs="*", default=[], help="cases also solved exactly, for time and agreement")
    ap.add_argument("--budget", type=int, default=200_000)
    args = ap.parse_args()
    for case in args.cases:
        game, channel = parse(case)
        t = time.process_time()
        m = build_map(game, channel, budget=args.budget)
        tm = time.process_time() - t
        kinds = {k: len(m.kinds(k)) for k in ("proved", "change", "undecided")}
        line = (f"{case}: map {tm:.1f} s CPU, {m.stats['boxes']} boxes, {kinds['proved']} proved, "
                f"{kinds['change']} change, {kinds['undecided']} undecided")
        if case in args.exact:
            t = time.process_time()
            f = sn.solve(game, channel).value()
            te = time.process_time() - t
            line += f"; exact {te:.1f} s CPU ({te / tm:.2f}x the map); {agree(m, f)}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
