"""Cheap certified bounds on how much a follower's value moves across a cell.

The solver's screening (:meth:`symbolic_noise.solvers.solver._PositionSolver._screen`)
needs, for every follower ``u`` and every cell ``[lo, hi]`` with sample point
``t``, an exact number ``s_u >= |N_u(s) - N_u(t)|`` for all ``s`` in the cell.
A Bernstein transform of ``N_u``'s numerator and denominator on the cell gives
one, but costs a Taylor shift of a polynomial of degree ~300 with coefficients
of thousands of bits, for every new cell and every follower: at Nim k = 64
that was 40% of the solve.

Here the bound is the mean-value form

    |N_u(s) - N_u(t)| <= max |N_u'| on [lo, hi]  *  max(t - lo, hi - t),

with ``max |N_u'|`` bounded by ball arithmetic (arb, outward rounding):
``N_u' = (n' d - n d') / d^2`` is evaluated on a ball covering the cell, from
the *local* polynomials ``n(L + x / S)``, ``d(L + x / S)`` of a dyadic block
``[L, L + 1/S]`` around the cell (their coefficients decay like
``|n^(i)(L)| / (i! S^i)``, so evaluating them on a ball overestimates little).
A block's local polynomials are made once, exactly (``fmpq_poly``
composition with a short dyadic line), and serve every cell inside the block
and every position that has ``u`` as a follower.  The answer is certified:
every operation rounds outward, ``d > 0`` is checked on the whole ball (else
no bound is given and the caller falls back to the exact Bernstein bound), and
the result is converted to an exact rational upper bound.

>>> from flint import fmpz_poly
>>> sb = SlopeBounds()
>>> num, den = fmpz_poly([0, 1] + [0] * 38 + [1]), fmpz_poly([1, 1])   # (p + p^40) / (1 + p)
>>> s = sb.spread(("u", 0), num, den, fmpq(1, 2), fmpq(3, 4), fmpq(5, 8))
>>> abs(num(fmpq(1, 2)) / den(fmpq(1, 2)) - num(fmpq(5, 8)) / den(fmpq(5, 8))) <= s
True
>>> sb.spread(("v", 0), fmpz_poly([0, 1]), den, fmpq(1, 2), fmpq(3, 4), fmpq(5, 8)) is None   # low degree: exact bound
True
"""

from __future__ import annotations

from collections import OrderedDict

from flint import arb, arb_poly, ctx, fmpq, fmpq_poly

from ..onepoint.fastpoint import ball_bounds

#: ratios of lower degree are left to the exact Bernstein bound
MIN_DEGREE = 32
#: working precision (bits) of the ball evaluations
PREC = 64
#: blocks are about 2^BLOCK_MARGIN times as wide as the cell (4 against 3:
#: nim 64 made 17,124 D tests instead of 18,198 and spent 10 % less on slopes)
BLOCK_MARGIN = 4
#: at most this many blocks' local polynomials are kept (least recently used go first)
MAX_BLOCKS = 1024
#: a cell's ball is halved at most this many times in depth when its bound looks loose
SPLITS = 3
#: ... that is, when it exceeds the derivative at the middle by more than this factor
#: (1.25 before the pair test of moves made survivors cheaper to settle: 2 is
#: about 3 % faster at nim 64 (`benchmarks/ab_commits.py`, 2 reps; 4 the same))
SLACK = 2
#: the same for the second derivative of a Taylor model (:meth:`SlopeBounds.taylor`),
#: where d > 0 is not shown
TAYLOR_SPLITS = 3


#: a bound within this of the derivative's size at the middle is not split further
_TINY = arb(2) ** -200


def _level(width: fmpq) -> int:
    """The dyadic level of the blocks for a cell of this width: 2^-level is at
    least 2^BLOCK_MARGIN widths (cells of similar widths share blocks)."""
    # 2^-(level) >= width * 2^BLOCK_MARGIN  <=>  level <= log2(1/width) - BLOCK_MARGIN
    inv = width.q // width.p  # floor(1 / width) >= 1 for a cell inside [0, 1]
    return max(0, int(inv).bit_length() - 1 - BLOCK_MARGIN)


def _derivative_ball(n, n1, d, d1, X):
    """``(n/d)'`` on the ball X, or None unless ``d > 0`` on X."""
    dv = d(X)
    if not dv > 0:
        return None
    # (divided by dv twice: arb's dv * dv does not know its factors are one
    # ball, and on a wide ball (den growing twelvefold across a block) the
    # product's ball held 0 and the bound came out NaN)
    return (n1(X) * dv - n(X) * d1(X)) / dv / dv


