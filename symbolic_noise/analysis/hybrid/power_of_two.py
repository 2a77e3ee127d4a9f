"""Conjecture 10 on [1/2, 1] (or on [a, 1]) by the hybrid method.

Conjecture 10 (theory.md 3.1) says that for k a power of two N_k >= 1/2 on
[0, 1] and sending k - 1 is optimal for p >= 1/2.  On [0, 1/2] the first part
is Conjecture 9 (``hybrid_conjecture9_K*`` certificates).  A certificate of kind
``conjecture10`` proves both parts on [1/2, 1] (or on [a, 1], a > 1/2) in four
pieces, left to right:

* **The local piece at 1/2** [1/2, 1/2 + delta_h]: every move ties at p = 1/2, so
  Taylor models of order q centred at 1/2 with exact rational coefficients
  (:func:`symbolic_noise.solvers.boxes.taylormodel.nim_models`, the maximum over a
  lower heap's moves taken with the exact lexicographic filter) give, for every
  s, ``N_k(k-1) - N_k(s) = eps^l (d_l + ...)`` with eps = p - 1/2 >= 0: the
  lowest nonzero exact coefficient d_l must be > 0 and the bracket, evaluated
  over the box, > 0; likewise ``N_k(k-1) - 1/2``.
* **Taylor-model boxes** tiling [1/2 + delta_h, m]: models of order q with ball
  coefficients centred at each box's midpoint; the range of every difference
  and of ``N_k(k-1) - 1/2`` over the box must be >= 0.  Boxes of width up to
  1/256 resolve gaps of 1e-9 just above 1/2 + 1/1024 (k = 128).

* **Boxes** tiling [a, 1 - delta]: on each the binary64 intervals of
  :mod:`symbolic_noise.solvers.boxes.floatbox` (every heap's optimal value enclosed
  whatever the lower heaps' optimal moves are) give
  ``lo N_k(k-1) - max_{s != k-1} hi N_k(s) >= gap_i >= 0`` and
  ``lo N_k(k-1) - 1/2 >= half_i >= 0``; the stored gap_i and half_i are claims
  the verifier re-derives from the box ends.
* **The end piece** [1 - delta, 1]: at p = 1 some moves tie with k - 1 (they
  reach a heap whose value at 1 is 0), so boxes cannot separate them; the
  argument is the one at 1/2 with models centred at p = 1 (eps = p - 1 <= 0, so
  d_l must have the sign of eps^l).

The gaps are tiny near 1/2 (about 4e-10 at p = 0.5005 for k = 128, second order
in p - 1/2), which is why the first two pieces use Taylor models and the wide
middle uses the cheap interval boxes.

Examples
--------
>>> c = certify(8, fmpq(5, 8), delta=fmpq(1, 64), delta_half=fmpq(1, 64))
>>> c["interval"], len(c["cuts"]) > 1, verify_conjecture10(c)
(['1/2', '1'], True, True)
"""

from __future__ import annotations

import time

import numpy as np
from flint import arb, ctx, fmpq

from ...errors import VerificationError
from .certificates import UndecidedError, dyadic_float, q_parse
from ...solvers.boxes.floatbox import HALF, bisect_until, check_float_environment, enclose_many
from ...solvers.boxes.taylormodel import TM, _Box, lift, nim_models

from .fileformat import FORMAT as FORMAT, envelope
_BITS = 40


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


def _boxes(K: int, a: fmpq, b: fmpq, width: fmpq, max_depth: int):
    """Boxes tiling [a, b] on which both margins are >= 0, bisected level by level."""
    n = int((b - a) / width) + 1
    step = (b - a) / n
    pending = [(a + step * i, a + step * (i + 1)) for i in range(n)]

    def judge(boxes):
        gap, half = _margins(K, boxes)
        return [(g >= 0 and h >= 0, (float(g), float(h))) for g, h in zip(gap, half)]

    done, refused = bisect_until(pending, judge, max_depth)
    if refused:
        raise UndecidedError(f"k = {K}: undecided on [{refused[0]}, {refused[1]}]")
    return [(x, y, g, h) for x, y, (g, h) in done]


