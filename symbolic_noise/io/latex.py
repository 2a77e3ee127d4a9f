"""LaTeX that compiles: solutions, tables of N(p) and certificates, as
fragments for a paper and as a standalone document.

Every fragment needs only ``amsmath`` (and ``booktabs`` for tables);
:func:`document` wraps fragments into a complete ``article`` that ``pdflatex``
compiles.  :mod:`symbolic_noise.io.latexcheck` checks the output structurally
(always, in the test suite) and by a real compile when a TeX engine is
installed.  Move names and titles are escaped (:func:`escape`), never pasted raw.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> print(solution_math(solve(Nim(2), "binary")))
\\[
N(p) = \\begin{cases}
1 - p & 0 \\le p \\le \\tfrac{1}{2} \\quad \\text{(optimal: 0)} \\\\
p & \\tfrac{1}{2} < p \\le 1 \\quad \\text{(optimal: 1)}
\\end{cases}
\\]
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from .reports import move_text, moves_text, title
from ..exact.rounding import fixed

_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "%": r"\%", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
}

PREAMBLE = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage[margin=2cm,landscape]{geometry}
\usepackage{amsmath}
\usepackage{booktabs}
"""


def escape(text: str) -> str:
    r"""Text-mode escape of LaTeX's special characters; a line break or
    another control character becomes a space (a blank line would end a
    paragraph inside a macro's argument).

    >>> escape("Dawson's Chess 0.137, 3->1 & 50% #1")
    "Dawson's Chess 0.137, 3->1 \\& 50\\% \\#1"
    """
    return "".join(_SPECIAL.get(c, c) if c.isprintable() else " " for c in text)


def comment(text: str) -> str:
    r"""``text`` as one ``%`` comment line: every line break (and other
    control character) becomes a space, so nothing after it leaves the
    comment; the rest of a comment line is not read by TeX, so other special
    characters are kept as they are.

    >>> comment("N(p) for Nim, custom (a\n\\end{document}.json) channel")
    '% N(p) for Nim, custom (a \\end{document}.json) channel'
    """
    return "% " + "".join(c if c.isprintable() else " " for c in text)


def solution_math(solution, position=None, digits: int = 15) -> str:
    r"""N as display math (``\[ ... \]``) with the optimal moves of each piece."""
    f = solution.value(position)
    body = f.latex("N", digits=digits, label_text=lambda moves: "optimal: " + escape(moves_text(moves)))
    return f"\\[\n{body}\n\\]"


def solution_section(solution, position=None, digits: int = 15) -> str:
    r"""A titled paragraph: the title as text, then :func:`solution_math`.

    >>> from symbolic_noise import Nim, solve
    >>> solution_section(solve(Nim(2), "binary")).splitlines()[0]
    '\\paragraph{N(p) for 1-pile Nim, k = 2, binary channel, p in [0, 1]}'
    """
    return f"\\paragraph{{{escape(title(solution, position))}}}\n{solution_math(solution, position, digits)}"


