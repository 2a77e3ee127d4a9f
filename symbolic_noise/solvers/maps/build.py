"""Cover an interval of p by proved, change and undecided intervals.

:func:`build_map` bisects the interval into boxes and encloses the start's
moves over each (:mod:`~symbolic_noise.solvers.maps.enclose`).  A box is settled by one of three proofs,
each made only of certain comparisons of balls or of exact evaluations:

1. **One class.**  The moves that can be optimal somewhere in the box (their
   upper end reaches the largest lower end) all lie in one proved tie class
   (:mod:`~symbolic_noise.solvers.maps.structure`): the optimal set is that class on the whole box.
2. **A crossing.**  They lie in two classes L and R, the derivative of
   ``g = V_l - V_r`` has one sign on the box and g has opposite signs at its
   two ends (point enclosures): g is strictly monotone, so it vanishes at
   exactly one c, where the set is ``L | R``; every other move is below on the
   box.  The box is then shrunk around c by interval Newton steps
   (``c in m - g(m) / g'(J)``), with bisection on the sign of g where Newton
   is slow, until it is at most ``width`` wide (doubling the arb precision
   where the balls are as wide as the interval; beyond :data:`MAX_PREC` bits
   the middle is left undecided rather than wider than ``width``); the parts
   cut off are proved intervals.  The simplest rational of the final interval is evaluated
   exactly: if the two classes tie there, it is c, and the map names it.
3. **A tie point at an end.**  Where many moves tie at one rational point c
   (p = 1/2 for binary Nim, p = 0 or 1, p = 1/3 on the 2 x 2 Chomp board),
   no subdivision separates them.  The exact one-sided series at c
   (:mod:`~symbolic_noise.solvers.maps.series`) give the set at c and the class R optimal just beside it;
   on a box ``[c, e]`` R is shown optimal on ``(c, e]``: for each other class
   K of the set at c, ``V_r - V_k`` has zero coefficients below some order
   j <= series.ORDER and a positive j-th one, and its j-th derivative is
   positive on the box (anchored enclosures, :mod:`~symbolic_noise.solvers.maps.taylorbox`); every other move
   is below R's lower end.  (Mirrored on ``[s, c]``.)  Split points are the
   simplest rationals of each box's middle third, so such points become box
   ends.

Anything else is bisected until the box budget or the smallest width is
reached, and is then undecided.  Adjacent proved intervals with the same set
merge.

>>> from symbolic_noise.games.rulesets import Nim
>>> m = build_map(Nim(3), "binary", width="1/1024")
>>> [(iv.kind, sorted(iv.optimal if iv.kind == "proved" else iv.at)) for iv in m.intervals]
[('proved', [0]), ('change', [0, 1, 2]), ('proved', [1]), ('change', [0, 1, 2])]
>>> m.intervals[1].point, m.intervals[3].point
(1/2, 1)
"""

from __future__ import annotations

from collections import deque

from fractions import Fraction

import numpy as np
from flint import arb, ctx, fmpq

from ...errors import IntervalError
from ...exact.formula import exact_number
from ...games.channels import get_channel
from ..onepoint.fastpoint import ball_bounds, point_solve
from ..boxes.floatbox import check_float_environment
from .enclose import enclose
from .nimkernel import enclose_block, root_boxes  # the distance-class kernel for binary Nim, else floatkernel
from .result import Map, MapInterval
from .series import first_nonzero, side_series
from .structure import Layout


#: boxes enclosed together in binary64 (:mod:`~symbolic_noise.solvers.maps.floatblock`)
BLOCK = 32
#: in the binary64 sweep, boxes with an end of denominator up to this go to
#: the arb proofs (a tie point may sit there); a search heuristic
SIMPLE_END = 64
#: a change point is tried as an exact rational only up to this denominator
MAX_EXACT_DENOMINATOR = 10**6
#: the most bits of precision a change interval is narrowed with (the
#: narrowing doubles the precision when the balls are as wide as the interval)
MAX_PREC = 4096
#: tie points are looked for only at box ends with denominators up to this
#: (1/2, 1/m, 0, 1 ...); a search heuristic, which decides nothing
TIE_DENOMINATOR = 4096
#: a box whose end is a tie point where the one-sided proof failed is split
#: about 1/TIE_SPLIT of its width from that end (the proof's box shrinks by
#: that factor per attempt, each an arb enclosure; the part left over is cheap
#: binary64 boxes); a search heuristic, which decides nothing
TIE_SPLIT = 16
#: a box the binary64 proofs leave is tried in arb only when narrower than
#: 1/ARB_BELOW, where binary64's rounding may be what stops them (wider ones are
#: split); a search heuristic, which decides nothing
ARB_BELOW = 2**24
#: the one-sided proof at a tie point is tried on boxes at most 1/TIE_FIRST
#: of the interval wide (a wider box with a tie end is split at once, as
#: after a failed proof); a search heuristic, which decides nothing
TIE_FIRST = 1024


