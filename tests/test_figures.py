"""Figures fit for a paper: labels never overlap (measured by bounding boxes),
clusters of breakpoints get zoom panels, the ribbon and the atlas show the
exact optimal moves, vector output works, and images match stored baselines.

Baselines live in ``tests/baseline/``; after an intended change of a figure,
regenerate them with ``SYMBOLIC_NOISE_UPDATE_BASELINES=1 python -m pytest
tests/test_figures.py`` and look at them before committing.
"""

import os
from pathlib import Path

import matplotlib
import pytest
from matplotlib.testing.compare import compare_images

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.io.atlas import family_values
from symbolic_noise.io.figlayout import OTHER, PALETTE, overlaps
from symbolic_noise.io.plots import LABEL_GIDS, atlas, plot_value, save, tagged

BASELINE = Path(__file__).parent / "baseline"


@pytest.fixture(scope="module")
def nim20():
    return solve(Nim(20), "binary")


@pytest.mark.parametrize("k, moves", [(5, True), (10, True), (12, False), (20, False)])
def test_no_two_labels_overlap(nim20, k, moves):
    fig = plot_value(nim20, k, moves=moves)
    assert overlaps(fig, LABEL_GIDS) == []
    save(fig, _tmp("overlap.png"))  # a real draw, then measure again
    assert overlaps(fig, LABEL_GIDS) == []


def _tmp(name):
    import tempfile

    return os.path.join(tempfile.mkdtemp(), name)


def test_overlap_detector_sees_the_old_crowding(nim20):
    # without zoom panels and without pruning, k = 10 crowds ten labels into [0.74, 0.82]
    fig = plot_value(nim20, 10, zoom=False, ribbon=False)
    shown = [t for t in tagged(fig, "p") if t.get_visible()]
    hidden = [t for t in tagged(fig, "p") if not t.get_visible()]
    assert hidden, "crowded p labels must be hidden rather than drawn on each other"
    for t in hidden:
        t.set_visible(True)
    assert overlaps(fig, ["p"]), "the detector must see the overlap the pruning removed"
    assert len(shown) + len(hidden) == 10


def test_cluster_gets_a_zoom_panel_with_every_breakpoint(nim20):
    f = nim20.value(10)
    fig = plot_value(nim20, 10)
    assert len(fig.axes) == 4  # main, ribbon, two zoom panels
    zoom_x = sorted(m.get_xdata()[0] for m in tagged(fig, "zoom:breakpoint"))
    exact = sorted(float(x) for x in f.breakpoints if float(x) > 0.7)
    assert zoom_x == pytest.approx(exact, abs=1e-12)
    # the main axes writes only the isolated breakpoint's p
    assert [t.get_text() for t in tagged(fig, "p")] == ["1/2"]


def test_ribbon_colours_follow_the_exact_optimal_moves(nim20):
    fig = plot_value(nim20, 10)
    ribbon = fig.axes[1]
    bands = [p for p in ribbon.patches if p.get_gid() == "ribbon"]
    f = nim20.value(10)
    runs = []
    for lab in f.labels:
        if not runs or runs[-1] != lab:
            runs.append(lab)
    assert len(bands) == len(runs) == 4  # 0, then 7, 8, 4
    colours = [matplotlib.colors.to_hex(b.get_facecolor()) for b in bands]
    # each move's own colour (move m: PALETTE[m] below sixteen), whatever its order in the figure
    assert colours == [PALETTE[m].lower() for m in (0, 7, 8, 4)]
    assert [t.get_text() for t in ribbon.texts if t.get_visible()][:2] == ["0", "7"]


def test_palette_is_colour_blind_safe_and_distinct():
    assert PALETTE[:7] == ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
    assert len(set(PALETTE)) == len(PALETTE) and OTHER not in PALETTE


@pytest.mark.parametrize("suffix", ["pdf", "svg"])
def test_vector_output(nim20, suffix):
    path = _tmp(f"nim10.{suffix}")
    save(plot_value(nim20, 10), path)
    head = Path(path).read_bytes()[:200]
    assert head.startswith(b"%PDF") if suffix == "pdf" else b"<svg" in Path(path).read_bytes()[:2000]


def test_atlas_bands_are_the_exact_pieces():
    rows = family_values("nim", range(1, 9))
    fig = atlas(rows)
    ax = fig.axes[0]
    rects = [p for p in ax.patches if p.get_gid() == "atlas"]
    # k = 5: move 0, then 3 from 1/2, then 4 from the root 0.7623...
    row5 = sorted((r.get_x(), r.get_label()) for r in rects if r.get_y() == 4.5)
    assert [lab for _, lab in row5] == ["0", "3", "4"]
    assert row5[1][0] == 0.5 and abs(row5[2][0] - float(rows[4][1].breakpoints[1])) < 1e-12
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0] == "0" and "3" in legend and "4" in legend


def test_atlas_for_chomp_and_subtraction_games():
    rows = family_values("chomp", [2, 3], param="2")
    assert sorted(rows[0][1].labels[0]) == [(1, 2), (2, 1)]  # 2 x 2, king: N = (1-p)/2 below 1/3
    rows = family_values("subtraction:1,2,3", [4, 5], channel="identity")
    assert [sorted(f.labels[0]) for _, f in rows] == [["take 1", "take 2", "take 3"], ["take 1"]]


