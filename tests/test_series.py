"""Exact series and robust moves, against SymPy's series, the pointwise
evaluation and the exact solve."""

import pytest
import sympy
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import Nim, RationalFunction, evaluate, solve
from symbolic_noise.exact.algebraic import RealAlgebraic, rational_between
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.analysis.knowing import compare_values
from symbolic_noise.exact.piecewise import PointValue
from symbolic_noise.analysis.series import robust_moves, series_at, series_solve, taylor_rational
from test_players import random_channel, random_game

P = sympy.Symbol("p")


def sympy_coefficients(f: RationalFunction, x, order):
    expr = f.to_sympy(P)
    h = sympy.Symbol("h")
    ser = sympy.series(expr.subs(P, x + h), h, 0, order + 1).removeO()
    return [sympy.Rational(ser.coeff(h, k)) for k in range(order + 1)]


def test_N3_series_at_zero_and_one():
    f = solve(Nim(3), "binary").value()
    (s0,) = series_at(f, 0, 5)
    assert s0.side == "right" and s0.coefficients == tuple(fmpq(c) for c in (1, -2, 3, -3, 3, -3))
    (s1,) = series_at(f, 1, 3)
    assert s1.side == "left"
    assert [sympy.Rational(str(c)) for c in s1.coefficients] == sympy_coefficients(f.formulas[-1], 1, 3)


def derivative_coefficients(f: RationalFunction, x: fmpq, order: int):
    """Taylor coefficients by repeated exact differentiation (another method)."""
    out, g = [], f
    for k in range(order + 1):
        out.append(g(x))
        g = RationalFunction(g.num.derivative() * g.den - g.num * g.den.derivative(), g.den * g.den)
        g = g * RationalFunction.constant(fmpq(1, k + 1))
    return out


@pytest.mark.parametrize("k", [2, 5, 9])
def test_series_at_every_rational_point_by_two_methods(k):
    f = solve(Nim(k), "binary").value()
    for x in f.points:
        if x.is_rational:
            for s in series_at(f, x, 6):
                assert list(s.coefficients) == derivative_coefficients(s.formula, x.rational_value, 6)


def test_series_matches_sympy_at_one_point():
    f = solve(Nim(4), "binary").value()
    for s in series_at(f, "1/2", 4):
        assert [sympy.Rational(str(c)) for c in s.coefficients] == sympy_coefficients(s.formula, sympy.Rational(1, 2), 4)


def test_series_at_an_algebraic_breakpoint_is_exact():
    f = solve(Nim(5), "binary").value()
    rho = f.breakpoints[1]  # 0.7623..., root of a degree-7 polynomial
    left, right = series_at(f, rho, 3)
    assert (left.side, right.side) == ("left", "right")
    assert compare_values(left.coefficients[0], right.coefficients[0]) == 0  # continuity
    for s in (left, right):
        expr = s.formula.to_sympy(P)
        for k, c in enumerate(s.coefficients):
            dk = RationalFunction.from_expr(sympy.cancel(sympy.diff(expr, P, k) / sympy.factorial(k)))
            assert compare_values(c, PointValue(dk, rho)) == 0
    # the slopes differ: a genuine corner of N
    assert compare_values(left.coefficients[1], right.coefficients[1]) != 0


@settings(max_examples=30)
@given(st.data())
def test_series_backward_induction_equals_the_exact_solution(data):
    game, graph = data.draw(random_game())
    ch = random_channel(data.draw, graph)
    misere = data.draw(st.booleans())
    sol = solve(game, ch, misere=misere)
    ser = series_solve(game, ch, 5, misere=misere)
    for v in game.positions():
        f = sol.value(v)
        assert ser[v][0] == tuple(taylor_rational(f.formulas[0], 0, 5))
        if game.followers(v):
            for m, g in sol.move_values(v).items():
                assert ser[v][1][m] == tuple(taylor_rational(g.formulas[0], 0, 5))


def test_robust_bouton_moves_are_optimal_until_the_exact_point():
    for heaps in [(1, 3, 3), (2, 3, 3), (1, 2, 2, 3)]:
        g = MultiNim(heaps)
        r = robust_moves(g, "binary")
        fast = robust_moves(g, "binary", exact=False)
        assert r.robust and r.robust <= set(r.winning)
        assert fast.robust == r.robust and fast.ranking[0] in r.robust
        for m, until in r.until.items():
            end = until if until is not None else RealAlgebraic.rational(1)
            t = rational_between(RealAlgebraic.rational(0), end)
            assert m in evaluate(g, "binary", t)[g.start()].optimal
            if until is not None:
                t2 = rational_between(until, solve(g, "binary").value().points[-1])
                sol_pts = solve(g, "binary").value().points
                nxt = next(x for x in sol_pts if x.compare(until) > 0)
                t2 = rational_between(until, nxt)
                assert m not in evaluate(g, "binary", t2)[g.start()].optimal


def test_robust_moves_of_a_P_position_are_empty():
    r = robust_moves(MultiNim((1, 2, 3)), "binary")
    assert r.winning == () and not r.robust


def test_cli_series(capsys):
    from symbolic_noise.io.cli import main

    assert main(["solve", "nim", "3", "--series", "0", "--order", "4", "--no-cache"]) == 0
    assert capsys.readouterr().out == "N at p = 0 from the right:\n  N = 1 - 2p + 3p^2 - 3p^3 + 3p^4 + O(p^5)\n"
    assert main(["solve", "nim", "5", "--series", "b2", "--order", "1", "--format", "json", "--no-cache"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    left, right = data["series"]
    assert (left["side"], right["side"]) == ("left", "right")
    assert left["point"].startswith("CRootOf(") and left["coefficients"][0] == right["coefficients"][0]
    assert main(["solve", "nim", "5", "--series", "b9", "--no-cache"]) == 2
