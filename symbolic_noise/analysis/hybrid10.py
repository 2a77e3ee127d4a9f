"""Conjecture 10 on an interval [a, 1] by the hybrid method.

Conjecture 10 (theory.md 3.1) says that for k a power of two N_k >= 1/2 on
[0, 1] and sending k - 1 is optimal for p >= 1/2.  A certificate of kind
``conjecture10`` proves both parts on an interval [a, 1] with a > 1/2:

* **Boxes** tiling [a, 1 - delta]: on each the binary64 intervals of
  :mod:`symbolic_noise.solvers.floatbox` (every heap's optimal value enclosed
  whatever the lower heaps' optimal moves are) give
  ``lo N_k(k-1) - max_{s != k-1} hi N_k(s) >= gap_i >= 0`` and
  ``lo N_k(k-1) - 1/2 >= half_i >= 0``; the stored gap_i and half_i are claims
  the verifier re-derives from the box ends.
* **The end piece** [1 - delta, 1]: at p = 1 some moves tie with k - 1 (they
  reach a heap whose value at 1 is 0), so boxes cannot separate them.  Taylor
  models of order q centred at p = 1 with exact rational coefficients
  (:func:`symbolic_noise.solvers.taylormodel.nim_models`) give, for every s, the
  difference ``N_k(k-1) - N_k(s) = eps^l (d_l + ...)``: the lowest nonzero exact
  coefficient d_l must have the sign of eps^l (eps = p - 1 <= 0) and the bracket
  evaluated over the box must keep that sign; the model of N_k(k-1) must stay
  >= 1/2 over the box.

Near p = 1/2 every move ties and the gaps shrink like (p - 1/2)^3 (about 4e-10
at p = 0.5005 for k = 128), so a > 1/2: the piece [1/2, a] needs an exact local
argument at 1/2 that this module does not provide (docs/hybrid.md).

Examples
--------
>>> c = certify(8, fmpq(5, 8), delta=fmpq(1, 64))
>>> c["interval"], len(c["cuts"]) > 1, verify_conjecture10(c)
(['5/8', '1'], True, True)
"""

from __future__ import annotations

import time

import numpy as np
from flint import fmpq

from ..errors import VerificationError
from ..solvers.floatbox import HALF, check_float_environment, enclose_many
from ..solvers.taylormodel import _Box, nim_models, sub_tm

FORMAT = "symbolic-noise.hybrid/1"
_BITS = 40


class UndecidedError(RuntimeError):
    """A box that stayed undecided at the finest width allowed."""


def _q(s) -> fmpq:
    from .hybridcert import q_parse

    return q_parse(s)


def _margins(K: int, boxes):
    """Per box, float lower bounds of min_s (N_K(K-1) - N_K(s)) and of N_K(K-1) - 1/2."""
    _, _, mlo, mhi = enclose_many(K, boxes, moves=True)
    best = mlo[:, K - 1]
    others = np.delete(mhi, K - 1, axis=1).max(axis=1)
    gap = np.nextafter(best - others, -np.inf)
    half = np.nextafter(best - 0.5, -np.inf)
    return gap, half


def _short_lower(x: float) -> str:
    """A short dyadic <= x (x >= 0), as text."""
    return str(fmpq(int(np.floor(x * 2**_BITS)), 2**_BITS))


def _exact_float(s: str) -> float:
    from fractions import Fraction

    q = _q(s)
    f = float(Fraction(int(q.p), int(q.q)))
    if Fraction(f) != Fraction(int(q.p), int(q.q)):
        raise VerificationError(f"{s} is not a short dyadic rational")
    return f


def _boxes(K: int, a: fmpq, b: fmpq, width: fmpq, max_depth: int):
    """Boxes tiling [a, b] on which both margins are >= 0, bisected level by level."""
    n = int((b - a) / width) + 1
    step = (b - a) / n
    pending = [(a + step * i, a + step * (i + 1)) for i in range(n)]
    done = []
    for depth in range(max_depth + 1):
        gap, half = _margins(K, pending)
        nxt = []
        for (x, y), g, h in zip(pending, gap, half):
            if g >= 0 and h >= 0:
                done.append((x, y, float(g), float(h)))
            elif depth == max_depth:
                raise UndecidedError(f"k = {K}: undecided on [{x}, {y}] (gap {g:.3g}, half {h:.3g})")
            else:
                m = (x + y) / 2
                nxt += [(x, m), (m, y)]
        pending = nxt
        if not pending:
            break
    return sorted(done)


