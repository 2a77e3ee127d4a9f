"""The binary64 box enclosures of binary Nim: CPU per box, distance classes against the general kernel.

For each heap k: one block of 32 boxes of width 2^-20 spread over (0, 1),
enclosed by ``symbolic_noise.solvers.maps.nimkernel.enclose_heap`` and, for the
heaps listed with ``--general``, by ``floatkernel.enclose_compiled`` over the
layout's rows (the layout built first, its time reported apart).

    python benchmarks/nimkernel.py 128 256 512 1024 --general 64 128

Times are process CPU seconds (``time.process_time``); each kernel is
compiled (or loaded from numba's cache) on a small case first.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flint import fmpq  # noqa: E402

from symbolic_noise.games.channels import get_channel  # noqa: E402
from symbolic_noise.games.rulesets import Nim  # noqa: E402
from symbolic_noise.solvers.maps.floatkernel import enclose_compiled  # noqa: E402
from symbolic_noise.solvers.maps.nimkernel import enclose_heap  # noqa: E402
from symbolic_noise.solvers.maps.structure import Layout  # noqa: E402

BOXES = [(fmpq(i, 40), fmpq(i, 40) + fmpq(1, 2**20)) for i in range(4, 36)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("heaps", nargs="+", type=int)
    ap.add_argument("--general", nargs="*", type=int, default=[], help="heaps also enclosed by the general kernel")
    args = ap.parse_args()
    enclose_heap(3, BOXES[:1])
    enclose_compiled(Layout(Nim(3), get_channel("binary"), 3), BOXES[:1])
    for k in args.heaps:
        t = time.process_time()
        enclose_heap(k, BOXES)
        per = (time.process_time() - t) / len(BOXES)
        line = f"nim {k}: distance classes {1000 * per:.2f} ms a box"
        if k in args.general:
            t = time.process_time()
            lay = Layout(Nim(k), get_channel("binary"), k)
            tl = time.process_time() - t
            enclose_compiled(lay, BOXES[:1])  # (its sparse rows, cached on the layout)
            t = time.process_time()
            enclose_compiled(lay, BOXES)
            pg = (time.process_time() - t) / len(BOXES)
            line += f"; rows {1000 * pg:.2f} ms a box ({pg / per:.1f}x), layout {tl:.1f} s"
        print(line, flush=True)


if __name__ == "__main__":
    main()
