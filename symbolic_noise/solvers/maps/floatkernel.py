"""The binary64 block enclosures of :mod:`~symbolic_noise.solvers.maps.floatblock`, compiled, over sparse rows.

:func:`~symbolic_noise.solvers.maps.floatblock.enclose_block` writes the
recursion as numpy operations on dense (boxes, moves, moves) arrays: every
zero entry of psi is multiplied out, and every operation allocates.  This
module runs the same recursion as one compiled loop (numba) per box, over the
nonzero entries of each row only (a Chomp channel reaches a handful of
squares; a row of a heap game often most followers), with no temporaries.

The arithmetic is that of the module it speeds up, with one difference in how
rounding is covered, which only makes bounds safer: every operation is done in
round-to-nearest binary64, and its result x moved outward by
``|x| 2^-51 + 2^-1060`` (down for a lower end, up for an upper end), sums
included, term by term.  Why that suffices: the exact result of one operation
is within ``u |x| + 2^-1075`` of x (u = 2^-53, half an ulp, the second term
for subnormal results); the shift ``e = |x| 2^-51 + 2^-1060`` is computed with
a relative error of at most u, and ``x - e`` rounds with an error of at most
``u (|x| + e)``, so the float obtained is at most ``x - 4u|x| (1 - u) -
2^-1061 + u (|x| + e)``, below ``x - u|x| - 2^-1075``.  An infinite lower end
+inf (an overflow) becomes the largest float, and symmetrically.  A quotient that is not defined (a denominator
whose lower end is not positive, or infinity over infinity) is unbounded.
Products of signed intervals take the least and greatest of the four end
products, a product ``0 * inf`` counting as 0, as there.

One change of formulation narrows the derivatives: where a row of psi sums to
1 exactly (``sum_u n_u = D`` as polynomials, checked once per row), so that
``sum_u n_u' = D'``, a sent move's derivative ``(sum_u n_u' x_u + n_u x_u' - f
D') / D`` is evaluated as ``(sum_u n_u' (x_u - c) + n_u x_u' - (f - c) D') / D``
for a constant c (the mean of the followers' midpoint values): the same
number, but the interval sum no longer adds up the variation of every n_u' times
a value near 1/2 that the exact sum cancels.  With the difference of two moves
at the start (:func:`_prune_by_differences`) this cut nim 64's boxes from 4,076
to 1,358.

>>> from flint import fmpq
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import get_channel
>>> from symbolic_noise.solvers.maps.structure import Layout
>>> blk = enclose_compiled(Layout(Nim(3), get_channel("binary"), 3), [(fmpq(1, 4), fmpq(1, 4) + fmpq(1, 2**20))])
>>> bool(blk.vlo[0] <= 0.65 <= blk.vhi[0]), blk.cands[0].tolist()           # N_3(1/4) = 13/20
(True, [True, False, False])
"""

from __future__ import annotations

import numpy as np

from .floatblock import Block, _poly_bounds

try:  # the inner loop; the same function runs uncompiled without numba (slowly)
    from numba import njit as _njit

    def _compiled(fn):
        return _njit(cache=True, nogil=True)(fn)

except ImportError:  # pragma: no cover - numba is a dependency

    def _compiled(fn):
        return fn


_INF = np.inf
_MAXF = float(np.finfo(np.float64).max)
#: a finite result x is moved outward by ``|x| 2^-51 + 2^-1060``
_REL, _TINY = 2.0 ** -51, 2.0 ** -1060


@_compiled
def _dn(x):
    """A float at most any real that rounds to x (see the module docstring)."""
    if x - x == 0.0:  # finite
        return x - (abs(x) * _REL + _TINY)
    return _MAXF if x > 0 else x


@_compiled
def _up(x):
    """A float at least any real that rounds to x."""
    if x - x == 0.0:
        return x + (abs(x) * _REL + _TINY)
    return -_MAXF if x < 0 else x


@_compiled
def _prod(x, y):
    r = x * y
    return 0.0 if r != r else r  # 0 * inf


