"""Plots: the drawn curves are the exact functions (at exact sample points), every
breakpoint is marked and labelled with the optimal moves to its right, figures
save to files that read back, and no GUI backend is touched."""

import sys
from fractions import Fraction

import pytest
from flint import fmpq, fmpz_poly
from matplotlib.figure import Figure
from matplotlib.image import imread

from symbolic_noise import solve
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.exact.piecewise import PiecewiseFunction
from symbolic_noise.io.plots import plot_family, plot_series, plot_value, save, tagged
from symbolic_noise.exact.ratfunc import RationalFunction
import mpmath
from fraction_reference import nim5_breakpoint  # noqa: E402  (mpmath findroot on plain backward induction)

#: rational p at which the drawn curve must be the exact value (grid points of
#: the sampler, the breakpoint 1/2 and the end points among them)
EXACT_AT = ["0", "1/4", "3/10", "1/2", "3/5", "9/10", "1"]


@pytest.fixture(scope="module")
def nim5():
    return solve(Nim(5), "binary")


@pytest.fixture(scope="module")
def nim6():
    return solve(Nim(6), "binary")


def texts(fig, gid):
    return [t.get_text() for t in tagged(fig, gid)]


def y_at(line, p):
    """The drawn y at the sample whose x is p (p must be a sample)."""
    xs, ys = line.get_xdata().tolist(), line.get_ydata().tolist()
    i = xs.index(float(Fraction(p)))
    return ys[i]


def test_nim5_breakpoints_marked_and_labelled(nim5):
    fig = plot_value(nim5)
    assert isinstance(fig, Figure)
    markers = tagged(fig, "breakpoint")
    assert len(markers) == 2 and len(tagged(fig, "rule")) == 2
    rho = nim5.value().breakpoints[1]
    xs = [m.get_xdata()[0] for m in markers]
    assert xs[0] == 0.5 and abs(xs[1] - float(rho)) < 1e-15
    assert abs(markers[1].get_ydata()[0] - float(nim5.at(rho).value)) < 1e-15
    assert texts(fig, "p") == ["1/2", "0.7623"]
    assert texts(fig, "optimal") == ["0", "3", "4"]
    assert texts(plot_value(nim5, digits=8), "p") == ["1/2", mpmath.nstr(nim5_breakpoint(), 8)]  # independent: mpmath findroot on tests/fraction_reference.py's backward induction
    assert len(tagged(fig, "value")) == 1 and tagged(fig, "move") == []


def test_nim5_moves_draws_every_sent_move(nim5):
    fig = plot_value(nim5, moves=True)
    curves = tagged(fig, "move")
    assert len(curves) == 5
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == [f"send {w}" for w in range(5)] + ["N(p), optimal play"]
    for line, (move, g) in zip(curves, nim5.move_values().items()):
        for p in EXACT_AT:
            assert abs(y_at(line, p) - float(g(fmpq(Fraction(p).numerator, Fraction(p).denominator)))) < 1e-12


def test_drawn_curve_is_the_exact_value(nim5):
    (line,) = tagged(plot_value(nim5), "value")
    for p in EXACT_AT:
        assert abs(y_at(line, p) - float(nim5.at(p).value)) < 1e-12
    xs = line.get_xdata().tolist()
    assert xs[0] == 0.0 and xs[-1] == 1.0 and xs == sorted(xs)
    # every drawn point is the exact value at (the rational number) its x
    for x, y in list(zip(xs, line.get_ydata().tolist()))[::37]:
        assert abs(y - float(nim5.at(Fraction(x)).value)) < 1e-12


def test_other_position_and_its_title(nim5):
    fig = plot_value(nim5, 3)
    assert fig.axes[0].get_title() == "N(p) for 1-pile Nim, k = 5, position 3, binary channel, normal play"
    assert texts(fig, "optimal") == ["0", "1"]
    (line,) = tagged(fig, "value")
    assert abs(y_at(line, "1/4") - float(nim5.at("1/4", 3).value)) < 1e-12
    assert plot_value(nim5, 5).axes[0].get_title() == "N(p) for 1-pile Nim, k = 5, binary channel, normal play"


