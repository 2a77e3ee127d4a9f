"""Reloading a solved game from the cache against solving it, in one run.

    python benchmarks/cache_reload.py            # nim 64 (about 3.5 minutes)
    python benchmarks/cache_reload.py --k 32
    python benchmarks/cache_reload.py --chomp 6x6 --channel king --skip-verify

Solves 1-pile Nim through the binary channel (or a Chomp board) into a fresh
SQLite cache, then loads every position back (checksums only: the default)
and, for reference, with the full mathematical re-check (``--verify-cache``).
Goal (issue 8): the reload costs at most 5% of the solve.

It also times what the command line does with a cache that holds the start
position: the text report of a solution read on demand
(:func:`symbolic_noise.solvers.storage.stored.stored_solution`, which loads the start
position's entry alone), against the same report after loading every
position, and checks that the two reports are equal.
"""

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from symbolic_noise import Chomp, Nim, solve  # noqa: E402
from symbolic_noise.io.reports import solution_text  # noqa: E402
from symbolic_noise.solvers.storage.cache import SolutionCache  # noqa: E402
from symbolic_noise.solvers.storage.stored import stored_solution  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--chomp", metavar="RxC", help="a Chomp board instead of Nim")
    ap.add_argument("--channel", help="default: binary for Nim, king for Chomp")
    ap.add_argument("--skip-verify", action="store_true", help="do not time the full re-check")
    args = ap.parse_args()
    path = os.path.join(tempfile.mkdtemp(), "reload.sqlite")
    if args.chomp:
        r, c = (int(x) for x in args.chomp.split("x"))
        game, channel, name = Chomp(r, c), args.channel or "king", f"chomp {args.chomp}"
    else:
        game, channel, name = Nim(args.k), args.channel or "binary", f"nim {args.k}"
    t0 = time.perf_counter()
    with SolutionCache(path, game, channel) as store:
        first = solve(game, channel, store=store)
    solve_s = time.perf_counter() - t0
    stored = sum(1 for v in first.positions() if game.followers(v))
    t0 = time.perf_counter()
    with SolutionCache(path, game, channel) as store:
        again = solve(game, channel, store=store)
        loaded = store.loaded
    reload_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    eager_text = solution_text(again)
    eager_s = reload_s + time.perf_counter() - t0
    assert loaded <= stored and again.value() == first.value()
    print(f"{name} {channel}: solve {solve_s:.1f} s; reload of {loaded} positions {reload_s:.2f} s "
          f"= {100 * reload_s / solve_s:.2f}% of the solve (goal <= 5%: {'met' if reload_s <= 0.05 * solve_s else 'NOT met'})")
    t0 = time.perf_counter()
    with SolutionCache(path, game, channel) as store:
        lazy = stored_solution(game, channel, (0, 1), store)
        lazy_text = solution_text(lazy)
        read = store.loaded
    lazy_s = time.perf_counter() - t0
    assert lazy_text == eager_text
    print(f"the text report: {eager_s:.2f} s after loading every position, {lazy_s:.2f} s read on demand "
          f"(as the command line does: {read} entry loaded), {eager_s / lazy_s:.1f}x faster; the reports are equal")
    if not args.skip_verify:
        t0 = time.perf_counter()
        with SolutionCache(path, game, channel, verify=True) as store:
            solve(game, channel, store=store)
        verify_s = time.perf_counter() - t0
        print(f"reload with the full re-check (--verify-cache): {verify_s:.1f} s = {100 * verify_s / solve_s:.1f}% of the solve")


if __name__ == "__main__":
    main()
