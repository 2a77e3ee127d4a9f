"""RealAlgebraic: exact comparisons, signs, rounding and conversions."""

from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import fmpq, fmpz_poly
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symbolic_noise.exact import polys
from symbolic_noise.exact.algebraic import (
    FactorHints,
    RealAlgebraic,
    minimal_polynomials,
    real_roots,
    roots_between,
    simplest_dyadic,
    single_root_between,
    sorted_exact,
    sorted_exact_by,
)

SQRT2_HALF = lambda: RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)  # noqa: E731


def test_rational_collapses():
    r = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([1, 0, 1]), 0, 1)
    assert not r.is_rational  # not known yet: deciding needs the minimal polynomial
    assert r.minpoly() == fmpz_poly([-1, 3]) and r.rational_value == fmpq(1, 3)
    # also when the interval holds irrational roots of another factor elsewhere
    s = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([-1, 0, 2]), 0, fmpq(1, 2))
    assert s.minpoly() == fmpz_poly([-1, 3]) and s.is_rational


def test_equality_across_different_polynomials():
    a = SQRT2_HALF()
    # the same number as a root of (2x^2 - 1)(x - 5), with another interval
    b = RealAlgebraic.root(fmpz_poly([-1, 0, 2]) * fmpz_poly([-5, 1]), fmpq(1, 2), fmpq(9, 10))
    assert a == b and not a < b and not a > b
    c = RealAlgebraic.root(fmpz_poly([-7, 0, 10]) * fmpz_poly([-1, 1]), fmpq(1, 2), fmpq(9, 10))  # sqrt(0.7)
    assert c > a and a < c and a != c


def test_close_numbers_compare_correctly():
    # sqrt(2)/2 and 0.70710678118654752440 differ at the 21st digit
    a = SQRT2_HALF()
    q = fmpq(70710678118654752440, 10**20)
    assert a > RealAlgebraic.rational(q)
    assert a < RealAlgebraic.rational(q + fmpq(1, 10**20))


def test_sign_of():
    a = SQRT2_HALF()
    assert a.sign_of(fmpz_poly([-1, 0, 2]) * fmpz_poly([3, 1])) == 0
    assert a.sign_of(fmpz_poly([-70710678118654752440, 10**20])) == 1
    assert a.sign_of(fmpz_poly([70710678118654752441, -(10**20)])) == 1


@given(st.integers(2, 50), st.integers(1, 40))
def test_decimal_is_correctly_rounded(n, digits):
    """The n-th root of 1/2 (in (0, 1)) against mpmath at high precision."""
    f = fmpz_poly([-1] + [0] * (n - 1) + [2])
    r = RealAlgebraic.root(f, 0, 1)
    with mpmath.workdps(digits + 40):
        exact = mpmath.root(mpmath.mpf(1) / 2, n)
        expected = mpmath.nstr(exact, digits, strip_zeros=False, min_fixed=-8, max_fixed=30).rstrip(".")
    # mpmath rounds half to even on its own binary value; at these precisions no tie occurs
    assert r.decimal(digits) == expected


def test_to_sympy_round_trip():
    r = real_roots(fmpz_poly([1, -7, 18, -23, 9, 14, -20, 9]), 0, 1)
    for x in r:
        s = x.to_sympy()
        assert isinstance(s, sympy.CRootOf)
        back = RealAlgebraic.from_sympy(s)
        assert back == x
        assert abs(sympy.N(s, 40) - sympy.Float(x.decimal(30), 40)) < sympy.Float("1e-30")


def test_exact_str_parses_with_sympy():
    x = real_roots(fmpz_poly([1, -7, 18, -23, 9, 14, -20, 9]), 0, 1)[-1]
    expr = sympy.sympify(x.exact_str())
    assert abs(sympy.N(expr, 40) - sympy.Float(x.decimal(40), 40)) < sympy.Float("1e-38")


def test_from_sympy_radicals():
    r = RealAlgebraic.from_sympy(sympy.sqrt(3) - 1)
    assert r.decimal(20) == "0.73205080756887729353"
    assert RealAlgebraic.from_sympy(sympy.Rational(3, 7)).rational_value == fmpq(3, 7)


def test_invalid_intervals_are_rejected():
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-1, 0, 1]), -2, 2)  # two roots
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-1, 0, 1]), 2, 3)  # none


def test_sorting_and_short_interval():
    xs = real_roots(fmpz_poly([-1, 0, 2]) * fmpz_poly([-1, 3]) * fmpz_poly([-2, 0, 5]), 0, 1)
    assert [x.decimal(4) for x in sorted_exact(reversed(xs))] == ["0.3333", "0.6325", "0.7071"]
    lo, hi = xs[-1].short_interval()
    assert RealAlgebraic.rational(lo) < xs[-1] < RealAlgebraic.rational(hi)
    assert hi - lo <= Fraction(2, 10**4)


def test_not_hashable():
    with pytest.raises(TypeError):
        hash(SQRT2_HALF())


def test_short_interval_of_a_rational_root_given_by_a_higher_degree_polynomial():
    """Chomp 3x4 through the 'all' channel has breakpoints 1/11, 1/10, 1/9, ...
    found as roots of quartics; 1/10 is a short decimal, and printing it looped
    for ever looking for decimal end points that are not roots."""
    from flint import fmpq

    for m, quartic in [(10, [14, -148, 75, 49, 10]), (11, [14, -162, 83, 54, 11])]:
        x = RealAlgebraic.root(fmpz_poly(quartic), fmpq(1, m) - fmpq(1, 1000), fmpq(1, m) + fmpq(1, 1000))
        assert x.short_interval() == (Fraction(1, m), Fraction(1, m))
        assert x.is_rational and x.rational_value == fmpq(1, m)


def _plain_simplest_dyadic(u, v):
    e = 0
    while True:
        t = fmpq((u * 2**e).floor() + 1, 2**e)
        if t < v:
            return t
        e += 1


@given(st.fractions(), st.fractions(min_value=Fraction(1, 10**15), max_value=100))
def test_simplest_dyadic_is_the_plain_search(u, gap):
    u = fmpq(u.numerator, u.denominator)
    v = u + fmpq(gap.numerator, gap.denominator)
    assert simplest_dyadic(u, v) == _plain_simplest_dyadic(u, v)


