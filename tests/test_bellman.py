"""The Bellman check accepts the game's values and nothing else: the solver's
values of every family and channel pass (values and optimal moves); a value
changed anywhere, another position's or another channel's value, a wrong
terminal value or a wrong optimal move is rejected, naming the position."""

import re

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import solve
from symbolic_noise.analysis.bellman import check_optimal, check_position, check_values
from symbolic_noise.errors import VerificationError
from symbolic_noise.exact.piecewise import PiecewiseFunction
from symbolic_noise.exact.ratfunc import RationalFunction
from symbolic_noise.games.channels import custom_channel_from_json, get_channel
from symbolic_noise.games.registry import game_from_spec

CASES = [
    ("nim", "9", "binary", (0, 1), False),
    ("nim", "7", "binary", (0, 1), True),
    ("nim", "8", "binary", (fmpq(1, 3), fmpq(3, 4)), False),
    ("nim", "6", "uniform", (0, 1), False),
    ("nim", "6", "tremble", (0, 1), False),
    ("nim", "2,3", "binary", (0, 1), False),
    ("chomp", "3x3", "king", (0, 1), False),
    ("chomp", "3x3", "rook", (0, 1), True),
    ("chomp", "2x4", "all", (0, 1), False),
    ("kayles", "5", "binary", (0, 1), False),
    ("subtraction:1,2", "8", "binary", (0, 1), False),
]
SOLVED = {case: solve(game_from_spec(case[0], case[1]), case[2], case[3], misere=case[4]) for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]} {c[1]} {c[2]}{' misere' if c[4] else ''}")
def test_the_solvers_values_and_optimal_moves_pass(case):
    sol = SOLVED[case]
    report = check_values(sol.game, sol.channel, sol.values(), case[3], misere=case[4])
    assert report.positions == len(sol.positions())
    for u in sol.positions():
        check_position(sol.game, sol.channel, sol.values(), case[3], u, misere=case[4], labels=True)


def _replace(sol, u, f):
    values = sol.values()
    values[u] = f
    return values


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES[:4] + CASES[6:10]), pick=st.integers(0, 10**6), delta=st.integers(1, 3),
       where=st.sampled_from(["num", "den"]))
def test_a_changed_coefficient_is_rejected(case, pick, delta, where):
    sol = SOLVED[case]
    inner = [u for u in sol.positions() if sol.game.followers(u)]
    u = inner[pick % len(inner)]
    f = sol.value(u)
    j = (pick // 7) % len(f.formulas)
    g = f.formulas[j]
    num, den = g.num, g.den
    target = num if where == "num" else den
    coeffs = [int(c) for c in target.coeffs()] or [0]
    i = (pick // 13) % len(coeffs)
    coeffs[i] += delta
    changed = fmpz_poly(coeffs)
    if where == "den" and changed.is_zero():
        return
    h = RationalFunction(changed, den) if where == "num" else RationalFunction(num, changed)
    if h == g:  # (0/1 -> 0/2: the same function)
        return
    formulas = list(f.formulas)
    formulas[j] = h
    forged = PiecewiseFunction(f.points, formulas, f.labels, f.point_labels, merge=False)
    with pytest.raises(VerificationError, match=re.escape(f"position {sol.game.position_label(u)}:")):
        check_values(sol.game, sol.channel, _replace(sol, u, forged), case[3], misere=case[4])


def test_values_of_another_position_channel_or_play_are_rejected():
    sol = SOLVED[CASES[0]]
    with pytest.raises(VerificationError, match="position 7"):
        check_values(sol.game, sol.channel, _replace(sol, 7, sol.value(6)), (0, 1))
    with pytest.raises(VerificationError):
        check_values(sol.game, get_channel("uniform"), sol.values(), (0, 1))
    with pytest.raises(VerificationError, match="terminal"):
        check_values(sol.game, sol.channel, sol.values(), (0, 1), misere=True)
    # a custom channel that differs from binary at one position only: that position is found
    doc = {"default": "binary", "rows": [{"position": 2, "sent": 0, "received": [[0, "1 - p/2"], [1, "p/2"]]}]}
    with pytest.raises(VerificationError, match="position 2"):
        check_values(sol.game, custom_channel_from_json(doc), sol.values(), (0, 1))


def test_a_wrong_optimal_move_is_found_by_the_label_check():
    sol = SOLVED[CASES[0]]
    f = sol.value(5)
    labels = list(f.labels)
    labels[0] = frozenset({1})
    forged = PiecewiseFunction(f.points, f.formulas, labels, f.point_labels, merge=False)
    check_values(sol.game, sol.channel, _replace(sol, 5, forged), (0, 1))  # the values are right...
    with pytest.raises(VerificationError, match="optimal moves"):
        check_position(sol.game, sol.channel, _replace(sol, 5, forged), (0, 1), 5, labels=True)  # ...the moves are not


def test_optimality_claims_against_the_paper():
    # theory.md 3.1: N_3's optimal move is 0 on [0, 1/2) and 1 on (1/2, 1]; at 1/2 every move ties
    sol = solve(game_from_spec("nim", "3"), "binary")
    values = sol.values()
    args = (sol.game, sol.channel, values, (0, 1), 3)
    assert check_optimal(*args, [0], 0, fmpq(1, 2), exact_set=True) == (False, fmpq(1, 2))
    assert check_optimal(*args, [0], 0, fmpq(1, 2), exact_set=False)[0]
    assert check_optimal(*args, [0, 1, 2], fmpq(1, 2), fmpq(1, 2), exact_set=True)[0]
    assert check_optimal(*args, [1], fmpq(1, 2), 1, exact_set=False)[0]
    holds, p = check_optimal(*args, [1], fmpq(1, 4), fmpq(3, 4), exact_set=False)
    assert not holds and fmpq(1, 4) <= p < fmpq(1, 2)
