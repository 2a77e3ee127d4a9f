"""Checks that LaTeX output is well formed, with or without a TeX engine.

* :func:`structural_errors` parses the text with ``pylatexenc`` in strict
  mode (unbalanced braces, ``\\begin``/``\\end`` mismatches and unclosed math
  are errors), and accepts only macros and environments from a list known to
  ``amsmath``/``booktabs`` LaTeX, so a typo such as ``\\frc`` is caught.
* :func:`mathtext_errors` renders every formula (each cell of a ``cases`` or
  ``tabular`` row, and each inline ``$...$``) with matplotlib's mathtext, a
  second, independent parser.
* :func:`compile_errors` runs a real engine (``pdflatex`` or ``lualatex``) on
  a standalone document, when one is installed (:func:`tex_engine`).

Examples
--------
>>> structural_errors(r"\\[ N(p) = \\begin{cases} 1 - p & p \\le \\tfrac{1}{2} \\end{cases} \\]")
[]
>>> structural_errors(r"\\[ \\frc{1}{2} \\]")
['unknown macro \\\\frc']
>>> structural_errors(r"\\[ \\frac{1}{2 \\]")[0].startswith("parse error")
True
>>> mathtext_errors(r"\\[ \\frac{1}{2} & p \\le \\tfrac{1}{2} \\]")
[]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

#: macros the output may use (amsmath, booktabs, standard text and math)
KNOWN_MACROS = frozenset(
    """\\ [ ] ( ) { } $ & % # _ , ; ! quad qquad frac tfrac dfrac text textbf textit emph le leq ge geq ne approx
    in cdot ldots dots rho alpha beta psi mathrm left right paragraph section subsection item toprule midrule
    bottomrule hline documentclass usepackage begin end textbackslash textasciicircum textasciitilde to infty
    mid lvert rvert""".split()
) | {" "}
#: environments the output may use
KNOWN_ENVIRONMENTS = frozenset("document cases tabular itemize center align* equation* table".split())

# mathtext is a subset of TeX math: the standard aliases it lacks
_MATHTEXT_ALIASES = {r"\tfrac": r"\frac", r"\dfrac": r"\frac", r"\le": r"\leq", r"\ge": r"\geq"}


def _walk(nodes, out: list[str], in_math: bool = False) -> None:
    from pylatexenc.latexwalker import (
        LatexEnvironmentNode,
        LatexGroupNode,
        LatexMacroNode,
        LatexMathNode,
    )

    for node in nodes or []:
        if isinstance(node, LatexMacroNode):
            if node.macroname not in KNOWN_MACROS:
                out.append(f"unknown macro \\{node.macroname}")
            if node.nodeargd is not None:
                for arg in node.nodeargd.argnlist:
                    if arg is not None:
                        _walk([arg], out, in_math)
        elif isinstance(node, LatexEnvironmentNode):
            if node.environmentname not in KNOWN_ENVIRONMENTS:
                out.append(f"unknown environment {node.environmentname}")
            if node.environmentname == "cases" and not in_math:
                out.append("cases outside math mode")
            _walk(node.nodelist, out, in_math)
        elif isinstance(node, LatexMathNode):
            _walk(node.nodelist, out, True)
        elif isinstance(node, LatexGroupNode):
            _walk(node.nodelist, out, in_math)


def structural_errors(tex: str) -> list[str]:
    r"""Problems found by a strict parse and the macro/environment lists (empty: none).

    >>> structural_errors(r"\begin{itemize} \item a \end{itemize}"), structural_errors(r"\begin{foo}x\end{foo}")
    ([], ['unknown environment foo'])
    """
    from pylatexenc.latexwalker import LatexWalker, LatexWalkerError

    body = "\n".join(line for line in tex.splitlines() if not line.lstrip().startswith("%"))
    try:
        nodes, _, _ = LatexWalker(body, tolerant_parsing=False).get_latex_nodes()
    except LatexWalkerError as exc:
        return [f"parse error: {str(exc).splitlines()[0]}"]
    out: list[str] = []
    _walk(nodes, out)
    if body.count("\\begin{") != body.count("\\end{"):
        out.append("unbalanced \\begin/\\end")
    return out


def formulas(tex: str) -> list[str]:
    r"""The formulas of ``tex``: each ``&``-cell of display math rows, and each
    inline ``$...$``, without delimiters.

    >>> formulas(r"\[ N = \begin{cases} 1 & p \le 1 \end{cases} \] and $x^{2}$")
    ['N =', '1', 'p \\le 1', 'x^{2}']
    """
    out = []
    for block in re.findall(r"\\\[(.*?)\\\]", tex, re.S):
        block = re.sub(r"\\(begin|end)\{cases\}", r"\\\\", block)
        for row in re.split(r"\\\\", block):
            out += [cell.strip() for cell in row.split("&") if cell.strip()]
    rest = re.sub(r"\\\[(.*?)\\\]", "", tex, flags=re.S)
    out += [m.strip() for m in re.findall(r"(?<!\\)\$(.+?)(?<!\\)\$", rest) if m.strip()]
    return out


def mathtext_errors(tex: str) -> list[str]:
    r"""Formulas of ``tex`` that matplotlib's mathtext cannot render.

    >>> mathtext_errors(r"$\frac{1}{2}$ and $\sqrt{x}$"), len(mathtext_errors(r"$x^{2$"))
    ([], 1)
    """
    from matplotlib.mathtext import MathTextParser

    parser = MathTextParser("path")
    out = []
    for formula in formulas(tex):
        text = formula
        for name, alias in _MATHTEXT_ALIASES.items():
            text = re.sub(re.escape(name) + r"(?![A-Za-z])", lambda _: alias, text)
        try:
            parser.parse(f"${text}$")
        except ValueError as exc:
            out.append(f"{formula[:60]}: {str(exc).splitlines()[0]}")
    return out


def tex_engine() -> str | None:
    """The first TeX engine on the PATH (``pdflatex``, then ``lualatex``), or ``None``.

    >>> tex_engine() in (None, "pdflatex", "lualatex")
    True
    """
    for name in ("pdflatex", "lualatex"):
        if shutil.which(name):
            return name
    return None


def compile_errors(document: str, engine: str | None = None, timeout: float = 120) -> list[str]:
    r"""Compile a standalone document; the ``!`` error lines of the log (empty: it compiled).

    >>> doc = "\\documentclass{article}\\begin{document}$x^{2}$\\end{document}"
    >>> compile_errors(doc) if tex_engine() else []
    []
    """
    engine = engine or tex_engine()
    if engine is None:
        raise RuntimeError("no TeX engine installed (apt-get install texlive-latex-recommended)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "out.tex")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(document)
        run = subprocess.run(
            [engine, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "out.tex"],
            cwd=tmp, capture_output=True, text=True, timeout=timeout,
        )
        log = run.stdout
        errors = [line for line in log.splitlines() if line.startswith("!")]
        if run.returncode != 0 and not errors:
            errors = [f"{engine} exited with status {run.returncode}"]
        if not errors and not os.path.exists(os.path.join(tmp, "out.pdf")):
            errors = ["no PDF written"]
        return errors
