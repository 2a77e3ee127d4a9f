"""Benchmark: the rare-value engine for a bounded time on games beyond the
records (observations, not proofs).

For each game the engine (:mod:`symbolic_noise.games.rarevalue`'s kernels, no
period search) computes ``G(0), G(1), ...`` in chunks until ``--seconds`` CPU
seconds or ``--max-heap``; after every chunk it prints the heap reached, the
CPU seconds, the rate of that chunk in heaps per second, the rare count, the
rare mask (``+p``: the heap's parity is part of the split), the largest value
so far, the bytes a heap of the value array takes, the process's resident
memory, and the heaps whose mex needed a scan of the splits with the splits
those scans looked at (both cumulative).  Nothing here is a period: Grundy's game is outside every periodicity
theorem (its splits are unequal), and for the octal games these are values
observed to the heap reached.

Chunks start at 4,096 heaps and grow (by a quarter at most) towards
``--chunk`` while one takes under a twentieth of ``--seconds``.  ``--markdown`` prints one table row a game at the end (for docs/records.md).

Run: ``python benchmarks/octal_frontier.py [--games grundy,0.6,0.04,0.06]
[--seconds 300] [--max-heap 400000000] [--chunk 1048576] [--markdown]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

import numpy as np

from symbolic_noise.games.rarevalue import _BITS, _MASK, _NRARE, _NSCANS, _NSTEPS, _POS, _Engine, moves_of, rare_sequence


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run(game: str, seconds: float, max_heap: int, chunk: int) -> dict:
    moves = moves_of(game)
    eng = _Engine(moves, min(chunk, max_heap + 1))
    t_start = time.process_time()
    last_t, last_n = t_start, 0
    rows = []
    step = 4096  # heaps in the next chunk: grown by a quarter at most, towards ``chunk``, while one takes under seconds / 20
    while eng.n <= max_heap and time.process_time() - t_start < seconds:
        eng.run(min(eng.n + step, max_heap + 1), max_heap + 1)
        now = time.process_time()
        st = eng.st
        top = int(eng.G[: eng.n].max())
        row = {
            "heap": eng.n - 1, "cpu": now - t_start, "rate": (eng.n - last_n) / max(now - last_t, 1e-9),
            "rare": int(st[_NRARE]), "mask": int(st[_MASK]), "pos": bool(st[_POS]), "bits": int(st[_BITS]),
            "largest": top, "bytes": eng.G.itemsize, "rss": rss_mb(),
            "scans": int(st[_NSCANS]), "steps": int(st[_NSTEPS]),
        }
        rows.append(row)
        step = int(min(chunk, 5 * step // 4, max(4096, row["rate"] * seconds / 20)))
        last_t, last_n = now, eng.n
        mask = f"{row['mask']:x}" + ("+p" if row["pos"] else "")
        print(f"{game:>7} {row['heap']:>13,} {row['cpu']:>8.1f} {row['rate']:>12,.0f} {row['rare']:>6} {mask:>8}"
              f" {top:>8} {row['bytes']:>3} {row['rss']:>8.0f} {row['scans']:>9,} {row['steps']:>15,}", flush=True)
    G = eng.G[: eng.n]
    final = dict(rows[-1]) if rows else {}
    final["game"] = game
    final["where_largest"] = int(np.argmax(G)) if eng.n else 0
    return final


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="grundy,0.6,0.04,0.06")
    ap.add_argument("--seconds", type=float, default=300.0, help="CPU seconds a game")
    ap.add_argument("--max-heap", type=int, default=400_000_000)
    ap.add_argument("--chunk", type=int, default=1 << 20, help="heaps between progress lines")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table row a game at the end")
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores, {platform.machine()}")
    rare_sequence("0.77", 200)  # load the compiled kernels before timing
    print(f"{'game':>7} {'heap':>13} {'CPU s':>8} {'heaps/s':>12} {'rare':>6} {'mask':>8} {'largest':>8} {'B/h':>3} {'RSS MB':>8} {'scans':>9} {'scan steps':>15}")
    finals = []
    for g in args.games.split(","):
        code = g if g == "grundy" or g.startswith(("0.", "4.")) else "0" + g
        finals.append(run(code, args.seconds, args.max_heap, args.chunk))
    if args.markdown:
        print("| game | heaps computed | CPU s | rare values | mask | largest value (at heap) |")
        print("|---|---:|---:|---:|---|---:|")
        for f in finals:
            mask = f"{f['mask']:x}" + (" + heap parity" if f["pos"] else "")
            print(f"| {f['game']} | {f['heap'] + 1:,} | {f['cpu']:.0f} | {f['rare']} | {mask} | {f['largest']} ({f['where_largest']:,}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
