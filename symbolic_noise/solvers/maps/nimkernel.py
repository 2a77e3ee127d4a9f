"""The binary64 box enclosures of 1-pile Nim through the binary channel, by distance classes.

:func:`~symbolic_noise.solvers.maps.floatkernel.enclose_compiled` runs the
maps' recursion over the rows of psi one entry at a time; for 1-pile Nim
through the binary channel (theory.md 3.1) the rows are dense, so heap k costs
``sum_j j^2 ~ k^3 / 3`` entries a box.  This module computes the same bounds
(every sent move's value, derivative and midpoint value at the start, N, the
candidate moves: a :class:`~symbolic_noise.solvers.maps.floatblock.Block`;
:func:`enclose_heaps` also bounds N_j for every heap j <= k) from the
structure of the channel, in ``O(k^2 n)`` a box (n = the digits of k - 1),
without the layout's rows.

The distance classes
--------------------
At heap j the weight of receiving r for a sent s is ``p^d (1-p)^(n-d)``, d the
Hamming distance of their codes, renormalised over r < j; divided by the
row's common factor ``(1-p)^(n-m)``, m = m_s the largest distance from s to a
legal r, it is the Bernstein-type weight ``w_md = p^d (1-p)^(m-d)`` (as the
channel's rows are built, so that p = 1 gives the limit channel: the mean over
the farthest legal codes).  With ``x_r = 1 - N_r``

    N_j(s) = S / D,  S = sum_d A[s][d] w_md,  D = sum_d G[s][d] w_md,
    A[s][d] = sum of x_r over r < j at distance d from s,  G[s][d] = their number.

The histograms are kept for every code s < k and grow by one heap at a time:
adding heap j puts ``x_j`` (and its derivative and midpoint value) into class
``d(s, j)`` of every s, ``O(k)`` a heap, and a row then costs ``O(n)``.  (This
is the Hamming-distance transform of the indicator of r < j, done
incrementally; a butterfly would recompute it in ``O(2^n n^2)`` a heap.)  The
derivatives use the Bernstein rule ``w_md' = d w_(m-1)(d-1) - (m-d)
w_(m-1)d``, so that ``D' = sum_d h_d w_(m-1)d`` with the exact integers ``h_d =
(d+1) G[s][d+1] - (m-d) G[s][d]``: a full class profile (every code at
distance <= m present) gives ``D = 1`` and ``h = 0``, and partial ones keep
most of that cancellation, which an interval sum of the separate weights'
derivatives loses.  (The hybrid's forms in ``t = p/(1-p)`` or ``u = 1/t`` give
the same values; measured on boxes of width 2^-10 their derivative enclosures
came out about twice as wide, the relative variation of their denominators
being about n/(1-p) times the box width, so this module stays with the
polynomial weights, which are bounded by 1 and whose denominators are at least
``max((1-p)^m, p^m) >= 2^-m`` on the whole of [0, 1], a box [0, 1] included.)

Why the intervals hold
----------------------
Every operation is a round-to-nearest binary64 operation whose result is moved
outward by :func:`~symbolic_noise.solvers.maps.floatkernel._dn` and ``_up``
(``|x| 2^-51 + 2^-1060``, which covers half an ulp and subnormal results:
floatkernel's docstring proves it), products of signed intervals take the
four end products (two where one factor is a nonnegative weight), quotients
take the end quotients the signs pick and are unbounded unless the
denominator's lower end is positive.  The sums over the classes of a row are
the exception: they are formed in round-to-nearest and their error bounded
once.  For N terms, each a float or a rounded product of two floats (within
``u |x y| + 2^-1075`` of the exact product, u = 2^-53), the computed sum is
within ``gamma_(N-1) = (N-1) u / (1 - (N-1) u)`` times the sum of the terms'
magnitudes of the sum of the rounded terms (Higham, *Accuracy and Stability
of Numerical Algorithms*, eq. 4.4), and the computed sum m of the magnitudes
is at least ``1 - gamma_(N-1)`` times the exact one, so the sum is within
``(N + 1) u m + 2^-1000`` of the exact sum of the exact products (N < 2^20);
that slack, rounded up, is subtracted from a lower sum and added to an upper
one (m is the sum itself where the terms are nonnegative).  The box [a, b] enters as floats ``a- <= a``, ``b+ >= b`` and the
midpoint's two neighbours (:func:`~symbolic_noise.solvers.boxes.floatbox.q_down`,
``q_up``) and ``p - mid`` as ``[(a - b)/2, (b - a)/2]`` rounded outward.  The
weight ``w_md`` is unimodal on [0, 1] (largest at p = d/m), so over [a-, b+] it
lies between the smaller lower bound at the two ends and the larger upper
bound there, or its upper bound at d/m wherever d/m may lie inside; each of
these is a product of powers of ``[x, x]`` and ``1 - x`` rounded outward.
Then, for every position j, followers first, with ``x_r``, ``x_r'`` and
``x_r(mid)`` enclosed by induction:

* ``A`` (its lower end cut at 0, x >= 0), ``A'`` and ``A(mid)`` are sums of
  enclosures, ``G`` is an exact integer; S, D and ``S(mid)``, ``D(mid)`` are
  sums of products of enclosures, so they hold the true ones for every p of
  the box, and so does ``D(mid) + D'(box) (p - mid)`` (the mean-value theorem),
  which D is met with.  ``f = S / D`` holds ``N_j(s)`` (cut to [0, 1]: a
  probability).
* The derivative ``f' = (S' - f D') / D``.  Since ``sum_r psi(s, r) = 1`` for
  every p, ``S' - c D' = sum_d A'_d w_md + (A_d - c G_d) w_md'`` for any
  constant c, so ``f' = (sum_d A'_d w_md + sum_d q_d w_(m-1)d - (f - c) D') / D``
  with ``q_d = (d+1) (A - c G)_(d+1) - (m-d) (A - c G)_d`` (the centred sum of
  floatkernel in Bernstein form; c is the mean of the followers' midpoint
  values, any float would do), evaluated with the enclosures above.
* The mean-value meet: f is continuous and piecewise smooth on the box with
  a.e. derivative in the enclosure of ``f'`` (the followers' x are Lipschitz
  with a.e. derivative in theirs, by induction), so ``f(p) in f(mid) + f'(box)
  (p - mid)``; f is met with that, and ``f'`` recomputed from the narrowed f
  (twice).
* N_j = max_s N_j(s) lies in ``[max lo, max hi]``.  A move whose upper end is
  below the largest lower end, or whose difference with the best midpoint
  move is positive on the box by the mean-value form, is never optimal on the
  box; N_j is then the max of the others, and by Lebourg's mean value theorem
  its difference quotients lie in the hull of their derivatives, which gives
  ``x_j' = -N_j'`` and the mean-value meet of N_j.  At the start the second
  test is also made with the derivative of the difference of two rows, ``g' =
  sum_u (a_bu - a_iu)' (x_u - c) + (a_bu - a_iu) x_u'`` (``a = psi``, whose rows
  sum to 1, so the primed ones sum to 0), as floatkernel does, with ``a' =
  (w' D - w D') / D^2`` and ``w'`` the product of the ranges of its factors
  ``p^(d-1)``, ``(1-p)^(m-d-1)`` and ``d - m p``.

>>> from flint import fmpq
>>> blk = enclose_heap(3, [(fmpq(1, 4), fmpq(1, 4) + fmpq(1, 2**20))])
>>> bool(blk.vlo[0] <= 0.65 <= blk.vhi[0]), blk.cands[0].tolist()           # N_3(1/4) = 13/20
(True, [True, False, False])
"""