@_compiled
def _mul(al, ah, bl, bh):
    p1, p2, p3, p4 = _prod(al, bl), _prod(al, bh), _prod(ah, bl), _prod(ah, bh)
    return _dn(min(min(p1, p2), min(p3, p4))), _up(max(max(p1, p2), max(p3, p4)))


@_compiled
def _div_pos(nl, nh, dl, dh):
    if not dl > 0:
        return -_INF, _INF
    q1, q2, q3, q4 = nl / dl, nl / dh, nh / dl, nh / dh
    lo, hi = min(min(q1, q2), min(q3, q4)), max(max(q1, q2), max(q3, q4))
    if lo != lo or hi != hi:
        return -_INF, _INF
    return _dn(lo), _up(hi)


@_compiled
def _meet(al, ah, bl, bh):
    lo, hi = max(al, bl), min(ah, bh)
    if not lo <= hi:
        return al, ah
    return lo, hi


@_compiled
def _clip01(lo, hi):
    return min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0)


@_compiled
def _entry(b, e, dq, vl, vh, dl, dh, ent_poly):
    """a = n / D and a' = (n' D - n D') / D^2 of one entry over box b."""
    q = ent_poly[e]
    Dl, Dh = vl[b, dq], vh[b, dq]
    al, ah = _div_pos(vl[b, q], vh[b, q], Dl, Dh)
    t1l, t1h = _mul(dl[b, q], dh[b, q], Dl, Dh)
    t2l, t2h = _mul(vl[b, q], vh[b, q], dl[b, dq], dh[b, dq])
    D2l, D2h = _mul(Dl, Dh, Dl, Dh)
    adl, adh = _div_pos(_dn(t1l - t2h), _up(t1h - t2l), D2l, D2h)
    return al, ah, adl, adh


@_compiled
def _position(F, m, cand, P_lo, P_hi, X, k):
    """A position's value from its m moves' rows of F (value, derivative and
    midpoint value, lower and upper ends, in columns 0-5): the candidates
    (``cand``: upper end at least the largest lower end, less those below the
    move with the best midpoint value by the mean-value form of their
    difference), N's enclosure met with its mean-value form over the
    candidates' derivative hull, and ``x = 1 - N`` written to ``X[k]`` (value,
    derivative, midpoint value).  Returns the best move and N's ends."""
    Nlo = -_INF
    for i in range(m):
        Nlo = max(Nlo, F[i, 0])
    best, bv = -1, -_INF
    for i in range(m):
        cand[i] = F[i, 1] >= Nlo
        if cand[i] and (best < 0 or F[i, 4] > bv):
            best, bv = i, F[i, 4]
    for i in range(m):  # the mean-value form of the difference with the best midpoint
        if cand[i] and i != best:
            gl = _dn(F[best, 4] - F[i, 5])
            gdl, _ = _mul(_dn(F[best, 2] - F[i, 3]), _up(F[best, 3] - F[i, 2]), P_lo, P_hi)
            if _dn(gl + gdl) > 0:
                cand[i] = False
    dNl, dNh, Nhi, Nml, Nmh = _INF, -_INF, -_INF, -_INF, -_INF
    for i in range(m):
        Nhi = max(Nhi, F[i, 1])
        Nml = max(Nml, F[i, 4])
        Nmh = max(Nmh, F[i, 5])
        if cand[i]:
            dNl = min(dNl, F[i, 2])
            dNh = max(dNh, F[i, 3])
    cl, ch = _mul(dNl, dNh, P_lo, P_hi)
    Nl, Nh = _meet(Nlo, Nhi, _dn(Nml + cl), _up(Nmh + ch))
    X[k, 0], X[k, 1] = max(_dn(1.0 - Nh), 0.0), min(_up(1.0 - Nl), 1.0)
    X[k, 2], X[k, 3] = -dNh, -dNl
    X[k, 4], X[k, 5] = max(_dn(1.0 - Nmh), 0.0), min(_up(1.0 - Nml), 1.0)
    return best, Nl, Nh


