"""Conjecture 9 by the hybrid method: Taylor models over boxes of p in [0, 1/2].

The proof (docs/hybrid.md) is an induction on k with one fixed strategy.  Let
``F_j`` be the value of heap j when every heap sends 0, and ``F_k(s)`` the value
of sending s from heap k when every lower heap sends 0.  If for every k <= K and
every p in [0, 1/2]

    (a) F_k(0) >= F_k(s) for every s < k,      (b) F_k(0) >= 1/2,

then N_k = F_k on [0, 1/2] for k <= K (induction: the followers' values are the
F_r, so sending 0 is optimal by (a)) and Conjecture 9 holds for k <= K.  No
maximum is taken anywhere, so every quantity is one smooth function of p and a
Taylor model never loses order.

* On a box [a, b] away from 1/2 the models are centred at the midpoint with
  ball coefficients, and (a), (b) hold when the lower end of each model's range
  over the box is >= 0.
* On [1/2 - delta, 1/2] every move ties at p = 1/2 (the channel is uniform), so
  (a) and (b) vanish there.  Exactly (docs/hybrid.md, "the first order at 1/2"):
  ``F_k(1/2) = 1/2``, ``F_k'(1/2) = -2/(k(k-1))`` and
  ``F_k(0)'(1/2) - F_k(s)'(1/2) = 0`` for even s, ``-4/k`` for odd s.  The
  models centred at 1/2 carry these values (checked to lie in the computed
  balls) and the claims reduce to the sign of a bracket over the box:
  ``(b)``: ``F_k - 1/2 = eps (S_k + eps B)`` with ``S_k + I B < 0``;
  odd s: ``D = eps (-4/k + eps B)``; even s: ``D = eps^2 (P_2 + eps B)`` with
  ``P_2 + I B > 0``.

Examples
--------
>>> from flint import fmpq
>>> box_margins(6, fmpq(1, 8), fmpq(1, 4)).holds
True
>>> local_half(6, fmpq(1, 64)).holds
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from flint import arb, ctx, fmpq

from ...errors import VerificationError
from ...solvers.boxes.hybrid import distances
from ...solvers.boxes.taylormodel import TM, _Box, _const, _weight_models, add, inverse, lift, mul, scale

HALF = fmpq(1, 2)


@dataclass
class BoxResult:
    """Lower bounds over a box: ``half`` of min_k (F_k - 1/2), ``gap`` of
    min_{k, s} (F_k(0) - F_k(s)); ``holds`` when both are certainly >= 0."""

    holds: bool  #: whether both lower bounds are certainly >= 0
    half: arb  #: the ball of the smallest ``F_k - 1/2`` over the box
    gap: arb  #: the ball of the smallest ``F_k(0) - F_k(s)`` over the box
    worst: tuple  #: the ``(k, s)`` of the smallest gap (``None`` when there is no s)


def _rows(K, c, lo, hi, q, prec, exact=False):
    """Yield (k, [models of F_k(s) for s < k]) for k = 1..K (fixed strategy)."""
    box = _Box(lo, hi, exact)
    D = distances(K)
    codes = 1 << D
    Y = _weight_models(c, D, q, box, False)
    A = [[None] * (D + 1) for _ in range(codes)]
    G = [[0] * (D + 1) for _ in range(codes)]
    dist = [[bin(s ^ r).count("1") for s in range(codes)] for r in range(K)]
    zero = _const(0, q, exact)

    def put(r, x):
        dr = dist[r]
        for s in range(codes):
            d = dr[s]
            A[s][d] = x if A[s][d] is None else add(A[s][d], x, box)
            G[s][d] += 1

    put(0, _const(1, q, exact))
    for k in range(1, K + 1):
        row = []
        for s in range(k):
            num, den = zero, zero
            for d in range(D + 1):
                if G[s][d]:
                    num = add(num, mul(Y[d], A[s][d], box), box)
                    den = add(den, scale(Y[d], G[s][d]), box)
            row.append(mul(num, inverse(den, box), box))
        yield k, row, box
        if k < K:
            put(k, add(_const(1, row[0].q, exact), scale(row[0], -1), box))


def _range(f: TM, box) -> arb:
    return box.poly(f.P) + box.pow(f.q) * f.R


def box_margins(K: int, a, b, *, order: int = 5, prec: int = 128) -> BoxResult:
    """Claims (a), (b) for every k <= K on the box [a, b] (inside [0, 1/2])."""
    a, b = fmpq(a), fmpq(b)
    if not (0 <= a < b <= HALF):
        raise ValueError("a box of Conjecture 9 lies in [0, 1/2]")
    c = (a + b) / 2
    old = ctx.prec
    ctx.prec = prec
    try:
        half, gap, worst = arb(1), arb(1), None
        for k, row, box in _rows(K, c, a - c, b - c, order, prec):
            if k == 1:
                continue
            f0 = row[0]
            h = _range(TM([f0.P[0] - HALF] + f0.P[1:], f0.R), box)
            if not (h.lower() >= half.lower()):
                half = h
            for s in range(1, k):
                d = _range(TM([x - y for x, y in zip(lift(f0, row[s].q, box).P, row[s].P)], f0.R - row[s].R)
                           if f0.q == row[s].q else _diff(f0, row[s], box), box)
                if not (d.lower() >= gap.lower()):
                    gap, worst = d, (k, s)
        return BoxResult(bool(half.lower() >= 0) and bool(gap.lower() >= 0), half, gap, worst)
    finally:
        ctx.prec = old


def _diff(f, g, box):
    q = min(f.q, g.q)
    f, g = lift(f, q, box), lift(g, q, box)
    return TM([x - y for x, y in zip(f.P, g.P)], f.R - g.R)


@dataclass
class LocalResult:
    """The exact local argument on [1/2 - delta, 1/2]: the brackets' balls."""

    holds: bool  #: whether every bracket is certainly of the sign the claims need
    delta: fmpq  #: the half-width of the interval [1/2 - delta, 1/2]
    order: int  #: the order of the Taylor models at 1/2
    brackets: dict  #: ``"half"``, ``"odd"``, ``"even"`` to the worst bracket ball of each kind
    second: dict  #: each k to a lower bound of the smallest even-s second coefficient


