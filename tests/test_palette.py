"""One look per move in every figure: the colour of a move is the same in the
value plot, its ribbon, the atlas and the phase diagram; no two optimal-move
sets of one figure look the same (face colour and hatching, read off the
drawn artists); legends list the sets in move order; titles name the
channel and the play."""

import matplotlib
import pytest
from hypothesis import given
from hypothesis import strategies as st

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.analysis.phase import phase
from symbolic_noise.io.atlas import _set_text, atlas, family_values
from symbolic_noise.io.palette import (
    HATCHES, LOOKS, PALETTE, MoveColours, move_colour, move_index, move_order, move_style, set_order,
)
from symbolic_noise.io.plots import plot_value, tagged


def hex_of(artist) -> str:
    return matplotlib.colors.to_hex(artist.get_facecolor()).upper()


def look(patch) -> tuple[str, str]:
    return hex_of(patch), patch.get_hatch() or ""


@pytest.fixture(scope="module")
def nim40_rows():
    return family_values("nim", range(1, 41))


# --------------------------------------------------------------------------- the palette itself


def test_a_move_has_its_look_whatever_the_figure_met_before():
    first, second = MoveColours(), MoveColours()
    for m in range(30, 0, -1):
        first.style({m})
    assert [first.style({m}) for m in range(30)] == [second.style({m}) for m in range(30)]
    assert [move_style(m) for m in range(30)] == [first.style({m}) for m in range(30)]


def test_single_moves_have_distinct_looks_up_to_the_palette_times_the_hatchings():
    looks = [move_style(m) for m in range(LOOKS)]
    assert len(set(looks)) == LOOKS == len(PALETTE) * len(HATCHES)
    assert move_style(0).hatch == "" and move_style(len(PALETTE)).face == PALETTE[0]


def test_heap_moves_take_the_look_of_what_they_take():
    assert move_style("9->7") == move_style("take 2") == move_style("4->2") == move_style(1)
    # Chomp squares along anti-diagonals: the index does not depend on the board
    assert [move_index(sq) for sq in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (3, 1)]] == list(range(6))


@given(st.sets(st.frozensets(st.integers(0, 300), min_size=1, max_size=3), max_size=60))
def test_no_two_sets_of_one_figure_share_a_look(sets):
    colours = MoveColours()
    styles = [colours.style(s) for s in sets]
    assert len(set(styles)) == len(styles)
    assert not colours.exhausted()


def test_sets_sort_by_their_moves():
    sets = [frozenset({10}), frozenset({2}), frozenset({2, 3}), frozenset(), frozenset({0})]
    assert sorted(sets, key=set_order) == [frozenset({0}), frozenset({2}), frozenset({2, 3}), frozenset({10}), frozenset()]
    squares = [(2, 1), (1, 3), (1, 2), (2, 2)]
    assert sorted(squares, key=move_order) == [(1, 2), (1, 3), (2, 1), (2, 2)]
    assert sorted(["take 10", "take 2", "take 1"], key=move_order) == ["take 1", "take 2", "take 10"]


# --------------------------------------------------------------------------- one colour per move across figures


def test_move_zero_and_every_move_have_one_colour_in_plot_atlas_and_phase():
    # plot: the ribbon of Nim 5 (moves 0, 3, 4)
    fig = plot_value(solve(Nim(5), "binary"))
    ribbon = {t.get_text(): t.get_position()[0] for t in fig.axes[1].texts}
    bands = fig.axes[1].patches
    for name, x in ribbon.items():
        band = next(b for b in bands if b.get_x() <= x <= b.get_x() + b.get_width())
        assert hex_of(band) == move_colour(int(name)), name
    # atlas: every band of every row
    ax = atlas(family_values("nim", range(1, 9)), shade=False).axes[0]
    for r in (p for p in ax.patches if p.get_gid() == "atlas"):
        assert hex_of(r) == move_colour(int(r.get_label())), r.get_label()
    # phase: every cell
    fig = phase(Nim(5), "binary", "binary@q").plot()
    regions = [p for p in fig.axes[0].patches if p.get_gid() == "region"]
    assert [r.get_label() for r in regions] == ["0", "3", "4"]
    for region in regions:
        assert hex_of(region) == move_colour(int(region.get_label()))
    assert move_colour(0) == PALETTE[0]


def test_chomp_squares_have_one_colour_in_plot_and_atlas():
    sol = solve(Chomp(2, 3), "king")
    fig = plot_value(sol, moves=True)
    curve = {line.get_label()[len("send "):]: matplotlib.colors.to_hex(line.get_color()).upper()
             for line in tagged(fig, "move")}
    ax = atlas(family_values("chomp", [2, 3], param="2"), shade=False).axes[0]
    for r in (p for p in ax.patches if p.get_gid() == "atlas"):
        if r.get_label() in curve:  # a single square
            assert hex_of(r) == curve[r.get_label()]


