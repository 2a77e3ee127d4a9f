"""The first-order difference test of two moves (symbolic_noise.solvers.piecewise.difftest):
a True answer must mean that the first move's value is strictly above the
second's on the whole closed cell, checked exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import fmpq, fmpq_poly, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import solve
from symbolic_noise.exact import polys
from symbolic_noise.games.rulesets import Chomp
from symbolic_noise.solvers.piecewise import followers, position
from symbolic_noise.solvers.piecewise.difftest import DifferenceTest

from conftest import assert_matches_pointwise

P = fmpz_poly([0, 1])


def _positive_on(f: fmpq_poly, lo: fmpq, hi: fmpq) -> bool:
    """Exactly: f > 0 on the closed [lo, hi] (its numerator has no root there,
    by isolation of the square-free part, and is positive at lo)."""
    num = f.numer()
    if num.is_zero():
        return False
    g = num.gcd(num.derivative())
    free = num if g.degree() <= 0 else num // g
    rationals, intervals, _ = polys.isolate_real_roots(free, lo, hi)
    return not rationals and not intervals and num(lo) > 0


def _enclosure(g: fmpq_poly, lo: fmpq, hi: fmpq):
    """``(e, s)`` with ``|g(x) - e| <= s`` on [lo, hi]: the centre and radius of
    g's exact Bernstein range there."""
    m = fmpq_poly(g)
    den = m.denom()
    num = fmpz_poly([int(c) for c in (m * den).coeffs()]) if not m.is_zero() else fmpz_poly([0])
    span = polys.bernstein_ratio_range(num, fmpz_poly([int(den)]), lo, hi)
    low, high = span
    return (low + high) / 2, (high - low) / 2


coefficient = st.integers(-40, 40)
poly = st.lists(coefficient, min_size=1, max_size=6).map(lambda c: fmpq_poly(c, 16))


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(-5, 5)), min_size=3, max_size=3), min_size=2, max_size=3),
    qs=st.lists(st.integers(1, 9), min_size=3, max_size=3),
    gs=st.lists(poly, min_size=3, max_size=3),
    ends=st.tuples(st.integers(0, 63), st.integers(1, 16)),
)
def test_apart_is_true_only_where_the_first_value_is_above_on_the_closed_cell(rows, qs, gs, ends):
    P_rows = [[fmpz_poly([a, b]) for a, b in row] for row in rows]
    Q = [fmpz_poly([q]) for q in qs[: len(P_rows)]]
    test = DifferenceTest(P_rows, Q)
    lo = fmpq(ends[0], 64)
    hi = min(lo + fmpq(ends[1], 64), fmpq(1))
    if not lo < hi:
        return
    enclosures = {u: _enclosure(g, lo, hi) for u, g in enumerate(gs)}
    for b in range(len(P_rows)):
        for c in range(len(P_rows)):
            if b == c:
                continue
            # V_b - V_c exactly, as a polynomial in p
            diff = sum(
                (fmpq_poly(P_rows[b][u]) / int(Q[b][0]) - fmpq_poly(P_rows[c][u]) / int(Q[c][0])) * gs[u]
                for u in range(len(gs))
            )
            if test.apart(b, c, lo, hi, enclosures.get):
                assert _positive_on(diff, lo, hi)


def test_no_enclosure_shows_nothing_and_equal_rows_are_never_apart():
    test = DifferenceTest([[P, 1 - P], [1 - P, P], [P, 1 - P]], [fmpz_poly([1])] * 3)
    assert not test.apart(0, 1, fmpq(3, 4), fmpq(1), {0: (fmpq(1), None), 1: (fmpq(0), fmpq(0))}.get)
    assert test.support(0, 2) == [] and not test.apart(0, 2, fmpq(0), fmpq(1), {}.get)
    with pytest.raises(ValueError):
        DifferenceTest([[P * P, 1 - P]], [fmpz_poly([1])])
    with pytest.raises(ValueError):
        DifferenceTest([[P, 1 - P]], [fmpz_poly([1, 1])])


