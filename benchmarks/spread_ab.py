"""CPU seconds of solves with and without the mean-value spread bounds
(:mod:`symbolic_noise.solvers.spread`), alternately in one run.

``old`` turns the mean-value bound off (every spread is the exact Bernstein
bound, as before it existed); ``new`` is the solver as it is.  Each solve runs
in a fresh interpreter with no cache; the script prints every run's CPU
seconds, the screens that left more than one move, and the ratio of the best
of each (on a shared machine only such same-run ratios are steady).

  python benchmarks/spread_ab.py nim56 --reps 2
  python benchmarks/spread_ab.py nim40 nim64 chomp4x5-king
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = r"""
import sys, time
from symbolic_noise.games import Chomp
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.solvers import solver, spread
case, mode = sys.argv[1], sys.argv[2]
if mode == "old":
    spread.SlopeBounds.spread = lambda self, *args: None
screens = [0, 0]
screen = solver._PositionSolver._screen
def counted(self, cell):
    out = screen(self, cell)
    screens[0] += 1
    screens[1] += len(out) > 1
    return out
solver._PositionSolver._screen = counted
if case.startswith("nim"):
    game, channel = Nim(int(case[3:])), "binary"
else:
    board, channel = case[5:].split("-")
    game = Chomp(*map(int, board.split("x")))
t = time.process_time()
solver.solve(game, channel)
print(time.process_time() - t, screens[0], screens[1])
"""


def run(case: str, mode: str) -> tuple[float, int, int]:
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("SYMBOLIC_NOISE_CACHE", None)
    out = subprocess.run([sys.executable, "-c", CHILD, case, mode], env=env, capture_output=True, text=True, check=True)
    cpu, screens, several = out.stdout.split()
    return float(cpu), int(screens), int(several)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="+", help="nimK or chompRxC-CHANNEL")
    ap.add_argument("--reps", type=int, default=1)
    args = ap.parse_args(argv)
    for case in args.cases:
        res: dict = {"old": [], "new": []}
        for _ in range(args.reps):
            for mode in ("old", "new"):
                res[mode].append(run(case, mode))
        cpu = {m: [r[0] for r in rs] for m, rs in res.items()}
        several = {m: rs[0][2] for m, rs in res.items()}
        print(
            f"{case}: old {' '.join(f'{x:.2f}' for x in cpu['old'])} s CPU; new {' '.join(f'{x:.2f}' for x in cpu['new'])} s CPU; "
            f"screens leaving several moves {several['old']} / {several['new']} of {res['new'][0][1]}; "
            f"speed-up (best of each) {min(cpu['old']) / min(cpu['new']):.2f}x",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
