"""Excluding spurious crossings: resultant roots where two sections cannot meet.

A real root q* of ``res_p(f, g)`` is a critical value of the cylindrical
decomposition (:mod:`symbolic_noise.exact.cad`) only because two counted
sections of f and g *might* meet on the line q = q*.  Most roots of the
resultant are not such meetings: the common root in p is complex, or real
but outside the part of the square where both sections count.
:func:`no_common_zero` proves that, rigorously: it covers the closed set
``{(p, q): p in one of the given closed p-intervals, q in a closed interval
around q*}`` with boxes on each of which f or g has a strict sign, decided by
interval arithmetic (:class:`~symbolic_noise.exact.bivariate.BoxSign`, arb
balls with outward rounding).  Then f and g have no common zero in that set,
and in particular their counted sections do not meet at q*.  When the boxes
get too small before that is proved (a real meeting, a tangency, or a near
miss), it answers False and the root stays a critical value.

Examples
--------
>>> from flint import fmpq
>>> from symbolic_noise.exact.bivariate import CTX, BoxSign
>>> p, q = CTX.gens()
>>> f, g = BoxSign(p - q), BoxSign(p + q - 1)        # they meet at (1/2, 1/2)
>>> no_common_zero(f, g, [(fmpq(0), fmpq(1))], fmpq(1, 2), fmpq(1, 2))
False
>>> no_common_zero(f, g, [(fmpq(3, 4), fmpq(1))], fmpq(1, 2), fmpq(1, 2))
True
"""

from __future__ import annotations

from flint import fmpq

from .bivariate import BoxBalls

#: p-boxes are not split below this width; the proof gives up (conservatively) there
MIN_WIDTH = fmpq(1, 2**14)


def no_common_zero(f_sign, g_sign, p_intervals, qlo: fmpq, qhi: fmpq, *, min_width: fmpq = MIN_WIDTH) -> bool:
    """True only if f and g (given as :class:`BoxSign`) have no common zero with p
    in one of the closed ``p_intervals`` and ``qlo <= q <= qhi``; proved by a
    bisection in p where every box needs a strict sign of f or of g.  False:
    not proved (they may meet)."""
    for a, b in p_intervals:
        todo = [(a, b)]
        while todo:
            lo, hi = todo.pop()
            box = BoxBalls(lo, hi, qlo, qhi)
            if f_sign.sign(box) != 0 or g_sign.sign(box) != 0:
                continue
            if hi - lo <= min_width:
                return False
            mid = (lo + hi) / 2
            todo += [(lo, mid), (mid, hi)]
    return True


def no_common_zero_boxes(f_sign, g_sign, boxes, *, min_width: fmpq = MIN_WIDTH, budget: int = 512) -> bool:
    """True only if f and g have no common zero in the union of the closed boxes
    ``(plo, phi, qlo, qhi)``; proved by bisecting each box along its longer side
    until f or g has a strict sign on every piece.  False: not proved (a piece
    reached ``min_width`` undecided, or more than ``budget`` boxes were tried).

    >>> from symbolic_noise.exact.bivariate import CTX, BoxSign
    >>> p, q = CTX.gens()
    >>> f, g = BoxSign(p - q), BoxSign(p + q - 1)
    >>> no_common_zero_boxes(f, g, [(fmpq(0), fmpq(1, 4), fmpq(0), fmpq(1))])
    True
    >>> no_common_zero_boxes(f, g, [(fmpq(0), fmpq(1), fmpq(0), fmpq(1))])
    False
    """
    todo = list(boxes)
    while todo:
        budget -= 1
        if budget < 0:
            return False
        plo, phi, qlo, qhi = todo.pop()
        box = BoxBalls(plo, phi, qlo, qhi)
        if f_sign.sign(box) != 0 or g_sign.sign(box) != 0:
            continue
        if max(phi - plo, qhi - qlo) <= min_width:
            return False
        if phi - plo >= qhi - qlo:
            m = (plo + phi) / 2
            todo += [(plo, m, qlo, qhi), (m, phi, qlo, qhi)]
        else:
            m = (qlo + qhi) / 2
            todo += [(plo, phi, qlo, m), (plo, phi, m, qhi)]
    return True


__all__ = ["MIN_WIDTH", "no_common_zero", "no_common_zero_boxes"]