@_compiled
def _prune_by_differences(b, r0, m, best, cand, F, X, vl, vh, dl, dh, row_den, row_ptr, ent_pos, ent_poly,
                          row_one, P_lo, P_hi, AJ, mark, seen):
    """At the start, drop the candidates i whose difference with the best
    move j, ``g = sum_u (a_ju - a_iu) x_u``, is positive on the box by the
    mean-value form with g' enclosed as ``sum_u (a_ju - a_iu)' x_u + (a_ju -
    a_iu) x'_u``: where the rows of i and j nearly agree (p = 1/2 in binary
    Nim), this keeps the followers' wide derivative enclosures multiplied by
    the small differences of the rows.  Where both rows sum to 1 exactly,
    ``sum_u (a_ju - a_iu)' = 0`` and the first sum is taken of ``x_u - c``
    (c the mean of row j's followers' midpoint values), as in the rows' own
    derivatives."""
    rj = r0 + best
    cj = 0.0
    for e in range(row_ptr[rj], row_ptr[rj + 1]):
        u = ent_pos[e]
        AJ[u, 0], AJ[u, 1], AJ[u, 2], AJ[u, 3] = _entry(b, e, row_den[rj], vl, vh, dl, dh, ent_poly)
        mark[u] = b * (m + 1) + best
        cj += 0.5 * (X[u, 4] + X[u, 5])
    if row_ptr[rj + 1] > row_ptr[rj]:
        cj /= row_ptr[rj + 1] - row_ptr[rj]
    for i in range(m):
        if not cand[i] or i == best:
            continue
        stamp = b * (m + 1) + i
        ri = r0 + i
        c = cj if row_one[rj] and row_one[ri] else 0.0
        sl = sh = 0.0
        for e in range(row_ptr[ri], row_ptr[ri + 1]):
            u = ent_pos[e]
            seen[u] = stamp
            al, ah, adl, adh = _entry(b, e, row_den[ri], vl, vh, dl, dh, ent_poly)
            jl = jh = jdl = jdh = 0.0
            if mark[u] == b * (m + 1) + best:
                jl, jh, jdl, jdh = AJ[u, 0], AJ[u, 1], AJ[u, 2], AJ[u, 3]
            t1l, t1h = _mul(_dn(jdl - adh), _up(jdh - adl), _dn(X[u, 0] - c), _up(X[u, 1] - c))
            t2l, t2h = _mul(_dn(jl - ah), _up(jh - al), X[u, 2], X[u, 3])
            sl = _dn(sl + _dn(t1l + t2l))
            sh = _up(sh + _up(t1h + t2h))
        for e in range(row_ptr[rj], row_ptr[rj + 1]):
            u = ent_pos[e]
            if seen[u] == stamp:
                continue
            t1l, t1h = _mul(AJ[u, 2], AJ[u, 3], _dn(X[u, 0] - c), _up(X[u, 1] - c))
            t2l, t2h = _mul(AJ[u, 0], AJ[u, 1], X[u, 2], X[u, 3])
            sl = _dn(sl + _dn(t1l + t2l))
            sh = _up(sh + _up(t1h + t2h))
        gl = _dn(F[best, 4] - F[i, 5])
        gdl, _ = _mul(sl, sh, P_lo, P_hi)
        if _dn(gl + gdl) > 0:
            cand[i] = False