from __future__ import annotations

import numpy as np
from flint import fmpq

from ...games.channels import BinaryChannel
from ...games.rulesets import Nim
from ..boxes.floatbox import q_down, q_up
from .floatblock import Block
from .floatkernel import (_INF, _clip01, _compiled, _div_pos, _dn, _meet, _mul, _position, _up, block_root_boxes,
                          enclose_compiled)

def digits(k: int) -> int:
    """The binary digits of the codes of the moves below heap k (at least 1).

    >>> digits(2), digits(128), digits(129)
    (1, 7, 8)
    """
    return max(1, (k - 1).bit_length())


def _box_data(boxes, n: int):
    """Per box and per top distance m and class d <= m: the weight ``w =
    p^d (1-p)^(m-d)`` over the box, its derivative over the box and its value
    at the midpoint (``(B, n + 1, n + 1, 2)`` lo/hi arrays), and ``p - mid``
    over the box (module docstring)."""
    B = len(boxes)
    ends = np.zeros((B, 4))
    P = np.zeros((B, 2))
    for i, (a, b) in enumerate(boxes):
        a, b = fmpq(a), fmpq(b)
        if not 0 <= a <= b <= 1:
            raise ValueError(f"a box must satisfy 0 <= a <= b <= 1, not [{a}, {b}]")
        mid = (a + b) / 2
        ends[i] = q_down(a), q_up(b), q_down(mid), q_up(mid)
        P[i] = q_down((a - b) / 2), q_up((b - a) / 2)
    W, dW, M = (np.zeros((B, n + 1, n + 1, 2)) for _ in range(3))
    _weights(ends, W, dW, M)
    return W, dW, M, P


