"""LaTeX output is well formed: a strict structural check and mathtext
rendering of every formula always run; a real compile runs when a TeX engine
is installed (``apt-get install texlive-latex-recommended``, then this file)."""

import pytest

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.analysis.certificates import check
from symbolic_noise.games.heapgames import SubtractionGame
from symbolic_noise.io.latex import certificate_latex, document, escape, solution_math, solution_section, table_latex
from symbolic_noise.io.latexcheck import compile_errors, formulas, mathtext_errors, structural_errors, tex_engine
from symbolic_noise.io.reports import grid, solution_latex, table_rows

pytest.importorskip("pylatexenc")


@pytest.fixture(scope="module")
def fragments():
    nim5 = solve(Nim(5), "binary")
    chomp = solve(Chomp(2, 3), "king")  # irrational breakpoints, tuple move names
    sub = solve(SubtractionGame({1, 2}, 4), "binary")  # move names with "->"
    rows = table_rows(nim5, grid("1/10"))
    return {
        "nim5": solution_section(nim5),
        "chomp": solution_section(chomp),
        "sub": solution_section(sub),
        "table": table_latex(nim5, rows, 1, 6),
        "holds": certificate_latex(check(nim5, "N >= 1/2 on [0, 1/2]")),
        "optimal": certificate_latex(check(nim5, "optimal 4 on [4/5, 1]")),
        "fails": certificate_latex(check(nim5, "optimal 3 on [1/2, 4/5]")),
        "chomp-cert": certificate_latex(check(chomp, "optimal (2,3) on [1/2, 1]")),
    }


@pytest.mark.parametrize("name", ["nim5", "chomp", "sub", "table", "holds", "optimal", "fails", "chomp-cert"])
def test_structure_is_strict_latex(fragments, name):
    assert structural_errors(document(fragments[name])) == []


@pytest.mark.parametrize("name", ["nim5", "chomp", "sub", "holds", "fails"])
def test_every_formula_renders_with_mathtext(fragments, name):
    assert formulas(fragments[name])
    assert mathtext_errors(fragments[name]) == []


def test_reports_solution_latex_is_the_same_math():
    sol = solve(Chomp(2, 3), "king")
    math = solution_latex(sol).split("\n", 1)[1]  # after the % title line
    assert structural_errors("\\[" + math + "\\]") == []
    assert solution_math(sol).count("\\rho_{") == math.count("\\rho_{")


def test_the_checks_catch_broken_latex():
    assert structural_errors(r"\[ \frac{1}{2 \]")
    assert structural_errors(r"\[ \frc{1}{2} \]") == ["unknown macro \\frc"]
    assert structural_errors(r"\begin{cases} 1 \end{cases}") == ["cases outside math mode"]
    assert structural_errors(r"\begin{tabular}{rl} a & b \\ \end{tabular}") == []
    assert mathtext_errors(r"$p^{2$") and mathtext_errors(r"\[ \frac{1}{2} & \foo \]")


def test_escape_makes_text_safe():
    assert structural_errors(document(escape(r"50% of {x} & $y$ #1 ~ ^ _ \ "))) == []


@pytest.mark.skipif(tex_engine() is None, reason="no TeX engine installed (apt-get install texlive-latex-recommended)")
def test_real_compile(fragments):
    assert compile_errors(document(*fragments.values())) == []
    assert compile_errors(document(r"\frac{1}{2}")), "math outside math mode must fail to compile"