@_compiled
def _kernel(vl, vh, dl, dh, ml, mh, pl, ph, pos_ptr, row_den, row_ptr, ent_pos, ent_poly, row_one, xt, width,
            out_f, out_d, out_m, out_v, out_c):
    B = vl.shape[0]
    n = pos_ptr.shape[0] - 1
    X = np.empty((n, 6))
    F = np.empty((width, 6))  # f lo/hi, fd lo/hi, fm lo/hi of each row of one position
    cand = np.empty(width, dtype=np.bool_)
    AJ = np.zeros((n, 4))  # the best row's a = n / D and a' over the box, by follower
    mark = np.full(n, -1, dtype=np.int64)
    seen = np.full(n, -1, dtype=np.int64)
    for b in range(B):
        P_lo, P_hi = pl[b], ph[b]
        for k in range(n):
            r0, r1 = pos_ptr[k], pos_ptr[k + 1]
            if r0 == r1:
                X[k, 0] = xt
                X[k, 1] = xt
                X[k, 2] = 0.0
                X[k, 3] = 0.0
                X[k, 4] = xt
                X[k, 5] = xt
                continue
            m = r1 - r0
            for i in range(m):
                r = r0 + i
                s_lo = s_hi = sd_lo = sd_hi = sm_lo = sm_hi = 0.0
                c = 0.0  # the centre of the derivative's sum (module docstring)
                if row_one[r] and row_ptr[r + 1] > row_ptr[r]:
                    for e in range(row_ptr[r], row_ptr[r + 1]):
                        c += 0.5 * (X[ent_pos[e], 4] + X[ent_pos[e], 5])
                    c /= row_ptr[r + 1] - row_ptr[r]
                for e in range(row_ptr[r], row_ptr[r + 1]):
                    u, q = ent_pos[e], ent_poly[e]
                    x0, x1, x2, x3, x4, x5 = X[u, 0], X[u, 1], X[u, 2], X[u, 3], X[u, 4], X[u, 5]
                    s_lo = _dn(s_lo + _dn(vl[b, q] * x0))
                    s_hi = _up(s_hi + _up(vh[b, q] * x1))
                    a1l, a1h = _mul(dl[b, q], dh[b, q], _dn(x0 - c), _up(x1 - c))
                    a2l, a2h = _mul(vl[b, q], vh[b, q], x2, x3)
                    sd_lo = _dn(sd_lo + _dn(a1l + a2l))
                    sd_hi = _up(sd_hi + _up(a1h + a2h))
                    sm_lo = _dn(sm_lo + _dn(ml[b, q] * x4))
                    sm_hi = _up(sm_hi + _up(mh[b, q] * x5))
                dq = row_den[r]
                Dl, Dh = vl[b, dq], vh[b, dq]
                fl, fh = _div_pos(s_lo, s_hi, Dl, Dh)
                fl, fh = _clip01(fl, fh)
                fml, fmh = _div_pos(sm_lo, sm_hi, ml[b, dq], mh[b, dq])
                fml, fmh = _clip01(fml, fmh)
                tl, th = _mul(_dn(fl - c), _up(fh - c), dl[b, dq], dh[b, dq])
                fdl, fdh = _div_pos(_dn(sd_lo - th), _up(sd_hi - tl), Dl, Dh)
                cl, ch = _mul(fdl, fdh, P_lo, P_hi)
                fl, fh = _meet(fl, fh, _dn(fml + cl), _up(fmh + ch))
                F[i, 0], F[i, 1], F[i, 2], F[i, 3], F[i, 4], F[i, 5] = fl, fh, fdl, fdh, fml, fmh
            best, Nl, Nh = _position(F, m, cand, P_lo, P_hi, X, k)
            if k == n - 1:
                _prune_by_differences(b, r0, m, best, cand, F, X, vl, vh, dl, dh, row_den, row_ptr, ent_pos,
                                      ent_poly, row_one, P_lo, P_hi, AJ, mark, seen)
                for i in range(m):
                    out_f[b, i, 0], out_f[b, i, 1] = F[i, 0], F[i, 1]
                    out_d[b, i, 0], out_d[b, i, 1] = F[i, 2], F[i, 3]
                    out_m[b, i, 0], out_m[b, i, 1] = F[i, 4], F[i, 5]
                    out_c[b, i] = cand[i]
                out_v[b, 0], out_v[b, 1] = Nl, Nh


def _sparse(layout):
    """The layout's rows as flat arrays (cached on it): ``pos_ptr`` (each
    position's rows), ``row_den`` (each row's denominator), ``row_ptr`` (each
    row's nonzero entries), ``ent_pos``/``ent_poly`` (an entry's follower and
    numerator); the positions in ``layout.order``, the start last."""
    cached = getattr(layout, "_sparse_rows", None)
    if cached is not None:
        return cached
    pos_ptr, row_den, row_ptr, ent_pos, ent_poly, row_one = [0], [], [0], [], [], []
    for k in range(len(layout.order)):
        fs = layout.follow[k]
        for i, row in enumerate(layout.num[k]):
            row_den.append(layout.den[k][i])
            row_one.append(layout.row_one[k][i])  # the row's psi sums to 1 exactly
            for j, q in enumerate(row):
                if q >= 0:
                    ent_pos.append(fs[j])
                    ent_poly.append(q)
            row_ptr.append(len(ent_pos))
        pos_ptr.append(len(row_den))
    width = max((len(r) for r in layout.num), default=0)
    out = (tuple(np.asarray(a, dtype=np.int64) for a in (pos_ptr, row_den, row_ptr, ent_pos, ent_poly))
           + (np.asarray(row_one, dtype=np.bool_), max(width, 1)))
    layout._sparse_rows = out
    return out