@_compiled
def _power(lo, hi, e):
    """[lo, hi]^e for 0 <= lo <= hi, outward."""
    rl = rh = 1.0
    for _ in range(e):
        rl, rh = max(_dn(rl * lo), 0.0), _up(rh * hi)
    return rl, rh


@_compiled
def _weight_at(lo, hi, m, d):
    """``p^d (1-p)^(m-d)`` over [lo, hi] (0 <= lo <= hi <= 1) as the product
    of its monotone factors' ranges, outward."""
    xl, xh = _power(lo, hi, d)
    yl, yh = _power(max(_dn(1.0 - hi), 0.0), _up(1.0 - lo), m - d)
    return max(_dn(xl * yl), 0.0), _up(xh * yh)


@_compiled
def _weights(ends, W, dW, M):
    """Fill :func:`_box_data`'s tables from the box's float ends (``a`` down,
    ``b`` up, the midpoint down and up).  The weight is unimodal (at most
    its value at p = d/m, increasing before, decreasing after), so over [a, b]
    it lies between the least of its lower bounds at the two ends and the
    greatest of their upper bounds, or its upper bound at d/m where d/m may lie
    inside; the derivative ``p^(d-1) (1-p)^(m-d-1) (d - m p)`` (``-m
    (1-p)^(m-1)`` for d = 0, ``m p^(m-1)`` for d = m) is the product of its
    factors' ranges."""
    n = W.shape[1] - 1
    for i in range(ends.shape[0]):
        a, b, ml, mh = ends[i, 0], ends[i, 1], ends[i, 2], ends[i, 3]
        for m in range(n + 1):
            for d in range(m + 1):
                al, ah = _weight_at(a, a, m, d)
                bl, bh = _weight_at(b, b, m, d)
                lo, hi = min(al, bl), max(ah, bh)
                if 0 < d < m and _dn(a * m) < d < _up(b * m):
                    c = d / m
                    tl, th = _weight_at(_dn(c), _up(c), m, d)
                    hi = max(hi, th)
                W[i, m, d, 0], W[i, m, d, 1] = lo, min(hi, 1.0)
                M[i, m, d, 0], M[i, m, d, 1] = _weight_at(ml, mh, m, d)
                if m == 0:
                    continue
                if d == 0:
                    yl, yh = _power(max(_dn(1.0 - b), 0.0), _up(1.0 - a), m - 1)
                    dW[i, m, d, 0], dW[i, m, d, 1] = _dn(-m * yh), _up(-m * yl)
                elif d == m:
                    yl, yh = _power(a, b, m - 1)
                    dW[i, m, d, 0], dW[i, m, d, 1] = _dn(m * yl), _up(m * yh)
                else:
                    xl, xh = _power(a, b, d - 1)
                    yl, yh = _power(max(_dn(1.0 - b), 0.0), _up(1.0 - a), m - d - 1)
                    pl, ph = max(_dn(xl * yl), 0.0), _up(xh * yh)
                    dW[i, m, d, 0], dW[i, m, d, 1] = _mul(pl, ph, _dn(d - _up(m * b)), _up(d - _dn(m * a)))


