"""The screening's spread bounds (solvers/spread.py): certified, checked exactly."""

from __future__ import annotations

from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.exact.polys import bernstein_deviation_bound
from symbolic_noise.exact.ratfunc import RationalFunction
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.solvers.piecewise import celldata, cells as cells_module, decide, followers, induction, position
from symbolic_noise.solvers.piecewise import spread as spread_module
from symbolic_noise.solvers.piecewise.spread import MIN_DEGREE, SlopeBounds, _level


def _ratio(num, den, x):
    return num(x) / den(x)


coeffs = st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=40)


@st.composite
def cells(draw):
    """A dyadic cell [lo, hi] inside [0, 1] (widths from 1 down to 2^-30) and t inside."""
    bits = draw(st.integers(0, 30))
    width = fmpq(draw(st.integers(1, 7)), 2 ** (bits + 3))
    lo = fmpq(draw(st.integers(0, 2**20)), 2**20) * (1 - width)
    hi = lo + width
    t = lo + width * fmpq(draw(st.integers(1, 99)), 100)
    return lo, hi, t


def test_slope_bound_when_the_denominator_grows_across_the_block():
    """0 / (1 + 23171 p) on [0, 1/2048] (found by hypothesis): the denominator
    grows twelvefold across the block, and the ball of d(X) * d(X) held 0, so
    the bound of the slope came out NaN and no spread was given; dividing by
    d(X) twice gives the exact bound, 0."""
    num, den = fmpz_poly([0]), fmpz_poly([1, 23171])
    lo, hi = fmpq(0), fmpq(1, 2048)
    assert SlopeBounds().slope("f", num, den, lo, hi) == 0
    model = SlopeBounds().taylor("f", fmpz_poly([1]), den, lo, hi, fmpq(1, 4096))
    assert model is not None and model[3].is_finite()


@settings(max_examples=200, deadline=None)
@given(coeffs, st.lists(st.integers(1, 10**6), min_size=1, max_size=40), cells(), st.lists(st.integers(0, 1000), min_size=1, max_size=8))
def test_spread_bounds_every_point_of_the_cell(num_c, den_c, cell, where):
    """|N(s) - N(t)| <= bound at the ends and at random points of the cell, exactly
    (den has positive coefficients: positive on [0, 1])."""
    num, den = fmpz_poly(num_c), fmpz_poly(den_c)
    lo, hi, t = cell
    if max(num.degree(), den.degree()) < MIN_DEGREE:  # left to the exact bound by design
        assert SlopeBounds().spread("f", num, den, lo, hi, t) is None
    saved, spread_module.MIN_DEGREE = spread_module.MIN_DEGREE, 0  # test the bound itself at every degree
    try:
        bound = SlopeBounds().spread("f", num, den, lo, hi, t)
    finally:
        spread_module.MIN_DEGREE = saved
    if bound is None:  # allowed (the caller falls back), but not for these smooth ratios on tiny cells
        assert hi - lo >= fmpq(1, 2**10)
        return
    value = _ratio(num, den, t)
    for s in [lo, hi] + [lo + (hi - lo) * fmpq(w, 1000) for w in where]:
        assert abs(_ratio(num, den, s) - value) <= bound


def test_spread_is_none_when_the_denominator_vanishes_in_the_cell():
    num, den = fmpz_poly([1] + [0] * MIN_DEGREE + [1]), fmpz_poly([-1, 2])  # a pole at 1/2
    assert SlopeBounds().spread("f", num, den, fmpq(7, 16), fmpq(9, 16), fmpq(1, 2) + fmpq(1, 64)) is None


def test_spread_is_close_to_the_exact_bernstein_bound_on_small_cells():
    """On a small cell of a smooth ratio the mean-value bound is within a small
    factor of the exact Bernstein bound (and never below the true deviation)."""
    num = fmpz_poly([3, -7, 2, 5, -1] + [0] * MIN_DEGREE + [1])  # degree above MIN_DEGREE
    den = fmpz_poly([4, 1, 1])
    lo, hi = fmpq(3, 4), fmpq(3, 4) + fmpq(1, 2**16)
    t = (lo + hi) / 2
    ours = SlopeBounds().spread("f", num, den, lo, hi, t)
    exact = bernstein_deviation_bound(num, den, _ratio(num, den, t), lo, hi)
    true = max(abs(_ratio(num, den, s) - _ratio(num, den, t)) for s in (lo, hi))
    assert true <= ours <= 4 * exact


def test_block_levels_are_wider_than_the_cell():
    for k in range(1, 40):
        w = fmpq(3, 2**k)
        level = _level(w)
        assert fmpq(1, 2**level) >= 8 * w or level == 0


