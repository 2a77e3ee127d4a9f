"""Speed-up of ``--jobs N`` against the serial solve (the target: at least 1.7x with 2 jobs on nim 48).

In one run, alternately: the serial solve, the parallel solve ``--jobs``
runs (``--split auto``: split by positions for wide games such as Chomp,
:mod:`symbolic_noise.solvers.schedules.positionsplit`; by p-ranges that run apart and
steal work for chains such as 1-pile Nim, :mod:`symbolic_noise.solvers.schedules.stealing`).
(The earlier lockstep p-ranges and fixed sub-interval solves, which this script
also timed, were removed from the package in version 0.2; benchmarks/HISTORY.md
keeps their figures.)  Prints for each its wall seconds until the
solution is returned (for ``--jobs``, also with the worker processes' exit
added: freeing their heaps takes a few tenths of a second, which the serial
solve spends at its own process's exit, outside its figure), and checks that
every result is identical to the serial one (every position's formulas,
breakpoints and optimal sets).

Wall-clock speed-up needs idle cores; the machine is shared, so the script also
prints each solve's *critical path*.  For the ranges that run apart it is the
largest worker's CPU seconds.  ``serial CPU / critical path`` is the speed-up
the schedule gives on idle cores (hand-over, joining and start-up costs
excluded; the wall figure includes them), and it does not depend on the load.
For the split by positions the critical path is the longest chain of positions
weighted by their tasks' CPU seconds, and the script prints the workers' and
the driver's CPU seconds, how many values travelled between workers and how
long a worker waited for a task.

  python benchmarks/parallel_speedup.py                 # nim 48, 2 jobs, 1 repetition
  python benchmarks/parallel_speedup.py --k 48 --repeat 5
  python benchmarks/parallel_speedup.py --chomp 5x6 --channel king            # split by positions
  python benchmarks/parallel_speedup.py --chomp 5x6 --channel king --split p  # the p-ranges
  python benchmarks/parallel_speedup.py --k 40 --contention   # what 2 busy cores cost each other
  python benchmarks/parallel_speedup.py --k 64 --steals       # what each steal cost, how it split the rest

Each run's worker processes are started (forked) before its serial solve,
from a process that holds no solution, as the command line's ``--jobs``
starts them before it solves anything (until 2026-11-26 they were forked
after the serial solve, from a process holding its solution, which cost
them a few per cent of CPU).

``--contention`` measures the ceiling the hardware sets: the same serial solve
alone, then ``--jobs`` copies of it at once in separate processes; each copy's
CPU seconds over the lone solve's is the slowdown that running side by side
costs (shared caches and memory bandwidth, or hyperthreads), which no
schedule can win back.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.solvers.schedules.positionsplit import prefer_positions, solve_by_positions
from symbolic_noise.solvers.schedules.stealing import solve_stealing


def _pools(n):
    pools = [ProcessPoolExecutor(1, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)) for _ in range(n)]
    for p in pools:  # start the processes (and their imports) before the clock
        p.submit(os.getpid).result()
    return pools


def _timed(parallel, game, channel, jobs: int, stats: dict, pools=None):
    """``parallel(game, channel, executors=..., stats=stats)`` on ``jobs`` fresh
    worker processes (``pools``, started by :func:`_pools`, or started here):
    the solution, wall seconds and the driver's CPU seconds until it is
    returned; ``stats["shutdown"]`` gets the wall seconds the workers then take
    to exit (freeing their heaps, which the serial solve does at its process's
    exit, outside its figure)."""
    pools = _pools(jobs) if pools is None else pools
    t, c = time.perf_counter(), time.process_time()
    try:
        sol = parallel(game, channel, executors=pools, stats=stats)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
    finally:
        down = time.perf_counter()
        for p in pools:
            p.shutdown()
        stats["shutdown"] = time.perf_counter() - down
    return sol, wall, cpu


def _cpu_of_solve(game, channel) -> float:
    c = time.process_time()
    solve(game, channel)
    return time.process_time() - c


def contention(game, channel, jobs: int, repeat: int) -> None:
    for rep in range(repeat):
        with ProcessPoolExecutor(1) as pool:
            alone = pool.submit(_cpu_of_solve, game, channel).result()
        pools = _pools(jobs)
        try:
            together = [f.result() for f in [p.submit(_cpu_of_solve, game, channel) for p in pools]]
        finally:
            for p in pools:
                p.shutdown()
        print(
            f"[{rep + 1}] alone {alone:.2f} s CPU; {jobs} at once "
            + ", ".join(f"{t:.2f}" for t in together)
            + f" s CPU each: {sum(together) / len(together) / alone:.2f}x the lone solve's CPU"
        )


def steals(stats: dict) -> list[str]:
    """What each steal cost and how it split the rest, from ``solve_stealing``'s
    ``stats``: ``stolen`` names the thief, the victim and the position, ``tasks``
    (worker, position index, CPU s, sent, back) their CPU seconds."""
    by: dict = {}
    for w, i, cpu, sent, back in stats["tasks"]:
        by.setdefault(w, []).append((i, cpu, sent))
    lines = []
    for thief, victim, i, share in stats.get("stolen", []):
        # the thief's tasks from its first one on position i (its cold start) on;
        # the victim's from its task on position i on
        t = next(k for k in range(len(by[thief]) - 1, -1, -1) if by[thief][k][0] == i)
        v = next(k for k, (j, *_) in enumerate(by[victim]) if j == i)
        mine, theirs = by[thief][t:], by[victim][v:]
        after_t, after_v = sum(c for _, c, _ in mine[1:]), sum(c for _, c, _ in theirs[1:])
        warm = mine[1][1] if len(mine) > 1 else float("nan")
        lines.append(
            f"    steal at {mine[0][2]:.2f} s, position {i}: the victim's {theirs[0][1]:.2f} s CPU on its whole range; "
            f"the thief's cold first {mine[0][1]:.2f} s, its next {warm:.2f} s; after it the thief {after_t:.2f} s "
            f"and the victim {after_v:.2f} s of CPU ({after_t / max(after_t + after_v, 1e-9):.2f} to the thief, "
            f"{share:.2f} meant)"
        )
    return lines


def identical(a, b) -> bool:
    return all(
        a.value(v) == b.value(v) and a.value(v).labels == b.value(v).labels
        and a.value(v).point_labels == b.value(v).point_labels
        for v in a.positions()
    ) and a.positions() == b.positions()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=48, help="1-pile Nim heap (default 48)")
    ap.add_argument("--chomp", metavar="RxC", help="a Chomp board instead of Nim")
    ap.add_argument("--channel", default=None, help="channel (default binary for Nim, king for Chomp)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--split", choices=("auto", "positions", "p"), default="auto", help="as solve --split (default auto)")
    ap.add_argument("--contention", action="store_true", help="only: one serial solve alone, then --jobs copies at once")
    ap.add_argument("--steals", action="store_true", help="with --split p: what each steal cost and how it split the rest")
    args = ap.parse_args()
    if args.chomp:
        r, c = (int(x) for x in args.chomp.lower().split("x"))
        game, channel, name = Chomp(r, c), args.channel or "king", f"chomp {args.chomp} {args.channel or 'king'}"
    else:
        game, channel, name = Nim(args.k), args.channel or "binary", f"nim {args.k} {args.channel or 'binary'}"
    split = args.split
    if split == "auto":
        split = "positions" if prefer_positions(game, game.positions(), args.jobs) else "p"
    print(f"{name}, --jobs {args.jobs} --split {split}, load average at start {os.getloadavg()[0]:.1f}")
    if args.contention:
        contention(game, channel, args.jobs, args.repeat)
        return
    for rep in range(args.repeat):
        serial = par = None  # (the last run's solutions are dropped before the workers fork)
        gc.collect()
        # the workers are started before the serial solve, as ``--jobs`` starts
        # them before it solves anything.  Forked from this process while it
        # held a solved nim 48, they used more CPU: a /tmp A/B on 2026-11-26
        # (10:50-11:02 UTC, ten pairs, alternately) gave the workers 12.28-12.74 s
        # of CPU in all (median 12.64 s) and the solve a median wall of 6.92 s
        # forked late, against 11.76-12.76 s (median 12.20 s) and 6.59 s forked
        # first
        pools = _pools(args.jobs)
        t, c = time.perf_counter(), time.process_time()
        serial = solve(game, channel)
        s_wall, s_cpu = time.perf_counter() - t, time.process_time() - c

        stats: dict = {}
        par, l_wall, l_master = _timed(solve_by_positions if split == "positions" else solve_stealing,
                                       game, channel, args.jobs, stats, pools)
        same = identical(serial, par)
        if split == "positions":
            cost = {task[1][0]: task[2] for task in stats["tasks"]}
            path: dict = {}
            for v in game.positions():
                path[v] = cost.get(v, 0.0) + max((path[u] for u in game.followers(v)), default=0.0)
            crit = path[game.start()]
            per = [sum(task[2] for task in stats["tasks"] if task[0] == i) for i in range(args.jobs)]
            print(
                f"[{rep + 1}] serial {s_wall:.1f} s wall ({s_cpu:.1f} s CPU) | by positions {l_wall:.1f} s wall: "
                f"speed-up {s_wall / l_wall:.2f}x wall ({s_wall / (l_wall + stats['shutdown']):.2f}x with the "
                f"workers' exit, {stats['shutdown']:.2f} s); workers " + " + ".join(f"{x:.1f}" for x in per)
                + f" = {sum(per):.1f} s CPU ({sum(per) / s_cpu:.2f}x the serial CPU), driver {l_master:.1f} s CPU, "
                f"{len(stats['tasks'])} tasks, {stats['shipped']} values shipped, idle "
                + "/".join(f"{x:.1f}" for x in stats["idle"])
                + f" s; critical path {crit:.1f} s CPU; identical: {same}"
            )
        else:
            per = stats["cpu"]
            print(
                f"[{rep + 1}] serial {s_wall:.1f} s wall ({s_cpu:.1f} s CPU) | p-ranges apart {l_wall:.1f} s wall: "
                f"speed-up {s_wall / l_wall:.2f}x wall ({s_wall / (l_wall + stats['shutdown']):.2f}x with the "
                f"workers' exit, {stats['shutdown']:.2f} s); workers " + " + ".join(f"{x:.1f}" for x in per)
                + f" = {sum(per):.1f} s CPU ({sum(per) / s_cpu:.2f}x the serial CPU), driver {l_master:.1f} s CPU, "
                f"{stats.get('steals', 0)} steals, last results at " + "/".join(f"{x:.1f}" for x in stats["ends"])
                + f" s; serial CPU / critical path {s_cpu / max(per):.2f}x; identical: {same}"
            )
            if args.steals:
                print("\n".join(steals(stats)))
        if not same:
            raise SystemExit("the parallel result differs from the serial one")
        print(f"    load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
