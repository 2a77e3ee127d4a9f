"""RealAlgebraic at the edges: end points that are roots, intervals that
touch, rational numbers hidden in irrational forms, and numbers beyond the
doubles.  Each expected value is computed independently (SymPy, exact
rational arithmetic), never read back from the code under test."""

import math
import sys
from fractions import Fraction

import pytest
import sympy
from flint import fmpq, fmpz_poly

from symbolic_noise.exact import algebraic, polys
from symbolic_noise.exact.algebraic import (
    FactorHints,
    RealAlgebraic,
    dyadic_hull,
    roots_between,
    single_root_between,
    sorted_exact,
    sorted_exact_by,
)

X = sympy.Symbol("x")


def _sympy_roots(f: fmpz_poly) -> list:
    """The real roots of ``f`` as SymPy numbers (CRootOf or Rational), increasing."""
    return sympy.Poly(list(reversed([int(c) for c in f.coeffs()])), X).real_roots()


# --------------------------------------------------------------------------- construction


def test_the_constructor_refuses_what_is_not_an_isolating_interval():
    """An interval isolates a root of f only if lo < hi, neither end is a root
    and exactly one root lies inside; f must have degree >= 1."""
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([5]), 0, 1)  # a constant has no root
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 2, 1)  # lo > hi (sqrt(2) lies between them)
    # x^2 - 1 has the root 1 at an end and no other in (1, 3) or (-3, -1)
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-1, 0, 1]), 1, 3)
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-1, 0, 1]), -3, -1)
    # a point interval [q, q] is the number q exactly when f(q) = 0: 3^2 - 2*4 = 1 != 0
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-8, 0, 1]), 3, 3)
    with pytest.raises(ValueError):
        RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, 1)  # 1 - 2 = -1


def test_a_point_interval_and_a_linear_polynomial_give_the_rational_form():
    """1/3 is a root of (3x - 1)(x^2 + 1): [1/3, 1/3] is the rational 1/3,
    whose defining polynomial is 3x - 1 and whose lower sign is 0; a linear
    polynomial on an isolating interval is its root, 1/3 too."""
    f = fmpz_poly([-1, 3]) * fmpz_poly([1, 0, 1])
    assert f(fmpq(1, 3)) == 0
    for x in (RealAlgebraic.root(f, "1/3", "1/3"), RealAlgebraic.root(fmpz_poly([-1, 3]), 0, 1),
              RealAlgebraic.root(fmpz_poly([2, -6]), 0, 1), RealAlgebraic.rational("1/3")):
        assert x.is_rational and x.rational_value == fmpq(1, 3)
        assert x.poly == fmpz_poly([-1, 3]) and x.minpoly() == fmpz_poly([-1, 3])
        assert x.lower_sign == 0


def test_a_number_that_collapses_to_a_rational_has_lower_sign_0():
    """1/2 as the root of (2x - 1)(x^2 - 3) in (0, 1): not known rational
    until its minimal polynomial (2x - 1) or a bisection meets it; then its
    form is 2x - 1 on [1/2, 1/2] and the lower sign 0."""
    f = fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1])
    x = RealAlgebraic.root(f, 0, 1)
    assert not x.is_rational and x.lower_sign == polys.sign(f(fmpq(0)))
    x.minpoly()
    assert x.rational_value == fmpq(1, 2) and x.lower_sign == 0
    y = RealAlgebraic.root(f, 0, 1)
    y.refine()  # the midpoint 1/2 is the root
    assert y.rational_value == fmpq(1, 2) and y.lower_sign == 0 and y.poly == fmpz_poly([-1, 2])


@pytest.mark.parametrize("slo", [-1, None])
def test_a_trusted_interval_with_its_lower_sign_refines_to_the_root(slo):
    """sqrt(2) from the isolating interval (1, 2) of x^2 - 2 and the sign of
    x^2 - 2 at 1 (-1), as a cache entry gives them: the bisections follow the
    sign and reach sqrt(2) = 1.41421356237309504880..."""
    x = RealAlgebraic._from_isolation(fmpz_poly([-2, 0, 1]), fmpq(1), fmpq(2), slo)
    assert x.lower_sign == -1
    assert x.decimal(21) == str(sympy.N(sympy.sqrt(2), 21)) == "1.41421356237309504880"
    lo, hi = x.interval
    assert lo * lo < 2 < hi * hi