@_compiled
def _add_heap(j, X, H, G, dm, pc):
    """Heap j joins class ``d(s, j)`` of every code s's histograms."""
    for s in range(H.shape[0]):
        d = pc[s ^ j]
        H[s, d, 0] = max(_dn(H[s, d, 0] + X[j, 0]), 0.0)
        H[s, d, 1] = _up(H[s, d, 1] + X[j, 1])
        H[s, d, 2] = _dn(H[s, d, 2] + X[j, 2])
        H[s, d, 3] = _up(H[s, d, 3] + X[j, 3])
        H[s, d, 4] = max(_dn(H[s, d, 4] + X[j, 4]), 0.0)
        H[s, d, 5] = _up(H[s, d, 5] + X[j, 5])
        G[s, d] += 1.0
        if d > dm[s]:
            dm[s] = d


#: a sum of N terms (floats, or products of two floats) is within ``(N + 1)
#: 2^-53`` times the sum of the terms' magnitudes, plus this (subnormal
#: products), of the exact sum (module docstring)
_SUM_ABS = 2.0 ** -1000


@_compiled
def _slack(mag, terms):
    """A float at least ``mag (terms + 1) 2^-53 + 2^-1000``."""
    return _up(_up(mag * ((terms + 1) * 2.0 ** -53)) + _SUM_ABS)


@_compiled
def _quot(nl, nh, dl, dh):
    """[nl, nh] / [dl, dh] with dl > 0 from two end quotients (the one the
    sign of each numerator end picks), outward; unbounded otherwise."""
    if not dl > 0:
        return -_INF, _INF
    lo = nl / (dh if nl >= 0 else dl)
    hi = nh / (dl if nh >= 0 else dh)
    if lo != lo or hi != hi:
        return -_INF, _INF
    return _dn(lo), _up(hi)


@_compiled
def _mul_w(xl, xh, wl, wh):
    """[xl, xh] * [wl, wh] for 0 <= wl <= wh, outward (two end products)."""
    lo = xl * (wl if xl >= 0 else wh)
    hi = xh * (wh if xh >= 0 else wl)
    return _dn(0.0 if lo != lo else lo), _up(0.0 if hi != hi else hi)


