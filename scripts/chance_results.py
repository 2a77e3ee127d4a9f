"""The paper's open question 4 (chance games) on the named families, exactly.

  python scripts/chance_results.py            # writes results/chance.json

For every game and channel below, symbolic_noise.analysis.chance.chance_report decides
whether every position that is not forced (same N = 0 or 1 for every channel)
has 0 < N < 1 for every p of the interval, with the first counterexample
(position, exact p, N there) when it fails.  The interval is the open (0, 1)
(at p = 0 or 1 most channels are the identity: the classical game), and for
comparison the closed [0, 1] (and (0, 1] for the trembling hand, which has full
support at p = 1).  "full_support" says whether every psi entry is positive on
the interval, which by itself proves the verdict for every game (see
symbolic_noise/analysis/chance.py).  For the uniform channel, Lemma 7's hypothesis
(P- and N-followers equally many at every O-position) is reported at p = 1/2.
A game with a larger parameter contains the smaller ones as positions (a heap
of k holds every smaller heap; a board every smaller board), so the verdict of
the largest covers them.
"""

from __future__ import annotations

import os
import sys
import time

from symbolic_noise import solve
from symbolic_noise.analysis.chance import chance_report, lemma7_status
from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.io.reports import dumps

HERE = os.path.dirname(os.path.abspath(__file__))

RUNS = [
    ("nim", "24", ["binary", "uniform", "tremble", "binary-gray", "z"]),
    ("nim", "2,3,4", ["binary", "uniform", "tremble"]),
    ("nim", "1,2,3,4", ["uniform"]),
    ("chomp", "4x5", ["king", "rook", "all", "chebyshev", "uniform", "tremble"]),
    ("chomp", "5x5", ["king", "rook", "chebyshev"]),
    ("kayles", "8", ["uniform", "binary"]),
    ("dawson-kayles", "8", ["uniform", "binary"]),
    ("dawson-chess", "8", ["uniform"]),
    ("lasker", "6", ["uniform", "binary"]),
    ("grundy", "9", ["uniform", "binary"]),
    ("subtraction:1,2,3", "12", ["uniform", "binary"]),
    ("subtraction:1,3,4", "12", ["uniform", "binary"]),
    ("subtraction:2,3", "12", ["uniform", "binary"]),
    ("octal:4.3", "6", ["uniform"]),
]


def main() -> int:
    out = []
    for name, arg, channels in RUNS:
        game = game_from_spec(name, arg)
        for ch in channels:
            t0 = time.perf_counter()
            sol = solve(game, ch)
            solve_seconds = time.perf_counter() - t0
            entry = {"family": name, "param": arg, "channel": ch, "solve_seconds": round(solve_seconds, 2)}
            for iv in ("(0,1)", "[0,1]") + (("(0,1]",) if ch == "tremble" else ()):
                rep = chance_report(game, ch, iv, solution=sol)
                entry[iv] = rep.as_json()
            if ch == "uniform":
                entry["lemma7_at_half"] = lemma7_status(sol, "1/2")
            open_rep = entry["(0,1)"]
            print(f"{name} {arg} {ch}: (0,1) {'chance game' if open_rep['chance_game'] else 'NOT: ' + str(open_rep['counterexample'])[:150]}"
                  f"; [0,1] {'chance game' if entry['[0,1]']['chance_game'] else 'not'} ({solve_seconds:.1f} s)", flush=True)
            out.append(entry)
    with open(os.path.join(HERE, "..", "results", "chance.json"), "w", encoding="utf-8") as fh:
        fh.write(dumps({"format": "symbolic-noise.chance/1", "runs": out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