def test_chomp_moves_named_by_row_and_column():
    sol = solve(Chomp(2, 2), "king")
    fig = plot_value(sol, moves=True)
    assert texts(fig, "optimal") == ["(1,2), (2,1)", "(2,2)"]
    assert texts(fig, "p") == ["1/3"]
    (marker,) = tagged(fig, "breakpoint")
    assert marker.get_xdata()[0] == float(Fraction(1, 3)) == marker.get_ydata()[0]
    assert [line.get_label() for line in tagged(fig, "move")] == ["send (1,2)", "send (2,1)", "send (2,2)"]


def test_heap_game_moves_named_as_heap_changes():
    fig = plot_value(solve(MultiNim((1, 2, 3)), "binary"))
    assert texts(fig, "optimal") == ["1->0", "3->1", "3->0", "2->1", "3->2"]
    assert len(tagged(fig, "breakpoint")) == 4


def test_family_of_nim_heaps(nim6):
    family = {f"k = {k}": nim6.value(k) for k in range(2, 7)}
    fig = plot_family(family)
    curves = tagged(fig, "value")
    assert [c.get_label() for c in curves] == list(family)
    assert len(tagged(fig, "breakpoint")) == sum(len(f.breakpoints) for f in family.values()) == 9
    for line, f in zip(curves, family.values()):
        assert abs(y_at(line, "3/5") - float(f(fmpq(3, 5)))) < 1e-12
    # a label names the set to the right of a breakpoint where the set changes
    changes = {
        " ".join(map(str, sorted(f.labels[j])))
        for f in family.values()
        for j in range(1, len(f.labels))
        if f.labels[j] != f.labels[j - 1]
    }
    labels = texts(fig, "optimal")
    assert labels and set(labels) <= changes
    # the same plot from (label, function) pairs
    again = plot_family(list(family.items()))
    assert texts(again, "optimal") == labels
    assert len(tagged(again, "value")) == 5


def test_narrow_piece_sampled_inside_its_exact_ends():
    root = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)  # 1/sqrt(2) = 0.70710678118654...
    near = RealAlgebraic.rational(fmpq(7071067811866, 10**13))  # about 1e-13 to its right
    p, one = RationalFunction(fmpz_poly([0, 1])), RationalFunction.constant(1)
    f = PiecewiseFunction.build([0, root, near, 1], [p, one - p, p])
    (line,) = tagged(plot_family({"f": f}), "value")
    points = list(zip(line.get_xdata().tolist(), line.get_ydata().tolist()))
    narrow = [(x, y) for x, y in points if float(root) <= x <= float(near) and y < 0.5]
    assert len(narrow) >= 24  # the middle piece's own samples: 1 - p < 1/2 there


def test_series_with_gaps():
    fig = plot_series([2, 3, 4, 5], [Fraction(1, 2), None, fmpq(3, 4), RealAlgebraic.rational("4/5")],
                      xlabel="k", ylabel="p0", title="fair threshold")
    (line,) = tagged(fig, "series")
    assert line.get_ydata().tolist()[0] == 0.5 and line.get_ydata().tolist()[2:] == [0.75, 0.8]
    assert line.get_ydata().tolist()[1] != line.get_ydata().tolist()[1]  # nan: a gap
    (missing,) = tagged(fig, "missing")
    assert missing.get_xdata().tolist() == [3.0]
    ax = fig.axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("k", "p0", "fair threshold")
    assert tagged(plot_series([1], [0.5], xlabel="", ylabel="", title=""), "missing") == []
    with pytest.raises(ValueError):
        plot_series([1, 2], [0.5], xlabel="", ylabel="", title="")


def test_drawing_into_given_axes(nim5):
    fig = Figure()
    left, right = fig.subplots(1, 2)
    assert plot_value(nim5, ax=left) is fig
    assert plot_series([1, 2], [0.1, 0.2], xlabel="k", ylabel="y", title="t", ax=right) is fig
    assert len(fig.axes) == 2 and len(tagged(fig, "breakpoint")) == 2
    sub = Figure().subfigures(1, 2)[1]
    assert plot_family({"N5": nim5.value()}, ax=sub.add_subplot()) is sub.figure