def _diff(f: TM, g: TM, box: _Box) -> TM:
    q = min(f.q, g.q)
    f, g = lift(f, q, box), lift(g, q, box)
    return TM([x - y for x, y in zip(f.P, g.P)], f.R - g.R)


def _exact_lead(d: TM, box: _Box):
    """The order l of the first nonzero exact coefficient of d when
    d = eps^l (bracket) with the bracket's sign, over the box, that of eps^l
    (so d >= 0 on the box); None otherwise."""
    lead = next((l for l, c in enumerate(d.P) if c != 0), None)
    if lead is None:
        return None
    B = box.poly(d.P[lead:]) + box.pow(d.q - lead) * d.R
    sg = box.sign(lead)
    return lead if (sg > 0 and B > 0) or (sg < 0 and B < 0) else None


def exact_piece(K: int, c: fmpq, lo: fmpq, hi: fmpq, order: int, prec: int = 128) -> dict:
    """The exact-coefficient argument on c + [lo, hi] (c = 1/2 or 1, one-sided):
    per move s, the order of the first nonzero coefficient of N_K(K-1) - N_K(s);
    raises VerificationError when a move is not dominated or N_K(K-1) may drop
    below 1/2."""
    box = _Box(lo, hi, True)
    old = ctx.prec
    ctx.prec = prec
    try:
        m = nim_models(K, c, lo, hi, order=order, exact=True, keep={K}, prec=prec)
        row = m.moves[K]
        f = row[K - 1]
        leads = {}
        for s in range(K - 1):
            lead = _exact_lead(_diff(f, row[s], box), box)
            if lead is None:
                raise VerificationError(f"sending {s} is not shown dominated by sending {K - 1} on {c} + [{lo}, {hi}]")
            leads[str(s)] = lead
        if not f.P or _exact_lead(TM([f.P[0] - HALF] + list(f.P[1:]), f.R), box) is None:
            raise VerificationError(f"N_{K}(send {K - 1}) may drop below 1/2 on {c} + [{lo}, {hi}]")
    finally:
        ctx.prec = old
    return {"order": order, "leading_order": leads, "value_at_centre": str(f.P[0])}


def end_piece(K: int, delta: fmpq, order: int = 3) -> dict:
    """The exact argument on [1 - delta, 1] (see :func:`exact_piece`)."""
    return {"delta": str(delta), **exact_piece(K, fmpq(1), -fmpq(delta), fmpq(0), order)}


def half_piece(K: int, delta: fmpq, order: int = 4) -> dict:
    """The exact argument on [1/2, 1/2 + delta] (see :func:`exact_piece`)."""
    return {"delta": str(delta), **exact_piece(K, HALF, fmpq(0), fmpq(delta), order)}


def tm_margins(K: int, a: fmpq, b: fmpq, order: int = 4, prec: int = 128):
    """Balls of min_s (N_K(K-1) - N_K(s)) and of N_K(K-1) - 1/2 over [a, b] (ball Taylor models)."""
    c, h = (a + b) / 2, (b - a) / 2
    box = _Box(-h, h, False)
    old = ctx.prec
    ctx.prec = prec
    try:
        m = nim_models(K, c, -h, h, order=order, exact=False, keep={K}, prec=prec)
        row = m.moves[K]
        f = row[K - 1]
        gap = None
        for s in range(K - 1):
            d = _diff(f, row[s], box)
            r = box.poly(d.P) + box.pow(d.q) * d.R
            gap = r if gap is None or r.lower() < gap.lower() else gap
        half = box.poly(f.P) + box.pow(f.q) * f.R - arb(0.5)
    finally:
        ctx.prec = old
    return gap, half