def _second_ball(n, n1, n2, d, d1, d2, X):
    """``(n/d)''`` on the ball X, or None unless ``d > 0`` on X (``n1``,
    ``n2``, ``d1``, ``d2`` the derivatives):
    ``(n'' d - n d'') / d^2 - 2 d' (n' d - n d') / d^3``."""
    dv = d(X)
    if not dv > 0:
        return None
    nv, d1v = n(X), d1(X)
    return (n2(X) * dv - nv * d2(X)) / dv / dv - 2 * d1v * (n1(X) * dv - nv * d1v) / dv / dv / dv  # (as in _derivative_ball)


def _second_on(n, d, a: fmpq, b: fmpq, splits: int):
    """An arb upper bound of ``|(n/d)''|`` on [a, b], or None.  Unlike
    :func:`_slope_on`, [a, b] is halved only where a ball evaluation does not
    show ``d > 0`` (at most ``splits`` times in depth): the bound enters the
    Taylor models' remainders times the square of the cell's width, where a
    loose one costs little, while halving where it is loose cost more than
    the pair tests it won (nim 48: 52 % of the tests decided against 41 %,
    the solve 8 % slower; nim 64: 0.96x against 1.05x)."""
    n1, d1 = n.derivative(), d.derivative()
    parts = (n, n1, n1.derivative(), d, d1, d1.derivative())
    todo, out = [(a, b, splits)], None
    while todo:
        a, b, depth = todo.pop()
        D = _second_ball(*parts, arb(a).union(arb(b)))
        if D is not None and D.is_finite():
            bound = D.abs_upper()
            out = bound if out is None else out.max(bound)
            continue
        if depth == 0:
            return None
        m = (a + b) / 2
        todo += [(a, m, depth - 1), (m, b, depth - 1)]
    return out


def _slope_on(n, d, a: fmpq, b: fmpq, splits: int):
    """An arb upper bound of ``|(n/d)'|`` on [a, b], or None.  A ball evaluation
    overestimates in proportion to the ball's width: while the bound exceeds
    the derivative at the middle by more than :data:`SLACK` times, the interval is halved
    (at most ``splits`` times in depth)."""
    n1, d1 = n.derivative(), d.derivative()
    todo, out = [(a, b, splits)], None
    while todo:
        a, b, depth = todo.pop()
        D = _derivative_ball(n, n1, d, d1, arb(a).union(arb(b)))
        if D is None and depth == 0:
            return None
        if D is not None:
            bound = D.abs_upper()
            mid = _derivative_ball(n, n1, d, d1, arb((a + b) / 2)) if depth else None
            if depth == 0 or (mid is not None and bound <= SLACK * mid.abs_lower() + _TINY):
                out = bound if out is None else out.max(bound)
                continue
        m = (a + b) / 2
        todo += [(a, m, depth - 1), (m, b, depth - 1)]
    return out