@settings(max_examples=100, deadline=None)
@given(coeffs, st.lists(st.integers(1, 10**6), min_size=1, max_size=40), cells())
def test_deviation_bound_equals_the_bound_of_the_difference(num_c, den_c, cell):
    """The bound of |num/den - v| with v = N(t) (the transforms of num and den
    combined by linearity) is the bound of |R/den| / q for R = q num - p den
    transformed whole (the value-0 path), and it holds at the cell's ends."""
    num, den = fmpz_poly(num_c), fmpz_poly(den_c)
    lo, hi, t = cell
    v = _ratio(num, den, t)
    R = num * v.q - den * v.p
    ours = bernstein_deviation_bound(num, den, v, lo, hi)
    whole = bernstein_deviation_bound(R, den, fmpq(0), lo, hi)
    assert ours == whole / v.q
    assert abs(_ratio(num, den, lo) - v) <= ours and abs(_ratio(num, den, hi) - v) <= ours


def test_solver_spreads_hold_on_every_cell_of_a_solve():
    """Enclosures the solver used while solving Nim 22 (the exact value at t with
    the mean-value bounds of formulas of degree >= MIN_DEGREE, with slope
    bounds of their own or inherited from the cell they were split from; the
    Bernstein range's centre and radius below) hold 1 - N_u at 9 points of the
    cell (exact evaluation)."""
    seen, made, fresh = [], [], []
    original = position._PositionSolver._follower_data
    original_bound, original_slope = spread_module.mean_value_bound, SlopeBounds.slope

    def counted(*args):
        out = original_bound(*args)
        made.append(out is not None)
        return out

    def slope(self, *args):
        fresh.append(1)
        return original_slope(self, *args)

    def record(self, cell, f, own=False):
        out = original(self, cell, f, own)
        seen.append((cell.lo, cell.hi, out[0], f.num, f.den, out[1]))
        return out

    position._PositionSolver._follower_data = record
    spread_module.mean_value_bound = counted
    SlopeBounds.slope = slope
    try:
        induction.solve(Nim(22), "binary")
    finally:
        position._PositionSolver._follower_data = original
        spread_module.mean_value_bound = original_bound
        SlopeBounds.slope = original_slope
    assert sum(made) > 300  # the mean-value path was taken
    # and most cells split by a new breakpoint took their parent's slope bounds
    assert len(fresh) < 0.7 * len(made)  # 283 of 504 on 2026-11-24
    checked = 0
    for lo, hi, e, num, den, s in seen[::5]:
        if s is None:
            continue
        for j in range(9):
            x = lo + (hi - lo) * fmpq(j, 8)
            assert abs(1 - _ratio(num, den, x) - e) <= s
        checked += 1
    assert checked > 100


def test_a_key_reused_for_another_formula_is_not_served_stale_blocks():
    """A key can come to name another formula (the solver keys blocks by the
    id of a formula's numerator, and an evicted formula's id can be reused):
    its blocks are rebuilt."""
    pad = [0] * MIN_DEGREE
    flat = fmpz_poly([1] + pad + [1])  # 1 + p^(MIN_DEGREE + 1): flat near 0.3
    steep = fmpz_poly([0, 1000] + pad + [1])  # 1000 p + ...: steep
    den = fmpz_poly([1])
    lo, hi, t = fmpq(3, 10), fmpq(3, 10) + fmpq(1, 2**12), fmpq(3, 10) + fmpq(1, 2**13)
    sb = SlopeBounds()
    assert sb.spread(("u", 0), flat, den, lo, hi, t) < fmpq(1, 10**6)
    bound = sb.spread(("u", 0), steep, den, lo, hi, t)
    assert abs(steep(hi) - steep(t)) <= bound and abs(steep(lo) - steep(t)) <= bound


def _follower(formula: RationalFunction):
    """A follower on a piece with this formula (its denominator positive there)."""
    f = followers._Follower("u", None)
    f.take((formula, False))
    return f


@settings(max_examples=150, deadline=None)
@given(coeffs, st.lists(st.integers(1, 10**6), min_size=1, max_size=40), cells())
def test_cached_enclosure_is_the_bernstein_range(num_c, den_c, cell):
    """The solver's cached enclosure of 1 - N on a cell is the centre and radius
    of the Bernstein range: it holds at the cell's ends and middle, and its
    radius is at most the exact Bernstein deviation bound from any point of the cell."""
    num, den = fmpz_poly(num_c), fmpz_poly(den_c)
    lo, hi, t = cell
    cells_ = cells_module._Cells(fmpq(0), fmpq(1))
    e, s = cells_.enclosure(_follower(RationalFunction(num, den)), lo, hi)
    assert s <= bernstein_deviation_bound(num, den, _ratio(num, den, t), lo, hi)
    for x in (lo, hi, (lo + hi) / 2, t):
        assert abs(1 - _ratio(num, den, x) - e) <= s


