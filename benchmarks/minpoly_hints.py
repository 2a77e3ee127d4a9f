"""Minimal polynomials of a solution's breakpoints, with and without
:class:`symbolic_noise.exact.algebraic.FactorHints` (what the text, JSON and
LaTeX reports print for every irrational breakpoint).

For each heap k, 1-pile Nim through the binary channel is solved once; then,
alternately in the same run, fresh copies of the root's irrational breakpoints
(their defining polynomials and isolating intervals, as the solver made them)
get their minimal polynomials by factoring each defining polynomial whole, and
with one ``FactorHints`` for all of them (known small factors divided out
first).  Prints the CPU seconds of both, their ratio, and checks that every
minimal polynomial is the same; then the CPU seconds of the whole text report
(``reports.solution_text``) on the solved breakpoints.

  python benchmarks/minpoly_hints.py                 # nim 48 and 64, 3 repetitions
  python benchmarks/minpoly_hints.py --k 32 48 64 96 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise import Nim, solve
from symbolic_noise.exact.algebraic import FactorHints, RealAlgebraic
from symbolic_noise.io import reports


def _copies(points) -> list[RealAlgebraic]:
    """Fresh irrational points with the same defining polynomials and intervals."""
    return [RealAlgebraic(x.poly, x.lo, x.hi, _trusted=True) for x in points if not x.is_rational]


def _timed(points, hints: FactorHints | None) -> tuple[float, list]:
    start = time.process_time()
    out = [x.minpoly(hints) for x in points]
    return time.process_time() - start, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, nargs="+", default=[48, 64], help="heaps (default 48 64)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for k in args.k:
        sol = solve(Nim(k), "binary")
        points = sol.value().points
        degrees = sorted(x.poly.degree() for x in points if not x.is_rational)
        plain, hinted, same = [], [], True
        for _ in range(args.repeat):
            t1, m1 = _timed(_copies(points), None)
            hints = FactorHints()
            t2, m2 = _timed(_copies(points), hints)
            plain.append(t1)
            hinted.append(t2)
            same = same and all(a == b for a, b in zip(m1, m2))
        start = time.process_time()
        reports.solution_text(sol)
        report = time.process_time() - start
        mp, mh = statistics.median(plain), statistics.median(hinted)
        print(
            f"nim {k}: {len(degrees)} irrational breakpoints (defining degree median {degrees[len(degrees) // 2]}, "
            f"max {degrees[-1]}); minimal polynomials {mp:.2f} s CPU whole, {mh:.2f} s with hints "
            f"({mp / mh:.2f}x; runs {', '.join(f'{a / b:.2f}' for a, b in zip(plain, hinted))}); "
            f"hints kept {len(hints)}, divided out {hints.divided}; identical: {same}; "
            f"text report {report:.2f} s CPU"
        )
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
