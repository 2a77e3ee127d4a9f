"""Phase plots read off their artists: the cells tile the unit square with no
gap and no overlap (so no seam can show at a critical q), walls stand exactly
where the optimal set changes, the legend is in move order, and the command
shows progress only on a terminal."""

import random

import matplotlib
import numpy as np
import pytest

from symbolic_noise.analysis.phase import phase
from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.io.palette import set_order


@pytest.fixture(scope="module")
def chomp23():
    d = phase(game_from_spec("chomp", "2x3"), "king", "king@q")
    return d, d.plot()


def regions(fig):
    return [p for p in fig.axes[0].patches if p.get_gid() == "region"]


def cells(fig):
    """``[(polygon vertices, region)]``: every cell, from its region's compound path."""
    return [(poly, r) for r in regions(fig) for poly in r.get_path().to_polygons()]


def area(xy) -> float:
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def test_cells_tile_the_square(chomp23):
    d, fig = chomp23
    polys = [poly for poly, _ in cells(fig)]
    assert len(polys) == len(d.cells) and len(regions(fig)) == len(d.regions())
    # the areas add up to the square's, and every point lies in exactly one cell
    assert sum(area(p) for p in polys) == pytest.approx(1.0, abs=1e-9)
    paths = [matplotlib.path.Path(p) for p in polys]
    rng = random.Random(5)
    points = np.array([(rng.random(), rng.random()) for _ in range(3000)])
    inside = np.array([path.contains_points(points) for path in paths])
    assert (inside.sum(axis=0) == 1).all()
    # including next to the critical lines q = c, where the seams were
    for c in d.critical[1:-1]:
        row = np.array([(rng.random(), float(c)) for _ in range(200)])
        for dq in (1e-9, -1e-9):  # (a point on a shared edge may count for both neighbours)
            hits = np.array([path.contains_points(row + [0, dq]) for path in paths]).sum(axis=0)
            assert (hits == 1).all(), float(c)


def test_a_region_is_one_path_of_its_cells_in_its_moves_colour(chomp23):
    d, fig = chomp23
    from symbolic_noise.io.palette import move_colour
    from symbolic_noise.io.reports import moves_text

    by_text = {moves_text(m): (m, cs) for m, cs in d.regions().items()}
    for r in regions(fig):
        moves, members = by_text[r.get_label()]
        assert len(r.get_path().to_polygons()) == len(members)
        (move,) = moves
        assert matplotlib.colors.to_hex(r.get_facecolor()).upper() == move_colour(move)
    assert not [line for line in fig.axes[0].lines if line.get_gid() != "wall"]  # no grey rules at critical q


