"""Benchmark: every octal code 0.d1d2d3 and 4.d1d2d3 to heap n, the rare-value
engine against the numpy reference.

For each of the 1,024 codes (digits 0-7; every one is a valid game: ``0.000``
has no moves, ``4.ddd`` may also split a heap without removing a chip) the
engine (:func:`symbolic_noise.games.rarevalue.rare_sequence`) computes
``G(0..n)``, every code, and its CPU seconds are summed.  The reference path
(:func:`symbolic_noise.games.classical.nim_sequence`, ``method="fast"``: numpy's
full scan of the splits, quadratic in ``n``) then runs on the codes in a fixed
spread order (code index ``i * 337 mod 1024``, so that a prefix samples all
digits and both prefixes) until ``--budget`` CPU seconds are spent, each
sequence compared with the engine's (any difference fails the run).  The
reference's full time is extrapolated from the mean of the codes it ran.

Run: ``python benchmarks/octal_all_codes.py [--n 100000] [--budget 1200]
[--engine-only]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

import numpy as np

from symbolic_noise.errors import SymbolicNoiseError
from symbolic_noise.games.classical import nim_sequence
from symbolic_noise.games.rarevalue import rare_sequence

STRIDE = 337  # coprime to 1024: i -> i * STRIDE mod 1024 is a permutation


def codes() -> list:
    return [f"{p}.{a}{b}{c}" for p in (0, 4) for a in range(8) for b in range(8) for c in range(8)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000, help="the largest heap")
    ap.add_argument("--budget", type=float, default=1200.0, help="CPU seconds for both paths together")
    ap.add_argument("--engine-only", action="store_true", help="leave out the reference path")
    args = ap.parse_args(argv)
    n = args.n
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores, {platform.machine()}; n = {n:,}")
    rare_sequence("0.77", 200)  # load the compiled kernels before timing
    all_codes = codes()
    order = [all_codes[(i * STRIDE) % len(all_codes)] for i in range(len(all_codes))]
    t_engine, t_ref, done, bad, skipped = {}, {}, [], [], []
    spent = 0.0
    for code in order:
        if spent >= args.budget:
            break
        t0 = time.process_time()
        try:
            engine = rare_sequence(code, n)
        except SymbolicNoiseError as exc:  # not a game the engine takes
            skipped.append((code, str(exc)))
            continue
        t1 = time.process_time()
        t_engine[code] = t1 - t0
        if not args.engine_only:
            values = nim_sequence(code, n, cache=False)
            t_ref[code] = time.process_time() - t1
            if values != engine:
                bad.append(code)
        spent = sum(t_engine.values()) + sum(t_ref.values())
        done.append(code)
        if len(done) % 32 == 0:
            print(f"  {len(done)} codes, engine {sum(t_engine.values()):.1f} s, reference {sum(t_ref.values()):.1f} s",
                  file=sys.stderr, flush=True)
    k, total = len(done), len(order) - len(skipped)
    for name, t in (("engine", t_engine), ("reference", t_ref)):
        if not t:
            continue
        s = sum(t.values())
        slow = sorted(t, key=t.get, reverse=True)[:5]
        print(f"{name}: {k} of {total} codes to n = {n:,} in {s:.1f} s CPU (mean {s / k:.3f} s, median {np.median(list(t.values())):.3f} s;"
              f" slowest {', '.join(f'{c} {t[c]:.2f} s' for c in slow)}); all {total} extrapolated: {s / k * total / 60:.0f} min")
    if t_ref:
        print(f"reference / engine on the same codes: {sum(t_ref.values()) / max(sum(t_engine.values()), 1e-9):.1f}x;"
              f" identical sequences: {k - len(bad)} of {k}" + (f"; DIFFERENT: {', '.join(bad)}" if bad else ""))
    for code, why in skipped:
        print(f"  skipped {code}: {why}")
    print(f"codes run ({k}, in this order): " + " ".join(done))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
