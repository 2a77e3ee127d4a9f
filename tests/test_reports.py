"""Renderings: the JSON contract parses back to the exact objects, the text reads
like the paper, tables reproduce the appendix format."""

import csv
import io
import json
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic_noise.exact.formula import parse_formula
from symbolic_noise import reports, solve
from symbolic_noise.games.rulesets import Chomp, Nim
from fraction_reference import nim5_breakpoint  # noqa: E402  (mpmath findroot on plain backward induction)

p = sympy.Symbol("p")


def check_number(obj, digits):
    """``exact`` parses with SymPy and ``decimal`` is it correctly rounded."""
    exact = sympy.sympify(obj["exact"])
    if exact != 0:
        with mpmath.workdps(digits + 40):
            v = mpmath.mpf(str(sympy.N(exact, digits + 40)))
            expected = mpmath.nstr(v, digits, strip_zeros=False, min_fixed=-8, max_fixed=30).rstrip(".")
        assert obj["decimal"] == expected
    return exact


def test_json_contract_nim5():
    sol = solve(Nim(5), "binary")
    data = json.loads(reports.dumps(reports.solution_json(sol, digits=25)))
    assert data["format"] == "symbolic-noise.solution/2"
    assert data["game"] == {"name": "nim", "description": "1-pile Nim, k = 5", "position": 5}
    assert [pc["optimal"] for pc in data["pieces"]] == [[0], [3], [4]]
    f = sol.value()
    for pc, formula in zip(data["pieces"], f.formulas):
        assert parse_formula(pc["value"]) == formula
        assert pc["class"] == "O"
        check_number(pc["lo"], 25)
        check_number(pc["hi"], 25)
    bps = data["breakpoints"]
    assert [b["optimal"] for b in bps] == [[0, 1, 2, 3, 4], [3, 4]]
    rho = check_number(bps[1], 25)
    assert isinstance(rho, sympy.CRootOf)
    assert bps[1]["decimal"] == mpmath.nstr(nim5_breakpoint(), 25, strip_zeros=False)  # independent: mpmath findroot on tests/fraction_reference.py's backward induction
    # the value at the breakpoint: exact, parsable, and equal to the formula there
    value = sympy.sympify(bps[1]["value"])
    formula = sympy.sympify(data["pieces"][1]["value"]).subs(p, rho)
    assert abs(sympy.N(value - formula, 50)) < sympy.Float("1e-45")
    check_number({"exact": bps[1]["value"], "decimal": bps[1]["value_decimal"]}, 25)
    lo, hi = (sympy.Rational(x) for x in bps[1]["isolating_interval"])
    assert lo < sympy.N(rho, 30) < hi
    assert [e["optimal"] for e in data["endpoints"]] == [[0], [0, 4]]


def test_json_names_chomp_moves_as_row_column():
    data = reports.solution_json(solve(Chomp(2, 2), "king"), digits=10)
    assert [pc["optimal"] for pc in data["pieces"]] == [[[1, 2], [2, 1]], [[2, 2]]]
    assert data["breakpoints"][0]["optimal"] == [[1, 2], [2, 1], [2, 2]]
    assert data["breakpoints"][0]["exact"] == "1/3" and data["breakpoints"][0]["value"] == "1/3"


def test_text_reads_like_the_paper():
    text = reports.solution_text(solve(Nim(3), "binary"))
    assert text.splitlines()[1:3] == [
        "  [0, 1/2]  N = (1 - p + p^2)/(1 + p)    optimal: 0",
        "  [1/2, 1]  N = (p - p^3)/(1 - p + p^2)  optimal: 1",
    ]
    assert "  p = 1/2  N = 1/2  optimal: 0, 1, 2" in text


def test_text_describes_irrational_breakpoints():
    text = reports.solution_text(solve(Nim(5), "binary"), digits=12)
    assert mpmath.nstr(nim5_breakpoint(), 12) == "0.762336058144"  # independent: mpmath findroot on tests/fraction_reference.py's backward induction
    assert "0.762336058144 is the root of 1 - 7p + 18p^2 - 23p^3 + 9p^4 + 14p^5 - 20p^6 + 9p^7 in [0.7623, 0.7624]" in text


def test_latex():
    tex = reports.solution_latex(solve(Nim(3), "binary"))
    assert "\\frac{1 - p + p^{2}}{1 + p} & 0 \\le p \\le \\tfrac{1}{2}" in tex
    assert "(optimal: 0)" in tex


def test_move_values_renderings():
    sol = solve(Nim(3), "binary")
    text = reports.move_values_text(sol)
    assert "N(send 2):" in text and "(2p - 3p^2 + p^3)/(1 - p + p^2)" in text
    data = reports.move_values_json(sol)
    assert [m["move"] for m in data] == [0, 1, 2]