def test_repr_evaluates_to_the_same_number():
    """repr() is evaluable: it gives back the same number (rational and irrational)."""
    space = {"RealAlgebraic": RealAlgebraic, "fmpz_poly": fmpz_poly}
    for x in (RealAlgebraic.rational("-22/7"), RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)):
        y = eval(repr(x), space)
        assert y == x and y.interval == x.interval and y.poly == x.poly
    assert repr(RealAlgebraic.rational("-22/7")) == "RealAlgebraic.rational('-22/7')"
    assert "[-1, 0, 2]" in repr(RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1))
    assert RealAlgebraic.rational("1/3")._repr_latex_() == "$\\tfrac{1}{3}$"


def test_narrow_to_refuses_an_empty_or_reversed_interval_and_keeps_the_old_one():
    """[7/10, 7/10] and [3/4, 7/10] hold no interval around 1/sqrt(2) = 0.7071...:
    refused, and the isolating interval (0, 1) is unchanged."""
    x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
    for lo, hi in (("7/10", "7/10"), ("3/4", "7/10")):
        with pytest.raises(ValueError):
            x.narrow_to(lo, hi)
        assert x.interval == (fmpq(0), fmpq(1))
    assert 2 * fmpq(7, 10) ** 2 < 1 < 2 * fmpq(3, 4) ** 2
    x.narrow_to("7/10", "3/4")
    assert x.interval == (fmpq(7, 10), fmpq(3, 4))


# --------------------------------------------------------------------------- compare, sign_of


def test_compare_with_a_rational_at_an_end_of_the_interval_is_minus_1_0_or_1():
    """compare answers exactly -1, 0 or 1: 1/sqrt(2) on (0, 1) against 0 and
    1 (the ends of its interval), 7/10 and 3/4, and equal to itself as a
    root of another polynomial."""
    cases = [(0, 1), (1, -1), (fmpq(7, 10), 1), (fmpq(3, 4), -1), (-5, 1), (5, -1)]
    for q, want in cases:
        x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
        # independently: 1/sqrt(2) > q  <=>  q < 0 or 2 q^2 < 1
        assert want == (1 if (q < 0 or 2 * fmpq(q) ** 2 < 1) else -1)
        assert x.compare(q) == want and x.compare(RealAlgebraic.rational(q)) == want
        assert RealAlgebraic.rational(q).compare(x) == -want


def test_compare_of_numbers_whose_intervals_touch_at_an_end():
    """sqrt(2) on (1, 3/2) and sqrt(3) on (3/2, 2) share the end 3/2:
    sqrt(2) < 3/2 < sqrt(3), decided at once, either way round."""
    for _ in range(2):
        a = RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, fmpq(3, 2))
        b = RealAlgebraic.root(fmpz_poly([-3, 0, 1]), fmpq(3, 2), 2)
        assert a.compare(b) == -1 and b.compare(a) == 1
        assert a < b and b > a and a != b


def test_compare_of_numbers_closer_than_a_thousand_bisections():
    """sqrt(2) < sqrt(2 + 2^-3000): the two differ by about 2^-3002, so telling
    them apart from (1, 2) takes about 3000 bisections of each interval, which
    the comparison must do without growing the stack."""
    e = fmpq(1, 2**3000)
    c = 2 + e
    a = RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, 2)
    b = RealAlgebraic.root(fmpz_poly([-int(c.p), 0, int(c.q)]), 1, 2)
    assert 2 < c  # so sqrt(2) < sqrt(c)
    assert a.compare(b) == -1 and b.compare(a) == 1
    assert a.hi <= b.lo


def test_sign_of_when_the_number_turns_out_rational_while_refining():
    """1/2 as the root of (2x - 1)(x^2 - 3) in (0, 1): the sign of 4x - 1 (root
    1/4 inside the interval) needs a bisection, whose midpoint 1/2 is the
    number; 4 * 1/2 - 1 = 1 > 0, and 2x - 1 vanishes there."""
    f = fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1])
    assert RealAlgebraic.root(f, 0, 1).sign_of(fmpz_poly([-1, 4])) == 1
    assert RealAlgebraic.root(f, 0, 1).sign_of(fmpz_poly([-3, 4])) == -1  # 4 * 1/2 - 3
    assert RealAlgebraic.root(f, 0, 1).sign_of(fmpz_poly([-1, 2]) * fmpz_poly([1, 0, 1])) == 0
    assert RealAlgebraic.rational("1/2").sign_of(fmpz_poly([-1, 4])) == 1  # at a rational number


