"""Conjecture 10 for a large power of two (e.g. k = 128) within bounded memory:
[0, 1] is cut into sub-intervals that are solved one after another (or in N
worker processes), each checked and then discarded.  The value at p depends only
on the followers' values at p, so every chunk is an exact solve of its own.

  python scripts/conjecture10_chunked.py --k 128 --chunks 24 --jobs 1

Each chunk's verdicts go to results/conjecture10_k<k>_chunks.json as soon as the
chunk is done (a rerun skips finished chunks); the combined verdict, with any
counterexample, is written when all chunks are done.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from flint import fmpq

from symbolic_noise import Nim, solve
from symbolic_noise.analysis.certificates import Statement, check
from symbolic_noise.analysis.conjectures import is_power_of_two
from symbolic_noise.solvers.schedules.cuts import balanced_cuts

HERE = os.path.dirname(os.path.abspath(__file__))


def check_chunk(k: int, lo: str, hi: str) -> dict:
    """Solve 1-pile Nim up to k on [lo, hi] and check Conjecture 10's two parts there."""
    import resource

    t = time.perf_counter()
    a, b = fmpq(*map(int, lo.split("/"))) if "/" in lo else fmpq(int(lo)), fmpq(*map(int, hi.split("/"))) if "/" in hi else fmpq(int(hi))
    sol = solve(Nim(k), "binary", (a, b))
    solve_s = time.perf_counter() - t
    out = {"lo": lo, "hi": hi, "solve_seconds": round(solve_s, 1), "pieces": len(sol.value().formulas), "statements": []}
    half = fmpq(1, 2)
    parts = [Statement("ge", half, a, b)]
    if b > half:
        parts.append(Statement("optimal", k - 1, max(a, half), b))
    for st in parts:
        cert = check(sol, st, k, full=False)
        entry = {"statement": st.text(), "verdict": "holds" if cert.holds else "fails", "pieces_certified": len(cert.pieces)}
        if not cert.holds:
            entry["counterexample"] = cert.counterexample
        out["statements"].append(entry)
    out["seconds"] = round(time.perf_counter() - t, 1)
    out["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=int, default=128)
    ap.add_argument("--chunks", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--probe", type=int, default=48, help="solve k <= PROBE first to place the cuts")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "results"))
    args = ap.parse_args(argv)
    if not is_power_of_two(args.k):
        raise SystemExit("Conjecture 10 is about powers of two")
    path = os.path.join(os.path.abspath(args.out), f"conjecture10_k{args.k}_chunks.json")
    state = {"k": args.k, "chunks": {}}
    if os.path.exists(path):
        with open(path) as fh:
            state = json.load(fh)
    if "cuts" not in state:
        probe = solve(Nim(args.probe), "binary").values()
        cuts = balanced_cuts(probe, 0, 1, args.chunks)
        state["cuts"] = [[str(a), str(b)] for a, b in cuts]
    todo = [(lo, hi) for lo, hi in state["cuts"] if f"{lo}..{hi}" not in state["chunks"]]
    print(f"k = {args.k}: {len(state['cuts'])} chunks, {len(todo)} to do", flush=True)

    def save():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        done = [state["chunks"][f"{lo}..{hi}"] for lo, hi in state["cuts"] if f"{lo}..{hi}" in state["chunks"]]
        if len(done) == len(state["cuts"]):
            fails = [s for c in done for s in c["statements"] if s["verdict"] == "fails"]
            state["verdict"] = "fails" if fails else "holds"
            state["total_seconds"] = round(sum(c["seconds"] for c in done), 1)
            state["peak_mb"] = max(c["peak_mb"] for c in done)
        with open(path + ".tmp", "w") as fh:
            json.dump(state, fh, indent=1)
        os.replace(path + ".tmp", path)

    save()
    with ProcessPoolExecutor(args.jobs, max_tasks_per_child=1) as pool:
        futures = {pool.submit(check_chunk, args.k, lo, hi): (lo, hi) for lo, hi in todo}
        for fut in as_completed(futures):
            lo, hi = futures[fut]
            res = fut.result()
            state["chunks"][f"{lo}..{hi}"] = res
            save()
            verdicts = ", ".join(f"{s['statement']}: {s['verdict']}" for s in res["statements"])
            print(f"  [{lo}, {hi}] {res['seconds']} s, {res['pieces']} pieces, peak {res['peak_mb']} MB: {verdicts}", flush=True)
    print(f"verdict: {state.get('verdict')}  ({path})", flush=True)


if __name__ == "__main__":
    main()