def build_map(game, channel, start=None, interval=(0, 1), width="2^-40", misere: bool = False, *,
              budget: int = 20000, min_width=None, prec: int = 128, engine: str = "float", progress=None) -> Map:
    """The certified map of the start's optimal moves over ``interval``.

    ``width``: the largest width of a change interval (a rational, or ``2^-k``);
    ``budget``: the most boxes enclosed (point enclosures and exact series
    included);
    ``min_width``: boxes this narrow are not split again (default ``width``);
    ``prec``: arb precision in bits; ``engine``: ``"float"`` (boxes screened
    in blocks in binary64, :mod:`~symbolic_noise.solvers.maps.floatblock`, the arb proofs where those do
    not settle a box) or ``"arb"`` (every box in arb, the reference);
    ``progress(settled, 1000)``, if given, is told the thousandths of the
    interval settled as boxes are settled."""
    kind = engine
    channel, root, (a, b), width, min_width = _arguments(game, channel, start, interval, width, budget, min_width,
                                                         engine)
    old = ctx.prec
    ctx.prec = max(prec, 64)
    try:
        engine = _Engine(game, channel, root, (a, b), misere, width, min_width, budget)
        engine.engine = kind
        engine.progress = progress
        intervals = engine.run()
    finally:
        ctx.prec = old
    stats = {"boxes": engine.boxes, "series": len(engine.exact)}
    proofs = sorted(engine.proofs, key=lambda r: (r[1], r[2]))
    return Map(game, channel, root, (a, b), misere, width, intervals, stats, engine.band, proofs)


def _arguments(game, channel, start, interval, width, budget, min_width, engine):
    """:func:`build_map`'s arguments checked and read: the channel, the start,
    the interval's exact ends, the width and the smallest width."""
    if engine not in ("float", "arb"):
        raise ValueError(f"engine must be 'float' or 'arb', not {engine!r}")
    if engine == "float":
        check_float_environment()
    channel = get_channel(channel)
    root = game.start() if start is None else game.check_position(start)
    a, b = (_number(x, "an end of the interval") for x in interval)
    if not 0 <= a < b <= 1:
        raise IntervalError(f"the interval [{a}, {b}] must satisfy 0 <= a < b <= 1")
    width = _number(width, "the width")
    if width <= 0:
        raise IntervalError(f"the width must be positive, not {width}")
    min_width = width if min_width is None else _number(min_width, "the smallest width")
    if budget < 1:
        raise IntervalError(f"the box budget must be at least 1, not {budget}")
    return channel, root, (a, b), width, min_width


def _number(x, what):
    if isinstance(x, str) and x.startswith("2^"):
        from ...exact.formula import parse_whole  # ASCII digits only, as every number read

        digits = x[2:]
        negative = digits.startswith("-")
        try:
            e = parse_whole(digits[1:] if negative else digits, what, 0, 10**9, IntervalError)
        except IntervalError:
            raise IntervalError(f"{what} {x[:40]!r} is not a number") from None
        e = -e if negative else e
        if abs(e) > 10000:
            raise IntervalError(f"{what} {x!r} is out of range")
        return fmpq(2) ** e if e >= 0 else fmpq(1, 2 ** (-e))
    return exact_number(x)


