"""The exact piecewise solver: backward induction over the game graph, for every p.

For every position ``v`` the solver computes ``N_v`` on [a, b] as a continuous
piecewise-rational function with exact algebraic breakpoints, the optimal-move
set on every open piece and at every breakpoint (theory.md, section 2).

Positions are solved one at a time, followers first, so a solve can be stored
and resumed position by position.  A position is solved by a sweep over p across
the *cells* between its followers' breakpoints: on a cell every follower has
one formula ``N_u = n_u / d_u``, so every sent move's value is a rational function

    N_v(w) = sum_u (1 - N_u) psi_v(w, u) = A_w / (B Q_w),   B = lcm(d_u).

On each cell:

1. *Screening* (certified and cheap).  An enclosure of each follower's value
   over the cell (a ball holding its value at the middle of the cell's dyadic
   interval and the mean-value bound in ball arithmetic on cached dyadic blocks,
   :mod:`symbolic_noise.solvers.spread`; or, for formulas of low degree and
   where that fails, the range of its Bernstein coefficients) gives every move
   an enclosure over the whole cell:
   ``sum_u psi(w, u)(s) e_u``, ``e_u`` the centre of the follower's, is a rational function of the channel's
   small degree whose range follows from Bernstein ratios (the mediant
   inequality), computed in arb ball arithmetic and read off as exact rational
   bounds.  A move whose enclosure lies below the leader's is strictly worse on
   the whole cell.
2. *Exact decision* among the survivors.  The best survivor ``b`` at ``t`` is
   found in balls when one lies certainly above the others, else by exact
   evaluation; for every other survivor ``c`` the numerator
   ``D = A_b Q_c - A_c Q_b`` of ``N_v(b) - N_v(c)`` is shown positive on the
   cell (:func:`polys.bernstein_test`: its expansion at the cell's start, then
   its Bernstein coefficients), or, when Descartes' bound there is 1, its one
   root is placed against the cell's ends by exact signs
   (:func:`single_root_between`), else its roots in the cell are isolated
   exactly (Vincent–Collins–Akritas).  The first root ends the piece (a
   breakpoint); a root left of ``t`` means ``b`` was not best right after the
   cell's start and the step is redone on the shorter cell.  ``D = 0``
   identically puts ``c`` in the optimal set, ``D(x) = 0`` in the set at ``x``.
   Where ``D`` has high degree, the pair test of :mod:`pairtest` runs first:
   the followers' second-order Taylor models on the cell bound
   ``N_v(b) - N_v(c)`` in balls, and when it keeps one sign on the closed
   cell ``c`` is settled without ``D`` (nim 64: a third of those tests).

Every formula made on a cell also gets its Taylor model there from its
followers' models (:meth:`_PositionSolver._make_model`); the next positions
take that follower's slope bound on their cells from it, where it is within
3/2 of the derivative at the middle, instead of making blocks.

Channels whose rows are affine in p over constant ``Q_w`` (Chomp's king, rook
and all-neighbour channels, ``tremble``) take a batched path
(:meth:`_PositionSolver._run_batched`): the position's base cells, between its
followers' breakpoints, are ordered once and screened all at once by
:mod:`symbolic_noise.solvers.batchscreen` (a few ball-matrix products); a
base cell left with one move takes that move's formula over its row's
followers alone (or the last cell's formula when none of them changed), and
only the others go through the per-cell steps above.

Every decision is an exact sign or a certified ball bound; no float decides
(floats only propose the screening's leader, whose floor is then bounded in
balls, and the best survivor at ``t``, which a ball comparison then confirms).
Work on a cell is shared between positions through a per-solve cache (the
followers' enclosures, the common denominator, the followers' numerators over
it and the moves' numerators it used, which the next position carries over as
``f A_w + c_last P_w,last`` when its followers extend ours by one): consecutive
positions of 1-pile Nim have almost the same cells and followers, which is what
makes large heaps affordable.  A cell split by a new breakpoint starts with its
parent's slope bounds (and, when it lies inside it exactly, its common data),
and the Bernstein ranges of low-degree formulas are kept per dyadic interval
for every position that meets them there.

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.games.channels import BinaryChannel
>>> sol = solve(Nim(3), BinaryChannel())
>>> for piece in sol.value().pieces():
...     print(piece.lo, piece.hi, piece.formula.text(), sorted(piece.label))
0 1/2 (1 - p + p^2)/(1 + p) [0]
1/2 1 (p - p^3)/(1 - p + p^2) [1]
>>> sorted(sol.at("1/2").optimal)
[0, 1, 2]
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import cmp_to_key
from math import frexp
from typing import Any, Callable

from flint import arb, arb_mat, ctx, fmpq, fmpq_poly, fmpz_poly
from flint import ctx as flint_ctx

from ..exact import polys
from ..exact.algebraic import RealAlgebraic, dyadic_hull, rational_between, roots_between, single_root_between
from ..games.channels import Channel, Rows, get_channel
from ..errors import IntervalError
from ..games.rulesets import Game
from ..exact.interning import Interner
from ..exact.piecewise import PiecewiseFunction
from ..exact.polys import ONE, as_fmpq, sign
from ..exact.ratfunc import RationalFunction
from . import batchscreen, packing
from .collector import fewer_collections
from . import spread as spread_module
from . import symmetry
from .difftest import DifferenceTest
from .pairtest import PairTest, follower_bounds, pair_row
from .spread import SlopeBounds
from .solution import PointResult, Solution  # noqa: F401  (the result types; re-exported)

#: width to which new breakpoints are refined when found (keeps later
#: Bernstein tests on cells next to them conclusive)
_BREAKPOINT_WIDTH = fmpq(1, 2**48)
#: a follower enclosure not made (:meth:`_PositionSolver._enclosure`)
_NO_ENCLOSURE = (None, None)
#: working precision (bits) of the ball-arithmetic screening
_SCREEN_PREC = 128
#: moves whose floors the screening computes (the best few by their values at the cell's ends)
_LEADERS = 3
#: most Bernstein ranges of followers' formulas kept per solve (oldest go first)
_MAX_RANGES = 200_000
#: an inherited slope bound is replaced by the cell's own when the spread it
#: gives is more than this many times the median follower's: a parent cell's
#: bound can be loose by orders of magnitude on a small part of it (nim 48 on
#: [27/32, 1]: a spread of 4.8e5 beside 3e-4, every move survived the screen)
_OUTLIER = 16
_OWN = (None, None, None, True)  # what cell.slope lacks is not inherited
#: a cell's common data brings every follower's numerator over the common
#: denominator once more than this many followers were added since it last did
_MAX_LATE = 16
#: bytes the cells may spend on keeping every follower's numerator ``c_u``
#: for the next position; past it, they are made where a move's numerator
#: is made anew, and not kept (:class:`_Common`).  Nim 64's came to 302 MB
#: at its end (``benchmarks/memory_breakdown.py --k 64 --budget inf``) and
#: nim 96's to about 1.3 GB: solves below about k = 90 are not touched,
#: larger ones keep about half the memory for about 1.2x the time
FOLLOWERS_BUDGET = 2**30


#: the batch screen's survivors are used as they are when they are this few
#: (more are screened again on the cell, which often drops some)
_PRE_ENOUGH = 8
#: the pair test of moves (:mod:`pairtest`) runs before the exact test of a
#: pair on cells whose common denominator has at least this degree (below it
#: the exact test costs less than the followers' Taylor models)
_PAIR_MIN_DEGREE = 100
#: base cells screened in one batch (the batches follow the sweep along p)
_BATCH = 256


def exact_interval(interval) -> tuple[fmpq, fmpq]:
    """Validate ``(a, b)`` with exact ``0 <= a < b <= 1``."""
    try:
        a, b = interval
    except (TypeError, ValueError):
        raise IntervalError(f"an interval is a pair (a, b), not {interval!r}") from None
    try:
        a, b = as_fmpq(a), as_fmpq(b)
    except Exception as exc:
        raise IntervalError(str(exc)) from None
    if not (0 <= a < b <= 1):
        raise IntervalError(f"the interval [{a}, {b}] must satisfy 0 <= a < b <= 1")
    return a, b


@dataclass
class SolveProgress:
    """What a progress callback receives: after every cell of the position being
    solved, and when a position is done or loaded."""

    done: int  #: positions solved (or loaded) so far
    total: int  #: positions to solve in all
    current: Any  #: the position being solved
    fraction: float  #: how far its sweep over p has gone, 0..1 (for display only)
    elapsed: float  #: seconds since the solve started


# --------------------------------------------------------------------------- small helpers


def _certain_leader(balls: list) -> int | None:
    """The index of the ball that lies certainly above every other one, or
    None (overlaps: the caller decides exactly).  The candidate is the ball
    with the largest middle, compared as exact binary numbers.

    >>> _certain_leader([arb(1), arb(3), arb(2)]), _certain_leader([arb(1), arb(1)])
    (1, None)
    """
    i = max(range(len(balls)), key=lambda k: balls[k].mid())
    if all(balls[i] > b for k, b in enumerate(balls) if k != i):
        return i
    return None


def _pick_point(x: RealAlgebraic, y: RealAlgebraic) -> fmpq:
    """A simple rational ``t`` with ``x < t < y``, close to ``x``."""
    return rational_between(x, y, near_left=True)


def _roots_between(D: fmpz_poly, x: RealAlgebraic, y: RealAlgebraic, lo: fmpq, hi: fmpq) -> tuple[list, bool]:
    """The roots of ``D`` strictly between ``x`` and ``y`` (increasing) and
    whether ``D(x) == 0``; ``[lo, hi]`` is a rational interval holding [x, y].

    When the Bernstein test does not decide, its Descartes bound almost
    always shows exactly one root in (lo, hi) (940 of the 978 undecided D
    tests of nim 64; the other 38 had a root at an end of [lo, hi]): the
    root is then placed against ``x`` and ``y`` by signs of ``D`` at their
    intervals' ends (:func:`single_root_between`) instead of isolating the
    roots of ``D`` and refining them against ``x`` and ``y``
    (:func:`roots_between`; about 6 ms a test on narrow cells, where the
    root is often ``x`` itself: the crossing that ended the last piece)."""
    s, v, s_lo = polys.bernstein_test(D, lo, hi)
    if s:
        # no root in the open interval (lo, hi), which holds (x, y), and x too
        # unless x == lo
        return [], (x.is_rational and x.lo == lo and D(lo) == 0)
    if v == 1:
        got = single_root_between(D, x, y, lo, hi, s_lo)
        if got is not None:
            return got
    return roots_between(D, x, y, lo, hi)


def _point_data(num: fmpz_poly, den: fmpz_poly, x: fmpq) -> tuple[arb, arb]:
    """Balls holding ``1 - N(x)`` and ``N'(x)`` for ``N = num / den`` (``den(x) != 0``),
    at a precision that absorbs the cancellation of the monomial form."""
    with ctx.workprec(_SCREEN_PREC + max(num.height_bits(), den.height_bits())):
        t = arb(x)
        n, d = num(t), den(t)
        return 1 - n / d, (num.derivative()(t) * d - n * den.derivative()(t)) / (d * d)


def _left_end(x: RealAlgebraic) -> fmpq:
    return x.lo


def _distinct_in_order(points: list) -> tuple[list | None, dict]:
    """The distinct values of ``points`` (proposed in increasing order) and
    each point's index among them, by exact comparisons of neighbours;
    ``(None, {})`` if the proposed order is wrong."""
    out: list = []
    rank: dict = {}
    prev = None
    for x in points:
        c = -1 if prev is None else prev.compare(x)
        if c > 0:
            return None, {}
        if c < 0:
            out.append(x)
        rank[id(x)] = len(out) - 1
        prev = x
    return out, rank


def _lcm_step(B: fmpz_poly, d: fmpz_poly, t: fmpq) -> tuple[fmpz_poly, fmpz_poly]:
    """``(B', f)`` with ``B' = lcm(B, d) = f B`` and ``f > 0`` at ``t``."""
    g = B.gcd(d)
    f = d // g if g.degree() > 0 else d
    if f(t) < 0:
        f = -f
    return B * f, f


def _positive_box(rows: int, cols: int) -> arb_mat:
    """A ``rows`` x ``cols`` matrix whose every entry is the ball
    [2^-19, 2^11 - 2^-19] (up to the radius's rounding, outward), proved to
    lie above 0 (kept per shape)."""
    box = _BOXES.get((rows, cols))
    if box is None:
        with ctx.workprec(64):
            ball = arb(2**10, 2**10 - arb(2) ** -19)
        if not ball > 0:  # the radius rounds up: it must stay below the centre
            raise AssertionError("the positive box reaches 0")
        box = _BOXES[(rows, cols)] = arb_mat([[ball] * cols for _ in range(rows)])
    return box


_BOXES: dict = {}


def _all_negative_but(gap: arb_mat, skip: set, scale: arb_mat) -> bool:
    """Whether every entry of ``gap`` outside the columns ``skip`` is certainly
    negative, by one containment test of the whole matrix (the per-entry
    comparisons cost a Python call each).  ``-gap`` is scaled by a power of 2
    near ``1 / scale[0, 0]`` (the gaps are differences of Bernstein
    coefficients of the order of Q's) and the skipped columns are filled
    with 1; if the result lies in :func:`_positive_box`, each entry is
    positive.  ``False`` means undecided: entries too small or too large
    for the box, or not negative at all."""
    top = float(abs(scale[0, 0].mid()))
    if not 0 < top < float("inf"):
        return False
    k = frexp(top)[1]
    neg = gap * -(arb(2) ** -k)  # exact: a power of 2
    one = arb(1)
    rows = range(gap.nrows())
    for w in skip:
        for i in rows:
            neg[i, w] = one
    return _positive_box(gap.nrows(), gap.ncols()).contains(neg)


# --------------------------------------------------------------------------- shared cell data


class _Cell:
    """What positions share on one cell ``(x, y)`` between breakpoints."""

    __slots__ = ("x", "y", "_t", "lo", "hi", "mid", "hull", "hid", "enc", "slope", "taylor", "bern", "common", "screen", "gen", "checked")

    def __init__(self, x: RealAlgebraic, y: RealAlgebraic, a: fmpq, b: fmpq):
        self.x, self.y = x, y
        self._t = None
        self.lo, self.hi = dyadic_hull(x, y, a, b)
        self.mid = (self.lo + self.hi) / 2  # where the followers' mean-value enclosures are centred
        self.hull = (self.lo.p, self.lo.q, self.hi.p, self.hi.q)  # a fast hashable name of [lo, hi]
        self.hid = None  # a small int naming [lo, hi] in the solve (_Cells.get)
        # follower -> (e, s): the centre of an enclosure of 1 - N_u on [lo, hi]
        # (a ball holding 1 - N_u at the middle, or a range's centre) and its
        # radius (exact), or None
        self.enc = {}
        # follower -> (num, den, arb bound of |N_u'| on an interval holding [lo, hi],
        # whether the interval is [lo, hi]): a cell split by a new breakpoint
        # starts with its parent's
        self.slope = {}
        # follower -> (num, den, (c, e, g, L2), cache): its Taylor model on an
        # interval holding [lo, hi] (None when not shown): from the blocks of
        # its slope bound (SlopeBounds.taylor), or made with the formula from
        # its own followers' models (_PositionSolver._make_model); ``cache``
        # holds what the pair test and that recursion derive from it on this
        # cell.  Inherited like the slopes (without the cache)
        self.taylor = {}
        self.bern = {}  # degree -> arb_mat taking coefficients to scaled Bernstein coefficients
        self.common = {}  # followers tuple -> _Common
        # the last screen's (followers tuple, enclosures, _Position, F, G):
        # the next position carries F and G over (_PositionSolver._screen_coeffs)
        self.screen = None
        self.gen = 0
        self.checked = False  # whether the inherited slope bounds were looked at for outliers

    @property
    def t(self) -> fmpq:
        """A simple rational inside the cell, near its start (made on first use:
        the batched sweep never needs it on most cells)."""
        if self._t is None:
            self._t = _pick_point(self.x, self.y)
        return self._t

    def bernstein_matrix(self, d: int) -> arb_mat:
        """The (d+1) x (d+1) matrix taking the coefficients of a polynomial of
        degree <= d to its scaled Bernstein coefficients on [lo, hi] (exact
        integers, so the arb matrix is exact)."""
        M = self.bern.get(d)
        if M is None:
            cols = [polys._scaled_bernstein(fmpz_poly([0] * i + [1]), self.lo, self.hi, d) for i in range(d + 1)]
            M = arb_mat([[cols[j][i] for j in range(d + 1)] for i in range(d + 1)])
            self.bern[d] = M
        return M


class _Common:
    """A cell's common denominator ``B`` of the followers' formulas, their
    numerators ``c_u = (B / d_u)(d_u - n_u)`` and the moves' numerators
    ``A_w = sum_u c_u P_wu`` over it, for one followers tuple.

    When a position's followers extend the previous one's by one (1-pile Nim),
    ``B`` grows by a factor ``f`` and every ``c_u`` by ``f`` with it; rescaling
    them all took a sixth of a nim 64 solve.  So the ``c_u`` are kept over the
    ``scale`` they were last brought to (``late`` holds the followers added
    since, each over its own ``B``), and a move's numerator is made over that
    scale and multiplied by ``B / scale`` once (:meth:`numerator`); the
    numerators the last position used are carried over as
    ``f A_w + c_last P_w,last`` instead.

    Keeping every follower's ``c_u`` on every cell to carry them on holds
    most of a long solve's memory (nim 64: 302 MB at its end, beside 108 MB
    of values; nim 96: about 1.3 GB beside 0.6 GB), while few cells need them again (nim 64: 600 of 9,385 cell
    visits make a move's numerator anew).  So once they take more than
    :data:`FOLLOWERS_BUDGET` (:meth:`_Cells.next_position`), the common data
    carried over keeps only ``B`` and the moves' numerators (``cs is None``),
    and a numerator made anew is made from the followers' formulas on the
    cell (:meth:`numerator` with ``followers``), each ``c_u`` once per visit
    of the cell (``made``, dropped when the sweep moves on).  That costs time
    (nim 96 with the budget at 0: 1.48 GB instead of 2.89 GB, 1.22x the CPU).
    """

    __slots__ = ("B", "cs", "scale", "late", "nums", "_factors", "_total", "made")

    def __init__(self, B: fmpz_poly, cs: dict | None, scale: fmpz_poly, late: list):
        self.B = B
        self.cs = cs  # follower -> c_u over ``scale`` (a divisor of B); None: made when asked (``made``)
        self.made = None  # follower -> c_u over B, for the ones asked for when ``cs`` is None
        self.scale = scale
        self.late = late  # [(follower, c_u, the B it is over)], added after ``cs`` was brought up
        # move index -> (A_w over B, the position's row w, whether it is idle:
        # carried over and not used since)
        self.nums: dict = {}
        self._factors: dict = {}  # id(divisor of B) -> (divisor, B / divisor)
        self._total = None  # (cs, the sum of its c_u over ``scale``), made when a row first needs it

    def _factor(self, over: fmpz_poly):
        """``B / over`` (None when ``over`` is ``B``), kept per divisor."""
        if over is self.B:
            return None
        got = self._factors.get(id(over))
        if got is None or got[0] is not over:
            got = self._factors[id(over)] = (over, self.B // over)
        return got[1]

    def follower(self, u, f: "_Follower") -> fmpz_poly:
        """Follower ``u``'s ``c_u`` over ``B``; ``f`` is its sweep state on
        this cell (its formula there), used when ``cs`` is None."""
        if self.cs is not None:
            return self.followers()[u]
        made = self.made
        if made is None:
            made = self.made = {}
        c = made.get(u)
        if c is None:
            c = made[u] = (self.B // f.den) * (f.den - f.num)
        return c

    def forget(self) -> None:
        """Drop the followers' numerators (kept: ``B`` and the moves' numerators)."""
        self.cs, self.scale, self.late, self.made, self._total, self._factors = None, self.B, [], None, None, {}

    def followers(self) -> dict:
        """Every follower's ``c_u`` over ``B`` (rescaling what needs it; not
        for common data without ``cs``)."""
        if self.scale is not self.B or self.late:
            f = self._factor(self.scale)
            cs = dict(self.cs) if f is None else {u: c * f for u, c in self.cs.items()}
            for u, c, over in self.late:
                g = self._factor(over)
                cs[u] = c if g is None else c * g
            self.cs, self.scale, self.late = cs, self.B, []
            self._factors = {}
        return self.cs

    def numerator(self, groups: list, followers: dict | None = None) -> fmpz_poly:
        """``A_w = sum_u c_u P_wu`` over ``B`` for a row given as ``groups``
        (``[(P_wu, [u, ...], the followers outside the group or None), ...]``,
        followers of equal weight together).  Without ``cs``, from
        ``followers`` (position -> its sweep state on this cell) by
        :meth:`follower`; else the
        sums over ``scale`` times ``B / scale`` once, plus the late followers'
        terms each brought over ``B`` (exactly the sum over ``B``; rescaling
        every ``c_u`` first cost as many products as there are followers)."""
        if self.cs is None:
            acc = polys.ZERO
            for weight, members, _ in groups:
                total = None
                for u in members:
                    c = self.follower(u, followers[u])
                    total = c if total is None else total + c
                if total is not None:
                    acc += total * weight
            return acc
        if len(self.late) > _MAX_LATE:
            self.followers()
        cs, late = self.cs, self.late
        extra = {u: (c, over) for u, c, over in late} if late else None
        main = rest = polys.ZERO
        for weight, members, others in groups:
            if others is not None and not late:
                # every follower is in ``cs``: the sum over all of them less
                # the few outside the group (exactly the group's sum)
                every = self._total
                if every is None or every[0] is not cs:
                    total = polys.ZERO
                    for c in cs.values():
                        total += c
                    every = self._total = (cs, total)
                total = every[1]
                for u in others:
                    total -= cs[u]
                main += total * weight
                continue
            total = late_total = None
            for u in members:
                c = cs.get(u)
                if c is None:  # a late follower: over its own B
                    c, over = extra[u]
                    g = self._factor(over)
                    c = c if g is None else c * g
                    late_total = c if late_total is None else late_total + c
                else:
                    total = c if total is None else total + c
            if total is not None:
                main += total * weight
            if late_total is not None:  # (one product by the weight per group)
                rest += late_total * weight
        f = self._factor(self.scale)
        return (main if f is None else main * f) + rest


class _Cells:
    """Per-solve cache of :class:`_Cell`, keyed by the identity of the cell's end
    points (a position's cells are bounded by its followers' breakpoint
    objects, so consecutive positions share them)."""

    def __init__(self, a: fmpq, b: fmpq):
        self.a, self.b = a, b
        self._cells: dict = {}
        self.slopes = SlopeBounds()  # the followers' blocks for the spread bounds
        self._ranges: OrderedDict = OrderedDict()  # (follower's piece name, hull) -> (rf, neg, enclosure or None)
        self._starts: dict = {}  # id(x) -> the last cell made that starts at x
        self._ends: dict = {}  # id(y) -> the last cell made that ends at y
        self.gen = 0
        self.keep_followers = True  # (FOLLOWERS_BUDGET)
        self.batch = batchscreen.EnclosureCache()  # the batch screen's follower enclosures
        self._hids: dict = {}  # hull -> its number (the batch screen's names of hulls)
        self.held = packing.HeldValues()  # the values solved with these cells (packing.VALUES_BUDGET)
        self.unpacked = packing.Unpacked()  # their packed formulas unpacked lately (packing.UNPACKED_BUDGET)

    def enclosure(self, f: "_Follower", lo: fmpq, hi: fmpq, hull=None) -> tuple[fmpq, fmpq] | None:
        """``(e, s)`` with ``|1 - N_u(x) - e| <= s`` for every x in [lo, hi]: the
        centre and radius of the Bernstein range ``[m, M]`` of the follower's
        formula there (:func:`polys.bernstein_ratio_range`, the mediant
        inequality).  It does not depend on the cell's sample point, so it is
        kept per (follower's pair, interval): positions with different cells on
        the same dyadic hull share it, and no value at the sample point is
        computed (Chomp 5 x 5 king: 76 thousand ranges serve 230 thousand
        cells' followers).  ``None`` unless the denominator's Bernstein
        coefficients are positive.  ``hull`` is a hashable name of (lo, hi)
        (fmpq hashes slowly)."""
        if hull is None:
            hull = (lo.p, lo.q, hi.p, hi.q)
        key = (f.key, hull)
        got = self._ranges.get(key)
        # the key names the pair only while it is the same pair (the cache
        # holds it, but an evicted pair's id can be reused)
        if got is None or got[0] is not f.rf or got[1] is not f.neg:
            span = polys.bernstein_ratio_range(f.num, f.den, lo, hi)
            pair = None if span is None else (1 - (span[0] + span[1]) / 2, (span[1] - span[0]) / 2)
            got = self._ranges[key] = (f.rf, f.neg, pair)
            if len(self._ranges) > _MAX_RANGES:
                # the oldest (OrderedDict: a dict's first key is found past the
                # holes its deletions leave, which made this quadratic on Chomp 5 x 6)
                self._ranges.popitem(last=False)
        return got[2]

    def get(self, x: RealAlgebraic, y: RealAlgebraic) -> _Cell:
        key = (id(x), id(y))
        cell = self._cells.get(key)
        if cell is None or cell.x is not x or cell.y is not y:
            cell = self._cells[key] = _Cell(x, y, self.a, self.b)
            cell.hid = self._hids.setdefault(cell.hull, len(self._hids))
            # a new breakpoint at z splits a cell (x, y) of the last positions
            # into (x, z) and (z, y): the parts share an end with it, and the
            # followers' slope bounds on its interval hold on theirs
            for parent in (self._starts.get(id(x)), self._ends.get(id(y))):
                if parent is not None and parent.lo <= cell.lo and cell.hi <= parent.hi:
                    cell.slope = {u: (n, d, L, False) for u, (n, d, L, _) in parent.slope.items()}
                    # (a model not shown on the parent may be on the part: not inherited)
                    cell.taylor = {u: (*got[:3], {}) for u, got in parent.taylor.items() if got[2] is not None}
                    # every followers tuple that had the parent as a cell has
                    # the same formulas on a part of it, so its common
                    # denominator and follower numerators hold there (the
                    # next position carries them over instead of making them
                    # anew).  Exact containment: the dyadic hulls above may
                    # nest while the cell reaches past the parent's end, where
                    # a follower may break.  The parent can belong to another
                    # position (cells ending at a terminal follower's shared
                    # end point): move numerators also depend on the
                    # position's rows, which _numerator checks.
                    if parent.x.compare(x) <= 0 and y.compare(parent.y) <= 0:  # (identity first)
                        cell.common = dict(parent.common)
                    break
            self._starts[id(x)] = self._ends[id(y)] = cell
        cell.gen = self.gen
        return cell

    def next_position(self) -> None:
        """Forget the cells the last two positions did not use (split or obsolete)."""
        self.gen += 1
        self.batch.next_position()
        self._cells = {k: c for k, c in self._cells.items() if c.gen >= self.gen - 2}
        keep = lambda index: {k: c for k, c in index.items() if c.gen >= self.gen - 2}  # noqa: E731
        self._starts, self._ends = keep(self._starts), keep(self._ends)
        if self.keep_followers and self._followers_bytes() > FOLLOWERS_BUDGET:
            # (see _Common) from now on the followers' numerators are made where needed, not kept
            self.keep_followers = False
            for cell in self._cells.values():
                for common in cell.common.values():
                    common.forget()

    def _followers_bytes(self) -> int:
        """About how many bytes the cells' common data spend on the
        followers' numerators (a shared dict counted once; FLINT integers
        above 62 bits take an mpz of their own)."""
        seen, total = set(), 0
        for cell in self._cells.values():
            for common in cell.common.values():
                cs = common.cs
                if not cs:
                    continue
                if id(cs) not in seen:
                    seen.add(id(cs))
                    total += len(cs) * polys.bytes_estimate(common.scale.degree(), next(iter(cs.values())).height_bits())
                if common.late:
                    total += len(common.late) * polys.bytes_estimate(common.B.degree(), common.late[-1][1].height_bits())
        return total


class _Follower:
    """A follower's value as the sweep follows it piece by piece.

    ``rf`` and ``neg`` name the current piece's formula: ``num / den`` is
    ``rf`` with ``den > 0`` on the piece (both negated when ``neg``).  The
    caches of slope bounds, models and enclosures hold and compare that name
    (:attr:`key`), not the polynomials, so that a value packed past
    :data:`packing.VALUES_BUDGET` (:meth:`RationalFunction.pack`) frees its memory;
    ``num`` and ``den`` are made on the first use on each piece (unpacked then)."""

    __slots__ = ("position", "value", "index", "rf", "neg", "num", "den", "_unpacked")

    def __init__(self, position, value: PiecewiseFunction, unpacked: "packing.Unpacked | None" = None):
        self.position, self.value, self.index = position, value, 0
        self.rf = self.neg = None
        self._unpacked = unpacked  # where packed formulas are unpacked (kept a while), or None

    def enter(self, i: int, norm: dict) -> None:
        """Move to piece ``i``.  ``norm`` caches the pieces' signs by the
        identity of the piece's formula and start (held, so that the names stay
        theirs): a lockstep worker's pieces are renumbered when its range
        moves, and the names, with the slope bounds and enclosures cached by
        them, must survive that."""
        self.index = i
        self.take(self.pair(i, norm))

    def take(self, pair: tuple) -> None:
        """Make ``pair`` (a :meth:`pair`: ``(rf, neg)``) the current piece's
        formula.  ``num`` and ``den`` are set at once when they are ``rf``'s
        own; a packed or negated formula's are left unset, for
        :meth:`__getattr__` to make on the first use (most pieces a sweep
        passes are not used on most positions)."""
        rf, neg = self.rf, self.neg = pair
        if neg or rf.packed:
            for name in ("num", "den"):
                try:
                    delattr(self, name)
                except AttributeError:
                    pass
        else:
            self.num, self.den = rf.num, rf.den

    def __getattr__(self, name: str):
        # (called only for an unset slot: ``num`` or ``den`` left to the first use by take)
        if name not in ("num", "den") or self.rf is None:
            raise AttributeError(name)
        rf = self.rf
        if rf.packed and self._unpacked is not None:
            self.num, self.den = self._unpacked.get(rf, self.neg)
        else:
            n, d = rf.num, rf.den
            self.num, self.den = (-n, -d) if self.neg else (n, d)
        return getattr(self, name)

    def pairs(self, norm: dict) -> list:
        """Every piece's :meth:`pair` (kept in ``norm`` by the value's identity)."""
        key = ("pairs", id(self.value))
        got = norm.get(key)
        if got is None or got[0] is not self.value:
            got = norm[key] = (self.value, [self.pair(i, norm) for i in range(len(self.value.formulas))])
        return got[1]

    def pair(self, i: int, norm: dict) -> tuple:
        """Piece ``i``'s formula and whether it is negated to make ``den > 0``
        on the piece: ``(rf, neg)``."""
        f, start = self.value.formulas[i], self.value.points[i]
        key = (id(f), id(start))
        got = norm.get(key)
        if got is None or got[0] is not f or got[1] is not start:
            den = f.den
            if den.degree() == 0:  # (a constant: every Chomp value is a polynomial)
                positive = den[0] > 0
            else:
                end = self.value.points[i + 1]
                # any point inside will do (den has no root there): the middle of
                # the gap between the end points' intervals, else a simple rational
                lo, hi = start.hi, end.lo
                t = (lo + hi) / 2 if lo < hi else _pick_point(start, end)
                # (a ball evaluation decides the sign: exact values at long points cost far more)
                positive = polys.sign_at(den, t) > 0
            got = norm[key] = (f, start, (f, not positive))
        return got[2]

    @property
    def end(self) -> RealAlgebraic:
        return self.value.points[self.index + 1]

    @property
    def key(self) -> tuple:
        """The name of the current piece in the slope-bound and enclosure
        caches (which hold ``rf`` and check its identity and ``neg``): it
        survives a renumbering."""
        return (self.position, id(self.rf), self.neg)


class _Position:
    """A non-terminal position's channel data, normalised for the solver: rows
    with ``Q_w > 0`` on [a, b], and the coefficient matrices of the screening.

    ``moves``: the indices of the sent moves to keep (default: all), each
    row still over every follower: the moves of a self-symmetric position
    that stand for their mirror images (:func:`symmetry.representatives`);
    ``rows``: the channel's rows at ``v``, when they were made and validated
    on [a, b] already."""

    def __init__(self, game: Game, channel: Channel, v, a: fmpq, b: fmpq, moves=None, rows=None):
        self.position = v
        self.followers = game.followers(v)
        self.labels = tuple(game.move_label(v, w) for w in self.followers)
        if rows is None:
            rows = channel.rows(game, v)
            channel.check(game, v, rows, (a, b))
        if moves is not None:
            rows = Rows(tuple(rows.den[w] for w in moves), tuple(rows.num[w] for w in moves))
            self.labels = tuple(self.labels[w] for w in moves)
        mid = (a + b) / 2
        self.Q, self.P = [], []
        for q, row in zip(rows.den, rows.num):
            if sign(q(mid)) < 0:
                q, row = -q, tuple(-n for n in row)
            self.Q.append(q)
            self.P.append(row)
        m = len(self.Q)
        d = self.degree = max(max(q.degree() for q in self.Q), max(max(n.degree() for n in row) for row in self.P), 0)

        # followers (indices) grouped by equal weight P_wu (binary rows have
        # few distinct ones), with the indices each row weighs; ``groups``
        # names the followers by position
        def padded(poly):
            c = [int(x) for x in poly.coeffs()]
            return c + [0] * (d + 1 - len(c))

        # each distinct weight object once (channels often reuse one object
        # for equal weights): its coefficients, which also name it
        seen: dict = {}  # id(P_wu) -> (P_wu, its padded coefficients)

        def coefficients(n):
            got = seen.get(id(n))
            if got is None:
                got = seen[id(n)] = (n, padded(n))  # (holds n: its id is not reused)
            return got[1]

        self.rows, self.groups = [], []
        P = []  # P[w][u]: coefficient list of P_wu
        for row in self.P:
            by_weight: dict = {}
            coeffs = [coefficients(n) for n in row]
            for j, (n, c) in enumerate(zip(row, coeffs)):
                if not n.is_zero():
                    by_weight.setdefault(tuple(c), (n, []))[1].append(j)
            groups = list(by_weight.values())
            self.rows.append((groups, frozenset(j for _, members in groups for j in members)))
            self.groups.append([(n, [self.followers[j] for j in members], self._complement(members))
                                for n, members in groups])
            P.append(coeffs)

        # row j*m + w holds coefficient j of P_wu, u across
        T = [list(zip(*row)) for row in P]  # T[w][j]: coefficient j of P_wu, u across
        self.Pmat = arb_mat([list(T[w][j]) for j in range(d + 1) for w in range(m)])
        Q = [padded(q) for q in self.Q]
        self.Qmat = arb_mat([[c[j] for c in Q] for j in range(d + 1)])
        # the moves whose Q_w has positive Bernstein coefficients (degree d) on
        # [a, b]: they have on every [lo, hi] inside it too (subdivision takes
        # convex combinations of them), so the screen need not look
        self.span = (a, b)
        self.unsure = frozenset(
            w for w, q in enumerate(self.Q) if not all(c > 0 for c in polys._scaled_bernstein(q, a, b, d))
        )
        # rows affine in p (Chomp's channels): every base cell is screened at
        # once (:mod:`symbolic_noise.solvers.batchscreen`)
        self.affine = batchscreen.affine_rows(self.P, self.Q)

    def _complement(self, members: list) -> list | None:
        """The followers (by position) outside ``members`` (indices), when they
        are so few that a row's sum over ``members`` is cheaper as the sum over
        every follower less theirs (Chomp's all-neighbour channel weighs all
        but the target square alike: ``m - 2`` additions per row become one
        subtraction, the sum over every follower made once per cell)."""
        inside = set(members)
        rest = [u for j, u in enumerate(self.followers) if j not in inside]
        return rest if len(rest) + 2 < len(members) else None


# --------------------------------------------------------------------------- one position


class _PositionSolver:
    """Solves one position whose followers' values are known."""

    def __init__(self, pos: _Position, followers: list, a: fmpq, b: fmpq, cells: _Cells, norm: dict):
        self.pos = pos
        self.foll = [_Follower(u, f, cells.unpacked) for u, f in zip(pos.followers, followers)]
        self._by_position = {f.position: f for f in self.foll}
        self._making = None  # the common data without ``cs`` that :meth:`_common` returned last
        self._pairtest = None
        self._difftest = None  # DifferenceTest, or False when the rows do not allow it
        self.A = RealAlgebraic.rational(a)
        self.B = RealAlgebraic.rational(b)
        self.cells = cells
        self.norm = norm
        self.key = tuple(pos.followers)
        self._rows: dict = {}  # (id(row), w) -> (row w extends that row, the row)
        self._last = None  # the last common made anew here, and its followers' (num, den) (:meth:`_fresh_common`)
        self._gs: dict = {}  # id(num) -> (num, num/den as fmpq_poly, or None unless den is a constant)

    # -- shared per-cell data ------------------------------------------------

    def _follower_data(self, cell: _Cell, f: _Follower, own: bool = False):
        """An enclosure of ``1 - N_u`` over the cell: ``(e, s)`` with
        ``|1 - N_u(x) - e| <= s`` for x in [lo, hi] (``s`` None when none is proved).

        Formulas of high degree: ``e`` an arb ball holding ``1 - N_u`` at the
        middle of [lo, hi] (the bound holds for that exact value, which is all
        the screen's ball arithmetic needs) and the mean-value bound around it
        (a slope bound inherited from the cell this one was split from, else
        one from cached blocks).  Low degree, or if that fails: the centre
        and radius of the exact Bernstein range.  ``own``: do not use a bound
        inherited from a parent cell."""
        u = f.position
        got = None if own else cell.enc.get(u)
        if got is None:
            bound = None
            if max(f.num.degree(), f.den.degree()) >= spread_module.MIN_DEGREE:
                slope = cell.slope.get(u)
                at_mid = None  # 1 - N_u(mid), when a model's centring computed it
                if slope is None or slope[0] is not f.rf or slope[1] is not f.neg or (own and not slope[3]):
                    model = cell.taylor.get(u)
                    if (model is not None and model[2] is not None and model[0] is f.rf and model[1] is f.neg
                            and model[3].get("slope", True)):
                        # the Taylor model made with the formula, centred here
                        # (its bound of |N''| holds on the hull it was made on,
                        # which holds this one): |N'| <= |g| + L2 |s - mid|
                        c, e, g, L2 = model[2]
                        if c != cell.mid:
                            e, g = _point_data(f.num, f.den, cell.mid)
                            cell.taylor[u] = (f.rf, f.neg, (cell.mid, e, g, L2), {})
                        with ctx.workprec(spread_module.PREC):
                            ag, rest = abs(g), L2 * arb((cell.hi - cell.lo) / 2)
                            # |g| is at most max |N'| on the cell: the bound is
                            # then within 3/2 of the best one (a block's is
                            # within 2, SLACK); a looser one gives way to the
                            # blocks (L2 made with the formula gathers the
                            # looseness of the followers' L2: without this
                            # check, nim 48 made 22,000 pair tests instead of
                            # 3,000 and took twice as long)
                            usable = bool(rest <= ag / 2)
                        if usable:
                            at_mid = e
                            slope = cell.slope[u] = (f.rf, f.neg, ag + rest, True)
                        else:
                            cell.taylor[u][3]["slope"] = False
                    if at_mid is None:
                        L = self.cells.slopes.slope(f.key, f.num, f.den, cell.lo, cell.hi, f.rf)
                        slope = cell.slope[u] = (f.rf, f.neg, L, True)
                        if model is None or model[0] is not f.rf or model[1] is not f.neg or not model[3].get("slope", True):
                            # (its blocks are at hand now: later they would be made
                            # again; and their model is tighter than one made with the formula)
                            model = self.cells.slopes.taylor(f.key, f.num, f.den, cell.lo, cell.hi, cell.mid, f.rf)
                            if model is not None:
                                cell.taylor[u] = (f.rf, f.neg, model, {})
                # around the middle of [lo, hi]: half its width at most (the
                # cell's own point t lies near its start)
                bound = spread_module.mean_value_bound(slope[2], cell.lo, cell.hi, cell.mid)
                if bound is not None:
                    # 1 - N_u(mid) as a ball: the screen computes in balls, and a
                    # ball holding the exact value serves it as well (an exact
                    # value costs three to four times as much)
                    if at_mid is not None:
                        e = at_mid
                    else:
                        with ctx.workprec(_SCREEN_PREC + max(f.num.height_bits(), f.den.height_bits())):
                            x = arb(cell.mid)
                            e = 1 - f.num(x) / f.den(x)
            if bound is None:
                pair = self.cells.enclosure(f, cell.lo, cell.hi, cell.hull)
                # without an enclosure the screening keeps every move; e is then only a value
                e, bound = pair if pair is not None else (1 - f.num(cell.t) / f.den(cell.t), None)
            got = cell.enc[u] = (e, bound)
        return got

    def _common(self, cell: _Cell) -> "_Common":
        """``B`` (> 0 on the cell) with the followers' numerators over it and the
        moves' numerators, extending the previous position's when its
        followers are a prefix of ours (as in 1-pile Nim).  Common data without
        the followers' numerators (past the cells' budget) make them on the
        visit only: the ones the last call returned are dropped when the sweep
        moves to other common data (see :class:`_Common`)."""
        data = self._common_data(cell)
        if data is not self._making:
            if self._making is not None:
                self._making.made = None
            self._making = data if data.cs is None else None
        return data

    def _common_data(self, cell: _Cell) -> "_Common":
        """:meth:`_common`'s data, found on the cell or made."""
        data = cell.common.get(self.key)
        if data is not None:
            return data
        t = cell.t
        prefix = cell.common.pop(self.key[:-1], None) if len(self.key) > 1 else None
        if prefix is not None:
            last = self.foll[-1]
            B, f = _lcm_step(prefix.B, last.den, t)
            c_last = (B // last.den) * (last.den - last.num)
            if prefix.cs is None or not self.cells.keep_followers:  # (past the cells' budget: see _Common)
                data = _Common(B, None, B, [])
            else:
                data = _Common(B, prefix.cs, prefix.scale, prefix.late + [(last.position, c_last, B)])
            # a move's numerator carries over when its row did not change on
            # the old followers: A_w' = f A_w + c_last P_w,last
            P = self.pos.P
            for w, (A, row, idle) in prefix.nums.items():
                # only what the last position used: a move's numerator left
                # unused for one position is almost never used again (nim 48:
                # 250 of 27,800 uses), and carrying those took over half the carries
                if not idle and w < len(P) and self._extends(row, w):
                    if not f.is_one():
                        A = A * f
                    weight = P[w][-1]
                    data.nums[w] = (A if weight.is_zero() else A + c_last * weight, P[w], True)
        else:
            B = ONE
            for g in self.foll:
                if not (B % g.den).is_zero():
                    B, _ = _lcm_step(B, g.den, t)
            data = self._fresh_common(B)
        if len(cell.common) > 8:  # followers are not prefixes of each other: do not hoard
            cell.common.clear()
        cell.common[self.key] = data
        return data

    def _fresh_common(self, B: fmpz_poly) -> "_Common":
        """The followers' numerators over ``B``: those of the last cell made
        here whose follower is on the same piece and whose ``B`` is equal are
        taken over (Chomp 5 x 5 all: the same ``B`` in 88 % of the cells after
        the first, and 57 % of their followers unchanged), and so is the sum
        over every follower, less and plus the ones that changed."""
        last = self._last
        foll = self.foll
        if last is None or last[0].B != B:
            data = _Common(B, {g.position: (B // g.den) * (g.den - g.num) for g in foll}, B, [])
        else:
            before, formulas = last
            old, cs, changed = before.cs, {}, []
            for g in foll:
                u = g.position
                got = formulas.get(u)
                if got is not None and got[0] is g.rf and got[1] is g.neg:
                    cs[u] = old[u]
                else:
                    cs[u] = (B // g.den) * (g.den - g.num)
                    changed.append(u)
            data = _Common(B, cs, B, [])
            every = before._total
            if every is not None and every[0] is old and 2 * len(changed) < len(cs):
                total = every[1]
                for u in changed:
                    total = total - old[u] + cs[u]
                data._total = (cs, total)
        self._last = (data, {g.position: (g.rf, g.neg) for g in foll})
        return data

    def _extends(self, row: tuple, w: int) -> bool:
        """Whether row ``w`` of this position is ``row`` (the previous position's
        row ``w``) with one entry appended (memoised: rows are shared by cells)."""
        key = (id(row), w)
        got = self._rows.get(key)
        if got is None:
            mine = self.pos.P[w]
            got = self._rows[key] = (len(mine) == len(row) + 1 and mine[:-1] == row, row)
        return got[0]

    def _numerator(self, common: "_Common", w: int) -> fmpz_poly:
        """``A_w = sum_u c_u P_wu`` over ``common.B``, one product per distinct
        weight ``P_wu`` (kept on the cell for the next position).

        A kept numerator is used only for the row it was made with: positions
        of a general game can share their followers (the key of ``common``)
        and differ in their channel rows (explicit games with channel tables)."""
        got = common.nums.get(w)
        row = self.pos.P[w]
        if got is not None and (got[1] is row or got[1] == row):
            if got[2]:
                common.nums[w] = (got[0], row, False)
            return got[0]
        acc = common.numerator(self.pos.groups[w], self._by_position)
        common.nums[w] = (acc, row, False)
        return acc

    # -- screening -----------------------------------------------------------

    def _screen(self, cell: _Cell) -> list:
        """The moves not shown strictly worse than the leader on the whole cell.

        With ``|1 - N_u(s) - e_u| <= s_u`` on the cell (:meth:`_follower_data`),
        every move's value lies in ``F_w(s) +- G_w(s)`` where
        ``F_w = sum_u psi(w, u) e_u`` and ``G_w = sum_u psi(w, u) s_u`` are
        rational functions of the channel's degree; Bernstein ratios bound them
        over the cell.  Ball arithmetic; comparisons are certain or not made.
        """
        pos = self.pos
        m = len(pos.Q)
        if m == 1:
            return [0]
        enc = cell.enc  # (one look-up per follower: most are known)
        data = [enc.get(f.position) or self._follower_data(cell, f) for f in self.foll]
        if any(s is None for _, s in data):
            return list(range(m))
        survivors = self._screen_with(cell, data)
        # inherited bounds arrive only when a cell is made (a follower new to it
        # gets its own): one look per cell, at its first screen that leaves
        # more than one move
        if len(survivors) > 1 and not cell.checked:
            cell.checked = True
            if self._refresh_outliers(cell, data):
                survivors = self._screen_with(cell, data)
        return survivors

    def _screen_with(self, cell: _Cell, data: list) -> list:
        """The screen of :meth:`_screen` with the followers' enclosures ``data``."""
        pos = self.pos
        m = len(pos.Q)
        d = pos.degree
        with ctx.workprec(_SCREEN_PREC):
            F, G = self._screen_coeffs(cell, data)
            M = cell.bernstein_matrix(d)
            BF, BG, BQ = M * F, M * G, M * pos.Qmat
            # (d + 1) x m, row-major: Bernstein coefficient i of move w at i * m + w
            low, high, q = (BF - BG).entries(), BF + BG, BQ.entries()
            # a move whose Q has a Bernstein coefficient not shown positive cannot be bounded: it survives
            a, b = pos.span
            unsure = pos.unsure if a <= cell.lo and cell.hi <= b else range(m)
            free = {w for w in unsure if not all(q[i * m + w] > 0 for i in range(d + 1))}
            bounded = [w for w in range(m) if w not in free]
            if not bounded:
                return list(range(m))
            # the leader: numbers only propose it (the largest lower ends at the
            # cell's two end points, whose Bernstein coefficients are the values
            # there); its floor, min_i low_i / q_i, is then computed in balls
            ends = lambda w: float((low[w] / q[w]).mid()) + float((low[d * m + w] / q[d * m + w]).mid())  # noqa: E731
            floor = None
            leaders = sorted(bounded, key=ends, reverse=True)[:_LEADERS]
            for w in leaders:
                lo_w = min(((low[i * m + w] / q[i * m + w]).lower() for i in range(d + 1)))
                if floor is None or lo_w > floor:
                    floor = lo_w
            # w is strictly worse than the floor on the whole cell when every
            # (F + G - floor Q) Bernstein coefficient is negative (Q's are positive):
            # max_i (F + G)_i / Q_i < floor by the mediant inequality
            gap = high - BQ * floor
            rows = range(d + 1)
            if len(free) + len(leaders) < m and _all_negative_but(gap, free.union(leaders), BQ):
                return [w for w in range(m) if w in free or (w in leaders and not all(gap[i, w] < 0 for i in rows))]
            gap = gap.entries()
            return [w for w in range(m) if w in free or not all(gap[i * m + w] < 0 for i in rows)]

    def _screen_coeffs(self, cell: _Cell, data: list) -> tuple[arb_mat, arb_mat]:
        """``F`` and ``G``: (d + 1) x m ball matrices, entry (j, w) coefficient
        j of ``F_w = sum_u P_wu e_u`` and of ``G_w = sum_u P_wu s_u`` (``data``
        the enclosures ``(e_u, s_u)``).  Call inside the screen's precision.

        The product with every follower costs (d + 1) m k ball products.  When
        the last screen of this cell was the previous position's, whose
        followers ours extend by one, on the same enclosures (1-pile Nim: 87 %
        of the screens of nim 48, 90 % of nim 64), the coefficients of the
        moves whose rows extend the old ones by one entry are carried over
        and the newest follower's terms added; only the other moves' rows
        (through the binary channel: the new move and one old move) are
        full products.  Ball arithmetic encloses the same exact sums either
        way."""
        pos = self.pos
        got = cell.screen
        if got is not None:
            key, old, before, F, G = got
            n = len(old)
            if before is pos and n == len(data) and all(a is b for a, b in zip(old, data)):
                return F, G
            if n + 1 == len(data) and before is not pos and key == self.key[:-1] and all(a is b for a, b in zip(old, data)):
                carry = self._carry(before)
                if carry is not None:
                    column, fresh, Pfresh = carry
                    e, s = data[-1]
                    new = (Pfresh * arb_mat([[e, s] for e, s in data])).entries()  # row j * r + i: move fresh[i]
                    m0, r = len(before.P), len(fresh)
                    Fe, Ge = F.entries(), G.entries()
                    Fr, Gr = [], []
                    for j in range(pos.degree + 1):
                        f, g = Fe[j * m0 : (j + 1) * m0], Ge[j * m0 : (j + 1) * m0]
                        f.append(None)
                        g.append(None)
                        for i, w in enumerate(fresh):
                            f[w], g[w] = new[2 * (j * r + i)], new[2 * (j * r + i) + 1]
                        Fr.append(f)
                        Gr.append(g)
                    F = arb_mat(Fr) + column * arb(e)
                    G = arb_mat(Gr) + column * arb(s)
                    cell.screen = (self.key, tuple(data), pos, F, G)
                    return F, G
        m, d = len(pos.Q), pos.degree
        # row j * m + w of the product holds coefficient j of F_w and of G_w
        EG = (pos.Pmat * arb_mat([[e, s] for e, s in data])).entries()
        Fc, Gc = EG[0::2], EG[1::2]
        F = arb_mat([Fc[j * m : (j + 1) * m] for j in range(d + 1)])
        G = arb_mat([Gc[j * m : (j + 1) * m] for j in range(d + 1)])
        cell.screen = (self.key, tuple(data), pos, F, G)
        return F, G

    def _carry(self, before: "_Position"):
        """What carrying a screen over from ``before`` (the position whose
        followers ours extend by one) takes, or ``None`` when it does not
        extend it by one move (the last) of the same degree:
        ``(column, fresh, Pfresh)``, the (d + 1) x m matrix of the newest
        follower's coefficients in the rows that extend ``before``'s (zero
        elsewhere), the moves whose rows do not (the last among them), and
        the matrix of their rows (row j * len(fresh) + i: coefficient j of
        ``P_{fresh[i], u}``, u across).  Memoised per ``before``."""
        got = self._rows.get(("carry", id(before)))
        if got is None or got[1] is not before:
            pos, carry = self.pos, None
            P, old, d = pos.P, before.P, pos.degree
            if before.degree == d and len(P) == len(old) + 1:
                keep = [len(P[w]) == len(row) + 1 and P[w][:-1] == row for w, row in enumerate(old)] + [False]
                fresh = [w for w, k in enumerate(keep) if not k]
                pad = lambda n: n.coeffs() + [0] * (d + 1 - len(n.coeffs()))  # noqa: E731
                col = [pad(P[w][-1]) if k else [0] * (d + 1) for w, k in enumerate(keep)]
                rows = {w: [pad(n) for n in P[w]] for w in fresh}
                carry = (
                    arb_mat([[c[j] for c in col] for j in range(d + 1)]),
                    fresh,
                    arb_mat([[c[j] for c in rows[w]] for j in range(d + 1) for w in fresh]),
                )
            got = self._rows[("carry", id(before))] = (carry, before)
        return got[0]

    def _refresh_outliers(self, cell: _Cell, data: list) -> bool:
        """Replace, in ``data``, the enclosures from inherited slope bounds whose
        spread is an outlier (:data:`_OUTLIER`) by ones from the cell's own;
        whether any was replaced."""
        inherited = [i for i, f in enumerate(self.foll) if not cell.slope.get(f.position, _OWN)[3]]
        if not inherited:
            return False
        spreads = sorted(s for _, s in data)
        limit = spreads[len(spreads) // 2] * _OUTLIER
        replaced = False
        for i in inherited:
            f, old = self.foll[i], data[i]
            if old[1] > limit:
                data[i] = self._follower_data(cell, f, own=True)
                if data[i][1] is None:  # no bound of its own: keep the inherited one
                    cell.enc[f.position] = data[i] = old
                else:
                    replaced = True
        return replaced

    # -- one cell ------------------------------------------------------------

    def _advance(self, x: RealAlgebraic, y: RealAlgebraic, pre: list | None = None):
        """Formula, optimal set and end of the piece starting at ``x`` (at most
        up to ``y``), and the optimal set at ``x``.  ``pre``: the survivors of
        a screen of a cell holding [x, y] (the batch screen of its base cell),
        or None."""
        cell = self.cells.get(x, y)
        narrow = pre is not None and len(pre) > 1 and self._narrow()
        if pre is not None and (len(pre) <= _PRE_ENOUGH or narrow):
            # (Chomp 5 x 5 king: of 5,355 base cells the batch left two moves
            # on, the per-cell screen left one on 128; a D test of two low-degree
            # formulas costs a tenth of that screen.  Rows that differ in two
            # followers, as the all-neighbour channel's: each pair is told apart
            # from those two followers' enclosures, not every follower's)
            survivors = pre
        else:
            survivors = self._screen(cell)
            if pre is not None:
                # both screens keep every move optimal somewhere on the cell
                survivors = [w for w in survivors if w in pre]
        common = self._common(cell)
        B = common.B
        Q = self.pos.Q

        def num(w):
            return self._numerator(common, w)

        if len(survivors) == 1:
            best = survivors[0]
            S = at_x = {best}
        else:
            t = cell.t
            # the pair test pays where the exact test is dear: D of high degree
            models = self._models(cell) if B.degree() >= _PAIR_MIN_DEGREE else None
            pairs = None if models is None else self._pairs().cell(models, cell.lo, cell.hi)
            differ = self._differences()
            while True:
                # (rows affine in p: the leader and each pair's D from the
                # followers the two rows weigh differently, no other move's numerator)
                best = self._best_at(t, survivors, num) if differ is None else self._leader(differ, t, survivors)
                S, at_x, restart = {best}, {best}, False
                for c in survivors:
                    if c == best:
                        continue
                    if pairs is not None and pairs.apart(best, c):
                        continue  # the two values differ on the whole closed cell: no crossing, c not optimal at x
                    if differ is not None and differ.apart(best, c, cell.lo, cell.hi, lambda j: self._enclosure(cell, j, narrow)):
                        continue  # likewise, from the followers the two moves weigh differently
                    if differ is None:
                        D = num(best) * Q[c] - num(c) * Q[best]
                    else:
                        D = self._difference(differ, common, best, c)
                    if D.is_zero():
                        S.add(c)
                        at_x.add(c)
                        continue
                    inside, zero_at_x = _roots_between(D, x, y, cell.lo, cell.hi)
                    if zero_at_x:
                        at_x.add(c)
                    if inside:
                        rho = inside[0]
                        rho.refine_to(_BREAKPOINT_WIDTH)
                        y = rho
                        if rho.compare(t) <= 0:
                            restart = True
                            break
                if not restart:
                    break
                t = _pick_point(x, y)
        formula = RationalFunction(num(best), B * Q[best])
        if max(formula.num.degree(), formula.den.degree()) >= spread_module.MIN_DEGREE:
            self._make_model(cell, best, formula)
        labels = self.pos.labels
        return formula, frozenset(labels[w] for w in S), frozenset(labels[w] for w in at_x), y

    def _models(self, cell: _Cell) -> list | None:
        """Every follower's Taylor model on the cell (``cell.taylor``, made
        where missing) as the pair test's row (:func:`pairtest.pair_row`,
        kept with it), in the channel rows' order; None when one is not shown."""
        out = []
        mid = cell.mid
        for f in self.foll:
            got = self._model(cell, f, True)
            if got is None:
                return None
            row = got[3].get("row")
            if row is None:
                model = got[2]
                if model[0] != mid:
                    # inherited from a wider cell: its bound of |N''| holds here, but
                    # around its own centre the remainder would grow with the
                    # distance to it; centre it here (a ball evaluation at the middle)
                    model = (mid, *_point_data(f.num, f.den, mid), model[3])
                    got = cell.taylor[f.position] = (f.rf, f.neg, model, {})
                row = got[3]["row"] = pair_row(model, cell.lo, cell.hi)
            out.append(row)
        return out

    def _model(self, cell: _Cell, f: "_Follower", blocks: bool):
        """The follower's entry in ``cell.taylor`` (made from blocks where
        missing, if ``blocks`` or its degree is low), or None when it has no model."""
        got = cell.taylor.get(f.position)
        if got is None or got[0] is not f.rf or got[1] is not f.neg:
            if not blocks and max(f.num.degree(), f.den.degree()) >= spread_module.MIN_DEGREE:
                return None
            model = self.cells.slopes.taylor(f.key, f.num, f.den, cell.lo, cell.hi, cell.mid, f.rf)
            got = cell.taylor[f.position] = (f.rf, f.neg, model, {})
        return got if got[2] is not None else None

    def _make_model(self, cell: _Cell, best: int, formula: RationalFunction) -> None:
        """Keep, in ``cell.taylor`` under this position, the Taylor model of the
        formula just made (the value of ``best`` on the cell's hull) that its
        followers' models give: ``e`` and ``g`` by a ball evaluation at the
        middle, ``L2`` by :meth:`PairTest.second_bound`.  The next positions
        take their slope bound and model of this follower from it instead of
        making blocks.  Nothing is kept when a follower has no model (a block
        would cost more than it saves) or ``Q_best > 0`` is not shown."""
        bounds = []
        lo, hi, taylor = cell.lo, cell.hi, cell.taylor
        for f in self.foll:
            got = taylor.get(f.position)  # (the common case inline: a model of the current formula)
            if got is None or got[0] is not f.rf or got[1] is not f.neg or got[2] is None:
                got = self._model(cell, f, False)
                if got is None:
                    return
            u = got[3].get("u")
            if u is None:
                u = got[3]["u"] = follower_bounds(got[2], lo, hi)
            bounds.append(u)
        L2 = self._pairs().second_bound(best, bounds, lo, hi)
        if L2 is None:
            return
        e, g = _point_data(formula.num, formula.den, cell.mid)
        # (under the name the next positions give this piece: its formula, not negated)
        cell.taylor[self.pos.position] = (formula, False, (cell.mid, e, g, L2), {})

    def _differences(self) -> DifferenceTest | None:
        """The first-order difference test of pairs of moves
        (:mod:`symbolic_noise.solvers.difftest`), for rows affine in p over
        positive constants that differ pairwise in at most two followers (the
        all-neighbour channel's: the two targets); else None.  Where rows
        differ in more (Chomp's king and rook channels), a pair's test and its
        leader and D made from the differing followers cost more than the
        moves' numerators they spare (5 x 6 rook: 8.2-8.6 s against 6.5-7.3 s)."""
        if self._difftest is None:
            self._difftest = False
            m = len(self.pos.Q)
            if self.pos.affine is not None and m >= 2:
                test = DifferenceTest(self.pos.P, self.pos.Q)
                if all(len(test.support(b, c)) <= 2 for b, c in {(0, 1), (0, m - 1), (m // 2, m - 1)} if b != c):
                    self._difftest = test
        return self._difftest or None

    def _leader(self, differ: DifferenceTest, t: fmpq, survivors: list) -> int:
        """:meth:`_best_at` through the difference test's rows: the first of
        ``survivors`` with the largest value at ``t``, from the values at
        ``t`` of only the followers each compared pair weighs differently."""
        balls: dict = {}
        exacts: dict = {}
        foll = self.foll

        def ball(j):
            got = balls.get(j)
            if got is None:
                f = foll[j]
                with ctx.workprec(_SCREEN_PREC + max(f.num.height_bits(), f.den.height_bits())):
                    x = arb(t)
                    got = balls[j] = 1 - f.num(x) / f.den(x)
            return got

        def exact(j):
            got = exacts.get(j)
            if got is None:
                f = foll[j]
                got = exacts[j] = 1 - f.num(t) / f.den(t)
            return got

        return differ.leader(t, survivors, ball, exact)

    def _difference(self, differ: DifferenceTest, common: "_Common", b: int, c: int) -> fmpz_poly:
        """``A_b Q_c - A_c Q_b`` over ``common.B``, from the followers the two
        rows weigh differently (:meth:`DifferenceTest.weights`)."""
        foll = self.foll
        D = polys.ZERO
        for j, W in differ.weights(b, c):
            f = foll[j]
            D += W * common.follower(f.position, f)
        return D

    def _narrow(self) -> bool:
        """Whether pairs of moves are told apart by the difference test (rows
        that differ in at most two followers, :meth:`_differences`): then a
        pair's test needs two enclosures, and the per-cell screen's of every
        follower cost more."""
        return self._differences() is not None

    def _enclosure(self, cell: _Cell, j: int, make: bool = False) -> tuple:
        """Follower ``j``'s enclosure ``(e, s)`` on the cell when the screen
        made it, or ``make`` (:meth:`_follower_data`); else ``(None, None)``."""
        f = self.foll[j]
        got = cell.enc.get(f.position)
        if got is None:
            got = self._follower_data(cell, f) if make else _NO_ENCLOSURE
        return got

    def _pairs(self) -> PairTest:
        if self._pairtest is None:
            self._pairtest = PairTest(self.pos.P, self.pos.Q)
        return self._pairtest

    def _best_at(self, t: fmpq, survivors: list, num: Callable) -> int:
        """The first of ``survivors`` with the largest value at ``t``, compared
        through ``A_w(t) / Q_w(t)`` (the values times ``B(t) > 0``): in balls
        when one ball lies above all the others (a certain comparison), else
        exactly (ties, and balls too close to tell apart)."""
        Q = self.pos.Q
        nums = [num(w) for w in survivors]
        with ctx.workprec(_SCREEN_PREC + max(n.height_bits() for n in nums)):
            x = arb(t)
            i = _certain_leader([n(x) / Q[w](x) for n, w in zip(nums, survivors)])
            if i is not None:
                return survivors[i]
        values = [n(t) / Q[w](t) for n, w in zip(nums, survivors)]
        return survivors[max(range(len(values)), key=values.__getitem__)]

    def _close(self) -> frozenset:
        """The optimal set at b on the last piece: in balls when one move's
        value lies above all the others (a certain comparison), else by exact
        evaluation (ties, and balls too close to tell apart)."""
        b = self.B.lo
        heights = [max(f.num.height_bits(), f.den.height_bits()) for f in self.foll]
        with ctx.workprec(_SCREEN_PREC + max(heights, default=0)):
            x = arb(b)
            lose = [1 - f.num(x) / f.den(x) for f in self.foll]
            balls = []
            for q, (groups, _) in zip(self.pos.Q, self.pos.rows):
                total = arb(0)
                for n, members in groups:  # followers of equal weight together
                    total += n(x) * sum((lose[j] for j in members), arb(0))
                balls.append(total / q(x))
            i = _certain_leader(balls)
            if i is not None:
                return frozenset((self.pos.labels[i],))
        lose = [1 - f.num(b) / f.den(b) for f in self.foll]
        values = []
        for q, row in zip(self.pos.Q, self.pos.P):
            qb = q(b)
            values.append(sum((n(b) * e for n, e in zip(row, lose) if not n.is_zero()), fmpq(0)) / qb)
        top = max(values)
        return frozenset(self.pos.labels[w] for w, x in enumerate(values) if x == top)

    def _cell_end(self) -> RealAlgebraic:
        """The nearest end of the followers' current pieces (followers share
        breakpoint objects: each distinct one is compared once)."""
        y = self.foll[0].end
        seen = {id(y)}
        for f in self.foll[1:]:
            e = f.end
            if id(e) not in seen:
                seen.add(id(e))
                if e.compare(y) < 0:
                    y = e
        return y

    def _step(self, h: RealAlgebraic) -> None:
        """Move every follower whose piece ends at ``h`` into its next piece."""
        at_h = {}  # id of a piece end (alive: a breakpoint of a follower) -> whether it is h
        for f in self.foll:
            e = f.end
            moves = at_h.get(id(e))
            if moves is None:
                moves = at_h[id(e)] = e is h or e.compare(h) == 0
            if moves:
                f.enter(f.index + 1, self.norm)

    def walk_cells(self, lo: RealAlgebraic, hi: RealAlgebraic):
        """The cells between the followers' breakpoints that meet [lo, hi], clipped
        to it: ``(x, y, common)`` (the common denominator and numerators, :class:`_Common`)."""
        for f in self.foll:
            f.enter(0, self.norm)
        x = self.A
        while True:
            y = self._cell_end()
            if y.compare(lo) > 0:
                cx = x if x.compare(lo) >= 0 else lo
                cy = y if y.compare(hi) <= 0 else hi
                if cx.compare(cy) < 0:
                    common = self._common(self.cells.get(cx, cy))
                    yield cx, cy, common
            if y.compare(hi) >= 0:
                return
            self._step(y)
            x = y

    def _row_formula(self, w: int) -> RationalFunction:
        """Move ``w``'s value ``sum_u P_wu (1 - N_u) / Q_w`` on the current
        pieces of the followers, over the common denominator of the followers
        in its row alone (in lowest terms it is the formula :meth:`_advance`
        makes over every follower's)."""
        groups, _ = self.pos.rows[w]
        foll = self.foll
        q = self.pos.Q[w]
        if q.degree() == 0:
            got = self._polynomial_row(groups, q)
            if got is not None:
                return got
        B = ONE
        for _, members in groups:
            for j in members:
                d = foll[j].den
                if not (B % d).is_zero():
                    B = B * (d // B.gcd(d))
        A = polys.ZERO
        for weight, members in groups:
            total = polys.ZERO
            for j in members:
                f = foll[j]
                total += (B // f.den) * (f.den - f.num)
            A += total * weight
        return RationalFunction(A, B * q)

    def _polynomial_row(self, groups: list, q: fmpz_poly) -> RationalFunction | None:
        """:meth:`_row_formula` when ``Q_w`` and the row's followers'
        denominators are constants (Chomp's channels: every value is a
        polynomial in p), in ``fmpq_poly`` arithmetic: a third of the time of
        the common denominator's polynomial divisions and gcds; None when a
        denominator is not a constant.  The formula is the same (both are in
        lowest terms)."""
        gs, foll = self._gs, self.foll
        A = None
        for weight, members in groups:
            total = None  # sum of N_u = num/den over the group; 1 - N_u summed is len(members) - total
            for j in members:
                num = foll[j].num
                got = gs.get(id(num))
                if got is None or got[0] is not num:
                    den = foll[j].den
                    got = gs[id(num)] = (num, fmpq_poly(num, den[0]) if den.degree() == 0 else None)
                g = got[1]
                if g is None:
                    return None
                total = g if total is None else total + g
            part = (len(members) - total) * weight
            A = part if A is None else A + part
        A = A / q[0]
        if A.is_zero():
            return RationalFunction(fmpz_poly([]))
        # (fmpq_poly keeps its numerator's content prime to its denominator, > 0)
        return RationalFunction._canonical(A.numer(), fmpz_poly([A.denom()]))

    def _base_cells(self) -> tuple[list, list, list]:
        """The position's base cells, between its followers' breakpoints:
        their ends, the followers (indices, a list) that enter their next piece at each
        end but the last, and every follower's formulas as spans ``(start, stop,
        num, den)`` of cell indices.

        The followers' distinct inner breakpoints are put in order by their
        intervals' left ends and the order is proved by one exact comparison
        of each neighbouring pair (a full exact sort where it fails): the
        sweep's walk compares every follower's end with the nearest one at
        every cell instead."""
        foll, norm = self.foll, self.norm
        inner: dict = {}
        for f in foll:
            for x in f.value.points[1:-1]:
                inner.setdefault(id(x), x)
        order = sorted(inner.values(), key=_left_end)
        ends, rank = _distinct_in_order(order)
        if ends is None:
            ends, rank = _distinct_in_order(sorted(order, key=cmp_to_key(RealAlgebraic.compare)))
        ends.append(self.B)
        n = len(ends)
        moving: list = [[] for _ in range(n - 1)]
        spans = []
        for j, f in enumerate(foll):
            # a piece ends at an inner breakpoint (rank at most n - 2) or at b
            stops = [rank[id(x)] + 1 for x in f.value.points[1:-1]]
            for stop in stops:
                moving[stop - 1].append(j)
            starts = [0] + stops
            stops.append(n)
            spans.append([(start, stop, rf, neg) for start, stop, (rf, neg) in zip(starts, stops, f.pairs(norm))])
        return ends, moving, spans

    def _run_batched(self, progress: Callable[[float], None] | None) -> PiecewiseFunction:
        """:meth:`run` for rows affine in p: the base cells are screened
        together, :data:`_BATCH` at a time along p, and a cell goes through
        :meth:`_advance` only where that left more than one move."""
        ends, moving, spans = self._base_cells()
        starts = [self.A] + ends[:-1]
        n = len(ends)
        at = [0] * len(spans)  # each follower's first span not behind the batch

        def screened(c0: int) -> list:
            # the batch screen of the base cells c0 .. c0 + _BATCH - 1: in
            # batches along p, so that a lockstep worker's time per piece
            # (its load model) is measured where the work is
            c1 = min(c0 + _BATCH, n)
            hulls, names = [], []
            for cx, cy in zip(starts[c0:c1], ends[c0:c1]):
                cell = self.cells.get(cx, cy)
                hulls.append((cell.lo, cell.hi))
                names.append(cell.hid)
            part = []
            for j, mine in enumerate(spans):
                p = at[j]
                while mine[p][1] <= c0:
                    p += 1
                at[j] = p
                clipped = []
                while p < len(mine) and mine[p][0] < c1:
                    a, b, num, den = mine[p]
                    clipped.append((max(a, c0) - c0, min(b, c1) - c0, num, den))
                    p += 1
                part.append(clipped)
            return batchscreen.screen_cells(*self.pos.affine, hulls, part, names, self.cells.batch)

        x = self.A
        span = self.B.lo - self.A.lo
        points, formulas, sets, point_sets = [x], [], [], []
        labels, rows = self.pos.labels, self.pos.rows
        pairs = [f.pairs(self.norm) for f in self.foll]
        last = None  # (move, formula) when the last base cell was one piece of that move
        for i, y in enumerate(ends):
            if i % _BATCH == 0:
                pre = screened(i)
            only = pre[i % _BATCH]
            if only is not None and len(only) == 1:
                # one move left on the whole base cell: its own formula, the
                # last one's when no follower it weighs entered a new piece
                w = only[0]
                if last is not None and last[0] == w and rows[w][1].isdisjoint(moving[i - 1]):
                    formula = last[1]
                else:
                    formula = self._row_formula(w)
                label = frozenset((labels[w],))
                formulas.append(formula)
                sets.append(label)
                point_sets.append(label)
                points.append(y)
                x = y
                last = (w, formula)
            else:
                last = None
                while True:  # pieces until the base cell's end
                    formula, S, at_x, h = self._advance(x, y, only)
                    formulas.append(formula)
                    sets.append(S)
                    point_sets.append(at_x)
                    points.append(h)
                    x = h
                    if h is y:
                        break
                    if progress is not None:
                        progress(float((x.lo - self.A.lo) / span))
            if i < len(moving):
                for j in moving[i]:
                    f = self.foll[j]
                    f.index += 1
                    f.take(pairs[j][f.index])
                if progress is not None:
                    progress(float((x.lo - self.A.lo) / span))
        point_sets.append(self._close())
        return PiecewiseFunction(points, formulas, sets, point_sets)

    def run(self, progress: Callable[[float], None] | None = None) -> PiecewiseFunction:
        for f in self.foll:
            f.enter(0, self.norm)
        if self.pos.affine is not None:
            return self._run_batched(progress)
        x = self.A
        span = self.B.lo - self.A.lo
        points, formulas, sets, point_sets = [x], [], [], []
        while True:
            formula, S, at_x, h = self._advance(x, self._cell_end())
            formulas.append(formula)
            sets.append(S)
            point_sets.append(at_x)
            points.append(h)
            if h is self.B or h.compare(self.B) == 0:
                break
            self._step(h)
            x = h
            if progress is not None:
                progress(float((x.lo - self.A.lo) / span))
        point_sets.append(self._close())
        return PiecewiseFunction(points, formulas, sets, point_sets)


# --------------------------------------------------------------------------- the driver


def solve(
    game: Game,
    channel: Channel | str,
    interval=(0, 1),
    *,
    start=None,
    misere: bool = False,
    known=None,
    store=None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> "Solution":
    """Solve ``game`` through ``channel`` exactly for every p in ``interval``.

    ``start`` (default: the game's start position) selects the position whose
    subgame is solved; every position reachable from it is solved too.
    ``misere=True`` plays the misère convention: the player who makes the last
    move loses (a player with no move wins, N = 1 at terminal positions).
    ``known`` maps positions to values solved before (with the same channel and
    convention, on an interval containing this one; a Solution works too); they
    are reused, not recomputed.  ``store`` is an object with
    ``load(position) -> PiecewiseFunction | None`` and ``save(position, value)``
    (such as :class:`symbolic_noise.solvers.cache.SolutionCache`): positions it holds
    are loaded, every position solved is saved as soon as it is done.
    ``progress`` is called with a :class:`SolveProgress` after every cell and
    every position; it may raise (e.g. KeyboardInterrupt) to stop the solve.

    >>> from symbolic_noise.games.rulesets import Chomp
    >>> sol = solve(Chomp(2, 2), "king")
    >>> [(str(pc.lo), str(pc.hi), pc.formula.text(), sorted(pc.label)) for pc in sol.value().pieces()]
    [('0', '1/3', '(1 - p)/2', [(1, 2), (2, 1)]), ('1/3', '1', 'p', [(2, 2)])]
    """
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    if not known:
        from .fastpoint import solve_constant  # psi free of p: one exact evaluation

        sol = solve_constant(game, channel, (a, b), root, misere=misere)
        if sol is not None:
            return sol
    return solve_positions(
        game, channel, (a, b), game.positions(root), root=root, misere=misere, known=known, store=store, progress=progress
    )


def solve_positions(
    game: Game,
    channel: Channel | str,
    interval,
    order,
    *,
    root=None,
    misere: bool = False,
    known=None,
    store=None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> "Solution":
    """Like :func:`solve`, for the positions ``order`` (followers first, closed
    under followers, e.g. a prefix of ``game.positions()``); ``root`` is the
    position the Solution calls its start (default: the last one)."""
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = order[-1] if root is None else root
    cells, norm = None, None
    if isinstance(known, Solution):
        # continue in the earlier solve's workspace: its cells are ours too
        if known._workspace is not None and known.interval == (a, b):
            cells, norm = known._workspace
        known = known.values()
    if cells is None:
        cells, norm = _Cells(a, b), {}
    known = known or {}
    A, Bpt = RealAlgebraic.rational(a), RealAlgebraic.rational(b)
    terminal = PiecewiseFunction.constant(1 if misere else 0, a, b, frozenset(), frozenset())
    values = {}
    # values from the cache or ``known`` carry a fresh object for every copy of a
    # breakpoint several positions share, and positions solved here can find
    # the same breakpoint again: one object each, so that the cells tell them
    # apart by identity (nim 64's move values from the cache: 66 s of exact
    # comparisons of copies; Chomp 5 x 5 king: 23,021 root counts, 1,435 after)
    interner = Interner()
    t0 = time.perf_counter()
    total = len(order)
    with fewer_collections():  # (collector.py: the collector's runs cost 10 % of a Chomp solve)
        for i, v in enumerate(order):
            value = None
            if v in known:
                value = known[v]
                if value.points[0].compare(A) != 0 or value.points[-1].compare(Bpt) != 0:
                    value = value.restrict(A, Bpt)
                value = interner.function(value)
            elif not game.followers(v):
                value = terminal
            elif store is not None:
                value = store.load(v)
                if value is not None:
                    value = interner.function(value)
            if value is None:
                # a square Chomp board's transposed position: its image's value, relabelled
                value = symmetry.mirrored(game, channel, v, values, (a, b), interner)
                if value is not None and store is not None:
                    store.save(v, value)
            if value is None:
                # a self-symmetric position: one move of each mirror pair (worth the same)
                half = symmetry.representatives(game, channel, v, values, (a, b))
                pos = _Position(game, channel, v, a, b, *(half or ()))
                report = None
                if progress is not None:

                    def report(fraction, i=i, v=v):
                        progress(SolveProgress(i, total, v, fraction, time.perf_counter() - t0))

                value = _PositionSolver(pos, [values[w] for w in pos.followers], a, b, cells, norm).run(report)
                if half is not None:
                    value = symmetry.close_labels(value, game.symmetry())
                value = interner.function(value)  # (see the interner above)
                cells.held.add(value)
                cells.next_position()
                # FLINT keeps freed integers in pools of its own that only grow;
                # emptying them after each position bounds the memory of long solves
                flint_ctx.cleanup()
                if store is not None:
                    store.save(v, value)
            values[v] = value
            if progress is not None:
                progress(SolveProgress(i + 1, total, v, 1.0, time.perf_counter() - t0))
    sol = Solution(game, channel, (a, b), values, root, misere)
    sol._workspace = (cells, norm)
    return sol


def move_formulas(solution, v, lo=None, hi=None):
    """Every sent move's own value at position ``v`` of ``solution``, cell by cell
    over [lo, hi]: yields ``(x, y, {move: RationalFunction})`` for the cells
    between the followers' breakpoints, with the formulas ``A_w / (B Q_w)`` of the
    solver in lowest terms."""
    game = solution.game
    fs = game.followers(v)
    if not fs:
        return
    a, b = solution.interval
    lo = RealAlgebraic.rational(a) if lo is None else RealAlgebraic.coerce(lo)
    hi = RealAlgebraic.rational(b) if hi is None else RealAlgebraic.coerce(hi)
    pos = _Position(game, solution.channel, v, a, b)
    solver = _PositionSolver(pos, [solution.value(w) for w in fs], a, b, _Cells(a, b), {})
    for x, y, common in solver.walk_cells(lo, hi):
        yield x, y, {pos.labels[w]: RationalFunction(solver._numerator(common, w), common.B * pos.Q[w]) for w in range(len(fs))}
