"""Taylor models of 1-pile Nim values around one point of p, exact or in balls.

A Taylor model of order q around ``c`` on the one-sided or two-sided box
``eps = p - c in I`` is a pair (P, R): a polynomial ``P`` of degree < q and a
ball ``R`` with

    f(c + eps) in P(eps) + eps^q R      for every eps in I.

Coefficients are exact rationals (``fmpq``) at the points where values tie
(``p = 1/2``, where every move is worth the same, and ``p = 1``) and arb balls at
other centres.  Sums and products follow the usual rules (the part of a product
of degree >= q is evaluated over I and moved into the remainder); ``1/g``
is the exact series inverse Q plus ``eps^q (1 - gQ)/eps^q / g(I)``.

The maximum over sent moves is where the method earns its keep.  With
``h = max_s f_s`` and ``h(c) = max_s f_s(c)``,
``min_s (f_s(eps) - f_s(0)) <= h(eps) - h(0) <= max_s (f_s(eps) - f_s(0))``,
so when the candidates' polynomials agree below order i,
``h in P_<i + eps^i hull_s(B_s)`` with ``B_s`` the enclosure of
``(f_s - P_<i) / eps^i``.  A move is dropped from the candidates only when
another one provably dominates it on all of I: the leading exact coefficient of
the difference has the right sign and the rest of the difference, evaluated
over I, cannot overturn it.

Examples
--------
>>> from flint import fmpq
>>> m = nim_models(3, fmpq(1, 2), fmpq(-1, 100), 0, order=2)
>>> m.value[3].P                         # N_3 = 1/2 - (1/3) eps + ... left of 1/2
[1/2, -1/3]
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb, ctx, fmpq

from ..onepoint.fastpoint import BallKey
from .hybrid import distances


class _Box:
    """The box I of eps (ends lo <= 0 <= hi, one of them 0 when one-sided) and
    its powers, plus the coefficient domain."""

    def __init__(self, lo: fmpq, hi: fmpq, exact: bool):
        self.lo, self.hi, self.exact = fmpq(lo), fmpq(hi), exact
        self.I = arb(self.lo).union(arb(self.hi))
        self._pow = {0: arb(1), 1: self.I}

    def pow(self, k: int) -> arb:
        """A ball holding eps^k for every eps in I (exact ends, monotone pieces)."""
        if k not in self._pow:
            ends = [self.lo**k, self.hi**k]
            if self.lo < 0 < self.hi and k % 2 == 0:
                ends.append(fmpq(0))
            self._pow[k] = arb(min(ends)).union(arb(max(ends)))
        return self._pow[k]

    def sign(self, k: int) -> int:
        """The sign of eps^k on I when it is constant (0 if it changes)."""
        if self.lo >= 0:
            return 1
        if self.hi <= 0:
            return 1 if k % 2 == 0 else -1
        return 1 if k % 2 == 0 else 0

    def poly(self, coeffs) -> arb:
        """A ball holding sum c_l eps^l over I."""
        out = arb(0)
        for l, c in enumerate(coeffs):
            if c != 0:
                out += arb(c) * self.pow(l) if not isinstance(c, arb) else c * self.pow(l)
        return out


class TM:
    """f(c + eps) in sum P[l] eps^l + eps^q R on the box (q = len(P))."""

    __slots__ = {
        "P": "The coefficients ``P[l]`` of ``eps^l``, l < q (exact, or balls).",
        "R": "The remainder ball, ``f(c + eps) - sum P[l] eps^l`` lying in ``eps^q R`` on the box.",
    }

    def __init__(self, P, R):
        self.P, self.R = P, R

    @property
    def q(self) -> int:
        """The model's order, ``len(P)``."""
        return len(self.P)

    def __repr__(self) -> str:
        return f"TM({self.P}, {self.R})"


def lift(f: TM, q: int, box: _Box) -> TM:
    """The same function as a model of order q <= f.q."""
    if q >= f.q:
        return f
    return TM(f.P[:q], box.poly(f.P[q:]) + box.pow(f.q - q) * f.R)


def add(f: TM, g: TM, box: _Box) -> TM:
    """``f + g``, of the lower of their orders."""
    q = min(f.q, g.q)
    f, g = lift(f, q, box), lift(g, q, box)
    return TM([x + y for x, y in zip(f.P, g.P)], f.R + g.R)


def scale(f: TM, c) -> TM:
    """``c f`` for a number (or ball) ``c``."""
    return TM([x * c for x in f.P], f.R * c)


