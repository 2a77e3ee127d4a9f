"""The followers' Taylor models (SlopeBounds.taylor) and the pair test of moves
(solvers/pairtest.py): certified claims, checked exactly; the solver's results
do not depend on whether the test runs."""

from __future__ import annotations

import random

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import Nim, solve
from symbolic_noise.exact import polys
from symbolic_noise.games import Chomp
from symbolic_noise.solvers.piecewise import pairtest as pairtest_module
from symbolic_noise.solvers.piecewise import decide, position
from symbolic_noise.solvers.piecewise.pairtest import PairTest, follower_bounds, pair_row
from symbolic_noise.solvers.piecewise.spread import SlopeBounds
from test_spread import cells, coeffs  # (dyadic cells down to 2^-33 wide, and coefficient lists)

def _exact(end) -> fmpq:
    """An exact ball end point (``lower()``/``upper()``) as a rational."""
    man, exp = end.man_exp()
    return fmpq(man) * 2**exp if exp >= 0 else fmpq(man, 2 ** (-exp))


def _holds(ball, q: fmpq) -> bool:
    """Whether the ball holds the rational ``q``, decided exactly."""
    return _exact(ball.lower()) <= q <= _exact(ball.upper())


@settings(max_examples=150, deadline=None)
@given(coeffs, st.lists(st.integers(1, 10**6), min_size=1, max_size=40), cells(), st.lists(st.integers(0, 1000), min_size=1, max_size=6))
def test_taylor_model_holds_at_every_point_of_the_cell(num_c, den_c, cell, where):
    """1 - N(s) lies in e - g (s - c) +- L2 (s - c)^2 / 2 at the ends and at
    random points of the cell, checked with exact values (den > 0 on [0, 1])."""
    num, den = fmpz_poly(num_c), fmpz_poly(den_c)
    lo, hi, _ = cell
    c = (lo + hi) / 2
    model = SlopeBounds().taylor("f", num, den, lo, hi, c)
    if model is None:  # allowed (the pair test is then skipped), not on small cells
        assert hi - lo >= fmpq(1, 2**12)
        return
    c0, e, g, L2 = model
    assert c0 == c
    assert _holds(e, 1 - num(c) / den(c))
    for s in [lo, hi] + [lo + (hi - lo) * fmpq(w, 1000) for w in where]:
        exact = 1 - num(s) / den(s)
        centre = e - g * (s - c)
        room = L2 * (s - c) ** 2 / 2
        assert _exact((centre - room).lower()) <= exact <= _exact((centre + room).upper())


def test_taylor_model_of_a_constant_is_exact_and_flat():
    c, e, g, L2 = SlopeBounds().taylor("f", fmpz_poly([1]), fmpz_poly([3]), fmpq(1, 4), fmpq(1, 2), fmpq(3, 8))
    assert _holds(e, fmpq(2, 3)) and g == 0 and L2 == 0


def test_taylor_model_is_none_when_the_denominator_vanishes():
    num, den = fmpz_poly([1, 1]), fmpz_poly([-1, 2])  # a pole at 1/2
    assert SlopeBounds().taylor("f", num, den, fmpq(7, 16), fmpq(9, 16), fmpq(1, 2)) is None


def _random_setup(rng: random.Random, k: int):
    """Channel rows P_wv / Q_w (probabilities on [0, 1]: nonnegative
    polynomials over their sum) for 3 moves and k followers with smooth values."""
    P = []
    for _ in range(3):
        row = [fmpz_poly([rng.randint(1, 9), rng.randint(0, 9), rng.randint(0, 9)]) for _ in range(k)]
        P.append(tuple(row))
    Q = [sum(row, fmpz_poly([0])) for row in P]
    values = []
    for _ in range(k):
        num = fmpz_poly([rng.randint(0, 9) for _ in range(rng.randint(1, 6))])
        den = fmpz_poly([rng.randint(1, 9) for _ in range(rng.randint(1, 6))]) + num  # N in [0, 1]
        values.append((num, den))
    return P, Q, values


def _random_cells(rng: random.Random, n: int, fewest: int, most: int, room: int):
    """``n`` cells ``(lo, hi, width)`` of widths 2^-fewest to 2^-most, with
    ``room`` widths from ``lo`` to 1."""
    for _ in range(n):
        width = fmpq(1, 2 ** rng.randint(fewest, most))
        lo = fmpq(rng.randint(0, 2**20), 2**20) * (1 - room * width)
        yield lo, lo + width, width


