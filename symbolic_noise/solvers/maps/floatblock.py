"""The box enclosures of :mod:`~symbolic_noise.solvers.maps.enclose`, for a block of boxes at once, in binary64.

The same recursion (values, Clarke-hull derivatives, midpoint values, the
mean-value form, the pruning of moves certainly below) as
:func:`~symbolic_noise.solvers.maps.enclose.enclose`, on numpy arrays of shape (boxes, moves): one pass
over the positions serves a whole block of boxes, which is what makes maps
fast.  It screens: a box whose candidates form one proved tie class is settled
from these bounds; crossings and tie points are proved with the arb reference.

Why the bounds hold
-------------------
Every interval is a pair of float arrays (lo, hi).  The box ends are rounded
outward to floats, the polynomials of psi evaluated by interval Horner (their
integer coefficients are exact below 2^53, else rounded outward) and met with
their mean-value form about the midpoint.  Every arithmetic operation is done in
round-to-nearest binary64 (checked by
:func:`~symbolic_noise.solvers.boxes.floatbox.check_float_environment`), whose
result is within half an ulp of the exact one, and moved one float outward
with ``numpy.nextafter``: down for lower ends, up for upper ends.  Products of
signed intervals take the least and greatest of the four end products.  A sum
of n terms formed in any order is within ``gamma_n = n u / (1 - n u)`` times
the sum of the terms' magnitudes of the exact sum (Higham, *Accuracy and
Stability of Numerical Algorithms*, eq. 4.4); that bound, doubled, is
subtracted from lower sums and added to upper sums.  Subnormal results only
lose absolute accuracy below 2^-1074, which the outward step covers.  Values
are probabilities, so they are cut to [0, 1]; psi's numerators are >= 0 on the
interval (every channel is validated), so their lower ends are cut at 0.

>>> from flint import fmpq
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import get_channel
>>> from symbolic_noise.solvers.maps.structure import Layout
>>> blk = enclose_block(Layout(Nim(3), get_channel("binary"), 3), [(fmpq(1, 4), fmpq(1, 4) + fmpq(1, 2**20))])
>>> bool(blk.vlo[0] <= 0.65 <= blk.vhi[0]), blk.cands[0].tolist()           # N_3(1/4) = 13/20
(True, [True, False, False])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_U = 2.0 ** -53
DOWN, UP = -np.inf, np.inf


def _dn(x):
    return np.nextafter(x, DOWN)


def _up(x):
    return np.nextafter(x, UP)


def _mul(alo, ahi, blo, bhi):
    """The product of intervals, outward (the four end products)."""
    p = np.stack([alo * blo, alo * bhi, ahi * blo, ahi * bhi])
    p = np.nan_to_num(p, nan=0.0)  # 0 * inf: an end that is infinite makes the other bound so anyway
    return _dn(p.min(axis=0)), _up(p.max(axis=0))


def _sum(lo, hi, axis):
    """Sums along ``axis``, outward (Higham's bound on the rounding of a sum)."""
    n = lo.shape[axis]
    g = 2 * (n + 1) * _U / (1 - (n + 1) * _U)
    mag = np.maximum(np.abs(lo), np.abs(hi)).sum(axis=axis)
    slack = _up(_up(mag * g) * (1 + 4 * _U))
    return _dn(lo.sum(axis=axis) - slack), _up(hi.sum(axis=axis) + slack)


def _div_pos(nlo, nhi, dlo, dhi):
    """[nlo, nhi] / [dlo, dhi] with dlo > 0 (else an unbounded result)."""
    ok = dlo > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.stack([nlo / dlo, nlo / dhi, nhi / dlo, nhi / dhi])
    lo, hi = _dn(q.min(axis=0)), _up(q.max(axis=0))
    return np.where(ok, lo, -np.inf), np.where(ok, hi, np.inf)


def _meet(alo, ahi, blo, bhi):
    """The intersection of two intervals that both hold the same numbers."""
    lo, hi = np.maximum(alo, blo), np.minimum(ahi, bhi)
    bad = ~(lo <= hi)  # (only from an unbounded or NaN side)
    return np.where(bad, alo, lo), np.where(bad, ahi, hi)


@dataclass
class Block:
    """The start position over each box of a block: ``mlo, mhi`` (boxes,
    moves) bound each sent move's value over the box, ``dlo, dhi`` its
    derivative, ``vlo, vhi`` (boxes,) bound N, ``cands`` marks the moves
    that may be optimal somewhere in the box, and ``mid_lo, mid_hi`` bound
    each move's value at the box's midpoint."""

    #: lower bounds of each sent move's value over each box
    mlo: np.ndarray
    #: upper bounds of each sent move's value over each box
    mhi: np.ndarray
    #: lower bounds of each sent move's derivative over each box
    dlo: np.ndarray
    #: upper bounds of each sent move's derivative over each box
    dhi: np.ndarray
    #: lower bounds of N over each box
    vlo: np.ndarray
    #: upper bounds of N over each box
    vhi: np.ndarray
    #: the moves that may be optimal somewhere in each box
    cands: np.ndarray
    #: lower bounds of each sent move's value at each box's midpoint
    mid_lo: np.ndarray
    #: upper bounds of each sent move's value at each box's midpoint
    mid_hi: np.ndarray


def _coefficients(layout):
    """(lo, hi) float arrays (polys, degree + 1) holding each polynomial's
    integer coefficients (exactly where they fit in 53 bits), cached."""
    cached = getattr(layout, "_float_coefficients", None)
    if cached is not None:
        return cached
    polys = layout.exact_polys
    deg = max((q.degree() for q in polys), default=0)
    lo = np.zeros((len(polys), max(deg, 0) + 1))
    hi = np.zeros_like(lo)
    for j, q in enumerate(polys):
        for i, c in enumerate(q.coeffs()):
            c = int(c)
            f = float(c)
            exact = abs(c) < 2**53
            lo[j, i] = f if exact else float(np.nextafter(f, DOWN))
            hi[j, i] = f if exact else float(np.nextafter(f, UP))
    layout._float_coefficients = (lo, hi)
    return lo, hi


def _horner(clo, chi, xlo, xhi):
    """Interval Horner of every polynomial at every box: coefficients (Q, n),
    x (B, 1) with ``xlo >= 0``; (B, Q) arrays, outward."""
    rlo = np.broadcast_to(clo[:, -1], (xlo.shape[0], clo.shape[0])).copy()
    rhi = np.broadcast_to(chi[:, -1], rlo.shape).copy()
    for i in range(clo.shape[1] - 2, -1, -1):
        rlo, rhi = _mul(rlo, rhi, xlo, xhi)
        rlo, rhi = _dn(rlo + clo[:, i]), _up(rhi + chi[:, i])
    return rlo, rhi


def _poly_bounds(layout, boxes):
    """(lo, hi) arrays (boxes, polys + 1) of every polynomial over each box, of
    its derivative, and at each box's midpoint; the last column is the zero
    polynomial.  Interval Horner in binary64 (box ends rounded outward), the
    value met with its mean-value form about the midpoint."""
    from ..boxes.floatbox import q_down, q_up

    B, Q = len(boxes), len(layout.exact_polys)
    clo, chi = _coefficients(layout)
    n = clo.shape[1]
    dlo_c = clo[:, 1:] * np.arange(1, n) if n > 1 else np.zeros((Q, 1))
    dhi_c = chi[:, 1:] * np.arange(1, n) if n > 1 else np.zeros((Q, 1))
    dlo_c, dhi_c = np.minimum(dlo_c, dhi_c), np.maximum(dlo_c, dhi_c)  # (exact products of small integers)
    a = np.array([[q_down(x)] for x, _ in boxes])
    b = np.array([[q_up(y)] for _, y in boxes])
    ms = [(x + y) / 2 for x, y in boxes]
    mlo = np.array([[q_down(m)] for m in ms])
    mhi = np.array([[q_up(m)] for m in ms])
    vlo, vhi = _horner(clo, chi, np.maximum(a, 0.0), b)
    dlo, dhi = _horner(dlo_c, dhi_c, np.maximum(a, 0.0), b)
    wlo, whi = _horner(clo, chi, np.maximum(mlo, 0.0), mhi)
    Dl, Dh = _dn(a - mhi), _up(b - mlo)
    c = _mul(dlo, dhi, Dl, Dh)
    vlo, vhi = _meet(vlo, vhi, _dn(wlo + c[0]), _up(whi + c[1]))
    out = []
    for lo, hi in ((vlo, vhi), (dlo, dhi), (wlo, whi)):
        out += [np.concatenate([lo, np.zeros((B, 1))], axis=1), np.concatenate([hi, np.zeros((B, 1))], axis=1)]
    return out, (Dl[:, 0], Dh[:, 0])


def enclose_block(layout, boxes, misere: bool = False) -> Block:
    """Bounds for the start position over every box of ``boxes`` (a list of
    ``(a, b)`` with a <= b: a point is a box too), see the module docstring."""
    with np.errstate(all="ignore"):  # infinite ends (a denominator not bounded away from 0) are expected
        return _enclose_block(layout, boxes, misere)


def _enclose_block(layout, boxes, misere):
    (vl, vh, dl, dh, ml, mh), (pl, ph) = _poly_bounds(layout, boxes)
    vl = np.maximum(vl, 0.0)
    ml = np.maximum(ml, 0.0)
    B, n = len(boxes), len(layout.order)
    zero = vl.shape[1] - 1
    xt = 0.0 if misere else 1.0
    X = [[None] * n for _ in range(6)]  # x lo/hi, x' lo/hi, x(m) lo/hi per position
    P_lo, P_hi = pl[:, None], ph[:, None]
    root = n - 1
    out = None
    for k in range(n):
        fs = layout.follow[k]
        if not fs:
            for t, v in enumerate((xt, xt, 0.0, 0.0, xt, xt)):
                X[t][k] = np.full(B, v)
            continue
        idx = np.array([[j if j >= 0 else zero for j in row] for row in layout.num[k]])
        den = np.array(layout.den[k])
        xs = [np.stack([X[t][u] for u in fs], axis=1)[:, None, :] for t in range(6)]  # (B, 1, m)
        nl, nh = vl[:, idx], vh[:, idx]  # (B, m, m)
        S = _sum(_dn(nl * xs[0]), _up(nh * xs[1]), 2)
        a1 = _mul(dl[:, idx], dh[:, idx], xs[0], xs[1])
        a2 = _mul(nl, nh, xs[2], xs[3])
        Sd = _sum(_dn(a1[0] + a2[0]), _up(a1[1] + a2[1]), 2)
        Sm = _sum(_dn(ml[:, idx] * xs[4]), _up(mh[:, idx] * xs[5]), 2)
        Dl, Dh = vl[:, den], vh[:, den]
        f = _div_pos(*S, Dl, Dh)
        f = (np.clip(f[0], 0.0, 1.0), np.clip(f[1], 0.0, 1.0))
        fm = _div_pos(*Sm, ml[:, den], mh[:, den])
        fm = (np.clip(fm[0], 0.0, 1.0), np.clip(fm[1], 0.0, 1.0))
        t = _mul(f[0], f[1], dl[:, den], dh[:, den])
        fd = _div_pos(_dn(Sd[0] - t[1]), _up(Sd[1] - t[0]), Dl, Dh)
        c = _mul(fd[0], fd[1], P_lo, P_hi)
        f = _meet(f[0], f[1], _dn(fm[0] + c[0]), _up(fm[1] + c[1]))
        Nlo = f[0].max(axis=1)
        cands = f[1] >= Nlo[:, None]
        # prune by the mean-value form of the difference with the best midpoint
        j = np.argmax(np.where(cands, fm[0], -np.inf), axis=1)
        r = np.arange(B)
        gl = _dn(fm[0][r, j][:, None] - fm[1])
        dd = (_dn(fd[0][r, j][:, None] - fd[1]), _up(fd[1][r, j][:, None] - fd[0]))
        gd = _mul(dd[0], dd[1], P_lo, P_hi)
        below = _dn(gl + gd[0]) > 0
        below[r, j] = False
        cands &= ~below
        dNl = np.where(cands, fd[0], np.inf).min(axis=1)
        dNh = np.where(cands, fd[1], -np.inf).max(axis=1)
        Nml, Nmh = fm[0].max(axis=1), fm[1].max(axis=1)
        cN = _mul(dNl, dNh, pl, ph)
        Nl, Nh = _meet(Nlo, f[1].max(axis=1), _dn(Nml + cN[0]), _up(Nmh + cN[1]))
        X[0][k], X[1][k] = np.maximum(_dn(1.0 - Nh), 0.0), np.minimum(_up(1.0 - Nl), 1.0)
        X[2][k], X[3][k] = -dNh, -dNl
        X[4][k], X[5][k] = np.maximum(_dn(1.0 - Nmh), 0.0), np.minimum(_up(1.0 - Nml), 1.0)
        if k == root:
            out = Block(f[0], f[1], fd[0], fd[1], Nl, Nh, cands, fm[0], fm[1])
    return out


__all__ = ["Block", "enclose_block"]