def mul(f: TM, g: TM, box: _Box) -> TM:
    """``f g``, of the lower of their orders; the terms above it go into the remainder."""
    q = min(f.q, g.q)
    f, g = lift(f, q, box), lift(g, q, box)
    prod = [0] * (2 * q - 1) if q else []
    for i, x in enumerate(f.P):
        if x == 0:
            continue
        for j, y in enumerate(g.P):
            if y != 0:
                prod[i + j] += x * y
    fI, gI = box.poly(f.P), box.poly(g.P)
    R = box.poly(prod[q:]) + f.R * gI + g.R * fI + box.pow(q) * f.R * g.R
    return TM(prod[:q], R)


def inverse(g: TM, box: _Box) -> TM:
    """1/g, g(0) != 0 (exactly, or a ball away from 0)."""
    q = g.q
    g0 = g.P[0]
    Q = []
    for k in range(q):
        s = (1 if k == 0 else 0) - sum((g.P[j] * Q[k - j] for j in range(1, k + 1)), 0 * g0)
        Q.append(s / g0)
    # g Q = 1 + eps^q r(eps): the true low coefficients are exactly 1, 0, ...
    # (Q is the exact series inverse of the true polynomial), so only the
    # remainder of the product matters; balls merely round them.
    e = mul(g, TM(Q, arb(0)), box)
    gI = box.poly(g.P) + box.pow(q) * g.R
    return TM(Q, -e.R / gI)


def _const(c, q, exact) -> TM:
    return TM([fmpq(c) if exact else arb(c)] + [fmpq(0) if exact else arb(0)] * (q - 1), arb(0))


def _nonzero(c) -> int:
    """The sign of a coefficient when certain, else 0 (an exact 0 or an undecided ball)."""
    if isinstance(c, fmpq):
        return (c > 0) - (c < 0)
    if c > 0:
        return 1
    if c < 0:
        return -1
    return 0


def tm_max(fs: list, box: _Box):
    """(model of max_s f_s, the candidate indices): see the module docstring."""
    q = min(f.q for f in fs)
    fs = [lift(f, q, box) for f in fs]
    # order 0 first: drop the moves whose whole range lies below another's
    rng = [box.poly(f.P) + box.pow(q) * f.R for f in fs]
    floor = max((r.lower() for r in rng), key=BallKey)
    cand = [i for i, r in enumerate(rng) if not (r.upper() < floor)]
    if box.exact and len(cand) > 1:
        cand = _lex_filter(fs, cand, q, box)
    elif len(cand) > 1:  # balls: a move goes when its difference to the best is > 0 on all of I
        best = max(cand, key=lambda i: BallKey(fs[i].P[0].mid()) if q else BallKey(rng[i].mid()))
        keep = [best]
        for c in cand:
            if c != best:
                d = sub_tm(fs[best], fs[c])
                if not (box.poly(d.P) + box.pow(q) * d.R > 0):
                    keep.append(c)
        cand = keep
    if len(cand) == 1:
        return fs[cand[0]], cand
    # lowest order where the candidates' polynomials differ
    i = 0
    while i < q and all(_same(fs[c].P[i], fs[cand[0]].P[i]) for c in cand):
        i += 1
    if i == q:
        R = _hull([fs[c].R for c in cand])
        return TM(list(fs[cand[0]].P), R), cand
    if box.exact:
        B = _hull([box.poly(fs[c].P[i:]) + box.pow(q - i) * fs[c].R for c in cand])
        return TM(list(fs[cand[0]].P[:i]), B), cand
    # balls: the value at c is the max of the balls, the rest a hull of slopes
    top = fs[cand[0]].P[0]
    for c in cand[1:]:
        top = top.max(fs[c].P[0])
    B = _hull([box.poly(fs[c].P[1:]) + box.pow(q - 1) * fs[c].R for c in cand]) if q > 1 else None
    if B is None:
        return TM([], _hull(rng[c] for c in cand)), cand
    return TM([top], B), cand


def _same(x, y) -> bool:
    if isinstance(x, fmpq) and isinstance(y, fmpq):
        return x == y
    return False  # balls are never known to be equal


def _lex_filter(fs, cand, q, box):
    """Candidates left after exact lexicographic domination on a one-sided box."""
    def lead(d):
        for l, c in enumerate(d.P):
            if c != 0:
                return l
        return q

    best = cand[0]
    for c in cand[1:]:  # the lexicographic max, signs of eps^l taken into account
        d = sub_tm(fs[c], fs[best])
        l = lead(d)
        if l < q and box.sign(l) * _nonzero(d.P[l]) > 0:
            best = c
    keep = [best]
    for c in cand:
        if c == best:
            continue
        d = sub_tm(fs[best], fs[c])
        l = lead(d)
        if l == q:
            keep.append(c)
            continue
        B = box.poly(d.P[l:]) + box.pow(q - l) * d.R
        sg = box.sign(l)
        if not ((sg > 0 and B > 0) or (sg < 0 and B < 0)):
            keep.append(c)
    return keep


