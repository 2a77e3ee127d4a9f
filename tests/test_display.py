"""Jupyter display and compact reprs: every result type shows itself as HTML
or LaTeX with exact content, and prints as one short line in the terminal."""

import re

import mpmath
import pytest
from fraction_reference import nim5_breakpoint
from flint import fmpz_poly

from symbolic_noise import Chomp, Nim, RealAlgebraic, solve
from symbolic_noise.analysis.certificates import check
from symbolic_noise.games.classical import sequence_report
from symbolic_noise.io.display import MAX_ROWS


@pytest.fixture(scope="module")
def nim3():
    return solve(Nim(3), "binary")


def test_solution_repr_is_one_short_line(nim3):
    text = repr(nim3)
    assert text == "<Solution: N(p) for 1-pile Nim, k = 3, binary channel, p in [0, 1]; 2 pieces, 1 breakpoint>"
    big = solve(Nim(20), "binary")
    assert "\n" not in repr(big) and "44 pieces, 43 breakpoints" in repr(big)


def test_solution_html_lists_pieces_breakpoints_and_optimal_moves(nim3):
    html = nim3._repr_html_()
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert len(rows) == 1 + 2 + 1 + 1  # header, two pieces, header, the breakpoint 1/2
    assert r"\frac{1 - p + p^{2}}{1 + p}" in rows[1] and ">0<" in rows[1] and ">O<" in rows[1]
    assert r"\frac{p - p^{3}}{1 - p + p^{2}}" in rows[2] and ">1<" in rows[2]
    assert ">1/2<" in rows[4] and ">0, 1, 2<" in rows[4]  # every move optimal at p = 1/2


def test_solution_latex_is_a_cases_environment(nim3):
    tex = nim3._repr_latex_()
    assert tex.startswith("$$N(p) = \\begin{cases}") and tex.endswith("\\end{cases}$$")
    assert "\\text{(optimal: 0)}" in tex and "\\text{(optimal: 1)}" in tex


def test_large_solution_is_cut_and_has_no_latex():
    sol = solve(Nim(20), "binary")
    assert sol._repr_latex_() is None  # 44 pieces > MAX_ROWS: HTML only
    html = sol._repr_html_()
    assert "... 20 more ..." in html and "... 19 more ..." in html  # 44 pieces and 43 breakpoints, 24 shown
    assert html.count("<tr>") == 2 + 2 * (MAX_ROWS + 1)


def test_piecewise_function_display(nim3):
    f = nim3.value()
    assert repr(f).startswith("<PiecewiseFunction on [0, 1], 2 pieces: [0, 1/2]: (1 - p + p^2)/(1 + p)")
    assert f._repr_latex_().startswith("$$f(p) = \\begin{cases}")
    assert "<table" in f._repr_html_()
    long = repr(solve(Nim(20), "binary").value())
    assert long.count("; ") == 3 and long.endswith("; ... 41 more>") and len(long) < 400


def test_irrational_breakpoint_shows_polynomial_and_interval():
    rho = solve(Nim(5), "binary").value().breakpoints[1]
    tex = rho._repr_latex_()
    # the expected text written out independently: the decimal from mpmath's
    # findroot on the backward induction of tests/fraction_reference.py (send 3
    # against send 4 at a heap of 5), the polynomial checked to vanish there at
    # 50 digits, and the 4-decimal interval around it
    x = nim5_breakpoint()
    coeffs = [1, -7, 18, -23, 9, 14, -20, 9]
    with mpmath.workdps(50):
        assert abs(mpmath.polyval(coeffs[::-1], x)) < mpmath.mpf(10) ** -45
    digits = mpmath.nstr(x, 15, strip_zeros=False)
    assert digits == "0.762336058143710" and mpmath.mpf("0.7623") < x < mpmath.mpf("0.7624")
    assert tex == (f"${digits}\\ldots$, the root of $1 - 7 x + 18 x^{{2}} - 23 x^{{3}} + 9 x^{{4}} + 14 x^{{5}}"
                   " - 20 x^{6} + 9 x^{7}$ in $[0.7623, 0.7624]$")
    assert RealAlgebraic.rational("2/3")._repr_latex_() == "$\\tfrac{2}{3}$"
    # the evaluable repr is unchanged
    assert eval(repr(rho), {"RealAlgebraic": RealAlgebraic, "fmpz_poly": fmpz_poly}) == rho


def test_certificate_display():
    sol = solve(Nim(5), "binary")
    good = check(sol, "N >= 1/2 on [0, 1/2]")
    assert repr(good) == "<Certificate holds: N >= 1/2 on [0, 1/2] at position 5; 1 piece certified>"
    assert "holds" in good._repr_html_() and "g &ge; 0" in good._repr_html_()
    bad = check(sol, "optimal 3 on [1/2, 4/5]")
    assert repr(bad).endswith("counterexample p = 51/64>")
    assert "51/64" in bad._repr_html_() and "FAILS" in bad._repr_html_()


def test_sequence_report_display():
    rep = sequence_report("0.77", 200)
    assert repr(rep).startswith("<SequenceReport octal:0.77: G(0..200) = 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 ...;")
    assert repr(rep).endswith("period 12 from n = 71 (proven)>")
    html = rep._repr_html_()
    assert html.count("<tr>") == 1 + 11 and "period 12 from n = 71" in html


def test_plot_conveniences_are_the_renderers(nim3):
    fig = nim3.plot()
    assert fig.axes[0].get_title() == "N(p) for 1-pile Nim, k = 3, binary channel, normal play"
    g = nim3.value().plot()
    assert g.axes[0].get_ylabel() == "f(p)"
    chomp = solve(Chomp(2, 2), "king")
    assert [t.get_text() for t in chomp.plot(moves=True).axes[0].texts if t.get_gid() == "optimal"] == [
        "(1,2), (2,1)", "(2,2)"]
