"""Integer polynomial layer: Descartes/Bernstein tests and VCA root isolation,
checked against SymPy's independent real-root isolation."""

from fractions import Fraction

import sympy
from flint import fmpq, fmpz_poly
from hypothesis import example, given
from hypothesis import strategies as st

from symbolic_noise import polys
from symbolic_noise.errors import ExpressionError

import pytest

x = sympy.Symbol("x")

small_coeffs = st.lists(st.integers(-20, 20), min_size=2, max_size=9).filter(lambda c: c[-1] != 0)
rationals = st.fractions(min_value=-3, max_value=3, max_denominator=64)


def sympy_roots_in(coeffs, lo, hi):
    poly = sympy.Poly(list(reversed(coeffs)), x)
    return sorted({r for r in sympy.real_roots(poly) if lo <= r <= hi}, key=lambda r: sympy.N(r, 50))


@given(small_coeffs, rationals, rationals)
def test_isolation_matches_sympy(coeffs, a, b):
    lo, hi = min(a, b), max(a, b)
    f = fmpz_poly(coeffs)
    sq = polys.sqf_part(f)
    rationals_, intervals, g = polys.isolate_real_roots(sq, fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator))
    expected = sympy_roots_in(coeffs, sympy.Rational(lo), sympy.Rational(hi))
    assert len(rationals_) + len(intervals) == len(expected)
    for r in rationals_:
        assert f(r) == 0
    for a_, b_ in intervals:
        assert a_ < b_ and g(a_) * g(b_) < 0
        inside = [r for r in expected if sympy.Rational(int(a_.p), int(a_.q)) < r < sympy.Rational(int(b_.p), int(b_.q))]
        assert len(inside) == 1
    # the intervals are disjoint and sorted
    pts = sorted([(r, r) for r in rationals_] + intervals)
    for (a1, b1), (a2, b2) in zip(pts, pts[1:]):
        assert b1 <= a2


@given(small_coeffs, rationals, rationals)
def test_bernstein_sign_is_sound(coeffs, a, b):
    """A decided Bernstein test is never wrong: checked at many rational points."""
    if a == b:
        return
    lo, hi = min(a, b), max(a, b)
    f = fmpz_poly(coeffs)
    s = polys.bernstein_sign(f, fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator))
    if s:
        for i in range(1, 40):
            t = lo + (hi - lo) * Fraction(i, 40)
            assert polys.sign(f(fmpq(t.numerator, t.denominator))) == s


@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=12))
@example([3, 2, -4])
@example([-3, 1, 1])
def test_dominant_constant_term_proves_the_sign_on_the_closed_unit_interval(coeffs):
    """When the constant term outweighs the other terms (what bernstein_sign tries
    before the Bernstein coefficients), the polynomial has no root in [0, 1]
    (SymPy's roots) and that sign at 0."""
    s = polys._dominant_sign(coeffs)
    if s:
        assert polys.sign(coeffs[0]) == s
        trimmed = list(coeffs)
        while trimmed and trimmed[-1] == 0:
            trimmed.pop()
        if len(trimmed) > 1:
            assert sympy_roots_in(trimmed, 0, 1) == []


def test_the_expansion_decides_away_from_roots_and_the_bernstein_coefficients_next_to_one():
    # 4 - p - p^2 >= 2 on [0, 1]: the constant term decides; and near a root it does not
    assert polys._dominant_sign(polys._local_scaled(fmpz_poly([4, -1, -1]), fmpq(0), fmpq(1), 2)) == 1
    f = fmpz_poly([-1, 0, 2])
    assert polys._dominant_sign(polys._local_scaled(f, fmpq(0), fmpq(1), 2)) == 0
    assert polys.bernstein_sign(f, fmpq(71, 100), 1) == 1


def test_bernstein_decides_away_from_roots():
    f = fmpz_poly([-1, 0, 2])  # roots +-1/sqrt(2)
    assert polys.bernstein_sign(f, 0, fmpq(7, 10)) == -1
    assert polys.bernstein_sign(f, fmpq(71, 100), 1) == 1
    assert polys.bernstein_sign(f, 0, 1) == 0


def test_root_at_end_point_is_allowed():
    # (2p - 1)(p + 1) > 0 on (1/2, 1] although it vanishes at 1/2
    f = fmpz_poly([-1, 2]) * fmpz_poly([1, 1])
    assert polys.bernstein_sign(f, fmpq(1, 2), 1) == 1


