"""Compute the phase diagrams too slow for a live notebook and store them in results/phase/.

For each case: ``<name>.json`` (the diagram's JSON, ``symbolic-noise.phase/1``, plus
the timing, the diagonal q = p and exact answers of ``locate`` at seeded random
rational points, which notebook 05 checks against independent fixed-channel
solves) and ``<name>.png`` (the drawing).

  PYTHONPATH=. python scripts/phase_results.py                 # Nim 5..8, Chomp 2x3
  PYTHONPATH=. python scripts/phase_results.py nim6 chomp2x3   # some of them
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from flint import fmpq

from symbolic_noise.games import Chomp, Nim
from symbolic_noise.analysis.phase import phase
from symbolic_noise.io.phase_render import _moves, phase_json

CASES = {
    "nim5": (lambda: Nim(5), "binary"),
    "nim6": (lambda: Nim(6), "binary"),
    "nim7": (lambda: Nim(7), "binary"),
    "nim8": (lambda: Nim(8), "binary"),
    "chomp2x3": (lambda: Chomp(2, 3), "king"),
}
OUT = Path(__file__).resolve().parent.parent / "results" / "phase"


def run(name: str) -> None:
    make, ch = CASES[name]
    t, c = time.perf_counter(), time.process_time()
    d = phase(make(), ch, f"{ch}@q")
    store(name, d, time.perf_counter() - t, time.process_time() - c)


def store(name: str, d, wall: float, cpu: float) -> None:
    """Write ``<name>.json`` and ``<name>.png`` for the diagram ``d`` (computed in ``wall``/``cpu`` seconds)."""
    data = phase_json(d)
    data["timing"] = {"wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2)}
    data["diagonal"] = [{"from": a.exact_str(), "to": b.exact_str(), "optimal": _moves(o)} for a, b, o in d.diagonal()]
    rng = random.Random(2026)
    checks = []
    for _ in range(12):
        p, q = fmpq(rng.randint(0, 60), 60), fmpq(rng.randint(0, 60), 60)
        r = d.locate(p, q)
        checks.append({"p": str(p), "q": str(q), "value": str(r.value), "optimal": _moves(r.optimal), "kind": r.cell["kind"]})
    data["checks"] = checks
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(data) + "\n")
    fig = d.plot(OUT / f"{name}.png")
    del fig
    print(f"{name}: {d.stats()} wall {wall:.1f} s, CPU {cpu:.1f} s", flush=True)


if __name__ == "__main__":
    for name in sys.argv[1:] or list(CASES):
        run(name)