def test_sorted_exact_by_close_and_equal_roots():
    # roots of different polynomials closer than their first isolating intervals,
    # a number given twice (rational and as a root of a quadratic), sorted exactly
    r2 = real_roots(fmpz_poly([-2, 0, 1]), 0, 2)[0]  # sqrt(2)
    near = real_roots(fmpz_poly([-141421356237, 10**11]), 0, 2)[0]  # 1.41421356237 < sqrt(2)
    half_a = RealAlgebraic.rational("1/2")
    half_b = real_roots(fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1]), 0, 1)[0]  # 1/2 again
    third = real_roots(fmpz_poly([-1, 0, 9]) * fmpz_poly([-7, 0, 1]), 0, 1)[0]  # 1/3
    items = [(r2, "r2"), (half_a, "a"), (near, "near"), (third, "third"), (half_b, "b")]
    out = [name for _, name in sorted_exact_by(items, lambda it: it[0])]
    assert out[0] == "third" and set(out[1:3]) == {"a", "b"} and out[3:] == ["near", "r2"]


# --------------------------------------------------------------------------- one root between x and y


_SQRT_HALF = (Fraction(7071, 10000), Fraction(7072, 10000))  # holds 1/sqrt(2), the root of 2 p^2 - 1


@settings(max_examples=300)
@given(
    st.lists(st.fractions(min_value=Fraction(1, 20), max_value=Fraction(19, 20), max_denominator=20), min_size=1, max_size=3, unique=True),
    st.booleans(),
    st.integers(0, 3),
    st.fractions(min_value=Fraction(1, 8), max_value=Fraction(7, 8), max_denominator=16),
    st.fractions(min_value=Fraction(1, 8), max_value=Fraction(7, 8), max_denominator=16),
    st.data(),
)
def test_single_root_between_agrees_with_isolating_every_root(rational_roots, irrational, k, u, w, data):
    """Against the full isolation and exact comparisons (roots_between).
    f has the given rational roots (and 1/sqrt(2) when ``irrational``); (lo, hi) reaches
    from between root k - 1 and root k to between root k and root k + 1, so
    that Descartes' bound is usually 1; x and y are drawn from rationals,
    another polynomial's root and the roots of f itself (the case the
    solver meets most: the crossing that ended the last piece)."""
    roots = sorted(set(rational_roots) - {Fraction(7071, 10000)})
    f = fmpz_poly([1])
    for r in roots:
        f *= fmpz_poly([-r.numerator, r.denominator])
    ends = [(r, r) for r in roots]
    if irrational:
        f *= fmpz_poly([-1, 0, 2])
        ends = sorted(ends + [_SQRT_HALF])
    k = min(k, len(ends) - 1)
    below = ends[k - 1][1] if k > 0 else Fraction(0)
    above = ends[k + 1][0] if k + 1 < len(ends) else Fraction(1)
    lo_, hi_ = ends[k][0] - (ends[k][0] - below) * u, ends[k][1] + (above - ends[k][1]) * w
    lo, hi = fmpq(lo_.numerator, lo_.denominator), fmpq(hi_.numerator, hi_.denominator)
    s, v, s_lo = polys.bernstein_test(f, lo, hi)
    assert s == 0 and v >= 1  # a root inside
    if v != 1:
        return
    candidates = [RealAlgebraic.rational(lo + (hi - lo) * fmpq(j, 7)) for j in range(8)]
    candidates += real_roots(f, lo, hi) + real_roots(fmpz_poly([-3, 0, 5]), lo, hi)
    points = []
    for c in sorted_exact(candidates):
        if not points or points[-1].compare(c) != 0:
            points.append(c)
    i = data.draw(st.integers(0, len(points) - 2))
    j = data.draw(st.integers(i + 1, len(points) - 1))
    x, y = points[i], points[j]
    got = single_root_between(f, x, y, lo, hi, s_lo)
    if got is None:  # undecided: the solver isolates instead
        return
    inside, at_x = got
    want_inside, want_at_x = roots_between(f, x, y, lo, hi)  # every root isolated and compared
    assert at_x == want_at_x
    assert len(inside) == len(want_inside)
    for r, want in zip(inside, want_inside):
        assert r.compare(want) == 0


def test_single_root_between_places_the_root_at_x_without_refining():
    """x a root of f (f = 3 (2 p^2 - 1)): the answer is 'at x', and x's
    isolating interval is left as it was."""
    f = fmpz_poly([-1, 0, 2])
    x = RealAlgebraic.root(f, fmpq(7, 10), fmpq(71, 100))
    before = (x.lo, x.hi)
    y = RealAlgebraic.rational(fmpq(3, 4))
    assert single_root_between(f * 3, x, y, fmpq(1, 2), fmpq(1), -1) == ([], True)
    assert (x.lo, x.hi) == before
    # the root below x, and above y
    assert single_root_between(f, RealAlgebraic.rational(fmpq(3, 4)), RealAlgebraic.rational(fmpq(7, 8)), fmpq(1, 2), fmpq(1), -1) == ([], False)
    assert single_root_between(f, RealAlgebraic.rational(fmpq(5, 8)), RealAlgebraic.rational(fmpq(11, 16)), fmpq(1, 2), fmpq(1), -1) == ([], False)


