"""Hybrid-method results for 1-pile Nim through the binary channel (issue 12).

  python scripts/hybrid_results.py fairness --k 1..256 --jobs 2
  python scripts/hybrid_results.py fairness --k 65..256 --dask tcp://scheduler:8786
  python scripts/hybrid_results.py counterexample
  python scripts/hybrid_results.py summary

Each verdict is one certificate file in results/certificates/ (hybrid_fairness_k<K>.json,
hybrid_conjecture10_k256_counterexample.json), accepted on its own by
`symbolic-noise verify FILE`.  Runs are resumable: a k whose file exists and
verifies is skipped (``--trust`` skips without re-verifying).  Work runs in a local
process pool (``--jobs``) or on a Dask cluster (``--dask ADDRESS``) through the same
``submit``/``result`` interface as symbolic_noise.solvers.schedules.  Every certificate
records its CPU seconds; ``summary`` adds them up per result and writes
results/fairness_hybrid.json and results/fairness.png.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from flint import fmpq

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, ".."))
CERTS = os.path.join(ROOT, "results", "certificates")


def _fair_path(k: int) -> str:
    return os.path.join(CERTS, f"hybrid_fairness_k{k}.json")


def fairness_job(k: int, tol_bits: int) -> tuple[int, dict | str]:
    """(k, certificate) or (k, the reason it stayed undecided)."""
    from symbolic_noise.analysis.hybrid.certificates import fairness_certificate

    try:
        return k, fairness_certificate(k, tol=fmpq(1, 2**tol_bits))
    except RuntimeError as exc:
        return k, str(exc)


def _done(path: str, trust: bool) -> bool:
    if not os.path.exists(path):
        return False
    if trust:
        return True
    from symbolic_noise.analysis.hybrid.certificates import verify_hybrid

    try:
        with open(path) as fh:
            return verify_hybrid(json.load(fh), max_seconds=10**6)  # the project's own files: their size is expected
    except Exception:  # a stale or damaged file is recomputed
        return False


def _write(path: str, cert: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(cert, fh, separators=(",", ":"))
        fh.write("\n")
    os.replace(tmp, path)


def _executor(args):
    if args.dask:
        from dask.distributed import Client

        return Client(args.dask, timeout=30).get_executor()
    return ProcessPoolExecutor(args.jobs)


def cmd_fairness(args) -> int:
    a, b = (int(x) for x in args.k.split(".."))
    todo = [k for k in range(a, b + 1) if not _done(_fair_path(k), args.trust)]
    if args.largest_first:
        todo.reverse()
    print(f"fairness: {b - a + 1 - len(todo)} certificates present, {len(todo)} to do", flush=True)
    ex = _executor(args)
    futs = [ex.submit(fairness_job, k, args.tol_bits) for k in todo]
    for fut in as_completed(futs):
        k, cert = fut.result()
        if isinstance(cert, str):
            print(f"k = {k}: UNDECIDED: {cert}", flush=True)
            continue
        _write(_fair_path(k), cert)
        print(f"k = {k}: p0 in {cert['p0_decimal'] if cert['exists'] else 'none'} ({cert['cpu_seconds']} s)", flush=True)
    return 0


def _shared_path(k1: int, k2: int) -> str:
    return os.path.join(CERTS, f"hybrid_fairness_shared_k{k1}-{k2}.json")


def shared_job(k1: int, k2: int, tol_bits: int) -> tuple[int, int, dict]:
    from symbolic_noise.analysis.hybrid.fairness import shared_certificate

    return k1, k2, shared_certificate(k1, k2, tol=fmpq(1, 2**tol_bits))


def _batches(a: int, b: int, size: int) -> list[tuple[int, int]]:
    return [(k, min(k + size - 1, b)) for k in range(a, b + 1, size)]


def cmd_fairness_shared(args) -> int:
    a, b = (int(x) for x in args.k.split(".."))
    todo = [(k1, k2) for k1, k2 in _batches(a, b, args.batch) if not _done(_shared_path(k1, k2), args.trust)]
    print(f"shared fairness: {len(_batches(a, b, args.batch)) - len(todo)} batches present, {len(todo)} to do", flush=True)
    ex = _executor(args)
    futs = [ex.submit(shared_job, k1, k2, args.tol_bits) for k1, k2 in todo]
    for fut in as_completed(futs):
        k1, k2, cert = fut.result()
        _write(_shared_path(k1, k2), cert)
        print(f"k = {k1}..{k2}: {len(cert['cuts']) - 1} shared boxes, "
              f"{sum(len(h.get('local_cuts', [])) for h in cert['heaps'])} local cuts, "
              f"undecided {sorted(cert['undecided'])} ({cert['cpu_seconds']} s)", flush=True)
    return 0


CONJ9_CUTS = ["0", "1/4", "3/8", "7/16", "15/32", "1/2"]


def _conj9_path(K: int, i: int) -> str:
    return os.path.join(CERTS, f"hybrid_conjecture9_K{K}_part{i}.json")


def conj9_job(K: int, lo: str, hi: str, order: int) -> tuple[str, str, dict]:
    from symbolic_noise.analysis.hybrid.take_all import certify

    return lo, hi, certify(K, fmpq(lo), fmpq(hi), order=order)


def cmd_conjecture9(args) -> int:
    cuts = CONJ9_CUTS
    parts = list(enumerate(zip(cuts, cuts[1:])))
    todo = [(i, lo, hi) for i, (lo, hi) in parts if not _done(_conj9_path(args.K, i), args.trust)]
    print(f"conjecture 9, K = {args.K}: {len(parts) - len(todo)} parts present, {len(todo)} to do", flush=True)
    ex = _executor(args)
    futs = {ex.submit(conj9_job, args.K, lo, hi, args.order): i for i, lo, hi in todo}
    for fut in as_completed(futs):
        lo, hi, cert = fut.result()
        _write(_conj9_path(args.K, futs[fut]), cert)
        print(f"K = {args.K} on [{lo}, {hi}]: {len(cert['cuts']) - 1} boxes"
              f"{', local delta ' + cert['local']['delta'] if cert['local'] else ''} ({cert['cpu_seconds']} s)", flush=True)
    return 0


def cmd_conjecture10(args) -> int:
    """Conjecture 10 for one power of two on [a, 1] (boxes plus the exact end piece at p = 1)."""
    from symbolic_noise.analysis.hybrid.power_of_two import certify

    path = os.path.join(CERTS, f"hybrid_conjecture10_k{args.k}_interval.json")
    a = fmpq(*(int(x) for x in args.a.split("/")))
    half = fmpq(1, 2**args.half_bits) if args.half_bits else None
    cert = certify(args.k, a, delta=fmpq(1, 2**args.delta_bits), max_depth=args.max_depth, delta_half=half)
    _write(path, cert)
    print(f"k = {args.k} on [{cert['interval'][0]}, 1]: {max(len(cert['tm_cuts']) - 1, 0)} Taylor-model boxes, "
          f"{len(cert['cuts']) - 1} interval boxes ({cert['cpu_seconds']} s)", flush=True)
    return 0


def cmd_counterexample(args) -> int:
    from symbolic_noise.analysis.hybrid.certificates import counterexample_certificate

    cert = counterexample_certificate(256, fmpq(99, 100), 252, 255)
    cert["conjecture"] = 10
    _write(os.path.join(CERTS, "hybrid_conjecture10_k256_counterexample.json"), cert)
    print(json.dumps(cert, indent=1))
    return 0


def _shared_files() -> list[str]:
    names = [n for n in os.listdir(CERTS) if n.startswith("hybrid_fairness_shared_k") and n.endswith(".json")]
    return [os.path.join(CERTS, n) for n in sorted(names, key=lambda n: int(n.split("_k")[1].split("-")[0]))]


def _fair_row(k: int, h: dict, path: str, cpu) -> dict:
    row = {"k": k, "exists": h["exists"], "N_at_1": h["N_at_1"], "cpu_seconds": cpu,
           "certificate": os.path.relpath(path, ROOT)}
    if h["exists"]:
        row["p0_enclosure"] = h["p0"]
        row["p0_decimal"] = h["p0_decimal"]
    return row


def cmd_summary(args) -> int:
    """results/fairness_hybrid.json and results/fairness.png from every fairness certificate:
    the per-k files (hybrid_fairness_k<k>.json) and the shared-box batches
    (hybrid_fairness_shared_k<a>-<b>.json, whose CPU time is counted once per file)."""
    rows, cpu = {}, 0.0
    ref = {}
    exact = os.path.join(ROOT, "results", "fairness.json")
    if os.path.exists(exact):
        with open(exact) as fh:
            ref = {r["k"]: r for r in json.load(fh)["results"]}
    undecided = {}
    for path in _shared_files():
        with open(path) as fh:
            c = json.load(fh)
        cpu += c["cpu_seconds"]
        for h in c["heaps"]:
            rows[h["k"]] = _fair_row(h["k"], h, path, None)
        undecided.update(c.get("undecided", {}))
    k = 1
    while os.path.exists(_fair_path(k)):
        with open(_fair_path(k)) as fh:
            c = json.load(fh)
        cpu += c["cpu_seconds"]
        rows[k] = _fair_row(k, c, _fair_path(k), c["cpu_seconds"])
        k += 1
    for k, row in rows.items():
        r = ref.get(k)
        if row["exists"] and r is not None and r.get("exists"):
            row["exact_p0"] = r["p0"]["decimal"]
    top = 0
    while top + 1 in rows:
        top += 1
    ordered = [rows[k] for k in sorted(rows)]
    out = {
        "eps": "1/100",
        "meaning": "p0 is the infimum: |2N-1| < eps holds on (p0, 1]; p0_enclosure [q, b] is certified "
                   "(boxes tile [b, 1], and the condition fails at the exact point q)",
        "method": "hybrid (ball or binary64 interval enclosures over boxes of p + exact points); "
                  "k <= 86 one certificate per k, beyond one certificate per batch of heaps over shared boxes",
        "k_certified": [1, top],
        "undecided": undecided,
        "cpu_hours": round(cpu / 3600, 3),
        "results": ordered,
    }
    with open(os.path.join(ROOT, "results", "fairness_hybrid.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    _plot(ordered, os.path.join(ROOT, "results", "fairness.png"))
    _update_summary(out)
    print(f"{len(ordered)} k (1..{top} without a gap), {out['cpu_hours']} CPU hours")
    return 0


def _conj9_status() -> dict:
    """Per K: the chunks present and their CPU seconds (K is certified when all are)."""
    out = {}
    for name in sorted(os.listdir(CERTS)):
        if name.startswith("hybrid_conjecture9_K") and name.endswith(".json"):
            K = int(name.split("_K")[1].split("_")[0])
            with open(os.path.join(CERTS, name)) as fh:
                c = json.load(fh)
            e = out.setdefault(K, {"chunks": 0, "boxes": 0, "cpu_seconds": 0.0})
            e["chunks"] += 1
            e["boxes"] += len(c["cuts"]) - 1
            e["cpu_seconds"] = round(e["cpu_seconds"] + c["cpu_seconds"], 1)
    for e in out.values():
        e["certified"] = e["chunks"] == len(CONJ9_CUTS) - 1
    return out


def _conj10_status(k: int) -> str:
    path = os.path.join(CERTS, f"hybrid_conjecture10_k{k}_interval.json")
    if not os.path.exists(path):
        return "not certified (observed on a grid only: results/observed_nim256.json)"
    with open(path) as fh:
        c = json.load(fh)
    lo = c["interval"][0]
    whole = " with Conjecture 9 on [0, 1/2]: holds" if lo == "1/2" else ""
    return f"certified on [{lo}, 1] (certificates/{os.path.basename(path)}, {c['cpu_seconds']} CPU s){whole}"


def _update_summary(fair: dict) -> None:
    path = os.path.join(ROOT, "results", "summary.json")
    with open(path) as fh:
        summary = json.load(fh)
    c9 = _conj9_status()
    certified = [K for K, e in c9.items() if e["certified"]]
    summary["hybrid"] = {
        "method": "docs/hybrid.md: Taylor models in ball arithmetic over boxes of p, exact first-order lemma at p = 1/2",
        "conjecture9": {"certified_for_every_k_up_to": max(certified) if certified else None,
                        "runs": {str(K): e for K, e in sorted(c9.items())}},
        "conjecture10": {"256": "fails: at p = 99/100 sending 252 beats sending 255 "
                                "(certificates/hybrid_conjecture10_k256_counterexample.json)",
                         "128": _conj10_status(128)},
        "fairness": {"certified_enclosures_for_k": fair["k_certified"], "cpu_hours": fair["cpu_hours"],
                     "file": "results/fairness_hybrid.json",
                     "observed_to_256": "results/observed_nim256.json"},
    }
    with open(path, "w") as fh:
        json.dump(summary, fh, indent=2)
        fh.write("\n")


def _plot(rows, path):
    """Certified enclosures (filled) and, where present, the observed thresholds
    from exact values on a grid (results/observed_nim256.json, hollow)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.2))
    obs_path = os.path.join(ROOT, "results", "observed_nim256.json")
    kmax = max(r["k"] for r in rows)
    if os.path.exists(obs_path):
        with open(obs_path) as fh:
            obs = json.load(fh)
        pts = [(r["k"], float(r["p0_observed"])) for r in obs["fairness"] if r["exists"] and r["k"] > kmax]
        if pts:
            ax.plot([k for k, _ in pts], [p for _, p in pts], "o", ms=3, mfc="none", color="C1",
                    label=f"observed p0(k), k > {kmax} (exact values on the grid i/{obs['grid']}, then bisection)")
        none = [r["k"] for r in obs["fairness"] if not r["exists"] and r["k"] > kmax]
        ax.plot(none, [1.02] * len(none), "x", ms=3, color="C3")
        kmax = max(kmax, obs["K"])
    ks = [r["k"] for r in rows if r["exists"]]
    mids = [(float(r["p0_decimal"][0]) + float(r["p0_decimal"][1])) / 2 for r in rows if r["exists"]]
    ax.plot(ks, mids, "o", ms=3, color="C0", label="certified p0(k) (enclosure of width 2^-16)")
    none = [r["k"] for r in rows if not r["exists"]]
    ax.plot(none, [1.02] * len(none), "x", ms=3, color="C3", label="no threshold (|2N_k(1) - 1| >= 1/100)")
    ax.set_xlabel("k (heap size)")
    ax.set_ylabel("p0(k)")
    ax.set_ylim(0, 1.06)
    ax.set_xlim(0, kmax + 2)
    ax.set_title("1-pile Nim, binary channel: |2N_k - 1| < 1/100 on (p0, 1]")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fairness")
    f.add_argument("--k", default="1..256", metavar="A..B")
    f.add_argument("--jobs", type=int, default=1)
    f.add_argument("--dask", metavar="ADDRESS")
    f.add_argument("--tol-bits", type=int, default=16, help="width of the enclosure of p0: 2^-BITS")
    f.add_argument("--trust", action="store_true", help="skip existing files without re-verifying them")
    f.add_argument("--largest-first", action="store_true")
    f.set_defaults(func=cmd_fairness)
    fs = sub.add_parser("fairness-shared", help="batches of heaps over one shared set of boxes")
    fs.add_argument("--k", default="87..256", metavar="A..B")
    fs.add_argument("--batch", type=int, default=34, help="heaps per certificate")
    fs.add_argument("--jobs", type=int, default=1)
    fs.add_argument("--dask", metavar="ADDRESS")
    fs.add_argument("--tol-bits", type=int, default=16, help="width of the enclosures of p0: 2^-BITS")
    fs.add_argument("--trust", action="store_true")
    fs.set_defaults(func=cmd_fairness_shared)
    c9 = sub.add_parser("conjecture9")
    c9.add_argument("--K", type=int, default=256, help="certify every k <= K")
    c9.add_argument("--order", type=int, default=5, help="order of the Taylor models on the boxes")
    c9.add_argument("--jobs", type=int, default=1)
    c9.add_argument("--dask", metavar="ADDRESS")
    c9.add_argument("--trust", action="store_true")
    c9.set_defaults(func=cmd_conjecture9)
    c10 = sub.add_parser("conjecture10", help="Conjecture 10 for a power of two on [a, 1]")
    c10.add_argument("--k", type=int, default=128)
    c10.add_argument("--a", default="5/8", help="left end of the interval, a rational > 1/2")
    c10.add_argument("--delta-bits", type=int, default=8, help="the end piece is [1 - 2^-BITS, 1]")
    c10.add_argument("--max-depth", type=int, default=12)
    c10.add_argument("--half-bits", type=int, default=10,
                     help="the local piece at 1/2 is [1/2, 1/2 + 2^-BITS], Taylor-model boxes up to a (0: none)")
    c10.set_defaults(func=cmd_conjecture10)
    sub.add_parser("counterexample").set_defaults(func=cmd_counterexample)
    sub.add_parser("summary").set_defaults(func=cmd_summary)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