def local_half(K: int, delta, *, order: int = 5, prec: int = 256) -> LocalResult:
    """Claims (a), (b) for every k <= K on [1/2 - delta, 1/2] from models at 1/2."""
    delta = fmpq(delta)
    old = ctx.prec
    ctx.prec = prec
    worst = {"half": None, "odd": None, "even": None}
    second = {}
    ok = True
    try:
        for k, row, box in _rows(K, HALF, -delta, fmpq(0), order, prec):
            if k == 1:
                continue
            I = box.I
            f0 = row[0]
            S = fmpq(-2, k * (k - 1))
            if not (f0.P[0] - HALF).contains(0) or not (f0.P[1] - S).contains(0):
                raise VerificationError(f"k = {k}: the model at 1/2 contradicts F_k(1/2) = 1/2, F_k'(1/2) = {S}")
            B = box.poly(f0.P[2:]) + box.pow(order - 2) * f0.R
            br = arb(S) + I * B
            worst["half"] = _worse(worst["half"], -br)
            ok = ok and bool(br < 0)
            low = None
            for s in range(1, k):
                d = _diff(f0, row[s], box)
                P1 = fmpq(0) if s % 2 == 0 else fmpq(-4, k)
                if not d.P[0].contains(0) or not (d.P[1] - P1).contains(0):
                    raise VerificationError(f"k = {k}, s = {s}: the model at 1/2 contradicts the first-order lemma")
                if s % 2:
                    B = box.poly(d.P[2:]) + box.pow(order - 2) * d.R
                    br = arb(P1) + I * B
                    worst["odd"] = _worse(worst["odd"], -br)
                    ok = ok and bool(br < 0)
                else:
                    B = box.poly(d.P[3:]) + box.pow(order - 3) * d.R
                    br = d.P[2] + I * B
                    worst["even"] = _worse(worst["even"], br)
                    ok = ok and bool(br > 0)
                    low = d.P[2] if low is None or d.P[2] < low else low
            if low is not None:
                second[k] = low
        return LocalResult(ok, delta, order, worst, second)
    finally:
        ctx.prec = old


def _worse(cur, new):
    """The ball with the smaller lower end (the claim closest to failing)."""
    if cur is None or new.lower() < cur.lower():
        return new
    return cur


# --------------------------------------------------------------------------- certificates


def _short_lower(x: arb, bits: int = 48) -> str:
    """A short dyadic lower bound of a ball (text)."""
    from .certificates import _lower_rational

    return str(_lower_rational(x, bits))


