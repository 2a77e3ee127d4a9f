"""The batch screen of channels affine in p (solvers/batchscreen.py): sound on
random data, checked exactly, and invisible in the solver's results."""

from __future__ import annotations

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_matches_pointwise, random_graph

from symbolic_noise.games.channels import CustomChannel
from symbolic_noise.games.rulesets import Chomp, ExplicitGame
from symbolic_noise.solvers.piecewise import batched, followers
from symbolic_noise.solvers.piecewise.batchscreen import affine_rows, screen_cells
from symbolic_noise.solvers.piecewise import solve


@st.composite
def affine_problems(draw):
    """Rows ``P_wu = c0 (1 - p) + c1 p`` over a positive constant ``Q_w`` (each
    row sums to ``Q_w``... or not: the screen needs only ``psi >= 0``), k
    followers as spans of low-degree ratios with positive denominators, and
    dyadic cells in [0, 1]."""
    m = draw(st.integers(2, 5))
    n = draw(st.integers(1, 6))
    rows, dens = [], []
    for _ in range(m):
        row = []
        for _ in range(m):
            c0, c1 = draw(st.integers(0, 4)), draw(st.integers(0, 4))
            row.append(fmpz_poly([c0, c1 - c0]))
        rows.append(tuple(row))
        dens.append(fmpz_poly([draw(st.integers(1, 7))]))
    # n consecutive cells [lo, hi] of [0, 1] (hulls may overlap, as the solver's do)
    cuts = sorted(set(draw(st.lists(st.integers(1, 63), min_size=n - 1, max_size=n - 1))))
    bounds = [0] + cuts + [64]
    hulls = [(fmpq(a, 64), fmpq(b, 64)) for a, b in zip(bounds, bounds[1:])]
    n = len(hulls)
    pieces = []
    for _ in range(m):
        stops = sorted(set(draw(st.lists(st.integers(1, n - 1), max_size=2)) if n > 1 else [])) + [n]
        spans, start = [], 0
        for stop in stops:
            num = fmpz_poly(draw(st.lists(st.integers(-20, 20), min_size=1, max_size=5)))
            den = fmpz_poly(draw(st.lists(st.integers(1, 20), min_size=1, max_size=5)))  # > 0 on [0, 1]
            spans.append((start, stop, num, den))
            start = stop
        pieces.append(spans)
    return rows, dens, hulls, pieces


@settings(max_examples=150, deadline=None)
@given(affine_problems(), st.lists(st.integers(0, 100), min_size=1, max_size=5))
def test_a_dropped_move_is_strictly_worse_than_a_survivor_everywhere_on_the_cell(problem, where):
    rows, dens, hulls, pieces = problem
    P0, P1 = affine_rows(rows, dens)
    out = screen_cells(P0, P1, hulls, pieces)
    assert len(out) == len(hulls)
    for i, (lo, hi) in enumerate(hulls):
        survivors = out[i]
        if survivors is None:  # no enclosure proved (wide cells): the solver screens it alone
            continue
        assert survivors, "every cell keeps a move"
        formulas = []
        for spans in pieces:
            (num, den) = next((num, den) for a, b, num, den in spans if a <= i < b)
            formulas.append((num, den))
        for x in [lo, hi] + [lo + (hi - lo) * fmpq(t, 100) for t in where]:
            g = [1 - num(x) / den(x) for num, den in formulas]
            values = [sum((P_wu(x) * gu for P_wu, gu in zip(row, g)), fmpq(0)) / q(x) for row, q in zip(rows, dens)]
            best = max(values[w] for w in survivors)
            for w in range(len(rows)):
                if w not in survivors:
                    assert values[w] < best, (i, x, w)


def test_affine_rows_are_recognised_only_for_affine_rows_over_constants():
    one, p = fmpz_poly([1]), fmpz_poly([0, 1])
    assert affine_rows([(p, one - p), (one - p, p)], [one, one]) is not None
    assert affine_rows([(p * p, one - p * p), (one - p, p)], [one, one]) is None  # degree 2
    assert affine_rows([(p, one), (one, p)], [one + p, one + p]) is None  # Q not constant
    assert affine_rows([(one,)], [one]) is None  # one move


@st.composite
def affine_games(draw):
    """A random acyclic game with a random valid channel affine in p."""
    graph = random_graph(draw, 8)
    tables = {}
    for v, fs in graph.items():
        table = {}
        for w in fs:
            weights = [(draw(st.integers(0, 3)), draw(st.integers(0, 3))) for _ in fs]
            for k in range(2):  # positive total mass at p = 0 and at p = 1
                if sum(c[k] for c in weights) == 0:
                    i = draw(st.integers(0, len(fs) - 1))
                    weights[i] = (1, weights[i][1]) if k == 0 else (weights[i][0], 1)
            # equal totals at both ends keep Q constant (the batch's case)
            t0, t1 = sum(c[0] for c in weights), sum(c[1] for c in weights)
            total = max(t0, t1)
            weights[0] = (weights[0][0] + total - t0, weights[0][1] + total - t1)
            table[w] = {u: f"({c0}*(1-p) + {c1}*p)/{total}" for u, (c0, c1) in zip(fs, weights)}
        tables[v] = table
    return ExplicitGame(graph, max(graph)), CustomChannel(tables, default="identity")