@_compiled
def _row(b, s, c, H, G, dm, W, M, P_lo, P_hi, F):
    """Move s of the current heap over box b into ``F[s]``: value, derivative and
    midpoint value (lo/hi each), then D and D' (lo/hi each).  The derivatives
    in Bernstein form (module docstring)."""
    top = dm[s]
    s_lo = s_hi = D_lo = D_hi = Dd_lo = Dd_hi = 0.0
    sm_lo = sm_hi = Dm_lo = Dm_hi = sd_lo = sd_hi = 0.0
    mag_dl = mag_dh = mag_sl = mag_sh = 0.0  # the magnitudes of the signed sums' terms
    cnt = 0  # the classes present
    for d in range(top + 1):
        g = G[s, d]
        if d > 0:  # the coefficient of p^(d-1) (1-p)^(top-d) in the derivatives
            e = top - d + 1
            v0, v1 = W[b, top - 1, d - 1, 0], W[b, top - 1, d - 1, 1]
            h = d * g - e * G[s, d - 1]  # an integer: D's coefficient
            t = h * (v0 if h >= 0 else v1)
            Dd_lo += t
            mag_dl += abs(t)
            t = h * (v1 if h >= 0 else v0)
            Dd_hi += t
            mag_dh += abs(t)
            # d (A - c G)_d - e (A - c G)_(d-1) = d A_d - e A_(d-1) - c h, three products
            ch = c * h
            x, y = d * H[s, d, 0], e * H[s, d - 1, 1]
            ql = _dn(x - y - ch - _slack(x + y + abs(ch), 3))
            x, y = d * H[s, d, 1], e * H[s, d - 1, 0]
            qh = _up(x - y - ch + _slack(x + y + abs(ch), 3))
            t1l, t1h = _mul_w(ql, qh, v0, v1)
            sd_lo += t1l
            sd_hi += t1h
            mag_sl += abs(t1l)
            mag_sh += abs(t1h)
        if g == 0.0:
            continue
        cnt += 1
        wl, wh = W[b, top, d, 0], W[b, top, d, 1]
        ml, mh = M[b, top, d, 0], M[b, top, d, 1]
        s_lo += H[s, d, 0] * wl  # sums of nonnegative products, their rounding bounded at the end
        s_hi += H[s, d, 1] * wh
        D_lo += g * wl
        D_hi += g * wh
        sm_lo += H[s, d, 4] * ml
        sm_hi += H[s, d, 5] * mh
        Dm_lo += g * ml
        Dm_hi += g * mh
        a2l, a2h = _mul_w(H[s, d, 2], H[s, d, 3], wl, wh)
        sd_lo += a2l
        sd_hi += a2h
        mag_sl += abs(a2l)
        mag_sh += abs(a2h)
    # the sums' rounding, bounded once (module docstring): N terms each
    s_lo, s_hi = _dn(s_lo - _slack(s_lo, cnt)), _up(s_hi + _slack(s_hi, cnt))
    D_lo, D_hi = _dn(D_lo - _slack(D_lo, cnt)), _up(D_hi + _slack(D_hi, cnt))
    sm_lo, sm_hi = _dn(sm_lo - _slack(sm_lo, cnt)), _up(sm_hi + _slack(sm_hi, cnt))
    Dm_lo, Dm_hi = _dn(Dm_lo - _slack(Dm_lo, cnt)), _up(Dm_hi + _slack(Dm_hi, cnt))
    Dd_lo, Dd_hi = _dn(Dd_lo - _slack(mag_dl, top)), _up(Dd_hi + _slack(mag_dh, top))
    sd_lo, sd_hi = _dn(sd_lo - _slack(mag_sl, cnt + top)), _up(sd_hi + _slack(mag_sh, cnt + top))
    fml, fmh = _quot(sm_lo, sm_hi, Dm_lo, Dm_hi)
    fml, fmh = _clip01(fml, fmh)
    cl, ch = _mul(Dd_lo, Dd_hi, P_lo, P_hi)  # D's own mean-value form keeps its cancellations
    D_lo, D_hi = _meet(D_lo, D_hi, _dn(Dm_lo + cl), _up(Dm_hi + ch))
    fl, fh = _quot(s_lo, s_hi, D_lo, D_hi)
    fl, fh = _clip01(fl, fh)
    fdl, fdh = -_INF, _INF
    for _ in range(2):  # the derivative from the value, the value met with its mean-value form, twice
        tl, th = _mul(_dn(fl - c), _up(fh - c), Dd_lo, Dd_hi)
        ql, qh = _quot(_dn(sd_lo - th), _up(sd_hi - tl), D_lo, D_hi)
        fdl, fdh = _meet(fdl, fdh, ql, qh)
        cl, ch = _mul(fdl, fdh, P_lo, P_hi)
        fl, fh = _meet(fl, fh, _dn(fml + cl), _up(fmh + ch))
    F[s, 0], F[s, 1], F[s, 2], F[s, 3], F[s, 4], F[s, 5] = fl, fh, fdl, fdh, fml, fmh
    F[s, 6], F[s, 7], F[s, 8], F[s, 9] = D_lo, D_hi, Dd_lo, Dd_hi


@_compiled
def _entries(b, top, Dl, Dh, Ddl, Ddh, W, dW, E):
    """``psi = w / D`` and ``psi' = (w' D - w D') / D^2`` of one row (top
    distance ``top``), for every class d, into ``E[d]`` (lo/hi each)."""
    D2l, D2h = _mul(Dl, Dh, Dl, Dh)
    for d in range(top + 1):
        E[d, 0], E[d, 1] = _div_pos(W[b, top, d, 0], W[b, top, d, 1], Dl, Dh)
        t1l, t1h = _mul(dW[b, top, d, 0], dW[b, top, d, 1], Dl, Dh)
        t2l, t2h = _mul(W[b, top, d, 0], W[b, top, d, 1], Ddl, Ddh)
        E[d, 2], E[d, 3] = _div_pos(_dn(t1l - t2h), _up(t1h - t2l), D2l, D2h)


