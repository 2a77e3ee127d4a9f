"""Fairness thresholds of many heaps from one shared set of boxes.

One enclosure of the recursion over heaps on a box of p bounds every N_j,
j <= K, at once (:mod:`symbolic_noise.solvers.boxes.floatbox`).  A certificate of kind
``fairness_shared`` (format ``symbolic-noise.hybrid/1``) proves
p0(k) in [q_k, b_k] for every heap k of a batch k1..k2 it lists:

* ``cuts`` tile [c_0, 1] with shared boxes, each with one stored bound u_i < eps;
  heap k claims the shared boxes from index ``shared_from`` on, i.e. [T_k, 1]
  with T_k = cuts[shared_from], and on every box the verifier recomputes the
  intervals of all heaps <= k2 and checks |2N_k - 1| <= u_i for each heap
  claiming it;
* per heap, ``local_cuts`` tile [b_k, T_k] with boxes checked for that heap
  alone (heaps <= k recomputed), each with its bound ``local_bounds``;
* per heap, the exact point ``fails_at`` = q_k with |2N_k(q_k) - 1| >= eps
  (recomputed with the exact pointwise engine), q_k <= b_k;
* per heap, the exact N_k(1); a heap with |2N_k(1) - 1| >= eps has no threshold.

The stored bounds are claims: the verifier derives every interval from the box
ends alone.  Where the condition |2N_k - 1| < eps fails only at p = 1 the heap is
listed with ``exists: false``.

Examples
--------
>>> c = shared_certificate(10, 12, tol=fmpq(1, 2**10))
>>> [(h["k"], h["p0"]) for h in c["heaps"]]          # exact p0(12) = 0.97876039926...
[(10, ['32591/32768', '32593/32768']), (11, ['32179/32768', '32181/32768']), (12, ['32071/32768', '32073/32768'])]
>>> verify_shared(c)
True
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
from flint import fmpq

from ...errors import VerificationError
from .certificates import UndecidedError, dyadic_float, q_parse
from ...games.rulesets import Nim
from ...solvers.onepoint.fastpoint import point_solve
from ...solvers.boxes.floatbox import HALF, LOWEST, bisect_until, check_float_environment, enclose_many

from .fileformat import FORMAT as FORMAT, envelope
_BITS = 24  # stored bounds are multiples of 2^-24
_MARGIN = 2.0**-22  # a box is kept when its float bound is this far below eps, so the stored bound is < eps


def _fair_upper(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Floats >= |2N - 1| for N in [lo, hi] (rounded up)."""
    return np.nextafter(np.maximum(2 * hi - 1, 1 - 2 * lo), np.inf)


def _bound_text(x: float) -> str:
    """A short dyadic >= x, as text."""
    n = int(np.floor(x * 2**_BITS)) + 1
    return str(fmpq(n, 2**_BITS))


def _fails(k: int, q: fmpq, eps: fmpq, channel="binary") -> bool:
    return abs(2 * point_solve(Nim(k), channel, q).value - 1) >= eps


def _split(a: fmpq, b: fmpq):
    return [(a, HALF), (HALF, b)] if a < HALF < b else [(a, b)]


def _cover(K, ks, a, b, eps_f, max_depth):
    """Boxes tiling [a, b] (descending order) with, per box, the worst float bound
    of |2N_k - 1| over the heaps ks; bisected level by level (vectorised) until
    every box is below eps, or None when some box at max_depth is not."""

    def judge(boxes):
        lo, hi = enclose_many(K, boxes)
        worst = _fair_upper(lo[:, ks], hi[:, ks]).max(axis=1)
        return [(w < eps_f, float(w)) for w in worst]

    done, refused = bisect_until(_split(a, b), judge, max_depth)
    return None if refused else done[::-1]


def _point_values(k, points):
    lo, hi = enclose_many(k, [(p, p) for p in points])
    return _fair_upper(lo[:, [k]], hi[:, [k]])[:, 0], np.maximum(2 * lo[:, k] - 1, 1 - 2 * hi[:, k])


