"""Interval enclosures of every 1-pile Nim value over many boxes of p at once.

The enclosure of docs/hybrid.md (every N_j, j <= K, over a box of p, whatever
the lower heaps' optimal moves are there) in IEEE binary64 interval
arithmetic with outward rounding, for a whole list of boxes.  It is the maps'
distance-class kernel (:func:`symbolic_noise.solvers.maps.nimkernel.enclose_heaps`),
whose docstring proves its bounds: the hybrid's fairness thresholds and the
certified maps of binary Nim share one core.  Besides the ratio of the
distance-class sums that :func:`symbolic_noise.solvers.boxes.hybrid.enclose`
evaluates in arb, that kernel carries every value's derivative over the box and
meets the value with its mean-value form, so its intervals are narrower on
narrow boxes.  :func:`check_float_environment` verifies round-to-nearest
binary64 before any use, and the verifiers call it.

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

HALF = fmpq(1, 2)
LOWEST = fmpq(1, 64)
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
    from ..maps.nimkernel import enclose_heaps  # (that module reads q_down and q_up from this one)

    lo = np.zeros((len(boxes), K + 1))
    hi = np.zeros((len(boxes), K + 1))
    mlo = np.zeros((len(boxes), K))
    mhi = np.zeros((len(boxes), K))
    for start in range(0, len(boxes) if K else 0, block):
        part = slice(start, start + block)
        blk, lo[part], hi[part] = enclose_heaps(K, boxes[part])
        mlo[part], mhi[part] = blk.mlo, blk.mhi
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