def test_single_root_between_at_the_ends_of_isolating_intervals():
    """The one root of f in (lo, hi) exactly at an end of x's or y's isolating
    interval is placed without refining: 1/2, the root of 2p - 1, below an
    irrational x isolated by (1/2, 1) and above one isolated by (0, 1/2);
    inside (x, y) for y isolated by (1/2, 1), and then found as the exact
    rational 1/2.  A common factor of f and x's polynomial whose root lies
    outside x's interval (p - 3) says nothing about x: undecided (None) or
    the answer of the full isolation, never 'at x'."""
    f = fmpz_poly([-1, 2])  # 2p - 1, s_lo = -1 on (0, 1)
    half = fmpq(1, 2)
    above = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), half, 1)  # 0.7071, isolated by (1/2, 1)
    below = RealAlgebraic.root(fmpz_poly([-1, 0, 8]), 0, half)  # 0.3535, isolated by (0, 1/2)
    assert (above.lo, below.hi) == (half, half)
    assert single_root_between(f, above, RealAlgebraic.rational(fmpq(9, 10)), fmpq(0), fmpq(1), -1) == ([], False)
    assert single_root_between(f, RealAlgebraic.rational(fmpq(1, 10)), below, fmpq(0), fmpq(1), -1) == ([], False)
    inside, at_x = single_root_between(f, RealAlgebraic.rational(fmpq(1, 10)), above, fmpq(0), fmpq(1), -1)
    assert not at_x and len(inside) == 1 and inside[0].is_rational and inside[0].rational_value == half
    g = fmpz_poly([-1, 0, 2]) * fmpz_poly([-3, 1])  # roots 0.7071 and 3
    z = RealAlgebraic.root(fmpz_poly([-3, 0, 5]) * fmpz_poly([-3, 1]), fmpq(7, 10), fmpq(4, 5))  # sqrt(3/5) = 0.7746
    y = RealAlgebraic.rational(fmpq(9, 10))
    got = single_root_between(g, z, y, half, fmpq(1), -1)
    assert got is None or got == roots_between(g, z, y, half, fmpq(1))
    assert roots_between(g, z, y, half, fmpq(1)) == ([], False)


def test_single_root_between_leaves_a_root_next_to_x_to_the_isolation():
    """The root of f (0.707) and x (1/sqrt(2) = 0.70710...) share x's isolating
    interval and x is not a root of f: undecided, and the solver's D test
    falls back to isolating (which finds the root left of x)."""
    from symbolic_noise.solvers.piecewise.cells import _roots_between

    f = fmpz_poly([-707, 1000])
    x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), fmpq(7, 10), fmpq(71, 100))
    y = RealAlgebraic.rational(fmpq(3, 4))
    assert polys.bernstein_test(f, fmpq(1, 2), fmpq(1)) == (0, 1, -1)
    assert single_root_between(f, x, y, fmpq(1, 2), fmpq(1), -1) is None
    assert _roots_between(f, x, y, fmpq(1, 2), fmpq(1)) == ([], False)
    # the same root right of x: inside (x, y)
    g = fmpz_poly([-7072, 10000])
    inside, at_x = _roots_between(g, x, y, fmpq(1, 2), fmpq(1))
    assert [r.rational_value for r in inside] == [fmpq(7072, 10000)] and not at_x


# small irreducible factors that the defining polynomials of a solve's breakpoints share
_SMALL = [
    fmpz_poly([-1, 2]), fmpz_poly([-1, 1]), fmpz_poly([-1, 3]), fmpz_poly([-2, 0, 1]), fmpz_poly([-1, -1, 1]),
    fmpz_poly([1, 0, 1]), fmpz_poly([-1, -1, 0, 1]), fmpz_poly([1, -2, 5, -4, 1]), fmpz_poly([-1, 4, -10, 10, -5, 1]),
]


def _roots_of_products(data, n):
    """The real roots in [-3, 3] of ``n`` random products of small factors and
    a random one, as RealAlgebraic numbers made from the whole product."""
    out = []
    for _ in range(n):
        poly = fmpz_poly(data.draw(st.lists(st.integers(-9, 9), min_size=2, max_size=8)))
        if poly.degree() < 1:
            poly = fmpz_poly([-3, 0, 0, 1])
        for f in data.draw(st.lists(st.sampled_from(_SMALL), max_size=5)):
            poly *= f
        out += real_roots(poly, -3, 3)
    return out


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_factor_hints_give_the_minimal_polynomial_of_a_full_factorization(data):
    points = _roots_of_products(data, 4)
    hints = FactorHints()
    hinted = [RealAlgebraic(x._poly, x._lo, x._hi, _trusted=True) for x in points]
    minimal_polynomials(hinted, hints)
    for x, y in zip(points, hinted):
        m = x.minpoly()  # the whole defining polynomial factored
        assert y.minpoly() == m
        assert x == y and y.is_rational == x.is_rational
        # an independent check: m is irreducible, primitive, has a positive
        # leading coefficient and vanishes at the number
        _, factors = m.factor()
        assert len(factors) == 1 and factors[0][1] == 1 and m.coeffs()[-1] > 0 and polys.primitive(m) == m
        assert y.sign_of(m) == 0
    assert len(hints) <= FactorHints.CAPACITY


def test_factor_hints_find_a_rational_root_among_the_known_factors():
    hints = FactorHints()
    RealAlgebraic.root(fmpz_poly([-1, 2]) * fmpz_poly([-2, 0, 1]), 1, 2).minpoly(hints)  # sqrt 2: learns 2x - 1
    x = RealAlgebraic.root(fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1]) * fmpz_poly([1, 0, 1]), 0, 1)
    assert not x.is_rational
    assert x.minpoly(hints) == fmpz_poly([-1, 2]) and x.rational_value == fmpq(1, 2)
    assert hints.divided == 1  # found by the hint, the rest not factored


def test_factor_hints_keep_at_most_their_capacity():
    hints = FactorHints()
    hints.learn([fmpz_poly([-k, 1]) for k in range(FactorHints.CAPACITY + 10)])
    hints.learn([fmpz_poly([-1, 0, 0, 0, 0, 0, 0, 0, 0, 1])])  # degree 9: not kept
    assert len(hints) == FactorHints.CAPACITY
    # x - 3 went first (the oldest), x - 200 is kept
    x = RealAlgebraic.root(fmpz_poly([-3, 1]) * fmpz_poly([-2, 0, 1]), 1, 2)
    assert x.minpoly(hints) == fmpz_poly([-2, 0, 1]) and hints.divided == 0
    # (it learnt x - 3 and x^2 - 2 again; both divide out of y's polynomial,
    # x^2 - 2 is its minimal polynomial)
    y = RealAlgebraic.root(fmpz_poly([-200, 1]) * fmpz_poly([-2, 0, 1]), 1, 2)
    assert y.minpoly(hints) == fmpz_poly([-2, 0, 1]) and hints.divided == 2


# --------------------------------------------------------------------------- laws against exact rational evaluation
#
# Rational numbers hidden as roots of a polynomial of higher degree (with a
# factor x^2 + 1, so nothing collapses to the rational form at construction):
# the order, equality and signs are known exactly from the Fractions, and the
# isolating intervals of neighbouring roots may overlap.


