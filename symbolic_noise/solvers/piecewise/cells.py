"""The cells of a sweep and what positions share on them.

A *cell* is an interval ``(x, y)`` of p between consecutive breakpoints of the
followers of the position being solved.  :class:`_Cells` keeps, for one solve,
every cell met so far with the data later positions reuse there (the
followers' enclosures and slope bounds, the common denominator of their
formulas and their numerators over it, :class:`_Common`), and the Bernstein
ranges of low-degree formulas per dyadic interval.
"""

from __future__ import annotations

from collections import OrderedDict
from math import frexp
from typing import TYPE_CHECKING

from flint import arb, arb_mat, ctx, fmpq, fmpz_poly

from ...exact import polys
from ...exact.algebraic import dyadic_hull, rational_between, RealAlgebraic, roots_between, single_root_between
from ..storage import packing
from . import batchscreen
from .spread import SlopeBounds

if TYPE_CHECKING:
    from .followers import _Follower

#: most Bernstein ranges of followers' formulas kept per solve (oldest go first)
_MAX_RANGES = 200_000
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

#: working precision (bits) of the ball-arithmetic screening
_SCREEN_PREC = 128


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
