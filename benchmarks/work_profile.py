"""Where in p the work of a 1-pile Nim solve lies (issue 9, goal 4).

A p-range split of the solve (``--split p``: :mod:`symbolic_noise.solvers.schedules.ranges`)
is only as fast as its slowest range, so it depends on where the CPU seconds of
the solve fall in p.  This script solves every position on [0, 1] in one
:class:`~symbolic_noise.solvers.schedules.ranges.RangeWorker` (the serial solver's
code) and records, piece by piece, where the sweep spent its CPU seconds.  It
prints:

* the share of the work at or below a few values of p, and the narrowest
  windows holding a fifth and a half of it;
* the *ideal cut* of two ranges that run apart: the weighted median of the
  work of the whole solve, and the one of the positions after the first
  half (a cut chosen while the solve runs can only see the past);
* per position (every ``--every``-th), its CPU seconds and its own median:
  how the work moves as the heaps grow;
* how far the shares move when the cut misses the ideal one by 0.001-0.005.

With ``--cut C`` it also solves [0, C] and [C, 1] one after the other, each in
a fresh RangeWorker, and prints their CPU seconds against the whole solve's:
the cost of the cut itself, and the speed-up two workers running apart could
reach with that cut (the larger side against the whole; the values' hand-back
and the driver excluded).

  python benchmarks/work_profile.py                 # nim 48
  python benchmarks/work_profile.py --k 64 --every 8
  python benchmarks/work_profile.py --k 48 --cut 0.805
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from flint import fmpq  # noqa: E402

from symbolic_noise import Nim  # noqa: E402
from symbolic_noise.games.channels import get_channel  # noqa: E402
from symbolic_noise.solvers.schedules.ranges import RangeWorker  # noqa: E402


def profile(k: int, channel: str, lo: fmpq, hi: fmpq) -> tuple[float, list]:
    """Solve heaps 0..k on [lo, hi]: the CPU seconds and, per position, its
    ``[(p, seconds)]`` (one entry per piece solved; p a float, for printing
    and sorting only)."""
    worker = RangeWorker(Nim(k), get_channel(channel), lo, hi)
    out = []
    start = time.process_time()
    for v in range(k + 1):
        worker.solve_position(v)
        out.append([(float(x), s) for x, s in worker.take_profile()])
    return time.process_time() - start, out


def quantile(atoms: list, share: float) -> float:
    """The p with ``share`` of the weight of ``atoms`` ``[(p, w)]`` at or below it."""
    atoms = sorted(atoms)
    total = sum(w for _, w in atoms)
    acc = 0.0
    for x, w in atoms:
        acc += w
        if acc >= share * total:
            return x
    return atoms[-1][0] if atoms else 0.5


def below(atoms: list, c: float) -> float:
    total = sum(w for _, w in atoms)
    return sum(w for x, w in atoms if x <= c) / total if total else 0.0


def narrowest(atoms: list, share: float) -> tuple[float, float]:
    """The narrowest window [x_i, x_j] of atoms holding ``share`` of the weight."""
    atoms = sorted(atoms)
    total = sum(w for _, w in atoms)
    best, j, acc = (0.0, 1.0), 0, 0.0
    for i in range(len(atoms)):
        while j < len(atoms) and acc < share * total:
            acc += atoms[j][1]
            j += 1
        if acc >= share * total and atoms[j - 1][0] - atoms[i][0] < best[1] - best[0]:
            best = (atoms[i][0], atoms[j - 1][0])
        acc -= atoms[i][1]
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=48, help="the largest heap (default 48)")
    ap.add_argument("--channel", default="binary")
    ap.add_argument("--every", type=int, default=6, help="print every n-th position's line (default 6)")
    ap.add_argument("--cut", type=float, help="also solve [0, CUT] and [CUT, 1] apart and compare")
    args = ap.parse_args(argv)
    k = args.k

    cpu, per = profile(k, args.channel, fmpq(0), fmpq(1))
    atoms = [a for position in per for a in position]
    later = [a for position in per[k // 2 + 1 :] for a in position]
    print(f"nim {k} {args.channel}: {cpu:.2f} s CPU on [0, 1], {len(atoms)} pieces recorded "
          f"({sum(w for _, w in atoms):.2f} s of it)")
    marks = (0.5, 0.7, 0.75, 0.78, 0.79, 0.8, 0.805, 0.81, 0.82, 0.85, 0.9)
    print("  share of the work at p <= " + ", ".join(f"{c}: {below(atoms, c):.3f}" for c in marks))
    for share in (0.2, 0.5):
        a, b = narrowest(atoms, share)
        print(f"  the narrowest window with {share:.0%} of the work: [{a:.4f}, {b:.4f}] (width {b - a:.4f})")
    ideal, ideal_late = quantile(atoms, 0.5), quantile(later, 0.5)
    print(f"  ideal cut (median of all the work): {ideal:.4f}; of the positions above {k // 2}: {ideal_late:.4f}")
    for miss in (0.001, 0.002, 0.005):
        print(f"  a cut {miss} below / above it leaves {1 - below(atoms, ideal - miss):.3f} / "
              f"{1 - below(atoms, ideal + miss):.3f} of the work above the cut")
    print("  position: CPU seconds, its own median p")
    for v in range(0, k + 1, max(1, args.every)):
        if per[v]:
            print(f"    {v:4d}: {sum(w for _, w in per[v]):7.3f} s, median {quantile(per[v], 0.5):.4f}")
    if args.cut is not None:
        c = fmpq(round(args.cut * 2**20), 2**20)
        left, _ = profile(k, args.channel, fmpq(0), c)
        right, _ = profile(k, args.channel, c, fmpq(1))
        print(f"  cut at {float(c):.6f}: [0, cut] {left:.2f} s + [cut, 1] {right:.2f} s = {left + right:.2f} s "
              f"({(left + right) / cpu:.3f}x the whole); two workers apart: {cpu / max(left, right):.2f}x at best")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