def _product(qs, extra=(1, 0, 1)):
    f = fmpz_poly(list(extra))
    for q in qs:
        f *= fmpz_poly([-q.numerator, q.denominator])
    return f


def _fq(q):
    return fmpq(q.numerator, q.denominator)


@st.composite
def hidden_rationals(draw):
    """Distinct rationals q_0 < ... < q_n in (0, 1) and, for each, the root of
    their product polynomial in an interval reaching a random part of the way
    towards each neighbour (so neighbouring intervals usually overlap)."""
    qs = sorted(draw(st.lists(st.fractions(Fraction(1, 12), Fraction(11, 12), max_denominator=12),
                              min_size=2, max_size=4, unique=True)))
    f = _product(qs)
    fractions = st.fractions(Fraction(1, 20), Fraction(19, 20), max_denominator=20)
    numbers = []
    for i, q in enumerate(qs):
        below = qs[i - 1] if i else Fraction(0)
        above = qs[i + 1] if i + 1 < len(qs) else Fraction(1)
        lo = q - (q - below) * draw(fractions)
        hi = q + (above - q) * draw(fractions)
        numbers.append((q, lo, hi))
    return f, numbers


def _sign(x):
    return (x > 0) - (x < 0)


@settings(max_examples=25, deadline=None)
@given(hidden_rationals(), st.data())
def test_compare_is_the_order_of_the_rationals(case, data):
    """compare is the exact order: distinct roots of one polynomial with
    overlapping isolating intervals never compare equal (counting ``>= 1``
    roots of the gcd in the union of the intervals instead of exactly one made
    3/10 == 6/10), and the comparison operators agree with it."""
    f, numbers = case
    for qa, la, ha in numbers:
        for qb, lb, hb in numbers:
            x = RealAlgebraic.root(f, _fq(la), _fq(ha))
            y = RealAlgebraic.root(f, _fq(lb), _fq(hb))
            want = _sign(qa - qb)
            assert x.compare(y) == want and y.compare(x) == -want
            assert (x == y, x < y, x <= y, x > y, x >= y) == (want == 0, want < 0, want <= 0, want > 0, want >= 0)
            # the same number written as a root of another polynomial, and as a rational
            z = RealAlgebraic.root(_product([qb], extra=(-2, 0, 1)), _fq(lb), _fq(hb))
            assert x.compare(z) == want and x.compare(_fq(qb)) == want
    # the intervals still isolate the same numbers after all that refining
    t = data.draw(st.sampled_from(numbers))
    x = RealAlgebraic.root(f, _fq(t[1]), _fq(t[2]))
    for _ in range(data.draw(st.integers(0, 6))):
        x.refine()
    assert x.lo <= _fq(t[0]) <= x.hi
    assert x.is_rational or f(x.lo) * f(x.hi) < 0


def test_distinct_roots_of_one_polynomial_with_overlapping_intervals():
    """The planted bug of the issue: 3/10 and 6/10, roots of one polynomial,
    isolated by (1/5, 9/20) and (2/5, 7/10), which overlap."""
    f = fmpz_poly([-3, 10]) * fmpz_poly([-6, 10]) * fmpz_poly([1, 0, 1])
    x, y = RealAlgebraic.root(f, fmpq(1, 5), fmpq(9, 20)), RealAlgebraic.root(f, fmpq(2, 5), fmpq(7, 10))
    assert x != y and x < y and x.compare(y) == -1
    # and two irrational ones: -1/sqrt(2) and 1/sqrt(2), intervals overlapping on (-1/10, 1/10)
    g = fmpz_poly([-1, 0, 2])
    a, b = RealAlgebraic.root(g, fmpq(-4, 5), fmpq(1, 10)), RealAlgebraic.root(g, fmpq(-1, 10), fmpq(4, 5))
    assert a != b and a < b and b.compare(a) == 1


@settings(max_examples=25, deadline=None)
@given(hidden_rationals(), st.lists(st.integers(-6, 6), min_size=1, max_size=5), st.data())
def test_sign_of_agrees_with_exact_evaluation(case, coeffs, data):
    """sign_of(g) at a hidden rational q is the sign of g(q) computed in
    Fractions, for random g, for g sharing a factor with the defining
    polynomial (vanishing at q or elsewhere), and for constants."""
    f, numbers = case
    q, lo, hi = data.draw(st.sampled_from(numbers))
    other = data.draw(st.sampled_from(numbers))[0]

    def at(g, t):
        return sum(Fraction(int(c)) * t**i for i, c in enumerate(g.coeffs()))

    candidates = [
        fmpz_poly(coeffs),
        fmpz_poly(coeffs) * fmpz_poly([-q.numerator, q.denominator]),  # vanishes at q
        fmpz_poly(coeffs) * fmpz_poly([-other.numerator, other.denominator]) + fmpz_poly([1]) * (other == q),
        fmpz_poly([-other.numerator, other.denominator]) * fmpz_poly([1, 0, 1]),  # a common factor, zero at other
        fmpz_poly([data.draw(st.integers(-3, 3))]),
    ]
    for g in candidates:
        x = RealAlgebraic.root(f, _fq(lo), _fq(hi))
        assert x.sign_of(g) == _sign(at(g, q)), (g, q)
    rational = RealAlgebraic.rational(_fq(q))
    assert rational.sign_of(candidates[0]) == _sign(at(candidates[0], q))


def test_sign_of_a_common_factor_that_does_not_vanish_here():
    """1/sqrt(2) defined by (2x^2 - 1)(x - 5): g = (x - 5)(x + 1) shares the
    factor x - 5 with it, which vanishes at 5, not here: g < 0 at 0.707."""
    x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]) * fmpz_poly([-5, 1]), 0, 1)
    assert x.sign_of(fmpz_poly([-5, 1]) * fmpz_poly([1, 1])) == -1
    assert x.sign_of(fmpz_poly([-1, 3]) * fmpz_poly([-1, 0, 2])) == 0
    assert x.sign_of(fmpz_poly([7])) == 1 and x.sign_of(fmpz_poly([-2])) == -1 and x.sign_of(fmpz_poly([])) == 0
    # 1/3 given by (3x - 1)(x^2 + 1) with an interval: sharing the linear factor
    third = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([1, 0, 1]), 0, 1)
    assert third.sign_of(fmpz_poly([-1, 3]) * fmpz_poly([-2, 1])) == 0
    assert RealAlgebraic.rational("1/3").sign_of(fmpz_poly([-1, 2])) == -1


