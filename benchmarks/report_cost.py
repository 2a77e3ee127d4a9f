"""What each report format costs beside the solve it reports.

For each format, in a fresh interpreter (spawned: no value or breakpoint
refined by an earlier report), solves 1-pile Nim through the binary channel
and then writes the report as the command line does, and prints both CPU
times and the report's share of the solve:

* ``text``, ``json``, ``latex``, ``summary``: ``symbolic-noise solve nim K --format F``;
* ``csv``: ``symbolic-noise table nim K`` (step 0.01, the provenance header and the rows).

The report's time includes everything after the solve: minimal polynomials
of the breakpoints, their root indices, decimals, formulas as text, JSON
encoding.  ``--root`` runs another checkout's code (an A/B in one run:
alternate the two with ``--repeat``).

  python benchmarks/report_cost.py                         # nim 64, every format
  python benchmarks/report_cost.py --k 32 --formats json,text
  python benchmarks/report_cost.py --root /path/to/old/checkout --repeat 2
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMATS = ("text", "json", "latex", "summary", "csv")


def report_text(sol, fmt: str, digits: int = 15) -> str:
    """The report ``fmt`` of ``sol`` as the command line writes it."""
    from symbolic_noise.io import reports

    if fmt == "json":
        return reports.dumps(reports.solution_json(sol, digits=digits))
    if fmt == "latex":
        return reports.solution_latex(sol, digits=digits) + "\n"
    if fmt == "summary":
        return reports.solution_summary(sol, digits=digits) + "\n"
    if fmt == "text":
        return reports.solution_text(sol, digits=digits) + "\n"
    rows = reports.table_rows(sol, reports.grid("0.01", *sol.interval))
    return reports.comment_header(reports.provenance(sol)) + reports.table_csv(sol, rows, 2, digits, method="exact")


def solve_and_report(root: str, k: int, fmt: str) -> tuple[float, float, str]:
    """In this (fresh) process: CPU seconds of the solve and of the report, and the report's SHA-256."""
    sys.path.insert(0, root)
    from symbolic_noise import Nim, solve

    c = time.process_time()
    sol = solve(Nim(k), "binary")
    solved = time.process_time() - c
    c = time.process_time()
    text = report_text(sol, fmt)
    return solved, time.process_time() - c, hashlib.sha256(text.encode()).hexdigest()[:16]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=64, help="heap size (default 64)")
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated, default all: " + ",".join(FORMATS))
    parser.add_argument("--root", action="append", help="a checkout whose code to time (default this one; give it twice for an A/B)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each format (and root), alternating")
    args = parser.parse_args(argv)
    roots = args.root or [ROOT]
    spawn = multiprocessing.get_context("spawn")
    for rep in range(args.repeat):
        for fmt in args.formats.split(","):
            for root in (roots if rep % 2 == 0 else roots[::-1]):
                with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
                    solved, report, sha = pool.submit(solve_and_report, root, args.k, fmt).result()
                print(f"nim {args.k} {fmt:8s} solve {solved:7.2f} s CPU, report {report:6.2f} s CPU = "
                      f"{100 * report / solved:5.1f} % of the solve  (sha256 {sha}; {root})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
