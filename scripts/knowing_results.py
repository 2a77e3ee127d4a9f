"""The value of knowing p for 1-pile Nim through the binary channel, exactly, for
k = 1..kmax, both readings; saved to results/knowing_nim.json (rerun to reproduce).

  python scripts/knowing_results.py            # k <= 32, about a minute
  python scripts/knowing_results.py --kmax 16

For every k and reading ("both": optimal vs optimal minus classical vs classical;
"first": optimal vs classical minus classical vs classical): the exact maximum
and minimum of Delta with every point (or piece) where they are attained, the
zero set, and the number of pieces.  Numbers are {"decimal", "exact"}: exact
strings parse with sympy.sympify (rationals, CRootOf, or Subs(formula, p, CRootOf(...))
when the point's minimal polynomial has degree > 40).
"""

from __future__ import annotations

import argparse
import os
import time

from symbolic_noise import Nim
from symbolic_noise.analysis.knowing import knowing_family
from symbolic_noise.io.reports import dumps

DIGITS = 20


def number(x) -> dict:
    return {"decimal": x.decimal(DIGITS), "exact": x.exact_str()}


def record(k) -> dict:
    return {
        "pieces": len(k.delta.formulas),
        "maximum": number(k.maximum),
        "argmax": [number(x) for x in k.argmax],
        "argmax_intervals": [[number(a), number(b)] for a, b in k.argmax_intervals],
        "minimum": number(k.minimum),
        "argmin": [number(x) for x in k.argmin],
        "argmin_intervals": [[number(a), number(b)] for a, b in k.argmin_intervals],
        "zeros": [number(x) for x in k.zeros],
        "zero_intervals": [[number(a), number(b)] for a, b in k.zero_intervals],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kmax", type=int, default=32)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "results", "knowing_nim.json"))
    args = ap.parse_args(argv)
    data = {
        "game": "1-pile Nim", "channel": "binary",
        "meaning": "Delta(p) = N[informed] - N[classical vs classical]; informed = optimal vs optimal (both) or optimal vs classical (first)",
        "results": {},
    }
    for reading in ("both", "first"):
        t = time.perf_counter()
        fam = knowing_family(Nim(args.kmax), "binary", range(1, args.kmax + 1), reading=reading)
        data["results"][reading] = {str(k): record(v) for k, v in fam.items()}
        print(f"{reading}: k = 1..{args.kmax} in {time.perf_counter() - t:.1f} s", flush=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(dumps(data))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