def _tm_boxes(K: int, a: fmpq, b: fmpq, order: int, width: fmpq, max_depth: int = 4):
    """Boxes tiling [a, b] on which the Taylor-model margins are >= 0 (bisected as needed)."""
    from .certificates import _lower_rational

    out = []
    stack = []
    x = a
    while x < b:
        y = min(x + width, b)
        stack.append((x, y, 0))
        x = y
    while stack:
        x, y, depth = stack.pop(0)
        gap, half = tm_margins(K, x, y, order)
        if gap.lower() >= 0 and half.lower() >= 0:
            out.append((x, y, str(max(_lower_rational(gap), fmpq(0))), str(max(_lower_rational(half), fmpq(0)))))
        elif depth >= max_depth:
            raise UndecidedError(f"k = {K}: Taylor models undecided on [{x}, {y}]")
        else:
            m = (x + y) / 2
            stack[:0] = [(x, m, depth + 1), (m, y, depth + 1)]
    return out


def certify(K: int, a, *, delta=fmpq(1, 256), order: int = 3, width=fmpq(1, 2**12), max_depth: int = 12,
            delta_half=None, half_order: int = 4, tm_order: int = 4, tm_width=fmpq(1, 256)) -> dict:
    """The ``conjecture10`` certificate for heap K: interval boxes on [a, 1 - delta],
    the end piece at 1 and, with ``delta_half``, the local piece at 1/2 plus
    Taylor-model boxes on [1/2 + delta_half, a] (then the interval is [1/2, 1])."""
    check_float_environment()
    a, delta = fmpq(a), fmpq(delta)
    if not HALF < a < 1 - delta:
        raise ValueError("need 1/2 < a < 1 - delta")
    t0 = time.process_time()
    end = end_piece(K, delta, order)
    half, tm = None, []
    if delta_half is not None:
        delta_half = fmpq(delta_half)
        if not HALF + delta_half <= a:
            raise ValueError("need 1/2 + delta_half <= a")
        half = half_piece(K, delta_half, half_order)
        half["tm_order"] = tm_order
        tm = _tm_boxes(K, HALF + delta_half, a, tm_order, fmpq(tm_width)) if HALF + delta_half < a else []
    boxes = _boxes(K, a, 1 - delta, fmpq(width), max_depth)
    lo = HALF if half is not None else a
    body = {
        "k": K, "interval": [str(lo), "1"],
        "arithmetic": "exact Taylor models at p = 1/2 and p = 1, ball Taylor models (arb) near 1/2, "
                      "binary64 intervals, outward rounded (symbolic_noise.solvers.boxes.floatbox) elsewhere",
        "half": half,
        "tm_cuts": [str(x) for x, _, _, _ in tm] + ([str(a)] if tm else []),
        "tm_gap_lower": [g for _, _, g, _ in tm], "tm_half_lower": [h for _, _, _, h in tm],
        "cuts": [str(x) for x, _, _, _ in boxes] + [str(1 - delta)],
        "gap_lower": [_short_lower(g) for _, _, g, _ in boxes],
        "half_lower": [_short_lower(h) for _, _, _, h in boxes],
        "end": end,
        "cpu_seconds": round(time.process_time() - t0, 3),
    }
    from .certificates import claim_of

    return envelope("conjecture10", K, body, *claim_of("conjecture10", K, body))


def verify_conjecture10(c: dict) -> bool:
    """Verify a ``conjecture10`` certificate (:func:`~symbolic_noise.analysis.hybrid.certificates.verify_hybrid`)."""
    from .certificates import verify_hybrid

    if not isinstance(c, dict) or c.get("kind") != "conjecture10":
        raise VerificationError("not a conjecture10 certificate")
    return verify_hybrid(c)