def test_multiple_roots_and_rational_midpoints():
    # roots 1/2 (a bisection midpoint) and 1/4, 3/4 (later midpoints), 1/3 (not dyadic)
    f = fmpz_poly([-1, 2]) * fmpz_poly([-1, 4]) * fmpz_poly([-3, 4]) * fmpz_poly([-1, 3])
    rats, ints, g = polys.isolate_real_roots(f, 0, 1)
    # 1/2 and 1/4 are hit as bisection points; 1/3 and 3/4 are each alone in an interval
    assert rats == [fmpq(1, 4), fmpq(1, 2)]
    assert len(ints) == 2 and g == fmpz_poly([-1, 3]) * fmpz_poly([-3, 4])
    assert [fmpq(1, 3), fmpq(3, 4)] == [r for r in (fmpq(1, 3), fmpq(3, 4)) for a, b in ints if a < r < b]


def test_count_real_roots():
    assert polys.count_real_roots(fmpz_poly([-2, 0, 1]) ** 3, -2, 2) == 2
    assert polys.count_real_roots(fmpz_poly([1, 0, 1]), -10, 10) == 0


def test_as_fmpq_refuses_floats_and_text():
    """The exact core reads no text: numbers from text go through the formula grammar."""
    from symbolic_noise.exact.formula import exact_number

    assert exact_number("0.125") == fmpq(1, 8) == exact_number(fmpq(1, 8))
    with pytest.raises(ExpressionError, match="reads no text"):
        polys.as_fmpq("0.125")
    assert polys.as_fmpq(Fraction(2, 6)) == fmpq(1, 3)
    assert polys.as_fmpq(sympy.Rational(3, 9)) == fmpq(1, 3)
    with pytest.raises(ExpressionError):
        polys.as_fmpq(0.5)
    with pytest.raises(ExpressionError):
        polys.as_fmpq("one half")


def test_root_bound():
    f = fmpz_poly([-6, 11, -6, 1])  # roots 1, 2, 3
    assert polys.root_bound(f) > 3


@given(small_coeffs)
@example([3, 12, 12])  # 3 (2x + 1)^2: a double root
def test_root_bound_is_a_power_of_two_above_every_root(coeffs):
    f = fmpz_poly(coeffs)
    b = polys.root_bound(f)
    assert b > 0 and b & (b - 1) == 0
    # FLINT's certified complex roots (balls; multiple roots allowed): each is surely inside |z| < b
    assert all(abs(r) < int(b) for r, _ in f.complex_roots())


cut_roots = st.lists(st.sampled_from([Fraction(-1), Fraction(0), Fraction(1), Fraction(-1, 3), Fraction(1, 7),
                                      Fraction(-9, 8), Fraction(65, 64), Fraction(-1, 1024), Fraction(5, 2)]),
                     min_size=1, max_size=6, unique=True)


@given(cut_roots, st.lists(st.integers(-9, 9), min_size=1, max_size=4).filter(lambda c: c[-1] != 0), rationals, rationals)
def test_isolation_across_the_cuts(roots, extra, a, b):
    """Roots on and around -1, 0, 1 (where a wide interval is split first): each
    found once, the count equal to SymPy's, the rational ones exactly."""
    lo, hi = min(a, b), max(a, b)
    f = fmpz_poly(extra)
    for r in roots:
        f *= polys.linear_factor(fmpq(r.numerator, r.denominator))
    sq = polys.sqf_part(f)
    rats, intervals, g = polys.isolate_real_roots(sq, fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator))
    expected = sympy_roots_in([int(c) for c in f.coeffs()], sympy.Rational(lo), sympy.Rational(hi))
    assert len(rats) + len(intervals) == len(expected)
    assert len(set(rats)) == len(rats) and rats == sorted(rats)
    assert {Fraction(int(r.p), int(r.q)) for r in rats} >= {r for r in roots if lo <= r <= hi and (r in (-1, 0, 1) or r in (lo, hi))}
    for a_, b_ in intervals:
        assert g(a_) * g(b_) < 0
    assert polys.count_real_roots(f, fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator)) == len(expected)