def _local(k: int, T: fmpq, eps: fmpq, tol: fmpq, floor: fmpq):
    """(local boxes tiling [b, T] descending, q, b): the heap's own refinement below T."""
    eps_hold = float(eps) - _MARGIN
    eps_fail = float(eps)
    boxes = []
    step = fmpq(1, 2**14)
    while True:
        # points scanned downwards propose where the condition first fails
        pts = [T - step * i for i in range(1, 65) if T - step * i >= floor]
        if not pts:
            raise UndecidedError(f"k = {k}: no failing point above {floor}")
        _, low = _point_values(k, pts)
        bad = [i for i, v in enumerate(low) if v > eps_fail]
        if not bad:  # no failure in sight: cover the stretch and go on
            got = _cover(k, [k], pts[-1], T, eps_hold, 14)
            if got is None:
                raise UndecidedError(f"k = {k}: |2N - 1| grazes eps in [{pts[-1]}, {T}]")
            boxes += got
            T = pts[-1]
            continue
        i = bad[0]
        hi_p = T if i == 0 else pts[i - 1]
        lo_p = pts[i]  # fails (float proposal); the condition holds at hi_p (proposal)
        while hi_p - lo_p > tol / 8:
            m = (lo_p + hi_p) / 2
            _, v = _point_values(k, [m])
            if v[0] > eps_fail:
                lo_p = m
            else:
                hi_p = m
        q = next((lo_p - tol * i / 64 for i in range(8) if _fails(k, lo_p - tol * i / 64, eps)), None)
        if q is None:
            raise UndecidedError(f"k = {k}: no exact failing point near the proposed {lo_p}")
        b = q + tol
        if b >= T:
            return boxes, q, T
        got = _cover(k, [k], b, T, eps_hold, 22)
        if got is None:
            raise UndecidedError(f"k = {k}: |2N - 1| grazes eps in [{b}, {T}]")
        return boxes + got, q, b


