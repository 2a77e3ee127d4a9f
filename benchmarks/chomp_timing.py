"""Time the exact solve of Chomp boards through the king, rook and all-neighbour
channels (issue target: 3 x 4 under 60 s with each channel).

  python benchmarks/chomp_timing.py                    # 2x3, 3x3, 3x4, 4x4
  python benchmarks/chomp_timing.py --boards 2x3 3x5 --time-limit 600
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise import solve
from symbolic_noise.games.registry import game_from_spec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", nargs="+", default=["2x3", "3x3", "3x4", "4x4"])
    ap.add_argument("--channels", nargs="+", default=["king", "rook", "all"])
    args = ap.parse_args(argv)
    print(
        f"{'board':>6} {'channel':>7} {'positions':>9} {'seconds':>9} {'CPU s':>9} {'pieces':>6} {'breakpts':>8} "
        f"{'max deg':>7} {'peak MB':>8}"
    )
    for board in args.boards:
        game = game_from_spec("chomp", board)
        for ch in args.channels:
            t, c = time.perf_counter(), time.process_time()
            sol = solve(game, ch)
            dt, dc = time.perf_counter() - t, time.process_time() - c
            st = sol.stats()
            mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{board:>6} {ch:>7} {st['positions']:>9} {dt:>9.2f} {dc:>9.2f} {st['pieces']:>6} {st['breakpoints']:>8} "
                f"{st['max_degree']:>7} {mb:>8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
