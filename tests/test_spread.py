"""The screening's spread bounds (solvers/spread.py): certified, checked exactly."""

from __future__ import annotations

from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.exact.polys import bernstein_deviation_bound
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.solvers import solver as solver_module
from symbolic_noise.solvers import spread as spread_module
from symbolic_noise.solvers.spread import MIN_DEGREE, SlopeBounds, _level


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
    """Spreads the solver used while solving Nim 22 (the mean-value bounds of
    formulas of degree >= MIN_DEGREE and the exact Bernstein ones below) bound
    the follower's true deviation at 9 points of the cell (exact evaluation)."""
    seen, made = [], []
    original = solver_module._PositionSolver._follower_data
    original_spread = SlopeBounds.spread

    def counted(self, *args):
        out = original_spread(self, *args)
        made.append(out is not None)
        return out

    def record(self, cell, f):
        out = original(self, cell, f)
        seen.append((cell.lo, cell.hi, cell.t, f.num, f.den, out[1]))
        return out

    solver_module._PositionSolver._follower_data = record
    SlopeBounds.spread = counted
    try:
        solver_module.solve(Nim(22), "binary")
    finally:
        solver_module._PositionSolver._follower_data = original
        SlopeBounds.spread = original_spread
    assert sum(made) > 300  # the mean-value path was taken
    checked = 0
    for lo, hi, t, num, den, s in seen[::5]:
        if s is None:
            continue
        value = _ratio(num, den, t)
        for j in range(9):
            x = lo + (hi - lo) * fmpq(j, 8)
            assert abs(_ratio(num, den, x) - value) <= s
        checked += 1
    assert checked > 100


def test_a_key_reused_for_another_formula_is_not_served_stale_blocks():
    """Lockstep workers renumber their pieces after a hand-over, so the same key
    (position, piece index) can name another formula: its blocks are rebuilt."""
    pad = [0] * MIN_DEGREE
    flat = fmpz_poly([1] + pad + [1])  # 1 + p^(MIN_DEGREE + 1): flat near 0.3
    steep = fmpz_poly([0, 1000] + pad + [1])  # 1000 p + ...: steep
    den = fmpz_poly([1])
    lo, hi, t = fmpq(3, 10), fmpq(3, 10) + fmpq(1, 2**12), fmpq(3, 10) + fmpq(1, 2**13)
    sb = SlopeBounds()
    assert sb.spread(("u", 0), flat, den, lo, hi, t) < fmpq(1, 10**6)
    bound = sb.spread(("u", 0), steep, den, lo, hi, t)
    assert abs(steep(hi) - steep(t)) <= bound and abs(steep(lo) - steep(t)) <= bound