@_compiled
def _prune_by_rows(b, k, best, cand, F, X, pc, dm, c, W, dW, P_lo, P_hi, EB, EI):
    """At the start, drop the candidates i whose difference with the best move,
    ``g = sum_u (psi_bu - psi_iu) x_u``, is positive on the box by the
    mean-value form with ``g'`` enclosed from the rows' entries (module
    docstring)."""
    _entries(b, dm[best], F[best, 6], F[best, 7], F[best, 8], F[best, 9], W, dW, EB)
    for i in range(k):
        if not cand[i] or i == best:
            continue
        _entries(b, dm[i], F[i, 6], F[i, 7], F[i, 8], F[i, 9], W, dW, EI)
        sl = sh = 0.0
        for u in range(k):
            eb, ei = pc[best ^ u], pc[i ^ u]
            t1l, t1h = _mul(_dn(EB[eb, 2] - EI[ei, 3]), _up(EB[eb, 3] - EI[ei, 2]), _dn(X[u, 0] - c), _up(X[u, 1] - c))
            t2l, t2h = _mul(_dn(EB[eb, 0] - EI[ei, 1]), _up(EB[eb, 1] - EI[ei, 0]), X[u, 2], X[u, 3])
            sl = _dn(sl + _dn(t1l + t2l))
            sh = _up(sh + _up(t1h + t2h))
        gl = _dn(F[best, 4] - F[i, 5])
        gdl, _ = _mul(sl, sh, P_lo, P_hi)
        if _dn(gl + gdl) > 0:
            cand[i] = False


@_compiled
def _kernel(k, n, pc, W, dW, M, P, xt, out_f, out_d, out_m, out_v, out_c, out_n):
    B = W.shape[0]
    H = np.zeros((k, n + 1, 6))  # per code s and distance d: sums of x lo/hi, x' lo/hi, x(m) lo/hi
    G = np.zeros((k, n + 1))
    dm = np.zeros(k, dtype=np.int64)
    X = np.zeros((k + 1, 6))
    F = np.zeros((k, 10))
    cand = np.zeros(k, dtype=np.bool_)
    EB = np.zeros((n + 1, 4))
    EI = np.zeros((n + 1, 4))
    for b in range(B):
        P_lo, P_hi = P[b, 0], P[b, 1]
        H[:] = 0.0
        G[:] = 0.0
        dm[:] = 0
        X[0, 0], X[0, 1], X[0, 2], X[0, 3], X[0, 4], X[0, 5] = xt, xt, 0.0, 0.0, xt, xt
        out_n[b, 0, 0] = out_n[b, 0, 1] = 1.0 - xt
        _add_heap(0, X, H, G, dm, pc)
        csum = xt
        for j in range(1, k + 1):
            c = csum / j  # the centre of the derivative's sums (module docstring)
            for s in range(j):
                _row(b, s, c, H, G, dm, W, M, P_lo, P_hi, F)
            best, Nl, Nh = _position(F, j, cand, P_lo, P_hi, X, j)
            out_n[b, j, 0], out_n[b, j, 1] = Nl, Nh
            if j < k:
                _add_heap(j, X, H, G, dm, pc)
                csum += 0.5 * (X[j, 4] + X[j, 5])
                continue
            _prune_by_rows(b, k, best, cand, F, X, pc, dm, c, W, dW, P_lo, P_hi, EB, EI)
            for i in range(k):
                out_f[b, i, 0], out_f[b, i, 1] = F[i, 0], F[i, 1]
                out_d[b, i, 0], out_d[b, i, 1] = F[i, 2], F[i, 3]
                out_m[b, i, 0], out_m[b, i, 1] = F[i, 4], F[i, 5]
                out_c[b, i] = cand[i]
            out_v[b, 0], out_v[b, 1] = Nl, Nh