def shared_certificate(k1: int, k2: int, eps=fmpq(1, 100), *, tol=fmpq(1, 2**16), width=fmpq(1, 2**12),
                       depth: int = 3, block: int = 64, floor=fmpq(1, 8), progress=None) -> dict:
    """The ``fairness_shared`` certificate of heaps k1..k2 (see the module docstring)."""
    check_float_environment()
    eps, tol, width = fmpq(eps), fmpq(tol), fmpq(width)
    t0 = time.process_time()
    eps_f = float(eps) - _MARGIN
    heaps = {}
    alive = []
    for k in range(k1, k2 + 1):
        one = point_solve(Nim(k), "binary", 1).value
        heaps[k] = {"k": k, "N_at_1": str(one), "exists": bool(abs(2 * one - 1) < eps)}
        if heaps[k]["exists"]:
            alive.append(k)
    shared = []  # (a, b, worst) descending
    T = fmpq(1)
    ends = {}
    while alive:
        if T <= floor:
            raise UndecidedError(f"heaps {alive}: the condition holds down to {floor}")
        tops = [T - width * i for i in range(block)]
        coarse = [(max(t - width, floor), t) for t in tops if t > floor]
        pieces = [pc for a, b in coarse for pc in _split(a, b)]
        lo, hi = enclose_many(k2, pieces)
        F = _fair_upper(lo, hi)
        for (a, b), row in zip(pieces, F):
            if not alive:
                break
            if row[alive].max() < eps_f:
                shared.append((a, b, float(row[alive].max())))
                T = a
                continue
            got = _cover(k2, alive, a, b, eps_f, depth)
            if got is not None:
                shared += got
                T = a
                continue
            # walk the box's leaves top-down; a heap ends at the first leaf bad for it
            sub = _leaves(k2, a, b, depth)
            for x, y, r in sub:
                dead = [k for k in alive if r[k] >= eps_f]
                for k in dead:
                    ends[k] = y
                alive = [k for k in alive if k not in dead]
                if not alive:
                    break
                shared.append((x, y, float(r[alive].max())))
                T = x
            if alive:
                T = a
        if progress:
            progress(f"shared boxes down to {float(T):.6f}, {len(alive)} heaps open")
    cuts = sorted({a for a, _, _ in shared} | {fmpq(1)})
    index = {c: i for i, c in enumerate(cuts)}
    bounds = {a: w for a, _, w in shared}
    undecided = {}
    for k, Tk in sorted(ends.items()):
        try:
            local, q, b = _local(k, Tk, eps, tol, floor)
        except UndecidedError as exc:
            undecided[k] = str(exc)
            heaps.pop(k)
            continue
        lc = sorted({x for x, _, _ in local} | {Tk}) if local else [Tk]
        lb = {x: w for x, _, w in local}
        heaps[k].update({
            "p0": [str(q), str(b)], "p0_decimal": [f"{float(q):.12f}", f"{float(b):.12f}"],
            "fails_at": str(q), "shared_from": index[Tk],
            "local_cuts": [str(x) for x in lc], "local_bounds": [_bound_text(lb[x]) for x in lc[:-1]],
        })
        if progress:
            progress(f"k = {k}: p0 in [{float(q):.8f}, {float(b):.8f}]")
    body = {
        "arithmetic": "binary64 intervals, outward rounded (symbolic_noise.solvers.boxes.floatbox)",
        "ks": [k1, k2], "eps": str(eps),
        "cuts": [str(c) for c in cuts], "bounds": [_bound_text(bounds[c]) for c in cuts[:-1]],
        "heaps": [heaps[k] for k in sorted(heaps)], "undecided": {str(k): v for k, v in undecided.items()},
        "cpu_seconds": round(time.process_time() - t0, 3),
    }
    from .certificates import claim_of

    return envelope("fairness_shared", k2, body, *claim_of("fairness_shared", k2, body))


def _leaves(K, a, b, depth):
    """The 2^depth equal sub-boxes of [a, b] (descending) with their rows of float bounds."""
    n = 2**depth
    w = (b - a) / n
    subs = [(b - w * (i + 1), b - w * i) for i in range(n)]
    lo, hi = enclose_many(K, subs)
    F = _fair_upper(lo, hi)
    return [(x, y, F[i]) for i, (x, y) in enumerate(subs)]


def _check_tiling(cuts, what):
    if any(x >= y for x, y in zip(cuts, cuts[1:])):
        raise VerificationError(f"the {what} are not increasing")
    for a, b in zip(cuts, cuts[1:]):
        if a < HALF < b:
            raise VerificationError(f"a box of the {what} straddles p = 1/2")
    if cuts and cuts[0] < LOWEST:
        raise VerificationError(f"the {what} reach below {LOWEST}")


def _check_boxes(K, cuts, bounds, claims, eps_f, what):
    """Every box i: the heaps claims[i] have |2N - 1| <= bounds[i] < eps (recomputed)."""
    if len(bounds) != len(cuts) - 1:
        raise VerificationError(f"every box of the {what} needs one bound")
    if not bounds:
        return
    u = np.array([dyadic_float(x) for x in bounds])
    if not np.all(u < eps_f):
        raise VerificationError(f"a bound of the {what} is not below eps")
    lo, hi = enclose_many(K, list(zip(cuts, cuts[1:])))
    F = _fair_upper(lo, hi)
    worst = np.array([F[i, ks].max() if len(ks) else -1.0 for i, ks in enumerate(claims)])
    bad = np.nonzero(worst > u)[0]
    if len(bad):
        i = int(bad[0])
        raise VerificationError(f"|2N - 1| on [{cuts[i]}, {cuts[i + 1]}] of the {what} is not below the stored bound")


