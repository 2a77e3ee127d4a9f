"""Scaling of the exact solver on 1-pile Nim through the binary channel.

Solves k = 1, 2, ..., reusing the positions already solved (each k is one new
position on top of the previous solve), and prints one line per k: wall
seconds for that k, cumulative seconds, pieces and breakpoints of N_k, the
optimal-move breakpoints among them, the largest formula degree, and the peak
memory of the process.  The last line gives the total.

  python benchmarks/nim_scaling.py                  # k = 1..12 (issue 2's target: < 30 s)
  python benchmarks/nim_scaling.py --kmax 32        # k = 1..32 (target: < 120 s)
  python benchmarks/nim_scaling.py --kmax 64 --time-limit 600
  python benchmarks/nim_scaling.py --kmax 10 --baseline   # also time benchmarks/baseline_sympy.py, print the ratio
  python benchmarks/nim_scaling.py --kmax 128 --budget 256 # the followers' budget at 256 MB (default 1024; inf: never reached)
  python benchmarks/nim_scaling.py --kmax 96 --values-budget 0   # pack every finished value (default: past 512 MB)
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise import Nim, solve  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def optimal_breakpoints(f) -> int:
    """Breakpoints where the optimal set changes (or is larger at the point)."""
    n = 0
    for j in range(1, len(f.points) - 1):
        if f.labels[j - 1] != f.labels[j] or f.point_labels[j] != f.labels[j]:
            n += 1
    return n


def run(kmax: int, time_limit: float | None):
    print(f"{'k':>3} {'seconds':>9} {'cumul.':>9} {'pieces':>6} {'breakpts':>8} {'opt.bp':>6} {'degree':>6} {'peak MB':>8}")
    prev = None
    total = 0.0
    cpu0 = time.process_time()
    reached = 0
    sols = {}
    for k in range(1, kmax + 1):
        t = time.perf_counter()
        sol = solve(Nim(k), "binary", known=prev)
        dt = time.perf_counter() - t
        total += dt
        f = sol.value()
        deg = max(g.degree for g in f.formulas)
        print(
            f"{k:>3} {dt:>9.3f} {total:>9.2f} {len(f.formulas):>6} {len(f.breakpoints):>8} "
            f"{optimal_breakpoints(f):>6} {deg:>6} {peak_mb():>8.0f}",
            flush=True,
        )
        prev = sol
        sols[k] = sol
        reached = k
        if time_limit is not None and total > time_limit:
            break
    cpu = time.process_time() - cpu0
    print(f"total: k = 1..{reached} in {total:.2f} s wall ({cpu:.2f} s CPU), peak memory {peak_mb():.0f} MB")
    return sols, total


def baseline(sols, kmax: int):
    from baseline_sympy import solve_baseline
    import sympy as sp

    kb = min(kmax, 10)
    t = time.perf_counter()
    ref = solve_baseline(kb)
    tb = time.perf_counter() - t
    # ours, from scratch, in the same run
    t = time.perf_counter()
    ours = solve(Nim(kb), "binary")
    to = time.perf_counter() - t
    # the two agree: same optimal moves and values on every piece
    for k in range(1, kb + 1):
        f = ours.value(k)
        for lo, hi, formula, best in ref[k]:
            mid = sp.Rational(str(sp.N((lo + hi) / 2, 30)))
            assert best in f.label_at(str(mid)), (k, mid)
            assert sp.Rational(str(f(str(mid)))) == formula.subs(sp.Symbol("p"), mid), (k, mid)
    print(
        f"baseline (benchmarks/baseline_sympy.py) k = 1..{kb}: {tb:.2f} s; symbolic_noise from scratch: {to:.3f} s; "
        f"ratio {tb / to:.0f}x (results agree)"
    )


def _budget(text: str) -> float:
    """``--budget``: megabytes (a number >= 0) or ``inf``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of MB or inf: {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"a budget must be >= 0 MB: {text!r}")
    return value


def set_values_budget(mb: float) -> None:
    """``--values-budget``: packing.VALUES_BUDGET (past it, finished values are packed)."""
    from symbolic_noise.solvers.storage import packing

    packing.VALUES_BUDGET = mb * 2**20
    print(f"values' budget: {mb:g} MB" if mb < float("inf") else "values' budget: none (nothing packed)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kmax", type=int, default=12)
    ap.add_argument("--time-limit", type=float, default=None, help="stop after the k that passes this many seconds")
    ap.add_argument("--baseline", action="store_true", help="also time the SymPy reference implementation (k <= 10)")
    ap.add_argument("--budget", type=_budget, default=None,
                    help="the solver's FOLLOWERS_BUDGET in MB, or inf (default: the solver's, 1024 MB)")
    ap.add_argument("--values-budget", type=_budget, default=None,
                    help="packing.VALUES_BUDGET in MB (0: pack every value; inf: none), default the solver's, 512 MB")
    args = ap.parse_args(argv)
    if args.budget is not None:
        from symbolic_noise.solvers.piecewise import cells

        cells.FOLLOWERS_BUDGET = args.budget * 2**20
        print(f"followers' budget: {args.budget:g} MB" if args.budget < float("inf") else "followers' budget: none", flush=True)
    if args.values_budget is not None:
        set_values_budget(args.values_budget)
    sols, _ = run(args.kmax, args.time_limit)
    if args.baseline:
        baseline(sols, args.kmax)


if __name__ == "__main__":
    main()
