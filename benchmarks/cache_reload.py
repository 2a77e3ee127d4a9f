"""Reloading a solved game from the cache against solving it, in one run.

    python benchmarks/cache_reload.py            # nim 64 (about 3.5 minutes)
    python benchmarks/cache_reload.py --k 32

Solves 1-pile Nim through the binary channel into a fresh SQLite cache, then
loads every position back (checksums only: the default) and, for reference,
with the full mathematical re-check (``--verify-cache``).  Goal (issue 8):
the reload costs at most 5% of the solve.
"""

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from symbolic_noise import Nim, solve  # noqa: E402
from symbolic_noise.solvers.cache import SolutionCache  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--skip-verify", action="store_true", help="do not time the full re-check")
    args = ap.parse_args()
    path = os.path.join(tempfile.mkdtemp(), "reload.sqlite")
    game = Nim(args.k)
    t0 = time.perf_counter()
    with SolutionCache(path, game, "binary") as store:
        first = solve(game, "binary", store=store)
    solve_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with SolutionCache(path, game, "binary") as store:
        again = solve(game, "binary", store=store)
        loaded = store.loaded
    reload_s = time.perf_counter() - t0
    assert loaded == args.k and again.value() == first.value()
    print(f"nim {args.k}: solve {solve_s:.1f} s; reload of {loaded} positions {reload_s:.2f} s "
          f"= {100 * reload_s / solve_s:.2f}% of the solve (goal <= 5%: {'met' if reload_s <= 0.05 * solve_s else 'NOT met'})")
    if not args.skip_verify:
        t0 = time.perf_counter()
        with SolutionCache(path, game, "binary", verify=True) as store:
            solve(game, "binary", store=store)
        verify_s = time.perf_counter() - t0
        print(f"reload with the full re-check (--verify-cache): {verify_s:.1f} s = {100 * verify_s / solve_s:.1f}% of the solve")


if __name__ == "__main__":
    main()