def test_refine_to_keeps_the_root_and_reaches_the_width():
    """The 20-digit neighbours of 1/sqrt(2) (test_close_numbers_compare_correctly)
    and sqrt(3) - 1 (the root of x^2 + 2x - 2 in (0, 1))."""
    x = SQRT2_HALF()
    x.refine_to(fmpq(1, 10**20))
    assert x.hi - x.lo <= fmpq(1, 10**20)
    assert x.lo < fmpq(70710678118654752441, 10**20) and x.hi > fmpq(70710678118654752440, 10**20)
    assert 2 * x.lo**2 < 1 < 2 * x.hi**2
    y = RealAlgebraic.root(fmpz_poly([-2, 2, 1]), 0, 1)
    width = fmpq(1, 2**70)
    y.refine_to(width)
    assert y.hi - y.lo <= width and y.lo**2 + 2 * y.lo < 2 < y.hi**2 + 2 * y.hi
    # a width the interval already has changes nothing
    before = y.interval
    y.refine_to(y.hi - y.lo)
    assert y.interval == before
    # a rational root met exactly at a midpoint collapses: 1/2 of (2x - 1)(x^2 + 1) in (0, 1)
    h = RealAlgebraic.root(fmpz_poly([-1, 2]) * fmpz_poly([1, 0, 1]), 0, 1)
    h.refine_to(fmpq(1, 1000))
    assert h.rational_value == fmpq(1, 2)


def test_narrow_to_checks_the_new_interval():
    x = RealAlgebraic.root(fmpz_poly([1, 0, -2]), 0, 1)  # 1/sqrt(2), the polynomial positive at 0
    x.narrow_to(0, "3/4")  # the same lower end is allowed
    x.narrow_to("7/10", "3/4")
    assert x.interval == (fmpq(7, 10), fmpq(3, 4)) and x == SQRT2_HALF()
    x.narrow_to("7/10", "3/4")  # the whole interval again
    with pytest.raises(ValueError):
        x.narrow_to("7/10", "7/10")
    with pytest.raises(ValueError):
        x.narrow_to("71/100", "3/4")  # does not hold the root
    with pytest.raises(ValueError):
        x.narrow_to("1/2", "3/4")  # not inside
    # an end point that is the root itself: 1/2 of (2x - 1)(x^2 - 3)
    h = RealAlgebraic.root(fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1]), 0, 1)
    for lo, hi in [("1/4", "1/2"), ("1/2", "3/4")]:
        with pytest.raises(ValueError):
            h.narrow_to(lo, hi)
    r = RealAlgebraic.rational("1/3")
    r.narrow_to(0, 1)  # nothing to do for a rational number
    assert r.interval == (fmpq(1, 3), fmpq(1, 3))


def test_adopted_minimal_polynomial_and_root_index_are_checked():
    x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]) * fmpz_poly([-5, 1]), 0, 1)
    for bad in [fmpz_poly([-5, 1]), fmpz_poly([1, 0, -2]), fmpz_poly([-2, 0, 4]), fmpz_poly([3])]:
        with pytest.raises(ValueError):
            x.adopt_minpoly(bad)  # not a factor changing sign here / not primitive positive
    with pytest.raises(ValueError):
        x.adopt_root_index(1)  # the minimal polynomial first
    x.adopt_minpoly(fmpz_poly([-1, 0, 2]))
    assert x.knows_minpoly and x.poly == fmpz_poly([-1, 0, 2]) and x == SQRT2_HALF()
    for bad in [-1, 2]:
        with pytest.raises(ValueError):
            x.adopt_root_index(bad)
    x.adopt_root_index(1)
    assert x.root_index() == 1 and x.exact_str() == "CRootOf(2*x**2 - 1, 1)"
    x.adopt_minpoly(fmpz_poly([-7, 1]))  # known already: ignored
    assert x.minpoly() == fmpz_poly([-1, 0, 2])
    # a linear minimal polynomial collapses the number to its rational form
    t = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([-2, 0, 1]), 0, 1)
    t.adopt_minpoly(fmpz_poly([-1, 3]))
    assert t.rational_value == fmpq(1, 3) and t.root_index() == 0


def test_rational_forms_and_conversions():
    """A rational number hidden in a cubic: its index, exact form, SymPy value,
    decimals and mpmath value are those of 1/3; the negative root of 2x^2 - 1
    is CRootOf(2x^2 - 1, 0) = -0.70710678118654752440..."""
    third = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([1, 0, 1]), 0, 1)
    assert third.root_index() == 0
    third = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([1, 0, 1]), 0, 1)
    assert third.exact_str() == "1/3" and third.to_sympy() == sympy.Rational(1, 3)
    assert RealAlgebraic.rational("-22/7").to_sympy() == sympy.Rational(-22, 7)
    assert RealAlgebraic.rational("-22/7").exact_str() == "-22/7"
    assert RealAlgebraic.rational("2/3").decimal() == "0.666666666666667"
    assert RealAlgebraic.rational("2/3").decimal(3) == "0.667"
    neg = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), -1, 0)
    assert neg.exact_str() == "CRootOf(2*x**2 - 1, 0)" and neg.root_index() == 0
    assert neg.to_sympy() == sympy.CRootOf(2 * sympy.Symbol("x") ** 2 - 1, 0)
    with mpmath.workdps(40):
        want = -mpmath.sqrt(2) / 2
        assert abs(neg.to_mpmath(120) - want) < mpmath.mpf(2) ** -118
        assert abs(RealAlgebraic.rational("-3/7").to_mpmath(100) + mpmath.mpf(3) / 7) < mpmath.mpf(2) ** -98
    assert float(neg) == -0.7071067811865476 == -(2**0.5) / 2
    assert neg.decimal(20) == "-0.70710678118654752440"
    assert str(neg) == "-0.707106781186548..." and str(RealAlgebraic.rational("1/4")) == "1/4"
    assert RealAlgebraic.coerce("1/4").rational_value == fmpq(1, 4) and RealAlgebraic.coerce(neg) is neg
    assert neg <= neg and neg >= neg and not neg < neg