def test_save_png_reads_back(nim5, tmp_path):
    fig = plot_value(nim5, moves=True)
    path = tmp_path / "nim5.png"
    save(fig, path)
    assert path.stat().st_size > 0
    width, height = (round(s * fig.dpi) for s in fig.get_size_inches())
    assert imread(path).shape[:2] == (height, width)
    small = tmp_path / "small.png"
    save(fig, small, dpi=fig.dpi / 2)
    assert imread(small).shape[:2] == (round(height / 2), round(width / 2))
    save(fig, tmp_path / "nim5.svg")
    assert (tmp_path / "nim5.svg").read_text().lstrip().startswith("<?xml")


def test_no_gui_backend_touched(nim5, tmp_path):
    had_pyplot = "matplotlib.pyplot" in sys.modules
    save(plot_value(nim5, moves=True), tmp_path / "nim5.png")
    if not had_pyplot:
        assert "matplotlib.pyplot" not in sys.modules


def test_drawing_values_of_high_degree_formulas_match_exact_values():
    """Plots evaluate N_64's degree-304 formulas by balls (exact ones took
    minutes); the drawn values equal the exact ones to drawing accuracy."""
    import json
    import os

    from flint import fmpq, fmpz_poly

    from symbolic_noise.io.plots import _drawing_values
    from symbolic_noise.exact.ratfunc import RationalFunction

    with open(os.path.join(os.path.dirname(__file__), "data", "nim64_point315.json")) as fh:
        d = json.load(fh)
    f = RationalFunction(fmpz_poly([int(c) for c in d["left"][0]]), fmpz_poly([int(c) for c in d["left"][1]]))
    ts = [fmpq(9317, 10000) + fmpq(i, 10**7) for i in range(-50, 50, 7)]
    for t, y in zip(ts, _drawing_values(f, ts)):
        assert abs(y - float(f(t))) <= 1e-12


def test_a_diffuse_cluster_gets_a_rug_not_a_zoom():
    """Chomp 7 x 7 king breaks 1,200 times over [0, 0.71]: one cluster across most
    of the axis, which a zoom would show at hardly a larger scale.  Its
    breakpoints are ticks at the bottom, but where the optimal set changes;
    a tight cluster elsewhere still gets its zoom."""
    from flint import fmpq, fmpz_poly

    from symbolic_noise.exact.piecewise import PiecewiseFunction
    from symbolic_noise.exact.ratfunc import RationalFunction
    from symbolic_noise.io.plots import LABEL_GIDS, plot_function, tagged
    from symbolic_noise.io.figlayout import overlaps

    inner = [fmpq(i, 250) for i in range(1, 151)]  # 150 breakpoints over (0, 0.6]
    tight = [fmpq(80, 100), fmpq(801, 1000), fmpq(802, 1000)]  # a cluster 0.002 wide
    points = [fmpq(0)] + inner + tight + [fmpq(1)]
    formulas = [RationalFunction(fmpz_poly([i, 1]), fmpz_poly([1000])) for i in range(len(points) - 1)]
    labels = [frozenset({"a"}) if i < 50 else frozenset({"b"}) if i < 100 else frozenset({"a"}) for i in range(len(formulas))]
    f = PiecewiseFunction(points, formulas, labels, merge=False)
    fig = plot_function(f, name="N")
    rug = tagged(fig, "rug")
    assert len(rug) == 1 and len(rug[0].get_xdata()) == 150 - 2  # the two changes of the optimal set keep their rules
    assert len(tagged(fig, "rule")) == 2 + 3  # those two, and the tight cluster's three
    assert [t.get_text() for t in tagged(fig, "p")] == ["1/5", "2/5"]  # (the tight cluster's are in its zoom)
    assert len(tagged(fig, "zoom:breakpoint")) == 3  # one zoom: the tight cluster
    assert overlaps(fig, LABEL_GIDS) == []