def end_piece(K: int, delta: fmpq, order: int = 3) -> dict:
    """The exact-coefficient argument on [1 - delta, 1]: per move, the order l of
    the first nonzero coefficient of N_K(K-1) - N_K(s); raises VerificationError
    when a move is not dominated or N_K(K-1) may drop below 1/2."""
    box = _Box(-delta, fmpq(0), True)
    m = nim_models(K, 1, -delta, 0, order=order, exact=True, keep={K})
    row = m.moves[K]
    f = row[K - 1]
    leads = {}
    for s in range(K - 1):
        d = sub_tm(f, row[s])
        lead = next((l for l, c in enumerate(d.P) if c != 0), None)
        if lead is None:
            raise VerificationError(f"sending {s} is not separated from sending {K - 1} at order {order}")
        B = box.poly(d.P[lead:]) + box.pow(d.q - lead) * d.R
        sg = box.sign(lead)
        if not ((sg > 0 and B > 0) or (sg < 0 and B < 0)):
            raise VerificationError(f"sending {s} is not dominated on [1 - {delta}, 1]")
        leads[str(s)] = lead
    rng = box.poly(f.P) + box.pow(f.q) * f.R
    if not rng > 0.5:
        raise VerificationError(f"N_{K}(send {K - 1}) may drop below 1/2 on [1 - {delta}, 1]")
    return {"delta": str(delta), "order": order, "leading_order": leads,
            "value_at_1": str(f.P[0]) if f.P else None}


def certify(K: int, a, *, delta=fmpq(1, 256), order: int = 3, width=fmpq(1, 2**12), max_depth: int = 12) -> dict:
    """The ``conjecture10`` certificate for heap K on [a, 1]."""
    check_float_environment()
    a, delta = fmpq(a), fmpq(delta)
    if not HALF < a < 1 - delta:
        raise ValueError("need 1/2 < a < 1 - delta")
    t0 = time.process_time()
    end = end_piece(K, delta, order)
    boxes = _boxes(K, a, 1 - delta, fmpq(width), max_depth)
    return {
        "format": FORMAT, "kind": "conjecture10", "game": "nim", "channel": "binary", "k": K,
        "statement": f"N_{K} >= 1/2 and sending {K - 1} optimal on [{a}, 1]", "verdict": "holds",
        "interval": [str(a), "1"],
        "arithmetic": "binary64 intervals, outward rounded (symbolic_noise.solvers.floatbox); exact Taylor models at p = 1",
        "cuts": [str(x) for x, _, _, _ in boxes] + [str(1 - delta)],
        "gap_lower": [_short_lower(g) for _, _, g, _ in boxes],
        "half_lower": [_short_lower(h) for _, _, _, h in boxes],
        "end": end,
        "cpu_seconds": round(time.process_time() - t0, 3),
    }


def verify_conjecture10(c: dict) -> bool:
    """Re-check a ``conjecture10`` certificate from its JSON alone."""
    check_float_environment()
    if c.get("format") != FORMAT or c.get("kind") != "conjecture10":
        raise VerificationError("not a conjecture10 certificate")
    K = int(c["k"])
    if K < 2 or K & (K - 1):
        raise VerificationError("Conjecture 10 is about powers of two")
    a, one = (_q(x) for x in c["interval"])
    end = c["end"]
    delta = _q(end["delta"])
    cuts = [_q(x) for x in c["cuts"]]
    if one != 1 or cuts[0] != a or cuts[-1] != 1 - delta or not HALF < a:
        raise VerificationError("the boxes and the end piece do not tile the interval")
    if any(x >= y for x, y in zip(cuts, cuts[1:])):
        raise VerificationError("the cuts are not increasing")
    gaps, halves = c["gap_lower"], c["half_lower"]
    if len(gaps) != len(cuts) - 1 or len(halves) != len(cuts) - 1:
        raise VerificationError("every box needs its two bounds")
    g_claim = np.array([_exact_float(x) for x in gaps])
    h_claim = np.array([_exact_float(x) for x in halves])
    if np.any(g_claim < 0) or np.any(h_claim < 0):
        raise VerificationError("a stored bound is negative")
    gap, half = _margins(K, list(zip(cuts, cuts[1:])))
    bad = np.nonzero((gap < g_claim) | (half < h_claim))[0]
    if len(bad):
        i = int(bad[0])
        raise VerificationError(f"the intervals on [{cuts[i]}, {cuts[i + 1]}] do not imply the stored bounds")
    got = end_piece(K, delta, int(end["order"]))
    if got["leading_order"] != end["leading_order"]:
        raise VerificationError("the stored leading orders at p = 1 do not match")
    return True


def describe10(c: dict) -> str:
    """One line naming what a conjecture10 certificate proves.

    >>> describe10({"k": 128, "interval": ["5/8", "1"]})
    'conjecture 10 for k = 128 on [5/8, 1]: N >= 1/2 and sending 127 optimal'
    """
    return f"conjecture 10 for k = {c.get('k')} on [{c['interval'][0]}, {c['interval'][1]}]: N >= 1/2 and sending {int(c.get('k', 1)) - 1} optimal"