def test_short_interval_ends():
    """Decimal ends around the number: -1/sqrt(2) gets the mirror image of
    1/sqrt(2)'s interval (the polynomial is even and the bisections mirror
    each other); sqrt(0.50013) = 0.7071986... lies in the last 10^-5 before
    0.7072, which the refinement keeps as an end, so [0.7071, 0.7072] (found
    by hand) must not grow past it."""
    neg = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), -1, 0)
    pos = SQRT2_HALF().short_interval()
    assert neg.short_interval() == (-pos[1], -pos[0])
    assert pos[0] < Fraction(70710678, 10**8) < pos[1] and pos[1] - pos[0] <= Fraction(3, 10**4)
    assert all(10**4 % t.denominator == 0 for t in pos)
    z = RealAlgebraic.root(fmpz_poly([-50013, 0, 100000]), fmpq(7071, 10000), fmpq(7072, 10000))
    assert z.short_interval() == (Fraction(7071, 10000), Fraction(7072, 10000))
    # two roots 10^-5 apart need a fifth decimal: 0.70711 and 0.70712 in (0.7, 0.71)
    f = fmpz_poly([-70711, 100000]) * fmpz_poly([-70712, 100000]) * fmpz_poly([1, 0, 1])
    a = RealAlgebraic.root(f, fmpq(7, 10), fmpq(707115, 1000000))
    assert a.short_interval() == (Fraction(70711, 100000), Fraction(70711, 100000))


def test_short_interval_takes_the_fewest_decimals_that_isolate():
    """c +- sqrt(2)/10^6 with c = 0.70715 (the roots of one irreducible
    quadratic, 2.8e-6 apart) share the 4-decimal cell [0.7071, 0.7072]: the
    interval needs exactly 5 decimals, [0.70715, 0.70716] for the upper root.
    sqrt(2)/10^6, whose isolating interval starts at 0, gets [0, 10^-4]: 0 is
    a decimal end (its conjugate -sqrt(2)/10^6 lies outside)."""
    # (10^6 x - 707150)^2 = 2
    f = fmpz_poly([-707150, 10**6]) ** 2 - 2
    x = RealAlgebraic.root(f, fmpq(70715, 10**5), fmpq(7072, 10**4))
    assert x.short_interval() == (Fraction(70715, 10**5), Fraction(70716, 10**5))
    assert x.short_interval(5) == (Fraction(70715, 10**5), Fraction(70716, 10**5))
    assert x.short_interval(6) == (Fraction(707151, 10**6), Fraction(707152, 10**6))
    tiny = RealAlgebraic.root(fmpz_poly([-2, 0, 10**12]), 0, 1)
    assert tiny.lo == 0 and tiny.short_interval() == (Fraction(0), Fraction(1, 10**4))


def test_simplest_dyadic_and_hull_against_their_definitions():
    """simplest_dyadic(u, v) is the dyadic of least denominator in the open
    (u, v) (the plain search of test_simplest_dyadic_is_the_plain_search);
    dyadic_hull gives dyadic ends holding x and y within 1/16 of their gap
    (plus one step), inside [a, b]."""
    with pytest.raises(ValueError):
        simplest_dyadic(fmpq(1, 2), fmpq(1, 2))
    assert simplest_dyadic(fmpq(1, 2), fmpq(1)) == fmpq(3, 4)  # not the end 1
    assert simplest_dyadic(fmpq(0), fmpq(1)) == fmpq(1, 2)
    assert simplest_dyadic(fmpq(1, 3), fmpq(1, 3) + fmpq(1, 10**6)) == _plain_simplest_dyadic(fmpq(1, 3), fmpq(1, 3) + fmpq(1, 10**6))
    assert simplest_dyadic(fmpq(5, 8), fmpq(7, 8)) == fmpq(3, 4)
    assert simplest_dyadic(fmpq(-7, 8), fmpq(-5, 8)) == fmpq(-3, 4)
    from symbolic_noise.exact.algebraic import dyadic_hull, rational_between

    x, y = RealAlgebraic.rational("1/3"), SQRT2_HALF()
    lo, hi = dyadic_hull(x, y)
    assert lo == fmpq(1, 3) and y < RealAlgebraic.rational(hi)  # 1/3 is short: kept
    # 1/sqrt(3) and 1/sqrt(2): both ends rounded outwards to multiples of
    # 2^-m with 2^-m <= (gap between the separated intervals) / 16
    x, y = RealAlgebraic.root(fmpz_poly([-1, 0, 3]), 0, 1), SQRT2_HALF()
    lo, hi = dyadic_hull(x, y)
    gap = y.lo - x.hi
    assert lo <= x.lo and hi >= y.hi and x.lo - lo <= gap / 16 and hi - y.hi <= gap / 16
    for end in (lo, hi):
        assert int(end.q) & (int(end.q) - 1) == 0  # dyadic
    lo2, hi2 = dyadic_hull(x, y, "1/2", "18/25")
    assert lo2 == max(lo, fmpq(1, 2)) and hi2 == min(hi, fmpq(18, 25))
    assert dyadic_hull(x, y, "-1", "2") == (lo, hi)
    # short rational ends are kept: 1/4 and 3/4
    assert dyadic_hull(RealAlgebraic.rational("1/4"), RealAlgebraic.rational("3/4")) == (fmpq(1, 4), fmpq(3, 4))
    # a long rational end is rounded outwards to a dyadic one
    # (97 > 32 = 2^m for the gap 94/97: 16 / 2^m <= 94/97 needs m = 5)
    lo3, hi3 = dyadic_hull(RealAlgebraic.rational("1/97"), RealAlgebraic.rational("96/97"))
    assert (lo3, hi3) == (fmpq(0), fmpq(1))
    # gap 40/97: 2^m >= 16 * 97/40 = 38.8 needs m = 6; floor(640/97) = 6, ceil(3200/97) = 33
    lo4, hi4 = dyadic_hull(RealAlgebraic.rational("10/97"), RealAlgebraic.rational("50/97"))
    assert (lo4, hi4) == (fmpq(6, 64), fmpq(33, 64))
    # between: strictly inside the gap, in its first eighth with near_left
    t = rational_between(x, SQRT2_HALF(), near_left=True)
    assert fmpq(1, 3) < t and RealAlgebraic.rational(t) < SQRT2_HALF()
    z = SQRT2_HALF()
    t2 = rational_between(RealAlgebraic.rational("1/3"), z, near_left=True)
    assert t2 - fmpq(1, 3) <= (z.lo - fmpq(1, 3)) / 8
    assert rational_between(RealAlgebraic.rational("1/3"), z) == fmpq(3, 8)  # z.lo = 1/2 now: the simplest dyadic in (1/3, 1/2)