def _compare(fig, name, tol=3.0):
    actual = _tmp(name)
    fig.savefig(actual, dpi=60)
    expected = BASELINE / name
    if os.environ.get("SYMBOLIC_NOISE_UPDATE_BASELINES"):
        BASELINE.mkdir(exist_ok=True)
        expected.write_bytes(Path(actual).read_bytes())
    assert expected.exists(), f"no baseline {expected}: regenerate (see this module's docstring)"
    result = compare_images(str(expected), actual, tol=tol)
    assert result is None, result


def test_image_nim5_value(nim20):
    _compare(plot_value(solve(Nim(5), "binary"), moves=True), "nim5_moves.png")


def test_image_nim10_zoom(nim20):
    _compare(plot_value(nim20, 10), "nim10_zoom.png")


def test_image_chomp_atlas():
    _compare(atlas(family_values("chomp", [1, 2, 3, 4], param="2"), title="Chomp 2 x k"), "chomp2_atlas.png")


def test_image_comparison_detects_a_change(nim20):
    with pytest.raises(AssertionError):
        _compare_strict_other()


def _compare_strict_other():
    # a different figure against the nim10 baseline must fail the comparison
    fig = plot_value(solve(Chomp(2, 2), "king"))
    actual = _tmp("other.png")
    fig.savefig(actual, dpi=60)
    expected = BASELINE / "nim10_zoom.png"
    try:
        result = compare_images(str(expected), actual, tol=3.0)
    except Exception as exc:  # a size mismatch is reported as an error
        raise AssertionError(str(exc)) from None
    assert result is None, result


def test_move_curves_share_the_ribbon_colours():
    sol = solve(Chomp(2, 3), "king")
    fig = plot_value(sol, moves=True)
    curve = {line.get_label()[len("send "):]: matplotlib.colors.to_hex(line.get_color()) for line in tagged(fig, "move")}
    bands = fig.axes[1].patches
    named = {t.get_text(): t.get_position()[0] for t in fig.axes[1].texts}
    for name, x in named.items():
        band = next(b for b in bands if b.get_x() <= x <= b.get_x() + b.get_width())
        assert matplotlib.colors.to_hex(band.get_facecolor()) == curve[name], name


def test_window_draws_only_the_exact_sub_interval(nim20):
    from flint import fmpq

    fig = plot_value(nim20, 10, window=(fmpq(74, 100), fmpq(82, 100)), zoom=False)
    (line,) = tagged(fig, "value")
    xs = line.get_xdata()
    assert xs[0] == 0.74 and xs[-1] == 0.82
    assert len([t for t in tagged(fig, "p") if t.get_visible()]) >= 7  # labels spread at this scale
    assert overlaps(fig, LABEL_GIDS) == []


def test_more_moves_than_colours_stay_distinct(nim20):
    """Nim 20 has more sent moves than the palette has colours: every curve
    has its move's colour and, past sixteen moves, a dash pattern, so no two
    curves look the same; the legend lists every move in order, N last."""
    from symbolic_noise.io.palette import move_colour

    fig = plot_value(nim20, moves=True)
    lines = tagged(fig, "move")
    assert len(lines) == 20
    looks = {(matplotlib.colors.to_hex(line.get_color()), str(line.get_linestyle())) for line in lines}
    assert len(looks) == 20
    for line in lines:
        assert matplotlib.colors.to_hex(line.get_color()).upper() == move_colour(int(line.get_label()[len("send "):]))
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == [f"send {m}" for m in range(20)] + ["N(p), optimal play"]
    colour = {line.get_label()[len("send "):]: matplotlib.colors.to_hex(line.get_color()).upper() for line in lines}
    bands = fig.axes[1].patches
    for t in fig.axes[1].texts:  # each band has the colour of its move's curve
        if t.get_text() in colour:
            band = next(b for b in bands if b.get_x() <= t.get_position()[0] <= b.get_x() + b.get_width())
            assert matplotlib.colors.to_hex(band.get_facecolor()).upper() == colour[t.get_text()]


def test_zoom_labels_sit_clear_of_the_curve(nim20):
    """The optimal moves of a zoom panel are written above its curve (nim 10
    with --moves printed "4" under the curve near 0.809)."""
    fig = plot_value(nim20, 10, moves=True)
    fig.draw_without_rendering()
    renderer = fig._get_renderer()
    labels = [t for t in tagged(fig, "zoom:optimal") if t.get_visible()]
    assert {t.get_text().strip() for t in labels} >= {"8", "4"}
    for t in labels:
        ax = t.axes
        box = t.get_bbox_patch().get_window_extent(renderer)
        (line,) = [ln for ln in ax.lines if ln.get_gid() == "zoom:value"]
        pixels = ax.transData.transform(list(zip(line.get_xdata(), line.get_ydata())))
        under = [y for x, y in pixels if box.x0 - 2 <= x <= box.x1 + 2]
        assert under and max(under) < box.y0, t.get_text()