# --------------------------------------------------------------------------- minimal polynomials


def test_factor_hints_skip_a_factor_that_divides_only_modulo_their_prime():
    """2x - 1 divides x - 2^60 modulo p = 2^61 - 1 (2^60 = (p + 1)/2 is 1/2 mod
    p) but not over the integers; the next hint, x^2 - 2, divides
    (x - 2^60)(x^2 - 2) and has the root sqrt(2) in (1, 2), so it is the
    minimal polynomial there and x - 2^60 is what is left."""
    p = 2**61 - 1
    assert (2 * 2**60 - 1) % p == 0
    hints = FactorHints()
    hints.learn([fmpz_poly([-1, 2]), fmpz_poly([-2, 0, 1])])
    poly = fmpz_poly([-(2**60), 1]) * fmpz_poly([-2, 0, 1])
    assert divmod(poly, fmpz_poly([-1, 2]))[1] != 0
    found, rest = hints.strip(poly, fmpq(1), fmpq(2))
    assert found == fmpz_poly([-2, 0, 1]) and rest == fmpz_poly([-(2**60), 1]) and hints.divided == 1


def test_adopt_minpoly_names_the_reason_and_accepts_any_signs_below_the_leading_one():
    """The golden ratio's minimal polynomial x^2 - x - 1 has negative lower
    coefficients and is accepted; 2(2x^2 - 1) (content 2) and 1 - 2x^2
    (leading coefficient -1) are refused as not primitive-positive."""
    phi = (1 + sympy.sqrt(5)) / 2
    assert sympy.minimal_polynomial(phi, X) == X**2 - X - 1
    x = RealAlgebraic.root(fmpz_poly([-1, -1, 1]) * fmpz_poly([-7, 1]), 1, 2)
    x.adopt_minpoly(fmpz_poly([-1, -1, 1]))
    assert x.minpoly() == fmpz_poly([-1, -1, 1]) and x == RealAlgebraic.from_sympy(phi)
    y = RealAlgebraic.root(fmpz_poly([-1, 0, 2]) * fmpz_poly([-5, 1]), 0, 1)
    for bad in (fmpz_poly([-2, 0, 4]), fmpz_poly([1, 0, -2])):
        with pytest.raises(ValueError, match="primitive"):
            y.adopt_minpoly(bad)


def test_adopted_root_index_is_taken_without_counting_and_only_once(monkeypatch):
    """1/sqrt(2) is the second real root of 2x^2 - 1 (index 1), -1/sqrt(2) the
    first (SymPy); a rational has the one index 0.  An adopted index is the
    other process's count: root_index() answers it without counting; an
    index known already is kept."""
    assert sympy.real_roots(2 * X**2 - 1) == [-sympy.sqrt(2) / 2, sympy.sqrt(2) / 2]
    third = RealAlgebraic.rational("1/3")
    third.adopt_root_index(0)
    with pytest.raises(ValueError):
        third.adopt_root_index(1)  # a linear polynomial has one root
    x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
    x.minpoly()
    x.adopt_root_index(1)
    with monkeypatch.context() as patch:
        patch.setattr(polys, "count_real_roots", None)  # counting again would fail
        assert x.root_index() == 1
    y = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
    assert y.root_index() == 1
    y.adopt_root_index(0)  # in range, but the index is known: kept
    assert y.root_index() == 1 and y.exact_str() == "CRootOf(2*x**2 - 1, 1)"
    z = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), -1, 0)
    z.minpoly()
    z.adopt_root_index(0)
    assert z.exact_str() == "CRootOf(2*x**2 - 1, 0)"


# --------------------------------------------------------------------------- conversions