def test_table_reproduces_appendix_format():
    sol = solve(Nim(4), "binary")
    rows = reports.table_rows(sol, reports.grid("0.01"))
    out = list(csv.reader(io.StringIO(reports.table_csv(sol, rows, 2, 15))))
    assert out[0] == ["k", "p", "N", "optimal"]
    assert len(out) == 102
    assert out[1] == ["4", "0.00", "1.000000000000000", "0"]
    assert out[51] == ["4", "0.50", "0.500000000000000", "0;1;2;3"]
    assert out[-1] == ["4", "1.00", "1.000000000000000", "0;3"]


def test_grid_is_exact():
    g = reports.grid("0.1")
    assert len(g) == 11 and g[3] == Fraction(3, 10) and g[-1] == 1
    assert reports.decimals_of("0.01") == 2 and reports.decimals_of("1/3") == 6


@pytest.mark.parametrize("misere, outcome", [(False, "lost: N = 0"), (True, "won: N = 1")])
def test_a_position_without_moves_says_so_in_one_line(misere, outcome):
    from symbolic_noise.games.rulesets import Nim
    from symbolic_noise.solvers.piecewise import solve

    sol = solve(Nim(0), "binary", misere=misere)
    text = reports.solution_text(sol)
    assert "\n" not in text and text.endswith(f"no move from this position, the player to move has {outcome} for every p")
    data = reports.solution_json(sol)
    assert data["terminal"] == text and data["pieces"][0]["value"] == ("1" if misere else "0")
    assert data["pieces"][0]["optimal"] == [] and data["breakpoints"] == []
    latex = reports.solution_latex(sol)
    assert latex.splitlines()[0] == "% " + text and f"N(p) = {int(misere)}" in latex
    assert "terminal" not in reports.solution_json(solve(Nim(2), "binary"))
    assert reports.moves_text(set()) == "none (no move)"


_json_values = st.recursive(
    st.none() | st.integers()
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


@given(
    st.dictionaries(st.text(max_size=4), _json_values, max_size=4),
    st.lists(_json_values, max_size=4),
)
def test_streamed_json_is_the_same_text(data, items):
    """``dumps_chunks`` writes what ``dumps`` writes for the data with the list added last."""
    data = {k: v for k, v in data.items() if k != "moves"}
    assert "".join(reports.dumps_chunks(data, "moves", iter(items))) == reports.dumps({**data, "moves": items})


def test_streamed_move_values_are_the_report():
    sol = solve(Nim(6), "binary")
    data = reports.solution_json(sol)
    streamed = "".join(reports.dumps_chunks(data, "moves", reports.iter_move_values_json(sol)))
    assert json.loads(streamed)["moves"] == reports.move_values_json(sol)
    assert "\n".join(reports.move_values_text_chunks(sol)) == reports.move_values_text(sol)


def test_summary_decides_rational_points_without_factoring(monkeypatch):
    """The summary prints no polynomial, so it finds no minimal polynomial:
    whether a point is rational is decided from its interval
    (RealAlgebraic.decide_rational; a hidden rational root is tested in
    test_algebraic), and the text is the same as when factoring was allowed."""
    allowed = reports.solution_summary(solve(Nim(9), "binary"), digits=12)
    from symbolic_noise.exact.algebraic import RealAlgebraic

    def refuse(self, hints=None):
        raise AssertionError("the summary factored a defining polynomial")

    monkeypatch.setattr(RealAlgebraic, "minpoly", refuse)
    assert reports.solution_summary(solve(Nim(9), "binary"), digits=12) == allowed
    assert "p = 1/2" in allowed and "..." not in allowed


@pytest.mark.parametrize("render", [reports.solution_text, reports.solution_json, reports.solution_summary])
def test_each_point_is_rounded_once_per_report(monkeypatch, render):
    """A piece's ends are its neighbours' ends and the breakpoints' rows repeat
    them: a report rounds each point once (nim 64 has 364 points of degree up
    to 290), whatever the number of places that print it."""
    from collections import Counter

    from symbolic_noise.exact.algebraic import RealAlgebraic

    sol = solve(Nim(10), "binary")
    calls: Counter = Counter()
    decimal = RealAlgebraic.decimal

    def counted(self, digits=15):
        calls[id(self)] += 1
        return decimal(self, digits)

    monkeypatch.setattr(RealAlgebraic, "decimal", counted)
    render(sol, digits=12)
    irrational = [x for x in sol.value().points if not x.is_rational]
    assert irrational and all(calls[id(x)] == 1 for x in irrational) and max(calls.values()) == 1
