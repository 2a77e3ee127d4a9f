"""Re-issue hybrid certificates of the old format hybrid/1 in the format hybrid/2.

  python scripts/hybrid_reissue.py results/certificates/hybrid_*.json [--jobs 2] [--no-verify]

A hybrid/1 file holds the boxes, bounds and exact points of its proof but names
its game only as the words "nim" and "binary"; hybrid/2 (docs/hybrid.md)
names the game, position, channel, play, strategies, interval and statement
canonically.  The proof itself does not change, so a file is re-wrapped, not
re-run: its kind's own keys are kept as they are, the names are added, the
statement and interval are derived from the kind's data.  Every file written
is then verified with the new verifier (the same as `symbolic-noise verify
FILE`), and the script exits 1 if any does not verify.  A file already in
hybrid/2 is only verified.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..")))

OLD_ENVELOPE = ("format", "kind", "game", "channel", "statement", "verdict")


def rewrap(old: dict) -> dict:
    """The hybrid/2 certificate holding the proof of a hybrid/1 one."""
    from symbolic_noise.analysis.hybrid.certificates import claim_of
    from symbolic_noise.analysis.hybrid.fileformat import OLD_FORMATS, envelope

    if old.get("format") not in OLD_FORMATS:
        raise ValueError(f"not a certificate of an old format: {old.get('format')!r}")
    if old.get("game") != "nim" or old.get("channel") != "binary":
        raise ValueError("a hybrid/1 certificate of nim through the binary channel was expected")
    kind = old["kind"]
    body = {k: v for k, v in old.items() if k not in OLD_ENVELOPE}
    K = {"conjecture9": lambda: old["K"], "fairness_shared": lambda: old["ks"][1]}.get(kind, lambda: old["k"])()
    statement, interval, verdict = claim_of(kind, K, body)
    body.pop("interval", None)
    if isinstance(body.get("cpu_seconds"), str):  # (the capped reader keeps numbers with a point as text)
        body["cpu_seconds"] = float(body["cpu_seconds"])
    body["reissued_from"] = old["format"]
    return envelope(kind, K, body, statement, interval, verdict)


def one(path: str, verify: bool) -> tuple[str, str, float]:
    from symbolic_noise.analysis.hybrid.certificates import verify_hybrid
    from symbolic_noise.analysis.hybrid.fileformat import FORMAT, read_hybrid
    from symbolic_noise.io import readers

    data = read_hybrid(path)
    done = "already hybrid/2"
    if data.get("format") != FORMAT:
        data = rewrap(data)
        readers.write_text(path, json.dumps(data, separators=(",", ":")) + "\n", "the certificate")
        done = "re-issued"
    if not verify:
        return path, done, 0.0
    t = time.perf_counter()
    try:
        verify_hybrid(data, max_seconds=10**6)  # the project's own files: their size is expected
    except Exception as exc:  # reported, the run goes on
        return path, f"{done}, NOT VERIFIED: {' '.join(str(exc).split())[:300]}", time.perf_counter() - t
    return path, f"{done}, verified", time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-verify", action="store_true")
    args = ap.parse_args(argv)
    bad = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for path, what, secs in pool.map(one, args.files, [not args.no_verify] * len(args.files)):
            print(f"{secs:8.2f}s {path}: {what}", flush=True)
            bad += "NOT VERIFIED" in what
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
