"""Benchmark: nim-sequences of octal games computed directly, and their periods proven.

Main figure: Dawson's Chess (0.137) from G(0) to G(100000), every value by mex
(no extrapolation by the periodicity theorem), then its period proven by the
theorem on those values.  Target: under 20 s on a 2-core machine.  Also: the
same for Kayles and for 0.127 (period 4 after a preperiod of 46578, Gangolli and
Plambeck), and the baseline ratio of the plain mex (``method="slow"``) over the
vectorised one at n = 3000.

Run: ``python benchmarks/octal_periodicity.py [N]`` (N defaults to 100000).
"""

from __future__ import annotations

import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise.games.classical import find_period, nim_sequence
from symbolic_noise.games.heapgames import heap_rules_from_spec


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def direct(code: str, n: int) -> dict:
    """G(0..n) afresh and the periodicity found on it, with timings."""
    rules = heap_rules_from_spec(code)
    values, t_seq = timed(lambda: nim_sequence(rules, n, cache=False))
    found, t_per = timed(lambda: find_period(values, max_removal=rules.max_removal, max_heaps=rules.max_heaps))
    return {"code": rules.code, "n": n, "seconds": t_seq, "period_seconds": t_per, "found": found, "max": max(values)}


def row(r: dict) -> str:
    f = r["found"]
    per = f"period {f.period} from {f.preperiod}, proven {f.proven} (theorem needs G up to {f.needed})" if f else "no period"
    return (
        f"{r['code']:>6}  n = {r['n']:>6}  sequence {r['seconds']:7.2f} s  "
        f"periodicity {r['period_seconds']:5.2f} s  max G = {r['max']:>2}  {per}"
    )


def main(argv) -> int:
    n = int(argv[1]) if len(argv) > 1 else 100_000
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}")
    print(f"nim-sequences computed directly to n = {n} (cache off):")
    results = [direct(code, n) for code in ("0.137", "0.77", "0.127")]
    for r in results:
        print("  " + row(r))
    main_figure = results[0]
    total = main_figure["seconds"] + main_figure["period_seconds"]
    ok = main_figure["found"] is not None and main_figure["found"].proven and total < 20
    print(f"main figure: 0.137 to {n} with its period proven in {total:.2f} s (target < 20 s): {'met' if ok else 'NOT met'}")

    base = 3000
    fast, t_fast = timed(lambda: nim_sequence("0.137", base, cache=False))
    slow, t_slow = timed(lambda: nim_sequence("0.137", base, method="slow"))
    assert fast == slow
    print(f"baseline at n = {base}: slow {t_slow:.3f} s, fast {t_fast:.3f} s, ratio {t_slow / t_fast:.1f}x (same values)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