def test_float_beyond_the_largest_double_is_an_infinity_of_the_right_sign():
    """-sqrt(2) 10^350 and its positive twin lie beyond the largest double
    (about 1.8e308): float() gives -inf and +inf."""
    assert 10**350 > sys.float_info.max
    f = fmpz_poly([-2 * 10**700, 0, 1])
    assert float(RealAlgebraic.root(f, -(10**351), 0)) == -math.inf
    assert float(RealAlgebraic.root(f, 0, 10**351)) == math.inf
    assert algebraic._round_to_double(Fraction(-(10**400), 3)) == -math.inf
    assert algebraic._round_to_double(Fraction(10**400, 3)) == math.inf


def test_short_interval_accepts_an_end_where_the_polynomial_is_1():
    """m = (10^4 x - 7072)(10^4 x - 7075) + 1 (irreducible: discriminant 5 * 10^8)
    has the roots (7072 + (3 -+ sqrt(5))/2) / 10^4 = 0.70723..., 0.70746...;
    the 4-decimal cell [0.7072, 0.7073] holds the first alone (m(0.7072) = 1),
    so it is the short interval."""
    m = fmpz_poly([-7072, 10**4]) * fmpz_poly([-7075, 10**4]) + 1
    r1, r2 = _sympy_roots(m)
    assert sympy.Rational(7072, 10**4) < r1 < sympy.Rational(7073, 10**4) < r2
    assert m(fmpq(7072, 10**4)) == 1
    x = RealAlgebraic.root(m, fmpq(7072, 10**4), fmpq(7073, 10**4))
    assert x.short_interval() == (Fraction(7072, 10**4), Fraction(7073, 10**4))


def test_short_interval_is_the_one_decimal_cell_of_a_number_away_from_its_ends():
    """sqrt(0.50014881) = 0.7072119979...: more than 10^-5 from 0.7072 and
    0.7073, and alone in that cell (the other root is negative), so its
    4-decimal short interval is [0.7072, 0.7073]."""
    r = sympy.sqrt(sympy.Rational(50014881, 10**8))
    assert sympy.Rational(70721, 10**5) < r < sympy.Rational(70729, 10**5)
    x = RealAlgebraic.root(fmpz_poly([-50014881, 0, 10**8]), 0, 1)
    assert x.short_interval() == (Fraction(7072, 10**4), Fraction(7073, 10**4))


def test_from_sympy_of_a_rational_in_disguise_and_of_roots_1e_150_apart():
    """sqrt(3 + 2 sqrt(2)) - sqrt(2) = 1 (SymPy keeps it unevaluated); 1 +- sqrt(2)/10^150
    are conjugates 2.8e-150 apart, told apart only at 200 digits."""
    e = sympy.sqrt(3 + 2 * sympy.sqrt(2)) - sympy.sqrt(2)
    assert not e.is_Rational and sympy.minimal_polynomial(e, X) == X - 1
    one = RealAlgebraic.from_sympy(e)
    assert one.is_rational and one.rational_value == 1
    d = sympy.sqrt(2) / sympy.Integer(10) ** 150
    hi_, lo_ = RealAlgebraic.from_sympy(1 + d), RealAlgebraic.from_sympy(1 - d)
    assert lo_ < 1 < hi_
    want = sympy.N(1 + d, 200)
    assert abs(sympy.Rational(hi_.decimal(190)) - want) < sympy.Rational(1, 10**180)


# --------------------------------------------------------------------------- roots between x and y


def test_single_root_between_returns_a_rational_root_met_at_an_end_in_rational_form():
    """f = (2x - 1)(x^2 - 3) has one root in (0, 1), 1/2, with f(0) = 3 > 0.
    Between 1/sqrt(8) (isolated by (1/4, 1/2): 1/2 is its upper end) and 3/4,
    and between 1/4 and 1/sqrt(2) (isolated by (1/2, 1)), the root is 1/2,
    rational, as real_roots gives it."""
    f = fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1])
    assert [r for r in _sympy_roots(f) if 0 < r < 1] == [sympy.Rational(1, 2)]
    cases = [
        (RealAlgebraic.root(fmpz_poly([-1, 0, 8]), fmpq(1, 4), fmpq(1, 2)), RealAlgebraic.rational("3/4")),
        (RealAlgebraic.rational("1/4"), RealAlgebraic.root(fmpz_poly([-1, 0, 2]), fmpq(1, 2), 1)),
    ]
    for x, y in cases:
        inside, at_x = single_root_between(f, x, y, fmpq(0), fmpq(1), 1)
        assert not at_x and len(inside) == 1
        assert inside[0].is_rational and inside[0].rational_value == fmpq(1, 2)