@pytest.mark.parametrize("seed", range(12))
def test_apart_is_certain(seed):
    """When the test says two moves' values differ on the whole cell, the exact
    difference has no root on the closed cell (Bernstein test and signs at the
    ends), and it says so on most small cells away from a crossing."""
    rng = random.Random(seed)
    k = rng.randint(2, 6)
    P, Q, values = _random_setup(rng, k)
    tests = PairTest(P, Q)
    shown = 0
    for lo, hi, _ in _random_cells(rng, 30, 4, 30, 1):
        bounds = SlopeBounds()
        models = [bounds.taylor(("f", j), n, d, lo, hi, (lo + hi) / 2) for j, (n, d) in enumerate(values)]
        if any(m is None for m in models):
            continue
        pairs = tests.cell([pair_row(m, lo, hi) for m in models], lo, hi)
        b, c = rng.sample(range(3), 2)
        # the exact difference of the values times Q_b Q_c prod(den_v): a polynomial
        lose = [(d - n, d) for n, d in values]
        common = fmpz_poly([1])
        for _, d in lose:
            common *= d
        A = [sum((P[w][v] * lose[v][0] * (common // lose[v][1]) for v in range(k)), fmpz_poly([0])) for w in range(3)]
        D = A[b] * Q[c] - A[c] * Q[b]
        if pairs.apart(b, c):
            shown += 1
            assert not D.is_zero()
            assert polys.bernstein_test(D, lo, hi)[0] != 0 or polys.count_real_roots(D, lo, hi) == 0
            assert D(lo) != 0 and D(hi) != 0
    assert shown > 0


def _same(a, b) -> bool:
    return a.positions() == b.positions() and all(
        a.value(v) == b.value(v) and a.value(v).labels == b.value(v).labels and a.value(v).point_labels == b.value(v).point_labels
        for v in a.positions()
    )


@pytest.mark.parametrize("game, channel", [(Nim(26), "binary"), (Chomp(3, 4), "king"), (Nim(14), "tremble")])
def test_solutions_do_not_depend_on_the_pair_test(monkeypatch, game, channel):
    """The pair test run on every cell (threshold 0) and never: identical
    solutions, and the test decided some pairs."""
    calls = []
    apart = pairtest_module._CellPairs.apart

    def counting(self, b, c):
        out = apart(self, b, c)
        calls.append(out)
        return out

    monkeypatch.setattr(pairtest_module._CellPairs, "apart", counting)
    monkeypatch.setattr(decide, "_PAIR_MIN_DEGREE", 0)
    on = solve(game, channel)
    monkeypatch.setattr(decide, "_PAIR_MIN_DEGREE", 10**9)
    off = solve(game, channel)
    assert _same(on, off)
    if channel == "binary":
        assert any(calls)


def _second_derivative(num: fmpz_poly, den: fmpz_poly, s: fmpq) -> fmpq:
    n1, d1 = num.derivative(), den.derivative()
    n2, d2 = n1.derivative(), d1.derivative()
    n, d = num(s), den(s)
    return (n2(s) * d - n * d2(s)) / d**2 - 2 * d1(s) * (n1(s) * d - n * d1(s)) / d**3


@pytest.mark.parametrize("seed", range(12))
def test_second_bound_holds_at_every_point_of_the_cell(seed):
    """|V_w''(s)| <= PairTest.second_bound at the ends and at random points of
    random cells, V_w'' computed exactly from V_w = sum_v P_wv (1 - N_v) / Q_w;
    the followers' bounds come from their Taylor models, centred at the cell's
    middle or (as inherited ones are) elsewhere in a wider cell."""
    rng = random.Random(100 + seed)
    P, Q, values = _random_setup(rng, rng.randint(1, 6))
    tests = PairTest(P, Q)
    checked = 0
    for lo, hi, width in _random_cells(rng, 20, 3, 24, 2):
        wide = (lo, min(hi + width, fmpq(1)))  # a wider cell, as a parent's
        centre = lo + (wide[1] - lo) * fmpq(rng.randint(0, 16), 16)
        bounds = SlopeBounds()
        models = [bounds.taylor(("f", j), n, d, *wide, centre) for j, (n, d) in enumerate(values)]
        if any(m is None for m in models):
            continue
        w = rng.randrange(3)
        bound = tests.second_bound(w, [follower_bounds(m, lo, hi) for m in models], lo, hi)
        assert bound is not None
        # V_w as one rational function: sum_v P_wv (den_v - num_v) / den_v over Q_w
        num, den = fmpz_poly([0]), fmpz_poly([1])
        for p, (n, d) in zip(P[w], values):
            num, den = num * d + p * (d - n) * den, den * d
        den = den * Q[w]
        for s in [lo, hi] + [lo + width * fmpq(rng.randint(0, 100), 100) for _ in range(4)]:
            assert abs(_second_derivative(num, den, s)) <= _exact(bound.upper())
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("game", [Nim(30), Nim(20)])
def test_solutions_do_not_depend_on_the_models_made_with_formulas(monkeypatch, game):
    """Slope bounds from the Taylor models made with each formula (and the
    blocks where those are loose) or from blocks alone: identical solutions."""
    blocks = []
    slope = SlopeBounds.slope

    def counting(self, *args):
        blocks.append(1)
        return slope(self, *args)

    monkeypatch.setattr(SlopeBounds, "slope", counting)
    on = solve(game, "binary")
    with_models = len(blocks)
    monkeypatch.setattr(position._PositionSolver, "_make_model", lambda self, cell, best, formula: None)
    off = solve(game, "binary")
    assert _same(on, off)
    assert with_models < len(blocks) - with_models  # the models replaced some blocks


def test_solutions_without_any_taylor_model(monkeypatch):
    """No follower's model shown anywhere (every block's denominator check
    failing, as on wide cells): the slope bounds come from blocks, the pair
    test never runs, and the solution is the same."""
    on = solve(Nim(30), "binary")
    monkeypatch.setattr(SlopeBounds, "taylor", lambda self, *args: None)
    monkeypatch.setattr(decide, "_PAIR_MIN_DEGREE", 0)
    assert _same(on, solve(Nim(30), "binary"))