def _popcounts(n: int) -> np.ndarray:
    pc = np.zeros(1 << n, dtype=np.int64)
    for bit in range(n):
        pc += (np.arange(1 << n) >> bit) & 1
    return pc


def enclose_heaps(k: int, boxes, misere: bool = False):
    """``(block, lo, hi)``: :func:`enclose_heap`'s block for heap ``k`` and
    ``(len(boxes), k + 1)`` arrays with ``lo[i, j] <= N_j(p) <= hi[i, j]`` for
    every p of box i and every heap j <= k.

    >>> _, lo, hi = enclose_heaps(2, [(fmpq(1, 8), fmpq(1, 4))])       # N_2 = 1 - p
    >>> bool(lo[0, 2] <= 3/4) and bool(hi[0, 2] >= 7/8), bool(lo[0, 1] <= 1 <= hi[0, 1]), float(hi[0, 0])
    (True, True, 0.0)
    """
    if k < 1:
        raise ValueError("the heap must have at least one chip")
    n = digits(k)
    W, dW, M, P = _box_data(boxes, n)
    B = len(boxes)
    out_f, out_d, out_m = (np.zeros((B, k, 2)) for _ in range(3))
    out_v = np.zeros((B, 2))
    out_c = np.zeros((B, k), dtype=np.bool_)
    out_n = np.zeros((B, k + 1, 2))
    with np.errstate(all="ignore"):
        _kernel(k, n, _popcounts(n), W, dW, M, P, 0.0 if misere else 1.0,
                out_f, out_d, out_m, out_v, out_c, out_n)
    blk = Block(out_f[:, :, 0], out_f[:, :, 1], out_d[:, :, 0], out_d[:, :, 1], out_v[:, 0], out_v[:, 1],
                out_c, out_m[:, :, 0], out_m[:, :, 1])
    return blk, out_n[:, :, 0], out_n[:, :, 1]


def enclose_heap(k: int, boxes, misere: bool = False) -> Block:
    """What :func:`~symbolic_noise.solvers.maps.floatkernel.enclose_compiled`
    returns for 1-pile Nim with ``k`` chips through the binary channel, over
    every box ``(a, b)`` of ``boxes`` (``0 <= a <= b <= 1``), by distance
    classes (module docstring)."""
    return enclose_heaps(k, boxes, misere)[0]


def nim_heap(layout):
    """The heap k when ``layout`` is 1-pile Nim from k chips through the
    binary channel (its default encoding), else None.

    >>> from symbolic_noise.games.channels import get_channel
    >>> from symbolic_noise.solvers.maps.structure import Layout
    >>> nim_heap(Layout(Nim(5), get_channel("binary"), 5)), nim_heap(Layout(Nim(3), get_channel("uniform"), 3))
    (5, None)
    """
    game, channel, root = layout.game, layout.channel, layout.root
    if not (isinstance(game, Nim) and type(channel) is BinaryChannel and channel.key() == "binary"):
        return None
    if not isinstance(root, int) or root < 1 or layout.order != tuple(range(root + 1)):
        return None
    return root


def enclose_block(layout, boxes, misere: bool = False) -> Block:
    """The maps' binary64 block enclosure: :func:`enclose_heap` for 1-pile
    Nim through the binary channel, else
    :func:`~symbolic_noise.solvers.maps.floatkernel.enclose_compiled`."""
    k = nim_heap(layout)
    if k is None:
        return enclose_compiled(layout, boxes, misere)
    return enclose_heap(k, boxes, misere)


def root_boxes(layout, boxes, misere: bool = False) -> list:
    """:func:`enclose_block` over ``boxes`` as
    :class:`~symbolic_noise.solvers.maps.enclose.RootBox` balls (see
    :func:`~symbolic_noise.solvers.maps.floatkernel.root_boxes`)."""
    return block_root_boxes(enclose_block(layout, boxes, misere), boxes)


__all__ = ["digits", "enclose_block", "enclose_heap", "enclose_heaps", "nim_heap", "root_boxes"]
