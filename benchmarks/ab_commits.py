"""CPU seconds of the same solve under two versions of the package, run
alternately in one session (on a shared machine only such ratios are steady).

The base version is exported from git (``git archive COMMIT symbolic_noise``)
into a temporary directory; the other is this checkout.  Each solve runs in a
fresh interpreter, with no cache, and reports its own CPU time.

  python benchmarks/ab_commits.py --base a85c6ca nim48
  python benchmarks/ab_commits.py --base a85c6ca --reps 2 nim40 chomp5x5-king
  python benchmarks/ab_commits.py --base a85c6ca nim32-tremble    # another channel (binary by default)

``--base spread-off`` runs this checkout as the base with the mean-value spread
bounds (:mod:`symbolic_noise.solvers.piecewise.spread`) turned off, so that every spread
is the exact Bernstein bound: the A/B of that change alone.

  python benchmarks/ab_commits.py --base spread-off nim40 nim56 nim64 chomp4x5-king

A case ``nimK@C`` (C a rational cut, e.g. ``nim48@27/32``) solves nim K as two
lockstep range workers on [0, C] and [C, 1], one after the other in one
process, and reports the sum of their CPU seconds: what a fixed 2-way split
costs (compare with ``nimK``, the whole range in one solve).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import os, sys, time
from symbolic_noise import Nim, solve
from symbolic_noise.games import Chomp
if os.environ.get("AB_SPREAD_OFF"):
    from symbolic_noise.solvers.piecewise import spread
    spread.SlopeBounds.spread = lambda self, *args: None
case = sys.argv[1]
cut = None
if "@" in case:
    case, cut = case.split("@")
if case.startswith("nim"):
    k, _, channel = case[3:].partition("-")
    game, channel = Nim(int(k)), channel or "binary"
else:
    board, channel = case[5:].split("-")
    game = Chomp(*map(int, board.split("x")))
t = time.process_time()
if cut is None:
    solve(game, channel)
else:
    from flint import fmpq
    from symbolic_noise.games.channels import get_channel
    from symbolic_noise.solvers.schedules.ranges import RangeWorker
    c = fmpq(cut)
    for lo, hi in ((fmpq(0), c), (c, fmpq(1))):
        worker = RangeWorker(game, get_channel(channel), lo, hi)
        for v in game.positions(game.start()):
            worker.solve_position(v)
import symbolic_noise
print(os.path.realpath(os.path.dirname(os.path.dirname(symbolic_noise.__file__))), time.process_time() - t)
"""


def cpu_seconds(path: str, case: str, spread_off: bool = False) -> float:
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("SYMBOLIC_NOISE_CACHE", None)
    if spread_off:
        env["AB_SPREAD_OFF"] = "1"
    # run in ``path``: ``python -c`` puts the working directory first on
    # sys.path, before PYTHONPATH, so a child started in this checkout would
    # import this checkout whatever the base (every --base COMMIT figure made
    # from the repository root before 2026-11-24 compared this checkout with itself)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, case], env=env, cwd=path, capture_output=True, text=True, check=True
    )
    version = out.stdout.split()
    if version[0] != os.path.realpath(path):
        raise RuntimeError(f"the child imported symbolic_noise from {version[0]}, not from {path}")
    return float(version[1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="+", help="nimK, nimK@CUT or chompRxC-CHANNEL")
    ap.add_argument("--base", required=True, help="git commit of the base version, or spread-off (see above)")
    ap.add_argument("--reps", type=int, default=1)
    args = ap.parse_args(argv)
    spread_off = args.base == "spread-off"
    with tempfile.TemporaryDirectory() as tmp:
        if not spread_off:
            archive = subprocess.run(["git", "-C", ROOT, "archive", args.base, "symbolic_noise"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        for case in args.cases:
            base, new = [], []
            for _ in range(args.reps):
                base.append(cpu_seconds(ROOT if spread_off else tmp, case, spread_off))
                new.append(cpu_seconds(ROOT, case))
            b, n = min(base), min(new)
            print(
                f"{case}: base {args.base} {' '.join(f'{x:.2f}' for x in base)} s CPU; "
                f"this checkout {' '.join(f'{x:.2f}' for x in new)} s CPU; speed-up (best of each) {b / n:.2f}x",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