def enclose_compiled(layout, boxes, misere: bool = False) -> Block:
    """What :func:`~symbolic_noise.solvers.maps.floatblock.enclose_block`
    returns (bounds for the start over every box of ``boxes``), computed by the
    compiled loop over the nonzero entries (see the module docstring)."""
    if layout.root != layout.order[-1]:  # pragma: no cover - positions() lists followers first
        raise ValueError("the start must be the last position of the layout")
    with np.errstate(all="ignore"):
        (vl, vh, dl, dh, ml, mh), (pl, ph) = _poly_bounds(layout, boxes)
        vl = np.maximum(vl, 0.0)
        ml = np.maximum(ml, 0.0)
    pos_ptr, row_den, row_ptr, ent_pos, ent_poly, row_one, width = _sparse(layout)
    B, m = len(boxes), len(layout.num[-1])
    out_f, out_d, out_m = (np.zeros((B, max(m, 1), 2)) for _ in range(3))
    out_v = np.zeros((B, 2))
    out_c = np.zeros((B, max(m, 1)), dtype=np.bool_)
    xt = 0.0 if misere else 1.0
    args = [np.ascontiguousarray(a) for a in (vl, vh, dl, dh, ml, mh, pl, ph)]
    _kernel(*args, pos_ptr, row_den, row_ptr, ent_pos, ent_poly, row_one, xt, width, out_f, out_d, out_m, out_v,
            out_c)
    return Block(out_f[:, :m, 0], out_f[:, :m, 1], out_d[:, :m, 0], out_d[:, :m, 1], out_v[:, 0], out_v[:, 1],
                 out_c[:, :m], out_m[:, :m, 0], out_m[:, :m, 1])


def _ball(lo: float, hi: float):
    """An arb ball holding the float interval [lo, hi] (unbounded if an end is not finite)."""
    from flint import arb

    if not (np.isfinite(lo) and np.isfinite(hi)) or lo > hi:
        return arb(0, float("inf"))
    if lo == hi:
        return arb(lo)
    return arb(lo).union(arb(hi))


def root_boxes(layout, boxes, misere: bool = False) -> list:
    """:func:`enclose_compiled` over ``boxes``, as the
    :class:`~symbolic_noise.solvers.maps.enclose.RootBox` balls the proofs of
    :mod:`~symbolic_noise.solvers.maps.build` read (each ball holds the float
    interval exactly, so what they prove holds)."""
    return block_root_boxes(enclose_compiled(layout, boxes, misere), boxes)


def block_root_boxes(blk: Block, boxes) -> list:
    """The boxes of a block's bounds as :class:`~symbolic_noise.solvers.maps.enclose.RootBox`
    balls, each holding its float interval exactly."""
    from .enclose import RootBox

    out = []
    for i, (a, b) in enumerate(boxes):
        cands = [int(j) for j in np.flatnonzero(blk.cands[i])]
        moves = [_ball(x, y) for x, y in zip(blk.mlo[i], blk.mhi[i])]
        ders = [_ball(x, y) for x, y in zip(blk.dlo[i], blk.dhi[i])]
        mids = [_ball(x, y) for x, y in zip(blk.mid_lo[i], blk.mid_hi[i])]
        dl = min((blk.dlo[i, j] for j in cands), default=0.0)
        dh = max((blk.dhi[i, j] for j in cands), default=0.0)
        out.append(RootBox(a, b, moves, ders, mids, _ball(blk.vlo[i], blk.vhi[i]), _ball(dl, dh), cands))
    return out


__all__ = ["block_root_boxes", "enclose_compiled", "root_boxes"]
