"""Benchmark: periods of octal games at record scale, proved by the rare-value engine.

For each game of ``tests/data/octal_periods.json`` (tczajka/octal-games'
solved list, and the Winning Ways classics) the engine
(:func:`symbolic_noise.games.rarevalue.prove_period`) runs until the
periodicity theorem holds; the table shows its CPU seconds beside the published
preperiod and period, and whether the proved ones are equal.  Where the heap
the theorem needs is at most ``--reference-upto`` the reference path (numpy's
full scan of splits, ``nim_sequence``) is timed too and its values compared.
With ``--cxx BINARY`` (tczajka/octal-games' ``old/src/analyze_exec.cc`` built
with ``g++ -O2``; not part of this repository) the record program is timed on
the same game in the same run (child CPU seconds).

Goals: .16 and .56 under 1 s each; .354 under 30 s; .376 under 150 s.

Also ``--numpy-heaps N``: the same rare/common algorithm written with numpy
array operations per heap (no compiler), timed on .16 and .56 to heap N, and the
compiled engine to the same heap: the measurement behind the choice of numba.

Run: ``python benchmarks/octal_records.py [--quick] [--cxx /tmp/octalrec/analyze]
[--reference-upto 20000] [--numpy-heaps 20000] [--games 0.16,0.56] [--markdown]``.
``--markdown`` prints the table once more at the end as Markdown (docs/records.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

import numpy as np

from symbolic_noise.games.classical import nim_sequence
from symbolic_noise.games.rarevalue import moves_of, prove_period, rare_sequence

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data", "octal_periods.json")
GOALS = {"0.16": 1.0, "0.56": 1.0, "0.354": 30.0, "0.376": 150.0}
BIG = ("0.376", "0.354")


def published() -> list:
    doc = json.load(open(DATA))
    return doc["classic"] + doc["solved"]


def cpu(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def child_cpu(argv) -> tuple:
    """Run a program; its output and the CPU seconds of the child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, capture_output=True, text=True, check=False).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cxx_period(binary: str, code: str) -> tuple:
    out, seconds = child_cpu([binary, code[1:] if code.startswith("0.") else code])
    for line in out.splitlines():
        if line.startswith("Found period"):
            parts = dict(w.split("=") for w in line.split()[2:])
            return (int(parts["start"]), int(parts["period"])), seconds
    return None, seconds


