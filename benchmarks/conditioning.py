"""How ill-conditioned the solver's D tests are in the monomial basis (issue 9, goals 1-2).

A D test decides the sign of ``D = A_b Q_c - A_c Q_b`` on a cell (the solver's
``_roots_between``): two moves' values cross where D vanishes.  The solver
keeps D in the monomial basis over Z and decides by an exact Taylor shift to
the cell (``polys.bernstein_test``), on integers of thousands of bits, because
a ball evaluation cannot: this script records every ``--every``-th D test of a
1-pile Nim solve and prints, for each,

* its degree and the bits of its largest coefficient;
* log2 of its largest Bernstein coefficient on [0, 1] (exact, from the
  monomial coefficients) and log2 of max |D| over 401 points of [0, 1] (ball
  evaluation at the coefficients' precision plus 200 bits): the Bernstein
  basis, p^i (1-p)^(n-i), is as well conditioned as it can be when these two
  agree;
* log2 |D'| at the cell's middle and log2 of the upper end of a ball Horner
  evaluation of D' over the whole cell (the overestimate a first-order ball
  test would pay), and log2 of the cell's half-width.

  python benchmarks/conditioning.py                 # nim 40, every 200th D test
  python benchmarks/conditioning.py --k 64 --every 2000
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from fractions import Fraction
from math import comb

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from flint import arb, ctx, fmpq  # noqa: E402

from symbolic_noise import Nim, solve  # noqa: E402
from symbolic_noise.exact import polys  # noqa: E402
from symbolic_noise.solvers.piecewise import decide  # noqa: E402 (where the D tests call it)


def record(k: int, every: int) -> list:
    """Every ``every``-th D test of the solve of nim k: ``(D, lo, hi)`` (the cell's dyadic hull)."""
    original, seen, out = decide._roots_between, [0], []

    def recorded(D, x, y, lo, hi):
        seen[0] += 1
        if seen[0] % every == 0:
            out.append((D, lo, hi))
        return original(D, x, y, lo, hi)

    decide._roots_between = recorded
    try:
        solve(Nim(k), "binary")
    finally:
        decide._roots_between = original
    return out


def log2(x) -> float:
    x = abs(float(x))
    return math.log2(x) if x > 0 else float("-inf")


def bernstein_max(D) -> Fraction:
    """The largest |Bernstein coefficient| of D on [0, 1], exactly: the scaled
    Bernstein coefficients of :func:`polys._scaled_bernstein` (index j is
    Bernstein coefficient d - j times its binomial; no other factor on [0, 1])."""
    d = D.degree()
    scaled = polys._scaled_bernstein(D, fmpq(0), fmpq(1), d)
    return max(abs(Fraction(int(c), comb(d, j))) for j, c in enumerate(scaled))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=40, help="the largest heap (default 40)")
    ap.add_argument("--every", type=int, default=200, help="record every n-th D test (default 200)")
    args = ap.parse_args(argv)
    tests = record(args.k, args.every)
    print(f"nim {args.k}: {len(tests)} D tests recorded")
    print("  degree  coef bits  log2 max|Bernstein|  log2 max|D| on [0,1]  log2|D'(mid)|  log2 ball D' on cell  log2 half-width")
    for D, lo, hi in tests:
        mid, rad = (lo + hi) / 2, (hi - lo) / 2
        with ctx.workprec(D.height_bits() + 200):
            top = max(abs(D(arb(fmpq(i, 400)))).upper() for i in range(401))
            d1 = D.derivative()
            at_mid = d1(arb(mid))
            on_cell = abs(d1(arb(mid, rad))).upper()
        print(f"  {D.degree():6d}  {D.height_bits():9d}  {log2(bernstein_max(D)):19.1f}  {log2(top):20.1f}  "
              f"{log2(at_mid.mid()):13.1f}  {log2(on_cell):20.1f}  {log2(rad):15.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
