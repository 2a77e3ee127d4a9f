"""Fingerprints of exact solutions, to check that a change of the solver leaves
every result identical.

For every position of each solve it hashes the formulas (exact text of numerator
and denominator), the breakpoints (30 significant digits, certified), the
optimal-move set on every piece and at every breakpoint, and prints one SHA-256
per solve plus the CPU seconds it took.  Compare the output of two versions:

  python benchmarks/result_hashes.py > before.txt      # on the old commit
  python benchmarks/result_hashes.py > after.txt
  diff <(cut -d' ' -f1-2 before.txt) <(cut -d' ' -f1-2 after.txt)

  python benchmarks/result_hashes.py --nim 48 --chomp 4x4 5x5
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise import Nim, solve
from symbolic_noise.games import Chomp


def fingerprint(sol) -> str:
    h = hashlib.sha256()
    for v in sol.positions():
        f = sol.value(v)
        h.update(repr(v).encode())
        for x in f.points:
            h.update(x.decimal(30).encode() if hasattr(x, "decimal") else str(x).encode())
        for g in f.formulas:
            h.update(f"{g.num}/{g.den};".encode())
        for s in list(f.labels) + list(f.point_labels):
            h.update(repr(sorted(s, key=repr)).encode())
    return h.hexdigest()[:16]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nim", type=int, default=48, help="solve 1-pile Nim up to this heap (every k <= it is hashed)")
    ap.add_argument("--chomp", nargs="*", default=["4x4", "5x5"])
    ap.add_argument("--channels", nargs="*", default=["king", "rook", "all"])
    args = ap.parse_args(argv)
    jobs = [(f"nim{args.nim}", Nim(args.nim), "binary")]
    for board in args.chomp:
        r, c = map(int, board.split("x"))
        jobs += [(f"chomp{board}-{ch}", Chomp(r, c), ch) for ch in args.channels]
    for name, game, channel in jobs:
        t = time.process_time()
        sol = solve(game, channel)
        cpu = time.process_time() - t
        print(f"{name} {fingerprint(sol)} {cpu:.2f}s-cpu", flush=True)


if __name__ == "__main__":
    main()
