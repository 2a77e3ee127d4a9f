"""Mirror images of positions (solvers/symmetry.py): a square Chomp board's
transposed positions take their images' values, relabelled, and only where
the channel is shown to respect the transposition."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Here, assert_matches_pointwise, assert_same_solution

from symbolic_noise.games.channels import CustomChannel, get_channel
from symbolic_noise.games.rulesets import Chomp, Transpose
from symbolic_noise.solvers.storage import codec
from symbolic_noise.solvers.piecewise import symmetry
from symbolic_noise.solvers.schedules.positionsplit import solve_by_positions
from symbolic_noise.solvers.piecewise import solve


def _without_symmetry(monkeypatch):
    monkeypatch.setattr(Chomp, "symmetry", lambda self: None)


@st.composite
def diagrams(draw, n=6):
    """A Young diagram inside an n x n box (row lengths, bottom row first)."""
    rows = sorted(draw(st.lists(st.integers(1, n), min_size=1, max_size=n)), reverse=True)
    return tuple(rows)


@given(diagrams())
def test_transposition_is_an_involution_that_maps_moves_to_moves(v):
    t = Transpose()
    tv = t.position(v)
    assert t.position(tv) == v
    assert sum(v) == sum(tv) and len(tv) == v[0]
    game = Chomp(6, 6)
    for w in game.followers(v):
        square = game.move_label(v, w)
        # the mirrored square of v leads to the mirror image of w
        assert Chomp.bite(tv, *t.move(square)) == t.position(w)


@pytest.mark.parametrize("channel", ["king", "rook", "all", "chebyshev", "uniform"])
def test_a_square_board_solved_with_mirrors_equals_the_solve_without(channel, monkeypatch):
    game = Chomp(4, 4)
    with_mirrors = solve(game, channel)
    _without_symmetry(monkeypatch)
    assert_same_solution(with_mirrors, solve(game, channel))


def test_mirrored_values_share_the_image_s_breakpoints_and_formulas():
    game = Chomp(4, 4)
    sol = solve(game, "king")
    t = game.symmetry()
    shared = 0
    for v in sol.positions():
        f, g = sol.value(v), sol.value(t.position(v))
        assert symmetry.same_function(f, g)
        assert g.labels == tuple(frozenset(t.move(m) for m in s) for s in f.labels)
        assert g.point_labels == tuple(frozenset(t.move(m) for m in s) for s in f.point_labels)
        shared += all(a is b for a, b in zip(f.formulas, g.formulas))
    assert shared == len(sol.positions())


def test_rectangular_boards_have_no_symmetry():
    assert Chomp(3, 4).symmetry() is None and Chomp(4, 4).symmetry() is not None


def _lopsided():
    """The king channel, except at (3, 1): sending (1, 2) there delivers (1, 3)
    with probability p (its mirror image (2, 1, 1) keeps the king rows)."""
    return CustomChannel({(3, 1): {(1, 2): {(1, 2): "1-p", (1, 3): "p"}}}, default="king")


def test_a_channel_that_breaks_the_symmetry_is_not_mirrored_there_or_above():
    game, channel = Chomp(3, 3), _lopsided()
    t = game.symmetry()
    sol = solve(game, channel)
    values = sol.values()
    interval = (0, 1)
    assert symmetry.mirrored(game, channel, (2, 1, 1), values, interval) is None  # rows differ
    assert not symmetry.respects(game, channel, (2, 1, 1), (3, 1), t)
    # (3, 2) has the follower (3, 1), its image (2, 2, 1) the follower (2, 1, 1):
    # their values differ, so neither is mirrored from the other
    assert not symmetry.same_function(values[(3, 1)], values[(2, 1, 1)])
    assert symmetry.mirrored(game, channel, (2, 2, 1), values, interval) is None
    # where the rows and the followers agree, mirroring is allowed
    assert symmetry.mirrored(game, get_channel("king"), (2, 1, 1), solve(game, "king").values(), interval) is not None


@settings(max_examples=10, deadline=None)
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=40), min_size=1, max_size=3), st.booleans())
def test_solutions_through_a_lopsided_channel_match_pointwise_backward_induction(ps, misere):
    assert_matches_pointwise(Chomp(3, 3), _lopsided(), ps + [Fraction(1, 3)], misere)


def test_the_split_by_positions_mirrors_only_what_the_channel_respects():
    game, channel = Chomp(3, 3), _lopsided()
    stats = {}
    par = solve_by_positions(game, channel, executors=[Here(), Here()], stats=stats)
    assert_same_solution(solve(game, channel), par)
    mirrored = set(stats.get("mirrored", []))
    assert (2, 1, 1) not in mirrored and (3, 1) not in mirrored
    assert mirrored  # (pairs below (3, 1), such as (2,) and (1, 1), still are)


def test_relabelled_encodings_are_the_encodings_of_the_mirror_image():
    game = Chomp(4, 4)
    sol = solve(game, "rook")
    t = game.symmetry()
    for v in sol.positions():
        f = sol.value(v)
        image = symmetry.mirror(f, t)
        assert codec.relabel(codec.encode(f), t.move) == codec.encode(image)
        assert codec.relabel(codec.encode(f, wire=True), t.move) == codec.encode(image, wire=True)
        assert codec.dumps(codec.relabel(codec.encode(f), t.move)) == codec.text(image)


def test_a_self_symmetric_position_is_solved_over_one_move_of_each_mirror_pair():
    game = Chomp(3, 3)
    values = solve(game, "king").values()
    keep, rows = symmetry.representatives(game, get_channel("king"), (3, 3, 3), values, (0, 1))
    labels = [game.move_label((3, 3, 3), w) for w in game.followers((3, 3, 3))]
    kept = {labels[k] for k in keep}
    # one of (1, 2) and (2, 1), of (1, 3) and (3, 1), ...; the diagonal squares stand for themselves
    assert kept | {(j, i) for i, j in kept} == set(labels)
    assert {(2, 2), (3, 3)} <= kept and len(kept) == (len(labels) + 2) // 2
    assert len(rows.den) == len(labels)
    # positions that are not their own image, and channels that break the symmetry there, are solved whole
    assert symmetry.representatives(game, get_channel("king"), (3, 1), values, (0, 1)) is None
    broken = CustomChannel({(2, 2): {(1, 2): {(1, 2): "1-p", (2, 2): "p"}}}, default="king")
    assert symmetry.representatives(game, broken, (2, 2), solve(game, broken).values(), (0, 1)) is None


@settings(max_examples=10, deadline=None)
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=40), min_size=1, max_size=3), st.booleans())
def test_a_channel_lopsided_at_a_self_symmetric_position_matches_pointwise(ps, misere):
    broken = CustomChannel({(2, 2): {(1, 2): {(1, 2): "1-p", (2, 2): "p"}}}, default="king")
    assert_matches_pointwise(Chomp(3, 3), broken, ps, misere)


def test_closed_labels_add_every_optimal_move_s_image():
    game = Chomp(4, 4)
    sol = solve(game, "all")
    t = game.symmetry()
    for v in sol.positions():
        if t.position(v) == v:
            f = sol.value(v)
            assert all(frozenset(t.move(m) for m in s) == s for s in f.labels + f.point_labels)
