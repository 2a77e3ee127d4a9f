"""What a map certificate costs to verify, against the map that made it, in one run.

For each case the script builds the map of the statement's interval alone
(:func:`symbolic_noise.solvers.maps.build_map`, CPU seconds), then proves the
statement from a map (:func:`symbolic_noise.analysis.mapcert.map_check`: the
map again, and every unit re-proved in arb, as the verifier will), and
verifies the certificate read back from its JSON text
(:func:`symbolic_noise.analysis.mapcert.verify_map_document`, CPU seconds),
printing the units by kind and the ratio verify / build.

    python benchmarks/mapcert_cost.py            # Nim 32, Chomp 5x5 king, Nim 64
    python benchmarks/mapcert_cost.py 32         # the cases whose parameter is 32

Ratios are measured within one run; absolute times depend on the host's load.
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from symbolic_noise.analysis.certificates import Statement  # noqa: E402
from symbolic_noise.analysis.mapcert import map_check, verify_map_document  # noqa: E402
from symbolic_noise.games.registry import game_from_spec  # noqa: E402
from symbolic_noise.solvers.maps import build_map  # noqa: E402

CASES = [
    ("nim", "32", "binary", "optimal 0 on [0, 1/2]"),
    ("nim", "32", "binary", "N >= 2/5 on [0, 1]"),
    ("chomp", "5x5", "king", "N >= 1/2 on [0, 1]"),
    ("chomp", "5x5", "king", "optimal (2,2) on [1/2, 1]"),
    ("nim", "64", "binary", "optimal 0 on [0, 1/2]"),
    ("nim", "64", "binary", "N >= 2/5 on [0, 1]"),
]


def main(argv) -> None:
    cases = [c for c in CASES if not argv or c[1] in argv]
    for family, param, channel, text in cases:
        game, st = game_from_spec(family, param), Statement.parse(text)
        t = time.process_time()
        build_map(game, channel, interval=(st.lo, st.hi), width="2^-30", budget=200_000)
        built = time.process_time() - t
        t = time.process_time()
        cert = map_check(game, channel, text)
        checked = time.process_time() - t
        kinds: dict = {}
        for u in cert.units:
            kinds[u[0]] = kinds.get(u[0], 0) + 1
        verified = float("nan")
        if cert.verdict is not None:
            document = json.loads(json.dumps(cert.to_json()))
            t = time.process_time()
            verify_map_document(document)
            verified = time.process_time() - t
        print(f"{family} {param} {text!r}: {cert.verdict}, {len(cert.units)} units {kinds}; build_map {built:.2f} s,"
              f" check {checked:.2f} s, verify {verified:.2f} s, verify / build {verified / built:.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