@given(small_coeffs, rationals, rationals)
def test_bernstein_test_counts_roots_when_it_does_not_decide(coeffs, a, b):
    """bernstein_test agrees with bernstein_sign, and when it does not decide,
    its count v == 1 means exactly one root in the open (lo, hi), a simple one,
    with f going from the sign s_lo at lo to the opposite sign at hi."""
    if a == b:
        return
    lo, hi = min(a, b), max(a, b)
    f = fmpz_poly(coeffs)
    flo, fhi = fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator)
    s, v, s_lo = polys.bernstein_test(f, flo, fhi)
    assert s == polys.bernstein_sign(f, flo, fhi)
    if s:
        assert (v, s_lo) == (0, 0)
        return
    if f(flo) == 0 or f(fhi) == 0:
        assert v == -1
        return
    assert s_lo == polys.sign(f(flo)) != 0
    roots = sympy_roots_in(coeffs, sympy.Rational(lo), sympy.Rational(hi))
    # Descartes' rule: v is the number of roots in (lo, hi) counted with
    # multiplicity, or exceeds it by an even number
    with_multiplicity = [r for r in sympy.real_roots(sympy.Poly(list(reversed(coeffs)), x)) if lo < r < hi]
    assert v >= len(with_multiplicity) and (v - len(with_multiplicity)) % 2 == 0
    if v == 1:
        assert len(roots) == 1
        assert polys.sign(f(fhi)) == -s_lo
        # a simple root: the derivative does not vanish there
        assert sympy.Poly(list(reversed(coeffs)), x).diff(x).eval(roots[0]) != 0


@given(small_coeffs, rationals, st.integers(0, 80))
def test_sign_at_is_the_exact_sign(coeffs, t, bits):
    """The ball evaluation's sign is the exact one, also at long dyadic points
    next to a root (where the value is tiny)."""
    f = fmpz_poly(coeffs)
    ft = fmpq(t.numerator, t.denominator)
    assert polys.sign_at(f, ft) == polys.sign(f(ft))
    # a long dyadic point next to a root of f, if f has one in [-3, 3]
    for r in polys.isolate_real_roots(polys.sqf_part(f), -3, 3)[1][:1]:
        a, b = r
        m = fmpq(int(((a + b) / 2 * 2**bits).floor()), 2**bits)
        assert polys.sign_at(f, m) == polys.sign(f(m))


@given(st.lists(st.sampled_from([Fraction(-300), Fraction(-7, 2), Fraction(-1), Fraction(-1, 3), Fraction(0), Fraction(1, 2),
                                 Fraction(1), Fraction(9, 8), Fraction(40), Fraction(1000)]), min_size=0, max_size=5, unique=True),
       st.lists(st.integers(-9, 9), min_size=1, max_size=5).filter(lambda c: c[-1] != 0),
       st.sampled_from([-2, -1, 0, 1, 2]), st.sampled_from([-2, -1, 0, 1, 2]))
def test_count_real_roots_over_wide_intervals(roots, extra, left, right):
    """count_real_roots over intervals reaching past the root bound on either
    side (counted through x = -1/y and x = 1/y on (0, 1)) and ending at or
    near -1, 0, 1: SymPy's count."""
    f = fmpz_poly(extra)
    for r in roots:
        f *= polys.linear_factor(fmpq(r.numerator, r.denominator))
    bound = int(polys.root_bound(polys.sqf_part(f)))
    ends = {-2: -4 * bound, -1: -bound, 0: 0, 1: bound, 2: 4 * bound}
    lo, hi = ends[min(left, right)], ends[max(left, right)]
    for a, b in ((lo, hi), (lo, -1), (lo, 1), (-1, hi), (1, hi)):
        if a <= b:
            expected = sympy_roots_in([int(c) for c in f.coeffs()], sympy.Rational(a), sympy.Rational(b))
            assert polys.count_real_roots(f, a, b) == len(expected), (a, b)


@given(st.fractions(min_value=-50, max_value=50, max_denominator=60), st.fractions(min_value=0, max_value=3, max_denominator=400))
def test_simplest_rational_has_the_least_denominator(a, gap):
    b = a + gap
    r = polys.simplest_rational(fmpq(a.numerator, a.denominator), fmpq(b.numerator, b.denominator))
    assert a <= r <= b
    # no rational of a smaller denominator lies in [a, b]
    assert all(-(-a * q // 1) > b * q for q in range(1, r.denominator))


def test_newton_bracket_proposes_around_the_root():
    """A proposal of the root of 2x^2 - 1 in (0, 1), of x^3 - 2 in (1, 2) and of
    a degree-60 product in a narrow interval; signs confirm each."""
    cases = [(fmpz_poly([-1, 0, 2]), fmpq(0), fmpq(1)), (fmpz_poly([-2, 0, 0, 1]), fmpq(1), fmpq(2)),
             (fmpz_poly([-1, 0, 2]) * fmpz_poly([3, 1, 0, 5]) ** 20, fmpq(7, 10), fmpq(71, 100))]
    for f, lo, hi in cases:
        width = fmpq(1, 2**90)
        a, b = polys.newton_bracket(f, lo, hi, width)
        assert lo < a < b < hi and b - a <= width
        assert polys.sign_at(f, a) * polys.sign_at(f, b) < 0