rational_p = st.fractions(min_value=0, max_value=1, max_denominator=60)


@given(affine_games(), st.lists(rational_p, min_size=1, max_size=4), st.booleans())
def test_solutions_through_affine_channels_match_pointwise_backward_induction(gc, ps, misere):
    game, channel = gc
    assert_matches_pointwise(game, channel, ps, misere)


def _pieces(sol):
    return {
        v: [(str(pc.lo), str(pc.hi), pc.formula.text(), sorted(pc.label)) for pc in sol.value(v).pieces()]
        + [sorted(s) for s in sol.value(v).point_labels] + [str(x) for x in sol.value(v).points]
        for v in sol.values()
    }


@pytest.mark.parametrize("channel", ["king", "rook", "all"])
def test_chomp_solutions_are_the_same_with_and_without_the_batch_screen(channel, monkeypatch):
    game = Chomp(3, 4)
    with_batch = _pieces(solve(game, channel))
    init = followers._Position.__init__

    def no_batch(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.affine = None

    monkeypatch.setattr(followers._Position, "__init__", no_batch)
    assert _pieces(solve(game, channel)) == with_batch


def test_the_batch_screen_decides_most_chomp_cells(monkeypatch):
    """On Chomp 3 x 4 king the batch screen proves its bounds on (nearly)
    every base cell and leaves one move on over a third of them (132 of 316:
    ties are many), which the sweep then neither screens again nor tests
    exactly."""
    from symbolic_noise.solvers.piecewise import batchscreen

    seen = []
    original = batchscreen.screen_cells

    def spy(*args):
        out = original(*args)
        seen.extend(out)
        return out

    monkeypatch.setattr(batchscreen, "screen_cells", spy)
    solve(Chomp(3, 4), "king")
    assert sum(pre is None for pre in seen) < len(seen) / 10  # (wide cells, where the ball bounds fail)
    assert sum(pre is not None and len(pre) == 1 for pre in seen) > len(seen) / 4


@pytest.mark.parametrize("channel", ["king", "all"])
def test_batches_along_p_give_the_same_solution(channel, monkeypatch):
    """The base cells are screened in batches that follow the sweep (so that a
    lockstep worker's load is measured where the work is); batches of 2 cells
    give the same solution as one batch per position."""
    game = Chomp(3, 4)
    whole = _pieces(solve(game, channel))
    monkeypatch.setattr(batched, "_BATCH", 2)
    assert _pieces(solve(game, channel)) == whole


def test_equal_moves_both_survive_the_float_bounds():
    """Two moves with the same row are worth the same everywhere: no rounding
    may drop either of them (a drop needs a certain strict inequality), on
    cells as narrow as 2^-40 and with values near 1/3, which no float holds."""
    one, p = fmpz_poly([1]), fmpz_poly([0, 1])
    row = (p, one - p, 3 * one)  # (1/4)(p, 1 - p, 3): affine, >= 0 on [0, 1]
    rows = [row, row, (one - p, p, 3 * one)]
    P0, P1 = affine_rows(rows, [fmpz_poly([4])] * 3)
    third = (fmpz_poly([2]), fmpz_poly([3]))  # N = 2/3: g = 1/3
    pieces = [[(0, 3) + third], [(0, 3) + third], [(0, 3, fmpz_poly([1, 5]), fmpz_poly([7, 1]))]]
    tiny = fmpq(1, 2**40)
    hulls = [(fmpq(1, 3) - tiny, fmpq(1, 3) + tiny), (fmpq(0), fmpq(1, 2)), (fmpq(1, 2), fmpq(1))]
    for survivors in screen_cells(P0, P1, hulls, pieces):
        assert survivors is not None and {0, 1} <= set(survivors)


def test_a_cell_without_finite_bounds_is_left_to_the_sweep():
    """An enclosure too wide for a float (a steep formula on a wide cell)
    keeps the whole cell out of the batch screen (None), never drops a move."""
    one, p = fmpz_poly([1]), fmpz_poly([0, 1])
    P0, P1 = affine_rows([(p, one - p), (one - p, p)], [one, one])
    steep = (fmpz_poly([0, 10**400]), fmpz_poly([1]))  # g = 1 - 10^400 p
    pieces = [[(0, 2) + steep], [(0, 2, fmpz_poly([1]), fmpz_poly([2]))]]
    out = screen_cells(P0, P1, [(fmpq(0), fmpq(1, 2)), (fmpq(1, 2), fmpq(1))], pieces)
    assert out == [None, None]


def test_cells_below_zero_are_refused():
    one, p = fmpz_poly([1]), fmpz_poly([0, 1])
    P0, P1 = affine_rows([(p, one - p), (one - p, p)], [one, one])
    pieces = [[(0, 1, fmpz_poly([1]), fmpz_poly([2]))], [(0, 1, fmpz_poly([1]), fmpz_poly([3]))]]
    with pytest.raises(ValueError, match="probability"):
        screen_cells(P0, P1, [(fmpq(-1, 4), fmpq(1, 4))], pieces)