def simplest_between(x: fmpq, y: fmpq) -> fmpq:
    """The rational with the smallest denominator in ``[x, y]`` (``0 <= x <= y``).

    >>> simplest_between(fmpq(1, 3), fmpq(2, 3)), simplest_between(fmpq(1, 6), fmpq(1, 3))
    (1/2, 1/3)
    """
    terms = []  # the continued fraction shared by x and y, as far as they agree
    while True:
        fx = x.floor()
        if x == fx:
            out = x
            break
        if fx + 1 <= y:
            out = fmpq(fx + 1)
            break
        terms.append(fx)
        x, y = 1 / (y - fx), 1 / (x - fx)
    for t in reversed(terms):
        out = t + 1 / out
    return out


class _Engine:
    def __init__(self, game, channel, root, interval, misere, width, min_width, budget):
        self.game, self.channel, self.root = game, channel, root
        self.layout = Layout(game, channel, root, interval)
        self.classes = self.layout.classes
        self.class_of = {i: k for k, c in enumerate(self.classes) for i in c}
        self.interval, self.misere = interval, misere
        self.width, self.min_width, self.budget = width, min_width, budget
        self.boxes = 0
        self.points: dict = {}
        self.ties: dict = {}
        self.exact: dict = {}
        self.band: list = []
        #: one entry per settled box: what proves it (see :attr:`Map.proofs`)
        self.proofs: list = []
        self.engine = "float"
        #: called with ``(settled, total)`` in thousandths of the interval as boxes settle
        self.progress = None
        self._settled = fmpq(0)
        #: boxes whose tie-point end resisted the one-sided proof: which end, and how much narrower to try next
        self._tie_end: dict = {}
        self._tie_hint: dict = {}

    # ------------------------------------------------------------------ evaluations

    def enclose(self, a, b, anchor=None, fast=False):
        """Balls for the start over [a, b]: in arb, or with ``fast`` from the
        compiled binary64 enclosures (:mod:`~symbolic_noise.solvers.maps.floatkernel`), as rigorous and
        wider where many roundings add up."""
        self.boxes += 1
        if fast and anchor is None:
            return root_boxes(self.layout, [(a, b)], self.misere)[0]
        return enclose(self.layout, a, b, self.misere, anchor)

    def point(self, c, fast=False):
        key = (c, fast)
        hit = self.points.get(key)
        if hit is None:
            hit = self.points[key] = self.enclose(c, c, fast=fast)
        return hit

    def names(self, moves) -> frozenset:
        return frozenset(self.layout.names[i] for i in moves)

    # ------------------------------------------------------------------ the sweep

    def run(self):
        a, b = self.interval
        if not self.layout.names:  # a terminal start: nothing to choose
            v = fmpq(1 if self.misere else 0)
            return [MapInterval("proved", a, b, optimal=frozenset(), value=(v, v))]
        records = self.sweep(deque([(a, b)]))
        records.sort(key=lambda r: (r[1], r[2]))
        self.band = _band(records)
        return _assemble(records, self.width)

    def sweep(self, queue, until=None) -> list:
        """The records of the boxes of ``queue`` (``(lo, hi)`` pairs), each
        settled or split until settled (or undecided, :meth:`settle`), unsorted;
        with ``until``, the sweep stops between blocks once that many boxes
        are enclosed, and ``queue`` keeps the boxes not settled."""
        records: list = []
        while queue and (until is None or self.boxes < until):
            if self.engine == "float":
                block = [queue.popleft() for _ in range(min(BLOCK, len(queue)))]
                for (lo, hi), found in zip(block, self.screen(block)):
                    self.settle(lo, hi, found, queue, records)
            else:
                lo, hi = queue.popleft()
                found = None if self.boxes >= self.budget else self.decide(self.enclose(lo, hi))
                self.settle(lo, hi, found, queue, records)
        return records

    def settle(self, lo, hi, found, queue, records):
        """Keep the records of a settled box, or split it (undecided at the
        smallest width or when the budget is spent)."""
        if found is not None or hi - lo <= self.min_width or self.boxes >= self.budget:
            records.extend(found if found is not None else [("undecided", lo, hi)])
            if self.progress is not None:
                a, b = self.interval
                self._settled += hi - lo
                self.progress(int(1000 * self._settled / (b - a)), 1000)
        else:
            side, f = self._tie_end.pop((lo, hi), (None, None))
            w = hi - lo
            if side is not None:  # the one-sided proof holds on a box far narrower than this one
                f = fmpq(1, TIE_SPLIT) if not f else max(min(fmpq(1, TIE_SPLIT), _exact(f / 2)), fmpq(1, 2**20))
            if side == "left":
                c = simplest_between(lo + w * f, lo + 2 * w * f)
            elif side == "right":
                c = simplest_between(hi - 2 * w * f, hi - w * f)
            else:
                c = simplest_between(lo + w / 3, hi - w / 3)
            queue.extend([(lo, c), (c, hi)])

    def screen(self, block):
        """Records (or None) for each box of a block: binary64 enclosures of
        the whole block first (:mod:`~symbolic_noise.solvers.maps.floatblock`); a box whose candidates form
        one class is proved from them, one that may hold a crossing or touch a
        tie point goes to the arb proofs, the others are split."""
        if self.boxes >= self.budget:
            return [None] * len(block)
        self.boxes += len(block)
        blk = enclose_block(self.layout, block, self.misere)
        ends = sorted({c for box in block for c in box if c.q <= SIMPLE_END and c not in self.ties})
        if ends:  # which simple ends are tie points: binary64 point enclosures, all at once
            pts = enclose_block(self.layout, [(c, c) for c in ends], self.misere)
            for k, c in enumerate(ends):
                self.ties[c] = len({self.class_of[int(j)] for j in np.flatnonzero(pts.cands[k])}) >= 2
        out = []
        for i, (lo, hi) in enumerate(block):
            cands = np.flatnonzero(blk.cands[i])
            cls = sorted({self.class_of[int(j)] for j in cands})
            if len(cls) == 1:
                value = (max(_exact(blk.vlo[i]), fmpq(0)), min(_exact(blk.vhi[i]), fmpq(1)))
                names = self.names(self.classes[cls[0]])
                self.proofs.append(("class", lo, hi, names))
                out.append([("proved", lo, hi, names, value)])
                continue
            crossing = len(cls) == 2 and _may_cross(blk, i, self.rep(cls[0]), self.rep(cls[1]), float(hi - lo) / 2)
            ties = [side for side, c in (("left", lo), ("right", hi)) if c.q <= SIMPLE_END and self.tie_point(c)]
            found = None
            wide = (hi - lo) * TIE_FIRST > self.interval[1] - self.interval[0]
            for side in ties:  # straight to the anchored proof (it encloses the box itself)
                if found is None and wide:
                    self._tie_end.setdefault((lo, hi), (side, None))
                elif found is None and self.boxes < self.budget and self._worth_one_sided(blk, i, lo, hi, side):
                    found = self.one_sided(_Ends(lo, hi), None, side, None)
                    if found is None:
                        self._tie_end[(lo, hi)] = (side, self._tie_hint.pop((lo, hi), None))
            if found is None and crossing and self.boxes < self.budget:
                found = self.decide(self.enclose(lo, hi, fast=True), fast=True)
            if found is None and crossing and self.boxes < self.budget and (hi - lo) * ARB_BELOW < 1:
                found = self.decide(self.enclose(lo, hi))
            out.append(found)
        return out

    def _worth_one_sided(self, blk, i, lo, hi, side) -> bool:
        """Whether the anchored proof at the ``side`` end of box i of a block
        may succeed, judged from the block's binary64 bounds: not when a move
        outside the tie set there is not below the move optimal beside it
        (the proof's first test, in arb, would fail the same way).  A search
        filter, which decides nothing: a box it skips is split near the end."""
        c, sgn = (lo, 1) if side == "left" else (hi, -1)
        ser = self.series(c, sgn)
        if ser is None:
            return False
        win = {self.class_of[j] for j in ser.best[-1]}
        if len(win) != 1:
            return False
        r = self.rep(next(iter(win)))
        tied = {self.class_of[j] for j in ser.tie[-1]}
        for j in np.flatnonzero(blk.cands[i]):
            if self.class_of[int(j)] not in tied and not blk.mhi[i, j] < blk.mlo[i, r]:
                self._tie_end[(lo, hi)] = (side, None)
                return False
        return True

    def tie_point(self, c) -> bool:
        """Whether moves of two classes cannot be told apart at c by a point
        enclosure (cached; the binary64 sweep fills the cache for a block's
        ends at once): where the tie-point proof is worth trying."""
        if c not in self.ties:
            self.ties[c] = len({self.class_of[i] for i in self.point(c).candidates}) >= 2
        return self.ties[c]

    def decide(self, rb, fast=False):
        """The records of box ``rb`` by proof 1 or 2 (then 3), or None;
        ``fast``: the box and every enclosure the proofs make are binary64
        ones (no tie-point proof then: it needs arb)."""
        cls = sorted({self.class_of[i] for i in rb.candidates})
        value = _bounds(rb.value)
        if len(cls) == 1:
            names = self.names(self.classes[cls[0]])
            self.proofs.append(("class", rb.a, rb.b, names))
            return [("proved", rb.a, rb.b, names, value)]
        if len(cls) == 2:
            found = self.crossing(rb, cls, value, fast)
            if found is not None:
                return found
        if fast:
            return None
        for side in ("left", "right"):
            found = self.one_sided(rb, cls, side, value)
            if found is not None:
                return found
        return None

    def rep(self, k):
        return self.classes[k][0]

    def crossing(self, rb, cls, value, fast=False):
        """Proof 2 of the module docstring, then the shrinking (binary64
        enclosures first when ``fast``, arb where they stall)."""
        l, r = self.rep(cls[0]), self.rep(cls[1])
        gd = rb.ders[l] - rb.ders[r]
        if not (gd > 0 or gd < 0):
            return None
        pa, pb = self.point(rb.a, fast), self.point(rb.b, fast)
        ga = pa.moves[l] - pa.moves[r]
        gb = pb.moves[l] - pb.moves[r]
        if not ((ga > 0 and gb < 0) or (ga < 0 and gb > 0)):
            return None
        sign = 1 if ga > 0 else -1
        left, right = (cls[0], cls[1]) if sign > 0 else (cls[1], cls[0])
        lo, hi = self.shrink(rb.a, rb.b, l, r, sign, fast=True) if fast else (rb.a, rb.b)
        lo, hi = self.shrink(lo, hi, l, r, sign)
        narrow = hi - lo <= self.width / 2
        point = lo if lo == hi else self.rational_crossing(lo, hi, cls) if narrow else None
        # c may be an end of [lo, hi]: widen so that it lies strictly inside
        # (at the box's ends g is nonzero, so c is not rb.a or rb.b)
        margin = self.width / 8 if narrow else (hi - lo) / 64
        lo, hi = max(rb.a, lo - margin), min(rb.b, hi + margin)
        L, R = self.names(self.classes[left]), self.names(self.classes[right])
        out = []
        if lo > rb.a:
            out.append(("proved", rb.a, lo, L, self.value(rb.a, lo, fast)))
        if narrow:
            self.proofs.append(("crossing", rb.a, rb.b, L, R, lo, hi, point))
            out.append(("change", lo, hi, L, L | R, R, point, self.value(lo, hi, fast)))
        else:  # not narrowed to the width even at the highest precision: the middle claims nothing
            self.proofs.append(("crossing", rb.a, rb.b, L, R, lo, hi, None))
            out.append(("undecided", lo, hi))
        if hi < rb.b:
            out.append(("proved", hi, rb.b, R, self.value(hi, rb.b, fast)))
        return out

    def value(self, a, b, fast=False):
        """Exact bounds of N over [a, b] (one more enclosure)."""
        return _bounds(self.enclose(a, b, fast=fast).value)

    def rational_crossing(self, lo, hi, cls):
        """The one zero c of ``V_l - V_r`` in [lo, hi], when it is the simplest
        rational there (p = 1/3 on the 2 x 2 Chomp board): tried by one exact
        evaluation, which decides; None otherwise.  The difference is strictly
        monotone on the box, so a rational where the two classes tie exactly
        is c."""
        r = simplest_between(lo, hi)
        if r.q > MAX_EXACT_DENOMINATOR:
            return None
        ans = point_solve(self.game, self.channel, r, start=self.root, misere=self.misere)
        both = self.names(self.classes[cls[0]]) | self.names(self.classes[cls[1]])
        return r if ans.optimal == both else None

    def shrink(self, lo, hi, l, r, sign, fast=False):
        """``[lo, hi]`` holding the one zero of ``V_l - V_r`` (positive left of
        it when ``sign > 0``), narrowed to at most ``width`` if it can be.

        A step that does not halve the interval means the balls are as wide
        as the interval: in arb the precision is doubled (up to
        :data:`MAX_PREC` bits) and the step tried again; with ``fast``
        (binary64 enclosures) the narrowing stops there, for arb to go on."""
        start = ctx.prec
        try:
            for _ in range(400):
                if hi - lo <= self.width / 2:
                    break
                rb = self.enclose(lo, hi, fast=fast)
                m = (lo + hi) / 2
                gd = rb.ders[l] - rb.ders[r]
                gm = rb.mids[l] - rb.mids[r]
                nlo, nhi = lo, hi
                if (gd > 0 or gd < 0) and gm.is_finite():
                    newton = arb(m) - gm / gd
                    if newton.is_finite():
                        x, y = ball_bounds(newton)
                        nlo, nhi = max(lo, x), min(hi, y)
                if nhi - nlo > (hi - lo) / 2:
                    if (gm > 0 and sign > 0) or (gm < 0 and sign < 0):
                        nlo = max(nlo, m)
                    elif (gm < 0 and sign > 0) or (gm > 0 and sign < 0):
                        nhi = min(nhi, m)
                if nhi - nlo > (hi - lo) / 2:  # the balls are too wide for this interval
                    if fast or ctx.prec >= MAX_PREC:
                        lo, hi = nlo, nhi
                        break
                    ctx.prec = min(2 * ctx.prec, MAX_PREC)
                lo, hi = nlo, nhi
        finally:
            ctx.prec = start
        return lo, hi

    def one_sided(self, rb, cls, side, value):
        """Proof 3 of the module docstring at the box's ``side`` end."""
        c = rb.a if side == "left" else rb.b
        sgn = 1 if side == "left" else -1
        if rb.a == rb.b or c.q > TIE_DENOMINATOR:
            return None
        if not self.tie_point(c):
            return None  # c is no tie point: bisection settles the box
        ser = self.series(c, sgn)
        if ser is None:
            return None
        S = ser.tie[-1]
        Scls = {self.class_of[i] for i in S}
        win = {self.class_of[i] for i in ser.best[-1]}
        if len(win) != 1:
            return None  # two classes agree to the order kept: not decided here
        (R,) = win
        rb = self.enclose(rb.a, rb.b, ser)
        r = self.rep(R)
        short = []  # per failed coefficient test, its exact coefficient over the ball's radius
        for K in {self.class_of[i] for i in rb.candidates}:
            if K == R:
                continue
            k = self.rep(K)
            if K not in Scls:
                if not (rb.moves[k].upper() < rb.moves[r].lower()):
                    return None
                continue
            j, sign = first_nonzero(ser.moves[r], ser.moves[k])
            if sign <= 0 or j == 0:
                return None
            if j is None:
                return None  # equal to the order kept: not decided here
            coef = rb.taylor[r][j] - rb.taylor[k][j]
            if not (coef > 0 or (j == 1 and (rb.ders[r] - rb.ders[k]) * sgn > 0)):
                rad = float(coef.rad()) if coef.is_finite() else 0.0
                short.append(float(ser.moves[r][j] - ser.moves[k][j]) / rad if rad > 0 else 0.0)
        if short:
            self._tie_hint[(rb.a, rb.b)] = min(short)
            return None
        names = self.names(self.classes[R])
        self.proofs.append(("onesided", rb.a, rb.b, c, side, names, self.names(S)))
        return [("onesided", rb.a, rb.b, c, side, names, self.names(S), _bounds(rb.value))]

    def series(self, c, sgn):
        key = (c, sgn)
        if key not in self.exact:
            self.boxes += 1  # (counted against the budget like a box)
            try:
                self.exact[key] = side_series(self.layout, c, sgn, self.misere)
            except ZeroDivisionError:
                self.exact[key] = None
        return self.exact[key]


