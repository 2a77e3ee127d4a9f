"""PiecewiseFunction: evaluation, merging, refinement, conversions."""

import json
import os
from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import codec
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.exact.piecewise import PiecewiseFunction, PointValue
from symbolic_noise.exact.ratfunc import RationalFunction as R
from symbolic_noise.exact.formula import parse_formula

p = sympy.Symbol("p")
half = RealAlgebraic.rational("1/2")
rho = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)  # 1/sqrt(2)


def N2():
    return PiecewiseFunction.build([0, half, 1], [parse_formula("1 - p"), parse_formula("p")], [{0}, {1}], [{0}, {0, 1}, {1}])


def test_evaluation_and_labels():
    f = N2()
    assert f(fmpq(1, 4)) == fmpq(3, 4) and f(fmpq(9, 10)) == fmpq(9, 10)
    assert f(half).rational_value == fmpq(1, 2)
    assert f.label_at("1/4") == {0} and f.label_at("1/2") == {0, 1} and f.label_at(1) == {1}
    with pytest.raises(ValueError):
        f(fmpq(3, 2))


def test_merging_rule():
    f = PiecewiseFunction([0, half, 1], [parse_formula("p"), parse_formula("p")], ["a", "a"], ["a", "a", "a"])
    assert len(f) == 1 and f.breakpoints == ()
    # a point with a different label is kept: a touching tie
    g = PiecewiseFunction([0, half, 1], [parse_formula("p"), parse_formula("p")], ["a", "a"], ["a", "ab", "a"])
    assert len(g) == 2 and g.point_labels[1] == "ab"
    # same formula, different piece labels: kept
    h = PiecewiseFunction([0, half, 1], [parse_formula("p"), parse_formula("p")], ["a", "b"])
    assert len(h) == 2


def test_build_checks_order():
    with pytest.raises(ValueError):
        PiecewiseFunction.build([0, half, half, 1], [R.constant(0)] * 3)


def test_combine_over_common_refinement():
    f = PiecewiseFunction([0, half, 1], [parse_formula("1 - p"), parse_formula("p")])
    g = PiecewiseFunction([0, rho, 1], [R.constant(0), parse_formula("p**2")])
    h = PiecewiseFunction.combine([f, g], lambda fs: fs[0] + fs[1])
    assert [str(x) for x in h.points] == ["0", "1/2", "0.707106781186548...", "1"]
    assert h(fmpq(3, 4)) == fmpq(3, 4) + fmpq(9, 16)
    assert h(fmpq(1, 4)) == fmpq(3, 4)


def test_to_sympy_piecewise_and_latex():
    g = PiecewiseFunction([0, half, 1], [parse_formula("1 - p"), parse_formula("p")])
    expr = g.to_sympy()
    assert expr.subs(p, sympy.Rational(1, 4)) == sympy.Rational(3, 4)
    assert expr.subs(p, sympy.Rational(3, 4)) == sympy.Rational(3, 4)
    k = PiecewiseFunction([0, rho, 1], [R.constant(0), parse_formula("p**2 - 1/2")])
    tex = k.latex()
    assert "\\rho_{1}" in tex and "0.707107" in tex and "\\begin{cases}" in tex
    assert isinstance(k.to_sympy().args[1][1], sympy.core.relational.Relational)


def test_point_values():
    v = PointValue(parse_formula("p/(1 + p)"), rho)
    assert v.decimal(20) == "0.41421356237309504880"
    assert sympy.simplify(sympy.sympify(v.exact_str()) - (sympy.sqrt(2) - 1)) == 0
    assert PointValue(parse_formula("2*p**2"), rho).as_algebraic().rational_value == 1


# --------------------------------------------------------------------------- enclosures at scale

DATA = os.path.join(os.path.dirname(__file__), "data")


def _mp_value(formula, root_poly, lo, hi, dps):
    """An independent high-precision value: mpmath's root of the point's
    polynomial in [lo, hi] (bisection in mpmath), then the formula there."""
    with mpmath.workdps(dps):
        coeffs = [mpmath.mpf(int(c)) for c in reversed(root_poly.coeffs())]
        a, b = mpmath.mpf(int(lo.p)) / int(lo.q), mpmath.mpf(int(hi.p)) / int(hi.q)
        sa = mpmath.sign(mpmath.polyval(coeffs, a))
        for _ in range(dps * 4):
            m = (a + b) / 2
            if mpmath.sign(mpmath.polyval(coeffs, m)) == sa:
                a = m
            else:
                b = m
        return _mp_formula(formula, (a + b) / 2)


def _mp_formula(formula, x):
    """The formula at the mpmath number x (at the current working precision)."""
    num = mpmath.polyval([mpmath.mpf(int(c)) for c in reversed(formula.num.coeffs())], x)
    den = mpmath.polyval([mpmath.mpf(int(c)) for c in reversed(formula.den.coeffs())], x)
    return num / den


