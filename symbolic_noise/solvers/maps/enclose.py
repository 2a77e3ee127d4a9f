"""Certified enclosures of every value over one box of p, with derivatives.

Over a box ``J = [a, b]`` (``a == b`` allowed) and for every position v,
followers first, this module computes arb balls that hold, for every p in J:

* ``N_v(p)``, the value, and every sent move's ``N_v(w)(p)`` at the start;
* an enclosure of the derivative (Clarke's generalised gradient where N_v has a
  kink in J);
* the same quantities at the box's midpoint m.

Why the balls hold
------------------
With ``x_u = 1 - N_u`` and psi at v over a common denominator per row,
``N_v(w) = S_w / D_w`` with ``S_w = sum_u n_wu x_u``.  The polynomials n and D
are evaluated on a ball holding J (Horner on a ball is rigorous), and
intersected with their mean-value form ``q(m) + q'(J) (J - m)``.  The sent
move's derivative is ``(S'_w - N_v(w) D'_w) / D_w`` with ``S'_w = sum_u
n'_wu x_u + n_wu x'_u`` (quotient rule written with the value's own enclosure).
The value ``N_v = max_w N_v(w)`` lies in the max of the moves' balls.  ``N_v``
is continuous and piecewise smooth, so by Lebourg's mean value theorem
``N_v(p) - N_v(m) = g (p - m)`` for some g in the generalised gradient, which
lies in the convex hull of the derivatives of the moves that can be optimal
somewhere in J (those whose upper end reaches the largest lower end); the sum
and product rules keep inclusions in the same direction, so the hull of those
balls encloses it.  Hence the centred form ``N_v(m) + N_v'(J) (J - m)`` holds
N_v over J, and is intersected with the plain enclosure: this is what makes
narrow boxes converge.  Values are probabilities, so every ball is also cut to
[0, 1].  arb rounds outward, and its comparisons answer True only when certain.

>>> from flint import fmpq
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import get_channel
>>> from symbolic_noise.solvers.maps.structure import Layout
>>> box = enclose(Layout(Nim(2), get_channel("binary"), 2), fmpq(1, 8), fmpq(1, 4))
>>> box.value.contains(ball(fmpq(3, 4), fmpq(7, 8))), box.value.rad() < 1e-10    # N_2 = 1 - p
(True, False)
>>> box.candidates, box.ders[0].contains(-1), box.ders[1].contains(1)
([0], True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from flint import arb, arb_mat, fmpq

from .series import ORDER
from .taylorbox import follower_series, move_series, poly_series, terminal_series, tighten

UNIT = arb(fmpq(1, 2), fmpq(1, 2))
ZERO = arb(0)


@dataclass
class RootBox:
    """The start position over one box: ``moves[i]``, ``ders[i]``, ``mids[i]``
    hold sent move i's value over J, its derivative over J and its value at the
    midpoint; ``value``/``der`` the same for N; ``candidates`` the moves that
    may be optimal somewhere in J: the others' balls lie below the largest
    lower end, or their difference with the best move at the midpoint is
    positive on J (:func:`_prune`)."""

    #: the left end of the box J
    a: fmpq
    #: the right end of the box J
    b: fmpq
    #: balls holding each sent move's value over J
    moves: list
    #: balls holding each sent move's derivative over J
    ders: list
    #: balls holding each sent move's value at the midpoint of J
    mids: list
    #: a ball holding N over J
    value: arb
    #: a ball holding the derivatives of N over J (the hull over its candidate moves)
    der: arb
    #: the moves that may be optimal somewhere in J
    candidates: list
    #: Taylor coefficients of the moves beside a tie point, when the box was anchored there
    taylor: list | None = None


def ball(a: fmpq, b: fmpq) -> arb:
    """A ball holding the whole interval [a, b] (outward rounded)."""
    return arb(a).union(arb(b)) if a != b else arb(a)


def enclose(layout, a: fmpq, b: fmpq, misere: bool = False, anchor=None) -> RootBox:
    """Balls for the start position over ``[a, b]``, the recursion below done in
    arb at the current precision (see the module docstring).

    ``anchor``: the exact series (:class:`~.series.SideSeries`) at a tie point
    c that is the box's left end (``anchor.sgn = 1``) or right end (``-1``).
    A move tied at c (``anchor.tie``) whose series first falls below the best
    move's at order o (``anchor.order``) is below it on the whole box minus c
    when the o-th derivative of their difference (in ``h = sgn (p - c)``) is
    positive on the box; such moves are left out of the derivative hull (the
    mean value theorem only needs the generalised gradient strictly inside the
    box: a follower's kink at c would otherwise put both slopes into every
    derivative above it).  Anchored, the Taylor coefficients of every move
    over the box are carried too (:mod:`~symbolic_noise.solvers.maps.taylorbox`, ``RootBox.taylor``)."""
    m = (a + b) / 2
    P, M = ball(a, b), arb(m)
    DP = P - M
    anchored = anchor is not None
    if anchored:  # p - c over the box, c its anchored end
        toward = ball(fmpq(0), b - a) if anchor.sgn > 0 else ball(a - b, fmpq(0))
        kept = kept_orders(anchor)
        pser = poly_series(layout, P, anchor.sgn, kept)
        pser_m = poly_series(layout, M, anchor.sgn, kept)
        dph = DP * anchor.sgn
    vals, ders, mids = [], [], []
    for q, dq, *_ in layout.polys:
        v, d, vm = q(P), dq(P), q(M)
        vals.append(_centred(v, vm, d, DP))
        ders.append(d)
        mids.append(vm)
    terminal = arb(1 if misere else 0)
    one = layout.row_one
    n = len(layout.order)
    X, Xd, Xm, XS, XSm = [None] * n, [None] * n, [None] * n, [None] * n, [None] * n
    root = n - 1
    out = None
    for k in range(n):
        fs = layout.follow[k]
        if not fs:
            X[k], Xd[k], Xm[k] = 1 - terminal, ZERO, 1 - terminal
            XS[k] = XSm[k] = terminal_series(1 - terminal, kept) if anchored else None
            continue
        f, fd, fm = _moves(layout.num[k], layout.den[k], one[k], fs, X, Xd, Xm, vals, ders, mids, DP)
        top = reduce(lambda x, y: x.max(y), f)
        floor = max((x.lower() for x in f), key=_Key)
        cands = [i for i, x in enumerate(f) if not (x.upper() < floor)]
        if len(cands) > 1:
            cands = _prune(cands, fd, fm, DP)
        fser = None
        if anchored:  # the series of the candidates only (below the start, nothing reads the others')
            c, rows = centre(Xm, fs), None if k == root else cands
            fser = move_series(layout.num[k], layout.den[k], one[k], fs, XS, pser, c, rows)
            fser_m = move_series(layout.num[k], layout.den[k], one[k], fs, XSm, pser_m, c, rows)
            tighten(fser, fser_m, dph)
        inside = cands if not anchored else _inside(cands, fd, fser, anchor, k, toward)
        dN = reduce(lambda x, y: x.union(y), [fd[i] for i in inside])
        Nm = reduce(lambda x, y: x.max(y), fm)
        top = _centred(top, Nm, dN, DP)
        X[k], Xd[k], Xm[k] = 1 - top, -dN, 1 - Nm
        if anchored:
            XS[k] = follower_series(top, dN, anchor.sgn, inside, fser)
            XSm[k] = follower_series(Nm, dN, anchor.sgn, inside, fser_m)
        if k == root:
            out = RootBox(a, b, f, fd, fm, top, dN, cands, fser)
    if out is None:  # a terminal start
        return RootBox(a, b, [], [], [], terminal, ZERO, [])
    return out


def kept_orders(anchor) -> int:
    """The highest order an anchored enclosure carries: two above the highest
    order at which a move first falls below the best in the exact series
    (``anchor.order``), the most any test reads, for the mean-value forms
    of that coefficient and of the next (:func:`~.taylorbox.tighten`); at
    most :data:`~.series.ORDER`."""
    used = max((o for row in anchor.order for o in row if o is not None), default=0)
    return min(ORDER, used + 2)


def _prune(cands, fd, fm, DP):
    """Drop candidates certainly below the one with the best midpoint value,
    by the mean-value form of the difference, ``(V_j - V_k)(m) + (V_j -
    V_k)'(J) (J - m)``: far tighter than two separate balls where the two
    moves run close together."""
    j = max(cands, key=lambda i: _Key(fm[i].lower()))
    return [k for k in cands if k == j or not ((fm[j] - fm[k]) + (fd[j] - fd[k]) * DP > 0)]


def _inside(cands, fd, fser, anchor, k, toward):
    """The candidates that can be optimal strictly inside an anchored box.

    A move below the value at c by the exact gap g is dropped when ``g +
    (V_j - V_i)'(J) (p - c)`` stays positive, j the best move at c; a move
    tied with j at c whose series falls below j's at order o is dropped when
    the o-th coefficient of ``V_j - V_i`` over the box is positive."""
    best = anchor.best[k]
    if not best or best[0] not in cands:
        return cands
    j = best[0]
    sgn, gap, order = anchor.sgn, anchor.gap[k], anchor.order[k]
    out = []
    for i in cands:
        o = order[i]
        if i == j or o is None:
            out.append(i)
        elif o == 0:
            if not (gap[i] + (fd[j] - fd[i]) * toward > 0):
                out.append(i)
        elif o == 1:
            if not ((fd[j] - fd[i]) * sgn > 0 or fser[j][1] - fser[i][1] > 0):
                out.append(i)
        elif not (fser[j][o] - fser[i][o] > 0):
            out.append(i)
    return out


def centre(Xm, fs) -> arb:
    """An exact number near the followers' midpoint values (their mean), the
    constant c of the centred derivative sums (:func:`_moves`)."""
    return arb(sum((Xm[u] for u in fs), ZERO).mid() / len(fs)).mid()


def _moves(num, den, one, fs, X, Xd, Xm, vals, ders, mids, DP):
    """Every sent move's (value, derivative, midpoint value) balls at one position.

    The derivative ``(S' - f D') / D`` with ``S' = sum_u n_u' x_u + n_u x_u'``
    is evaluated centred, as in :mod:`~symbolic_noise.solvers.maps.floatkernel`:
    for any constant c, ``S' = sum_u n_u' (x_u - c) + n_u x_u' + c R`` with ``R
    = sum_u n_u'``, and ``R = D'`` where the row sums to 1 exactly (``one``),
    so there ``S' - f D' = sum_u n_u' (x_u - c) + n_u x_u' - (f - c) D'``: the
    same number, without the variation of every ``n_u'`` times a value near c
    that ball arithmetic cannot cancel."""
    m = len(fs)
    c = centre(Xm, fs)
    xv = arb_mat(m, 1, [X[u] for u in fs])
    xc = arb_mat(m, 1, [X[u] - c for u in fs])
    xd = arb_mat(m, 1, [Xd[u] for u in fs])
    xm = arb_mat(m, 1, [Xm[u] for u in fs])
    flat = [j for row in num for j in row]
    NJ = arb_mat(m, m, [vals[j] if j >= 0 else ZERO for j in flat])
    ND = arb_mat(m, m, [ders[j] if j >= 0 else ZERO for j in flat])
    NM = arb_mat(m, m, [mids[j] if j >= 0 else ZERO for j in flat])
    S = (NJ * xv).entries()
    Sd = (ND * xc + NJ * xd).entries()
    Sm = (NM * xm).entries()
    R = None if all(one) else (ND * arb_mat(m, 1, [1] * m)).entries()
    f, fd, fm = [], [], []
    for i in range(m):
        q = den[i]
        D, DD, DM = vals[q], ders[q], mids[q]
        v = S[i] / D
        vm = _meet(Sm[i] / DM, UNIT)
        v = _meet(v, UNIT)
        d = (Sd[i] - (v - c) * DD) / D if one[i] else (Sd[i] + c * R[i] - v * DD) / D
        f.append(_centred(v, vm, d, DP))
        fd.append(d)
        fm.append(vm)
    return f, fd, fm


def _meet(x, y):
    """The intersection of two balls that both hold the same number (x when
    either is not finite)."""
    return x.intersection(y) if x.is_finite() and y.is_finite() else x


def _centred(v, vm, d, DP):
    """A ball over the box ``v`` met with the mean-value form ``vm + d (J - m)``."""
    return _meet(v, vm + d * DP)


class _Key:
    """Sort key for arb balls with exact ends (``max(balls, key=_Key)``)."""

    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    def __lt__(self, other):
        return bool(self.x < other.x)


__all__ = ["RootBox", "ball", "enclose"]
