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


def cells(fig):
    return [p for p in fig.axes[0].patches if p.get_gid() == "cell"]


def area(xy) -> float:
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def test_cells_tile_the_square(chomp23):
    d, fig = chomp23
    polys = cells(fig)
    assert len(polys) == len(d.cells)
    # the areas add up to the square's, and every point lies in exactly one cell
    assert sum(area(p.get_xy()) for p in polys) == pytest.approx(1.0, abs=1e-9)
    paths = [matplotlib.path.Path(p.get_xy()) for p in polys]
    rng = random.Random(5)
    points = np.array([(rng.random(), rng.random()) for _ in range(3000)])
    inside = np.array([path.contains_points(points) for path in paths])
    assert (inside.sum(axis=0) == 1).all()
    # including on the critical lines q = c, where the seams were
    for c in d.critical[1:-1]:
        row = np.array([(rng.random(), float(c)) for _ in range(200)])
        # (a point on a shared edge may count for both neighbours: nudge off the line by far less than a pixel)
        for dq in (1e-9, -1e-9):
            hits = np.array([path.contains_points(row + [0, dq]) for path in paths]).sum(axis=0)
            assert (hits == 1).all(), float(c)


def test_cells_are_filled_and_sealed_in_their_own_colour(chomp23):
    _, fig = chomp23
    for p in cells(fig):
        assert p.get_facecolor()[3] == 1.0 and p.get_linewidth() > 0
        assert matplotlib.colors.to_hex(p.get_edgecolor()) == matplotlib.colors.to_hex(p.get_facecolor())
    assert not [line for line in fig.axes[0].lines if line.get_gid() != "wall"]  # no grey rules at critical q


def _cell_at(paths, optimal, x, y):
    hits = [o for path, o in zip(paths, optimal) if path.contains_point((x, y))]
    return hits[0] if len(hits) == 1 else None


def test_walls_stand_only_where_the_optimal_set_changes(chomp23):
    d, fig = chomp23
    by_name = {c.name(): c.optimal for c in d.cells.values()}
    polys = cells(fig)
    paths = [matplotlib.path.Path(p.get_xy()) for p in polys]
    optimal = [by_name[p.get_label()] for p in polys]
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