def numpy_rare(code: str, n: int) -> list:
    """G(0..n) by the rare/common split with numpy array operations per heap
    (the mask chosen by the same Walsh–Hadamard rule): the uncompiled baseline."""
    m = moves_of(code)
    rpb = m.position_parity
    G = np.zeros(n + 1, dtype=np.int64)
    bits, counts = 0, np.zeros(2, dtype=np.int64)
    split = np.array(m.split, dtype=np.int64)

    def choose(k):
        h = counts.copy()
        step = 1
        while step < h.size:  # Walsh–Hadamard, vectorised per level
            h = h.reshape(-1, 2, step)
            h = np.stack([h[:, 0] + h[:, 1], h[:, 0] - h[:, 1]], axis=1).reshape(-1)
            step *= 2
        vals = (h + k) >> 1
        if rpb == 2:
            vals[1::2] = k + 1
        vals[0] = k
        best = int(np.argmin(vals))  # the first least: 0 (every heap rare) on a tie, as in the engine
        mask, pos = best >> 1, best & 1
        v = np.arange(1 << bits)
        par = np.zeros(v.size, dtype=np.int64)
        x = v & mask
        while x.any():
            par ^= x & 1
            x >>= 1
        idx = np.arange(k)
        flips = pos * ((idx ^ rpb) & 1)
        rare = idx[par[G[:k]] == flips]
        return par, pos, rare[rare >= 1]

    par, pos, rare = choose(0)
    for k in range(n + 1):
        flip = pos * ((k ^ rpb) & 1)
        seen = np.zeros((1 << bits) + 1, dtype=bool)
        for w in m.whole:
            if w == k:
                seen[0] = True
        for t in m.take:
            if t < k:
                seen[G[k - t]] = True
        for s in split:
            r = rare[rare + s < k]
            r2 = k - s - r
            if not m.equal_ok:
                r = r[r != r2]
                r2 = k - s - r
            seen[G[r] ^ G[r2]] = True
        free = ~seen[: 1 << bits]
        common = np.flatnonzero(free & (par != flip))
        cand = int(common[0]) if common.size else 1 << bits
        missing = np.flatnonzero(free[:cand] & (par[:cand] == flip))
        if missing.size:
            for s in split:
                a = np.arange(1, (k - s) // 2 + 1)
                if not m.equal_ok:
                    a = a[a != k - s - a]
                seen[G[a] ^ G[k - s - a]] = True
            missing = np.flatnonzero(~seen[:cand] & (par[:cand] == flip))
        g = int(missing[0]) if missing.size else cand
        G[k] = g
        grew = g >= 1 << bits
        if grew:
            bits += 1
            counts = np.concatenate([counts, np.zeros_like(counts)])
        counts[(g << 1) | ((k ^ rpb) & 1)] += 1
        if missing.size or grew:  # a rare value, or a wider table: choose the mask afresh
            par, pos, rare = choose(k + 1)
    return G.tolist()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", help="comma-separated codes (default: every game of the data file)")
    ap.add_argument("--quick", action="store_true", help=f"leave out {', '.join(BIG)}")
    ap.add_argument("--cxx", help="the record program (tczajka/octal-games old/src/analyze_exec.cc, g++ -O2)")
    ap.add_argument("--reference-upto", type=int, default=20000, help="time the numpy reference path where the theorem needs at most this heap")
    ap.add_argument("--numpy-heaps", type=int, default=0, help="time the numpy rare/common variant on .16 and .56 to this heap")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown at the end")
    args = ap.parse_args(argv)

    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores, {platform.machine()}")
    rare_sequence("0.77", 200)  # load the compiled kernels before timing
    games = published()
    if args.games:
        want = [c if c.startswith(("0.", "4.")) else "0" + c for c in args.games.split(",")]
        games = [g for g in games if g["game"] in want] + [{"game": c} for c in want if c not in {g["game"] for g in games}]
    if args.quick:
        games = [g for g in games if g["game"] not in BIG]
    header = f"{'game':>7} {'published':>21} {'proved':>21} {'equal':>5} {'heaps':>11} {'rare':>5} {'engine s':>9} {'goal':>6} {'C++ s':>8} {'ref s':>8}"
    print(header)
    failures = 0
    rows = []
    for g in games:
        code = g["game"]
        run, t_engine = cpu(lambda: prove_period(code, max_heap=1 << 27))
        per = run.periodicity
        pub = (g.get("preperiod"), g.get("period"))
        equal = pub == (per.preperiod, per.period) if pub[0] is not None else None
        goal = GOALS.get(code)
        cxx = "-"
        if args.cxx:
            found, t_cxx = cxx_period(args.cxx, code)
            cxx = f"{t_cxx:.2f}" + ("" if found == (per.preperiod, per.period) else "!")
        ref = "-"
        if per.needed <= args.reference_upto:
            values, t_ref = cpu(lambda: nim_sequence(code, per.needed, cache=False))
            ref = f"{t_ref:.2f}" + ("" if list(values) == run.values[: per.needed + 1].tolist() else "!")
        failures += equal is False
        rows.append((code, pub, (per.preperiod, per.period), equal, run.heaps, run.rare_count, t_engine, cxx, g.get("first_solved_by")))
        shown_pub = f"{pub[0]:,}/{pub[1]:,}" if pub[0] is not None else "-"
        print(
            f"{code:>7} {shown_pub:>21} {f'{per.preperiod:,}/{per.period:,}':>21} {str(equal):>5} {run.heaps:>11,} {run.rare_count:>5}"
            f" {t_engine:>9.2f} {('-' if goal is None else ('met' if t_engine < goal else 'MISSED')):>6} {cxx:>8} {ref:>8}",
            flush=True,
        )
    if args.numpy_heaps:
        n = args.numpy_heaps
        for code in ("0.16", "0.56"):
            values, t_np = cpu(lambda: numpy_rare(code, n))
            compiled, t_nb = cpu(lambda: rare_sequence(code, n))
            same = values == list(compiled)
            print(f"{code}: G(0..{n:,}) numpy rare/common {t_np:.2f} s, numba {t_nb:.3f} s, ratio {t_np / max(t_nb, 1e-6):.0f}x, same values: {same}")
    if args.markdown:
        print()
        print("| game | published preperiod / period | proved preperiod / period | equal | heaps computed | rare values | engine CPU s | C++ CPU s |")
        print("|---|---:|---:|:---:|---:|---:|---:|---:|")
        for code, pub, got, equal, heaps, rare, t, cxx, _ in rows:
            shown = f"{pub[0]:,} / {pub[1]:,}" if pub[0] is not None else "-"
            mark = "-" if equal is None else ("yes" if equal else "**no**")
            print(f"| {code} | {shown} | {got[0]:,} / {got[1]:,} | {mark} | {heaps:,} | {rare} | {t:.2f} | {cxx} |")
    print("published = preperiod/period of tests/data/octal_periods.json; '!' = a different result from the engine's")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
