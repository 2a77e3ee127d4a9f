"""The command line end to end, serially and with ``--jobs``: what a user waits for.

Runs ``python -m symbolic_noise solve GAME ARG --no-cache --quiet`` (the text
report by default) alternately without and with ``--jobs N``, in fresh
processes, and prints each run's wall seconds, the ratios, and whether the two
outputs are byte-identical.  The wall includes the interpreter's start-up, the
solve, the report (its breakpoints' minimal polynomials: found by the workers
with ``--jobs``, see :func:`symbolic_noise.solvers.parallel.minimal_polynomials_on`)
and the exit; ``benchmarks/parallel_speedup.py`` measures the solve alone.

  python benchmarks/cli_jobs.py                          # nim 48, --jobs 2, 3 pairs
  python benchmarks/cli_jobs.py --game nim --arg 64 --repeat 2 --format json
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(cmd: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="nim")
    ap.add_argument("--arg", default="48", help="the game's parameter (default 48)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--format", default="text", choices=["text", "json", "latex"])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    base = [sys.executable, "-m", "symbolic_noise", "solve", args.game, args.arg, "--no-cache", "--quiet",
            "--format", args.format]
    print(f"{' '.join(base[2:])}: serial against --jobs {args.jobs}, load average at start {os.getloadavg()[0]:.1f}")
    ratios, same = [], True
    for i in range(args.repeat):
        t1, out1 = _run(base)
        t2, out2 = _run(base + ["--jobs", str(args.jobs)])
        ratios.append(t1 / t2)
        same = same and out1 == out2
        print(f"[{i + 1}] serial {t1:.2f} s, --jobs {args.jobs} {t2:.2f} s: {t1 / t2:.2f}x; identical: {out1 == out2}")
    print(f"median {statistics.median(ratios):.2f}x; load average now {os.getloadavg()[0]:.1f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
