"""Certificates of the hybrid method: box enclosures plus exact points.

Three kinds, each one JSON object (``"format": "symbolic-noise.hybrid/1"``)
that :func:`verify_hybrid` re-checks from the file alone:

``counterexample``
    an exact rational p and the exact values of two sent moves there; the
    verifier recomputes them with the exact pointwise engine
    (:mod:`symbolic_noise.solvers.onepoint.fastpoint`, exact rationals, no balls).
``fairness``
    the threshold p0(k) = inf{p0 : |2N_k - 1| < eps on (p0, 1]} enclosed in
    ``[q, b]``: boxes tiling [b, 1] on each of which a recomputed ball
    enclosure of ``|2N_k - 1|`` stays below the stored bound, the bound below
    eps, plus an exact point q <= b where ``|2N_k(q) - 1| >= eps`` (so p0 >= q).
    When ``|2N_k(1) - 1| >= eps`` the threshold does not exist and the file holds
    the exact N_k(1).
``conjecture9``
    boxes tiling [a, b] within [0, 1/2) on which every heap k <= K satisfies
    N_k(send 0) >= N_k(send s) + gap and N_k(send 0) >= 1/2 + margin (stored
    gap and margin rationals, checked >= 0 against recomputed balls), for the
    fixed-strategy values (every lower heap sends 0; the statement for lower
    heaps makes that the optimal play: docs/hybrid.md), plus, for the piece
    touching p = 1/2, an exact Taylor-model argument (:mod:`taylormodel`).

Examples
--------
>>> cert = fairness_certificate(12, tol=fmpq(1, 2**12))     # exact p0(12) = 0.97876039926...
>>> cert["p0"], cert["p0_decimal"]
(['4009/4096', '2005/2048'], ['0.978759765625', '0.979003906250'])
>>> verify_hybrid(cert)
True
"""

from __future__ import annotations

import time

from flint import arb, ctx, fmpq

from ..errors import VerificationError
from ..solvers.onepoint.fastpoint import point_solve
from ..games.rulesets import Nim
from ..solvers.boxes.hybrid import enclose

FORMAT = "symbolic-noise.hybrid/1"


class UndecidedError(RuntimeError):
    """Neither the boxes nor the exact points could decide (a near-tangency)."""
HALF = fmpq(1, 2)


def q_text(x: fmpq) -> str:
    return str(x)


def q_parse(s) -> fmpq:
    """An exact rational from its text ('3/8', '1', '-2/5'); nothing else."""
    if not isinstance(s, str):
        raise VerificationError(f"{s!r} is not an exact rational")
    s = s.strip()
    if "/" in s:
        n, d = s.split("/")
        if int(d) <= 0:
            raise VerificationError(f"{s!r} is not an exact rational")
        return fmpq(int(n), int(d))
    return fmpq(int(s))


def dyadic_float(s) -> float:
    """The float equal to a stored short dyadic rational (VerificationError otherwise).

    >>> dyadic_float("3/1024")
    0.0029296875
    """
    from fractions import Fraction

    q = q_parse(s)
    exact = Fraction(int(q.p), int(q.q))
    f = float(exact)
    if Fraction(f) != exact:
        raise VerificationError(f"{s} is not a short dyadic rational")
    return f


def _upper_rational(x: arb, bits: int = 24) -> fmpq:
    """A short dyadic rational >= every point of the ball x."""
    from ..solvers.onepoint.fastpoint import ball_bounds

    _, hi = ball_bounds(x)
    scaled = hi * 2**bits
    n = int(scaled.p) // int(scaled.q) + 1
    return fmpq(n, 2**bits)


def _lower_rational(x: arb, bits: int = 40) -> fmpq:
    """A short dyadic rational <= every point of the ball x."""
    return -_upper_rational(-x, bits)


# --------------------------------------------------------------------------- counterexamples


def counterexample_certificate(k: int, p, better: int, claimed: int) -> dict:
    """An exact point where sending ``better`` beats sending ``claimed`` at heap k.

    >>> c = counterexample_certificate(5, fmpq(9, 10), 4, 3)   # theory.md: k = 5 sends 4 above ~0.77
    >>> c["difference_decimal"], verify_hybrid(c)
    ('0.424433', True)
    >>> counterexample_certificate(5, fmpq(9, 10), 3, 4)
    Traceback (most recent call last):
    ...
    ValueError: sending 3 does not beat sending 4 at p = 9/10
    """
    p = fmpq(p)
    t = time.process_time()
    r = point_solve(Nim(k), "binary", p)
    vb, vc = r.move_values[better], r.move_values[claimed]
    if not vb > vc:
        raise ValueError(f"sending {better} does not beat sending {claimed} at p = {p}")
    return {
        "format": FORMAT, "kind": "counterexample", "game": "nim", "channel": "binary", "k": k,
        "statement": f"optimal {claimed} on [{p}, {p}]", "verdict": "fails",
        "p": q_text(p), "better": better, "claimed": claimed,
        "value_better": q_text(vb), "value_claimed": q_text(vc),
        "difference_decimal": f"{float(vb - vc):.6g}",
        "cpu_seconds": round(time.process_time() - t, 3),
    }