def test_every_pair_the_solver_skips_by_it_has_no_crossing_on_its_cell(monkeypatch):
    """In a Chomp solve through the all-neighbour channel, each pair the
    difference test lets the sweep skip is checked exactly: the leader's value
    minus the other's, a polynomial made from the followers' formulas, is
    positive on the whole closed cell.  And the test does skip pairs there."""
    made = position._PositionSolver._differences
    skipped = []

    def checked(self):
        test = made(self)
        if test is None:
            return None
        solver = self

        class Checked:
            def __getattr__(self, name):
                return getattr(test, name)

            def apart(self, b, c, lo, hi, enclosure):
                answer = test.apart(b, c, lo, hi, enclosure)
                if answer:
                    diff = fmpq_poly([0])
                    for (u, d0, d1) in test.support(b, c):
                        f = solver.foll[u]
                        assert f.den.degree() == 0  # Chomp's formulas: constant denominators
                        g = fmpq_poly(f.den - f.num) / fmpq(f.den[0])
                        diff += fmpq_poly([d0, d1]) * g
                    assert _positive_on(diff, lo, hi)
                    skipped.append((b, c))
                return answer

        return Checked()

    monkeypatch.setattr(position._PositionSolver, "_differences", checked)
    solve(Chomp(4, 4), "all")
    monkeypatch.undo()
    assert len(skipped) > 100


def test_chomp_through_the_all_neighbour_channel_matches_exact_backward_induction():
    """The solve that skips pairs by the difference test agrees with exact
    backward induction at rationals and at every rational breakpoint."""
    ps = [Fraction(1, 7), Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(5, 7), Fraction(9, 10), Fraction(1)]
    assert_matches_pointwise(Chomp(3, 5), "all", ps, misere=False)


def test_the_leader_and_the_difference_made_from_the_differing_followers_equal_the_numerators_ones(monkeypatch):
    """Where the solver takes a cell's leader and a pair's D from the
    followers two rows weigh differently, both equal what the moves' full
    numerators give: the first move with the largest value at t (exact
    values), and A_b Q_c - A_c Q_b as polynomials."""
    leader, difference = position._PositionSolver._leader, position._PositionSolver._difference
    seen = {"leader": 0, "difference": 0}

    def checked_leader(self, differ, t, survivors):
        best = leader(self, differ, t, survivors)
        values = []
        for w in survivors:
            total = fmpq(0)
            for f, n in zip(self.foll, self.pos.P[w]):
                total += n(t) * (1 - f.num(t) / f.den(t))
            values.append(total / self.pos.Q[w](t))
        top = max(values)
        assert best == survivors[values.index(top)]
        seen["leader"] += 1
        return best

    def checked_difference(self, differ, common, b, c):
        D = difference(self, differ, common, b, c)
        A = lambda w: self._numerator(common, w)  # noqa: E731
        assert D == A(b) * self.pos.Q[c] - A(c) * self.pos.Q[b]
        seen["difference"] += 1
        return D

    monkeypatch.setattr(position._PositionSolver, "_leader", checked_leader)
    monkeypatch.setattr(position._PositionSolver, "_difference", checked_difference)
    solve(Chomp(4, 4), "all")
    assert seen["leader"] > 50 and seen["difference"] > 20


def test_king_and_rook_rows_keep_the_numerators_path():
    """Rows that differ in more than two followers do not use the difference
    test (it costs more than it spares there); the all-neighbour channel's do."""
    from symbolic_noise.games.channels import get_channel

    game = Chomp(3, 4)
    v = game.start()
    for name, expected in (("king", False), ("rook", False), ("all", True)):
        pos = followers._Position(game, get_channel(name), v, fmpq(0), fmpq(1))
        solver = position._PositionSolver.__new__(position._PositionSolver)
        solver.pos, solver._difftest = pos, None
        assert (solver._differences() is not None) == expected, name


@pytest.mark.parametrize("misere", [False, True])
def test_heap_games_through_tremble_match_exact_backward_induction(misere):
    """Nim's ``tremble`` rows differ in two followers too (the sent move and
    the one delivered instead): the difference test's path agrees with exact
    backward induction, normal and misere play."""
    from symbolic_noise.games.channels import get_channel
    from symbolic_noise.games.heapgames import MultiNim
    from symbolic_noise.games.rulesets import Nim

    solver = position._PositionSolver.__new__(position._PositionSolver)
    solver.pos = followers._Position(Nim(6), get_channel("tremble"), 6, fmpq(0), fmpq(1))
    solver._difftest = None
    assert solver._differences() is not None  # (the path under test)
    ps = [Fraction(1, 9), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(7, 8), Fraction(1)]
    assert_matches_pointwise(Nim(9), "tremble", ps, misere=misere)
    assert_matches_pointwise(MultiNim((2, 3)), "tremble", ps, misere=misere)