def table_latex(solution, rows: Sequence[tuple], p_decimals: int, decimals: int) -> str:
    r"""A ``booktabs`` table of ``(p, N(p), optimal moves)`` rows
    (:func:`symbolic_noise.io.reports.table_rows`).

    >>> from symbolic_noise import Nim, solve
    >>> from symbolic_noise.io.reports import table_rows
    >>> sol = solve(Nim(2), "binary")
    >>> print(table_latex(sol, table_rows(sol, [0, Fraction(1, 2)]), 2, 4))
    \begin{tabular}{rll}
    \toprule
    $p$ & $N(p)$ & optimal \\
    \midrule
    0.00 & 1.0000 & 0 \\
    0.50 & 0.5000 & 0, 1 \\
    \bottomrule
    \end{tabular}
    """
    lines = [r"\begin{tabular}{rll}", r"\toprule", r"$p$ & $N(p)$ & optimal \\", r"\midrule"]
    for p, value, opt in rows:
        p = Fraction(p)
        ptext = fixed(p, p_decimals) if (p * 10**p_decimals).denominator == 1 else f"${p.numerator}/{p.denominator}$"
        lines.append(f"{ptext} & {fixed(value, decimals)} & {escape(', '.join(move_text(m) for m in opt))} \\\\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def certificate_latex(cert) -> str:
    r"""A certificate as an ``itemize`` list: the verdict, then for every piece
    the reason (or the counterexample with its exact values).

    >>> from symbolic_noise import Nim, solve
    >>> from symbolic_noise.analysis.certificates import check
    >>> print(certificate_latex(check(solve(Nim(5), "binary"), "N >= 1/2 on [0, 1/2]")))
    \paragraph{$N \ge \tfrac{1}{2}$ on $[0, \tfrac{1}{2}]$ (position 5): holds.}
    \begin{itemize}
    \item $p \in [0, \tfrac{1}{2}]$: $g \ge 0$, a polynomial of degree 6 with no root inside.
    \end{itemize}
    """
    st = cert.statement
    head = f"\\paragraph{{{statement_latex(st)} (position {escape(_position(cert.position))}): "
    if not cert.holds:
        ce = cert.counterexample
        items = [f"\\item at $p = {_exact(ce['p'])} \\approx {ce['p_decimal']}$"]
        for name in ce:
            if name.startswith("p") or name.endswith("_decimal"):
                continue
            items.append(f"\\item ${_value_name(name)} \\approx {ce[name + '_decimal']}$")
        return head + "fails.}\n\\begin{itemize}\n" + "\n".join(items) + "\n\\end{itemize}"
    items = []
    for piece in cert.pieces:
        where = f"$p \\in [{_short(piece['lo'])}, {_short(piece['hi'])}]$"
        reasons = "; ".join(_reason(c) for c in piece["claims"]) or "nothing to prove"
        items.append(f"\\item {where}: {reasons}.")
    return head + "holds.}\n\\begin{itemize}\n" + "\n".join(items) + "\n\\end{itemize}"


def statement_latex(st) -> str:
    r"""A statement as LaTeX.

    >>> from symbolic_noise.analysis.certificates import Statement
    >>> statement_latex(Statement.parse("|2N-1| < 1/100 on [3/10, 1]"))
    '$|2N - 1| < \\tfrac{1}{100}$ on $[\\tfrac{3}{10}, 1]$'
    """
    interval = f"$[{_q(st.lo)}, {_q(st.hi)}]$"
    kind = st.kind
    if kind in ("ge", "le", "eq"):
        rel = {"ge": r"\ge", "le": r"\le", "eq": "="}[kind]
        return f"$N {rel} {_q(st.value)}$ on {interval}"
    if kind == "fair":
        return f"$|2N - 1| < {_q(st.value)}$ on {interval}"
    if kind == "optimal":
        return f"move {escape(move_text(st.value))} optimal on {interval}"
    return f"optimal moves exactly {{{escape(moves_text(st.value))}}} on {interval}"


def _q(x) -> str:
    q = Fraction(int(x.p), int(x.q)) if hasattr(x, "p") else Fraction(x)
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    return f"{sign}\\tfrac{{{abs(q.numerator)}}}{{{q.denominator}}}"


def _exact(text: str) -> str:
    if "/" in text and "CRootOf" not in text:
        return _q(Fraction(text))
    return r"\text{" + escape(text) + "}"


def _short(point: dict) -> str:
    text = point["exact"]
    if "CRootOf" in text:
        return point["decimal"][:12] + r"\ldots"
    return _q(Fraction(text))


def _value_name(name: str) -> str:
    if name == "N":
        return "N"
    return "N(\\text{" + escape(name[2:-1]) + "})" if name.startswith("N(") else "\\text{" + escape(name) + "}"


def _reason(claim: dict) -> str:
    against = f" against move {escape(claim['against'])}" if "against" in claim else ""
    if claim.get("kind") == "identical":
        return f"the formulas are identical{against}"
    if claim.get("kind") == "sign":
        need = r"$g \ge 0$" if claim.get("need") == "nonneg" else r"$g > 0$"
        degree = len(claim["g"]) - 1 if "g" in claim else None
        roots = len(claim.get("roots", []))
        what = f"a polynomial of degree {degree}" if degree is not None else "a polynomial"
        inside = "no root" if roots == 0 else f"{roots} touching root{'s' if roots > 1 else ''}"
        return f"{need}{against}, {what} with {inside} inside"
    return escape(str(claim.get("kind")))


def _position(v) -> str:
    return move_text(v) if isinstance(v, tuple) else str(v)


def document(*fragments: str) -> str:
    r"""A complete ``article`` holding the fragments, for ``pdflatex``.

    >>> print(document("Hello.").splitlines()[-3:])
    ['\\begin{document}', 'Hello.', '\\end{document}']
    """
    return PREAMBLE + "\\begin{document}\n" + "\n\n".join(fragments) + "\n\\end{document}"