def check_conjecture10(c: dict, K: int) -> bool:
    """Re-check the pieces of a ``conjecture10`` certificate for heap K (the
    game's heap); ``c`` has passed :func:`~symbolic_noise.analysis.hybrid.fileformat.check_shape`."""
    check_float_environment()
    if K < 2 or K & (K - 1):
        raise VerificationError("Conjecture 10 is about powers of two")
    a, one = (q_parse(x) for x in c["interval"])
    end = c["end"]
    delta = q_parse(end["delta"])
    cuts = [q_parse(x) for x in c["cuts"]]
    start = _verify_left(K, c, a)
    if one != 1 or cuts[0] != start or cuts[-1] != 1 - delta or not HALF < start:
        raise VerificationError("the boxes and the end piece do not tile the interval")
    if any(x >= y for x, y in zip(cuts, cuts[1:])):
        raise VerificationError("the cuts are not increasing")
    gaps, halves = c["gap_lower"], c["half_lower"]
    if len(gaps) != len(cuts) - 1 or len(halves) != len(cuts) - 1:
        raise VerificationError("every box needs its two bounds")
    g_claim = np.array([dyadic_float(x) for x in gaps])
    h_claim = np.array([dyadic_float(x) for x in halves])
    if np.any(g_claim < 0) or np.any(h_claim < 0):
        raise VerificationError("a stored bound is negative")
    gap, half = _margins(K, list(zip(cuts, cuts[1:])))
    bad = np.nonzero((gap < g_claim) | (half < h_claim))[0]
    if len(bad):
        i = int(bad[0])
        raise VerificationError(f"the intervals on [{cuts[i]}, {cuts[i + 1]}] do not imply the stored bounds")
    if not 0 < delta < HALF:
        raise VerificationError("the end piece has a bad width")
    got = end_piece(K, delta, end["order"])
    if got["leading_order"] != end["leading_order"]:
        raise VerificationError("the stored leading orders at p = 1 do not match")
    return True


def _verify_left(K: int, c: dict, a: fmpq) -> fmpq:
    """Check the local piece at 1/2 and the Taylor-model boxes; return where the
    interval boxes must start."""
    half = c.get("half")
    if half is None:
        if c.get("tm_cuts"):
            raise VerificationError("Taylor-model boxes without the local piece at 1/2")
        return a
    if a != HALF:
        raise VerificationError("with the local piece the interval starts at 1/2")
    dh = q_parse(half["delta"])
    if not 0 < dh < HALF:
        raise VerificationError("the local piece at 1/2 has a bad width")
    got = half_piece(K, dh, half["order"])
    if got["leading_order"] != half["leading_order"]:
        raise VerificationError("the stored leading orders at p = 1/2 do not match")
    tcuts = [q_parse(x) for x in c["tm_cuts"]]
    if not tcuts:
        return HALF + dh
    if tcuts[0] != HALF + dh or any(x >= y for x, y in zip(tcuts, tcuts[1:])):
        raise VerificationError("the Taylor-model boxes do not start at 1/2 + delta or are not increasing")
    if tcuts[-1] > 1:
        raise VerificationError(f"a Taylor-model box ends at {tcuts[-1]}, past p = 1")
    gl, hl = c["tm_gap_lower"], c["tm_half_lower"]
    if len(gl) != len(tcuts) - 1 or len(hl) != len(tcuts) - 1:
        raise VerificationError("every Taylor-model box needs its two bounds")
    order = half["tm_order"]
    for x, y, g, h in zip(tcuts, tcuts[1:], gl, hl):
        g, h = q_parse(g), q_parse(h)
        if g < 0 or h < 0:
            raise VerificationError("a stored Taylor-model bound is negative")
        gap, hv = tm_margins(K, x, y, order)
        if not (gap.lower() >= arb(g) and hv.lower() >= arb(h)):
            raise VerificationError(f"the Taylor models on [{x}, {y}] do not imply the stored bounds")
    return tcuts[-1]


def describe10(c: dict) -> str:
    """One line naming what a conjecture10 certificate proves.

    >>> describe10({"k": 128, "interval": ["5/8", "1"]})
    'conjecture 10 for k = 128 on [5/8, 1]: N >= 1/2 and sending 127 optimal'
    """
    return f"conjecture 10 for k = {c.get('k')} on [{c['interval'][0]}, {c['interval'][1]}]: N >= 1/2 and sending {int(c.get('k', 1)) - 1} optimal"
