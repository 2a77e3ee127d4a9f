"""Taylor coefficients of every value over a box beside a tie point.

Next to a tie point c (:mod:`~symbolic_noise.solvers.maps.series`), two moves often agree at c to first
order or beyond, and only a higher derivative tells them apart on a concrete
box.  Over a box with c at one end, with ``h = sgn (p - c)``, this module
encloses ``f^(k)(p) / k!`` (derivatives in h) for every sent move, k up to
:data:`~.series.ORDER`, at every p of the box at once: the polynomials'
coefficients are their derivatives evaluated on a ball holding the box, and
products and quotients of truncated series are formed in ball arithmetic (the
k-th coefficient of a product at p is a sum of products of the factors' own
coefficients at the same p, each held by its ball).

Each coefficient over the box is met with its mean-value form about the
box's midpoint (the same series at the midpoint, plus the next coefficient
over the box times ``h - h_m``), which keeps them narrow on wider boxes.

A position's series over the box is its one remaining move's, where the
anchored pruning (:func:`~symbolic_noise.solvers.maps.enclose.enclose`) left one move that can be optimal
strictly inside the box; elsewhere its coefficients from order 2 on are
unknown (infinite balls): a max of two crossing functions has no second
derivative.

>>> from flint import fmpq, arb
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import get_channel
>>> from symbolic_noise.solvers.maps.structure import Layout
>>> lay = Layout(Nim(2), get_channel("binary"), 2)
>>> [str(q) for q in lay.exact_polys]
['1', '(-1)*x + 1', 'x']
>>> [float(x.mid()) for x in poly_series(lay, arb(fmpq(1, 2)), -1)[1]][:3]     # 1 - p at 1/2, in h = 1/2 - p
[0.5, 1.0, 0.0]
"""

from __future__ import annotations

from math import factorial

from flint import arb, arb_mat

from .series import ORDER

UNKNOWN = arb(0, float("inf"))
ZERO = arb(0)


def poly_series(layout, P, sgn: int, top: int = ORDER) -> list:
    """For every distinct polynomial q: balls of ``q^(k)(p) sgn^k / k!`` over
    P, k up to ``top`` (the series below keep as many orders as these)."""
    return [[ds[k](P) * (sgn**k) / factorial(k) for k in range(top + 1)] for ds in layout.polys]


def move_series(num, den, one, fs, XS, pser, c=ZERO, rows=None) -> list:
    """Every sent move's series (a list of ORDER + 1 balls) at one position,
    from its followers' series of ``1 - N`` (``XS``) and psi's (``pser``);
    with ``rows``, only those moves' (the others None).

    From order 1 on, the sums are centred at the constant c as the
    derivatives of :func:`~symbolic_noise.solvers.maps.enclose._moves` are:
    ``S_k = sum_i n_i (x - c)_(k-i) + c R_k`` with ``R = sum_u n_u``, which
    is the row's denominator D where the row sums to 1 (``one``), so there
    ``S_k - f_0 D_k = sum_i n_i (x - c)_(k-i) - (f_0 - c) D_k``."""
    m, top = len(fs), len(pser[den[0]]) - 1
    rows = range(len(num)) if rows is None else rows
    xs = [arb_mat(m, 1, [XS[u][k] - (c if k == 0 else 0) for u in fs]) for k in range(top + 1)]
    x0 = arb_mat(m, 1, [XS[u][0] for u in fs])
    flat = [j for i in rows for j in num[i]]
    mats = [arb_mat(len(rows), m, [pser[j][k] if j >= 0 else ZERO for j in flat]) for k in range(top + 1)]
    S = [(mats[0] * x0).entries()]
    for k in range(1, top + 1):
        acc = mats[0] * xs[k]
        for i in range(1, k + 1):
            acc = acc + mats[i] * xs[k - i]
        S.append(acc.entries())
    R = None if all(one) else [(mats[k] * arb_mat(m, 1, [1] * m)).entries() for k in range(top + 1)]
    out = [None] * len(num)
    for n_, i in enumerate(rows):
        D = pser[den[i]]
        f = []
        for k in range(top + 1):
            s = S[k][n_]
            if k:
                if one[i]:
                    s = s - (f[0] - c) * D[k]
                else:
                    s = s + c * R[k][n_] - f[0] * D[k]
            for t in range(1, k):
                s = s - f[t] * D[k - t]
            f.append(s / D[0])
        out[i] = f
    return out


def tighten(fser, fser_m, dph) -> None:
    """Meet every move's coefficients over the box with their mean-value form
    about the midpoint, ``T_o(m) + (o + 1) T_(o+1)(J) (h - h_m)`` (``dph``
    holds ``h - h_m``), from the top order down; in place."""
    for f, fm in zip(fser, fser_m):
        if f is None:  # a move whose series was not made (not a candidate)
            continue
        for o in range(len(f) - 2, 0, -1):
            c = fm[o] + (o + 1) * f[o + 1] * dph
            if c.is_finite() and f[o].is_finite():
                f[o] = f[o].intersection(c)
            elif c.is_finite():
                f[o] = c


def follower_series(value, der, sgn, inside, fser) -> list:
    """The series of ``1 - N`` at a position: the tight value ball for order
    0, the derivative hull for order 1 (met with the remaining move's own
    coefficient), then that move's coefficients (unknown where more than one
    move remains)."""
    first = -der * sgn
    if len(inside) != 1:
        return [1 - value, first] + [UNKNOWN] * (len(fser[inside[0]]) - 2)
    own = fser[inside[0]]
    if own[1].is_finite() and first.is_finite():
        first = first.intersection(-own[1])
    return [1 - value, first] + [-x for x in own[2:]]


def terminal_series(x, top: int = ORDER) -> list:
    """The series of a constant ``x`` (a position without moves): x, then zeros to order ``top``."""
    return [x] + [ZERO] * top


__all__ = ["follower_series", "move_series", "poly_series", "terminal_series", "tighten"]