class _Ends:
    """A box known by its ends only (what :meth:`_Engine.one_sided` reads
    before it encloses the box)."""

    def __init__(self, a, b):
        self.a, self.b = a, b


def _may_cross(blk, i, l, r, half) -> bool:
    """Whether ``g = V_l - V_r`` is monotone on box i of a block and may change
    sign there, judged from its binary64 bounds: which boxes are worth the arb
    proof of a crossing (a search filter, which decides nothing)."""
    glo, ghi = blk.dlo[i, l] - blk.dhi[i, r], blk.dhi[i, l] - blk.dlo[i, r]
    if not (glo > 0 or ghi < 0):
        return False
    mlo, mhi = blk.mid_lo[i, l] - blk.mid_hi[i, r], blk.mid_hi[i, l] - blk.mid_lo[i, r]
    slope = max(abs(glo), abs(ghi))
    # g stays of one sign on the box when |g(m)| exceeds the largest change over half the box
    return not (mlo > slope * half * 1.001 or mhi < -slope * half * 1.001)


def _exact(x) -> fmpq:
    """A finite float as the exact rational it is (an infinite one as 0 or 1:
    the caller clips to [0, 1])."""
    if not np.isfinite(x):
        return fmpq(-1) if x < 0 else fmpq(2)
    n, d = Fraction(float(x)).as_integer_ratio()
    return fmpq(n, d)


