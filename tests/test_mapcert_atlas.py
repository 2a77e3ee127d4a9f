"""The atlas drawn from certified maps (``atlas ... --method map``): every
proved stretch of a row carries the exact optimal set of the exact solve,
undecided stretches are drawn as such, and the figure says it was mapped."""

import pytest
from flint import fmpq

from symbolic_noise.io.atlas import UNDECIDED, atlas, family_game, family_map_rows, family_values
from symbolic_noise.io.cli import main


@pytest.mark.parametrize("family, ks", [("nim", range(1, 9)), ("subtraction:1,2,3", range(1, 7)), ("chomp", range(1, 4))])
def test_map_rows_agree_with_the_exact_rows(family, ks):
    game, channel, positions = family_game(family, ks)
    rows = dict(family_map_rows(game, channel, positions, width="2^-20", budget=3000))
    exact = dict(family_values(family, ks))
    for k, row in rows.items():
        # (a Chomp bar inside a wider board: its mirror moves are no proved tie, and stay undecided)
        assert row.map.complete or family == "chomp"
        for iv, label in zip(row.map.intervals, row.labels):
            if iv.kind != "proved":
                assert label == (UNDECIDED if iv.kind == "undecided" else None)
                continue
            for t in (iv.lo, (iv.lo + iv.hi) / 2, iv.hi):  # the set of a closed proved interval, at its ends too
                assert exact[k].label_at(t) == label, (k, t)


def test_undecided_stretches_are_drawn_and_named(tmp_path):
    game, channel, positions = family_game("nim", range(6, 9))
    rows = family_map_rows(game, channel, positions, budget=40)
    assert any(label == UNDECIDED for _, row in rows for label in row.labels)
    fig = atlas(rows)
    ax = fig.axes[0]
    assert any(p.get_label() == UNDECIDED for p in ax.patches)
    assert UNDECIDED in [t.get_text() for t in ax.get_legend().get_texts()]


def test_the_map_atlas_says_how_it_was_made(tmp_path):
    from PIL import Image

    path = tmp_path / "a.png"
    assert main(["atlas", "nim", "--k", "1..6", "--method", "map", "--width", "2^-20", "-o", str(path)]) == 0
    text = Image.open(path).text
    assert "method: map" in text["Description"]
    exact = tmp_path / "e.png"
    assert main(["atlas", "nim", "--k", "1..6", "--no-cache", "-o", str(exact)]) == 0
    assert "method: piecewise" in Image.open(exact).text["Description"]
