"""PiecewiseFunction: evaluation, merging, refinement, conversions."""

import pytest
import sympy
from flint import fmpq, fmpz_poly

from symbolic_noise.algebraic import RealAlgebraic
from symbolic_noise.piecewise import PiecewiseFunction, PointValue
from symbolic_noise.ratfunc import RationalFunction as R

p = sympy.Symbol("p")
half = RealAlgebraic.rational("1/2")
rho = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)  # 1/sqrt(2)


def N2():
    return PiecewiseFunction.build([0, half, 1], [R.from_expr("1 - p"), R.from_expr("p")], [{0}, {1}], [{0}, {0, 1}, {1}])


def test_evaluation_and_labels():
    f = N2()
    assert f(fmpq(1, 4)) == fmpq(3, 4) and f(fmpq(9, 10)) == fmpq(9, 10)
    assert f(half).rational_value == fmpq(1, 2)
    assert f.label_at("1/4") == {0} and f.label_at("1/2") == {0, 1} and f.label_at(1) == {1}
    with pytest.raises(ValueError):
        f(fmpq(3, 2))


def test_merging_rule():
    f = PiecewiseFunction([0, half, 1], [R.from_expr("p"), R.from_expr("p")], ["a", "a"], ["a", "a", "a"])
    assert len(f) == 1 and f.breakpoints == ()
    # a point with a different label is kept: a touching tie
    g = PiecewiseFunction([0, half, 1], [R.from_expr("p"), R.from_expr("p")], ["a", "a"], ["a", "ab", "a"])
    assert len(g) == 2 and g.point_labels[1] == "ab"
    # same formula, different piece labels: kept
    h = PiecewiseFunction([0, half, 1], [R.from_expr("p"), R.from_expr("p")], ["a", "b"])
    assert len(h) == 2


def test_build_checks_order():
    with pytest.raises(ValueError):
        PiecewiseFunction.build([0, half, half, 1], [R.constant(0)] * 3)


def test_combine_over_common_refinement():
    f = PiecewiseFunction([0, half, 1], [R.from_expr("1 - p"), R.from_expr("p")])
    g = PiecewiseFunction([0, rho, 1], [R.constant(0), R.from_expr("p**2")])
    h = PiecewiseFunction.combine([f, g], lambda fs: fs[0] + fs[1])
    assert [str(x) for x in h.points] == ["0", "1/2", "0.707106781186548...", "1"]
    assert h(fmpq(3, 4)) == fmpq(3, 4) + fmpq(9, 16)
    assert h(fmpq(1, 4)) == fmpq(3, 4)


def test_to_sympy_piecewise_and_latex():
    g = PiecewiseFunction([0, half, 1], [R.from_expr("1 - p"), R.from_expr("p")])
    expr = g.to_sympy()
    assert expr.subs(p, sympy.Rational(1, 4)) == sympy.Rational(3, 4)
    assert expr.subs(p, sympy.Rational(3, 4)) == sympy.Rational(3, 4)
    k = PiecewiseFunction([0, rho, 1], [R.constant(0), R.from_expr("p**2 - 1/2")])
    tex = k.latex()
    assert "\\rho_{1}" in tex and "0.707107" in tex and "\\begin{cases}" in tex
    assert isinstance(k.to_sympy().args[1][1], sympy.core.relational.Relational)


def test_point_values():
    v = PointValue(R.from_expr("p/(1 + p)"), rho)
    assert v.decimal(20) == "0.41421356237309504880"
    assert sympy.simplify(sympy.sympify(v.exact_str()) - (sympy.sqrt(2) - 1)) == 0
    assert PointValue(R.from_expr("2*p**2"), rho).as_algebraic().rational_value == 1