def _bounds(x):
    if not x.is_finite():
        return (fmpq(0), fmpq(1))
    lo, hi = ball_bounds(x)
    return (max(lo, fmpq(0)), min(hi, fmpq(1)))


def _hull(u, v):
    return (min(u[0], v[0]), max(u[1], v[1]))


def _band(records) -> list:
    """:attr:`Map.band` of records sorted by p."""
    return [(r[1], r[2], *r[-1]) for r in records if r[0] in ("proved", "change", "onesided")]


def _assemble(records, width):
    """Records of boxes (sorted) -> the map's intervals, merged."""
    pieces = []
    for r in records:
        kind = r[0]
        if kind == "proved":
            _, lo, hi, s, value = r
            pieces.append(MapInterval("proved", lo, hi, optimal=s, value=value))
        elif kind == "change":
            _, lo, hi, L, at, R, point, value = r
            pieces.append(MapInterval("change", lo, hi, left=L, at=at, right=R, point=point, value=value))
        elif kind == "undecided":
            pieces.append(MapInterval("undecided", r[1], r[2]))
        else:
            _, lo, hi, c, side, R, S, value = r
            if R == S:
                pieces.append(MapInterval("proved", lo, hi, optimal=R, value=value))
                continue
            h = min(width / 2, (hi - lo) / 2)
            if side == "left":
                pieces.append(MapInterval("change", lo, lo + h, at=S, right=R, point=c, value=value))
                pieces.append(MapInterval("proved", lo + h, hi, optimal=R, value=value))
            else:
                pieces.append(MapInterval("proved", lo, hi - h, optimal=R, value=value))
                pieces.append(MapInterval("change", hi - h, hi, left=R, at=S, point=c, value=value))
    out = []
    for iv in pieces:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == iv.kind == "proved" and prev.optimal == iv.optimal:
            out[-1] = MapInterval("proved", prev.lo, iv.hi, optimal=iv.optimal, value=_hull(prev.value, iv.value))
        elif prev is not None and prev.kind == iv.kind == "undecided":
            out[-1] = MapInterval("undecided", prev.lo, iv.hi)
        elif (prev is not None and prev.kind == iv.kind == "change" and prev.point is not None
              and prev.point == iv.point and prev.right is None and iv.left is None):
            out[-1] = MapInterval("change", prev.lo, iv.hi, left=prev.left, at=iv.at, right=iv.right,
                                  point=iv.point, value=_hull(prev.value, iv.value))
        else:
            out.append(iv)
    # a change starting at c right after a proved interval closed at c: the set
    # there is the proved one (and equals the set at c)
    for k in range(1, len(out)):
        iv, prev = out[k], out[k - 1]
        if iv.kind == "change" and iv.left is None and prev.kind == "proved":
            out[k] = MapInterval("change", iv.lo, iv.hi, left=prev.optimal, at=iv.at, right=iv.right,
                                 point=iv.point, value=iv.value)
        if prev.kind == "change" and prev.right is None and iv.kind == "proved":
            out[k - 1] = MapInterval("change", prev.lo, prev.hi, left=prev.left, at=prev.at, right=iv.optimal,
                                     point=prev.point, value=prev.value)
    return out


__all__ = ["build_map", "simplest_between"]