def test_factor_hints_keep_only_what_they_promise():
    """Factors of degree 1..8 with a leading coefficient that is a unit modulo
    the hints' prime are kept; constants, degree 9 and a leading coefficient
    2^61 - 1 are not; minimal_polynomials fills the hints it is given; a hint
    that does not divide is skipped, not the end of the search."""
    hints = FactorHints()
    hints.learn([fmpz_poly([1]), fmpz_poly([-1] + [0] * 8 + [1]), fmpz_poly([-1, 2**61 - 1])])
    assert len(hints) == 0
    hints.learn([fmpz_poly([-3] + [0] * 7 + [1])])  # x^8 - 3: degree 8 is kept
    assert len(hints) == 1
    mine = FactorHints()
    minimal_polynomials([RealAlgebraic.root(fmpz_poly([-2, 0, 1]) * fmpz_poly([-1, 3]), 1, 2)], mine)
    assert len(mine) == 2
    hints = FactorHints()
    hints.learn([fmpz_poly([-3, 1]), fmpz_poly([-1, 2])])  # x - 3 first: it does not divide
    x = RealAlgebraic.root(fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1]), 0, 1)
    assert x.minpoly(hints) == fmpz_poly([-1, 2]) and hints.divided == 1


def test_from_sympy_text_numbers_and_close_conjugates():
    """Text and Python numbers are exact rationals; 1 + sqrt(2)/2000 has a
    conjugate 1 - sqrt(2)/2000 only 0.0014 away, and is told apart from it."""
    assert RealAlgebraic.from_sympy("3/7").rational_value == fmpq(3, 7)
    assert RealAlgebraic.from_sympy(Fraction(-2, 9)).rational_value == fmpq(-2, 9)
    x = RealAlgebraic.from_sympy(1 + sympy.sqrt(2) / 2000)
    with mpmath.workdps(40):
        want = mpmath.nstr(1 + mpmath.sqrt(2) / 2000, 25, strip_zeros=False)
    assert x.decimal(25) == want
    y = RealAlgebraic.from_sympy(1 - sympy.sqrt(2) / 2000)
    assert y < x and y.minpoly() == x.minpoly()


def test_from_sympy_tells_apart_roots_closer_than_its_first_approximation():
    """Mignotte's x^3 - 2(a x - 1)^2 with a = 10^20 (irreducible: Eisenstein at
    2) has two roots about 1.4e-50 apart around 1/a, closer than a 50-digit
    approximation can tell: f(1/a) = a^-3 > 0 and f(1/a -+ 10^-49) ~ -2e-58 < 0
    put one in (1/a - 10^-49, 1/a) and the other in (1/a, 1/a + 10^-49)."""
    x = sympy.Symbol("x")
    a = 10**20
    p = sympy.Poly(x**3 - 2 * (a * x - 1) ** 2, x)
    f = fmpz_poly([int(c) for c in reversed(p.all_coeffs())])
    assert f(fmpq(1, a)) > 0 and f(fmpq(1, a) - fmpq(1, 10**49)) < 0 and f(fmpq(1, a) + fmpq(1, 10**49)) < 0
    r0, r1, r2 = (RealAlgebraic.from_sympy(sympy.CRootOf(p, k)) for k in range(3))
    assert fmpq(1, a) - fmpq(1, 10**49) < r0 < fmpq(1, a) < r1 < fmpq(1, a) + fmpq(1, 10**49) < r2
    assert [r.root_index() for r in (r0, r1, r2)] == [0, 1, 2]
    assert all(r.sign_of(f) == 0 for r in (r0, r1, r2))


def test_separate_and_refine_negative_numbers():
    """-1/sqrt(2) < -1/sqrt(3), both first isolated by (-1, 0): a rational
    strictly between them, and refine_to on negative numbers reaches the width;
    1/sqrt(2) as the root of 1 - 2x^2 (positive below the root) too."""
    from symbolic_noise.exact.algebraic import rational_between

    a = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), -1, 0)
    b = RealAlgebraic.root(fmpz_poly([-1, 0, 3]), -1, 0)
    t = rational_between(a, b)
    assert 2 * t * t < 1 < 3 * t * t and t < 0
    a.refine_to(fmpq(1, 10**12))
    assert a.hi - a.lo <= fmpq(1, 10**12) and 2 * a.lo**2 > 1 > 2 * a.hi**2
    c = RealAlgebraic.root(fmpz_poly([1, 0, -2]), 0, 1)
    c.refine_to(fmpq(1, 10**12))
    assert c.hi - c.lo <= fmpq(1, 10**12) and 2 * c.lo**2 < 1 < 2 * c.hi**2


def _is_nearest_double(x: RealAlgebraic, f: float) -> bool:
    """``f`` is a double nearest to ``x``: ``x`` lies between the midpoints of
    ``f`` and its two neighbours (exact comparisons with the doubles as fmpq),
    and on a midpoint ``f`` has the even last bit."""
    import math

    down, up = math.nextafter(f, -math.inf), math.nextafter(f, math.inf)
    q = lambda d: fmpq(*Fraction(d).as_integer_ratio())  # noqa: E731  (a double is an exact rational)
    lo, hi = (q(down) + q(f)) / 2, (q(f) + q(up)) / 2
    if x.compare(lo) < 0 or x.compare(hi) > 0:
        return False
    even = int(math.frexp(f)[0] * 2**53) % 2 == 0  # the last bit of a normal double's significand
    return (x.compare(lo) != 0 and x.compare(hi) != 0) or even


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 10**6).filter(lambda n: int(n**0.5) ** 2 != n and (int(n**0.5) + 1) ** 2 != n),
    e=st.integers(-1060, 1000),
    sign_=st.sampled_from([1, -1]),
)
def test_float_is_the_nearest_double_of_square_roots_at_every_scale(n, e, sign_):
    """float(+-sqrt(n) 2^e) is the nearest double, from the subnormals to
    near the largest double, checked exactly against its neighbours."""
    import math

    # the root of 4^-e x^2 - n (e < 0) or x^2 - n 4^e (e >= 0) in +-(2^e, n 2^e)
    f = fmpz_poly([-n, 0, 4 ** (-e)]) if e < 0 else fmpz_poly([-n * 4**e, 0, 1])
    two_e = fmpq(2) ** e if e >= 0 else fmpq(1, 2 ** (-e))
    x = RealAlgebraic.root(f, two_e, n * two_e) if sign_ > 0 else RealAlgebraic.root(f, -n * two_e, -two_e)
    got = float(x)
    assert math.isfinite(got) and _is_nearest_double(x, got)