# --------------------------------------------------------------------------- distinct looks, legends


def test_atlas_with_more_sets_than_colours_keeps_every_set_distinct(nim40_rows):
    fig = atlas(nim40_rows)
    ax = fig.axes[0]
    rects = [p for p in ax.patches if p.get_gid() == "atlas"]
    by_set: dict = {}
    for r in rects:
        by_set.setdefault(r.get_label(), set()).add(look(r))
    assert len(by_set) > len(PALETTE)  # more sets than colours: the case that ran out of colours before
    assert all(len(looks) == 1 for looks in by_set.values()), "a set has one look"
    looks = [next(iter(s)) for s in by_set.values()]
    assert len(set(looks)) == len(looks), "no two sets share face colour and hatching"
    # the legend's patches show the same looks, sorted by move
    legend = ax.get_legend()
    names = [t.get_text() for t in legend.get_texts()]
    assert names == sorted(names, key=lambda n: int(n.split(",")[0])) and set(names) == set(by_set)
    for name, handle in zip(names, legend.legend_handles):
        assert look(handle) == next(iter(by_set[name]))
    # hatched regions carry their names
    hatched = {name for name, s in by_set.items() if next(iter(s))[1]}
    labelled = {t.get_text() for t in ax.texts if t.get_gid() == "atlas-label"}
    assert hatched and labelled <= hatched and len(labelled) >= len(hatched) // 2


def test_atlas_legend_is_in_move_order():
    ax = atlas(family_values("nim", range(1, 12)), shade=False).axes[0]
    names = [int(t.get_text()) for t in ax.get_legend().get_texts()]
    assert names == sorted(names)
    rows = family_values("chomp", [1, 2, 3, 4], param="2")
    ax = atlas(rows, shade=False).axes[0]
    names = [t.get_text() for t in ax.get_legend().get_texts()]
    sets = sorted({frozenset(s) for _, f in rows for s in f.labels}, key=set_order)
    assert names == [_set_text(s) for s in sets]
    assert names[0] == "(1,2)" and names[-1] == "(2,4)", names  # squares by row, then column


def test_plot_legend_is_in_move_order_with_n_last():
    fig = plot_value(solve(Chomp(2, 3), "king"), moves=True)
    names = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert names[-1] == "N(p), optimal play"
    squares = [tuple(int(x) for x in n[len("send ("):-1].split(",")) for n in names[:-1]]
    assert squares == sorted(squares)


# --------------------------------------------------------------------------- titles


@pytest.mark.parametrize("misere, play", [(False, "normal play"), (True, "misère play")])
def test_plot_and_phase_titles_name_the_channel_and_the_play(misere, play):
    fig = plot_value(solve(Nim(4), "binary", misere=misere))
    assert "binary channel" in fig.axes[0].get_title() and play in fig.axes[0].get_title()
    title = phase(Nim(3), "binary", "binary@q", misere=misere).plot().axes[0].get_title()
    assert "binary channel at p" in title and "binary channel at q" in title and play in title


def test_a_collision_keeps_the_move_colour_with_another_hatching():
    # 1-pile Nim's move 0 and a heap game's "take 1" share index 0: in one figure the
    # second keeps its colour and takes the next hatching
    colours = MoveColours()
    assert colours.style({0}) == move_style(0)
    second = colours.style({"take 1"})
    assert second.face == move_colour("take 1") and second.hatch == HATCHES[1]
    # moves without a natural number (a Kayles split) get an unhatched colour
    assert move_style("5->2+2").hatch == "" and move_style("5->2+2") == move_style("5->2+2")


def test_maps_draw_each_move_in_its_own_colour():
    """The map's ribbon uses the same look per move as plot, atlas and phase."""
    from matplotlib.colors import to_hex

    from symbolic_noise import Nim
    from symbolic_noise.io.mapplot import map_figure
    from symbolic_noise.io.palette import move_colour
    from symbolic_noise.solvers.maps import build_map

    m = build_map(Nim(5), "binary", width="2^-20")
    fig = map_figure(m)
    ribbon = [p for p in fig.axes[1].patches if p.get_gid() == "ribbon"]
    proved = [iv for iv in m.intervals if iv.kind == "proved"]
    assert len(ribbon) == len(proved) >= 3
    for patch, iv in zip(ribbon, proved):
        assert len(iv.optimal) == 1 and to_hex(patch.get_facecolor()) == to_hex(move_colour(next(iter(iv.optimal))))
    assert fig.axes[0].get_title().endswith("normal play")