class SlopeBounds:
    """Per-solve cache of blocks' local polynomials; :meth:`spread` gives the bounds."""

    def __init__(self, max_blocks: int = MAX_BLOCKS):
        self._blocks: OrderedDict = OrderedDict()
        self.max_blocks = max_blocks

    def _block(self, key, num, den, level: int, index: int, name=None):
        k = (key, level, index)
        got = self._blocks.get(k)
        # the key names the pair only while it is the same pair: a range
        # worker's pieces are renumbered after a hand-over (then rebuild).
        # ``name`` (held, compared by identity) stands for the pair when given
        # (the solver's: its followers' formulas may be packed, and unpacked
        # anew for each position)
        first, second = (num, den) if name is None else (name, None)
        if got is not None and got[2] is first and got[3] is second:
            self._blocks.move_to_end(k)
            return got[:2]
        S = 2**level
        line = fmpq_poly([fmpq(index, S), fmpq(1, S)])
        with ctx.workprec(PREC):
            n, d = arb_poly(fmpq_poly(num)(line)), arb_poly(fmpq_poly(den)(line))
        self._blocks[k] = (n, d, first, second)
        self._blocks.move_to_end(k)
        if len(self._blocks) > self.max_blocks:
            self._blocks.popitem(last=False)
        return n, d

    def _pieces(self, key, num, den, lo: fmpq, hi: fmpq, name=None):
        """``(S, n, d, a, b)`` for every block of [lo, hi]'s level that meets
        it: the block's local polynomials and the part of the cell inside it
        in the block's coordinate ``x = S s - index`` (``[a, b]`` in [0, 1])."""
        level = _level(hi - lo)
        S = 2**level
        first, last = int((lo * S).floor()), int((hi * S).ceil()) - 1
        for index in range(first, last + 1):
            n, d = self._block(key, num, den, level, index, name)
            yield S, n, d, max(lo * S - index, fmpq(0)), min(hi * S - index, fmpq(1))

    def slope(self, key, num, den, lo: fmpq, hi: fmpq, name=None):
        """An arb upper bound of ``max |(num/den)'|`` on [lo, hi], or None when
        ``den > 0`` there is not shown.  ``key`` names the pair (num, den);
        ``name``, when given, is an object that stands for it as long as it
        lives (held by the cache and compared by identity; default: num and den)."""
        out = None
        with ctx.workprec(PREC):
            for S, n, d, a, b in self._pieces(key, num, den, lo, hi, name):
                bound = _slope_on(n, d, a, b, SPLITS)
                if bound is None:
                    return None
                bound = bound * S
                out = bound if out is None else out.max(bound)
        return out

    def taylor(self, key, num, den, lo: fmpq, hi: fmpq, c: fmpq, name=None):
        """``(c, e, g, L2)``: balls with ``e`` holding ``1 - N(c)``, ``g`` holding
        ``N'(c)`` and ``L2 >= max |N''|`` on [lo, hi] (``N = num/den``, ``c`` in
        [lo, hi]), so that ``1 - N(s)`` lies in ``e - g (s - c) +- L2 (s - c)^2 / 2``
        for every s in [lo, hi] (Taylor's theorem); ``None`` when ``den > 0``
        is not shown.  From the blocks :meth:`slope` uses for the cell (made
        just before, so usually at hand), in their well-conditioned local
        coordinate ``x = S s - index``: ``d/ds = S d/dx``.  ``name``: as for :meth:`slope`."""
        if num.degree() <= 0 and den.degree() <= 0:  # a constant: exact, flat
            value = fmpq(int(num[0]) if not num.is_zero() else 0, int(den[0]))
            return c, arb(1 - value), arb(0), arb(0)
        level = _level(hi - lo)
        S = 2**level
        first, last = int((lo * S).floor()), int((hi * S).ceil()) - 1
        with ctx.workprec(PREC):
            index = min(max(int((c * S).floor()), first), last)
            n, d = self._block(key, num, den, level, index, name)
            x = arb(c * S - index)
            dv = d(x)
            if not dv > 0:
                return None
            nv = n(x)
            e = 1 - nv / dv
            g = (n.derivative()(x) * dv - nv * d.derivative()(x)) / (dv * dv) * S
            L2 = None
            for S, n, d, a, b in self._pieces(key, num, den, lo, hi, name):
                bound = _second_on(n, d, a, b, TAYLOR_SPLITS)
                if bound is None:
                    return None
                bound = bound * (S * S)
                L2 = bound if L2 is None else L2.max(bound)
        if not (e.is_finite() and g.is_finite() and L2.is_finite()):
            return None
        return c, e, g, L2

    def spread(self, key, num, den, lo: fmpq, hi: fmpq, t: fmpq) -> fmpq | None:
        """An exact bound on ``|num/den(s) - num/den(t)|`` for s in [lo, hi] (t inside), or None
        (also for ratios of degree below :data:`MIN_DEGREE`: their exact
        Bernstein bound costs less than a block)."""
        if max(num.degree(), den.degree()) < MIN_DEGREE:
            return None
        return mean_value_bound(self.slope(key, num, den, lo, hi), lo, hi, t)


def mean_value_bound(L, lo: fmpq, hi: fmpq, t: fmpq) -> fmpq | None:
    """``L * max(t - lo, hi - t)`` as an exact upper bound (None if ``L`` is None
    or not finite): the spread on [lo, hi] around t of a function whose slope
    is at most ``L`` there (or on any interval holding [lo, hi])."""
    if L is None:
        return None
    with ctx.workprec(PREC):
        s = L * arb(max(t - lo, hi - t))
    return ball_bounds(s)[1] if s.is_finite() else None


__all__ = ["SlopeBounds", "mean_value_bound"]