def test_nim64_breakpoint_315_prints():
    """Regression: N_64 at its breakpoint 0.93173755625750282529 (degree-304
    formulas) made the ball evaluation infinite and every output path crash."""
    with open(os.path.join(DATA, "nim64_point315.json")) as fh:
        d = json.load(fh)
    x = codec.decode_point(d["point"])
    assert x.decimal(20) == d["decimal"] == "0.93173755625750282529"
    left = R(fmpz_poly([int(c) for c in d["left"][0]]), fmpz_poly([int(c) for c in d["left"][1]]))
    right = R(fmpz_poly([int(c) for c in d["right"][0]]), fmpz_poly([int(c) for c in d["right"][1]]))
    assert left.degree == right.degree == 304
    # continuity at the breakpoint, exactly
    assert x.sign_of((left - right).num) == 0
    expected = _mp_value(right, x.poly, x.lo, x.hi, 400)
    for f in (left, right):
        for digits in (15, 20, 40):  # the text and JSON outputs ask for 15 and 20
            v = PointValue(f, codec.decode_point(d["point"]))
            lo, hi = v.enclosure(digits)
            assert lo <= hi and hi - lo <= Fraction(1, 10**digits)
            with mpmath.workdps(400):
                assert mpmath.mpf(lo.numerator) / lo.denominator - mpmath.mpf(10) ** -380 <= expected
                assert expected <= mpmath.mpf(hi.numerator) / hi.denominator + mpmath.mpf(10) ** -380
        with mpmath.workdps(400):
            assert v.decimal(30) == d["value_30"] == mpmath.nstr(expected, 30, min_fixed=-10, max_fixed=10, strip_zeros=False)


@st.composite
def _hard_case(draw):
    """A point x = root of b p^2 - a in (0, 1), and a rational function of high
    degree with a pole next to x or with large cancelling coefficients there."""
    a = draw(st.integers(1, 60))
    b = draw(st.integers(a + 1, 64))
    if int(mpmath.sqrt(mpmath.mpf(a) / b) * 10**12) ** 2 * b == a * 10**24:
        b += 1
    point_poly = fmpz_poly([-a, 0, b])
    gap = draw(st.integers(20, 120))  # how close the nearby pole / cancellation point is
    with mpmath.workdps(200):
        approx = mpmath.sqrt(mpmath.mpf(a) / b)
        den_c = int(mpmath.floor(approx * 2**gap))
    near = fmpz_poly([-den_c, 2**gap])  # 2^gap p - c: vanishes within 2^-gap of x
    k = draw(st.integers(1, 12))
    noise = fmpz_poly(draw(st.lists(st.integers(-(2**200), 2**200), min_size=1, max_size=60)))
    if noise.is_zero():
        noise = fmpz_poly([1])
    kind = draw(st.sampled_from(["pole", "cancel"]))
    if kind == "pole":
        num, den = noise + fmpz_poly([1]), near**k * fmpz_poly(draw(st.lists(st.integers(1, 2**100), min_size=1, max_size=80))) + 1
    else:
        num, den = near**k * noise + 1, fmpz_poly([1, 1]) ** draw(st.integers(0, 200))
    return point_poly, num, den


@settings(max_examples=40, deadline=None)
@given(_hard_case(), st.integers(5, 40))
def test_enclosures_near_poles_and_cancellation(case, digits):
    point_poly, num, den = case
    x = RealAlgebraic.root(point_poly, 0, 1)
    f = R(num, den)
    if x.sign_of(f.den) == 0:
        return
    lo, hi = PointValue(f, x).enclosure(digits)
    assert hi - lo <= Fraction(1, 10**digits) * max(1, abs(lo))
    a, b = -int(point_poly.coeffs()[0]), int(point_poly.coeffs()[2])
    with mpmath.workdps(2000):
        exact = _mp_formula(f, mpmath.sqrt(mpmath.mpf(a) / b))
        slack = mpmath.mpf(10) ** -1500 * (1 + abs(exact))
        assert mpmath.mpf(lo.numerator) / lo.denominator - slack <= exact <= mpmath.mpf(hi.numerator) / hi.denominator + slack


def test_value_at_a_high_degree_point_names_the_point_once():
    """Above degree 40 the exact value is Subs(formula, p, CRootOf(...)): the
    root's text appears once (substituting it for every power of p made
    megabyte strings at Nim 64), and SymPy evaluates it to the value."""
    from symbolic_noise.exact.algebraic import RealAlgebraic
    from symbolic_noise.exact.piecewise import PointValue
    from symbolic_noise.exact.ratfunc import RationalFunction

    point = RealAlgebraic.root(fmpz_poly([-1, 1] + [0] * 40 + [1]), 0, 1)  # x^42 + x - 1, irreducible
    formula = parse_formula("(1 - p + p**2)/(1 + p**3)")
    v = PointValue(formula, point)
    text = v.exact_str()
    assert text.startswith("Subs(") and text.count("CRootOf") == 1
    expr = sympy.sympify(text).doit()
    assert abs(sympy.N(expr, 30) - sympy.Float(v.decimal(25), 30)) < sympy.Float("1e-23")