def _verify_counterexample(c: dict) -> None:
    k, p = int(c["k"]), q_parse(c["p"])
    r = point_solve(Nim(k), "binary", p)
    vb, vc = r.move_values[int(c["better"])], r.move_values[int(c["claimed"])]
    if q_parse(c["value_better"]) != vb or q_parse(c["value_claimed"]) != vc:
        raise VerificationError("the stored exact values do not match the recomputed ones")
    if not vb > vc:
        raise VerificationError("the stored move does not beat the claimed one")


# --------------------------------------------------------------------------- fairness


def _fair_bound(k: int, a: fmpq, b: fmpq, prec: int) -> arb:
    """A ball holding |2 N_k(p) - 1| for every p in [a, b]."""
    v = enclose(k, a, b, prec=prec, keep=set()).value[k]
    two = 2 * v - 1
    return abs(two)


def _certify_box(k, a, b, eps, prec, depth=0, max_depth=6):
    """Boxes tiling [a, b] each with a stored bound < eps, or None."""
    if a < HALF < b:
        left = _certify_box(k, a, HALF, eps, prec, depth, max_depth)
        right = _certify_box(k, HALF, b, eps, prec, depth, max_depth) if left is not None else None
        return None if right is None else left + right
    bound = _fair_bound(k, a, b, prec)
    if bound < eps:
        ub = _upper_rational(bound)
        if ub < eps:
            return [(a, b, ub)]
    if depth >= max_depth:
        return None
    m = (a + b) / 2
    left = _certify_box(k, a, m, eps, prec, depth + 1, max_depth)
    if left is None:
        return None
    right = _certify_box(k, m, b, eps, prec, depth + 1, max_depth)
    return None if right is None else left + right


def _fails(k, q, eps) -> bool:
    v = point_solve(Nim(k), "binary", q).value
    return abs(2 * v - 1) >= eps


def fairness_certificate(k: int, eps=fmpq(1, 100), *, tol=fmpq(1, 2**20), prec: int = 96,
                         start_width=fmpq(1, 64)) -> dict:
    """Certified enclosure ``[q, b]`` of p0(k) with ``b - q <= tol`` (when it exists)."""
    eps = fmpq(eps)
    t0 = time.process_time()
    one = point_solve(Nim(k), "binary", 1).value
    cert = {"format": FORMAT, "kind": "fairness", "game": "nim", "channel": "binary", "k": k,
            "eps": q_text(eps), "N_at_1": q_text(one), "prec": prec, "verdict": "holds"}
    if abs(2 * one - 1) >= eps:
        cert.update({"exists": False, "boxes": [], "p0": None, "fails_at": q_text(fmpq(1))})
        cert["cpu_seconds"] = round(time.process_time() - t0, 3)
        return cert
    boxes = []
    T, w = fmpq(1), fmpq(start_width)
    L = None  # a point where the condition fails, once one is found
    while L is None and T > 0:  # sweep down from p = 1 with growing boxes
        lo = max(T - w, fmpq(0))
        got = _certify_box(k, lo, T, eps, prec, max_depth=3)
        if got is not None:
            boxes, T, w = got + boxes, lo, min(w * 2, fmpq(1, 8))
        elif _fails(k, lo, eps):
            L = lo
        elif w > tol:
            w = w / 4
        else:  # tangent-close to the threshold: look for a failing point further down
            for i in range(1, 40):
                q = T - tol * 2**i
                if q <= 0:
                    break
                if _fails(k, q, eps):
                    L = q
                    break
            if L is None:
                raise RuntimeError(f"k = {k}: cannot certify near p = {T}")
    while L is not None and T - L > tol:  # bisect between the failing point and the boxes
        m = (L + T) / 2
        got = _certify_box(k, m, T, eps, prec, max_depth=3)
        if got is None and not _fails(k, m, eps):
            got = _certify_box(k, m, T, eps, prec, max_depth=14)
            if got is None:  # the threshold lies just above m: cut a little higher
                for frac in (fmpq(1, 64), fmpq(1, 16), fmpq(1, 4)):
                    m2 = m + (T - m) * frac
                    got = _certify_box(k, m2, T, eps, prec, max_depth=10)
                    if got is not None:
                        m = m2
                        break
            if got is None:  # |2N - 1| grazes eps in (m, T): a failing point there moves L up
                q = next((m + (T - m) * fmpq(i, 64) for i in range(63, 0, -1)
                          if _fails(k, m + (T - m) * fmpq(i, 64), eps)), None)
                if q is None:
                    raise UndecidedError(f"k = {k}: |2N - 1| grazes eps near p = {m}; p0 in [{L}, {T}] not certified")
                L = q
                continue
        if got is not None:
            boxes, T = got + boxes, m
        else:
            L = m
    cert.update({
        "exists": True,
        "p0": [q_text(L if L is not None else fmpq(0)), q_text(T)],
        "p0_decimal": [f"{float(L if L is not None else 0):.12f}", f"{float(T):.12f}"],
        "fails_at": q_text(L) if L is not None else None,
        "cuts": [q_text(a) for a, _, _ in boxes] + [q_text(fmpq(1))],
        "bounds": [q_text(u) for _, _, u in boxes],
    })
    cert["cpu_seconds"] = round(time.process_time() - t0, 3)
    return cert


