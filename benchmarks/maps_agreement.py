"""Maps against the exact solver on the cases too heavy for the test suite.

For each case: the map of the start's optimal moves over [0, 1]
(``symbolic_noise.solvers.maps.build_map``) and the exact piecewise solve of
the same game, in the same process, then every check of
``tests/test_maps_agreement.py`` (``agreement_problems``: cover, changes,
proved sets at every exact piece, value enclosures, proof records; and
``unexplained``: undecided intervals no known limit explains).  Prints one
line per case; exit status 1 if any case disagrees.

    python benchmarks/maps_agreement.py
    python benchmarks/maps_agreement.py --case "nim 48 binary" --case "chomp 5x5 all" --case "nim 32 binary misere"

A case is ``GAME ARG CHANNEL`` with an optional ``misere``.  Times are
process CPU seconds (``time.process_time``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))

import symbolic_noise as sn  # noqa: E402
from symbolic_noise.games.channels import get_channel  # noqa: E402
from symbolic_noise.games.registry import game_from_spec  # noqa: E402
from symbolic_noise.solvers.maps import build_map  # noqa: E402
from symbolic_noise.solvers.maps.structure import Layout  # noqa: E402
from test_maps_agreement import agreement_problems, unexplained  # noqa: E402

CASES = [
    "nim 32 binary", "nim 48 binary", "nim 64 binary", "nim 32 binary misere",
    "chomp 5x5 king", "chomp 5x5 rook", "chomp 5x5 all", "chomp 5x5 chebyshev", "chomp 5x5 king misere",
    "kayles 10 binary", "kayles 9 binary misere", "lasker 7 binary", "0.137 12 binary",
    "subtraction:1,2,3 14 binary", "subtraction:2,5,7 20 binary", "nim 4,5 binary",
]


def run(case: str, budget: int) -> bool:
    words = case.split()
    name, arg, channel = words[:3]
    misere = words[3:] == ["misere"]
    game = game_from_spec(name, arg)
    t = time.process_time()
    m = build_map(game, channel, misere=misere, budget=budget)
    tm = time.process_time() - t
    t = time.process_time()
    f = sn.solve(game, channel, misere=misere).value()
    te = time.process_time() - t
    t = time.process_time()
    problems = agreement_problems(m, f)
    loose = unexplained(m, f, Layout(game, get_channel(channel), game.start()), budget)
    tc = time.process_time() - t
    kinds = {k: len(m.kinds(k)) for k in ("proved", "change", "undecided")}
    changes = sum(1 for j, _ in enumerate(f.points) if _changes_at(f, j))
    print(f"{case}: map {tm:.1f} s CPU ({m.stats['boxes']} boxes), exact {te:.1f} s, check {tc:.1f} s; "
          f"{kinds['proved']} proved / {kinds['change']} change / {kinds['undecided']} undecided; "
          f"{changes} exact changes, {len(f)} exact pieces; "
          f"{len(problems)} disagreements, {len(loose)} unexplained undecided", flush=True)
    for line in (problems + loose)[:10]:
        print(f"    {line[:300]}", flush=True)
    return not problems and not loose


def _changes_at(f, j) -> bool:
    at = f.point_labels[j]
    sides = [f.labels[j - 1] if j > 0 else None, f.labels[j] if j < len(f.labels) else None]
    return any(s is not None and s != at for s in sides)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", action="append", help='a case such as "nim 48 binary" (repeatable; default: the list above)')
    ap.add_argument("--budget", type=int, default=200_000, help="the map's box budget (default 200000, as the CLI)")
    args = ap.parse_args()
    ok = [run(case, args.budget) for case in (args.case or CASES)]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