def certify(K: int, a, b, *, order: int = 5, local_order: int = 6, delta=None, prec: int = 128,
            min_width=fmpq(1, 2**20), progress=None) -> dict:
    """A conjecture9 certificate for every k <= K on [a, b] (b <= 1/2).

    When b = 1/2 the piece [1/2 - delta, 1/2] is the local argument at 1/2
    (delta halves from 1/32 until the brackets hold, unless given)."""
    a, b = fmpq(a), fmpq(b)
    t0 = time.process_time()
    local = None
    top = b
    if b == HALF:
        deltas = [fmpq(delta)] if delta is not None else [fmpq(1, 2**i) for i in range(5, 16)]
        for dl in deltas:
            if dl >= b - a:
                continue
            r = local_half(K, dl, order=local_order)
            if progress:
                progress(f"local argument at 1/2, delta = {dl}: {'holds' if r.holds else 'not yet'}")
            if r.holds:
                local = r
                top = HALF - dl
                break
        if local is None:
            raise RuntimeError(f"K = {K}: the local argument at 1/2 does not close")
    boxes = []
    stack = [(a, top)]
    while stack:
        lo, hi = stack.pop()
        r = box_margins(K, lo, hi, order=order, prec=prec)
        if r.holds:
            boxes.append((lo, hi, r))
            if progress:
                progress(f"[{float(lo):.6f}, {float(hi):.6f}] holds")
            continue
        if hi - lo <= min_width:
            raise RuntimeError(f"K = {K}: cannot certify [{lo}, {hi}] (worst k, s = {r.worst})")
        m = (lo + hi) / 2
        stack.append((m, hi))
        stack.append((lo, m))
    boxes.sort(key=lambda t: t[0])
    cert = {
        "K": K, "order": order, "prec": prec,
        "cuts": [str(lo) for lo, _, _ in boxes] + ([str(boxes[-1][1])] if boxes else [str(top)]),
        "half_lower": [_short_lower(r.half) for _, _, r in boxes],
        "gap_lower": [_short_lower(r.gap) for _, _, r in boxes],
        "local": None,
    }
    if local is not None:
        cert["local"] = {
            "at": "1/2", "side": "left", "delta": str(local.delta), "order": local.order, "prec": 256,
            "first_order": "F_k(1/2) = 1/2, F_k'(1/2) = -2/(k(k-1)); D_s'(1/2) = 0 (s even), -4/k (s odd)",
            "half_margin_lower": _short_lower(local.brackets["half"]),
            "odd_margin_lower": _short_lower(local.brackets["odd"]) if local.brackets["odd"] is not None else None,
            "even_margin_lower": _short_lower(local.brackets["even"]) if local.brackets["even"] is not None else None,
            "second_coefficient_lower": {str(k): _short_lower(v, 64) for k, v in local.second.items() if k in _sample(K)},
        }
    cert["cpu_seconds"] = round(time.process_time() - t0, 2)
    from .certificates import claim_of
    from .fileformat import envelope

    cert["interval"] = [str(a), str(b)]
    return envelope("conjecture9", K, cert, *claim_of("conjecture9", K, cert))


def _sample(K):
    return {k for k in (2, 4, 8, 16, 32, 64, 128, 256, 512, K) if k <= K}


def verify_conjecture9(c: dict) -> bool:
    """Verify a ``conjecture9`` certificate (:func:`~symbolic_noise.analysis.hybrid.certificates.verify_hybrid`)."""
    from .certificates import verify_hybrid

    if not isinstance(c, dict) or c.get("kind") != "conjecture9":
        raise VerificationError("not a conjecture9 certificate")
    return verify_hybrid(c)


def check_conjecture9(c: dict, K: int) -> None:
    """Re-derive every box's margins and the local argument for heaps <= K (the
    game's heap); VerificationError if any fails.  ``c`` has passed
    :func:`~symbolic_noise.analysis.hybrid.fileformat.check_shape`."""
    from .certificates import q_parse

    a, b = (q_parse(x) for x in c["interval"])
    if not (0 <= a < b <= HALF):
        raise VerificationError("Conjecture 9 is about p in [0, 1/2]")
    cuts = [q_parse(x) for x in c["cuts"]]
    halfs = [q_parse(x) for x in c["half_lower"]]
    gaps = [q_parse(x) for x in c["gap_lower"]]
    if len(halfs) != len(cuts) - 1 or len(gaps) != len(cuts) - 1:
        raise VerificationError("every box needs its two bounds")
    if cuts[0] != a:
        raise VerificationError("the boxes do not start at the interval's lower end")
    if any(x >= y for x, y in zip(cuts, cuts[1:])):
        raise VerificationError("the cuts are not increasing")
    loc = c.get("local")
    if loc is None:
        if cuts[-1] != b:
            raise VerificationError("the boxes do not reach the interval's upper end")
    else:
        dl = q_parse(loc["delta"])
        if b != HALF or cuts[-1] != HALF - dl or not dl > 0:
            raise VerificationError("the local argument must cover exactly [1/2 - delta, 1/2]")
        r = local_half(K, dl, order=loc["order"], prec=loc["prec"])
        if not r.holds:
            raise VerificationError("the local argument at 1/2 does not hold")
        for key in ("half", "odd", "even"):  # each stored margin must be implied (and >= 0)
            stored = loc.get(f"{key}_margin_lower")
            if r.brackets[key] is None:
                continue
            if stored is None or q_parse(stored) < 0 or not r.brackets[key] >= arb(q_parse(stored)):
                raise VerificationError(f"the stored {key} margin of the local argument is not implied by the recomputed one")
        for k, v in loc["second_coefficient_lower"].items():
            if int(k) not in r.second or not r.second[int(k)] >= arb(q_parse(v)):
                raise VerificationError(f"the second coefficient for k = {k} is below the stored bound")
    order, prec = c["order"], c["prec"]
    for lo, hi, h, g in zip(cuts, cuts[1:], halfs, gaps):
        if h < 0 or g < 0:
            raise VerificationError(f"a stored bound on [{lo}, {hi}] is negative: not a proof")
        r = box_margins(K, lo, hi, order=order, prec=prec)
        if not (r.half >= arb(h)) or not (r.gap >= arb(g)):
            raise VerificationError(f"the recomputed margins on [{lo}, {hi}] are below the stored bounds")
