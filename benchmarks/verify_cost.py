"""What a certificate costs to verify, against the solve that made it, in one run.

For 1-pile Nim through the binary channel the certificate is Conjecture 9
for every heap k <= K (``N_k >= 1/2`` and sending 0 optimal on [0, 1/2]),
whose proof needs the values of every position of the solve; for Chomp it is
``N >= 1/3 on [0, 1]`` (true on every square board through the king channel
the project has solved) about the full board.  The script solves (CPU seconds),
checks the statements and writes the certificate document (not timed
against the solve), then verifies the document read back from disk with
:func:`symbolic_noise.analysis.certificates.verify_document` (CPU seconds,
including the decoding), and prints the ratio verify / solve with the
Bellman check's counts.

    python benchmarks/verify_cost.py                 # nim 64 and Chomp 6x6 king
    python benchmarks/verify_cost.py --nim 32 --chomp 4

Ratios are measured within one run; absolute times depend on the host's load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from symbolic_noise import Chomp, Nim, solve  # noqa: E402
from symbolic_noise.analysis import bellman  # noqa: E402
from symbolic_noise.analysis.certificates import certificate_document, check, document_text, verify_document  # noqa: E402
from symbolic_noise.analysis.conjectures import conjecture9  # noqa: E402


def cpu() -> float:
    return time.process_time()


def measure(label: str, game, channel: str, claims) -> dict:
    t0 = cpu()
    sol = solve(game, channel)
    solve_s = cpu() - t0
    certs = [check(sol, st, v) for v, st in claims(sol)]
    text = document_text(certificate_document(certs))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        fh.write(text)
        path = fh.name
    report = {}

    def keep(_u, _done, _total):
        pass

    t0 = cpu()
    with open(path, encoding="utf-8") as fh:
        document = json.load(fh)
    checker_report = []
    original = bellman.check_values

    def spy(*a, **k):
        r = original(*a, **k)
        checker_report.append(r)
        return r

    bellman.check_values = spy
    try:
        verified = verify_document(document, progress=keep)
    finally:
        bellman.check_values = original
    verify_s = cpu() - t0
    os.unlink(path)
    report = {
        "case": label, "solve_cpu_s": round(solve_s, 2), "verify_cpu_s": round(verify_s, 2),
        "ratio": round(verify_s / solve_s, 3), "claims": len(verified), "bytes": len(text),
        "bellman": vars(checker_report[0]) if checker_report else None,
        "all_verified": all(c.holds for c in verified),
    }
    print(json.dumps(report), flush=True)
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nim", type=int, default=64, help="heap K of the Conjecture 9 certificate (0: skip)")
    ap.add_argument("--chomp", type=int, default=6, help="side of the square Chomp board, king channel (0: skip)")
    args = ap.parse_args(argv)
    if args.nim:
        K = args.nim
        measure(f"nim {K}, Conjecture 9 for k = 1..{K}", Nim(K), "binary",
                lambda sol: [(k, st) for k in range(1, K + 1) for st in conjecture9(k)])
    if args.chomp:
        n = args.chomp
        measure(f"chomp {n}x{n} king, N >= 1/3 on [0, 1]", Chomp(n, n), "king",
                lambda sol: [(sol.start, "N >= 1/3 on [0, 1]")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
