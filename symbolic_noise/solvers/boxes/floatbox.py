"""Interval enclosures of every 1-pile Nim value over many boxes of p at once.

The same enclosure as :func:`symbolic_noise.solvers.boxes.hybrid.enclose` (docs/hybrid.md),
evaluated in IEEE binary64 interval arithmetic with outward rounding and
vectorised over a block of boxes and over the sent codes.  It is about twenty
times faster than the arb version at k = 256, which is what lets one shared set
of boxes carry the fairness thresholds of every heap k <= 256.

Why the intervals are rigorous
------------------------------
Every quantity is nonnegative: x_r = 1 - N_r in [0, 1], the weights y^e
(y = t = p/(1-p) below 1/2, y = u = 1/t above), the counts G.  So interval
operations are endpoint formulas: a product of nonnegative intervals is
[lo*lo, hi*hi], a quotient [lo/hi, hi/lo].  binary64 with round-to-nearest
returns the exact result within half an ulp, so each lower end is moved one
float down and each upper end one float up (``numpy.nextafter``) after every
operation; lower ends of quantities known to be >= 0 are clipped at 0.  Sums of up to D + 1 <= 10 nonnegative terms are formed in any order
with round-to-nearest; the error is at most gamma_9 = 9u/(1 - 9u) < 2^-49
relative (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
eq. 4.4), so the lower sum is scaled by 1 - 2^-45 and the upper by 1 + 2^-45
(then rounded outward).  The box ends enter as exact rationals: ``y(a)^e`` and
``y(b)^e`` are computed in QQ and rounded outward to floats.  The values N are
weighted means of the x_r, so intervals are clipped to [0, 1].  Subnormal
results, where the relative error bound fails, cannot arise: boxes lie in
[1/64, 1], every nonzero weight is >= 2^-800 (checked), and a nonzero lower end
of an x or of a sum of x's is >= 2^-60 (floats below 1 - 2^-53 are 2^-53 apart),
so every nonzero product is above 2^-1022.
:func:`check_float_environment` verifies round-to-nearest binary64 before any
use, and the verifier calls it.

Examples
--------
>>> from flint import fmpq
>>> lo, hi = enclose_many(3, [(fmpq(1, 4), fmpq(1, 4))])     # N_3(1/4) = 13/20
>>> bool(lo[0, 3] <= 0.65 <= hi[0, 3]), float(hi[0, 3] - lo[0, 3]) < 1e-12
(True, True)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from flint import fmpq

from .hybrid import distances

HALF = fmpq(1, 2)
LOWEST = fmpq(1, 64)
_SUM_SLACK = 2.0 ** -45
_TINY = 2.0 ** -800
_DOWN, _UP = -np.inf, np.inf


def check_float_environment() -> None:
    """Raise RuntimeError unless numpy float64 rounds to nearest (binary64).

    >>> check_float_environment()
    """
    one = np.float64(1.0)
    tiny = np.float64(2.0 ** -53)
    ok = (np.finfo(np.float64).nmant == 52
          and one + tiny == one                                  # a tie rounds to even
          and one + tiny * 1.5 == one + 2 * tiny                 # above half an ulp rounds up
          and -one - tiny * 1.5 == -one - 2 * tiny               # ... and symmetric below
          and np.float64(1.0) / np.float64(3.0) * 3 == one)
    if not ok:
        raise RuntimeError("numpy float64 arithmetic is not round-to-nearest binary64")


def _down(x):
    return np.nextafter(x, _DOWN)


def _up(x):
    return np.nextafter(x, _UP)


def q_down(q: fmpq) -> float:
    """The largest float <= the rational q.

    >>> Fraction(q_down(fmpq(1, 3))) <= Fraction(1, 3) < Fraction(q_down(fmpq(1, 3))) + Fraction(1, 2**54)
    True
    """
    f = float(Fraction(int(q.p), int(q.q)))
    return f if Fraction(f) <= Fraction(int(q.p), int(q.q)) else float(np.nextafter(f, _DOWN))


def q_up(q: fmpq) -> float:
    """The smallest float >= the rational q."""
    return -q_down(-q)


def _weights(boxes, D: int, upper: bool):
    """(lo, hi) arrays of shape (B, D+1): y^e over each box (y = t or u)."""
    lo = np.empty((len(boxes), D + 1))
    hi = np.empty((len(boxes), D + 1))
    for i, (a, b) in enumerate(boxes):
        if upper:
            y0, y1 = (1 - b) / b, (1 - a) / a
        else:
            y0, y1 = a / (1 - a), b / (1 - b)
        for e in range(D + 1):
            lo[i, e] = q_down(y0**e)
            hi[i, e] = q_up(y1**e)
    if np.any((lo > 0) & (lo < _TINY)):
        raise ValueError("a weight is too small for the rounding argument (a box end too close to 1)")
    return lo, hi


class _Tables:
    """Per heap r: the distance of every code to r (an int array)."""

    def __init__(self, K: int):
        self.D = distances(K)
        codes = 1 << self.D
        s = np.arange(codes)
        self.dist = [np.array([bin(int(x) ^ r).count("1") for x in s], dtype=np.int64) for r in range(K)]
        self.codes = codes


def enclose_many(K: int, boxes, *, block: int = 64, moves: bool = False):
    """(lo, hi) float arrays of shape (len(boxes), K+1): for every box [a, b] in
    ``boxes`` and every j <= K, lo[i, j] <= N_j(p) <= hi[i, j] for all p in [a, b].

    Each box must lie in [1/64, 1/2] or in [1/2, 1].  With ``moves`` also
    (mlo, mhi) of shape (len(boxes), K): the same for N_K(send s), s < K.

    >>> lo, hi = enclose_many(2, [(fmpq(1, 8), fmpq(1, 2))])   # N_2 = 1 - p
    >>> bool(lo[0, 2] <= 0.5) and bool(hi[0, 2] >= 7/8)
    True
    """
    boxes = [(fmpq(a), fmpq(b)) for a, b in boxes]
    for a, b in boxes:
        if not (LOWEST <= a <= b <= 1) or (a < HALF < b):
            raise ValueError("each box must lie in [1/64, 1/2] or in [1/2, 1]")
    lo = np.zeros((len(boxes), K + 1))
    hi = np.zeros((len(boxes), K + 1))
    mlo = np.zeros((len(boxes), K))
    mhi = np.zeros((len(boxes), K))
    T = _Tables(K)
    groups = {False: [], True: []}
    for i, (a, b) in enumerate(boxes):
        groups[a >= HALF and b > HALF].append(i)
    for upper, idx in groups.items():
        for start in range(0, len(idx), block):
            part = idx[start:start + block]
            l, h, ml, mh = _enclose_block(K, [boxes[i] for i in part], upper, T)
            lo[part], hi[part], mlo[part], mhi[part] = l, h, ml, mh
    return (lo, hi, mlo, mhi) if moves else (lo, hi)


def bisect_until(boxes, judge, max_depth: int):
    """Bisect boxes level by level until ``judge`` accepts each.

    ``judge(list_of_boxes)`` returns one (accepted, info) pair per box; it is
    called once per level, so it can enclose a whole level in one vectorised
    call.  Returns (the accepted boxes as (a, b, info) in increasing order,
    None) or (those accepted so far, the first box refused at ``max_depth``).

    >>> bisect_until([(fmpq(0), fmpq(1))], lambda bs: [(b - a <= fmpq(1, 4), None) for a, b in bs], 3)[0][:2]
    [(0, 1/4, None), (1/4, 1/2, None)]
    """
    pending, done = list(boxes), []
    for depth in range(max_depth + 1):
        nxt = []
        for (x, y), (ok, info) in zip(pending, judge(pending)):
            if ok:
                done.append((x, y, info))
            elif depth == max_depth:
                return sorted(done, key=lambda t: t[0]), (x, y)
            else:
                m = (x + y) / 2
                nxt += [(x, m), (m, y)]
        pending = nxt
        if not pending:
            break
    return sorted(done, key=lambda t: t[0]), None


def _enclose_block(K: int, boxes, upper: bool, T: _Tables):
    D, codes = T.D, T.codes
    B = len(boxes)
    Ylo, Yhi = _weights(boxes, D, upper)
    Alo = np.zeros((B, codes, D + 1))
    Ahi = np.zeros((B, codes, D + 1))
    G = np.zeros((codes, D + 1))
    dmax = np.zeros(codes, dtype=np.int64)
    dcol = np.arange(D + 1)
    rows = np.arange(codes)
    vlo = np.zeros((B, K + 1))
    vhi = np.zeros((B, K + 1))

    def add(r, xlo, xhi):
        d = T.dist[r]
        Alo[:, rows, d] = np.maximum(_down(Alo[:, rows, d] + xlo[:, None]), 0.0)
        Ahi[:, rows, d] = _up(Ahi[:, rows, d] + xhi[:, None])
        G[rows, d] += 1
        np.maximum(dmax, d, out=dmax)

    one = np.ones(B)
    add(0, one, one)  # heap 0 is a P-position: x_0 = 1 - N_0 = 1
    for j in range(1, K + 1):
        if upper:
            E = np.clip(dmax[:j, None] - dcol[None, :], 0, D)
        else:
            E = np.broadcast_to(dcol, (j, D + 1))
        Wlo, Whi = Ylo[:, E], Yhi[:, E]  # (B, j, D+1)
        num_lo = np.maximum(_down(Alo[:, :j] * Wlo), 0.0).sum(axis=2)
        num_hi = _up(Ahi[:, :j] * Whi).sum(axis=2)
        den_lo = np.maximum(_down(G[None, :j] * Wlo), 0.0).sum(axis=2)
        den_hi = _up(G[None, :j] * Whi).sum(axis=2)
        num_lo = _down(num_lo * (1 - _SUM_SLACK))
        den_lo = _down(den_lo * (1 - _SUM_SLACK))
        num_hi = _up(num_hi * (1 + _SUM_SLACK))
        den_hi = _up(den_hi * (1 + _SUM_SLACK))
        n_lo = np.clip(_down(num_lo / den_hi), 0.0, 1.0)
        n_hi = np.clip(_up(num_hi / den_lo), 0.0, 1.0)
        top_lo, top_hi = n_lo.max(axis=1), n_hi.max(axis=1)
        vlo[:, j], vhi[:, j] = top_lo, top_hi
        if j == K:
            last = n_lo, n_hi
        else:
            add(j, np.maximum(_down(1.0 - top_hi), 0.0), np.minimum(_up(1.0 - top_lo), 1.0))
    vlo[:, 0] = vhi[:, 0] = 0.0
    return vlo, vhi, last[0], last[1]
