"""Where the CPU of a ``--jobs 2`` solve goes beyond the serial solve's.

Wall and CPU figures on this shared 2-core host move by 10-30 % from one
minute to the next, so this script measures what does not: how many times the
solver's costly steps run, in the serial solve and summed over the workers of
the p-ranges that steal work (``--split p``,
:mod:`symbolic_noise.solvers.schedules.stealing`), with their CPU seconds.
Equal counts mean the workers redo nothing; extra CPU beyond them is then the
host's (two busy processes run slower than one), the encoding of the values
handed back, a thief's cold start on its stolen range, and the positions'
set-up, which every worker does.

  python benchmarks/parallel_work.py               # nim 48, 2 workers
  python benchmarks/parallel_work.py --k 32 --jobs 3

With ``--alone CUT`` it also solves the ranges [0, CUT] and [CUT, 1] in two
processes, first one after the other and then at the same time, and prints
each one's CPU seconds: the host's cost of running two solves at once.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, _ROOT)  # this checkout, not an installed copy

from symbolic_noise import Nim, solve
from symbolic_noise.exact import polys
from symbolic_noise.solvers.schedules.stealing import solve_stealing
from symbolic_noise.solvers.piecewise import celldata, cells, decide, followers, position, spread

_COUNTS: collections.Counter = collections.Counter()
_SECONDS: collections.Counter = collections.Counter()


def _wrap(owner, name: str, label: str) -> None:
    original = getattr(owner, name)

    def counted(*args, **kwargs):
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            _COUNTS[label] += 1
            _SECONDS[label] += time.process_time() - start

    setattr(owner, name, counted)


def _instrument() -> None:
    """Count the steps (in this process and in workers forked from it)."""
    _wrap(cells, "_Cell", "new cells")
    _wrap(followers._Position, "__init__", "position set-ups")
    _wrap(position._PositionSolver, "_screen", "screens")
    _wrap(decide, "_roots_between", "D tests")
    _wrap(celldata, "_lcm_step", "lcm steps")
    _wrap(position._PositionSolver, "_numerator", "numerators")
    _wrap(spread, "_slope_on", "slope bounds")
    _wrap(polys, "bernstein_ratio_range", "Bernstein ranges")


def _taken():
    return dict(_COUNTS), dict(_SECONDS)


def _reset() -> None:
    # a module-level function: a bound method (``_COUNTS.clear``) would be
    # pickled with a copy of the counter and clear that copy
    _COUNTS.clear()
    _SECONDS.clear()


_ALONE = r"""
import sys, time
from flint import fmpq
from symbolic_noise import Nim
from symbolic_noise.games.channels import get_channel
from symbolic_noise.solvers.schedules.ranges import RangeWorker
game = Nim(int(sys.argv[1]))
worker = RangeWorker(game, get_channel("binary"), fmpq(sys.argv[2]), fmpq(sys.argv[3]))
t = time.process_time()
for v in game.positions(game.start()):
    worker.solve_position(v)
print(time.process_time() - t)
"""


def _ranges(k: int, cut: str, together: bool) -> list[float]:
    cmds = [[sys.executable, "-c", _ALONE, str(k), lo, hi] for lo, hi in (("0", cut), (cut, "1"))]
    # the children import this checkout (``-c`` puts their working directory first)
    env = dict(os.environ, PYTHONPATH=_ROOT)
    if together:
        procs = [subprocess.Popen(c, stdout=subprocess.PIPE, text=True, cwd=_ROOT, env=env) for c in cmds]
        return [float(p.communicate()[0]) for p in procs]
    return [float(subprocess.run(c, stdout=subprocess.PIPE, text=True, check=True, cwd=_ROOT, env=env).stdout) for c in cmds]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=48, help="1-pile Nim heap (default 48)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--alone", metavar="CUT", help="also time [0, CUT] and [CUT, 1] apart and together")
    args = ap.parse_args()
    _instrument()
    game = Nim(args.k)
    print(f"nim {args.k} binary, {args.jobs} workers (p-ranges that steal work), load average {os.getloadavg()[0]:.1f}")
    start = time.process_time()
    serial = solve(game, "binary")
    serial_cpu = time.process_time() - start
    counts, seconds = _taken()

    pools = [ProcessPoolExecutor(1) for _ in range(args.jobs)]  # forked: the counters come along
    try:
        for pool in pools:
            pool.submit(_reset).result()
        stats: dict = {}
        par = solve_stealing(game, "binary", executors=pools, stats=stats)
        parts = [pool.submit(_taken).result() for pool in pools]
    finally:
        for pool in pools:
            pool.shutdown()
    if any(par.value(v) != serial.value(v) for v in serial.positions()):
        raise SystemExit("the parallel result differs from the serial one")
    work = sum(stats["cpu"])
    print(f"serial {serial_cpu:.1f} s CPU; workers {work:.1f} s CPU in all ({work / serial_cpu:.2f}x), "
          f"{stats.get('steals', 0)} steals; results identical")
    print(f"{'step':18} {'serial':>9} {'workers':>9} {'ratio':>6}   {'serial s':>9} {'workers s':>9}")
    for label in counts:
        n = sum(c.get(label, 0) for c, _ in parts)
        s = sum(t.get(label, 0.0) for _, t in parts)
        print(f"{label:18} {counts[label]:9d} {n:9d} {n / counts[label]:6.2f}   {seconds[label]:9.2f} {s:9.2f}")
    if args.alone:
        apart = _ranges(args.k, args.alone, together=False)
        together = _ranges(args.k, args.alone, together=True)
        print(f"[0, {args.alone}] and [{args.alone}, 1]: one after the other {apart[0]:.2f} + {apart[1]:.2f} s CPU; "
              f"at the same time {together[0]:.2f} + {together[1]:.2f} s CPU ({sum(together) / sum(apart):.2f}x)")


if __name__ == "__main__":
    main()