def test_float_rounds_near_ties_and_rationals_correctly():
    """Ties and near-ties: 1 + 2^-53 (a tie) rounds to 1.0 (even), 1 + 3 2^-53
    to the even 1 + 2^-51; 1 + 2^-53 -+ sqrt(2) 2^-200 (irrational, off the tie
    by far less than 2^-60) round down and up; 1/3 and 10^-320 (subnormal)."""
    import math

    assert float(RealAlgebraic.rational(fmpq(2**53 + 1, 2**53))) == 1.0
    assert float(RealAlgebraic.rational(fmpq(2**53 + 3, 2**53))) == 1 + 2.0**-51
    assert float(RealAlgebraic.rational(fmpq(1, 3))) == 1 / 3
    tiny = RealAlgebraic.rational(fmpq(1, 10**320))
    assert _is_nearest_double(tiny, float(tiny)) and float(tiny) > 0
    K = 2**200 + 2**147  # 2^200 (1 + 2^-53)
    f = fmpz_poly([-K, 2**200]) ** 2 - 2  # roots 1 + 2^-53 -+ sqrt(2) 2^-200
    tie = fmpq(K, 2**200)
    # isolating intervals that straddle the tie: their midpoints fall on either side
    below = RealAlgebraic.root(f, tie - fmpq(1, 4), tie + fmpq(1, 2**201))
    above = RealAlgebraic.root(f, tie - fmpq(1, 2**201), tie + fmpq(1, 3))
    assert float(below) == 1.0 and float(above) == math.nextafter(1.0, 2.0)
    assert _is_nearest_double(below, 1.0) and _is_nearest_double(above, math.nextafter(1.0, 2.0))


@settings(max_examples=150, deadline=None)
@given(
    u=st.fractions(min_value=-3, max_value=3, max_denominator=10**6),
    gap=st.fractions(min_value=Fraction(1, 10**6), max_value=4, max_denominator=10**6),
    irr_x=st.booleans(),
    irr_y=st.booleans(),
)
@example(u=Fraction(1, 10**6), gap=Fraction(497, 1000), irr_x=False, irr_y=False)  # a gap of exactly 1/2: m = 5
@example(u=Fraction(1, 3), gap=Fraction(1, 3) - Fraction(3, 1000), irr_x=False, irr_y=False)  # 1/3, 2/3 kept
@example(u=Fraction(1, 7), gap=Fraction(1, 2), irr_x=True, irr_y=True)
def test_dyadic_hull_is_its_definition(u, gap, irr_x, irr_y):
    """dyadic_hull(x, y) against its definition, with x and y rational or
    irrational (sqrt(2)/k): with w the gap between x's and y's intervals (once
    separated), m is the least m >= 4 with 16 / 2^m <= w, and each end is the
    rational x (or y) itself when its denominator is at most 2^m, else x's
    interval end rounded out to a multiple of 2^-m."""
    import math

    from symbolic_noise.exact.algebraic import dyadic_hull

    def number(v: Fraction, irrational: bool) -> RealAlgebraic:
        if not irrational:
            return RealAlgebraic.rational(fmpq(v.numerator, v.denominator))
        # c + sqrt(2)/k near v, c = p/q: the root of (k q x - k p)^2 - 2 q^2 in (c, c + 2/k)
        k, c = 1000, fmpq(v.numerator, v.denominator) - fmpq(1414, 1000 * 1000)
        f = fmpz_poly([-k * int(c.p), k * int(c.q)]) ** 2 - 2 * int(c.q) ** 2
        return RealAlgebraic.root(f, c, c + fmpq(2, k))

    x = number(u, irr_x)
    y = number(u + gap + Fraction(3, 1000), irr_y)
    assert x.compare(y) < 0
    lo, hi = dyadic_hull(x, y)
    w = y.lo - x.hi
    m = 4
    while fmpq(16, 2**m) > w:
        m += 1
    scale = 2**m
    want_lo = x.lo if x.is_rational and x.lo.q <= scale else fmpq(math.floor(Fraction(int((x.lo * scale).p), int((x.lo * scale).q))), scale)
    want_hi = y.hi if y.is_rational and y.hi.q <= scale else fmpq(math.ceil(Fraction(int((y.hi * scale).p), int((y.hi * scale).q))), scale)
    assert (lo, hi) == (want_lo, want_hi)
    assert x.compare(lo) >= 0 and y.compare(hi) <= 0



@given(st.integers(-40, 40), st.integers(1, 40), st.integers(1, 9), st.integers(-3, 3))
def test_decide_rational_and_refine_newton_agree_with_the_minimal_polynomial(a, b, c, e):
    """Every real root of (b x - a)(c x^2 + e x - 2): deciding rationality
    without factoring says what the minimal polynomial says, and Newton's
    refinement keeps the root and reaches its width."""
    f = polys.sqf_part(fmpz_poly([-a, b]) * fmpz_poly([-2, e, c]))
    bound = polys.root_bound(f)
    _, intervals, g = polys.isolate_real_roots(f, -bound, bound)  # (g: f without the roots met exactly)
    for lo, hi in intervals:
        x, y = RealAlgebraic.root(g, lo, hi), RealAlgebraic.root(g, lo, hi)
        assert x.decide_rational() == (y.minpoly().degree() == 1) == x.is_rational
        if not x.is_rational:
            x.refine_newton(fmpq(1, 2**100))
            assert x.hi - x.lo <= fmpq(1, 2**100) and x == y