def _rendered_seams(fig, dpi: int) -> int:
    """Pixels whose 5 x 5 neighbourhood lies in cells of one colour (by the
    geometry) but which are not that colour: a seam.  Walls are hidden."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from numpy.lib.stride_tricks import sliding_window_view

    ax = fig.axes[0]
    walls = [line for line in ax.lines if line.get_gid() == "wall"]
    for w in walls:
        w.set_visible(False)
    try:
        fig.set_dpi(dpi)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
    finally:
        for w in walls:
            w.set_visible(True)
    image = np.asarray(canvas.buffer_rgba())[..., :3] / 255.0
    box = ax.get_window_extent()
    xs = np.arange(int(box.x0) + 1, int(box.x1) - 1)
    ys = np.arange(int(box.y0) + 1, int(box.y1) - 1)
    X, Y = np.meshgrid(xs + 0.5, ys + 0.5)
    pts = ax.transData.inverted().transform(np.column_stack([X.ravel(), Y.ravel()]))
    faces = sorted({matplotlib.colors.to_rgb(r.get_facecolor()) for r in regions(fig)})
    expected = np.full(len(pts), -1)
    for r in regions(fig):  # the colour the geometry puts at each pixel's centre
        colour = faces.index(matplotlib.colors.to_rgb(r.get_facecolor()))
        for poly in r.get_path().to_polygons():
            (x0, y0), (x1, y1) = poly.min(axis=0), poly.max(axis=0)
            near = np.flatnonzero((pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1))
            expected[near[matplotlib.path.Path(poly).contains_points(pts[near])]] = colour
    expected = expected.reshape(X.shape)
    got = image[image.shape[0] - 1 - ys][:, xs]
    windows = sliding_window_view(expected, (5, 5))
    uniform = (windows.min(axis=(-1, -2)) == windows.max(axis=(-1, -2))) & (windows[..., 0, 0] >= 0)
    centre = got[2:-2, 2:-2]
    want = np.array(faces + [(1.0, 1.0, 1.0)])[windows[..., 2, 2]]
    return int((uniform & (np.abs(centre - want).max(axis=-1) > 0.02)).sum())


@pytest.mark.parametrize("dpi", [50, 72, 110])
def test_no_seam_shows_when_drawn(chomp23, dpi):
    """Rendered, not only measured: inside one region every pixel has the
    region's colour, at several resolutions (drawn cell by cell, the
    anti-aliased edges left thousands of lighter pixels at critical q)."""
    _, fig = chomp23
    assert _rendered_seams(fig, dpi) == 0


def test_the_seam_detector_sees_cells_drawn_one_by_one(chomp23):
    from matplotlib.patches import Polygon

    d, fig = chomp23
    old = d.plot()
    ax = old.axes[0]
    for r in regions(old):  # the former drawing: one anti-aliased polygon per cell
        for poly in r.get_path().to_polygons():
            ax.add_patch(Polygon(poly, facecolor=r.get_facecolor(), edgecolor="none", gid="cell"))
        r.remove()
    for p in ax.patches:
        p.set_gid("region")
    assert _rendered_seams(old, 72) > 100


def _cell_at(paths, optimal, x, y):
    hits = [o for path, o in zip(paths, optimal) if path.contains_point((x, y))]
    return hits[0] if len(hits) == 1 else None


def test_walls_stand_only_where_the_optimal_set_changes(chomp23):
    d, fig = chomp23
    from symbolic_noise.io.reports import moves_text

    by_text = {moves_text(m): m for m in d.regions()}
    found = cells(fig)
    paths = [matplotlib.path.Path(poly) for poly, _ in found]
    optimal = [by_text[r.get_label()] for _, r in found]
    walls = [line for line in fig.axes[0].lines if line.get_gid() == "wall"]
    assert walls
    checked = 0
    for line in walls:
        xs, ys = line.get_xdata(), line.get_ydata()
        for i in range(len(xs) - 1):
            (x0, y0), (x1, y1) = (xs[i], ys[i]), (xs[i + 1], ys[i + 1])
            length = np.hypot(x1 - x0, y1 - y0)
            if length < 1e-3:
                continue
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            nx, ny = (y0 - y1) / length * 1e-6, (x1 - x0) / length * 1e-6  # a step across the wall
            a, b = _cell_at(paths, optimal, mx + nx, my + ny), _cell_at(paths, optimal, mx - nx, my - ny)
            if a is not None and b is not None:
                assert a != b, (mx, my)
                checked += 1
    assert checked > 20
    # and every change of optimal set between neighbouring cells of a column has its wall
    for col in d.columns:
        sets = [d.cells[(col.index, k)].optimal for k in range(len(col.sectors))]
        changes = sum(a != b for a, b in zip(sets, sets[1:]))
        qs = (float(col.lo) + float(col.hi)) / 2
        crossing = [w for w in walls if len(w.get_ydata()) > 2 and min(w.get_ydata()) <= qs <= max(w.get_ydata())]
        assert len(crossing) == changes, col.index


def test_legend_in_move_order(chomp23):
    d, fig = chomp23
    names = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    from symbolic_noise.io.reports import moves_text

    assert names == ["optimal " + moves_text(m) for m in sorted(d.regions(), key=set_order)]


def test_phase_progress_is_quiet_off_a_terminal(capsys):
    from symbolic_noise.io.cli import main

    assert main(["phase", "nim", "3"]) == 0
    assert capsys.readouterr().err == ""


def test_phase_passes_progress_to_the_sweep(monkeypatch, capsys):
    import sys

    from symbolic_noise.io import cli

    calls = []

    class Recorder(cli._ProgressBar):
        def __call__(self, info, total=None):
            calls.append((info, total))

    monkeypatch.setattr(cli, "_ProgressBar", Recorder)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert cli.main(["phase", "nim", "3", "--quiet"]) == 0
    assert calls  # the library's callback reaches the bar (which --quiet keeps from drawing)
    assert calls[-1][0] == calls[-1][1]


def test_phase_plot_file_carries_its_provenance(tmp_path):
    from PIL import Image

    from symbolic_noise.games import Nim

    path = tmp_path / "p.png"
    phase(Nim(3), "binary", "binary@q", misere=True).plot(str(path))
    text = Image.open(path).text["Description"]
    assert "opponent channel: binary" in text and "misere: yes" in text
    assert "interval: p in [0, 1], q in [0, 1]" in text and "method: phase" in text