def sub_tm(f: TM, g: TM) -> TM:
    """``f - g`` for two models of the same order on the same box."""
    return TM([x - y for x, y in zip(f.P, g.P)], f.R - g.R)


def _hull(balls) -> arb:
    balls = list(balls)
    out = balls[0]
    for b in balls[1:]:
        out = out.union(b)
    return out


@dataclass
class Models:
    """Taylor models of every N_j and of the sent moves of the heaps kept."""

    c: fmpq  #: the centre p = c of the models
    lo: fmpq  #: the lower end of eps (the box is ``c + [lo, hi]``)
    hi: fmpq  #: the upper end of eps
    order: int  #: the models' order
    value: list  #: the model of ``N_j`` for j = 0 .. K
    moves: dict  #: for each heap j kept, the models of its sent moves' values


def _weight_models(c: fmpq, D: int, q: int, box: _Box, upper: bool):
    """Models of y^e, e = 0..D, with y = p/(1-p) (lower) or (1-p)/p (upper)."""
    ex = box.exact
    one = fmpq(1) if ex else arb(1)
    cc = c if ex else arb(c)
    eps = [fmpq(0) if ex else arb(0)] * q
    if q > 1:
        eps[1] = one
    if upper:  # u = (1 - c - eps) / (c + eps)
        num = TM([one - cc] + ([-one] if q > 1 else []) + eps[2:], arb(0))
        den = TM([cc] + ([one] if q > 1 else []) + eps[2:], arb(0))
    else:
        num = TM([cc] + ([one] if q > 1 else []) + eps[2:], arb(0))
        den = TM([one - cc] + ([-one] if q > 1 else []) + eps[2:], arb(0))
    if q == 0:
        raise ValueError("order must be >= 1")
    y = mul(num, inverse(den, box), box)
    out = [_const(1, q, ex), y]
    for _ in range(2, D + 1):
        out.append(mul(out[-1], y, box))
    return out


def nim_models(K: int, c, lo, hi, *, order: int = 2, exact=None, keep=None, prec: int = 128) -> Models:
    """Taylor models around p = c of N_j (j <= K) for eps in [lo, hi].

    Exact coefficients when ``exact`` (default: c is 1/2 or 1), balls otherwise.
    The box ``c + [lo, hi]`` must lie in [0, 1/2] or in [1/2, 1]; at ``c = 1`` the
    weights are ``u^(D_s - d)`` as in :mod:`symbolic_noise.solvers.boxes.hybrid`.
    """
    c, lo, hi = fmpq(c), fmpq(lo), fmpq(hi)
    if exact is None:
        exact = c in (fmpq(1, 2), fmpq(1))
    a, b = c + lo, c + hi
    half = fmpq(1, 2)
    if not (0 <= a <= b <= 1) or (a < half < b):
        raise ValueError("the box must lie in [0, 1/2] or in [1/2, 1]")
    upper = a >= half and b > half
    old = ctx.prec
    ctx.prec = prec
    try:
        box = _Box(lo, hi, exact)
        q = order
        D = distances(K)
        codes = 1 << D
        Y = _weight_models(c, D, q, box, upper)
        zero = _const(0, q, exact)
        x0 = _const(1, q, exact)
        value = [_const(0, q, exact)]
        moves = {}
        A = [[None] * (D + 1) for _ in range(codes)]
        G = [[0] * (D + 1) for _ in range(codes)]
        dmax = [0] * codes
        dist = [[bin(s ^ r).count("1") for s in range(codes)] for r in range(K)]

        def put(r, x):
            for s in range(codes):
                d = dist[r][s]
                A[s][d] = x if A[s][d] is None else add(A[s][d], x, box)
                G[s][d] += 1
                if d > dmax[s]:
                    dmax[s] = d

        put(0, x0)
        for j in range(1, K + 1):
            row = []
            for s in range(j):
                num, den = zero, zero
                dm = dmax[s]
                for d in range(dm + 1):
                    if not G[s][d]:
                        continue
                    w = Y[dm - d] if upper else Y[d]
                    num = add(num, mul(w, A[s][d], box), box)
                    den = add(den, scale(w, G[s][d]), box)
                row.append(mul(num, inverse(den, box), box))
            top, _ = tm_max(row, box)
            value.append(top)
            if keep is None or j in keep:
                moves[j] = row
            if j < K:
                put(j, add(_const(1, top.q, exact), scale(top, -1), box))
    finally:
        ctx.prec = old
    return Models(c, lo, hi, order, value, moves)