def _verify_fairness(c: dict) -> None:
    k, eps = int(c["k"]), q_parse(c["eps"])
    one = point_solve(Nim(k), "binary", 1).value
    if q_parse(c["N_at_1"]) != one:
        raise VerificationError("N_k(1) does not match")
    if not c["exists"]:
        if abs(2 * one - 1) < eps:
            raise VerificationError("the threshold exists: |2N(1) - 1| < eps")
        return
    cuts = [q_parse(x) for x in c["cuts"]]
    bounds = [q_parse(x) for x in c["bounds"]]
    if len(cuts) != len(bounds) + 1 or not bounds:
        raise VerificationError("every box needs one bound")
    if cuts[-1] != 1:
        raise VerificationError("the boxes do not reach p = 1")
    lo, hi = q_parse(c["p0"][0]), q_parse(c["p0"][1])
    if cuts[0] != hi:
        raise VerificationError("the boxes do not start at the upper end of the enclosure of p0")
    if any(x >= y for x, y in zip(cuts, cuts[1:])):
        raise VerificationError("the cuts are not increasing")
    prec = int(c.get("prec", 96))
    for a, b, u in zip(cuts, cuts[1:], bounds):
        if not u < eps:
            raise VerificationError(f"a bound on [{a}, {b}] is not below eps")
        if a < HALF < b:
            raise VerificationError("a box straddles p = 1/2")
        got = _fair_bound(k, a, b, prec)
        if not got < arb(u) and not got <= arb(u):
            raise VerificationError(f"|2N - 1| on [{a}, {b}] is not below the stored bound {u}")
    if c["fails_at"] is None:
        if lo != 0 or hi != 0:
            raise VerificationError("without a failing point the enclosure must be p0 = 0")
        return
    q = q_parse(c["fails_at"])
    if q != lo or not q <= hi:
        raise VerificationError("the failing point is not the lower end of the enclosure")
    if not _fails(k, q, eps):
        raise VerificationError(f"the condition does not fail at p = {q}")


# --------------------------------------------------------------------------- dispatch


def describe(c: dict) -> str:
    """One line naming what a hybrid certificate proves.

    >>> describe({"kind": "fairness", "k": 10, "exists": True, "p0": ["1/2", "3/4"], "eps": "1/100"})
    'fairness k = 10: p0 in [1/2, 3/4] (|2N - 1| < 1/100 on (p0, 1])'
    """
    kind = c.get("kind")
    if kind == "fairness":
        if not c.get("exists"):
            return f"fairness k = {c.get('k')}: no threshold (N_k(1) = {c.get('N_at_1')})"
        lo, hi = c["p0"]
        return f"fairness k = {c.get('k')}: p0 in [{lo}, {hi}] (|2N - 1| < {c.get('eps')} on (p0, 1])"
    if kind == "counterexample":
        return (f"counterexample k = {c.get('k')}: at p = {c.get('p')} sending {c.get('better')} beats "
                f"sending {c.get('claimed')} (by {c.get('difference_decimal')})")
    if kind == "conjecture10":
        from .hybrid10 import describe10

        return describe10(c)
    if kind == "fairness_shared":
        from .fairshared import describe_shared

        return describe_shared(c)
    if kind == "conjecture9":
        return f"conjecture 9 for k <= {c.get('K')} on [{c.get('interval', ['?', '?'])[0]}, {c.get('interval', ['?', '?'])[1]}]"
    return f"hybrid certificate of kind {kind!r}"



def verify_hybrid(c: dict) -> bool:
    """Re-check one hybrid certificate from its JSON; True or VerificationError."""
    if c.get("format") != FORMAT:
        raise VerificationError("not a hybrid certificate")
    kind = c.get("kind")
    old = ctx.prec
    try:
        if kind == "counterexample":
            _verify_counterexample(c)
        elif kind == "fairness":
            _verify_fairness(c)
        elif kind == "conjecture9":
            from .hybrid9 import verify_conjecture9

            verify_conjecture9(c)
        elif kind == "fairness_shared":
            from .fairshared import verify_shared

            verify_shared(c)
        elif kind == "conjecture10":
            from .hybrid10 import verify_conjecture10

            verify_conjecture10(c)
        else:
            raise VerificationError(f"unknown hybrid certificate kind {kind!r}")
    finally:
        ctx.prec = old
    return True
