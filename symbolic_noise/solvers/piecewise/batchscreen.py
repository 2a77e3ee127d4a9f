"""Screening every cell of a position at once, for channels affine in p.

The solver's per-cell screen (:meth:`symbolic_noise.solvers.solver._PositionSolver._screen`)
bounds each follower's value over one cell and each move's value from those,
one cell at a time: on Chomp that is a Python call, a cache look-up and often
an exact Bernstein range for every (cell, follower) pair, and 2.8 million
pairs on the 5 x 6 board.  When every channel row is affine in p,

    psi_v(w, u)(s) = P0[w, u] + s P1[w, u]      (Q_w a positive constant),

as in Chomp's king, rook and all-neighbour channels, the screen of all the
position's *base cells* (the cells between its followers' breakpoints) is a
few matrix products:

1. every follower ``u`` and base cell ``i`` get an enclosure
   ``g_u(x) in [lo_ui, hi_ui]`` for every x in the cell, ``g_u = 1 - N_u``, by
   the mean-value form around the middle of the cell's rational hull
   ``[a_i, b_i]``: ``g_u(mid) -+ sup |g_u'| (b_i - a_i) / 2``, the supremum a
   ball evaluation of ``(n' d - n d') / d^2`` on a ball covering the hull
   (no bound, and no screen of that cell, unless ``d > 0`` on the whole ball);
2. a move's value ``V_w(x) = sum_u psi(w, u)(x) g_u(x)`` then lies between
   ``sum_u psi(w, u)(x) lo_ui`` and ``sum_u psi(w, u)(x) hi_ui``, because
   ``psi >= 0`` on the parameter range (the channel is validated there); both
   are affine in x, so their extremes over the cell are at its ends:
   ``(P0 L)[w, i] + a_i (P1 L)[w, i]`` and the same at ``b_i``, with ``L`` the
   k x n matrix of the ``lo_ui`` (likewise ``H`` for the upper ends);
3. a move whose upper bound lies below the largest lower bound of any move
   (the floor) is strictly worse than that move on the whole cell.

The followers' enclosures are ball-arithmetic bounds read off at their certain
ends (kept as floats rounded outward); the products and comparisons of steps 2
and 3 run over all the batch's cells at once in IEEE binary64 with error
bounds (below), and a move is dropped only on a certain comparison: no float
decides anything it could get wrong.  A sub-cell of a base cell (split by a
breakpoint the sweep finds) keeps its base cell's survivors, which are a
superset of its own.

Why the float bounds are rigorous
---------------------------------
Write ``h_u`` for follower ``u``'s upper end on a cell (a float: the
enclosure's exact upper end rounded up; the lower ends ``l_u`` rounded down)
and ``P0~`` for the nearest floats to the exact ``P0`` (likewise ``P1``).
``S = fl(P0~ H)`` is a float matrix product in any summation order, with or
without fused multiply-adds, so ``|S - P0~ H| <= gamma_k |P0~| |H|``
entrywise (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
sec. 3.5) with ``gamma_k = k u / (1 - k u)``, ``u = 2^-53``; and ``|P0 -
P0~| <= 2^-52 |P0~|``.  So ``|S - P0 H| <= E = (k + 2) 2^-52 |P0~| |H|``
(computed, then enlarged by ``1 + 2^-40`` for its own rounding), plus
``k 2^-1060`` for underflow.  With ``x`` in ``[x_lo, x_hi]`` (the cell's end,
outward floats of an exact rational in [0, 1], so ``x >= 0``), the exact
upper bound ``(P0 H)[w] + x (P1 H)[w]`` is at most ``S0 + E0 + max(x_lo T,
x_hi T)`` with ``T = S1 + E1``; these few float operations, rounded to
nearest, err by less than ``2^-48 (|S0| + E0 + x_hi (|S1| + E1)) +
2^-1000``, which is added.  Lower bounds are the mirror image.  A move is
dropped on a cell when its upper bound at both ends lies below the largest
lower bound of any move there (``psi >= 0`` makes the bounds affine in x, so
their extremes are at the ends); a cell with a bound that is not finite is
left to the sweep (``None``), and cells below 0 are refused.
:func:`symbolic_noise.solvers.boxes.floatbox.check_float_environment` checks
round-to-nearest binary64 before the first screen.

>>> from flint import fmpz_poly, fmpq
>>> P0, P1 = affine_rows([(fmpz_poly([0, 1]),), ], [fmpz_poly([1])]) or (None, None)
>>> P0 is None   # one move only: nothing to screen
True
>>> rows = [(fmpz_poly([0, 2]), fmpz_poly([1, -1]), fmpz_poly([1, -1])),     # Chomp 2 x 2, king channel
...         (fmpz_poly([1, -1]), fmpz_poly([0, 2]), fmpz_poly([1, -1])),
...         (fmpz_poly([1, -1]), fmpz_poly([1, -1]), fmpz_poly([0, 2]))]
>>> P0, P1 = affine_rows(rows, [fmpz_poly([2])] * 3)
>>> one, zero = fmpz_poly([1]), fmpz_poly([0])
>>> # the followers: 1 x 2 and 2 x 1 (N = 1), the L of three squares (N = 0); spans (start, stop, num, den)
>>> pieces = [[(0, 2, one, one)], [(0, 2, one, one)], [(0, 2, zero, one)]]
>>> # moves (1, 2) and (2, 1) are worth (1 - p)/2, (2, 2) is worth p
>>> screen_cells(P0, P1, [(fmpq(0), fmpq(1, 4)), (fmpq(1, 2), fmpq(1))], pieces)
[[0, 1], [2]]
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np
from flint import arb, ctx, fmpq, fmpz_poly

from ..boxes.floatbox import check_float_environment
from ...exact.ratfunc import RationalFunction

#: working precision (bits) of the followers' ball enclosures
PREC = 64
#: a formula's enclosures are dropped from an :class:`EnclosureCache` when
#: no position used them for this many positions (looked at as often)
KEEP = 128


def affine_rows(P: list, Q: list) -> tuple[np.ndarray, np.ndarray] | None:
    """``(P0, P1)``, the m x k float matrices nearest to the exact ``psi(w, u)
    = P_wu / Q_w = P0 + p P1``, when every ``Q_w`` is a positive constant and
    every ``P_wu`` has degree at most 1 and there are at least two moves; else
    ``None``.  (:func:`screen_cells` accounts for their rounding.)"""
    if len(Q) < 2 or any(q.degree() != 0 or not q[0] > 0 for q in Q):
        return None
    if any(n.degree() > 1 for row in P for n in row):
        return None
    # int / int is correctly rounded: within 2^-53 relative of the rational
    rows0 = [[int(n[0]) / int(q[0]) for n in row] for q, row in zip(Q, P)]
    rows1 = [[int(n[1]) / int(q[0]) for n in row] for q, row in zip(Q, P)]
    P0, P1 = np.array(rows0, dtype=np.float64), np.array(rows1, dtype=np.float64)
    for M in (P0, P1):  # (the relative rounding bound needs normal floats)
        size = np.abs(M[M != 0])
        if size.size and (size.min() < 2.0**-1000 or size.max() > 2.0**1000):
            return None
    return P0, P1


def _enclose(pieces: list, hulls: tuple, lows: list, highs: list, bad: set, cache: dict, gen: int) -> None:
    """Fill ``lows[i]``, ``highs[i]`` (floats rounded outward) with an enclosure of
    ``g = 1 - num/den`` on hull ``i`` for every span ``(start, stop, num,
    den)`` of ``pieces``: ``g(mid_i) -+ L rad_i``, ``L`` a bound of ``|g'|``
    on a ball covering the hull; a cell whose denominator is not certainly
    positive there goes into ``bad``.
    ``cache`` keeps the enclosures by the formula's identity and the hull's
    name (and the generation ``gen`` that last used them): positions that
    share a follower meet it on the same hulls.  An entry is ``[num, lows,
    highs, poles, gen, den]``."""
    balls, mids, rads, names = hulls
    for start, stop, num, den in pieces:
        got = cache.get(id(num))
        if got is None or got[0] is not num or (got[5] is not den and got[5] != den):
            got = cache[id(num)] = [num, {}, {}, set(), gen, den]
        else:
            got[4] = gen
        _, low, high, poles, _, _ = got
        hs = names[start:stop]
        # (most spans are known on every hull: one pass at C speed, itemgetter
        # taking half the time of a list comprehension on Chomp's short spans)
        if stop - start == 1:
            h = hs[0]
            if h not in low:
                _fill(num, den, start, stop, hulls, low, high, poles)
            lows[start], highs[start] = low[h], high[h]
        else:
            take = itemgetter(*hs)
            try:
                lows[start:stop] = take(low)
            except KeyError:
                _fill(num, den, start, stop, hulls, low, high, poles)
                lows[start:stop] = take(low)
            highs[start:stop] = take(high)
        if poles:
            bad.update(i for i in range(start, stop) if names[i] in poles)


def _fill(num: fmpz_poly, den: fmpz_poly, start: int, stop: int, hulls: tuple, low: dict, high: dict, poles: set) -> None:
    """:func:`_enclose`'s enclosures of ``1 - num/den`` on the hulls
    ``start .. stop - 1`` it lacks.  (Keeping the slope polynomial with the
    formula's enclosures, for the hulls later positions meet it on, saved
    its products but took several GB on Chomp 7 x 7 king: a worker of
    ``--jobs 2`` was killed for memory.  Enclosing every missing (formula,
    hull) pair of a screen at once in binary64, a midpoint-radius Horner
    scheme over numpy arrays with its rounding carried into the radii, was
    slower, not faster: 20.6 against 17.5 s CPU on 5 x 6 king, 34.8 against
    30.6 s on 6 x 6.  The float arithmetic was 2 % of the solve, but a formula
    meets about four new hulls before it is dropped, and turning its
    coefficients and slope into floats (10 %) and the per-pair bookkeeping
    (9 %) cost more than the balls they replaced.  Sharing a formula's
    enclosures between nearby hulls does not pay either: on 5 x 6 king,
    609,914 new (formula, hull) pairs fall on 431,825 distinct (formula,
    dyadic parent 64 times wider) pairs.  Borrowing the enclosure of the
    cell a new breakpoint split (valid on the larger hull), and making the
    hull's own only where the borrowed bounds left more than one move, made
    20 % fewer enclosures (5 x 6 king: 486,398 against 609,914; every screen's
    result the same) and no time: 6 x 6 king 37.5 / 40.0 / 42.5 s against
    37.1 / 40.5 / 36.1 s alternately, the per-cell bookkeeping costing what the
    enclosures saved.)"""
    balls, mids, rads, names = hulls
    if isinstance(num, RationalFunction):  # a span named by (formula, negated): see screen_cells
        num, den = (-num.num, -num.den) if den else (num.num, num.den)
    slope = num.derivative() * den - num * den.derivative()
    for i in range(start, stop):
        h = names[i]
        if h in low:
            continue
        # (one bound per span, on a ball covering its cells, was looser:
        # Chomp 5 x 5 king left 9,112 cells to the sweep instead of 7,592)
        L = _slope_bound(slope, den, balls[i])
        if L is False:
            low[h] = high[h] = 0.0
            poles.add(h)
        else:
            M = mids[i]
            e = 1 - num(M) / den(M)
            r = L * rads[i]
            low[h], high[h] = _outward(float((e - r).lower()), float((e + r).upper()))


def _slope_bound(slope: fmpz_poly, den: fmpz_poly, X: arb) -> arb | bool:
    """An upper bound (exact) of ``|slope / den^2|`` on the ball ``X``, or
    False unless ``den > 0`` certainly on ``X``; with ``slope = num' den -
    num den'`` it bounds ``|(num/den)'|``."""
    D = den(X)
    if not D > 0:
        return False
    return (abs(slope(X)) / (D * D)).upper()


#: relative and absolute slack that covers a conversion to float (within
#: an ulp or two) and, in :func:`screen_cells`, the rounding of a few float
#: operations (each within 2^-53 relative)
_SLACK, _TINY = 2.0**-48, 2.0**-1000
_checked = []


def _outward(lo: float, hi: float) -> tuple[float, float]:
    """Floats ``lo' <= x`` and ``hi' >= y`` for floats ``lo``, ``hi`` within a
    few ulps of exact numbers ``x``, ``y`` (a correctly rounded ``int / int``,
    or ``float`` of a radius-0 arb)."""
    return lo - (abs(lo) * _SLACK + _TINY), hi + (abs(hi) * _SLACK + _TINY)


class EnclosureCache:
    """The followers' enclosures kept between calls of :func:`screen_cells`,
    by formula (held, so that its identity names it) and hull; a formula no
    position used for :data:`KEEP` positions is dropped.  Chomp 6 x 6 king
    made 5.7 million enclosures when a cache of 50,000 formulas was emptied
    whenever full, 2.0 million keeping every one (peak 1.03 GB), 2.1 million
    with KEEP = 128 (880 MB) and 2.8 million with KEEP = 32 (683 MB)."""

    def __init__(self):
        self.formulas: dict = {}  #: the enclosures kept, by the formula's identity (entries as :func:`_enclose` makes them)
        self.gen = 0

    def next_position(self) -> None:
        """Count one more position; every :data:`KEEP` positions, drop the formulas
        no position used in the last :data:`KEEP`."""
        self.gen += 1
        if self.gen % KEEP == 0:
            old = self.gen - KEEP
            self.formulas = {k: v for k, v in self.formulas.items() if v[4] >= old}


def screen_cells(P0: np.ndarray, P1: np.ndarray, hulls: list, pieces: list, names: list | None = None, cache: EnclosureCache | None = None) -> list:
    """The moves not shown strictly worse than another on each cell.

    ``hulls`` are the cells' rational hulls ``(a_i, b_i)`` (inside the range
    where the channel is valid), ``pieces[u]`` follower ``u``'s formulas as
    spans ``(start, stop, num, den)`` of cell indices (``den > 0`` on them;
    together they cover every cell).  A span may give its formula as
    ``(start, stop, rf, neg)`` instead, with ``rf`` a RationalFunction and
    ``neg`` whether ``num/den`` is ``rf``'s negated pair: the cache then
    holds ``rf`` (packed or not: see :meth:`RationalFunction.pack`) and
    unpacks its polynomials only for the enclosures it lacks.  Returns, per cell, the sorted list of
    surviving move indices, or ``None`` where no enclosure was proved.
    ``names`` are hashable names of the hulls and ``cache`` an
    :class:`EnclosureCache` that keeps the followers' enclosures for later
    calls.
    """
    n, k, m = len(hulls), len(pieces), P0.shape[0]
    if P0.shape[1] != k:
        raise ValueError(f"{P0.shape[1]} channel columns for {k} followers")
    if any(a < 0 for a, _ in hulls):  # (the float bounds use x >= 0)
        raise ValueError("the cells must lie in [0, 1]: p is a probability")
    if not _checked:
        check_float_environment()
        _checked.append(True)
    if names is None:
        names = [(a.p, a.q, b.p, b.q) for a, b in hulls]
    if cache is None:
        cache = EnclosureCache()
    with ctx.workprec(PREC):
        balls = [arb(a).union(arb(b)) for a, b in hulls]
        mids = [arb((a + b) / 2) for a, b in hulls]
        rads = [arb((b - a) / 2) for a, b in hulls]
        bad: set = set()
        L, H = [], []
        for spans in pieces:
            lows, highs = [None] * n, [None] * n
            _enclose(spans, (balls, mids, rads, names), lows, highs, bad, cache.formulas, cache.gen)
            if sum(stop - start for start, stop, _, _ in spans) != n:
                raise ValueError("the follower's spans do not cover every cell")
            L.append(lows)
            H.append(highs)
    L, H = np.array(L, dtype=np.float64), np.array(H, dtype=np.float64)  # k x n
    floats = [(int(a.p) / int(a.q), int(b.p) / int(b.q)) for a, b in hulls]  # (int / int is correctly rounded)
    ends = [(_outward(fa, fa), _outward(fb, fb)) for fa, fb in floats]
    ends = np.array(ends, dtype=np.float64)  # n x 2 (a, b) x 2 (lo, hi)
    with np.errstate(all="ignore"):  # (inf and nan keep every move of their cell)
        upper = _affine_bound(P0, P1, H, ends, k, up=True)  # m x n
        lower = _affine_bound(P0, P1, L, ends, k, up=False)
        floor = lower.max(axis=0)  # the best certain value of some move on each cell
        dropped = upper < floor
        sound = np.isfinite(upper).all(axis=0) & np.isfinite(floor)
    out = []
    for i in range(n):
        if i in bad or not sound[i]:
            out.append(None)
        else:
            out.append(np.flatnonzero(~dropped[:, i]).tolist())
    return out


def _affine_bound(P0: np.ndarray, P1: np.ndarray, G: np.ndarray, ends: np.ndarray, k: int, up: bool) -> np.ndarray:
    """For ``G`` the followers' upper (``up``) or lower ends on the cells: an
    upper (lower) bound of ``(P0 G)[w, i] + x (P1 G)[w, i]`` over both ends
    ``x`` of every cell ``i``, the exact ``P0``, ``P1`` of which the arguments
    are the nearest floats (see the module docstring)."""
    c = (k + 2) * 2.0**-52 * (1 + 2.0**-40)
    absG = np.abs(G)
    S0, S1 = P0 @ G, P1 @ G
    E0 = c * (np.abs(P0) @ absG) + k * 2.0**-1060
    E1 = c * (np.abs(P1) @ absG) + k * 2.0**-1060
    sign = 1.0 if up else -1.0
    T0, T1 = S0 + sign * E0, S1 + sign * E1  # the exact products lie on this side of these
    best = None
    for end in (0, 1):  # the cell's two ends
        x_lo, x_hi = ends[:, end, 0], ends[:, end, 1]  # n
        a, b = x_lo * T1, x_hi * T1  # x in [x_lo, x_hi]: x T1 lies between these
        term = np.maximum(a, b) if up else np.minimum(a, b)
        value = T0 + term
        slack = _SLACK * (np.abs(S0) + E0 + x_hi * (np.abs(S1) + E1)) + _TINY
        value = value + sign * slack
        best = value if best is None else (np.maximum(best, value) if up else np.minimum(best, value))
    return best
