"""An answer at one p displays itself in Jupyter, as solutions do."""

from fractions import Fraction

from symbolic_noise import Nim, solve

import fraction_reference as ref


def test_an_answer_at_a_rational_p_shows_its_exact_value_and_moves():
    sol = solve(Nim(3), "binary")
    result = sol.at("1/4")
    value, optimal, _ = ref.nim(3, "binary", Fraction(1, 4))[3]
    assert value == Fraction(13, 20) and optimal == {0}
    html = result._repr_html_()
    assert ">13/20<" in html and ">1/4<" in html and ">0<" in html
    tex = result._repr_latex_()
    assert r"\tfrac{13}{20}" in tex and r"\tfrac{1}{4}" in tex and "optimal: 0" in tex


def test_an_answer_at_a_breakpoint_shows_the_tie():
    sol = solve(Nim(5), "binary")
    rho = sol.value().breakpoints[1]  # 0.7623..., where 3 and 4 tie
    result = sol.at(rho)
    assert sorted(result.optimal) == [3, 4]
    assert "0.762336" in result._repr_latex_() and "optimal: 3, 4" in result._repr_latex_()
    assert "CRootOf" in result._repr_html_()


def test_two_player_solutions_and_phase_diagrams_display_themselves():
    from symbolic_noise import Chomp, solve_players
    from symbolic_noise.analysis.phase import phase

    sol = solve_players(Nim(3), "binary", "binary@1/10")
    assert "binary vs binary@1/10" in repr(sol) and "<table" in sol._repr_html_()
    d = phase(Chomp(2, 2), "king", "king@q")
    assert repr(d) == "<PhaseDiagram of Chomp, 2 x 2 bar: 2 cells, 2 critical values of q>"
    assert d._repr_html_().startswith("<pre>N(p, q) for Chomp, 2 x 2 bar")
