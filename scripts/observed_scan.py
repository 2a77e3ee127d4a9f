"""Observations (not proofs) for 1-pile Nim through the binary channel, k <= 256,
from exact values at a grid of rational p (symbolic_noise.solvers.onepoint.fastpoint, exact).

  python scripts/observed_scan.py --K 256 --grid 1000

* fairness: for every k, the largest grid point where |2N_k - 1| >= 1/100, then
  bisection with exact evaluations between it and the next grid point: an
  *observed* p0(k) (it assumes the condition does not fail between grid points
  above it; the certified enclosures are in results/certificates/hybrid_fairness_k*.json).
* Conjecture 10 for k = 128 and 256: at every grid point p >= 1/2, is k - 1 an
  optimal move and N_k >= 1/2?

Writes results/observed_nim256.json.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from flint import fmpq

from symbolic_noise.solvers.onepoint.fastpoint import point_solve
from symbolic_noise.games import Nim

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EPS = fmpq(1, 100)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--K", type=int, default=256)
    ap.add_argument("--grid", type=int, default=1000)
    ap.add_argument("--bisect", type=int, default=30)
    args = ap.parse_args(argv)
    t0 = time.process_time()
    K, n = args.K, args.grid
    grid = [fmpq(i, n) for i in range(n + 1)]
    last_fail = {k: None for k in range(1, K + 1)}
    for p in grid:
        vals = point_solve(Nim(K), "binary", p, all_positions=True)
        for k in range(1, K + 1):
            if abs(2 * vals[k].value - 1) >= EPS:
                last_fail[k] = p
    fair = []
    for k in range(1, K + 1):
        q = last_fail[k]
        if q == 1:
            fair.append({"k": k, "exists": False})
            continue
        if q is None:
            fair.append({"k": k, "exists": True, "p0_observed": "0"})
            continue
        lo, hi = q, q + fmpq(1, n)
        for _ in range(args.bisect):
            m = (lo + hi) / 2
            if abs(2 * point_solve(Nim(k), "binary", m).value - 1) >= EPS:
                lo = m
            else:
                hi = m
        fair.append({"k": k, "exists": True, "p0_observed": f"{float(lo):.10f}"})
    conj10 = {}
    for k in (128, 256):
        if k > K:
            continue
        bad_move, bad_half = [], []
        for p in grid:
            r = point_solve(Nim(k), "binary", p)
            if r.value < fmpq(1, 2):
                bad_half.append(str(p))
            if p >= fmpq(1, 2) and (k - 1) not in r.optimal:
                bad_move.append([str(p), sorted(r.optimal)])
        conj10[str(k)] = {"N_below_half_at": bad_half, "k-1_not_optimal_at": bad_move[:50],
                          "k-1_not_optimal_count": len(bad_move)}
    out = {
        "status": "observed, not proved: exact values at the grid points i/%d only" % n,
        "K": K, "grid": n, "eps": "1/100", "fairness": fair, "conjecture10": conj10,
        "cpu_seconds": round(time.process_time() - t0, 1),
    }
    with open(os.path.join(ROOT, "results", "observed_nim256.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(f"done in {out['cpu_seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
