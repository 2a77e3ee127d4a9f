"""Certificates of the hybrid method: box enclosures plus exact points.

Five kinds, each one JSON object (``"format": "symbolic-noise.hybrid/2"``,
:mod:`symbolic_noise.analysis.hybrid.fileformat`: the game, position, channel, play,
strategies, interval and statement by name) that :func:`verify_hybrid`
re-checks from the game it rebuilds from those names:

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

from ...errors import VerificationError
from ...solvers.onepoint.fastpoint import point_solve
from ...games.rulesets import Nim
from ...solvers.boxes.hybrid import enclose
from .fileformat import FORMAT as FORMAT, bind, check_shape, envelope


class UndecidedError(RuntimeError):
    """Neither the boxes nor the exact points could decide (a near-tangency)."""
HALF = fmpq(1, 2)


def q_text(x: fmpq) -> str:
    """An exact rational as text (``'3/8'``, ``'1'``), as :func:`q_parse` reads it."""
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
    from ...solvers.onepoint.fastpoint import ball_bounds

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
    body = {
        "k": k, "p": q_text(p), "better": better, "claimed": claimed,
        "value_better": q_text(vb), "value_claimed": q_text(vc),
        "difference_decimal": f"{float(vb - vc):.6g}",
        "cpu_seconds": round(time.process_time() - t, 3),
    }
    return envelope("counterexample", k, body, *claim_of("counterexample", k, body))


def _verify_counterexample(c: dict, game, channel) -> None:
    p = q_parse(c["p"])
    if not 0 <= p <= 1:
        raise VerificationError(f"p = {p} is not in [0, 1]")
    better, claimed = c["better"], c["claimed"]
    if not (0 <= better < game.k and 0 <= claimed < game.k) or better == claimed:
        raise VerificationError(f"sending {better} and sending {claimed} are not two moves of heap {game.k}")
    r = point_solve(game, channel, p)
    vb, vc = r.move_values[better], r.move_values[claimed]
    if c["value_better"] != q_text(vb) or c["value_claimed"] != q_text(vc):
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


def _fails(k, q, eps, channel="binary") -> bool:
    v = point_solve(Nim(k), channel, q).value
    return abs(2 * v - 1) >= eps


def fairness_certificate(k: int, eps=fmpq(1, 100), *, tol=fmpq(1, 2**20), prec: int = 96,
                         start_width=fmpq(1, 64)) -> dict:
    """Certified enclosure ``[q, b]`` of p0(k) with ``b - q <= tol`` (when it exists)."""
    eps = fmpq(eps)
    t0 = time.process_time()
    one = point_solve(Nim(k), "binary", 1).value
    cert = {"k": k, "eps": q_text(eps), "N_at_1": q_text(one), "prec": prec}
    if abs(2 * one - 1) >= eps:
        cert.update({"exists": False, "boxes": [], "p0": None, "fails_at": q_text(fmpq(1))})
        cert["cpu_seconds"] = round(time.process_time() - t0, 3)
        return envelope("fairness", k, cert, *claim_of("fairness", k, cert))
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
    return envelope("fairness", k, cert, *claim_of("fairness", k, cert))


def _verify_fairness(c: dict, game, channel) -> None:
    k, eps = game.k, q_parse(c["eps"])
    if not 0 < eps < 1:
        raise VerificationError("eps must lie in (0, 1)")
    one = point_solve(game, channel, 1).value
    if c["N_at_1"] != q_text(one):
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
    if not (0 <= lo <= hi <= 1):
        raise VerificationError("the enclosure of p0 is not inside [0, 1]")
    prec = c["prec"]
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
    if not _fails(k, q, eps, channel):
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
        from .power_of_two import describe10

        return describe10(c)
    if kind == "fairness_shared":
        from .fairness import describe_shared

        return describe_shared(c)
    if kind == "conjecture9":
        return f"conjecture 9 for k <= {c.get('K')} on [{c.get('interval', ['?', '?'])[0]}, {c.get('interval', ['?', '?'])[1]}]"
    return f"hybrid certificate of kind {kind!r}"



def claim_of(kind: str, K: int, c: dict):
    """(statement, interval, verdict) that the kind's data of a certificate
    about heap K claim; the verifier derives them again and compares."""
    if kind == "counterexample":
        p = q_text(q_parse(c["p"]))
        return f"optimal {c['claimed']} on [{p}, {p}]", [p, p], "fails"
    if kind == "fairness":
        eps = q_text(q_parse(c["eps"]))
        if not c["exists"]:
            return f"|2N_{K}(1) - 1| >= {eps}: there is no threshold p0({K})", ["1", "1"], "holds"
        lo, hi = (q_text(q_parse(x)) for x in c["p0"])
        return (f"p0({K}) in [{lo}, {hi}], where p0 = inf{{p0 : |2N_{K} - 1| < {eps} on (p0, 1]}}",
                ["0", "1"], "holds")
    if kind == "fairness_shared":
        eps = q_text(q_parse(c["eps"]))
        k1 = c["ks"][0]
        return (f"for every heap k of {k1}..{K} listed: p0(k) in its stated enclosure p0 when "
                f"|2N_k(1) - 1| < {eps}, no threshold otherwise (p0 = inf{{p0 : |2N_k - 1| < {eps} on (p0, 1]}})",
                ["0", "1"], "holds")
    a, b = (q_text(q_parse(x)) for x in c["interval"])
    if kind == "conjecture9":
        return f"for every k <= {K} and p in [{a}, {b}]: N_k >= 1/2 and sending 0 is optimal", [a, b], "holds"
    if kind == "conjecture10":
        return f"N_{K} >= 1/2 and sending {K - 1} optimal on [{a}, {b}]", [a, b], "holds"
    raise VerificationError(f"unknown hybrid certificate kind {kind!r}")


def verify_hybrid(c: dict, *, max_seconds=None) -> bool:
    """Re-check one hybrid certificate (format hybrid/2); True or VerificationError.

    The shape and every size are checked first (:func:`.fileformat.check_shape`,
    a :class:`~symbolic_noise.analysis.hybrid.fileformat.CertificateFormatError`);
    then the game and channel are rebuilt from their specs, every enclosure
    and exact point is computed from them, and the statement, interval and
    verdict must be the ones the checked data prove.  A certificate whose
    check is estimated (from its sizes) to take more than ``max_seconds``
    (default ``CAPS["seconds"]``) is refused before any work."""
    from .fileformat import check_cost

    check_shape(c)
    game, channel, K = bind(c)
    check_cost(c, K, max_seconds)
    kind = c["kind"]
    statement, interval, verdict = claim_of(kind, K, c)
    if c["interval"] != interval:
        raise VerificationError(f"the interval {c['interval']} is not the one the certificate's data speak of ({interval})")
    if c["statement"] != statement:
        raise VerificationError(f"the statement is not the one the certificate's data prove: {statement}")
    if c["verdict"] != verdict:
        raise VerificationError(f'the verdict of a {kind} certificate is "{verdict}"')
    old = ctx.prec
    try:
        if kind == "counterexample":
            _verify_counterexample(c, game, channel)
        elif kind == "fairness":
            _verify_fairness(c, game, channel)
        elif kind == "conjecture9":
            from .take_all import check_conjecture9

            check_conjecture9(c, K)
        elif kind == "fairness_shared":
            from .fairness import check_shared

            check_shared(c, K, channel)
        else:
            from .power_of_two import check_conjecture10

            check_conjecture10(c, K)
    finally:
        ctx.prec = old
    return True