def verify_shared(c: dict) -> bool:
    """Verify a ``fairness_shared`` certificate (:func:`~symbolic_noise.analysis.hybrid.certificates.verify_hybrid`)."""
    from .certificates import verify_hybrid

    if not isinstance(c, dict) or c.get("kind") != "fairness_shared":
        raise VerificationError("not a shared fairness certificate")
    return verify_hybrid(c)


def check_shared(c: dict, K: int, channel="binary") -> bool:
    """Re-check a ``fairness_shared`` certificate of heaps ks[0]..K (the game's
    heap); ``c`` has passed :func:`~symbolic_noise.analysis.hybrid.fileformat.check_shape`."""
    check_float_environment()
    k1, k2 = c["ks"][0], K
    eps = q_parse(c["eps"])
    if not (0 < eps < 1):
        raise VerificationError("eps must lie in (0, 1)")
    eps_f = float(eps)
    if Fraction(eps_f) >= Fraction(int(eps.p), int(eps.q)):
        eps_f = float(np.nextafter(eps_f, -np.inf))  # float comparisons must imply < eps
    cuts = [q_parse(x) for x in c["cuts"]]
    if cuts[-1] != 1:
        raise VerificationError("the shared boxes do not reach p = 1")
    _check_tiling(cuts, "shared cuts")
    heaps = c["heaps"]
    if [h["k"] for h in heaps] != sorted({int(h["k"]) for h in heaps}) or any(not k1 <= int(h["k"]) <= k2 for h in heaps):
        raise VerificationError("the heaps are not distinct heaps of the batch in increasing order")
    start = {}
    for h in heaps:
        k = int(h["k"])
        one = point_solve(Nim(k), channel, 1).value
        if h["N_at_1"] != str(one):
            raise VerificationError(f"N_{k}(1) does not match")
        if bool(h["exists"]) != bool(abs(2 * one - 1) < eps):
            raise VerificationError(f"k = {k}: the existence of the threshold is misstated")
        if not h["exists"]:
            continue
        i = h["shared_from"]
        if not 0 <= i < len(cuts):
            raise VerificationError(f"k = {k}: shared_from is out of range")
        start[k] = i
        lc = [q_parse(x) for x in h["local_cuts"]]
        q, b = (q_parse(x) for x in h["p0"])
        if not lc or lc[-1] != cuts[i] or lc[0] != b:
            raise VerificationError(f"k = {k}: the local boxes do not join [p0 upper end, shared boxes]")
        _check_tiling(lc, f"local cuts of k = {k}")
        _check_boxes(k, lc, h["local_bounds"], [[k]] * (len(lc) - 1), eps_f, f"local cuts of k = {k}")
        if q_parse(h["fails_at"]) != q or not q <= b:
            raise VerificationError(f"k = {k}: the failing point is not the lower end of the enclosure")
        if not _fails(k, q, eps, channel):
            raise VerificationError(f"k = {k}: the condition does not fail at p = {q}")
    claims = [[k for k, i0 in start.items() if i0 <= i] for i in range(len(cuts) - 1)]
    _check_boxes(k2, cuts, c["bounds"], claims, eps_f, "shared cuts")
    return True


def describe_shared(c: dict) -> str:
    """One line naming what a shared fairness certificate proves.

    >>> describe_shared({"ks": [87, 90], "heaps": [{"exists": True}, {"exists": False}], "eps": "1/100"})
    'fairness k = 87..90: 1 thresholds enclosed, 1 heaps without one (|2N - 1| < 1/100 on (p0, 1])'
    """
    n = sum(1 for h in c.get("heaps", []) if h.get("exists"))
    m = sum(1 for h in c.get("heaps", []) if not h.get("exists"))
    return (f"fairness k = {c['ks'][0]}..{c['ks'][1]}: {n} thresholds enclosed, {m} heaps without one "
            f"(|2N - 1| < {c.get('eps')} on (p0, 1])")
