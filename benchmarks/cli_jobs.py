"""The command line end to end, serially and with ``--jobs``: what a user waits for.

Runs ``python -m symbolic_noise solve GAME ARG --no-cache --quiet`` (the text
report by default) alternately without and with ``--jobs N``, in fresh
processes, and prints each run's wall seconds, the ratios, and whether the two
outputs are byte-identical.  The wall includes the interpreter's start-up, the
solve, the report (its breakpoints' minimal polynomials: found by the workers
with ``--jobs``, see :func:`symbolic_noise.solvers.schedules.offload.minimal_polynomials_on`)
and the exit; ``benchmarks/parallel_speedup.py`` measures the solve alone.

  python benchmarks/cli_jobs.py                          # nim 48, --jobs 2, 3 pairs
  python benchmarks/cli_jobs.py --game nim --arg 64 --repeat 2 --format json
  python benchmarks/cli_jobs.py --game chomp --arg 7x7 --channel all --format json --no-serial --repeat 1

``--no-serial`` runs only the ``--jobs`` command (issue 9, goal 3: Chomp 7 x 7
with ``--jobs 2`` under 10 minutes; its serial solve takes 20-40), and prints
its wall and CPU seconds (all processes), the largest process's peak memory,
and the SHA-256 of its output (compare runs of two versions).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
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
    ap.add_argument("--channel", default=None, help="the channel (default: the game's)")
    ap.add_argument("--no-serial", action="store_true", help="run only the --jobs command")
    args = ap.parse_args()
    base = [sys.executable, "-m", "symbolic_noise", "solve", args.game, args.arg, "--no-cache", "--quiet",
            "--format", args.format]
    if args.channel is not None:
        base += ["--channel", args.channel]
    if args.no_serial:
        print(f"{' '.join(base[2:])} --jobs {args.jobs}; load average at start {os.getloadavg()[0]:.1f}")
        for i in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t, out = _run(base + ["--jobs", str(args.jobs)])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            print(f"[{i + 1}] {t:.1f} s wall, {cpu:.0f} s CPU in all processes, largest process so far "
                  f"{after.ru_maxrss / 2**20:.2f} GB; output sha256 {hashlib.sha256(out).hexdigest()[:16]}", flush=True)
        print(f"load average now {os.getloadavg()[0]:.1f}")
        return 0
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
