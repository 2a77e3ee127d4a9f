"""Spurious crossings left out of the decomposition, real ones kept (issue 11).

:func:`symbolic_noise.exact.crossings.no_common_zero` may drop a resultant root
only when it proves that the two polynomials have no common zero near that
line in the part of the square that counts; a tangency, a real crossing, or a
crossing at a point the proof cannot separate must stay critical values.
"""

import random

from flint import fmpq, fmpz_poly

from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.exact.bivariate import CTX, BoxSign, evaluate2
from symbolic_noise.exact.cad import Projection, columns, decompose, locate_point
from symbolic_noise.exact.crossings import no_common_zero
from symbolic_noise.games import Nim
from symbolic_noise.analysis.phase import phase
from symbolic_noise.solvers.twoplayer.players import solve_players

P, Q = CTX.gens()
HALF = fmpq(1, 2)
WHOLE = [(fmpq(0), fmpq(1))]


def _sign(x):
    return (x > 0) - (x < 0)


def test_tangency_and_crossing_are_not_excluded():
    # tangent at (1/2, 1/2): a common zero, never proved apart
    f, g = BoxSign(4 * P - 2 - (2 * Q - 1) ** 2), BoxSign(4 * P - 2 + (2 * Q - 1) ** 2)
    assert not no_common_zero(f, g, WHOLE, HALF - fmpq(1, 2**30), HALF + fmpq(1, 2**30))
    # a crossing at an irrational point (p = q = 1/sqrt(2)), on a narrow q-interval around it
    r = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
    r.refine_to(fmpq(1, 2**30))
    f, g = BoxSign(P - Q), BoxSign(2 * P * Q - 1)
    assert not no_common_zero(f, g, WHOLE, r.lo, r.hi)


def test_complex_and_outside_meetings_are_excluded():
    # p^2 + 1/16 and p - q: no real common zero at all near q = 1/2
    assert no_common_zero(BoxSign(16 * P * P + 1), BoxSign(P - Q), WHOLE, HALF, HALF)
    # p = q and p = 1 - q meet at p = 1/2: outside the p-intervals [0, 1/4] and [3/4, 1]
    f, g = BoxSign(P - Q), BoxSign(P + Q - 1)
    assert no_common_zero(f, g, [(fmpq(0), fmpq(1, 4)), (fmpq(3, 4), fmpq(1))], HALF, HALF)
    assert not no_common_zero(f, g, [(fmpq(1, 4), fmpq(3, 4))], HALF, HALF)


def test_meeting_outside_the_square_is_not_a_critical_value():
    # p = q + 1/4 and p = 2 - q meet at q = 7/8, p = 9/8 > 1: no critical value at 7/8,
    # but the tangency trap's q = 1/2 still is one, and cells stay sign-invariant
    polys = [4 * P - 4 * Q - 1, P + Q - 2, 4 * P - 2 - (2 * Q - 1) ** 2, 2 * P - 1]
    cols = decompose(polys)
    crit = [c.lo for c in cols] + [cols[-1].hi]
    assert not any(c.compare(RealAlgebraic.rational("7/8")) == 0 for c in crit)
    assert any(c.compare(RealAlgebraic.rational("1/2")) == 0 for c in crit)
    rng = random.Random(8)
    for _ in range(300):
        p, q = fmpq(rng.randint(1, 999), 1000), fmpq(rng.randint(1, 999), 1000)
        where = locate_point(cols, polys, p, q)
        if where[0] == "cell":
            col = cols[where[1]]
            s = col.sectors[where[2]]
            assert all(_sign(evaluate2(f, p, q)) == _sign(evaluate2(f, s, col.q)) for f in polys)


def test_restricted_crossing_kept_only_where_both_count():
    # p = q and p = 1 - 2q cross at (1/3, 1/3), off the grid lines.  Both relevant on
    # p <= 1/4 only (grid cells): the crossing is outside, q = 1/3 is no critical value;
    # relevant on the whole square (or on p >= 1/4), it is one
    from symbolic_noise.exact.cad import GRID

    def crit_with(cells):
        proj = Projection()
        proj.add(P - Q, cells)
        proj.add(P + 2 * Q - 1, cells)
        return [c.lo for c in columns(proj)]

    third = RealAlgebraic.rational("1/3")
    left = {(i, j) for i in range(GRID // 4) for j in range(GRID)}
    right = {(i, j) for i in range(GRID // 4, GRID) for j in range(GRID)}
    assert not any(c.compare(third) == 0 for c in crit_with(left))
    assert any(c.compare(third) == 0 for c in crit_with(right))
    assert any(c.compare(third) == 0 for c in crit_with(None))


def test_nim5_proved_cells_and_random_points_against_pointwise():
    # the combination pruning of the relevance sets (phase._Solver._needed_factors):
    # every proved 2-cell's formula and optimal moves, and random points, exactly
    d = phase(Nim(5), "binary", "binary@q")
    cells = list(d.cad_cells.values())
    for cell in cells[:: max(1, len(cells) // 80)]:
        value, optimal = d._solver.pointwise(cell.p, cell.q)
        assert cell.value(cell.p, cell.q) == value and cell.optimal == optimal
    rng = random.Random(2027)
    for _ in range(12):
        p, q = fmpq(rng.randint(0, 97), 97), fmpq(rng.randint(0, 97), 97)
        ref = solve_players(Nim(5), f"binary@{p}", opponent_channel=f"binary@{q}").at(0)
        r = d.locate(p, q)
        assert (r.value, r.optimal) == (ref.value, ref.optimal)


def test_neighbours_proved_apart_need_no_resultant():
    # p = q/2 + 1/8 and p = q/4 are neighbours in every column but never meet in the
    # square: proved by boxes, their resultant is not taken; p = q and p = 1 - q meet
    proj = Projection()
    a, b = proj.add(8 * P - 4 * Q - 1), proj.add(4 * P - Q)
    columns(proj)
    assert (a, b) not in proj.pairs
    proj = Projection()
    a, b = proj.add(P - Q), proj.add(P + Q - 1)
    cols = columns(proj)
    assert (a, b) in proj.pairs
    assert any(c.lo.compare(RealAlgebraic.rational("1/2")) == 0 for c in cols)