def test_single_root_between_when_x_is_the_root_given_by_a_common_linear_factor():
    """f = (2x - 1)(x^2 - 5), one root 1/2 in (0, 1), f(0) = 5 > 0; x is 1/2 as
    the root of (2x - 1)(x^2 - 3) in (1/4, 3/4): the gcd 2x - 1 changes sign
    there, so x is the root: no root strictly after x, and f(x) = 0."""
    f = fmpz_poly([-1, 2]) * fmpz_poly([-5, 0, 1])
    x = RealAlgebraic.root(fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1]), fmpq(1, 4), fmpq(3, 4))
    assert single_root_between(f, x, RealAlgebraic.rational("9/10"), fmpq(0), fmpq(1), 1) == ([], True)


def test_single_root_between_when_only_one_polynomial_changes_sign_on_x_interval():
    """f = (x^2 - 2)(4x^2 - 1) has one root in (0, 1), 1/2, f(0) = 2 > 0; x =
    1/sqrt(3) is the root of (x^2 - 2)(3x^2 - 1) in (2/5, 7/10), which holds
    1/2 too.  The common factor x^2 - 2 has no root there, so it does not
    say x is the root (it is not: 3/4 != 1): the answer is undecided or the
    true one, that 1/2 < x leaves no root between x and 9/10."""
    f = fmpz_poly([-2, 0, 1]) * fmpz_poly([-1, 0, 4])
    x = RealAlgebraic.root(fmpz_poly([-2, 0, 1]) * fmpz_poly([-1, 0, 3]), fmpq(2, 5), fmpq(7, 10))
    y = RealAlgebraic.rational("9/10")
    assert sympy.Rational(1, 2) < 1 / sympy.sqrt(3) < sympy.Rational(9, 10)
    got = single_root_between(f, x, y, fmpq(0), fmpq(1), 1)
    assert got is None or got == ([], False)
    inside, at_x = roots_between(f, x, y, 0, 1)
    assert inside == [] and not at_x


# --------------------------------------------------------------------------- hull and sorting


def test_dyadic_hull_when_16_over_the_gap_is_just_above_a_power_of_2():
    """x = -1/100, y = 12/25: the gap 49/100 has 16 / gap = 32.65..., so the
    least m >= 4 with 16 / 2^m <= gap is 6 (2^5 = 32 is too small): -1/100
    (denominator above 64) is rounded down to a multiple of 1/64, and 12/25
    (denominator 25 <= 64) is kept."""
    gap = Fraction(12, 25) + Fraction(1, 100)
    assert 32 < 16 / gap <= 33
    lo, hi = dyadic_hull(RealAlgebraic.rational("-1/100"), RealAlgebraic.rational("12/25"))
    assert (lo, hi) == (fmpq(math.floor(Fraction(-64, 100)), 64), fmpq(12, 25)) == (fmpq(-1, 64), fmpq(12, 25))


def test_sorted_exact_by_sorts_items_that_cannot_be_ordered_themselves():
    """Polynomials sorted by their roots: 1 (of x - 1), sqrt(2) (of x^2 - 2 on
    (1, 2), whose lower end is 1) and 4/3 (of 3x - 4); polynomials have no
    order of their own."""
    with pytest.raises(TypeError):
        sorted([fmpz_poly([-1, 1]), fmpz_poly([-2, 0, 1])])
    polys_ = [fmpz_poly([-2, 0, 1]), fmpz_poly([-1, 1]), fmpz_poly([-4, 3])]
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        items = [polys_[i] for i in order]
        roots = {0: RealAlgebraic.root(polys_[0], 1, 2), 1: RealAlgebraic.rational(1), 2: RealAlgebraic.rational("4/3")}
        key = {id(polys_[i]): roots[i] for i in range(3)}
        out = sorted_exact_by(items, lambda f: key[id(f)])
        want = sorted(polys_, key=lambda f: _sympy_roots(f)[-1])
        assert [id(f) for f in out] == [id(f) for f in want]
    assert [str(x) for x in sorted_exact([RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, 2), RealAlgebraic.rational(1)])] == [
        "1", "1.41421356237310..."]