def test_cached_enclosure_is_shared_and_not_served_stale():
    """Two cells on the same dyadic interval share one range; the same key
    naming another formula (lockstep renumbering) gets a range of its own."""
    lo, hi = fmpq(1, 4), fmpq(1, 2)
    den = fmpz_poly([1])
    flat, steep = fmpz_poly([1, 0, 1]), fmpz_poly([0, 1000])
    cells_ = cells_module._Cells(fmpq(0), fmpq(1))
    formula = RationalFunction(flat, den)
    a = cells_.enclosure(_follower(formula), lo, hi)
    assert len(cells_._ranges) == 1
    assert cells_.enclosure(_follower(formula), lo, hi) is a  # served from the cache
    # 1 + p^2 on [1/4, 1/2]: Bernstein coefficients 17/16, 9/8, 5/4
    assert a == (1 - (fmpq(17, 16) + fmpq(5, 4)) / 2, (fmpq(5, 4) - fmpq(17, 16)) / 2)
    b = cells_.enclosure(_follower(RationalFunction(steep, den)), lo, hi)
    assert b == (1 - fmpq(750, 2), fmpq(250, 2))  # 1000 p on [1/4, 1/2]: [250, 500]


def test_screening_never_drops_an_optimal_move():
    """Every move the exact solve finds optimal somewhere on a cell survived that
    cell's screening (Nim 14, Chomp 3 x 4 king): the screen proposes its leader
    by floats but eliminates only by ball bounds."""
    from symbolic_noise.games.rulesets import Chomp

    for game, channel in ((Nim(14), "binary"), (Chomp(3, 4), "king")):
        kept = []
        original_screen = position._PositionSolver._screen
        original_advance = position._PositionSolver._advance

        def screen(self, cell):
            out = original_screen(self, cell)
            kept.append(set(out))
            return out

        def advance(self, x, y, pre=None):
            formula, S, at_x, end = original_advance(self, x, y, pre)
            labels = self.pos.labels
            assert {labels.index(l) for l in S} <= kept[-1]
            return formula, S, at_x, end

        position._PositionSolver._screen = screen
        position._PositionSolver._advance = advance
        saved, decide._PRE_ENOUGH = decide._PRE_ENOUGH, 0  # every cell screened alone (not in a batch)
        # (also where the rows differ in two followers, as in small king
        # positions, which the difference test tells apart without the screen)
        original_narrow = position._PositionSolver._narrow
        position._PositionSolver._narrow = lambda self: False
        try:
            induction.solve(game, channel)
        finally:
            position._PositionSolver._screen = original_screen
            position._PositionSolver._advance = original_advance
            position._PositionSolver._narrow = original_narrow
            decide._PRE_ENOUGH = saved
        assert any(len(k) == 1 for k in kept) and any(len(k) > 1 for k in kept)


def test_the_range_cache_is_bounded_and_evicts_in_order(monkeypatch):
    """With a cap of 50 ranges the cache evicts its oldest (an OrderedDict: a
    plain dict's first key is found past its deletions' holes, quadratic at the
    real cap on Chomp 5 x 6) and the solve is the same."""
    from symbolic_noise.games.rulesets import Chomp

    reference = induction.solve(Chomp(3, 3), "king")
    monkeypatch.setattr(cells_module, "_MAX_RANGES", 50)
    monkeypatch.setattr(decide, "_PRE_ENOUGH", 0)  # every cell screened alone (not in a batch)
    made = []
    original = cells_module._Cells.enclosure

    def enclosure(self, *args):
        out = original(self, *args)
        made.append(len(self._ranges))
        return out

    monkeypatch.setattr(cells_module._Cells, "enclosure", enclosure)
    capped = induction.solve(Chomp(3, 3), "king")
    assert max(made) == 50 and len(made) > 200
    assert all(capped.value(v) == reference.value(v) for v in reference.positions())


def test_an_inherited_slope_bound_that_is_an_outlier_is_replaced():
    """A cell split from a larger one starts with its parent's slope bounds,
    which can be loose by orders of magnitude on a small part of it: nim 30 on
    [27/32, 1] met a spread of 4.8e5 beside 3e-4, and every move survived the
    screen.  After a cell's first screen that left more than one move no
    enclosure from an inherited bound is an outlier, some were replaced, and
    the values are the serial solve's."""
    from symbolic_noise.solvers.schedules.ranges import RangeWorker
    from symbolic_noise.games.channels import get_channel

    lo = fmpq(27, 32)
    replaced = []
    original = position._PositionSolver._screen

    def screen(self, cell):
        inherited = {u for u, got in cell.slope.items() if not got[3]}
        looked = not cell.checked
        out = original(self, cell)
        spreads = [cell.enc.get(f.position, (None, None))[1] for f in self.foll]
        # the look for outliers: once per cell, at its first screen that leaves more than one move
        if looked and len(out) > 1 and None not in spreads:
            assert cell.checked
            spreads.sort()
            limit = spreads[len(spreads) // 2] * celldata._OUTLIER
            for f in self.foll:
                got = cell.slope.get(f.position)
                if got is not None and not got[3]:
                    assert cell.enc[f.position][1] <= limit
                elif f.position in inherited:
                    replaced.append(f.position)
        return out

    position._PositionSolver._screen = screen
    try:
        worker = RangeWorker(Nim(30), get_channel("binary"), lo, fmpq(1))
        for v in range(31):
            worker.solve_position(v)
    finally:
        position._PositionSolver._screen = original
    assert replaced
    serial = induction.solve(Nim(30), "binary")
    assert all(worker.values[v] == serial.value(v).restrict(lo, fmpq(1)) for v in range(31))
