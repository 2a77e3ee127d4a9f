"""Rich display of results in Jupyter, and compact text reprs for the terminal.

Renderers are plain functions from results to strings, like
:mod:`symbolic_noise.io.reports`; the classes' ``__repr__``, ``_repr_html_`` and
``_repr_latex_`` are one-line calls into this module.  Jupyter shows a
solution or a piecewise function as an HTML table of pieces and breakpoints
(formulas typeset by MathJax), or as a LaTeX ``cases`` environment; a
breakpoint shows its decimal value, minimal polynomial and isolating interval.

Large results (more than ``MAX_ROWS`` pieces) are cut in the middle in HTML,
and have no LaTeX form (``_repr_latex_`` returns ``None``, so Jupyter falls
back to HTML): a page of 363 formulas of degree 300 is no one's overview.

Every number shown is exact or a correctly rounded decimal of an exact one.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> sol = solve(Nim(3), "binary")
>>> solution_repr(sol)
'<Solution: N(p) for 1-pile Nim, k = 3, binary channel, p in [0, 1]; 2 pieces, 1 breakpoint>'
>>> "<table" in solution_html(sol) and r"\\frac{1 - p + p^{2}}{1 + p}" in solution_html(sol)
True
"""

from __future__ import annotations

import html
from typing import Any

from ..exact.algebraic import RealAlgebraic
from ..exact.piecewise import PiecewiseFunction
from ..exact.ratfunc import RationalFunction
from .reports import move_text, moves_text, title

#: pieces shown in full before a table is cut in the middle
MAX_ROWS = 24
#: significant digits of the decimals shown
DIGITS = 6

_STYLE = "border-collapse:collapse;font-size:90%"
_CELL = "padding:2px 8px;border-bottom:1px solid #ddd;text-align:left"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


# --------------------------------------------------------------------------- small pieces


def number_text(x: RealAlgebraic, digits: int = DIGITS) -> str:
    """A point as text: the rational itself, else its decimal with ``...``.

    >>> number_text(RealAlgebraic.rational("1/3")), number_text(RealAlgebraic.rational("1/2"))
    ('1/3', '1/2')
    """
    return str(x.rational_value) if x.is_rational else x.decimal(digits) + "..."


def number_latex(x: RealAlgebraic, digits: int = DIGITS) -> str:
    r"""A point as LaTeX math (no dollars): ``\tfrac{1}{3}`` or ``0.112798\ldots``.

    >>> number_latex(RealAlgebraic.rational("-1/3")), number_latex(RealAlgebraic.rational(2))
    ('-\\tfrac{1}{3}', '2')
    """
    q = x.rational_value
    if q is None:
        return x.decimal(digits) + r"\ldots"
    n, d = int(q.p), int(q.q)
    if d == 1:
        return str(n)
    sign = "-" if n < 0 else ""
    return f"{sign}\\tfrac{{{abs(n)}}}{{{d}}}"


def algebraic_latex(x: RealAlgebraic, digits: int = 15) -> str:
    r"""``RealAlgebraic._repr_latex_``: the number, and for an irrational one
    its minimal polynomial and an isolating interval.

    >>> from flint import fmpz_poly
    >>> print(algebraic_latex(RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1), 6))
    $0.707107\ldots$, the root of $-1 + 2 x^{2}$ in $[0.707, 0.7072]$
    """
    if x.is_rational:
        return f"${number_latex(x)}$"
    lo, hi = (_decimal(e) for e in x.short_interval())
    poly = RationalFunction(x.minpoly()).latex().replace("p", "x")
    return f"${x.decimal(digits)}\\ldots$, the root of ${poly}$ in $[{lo}, {hi}]$"


def _decimal(e) -> str:
    from ..exact.rounding import exact_decimal

    return exact_decimal(e) or str(e)


def _math(tex: str) -> str:
    """Inline math for HTML: MathJax in Jupyter typesets ``$...$``."""
    return f"${html.escape(tex, quote=False)}$"


def _table(head: list[str], rows: list[list[str]], caption: str | None = None) -> str:
    out = [f'<table style="{_STYLE}">']
    if caption:
        out.append(f'<caption style="text-align:left;font-weight:bold">{html.escape(caption)}</caption>')
    out.append("<tr>" + "".join(f'<th style="{_CELL}">{html.escape(h)}</th>' for h in head) + "</tr>")
    for r in rows:
        out.append("<tr>" + "".join(f'<td style="{_CELL}">{c}</td>' for c in r) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _cut(n: int, max_rows: int) -> list[int | None]:
    """Row indices to show: all, or the first and last ones with ``None`` between."""
    if n <= max_rows:
        return list(range(n))
    head = max_rows - max_rows // 3
    return [*range(head), None, *range(n - (max_rows - head), n)]


def _ellipsis(ncols: int, hidden: int) -> list[str]:
    return [f"<i>... {hidden} more ...</i>"] + [""] * (ncols - 1)


# --------------------------------------------------------------------------- piecewise functions


def _class_of(f: RationalFunction) -> str:
    c = f.constant_value()
    return "P" if c == 0 else ("N" if c == 1 else "O")


def piecewise_repr(f: PiecewiseFunction, digits: int = DIGITS) -> str:
    """A one-line text form: the interval, the number of pieces, and the first
    pieces' formulas.

    >>> from symbolic_noise import Nim, solve
    >>> piecewise_repr(solve(Nim(3), "binary").value())
    '<PiecewiseFunction on [0, 1], 2 pieces: [0, 1/2]: (1 - p + p^2)/(1 + p); [1/2, 1]: (p - p^3)/(1 - p + p^2)>'
    """
    a, b = f.interval
    shown = []
    for i, pc in enumerate(f.pieces()):
        if i == 3 and len(f.formulas) > 4:
            shown.append(f"... {len(f.formulas) - 3} more")
            break
        text = pc.formula.text()
        if len(text) > 60:
            text = f"{text[:48]}... (degree {pc.formula.degree})"
        shown.append(f"[{number_text(pc.lo, digits)}, {number_text(pc.hi, digits)}]: {text}")
    return f"<PiecewiseFunction on [{number_text(a)}, {number_text(b)}], {_plural(len(f.formulas), 'piece')}: {'; '.join(shown)}>"


def _swatch(move) -> str:
    """A small square in the move's colour in every figure (striped where a
    figure hatches it), so a table reads alongside the plots."""
    from .palette import move_style

    style = move_style(move)
    fill = style.face if not style.hatch else (
        f"repeating-linear-gradient(45deg,{style.face} 0 3px,#333 3px 4px)")
    return (f'<span title="{html.escape(move_text(move))}" style="display:inline-block;width:0.75em;height:0.75em;'
            f'background:{fill};border:1px solid #666;margin-right:0.25em;vertical-align:-0.05em"></span>')


def moves_html(moves) -> str:
    """Optimal moves as HTML: a swatch of each move's figure colour, then their names.

    >>> moves_html(frozenset({0})).endswith("</span>0")
    True
    """
    from .palette import move_order

    return "".join(_swatch(m) for m in sorted(moves, key=move_order)) + html.escape(moves_text(moves))


def _pieces_rows(f: PiecewiseFunction, digits: int, max_rows: int, labelled: bool) -> list[list[str]]:
    rows: list[list[str]] = []
    pieces = f.pieces()
    ncols = 4 if labelled else 2
    for i in _cut(len(pieces), max_rows):
        if i is None:
            rows.append(_ellipsis(ncols, len(pieces) - max_rows))
            continue
        pc = pieces[i]
        row = [_math(f"[{number_latex(pc.lo, digits)}, {number_latex(pc.hi, digits)}]"), _math(pc.formula.latex())]
        if labelled:
            row += [moves_html(pc.label) if pc.label is not None else "", _class_of(pc.formula)]
        rows.append(row)
    return rows


def _point_rows(f: PiecewiseFunction, indices, digits: int, labelled: bool) -> list[list[str]]:
    rows = []
    for j in indices:
        x = f.points[j]
        value = f.point_value(j)
        q = value.rational_value
        val = str(q) if q is not None else value.decimal(digits) + "..."
        exact = html.escape(x.exact_str()) if not x.is_rational else ""
        row = [html.escape(number_text(x, digits)), html.escape(val), exact]
        if labelled:
            lab = f.point_labels[j] if f.point_labels is not None else None
            row.append(html.escape(moves_text(lab)) if lab is not None else "")
        rows.append(row)
    return rows


def piecewise_html(f: PiecewiseFunction, digits: int = DIGITS, max_rows: int = MAX_ROWS, caption: str | None = None) -> str:
    """An HTML table of the pieces (interval, formula, label, P/N/O class) and
    one of the breakpoints (decimal, N there, exact ``CRootOf``, label).

    >>> from symbolic_noise import Nim, solve
    >>> text = piecewise_html(solve(Nim(2), "binary").value())
    >>> text.count("<tr>"), "1 - p" in text
    (5, True)
    """
    labelled = f.labels is not None
    head = ["p in", "formula"] + (["optimal", "class"] if labelled else [])
    out = [_table(head, _pieces_rows(f, digits, max_rows, labelled), caption)]
    inner = list(range(1, len(f.points) - 1))
    if inner:
        rows: list[list[str]] = []
        ncols = 4 if labelled else 3
        for i in _cut(len(inner), max_rows):
            if i is None:
                rows.append(_ellipsis(ncols, len(inner) - max_rows))
            else:
                rows += _point_rows(f, [inner[i]], digits, labelled)
        head = ["breakpoint p", "N(p)", "exact p"] + (["optimal"] if labelled else [])
        out.append(_table(head, rows, _plural(len(inner), "breakpoint")))
    return "\n".join(out)


def piecewise_latex(f: PiecewiseFunction, name: str = "f", digits: int = DIGITS, max_rows: int = MAX_ROWS) -> str | None:
    r"""Display math for Jupyter (``$$...$$``), or ``None`` beyond ``max_rows`` pieces.

    >>> from symbolic_noise import Nim, solve
    >>> print(piecewise_latex(solve(Nim(2), "binary").value(), "N"))
    $$N(p) = \begin{cases}
    1 - p & 0 \le p \le \tfrac{1}{2} \\
    p & \tfrac{1}{2} < p \le 1
    \end{cases}$$
    """
    if len(f.formulas) > max_rows:
        return None
    return f"$${f.latex(name, digits=digits)}$$"


# --------------------------------------------------------------------------- answers at one p


def _point_parts(result, digits: int) -> tuple[str, str, str]:
    """p, the exact value and its decimal, as text."""
    value = result.value
    if hasattr(value, "exact_str"):  # a PointValue at an algebraic p
        exact, dec = value.exact_str(), value.decimal(digits)
    else:
        exact, dec = str(value), RealAlgebraic.rational(value).decimal(digits)
    p = result.p.exact_str() if isinstance(result.p, RealAlgebraic) else str(result.p)
    return p, exact, dec


def point_html(result, digits: int = DIGITS) -> str:
    """An answer at one p as a one-row HTML table: p, N exactly and in decimals,
    the optimal moves.

    >>> from symbolic_noise import Nim, solve
    >>> text = point_html(solve(Nim(3), "binary").at("1/4"))
    >>> ">13/20<" in text, "0.65" in text, "optimal" in text
    (True, True, True)
    """
    p, exact, dec = _point_parts(result, digits)
    row = [html.escape(p), html.escape(exact), html.escape(dec), html.escape(moves_text(result.optimal))]
    return _table(["p", "N", "N (decimal)", "optimal"], [row])


def point_answer_html(answer, digits: int = DIGITS) -> str:
    """A :class:`~symbolic_noise.solvers.onepoint.fastpoint.PointAnswer` (exact or
    certified by balls) as a one-row HTML table with its method.

    >>> from symbolic_noise.solvers.onepoint.fastpoint import point_solve
    >>> from symbolic_noise import Nim
    >>> text = point_answer_html(point_solve(Nim(3), "binary", "1/4"))
    >>> ">13/20<" in text, ">exact<" in text
    (True, True)
    """
    value = answer.value
    if answer.method == "exact":
        exact, dec = str(value), RealAlgebraic.rational(value).decimal(digits)
    else:  # a ball certified to hold the value
        exact, dec = "", str(value)
    best = "undecided by the balls" if answer.optimal is None else moves_text(answer.optimal)
    row = [html.escape(str(answer.p)), html.escape(exact), html.escape(dec), html.escape(best), html.escape(answer.method)]
    return _table(["p", "N", "N (decimal)", "optimal", "method"], [row])


def knowing_html(k, digits: int = DIGITS, max_rows: int = MAX_ROWS) -> str:
    """The value of knowing p (:class:`~symbolic_noise.analysis.knowing.Knowing`):
    Delta piece by piece, then its exact maximum and minimum."""
    informed = f"{k.strategy} vs {k.strategy if k.reading == 'both' else k.against}"
    caption = f"Delta(p) = N[{informed}] - N[{k.against} vs {k.against}]"
    extremes = _table(["", "value", "decimal"], [
        [name, html.escape(v.exact_str()), html.escape(v.decimal(digits))]
        for name, v in (("maximum", k.maximum), ("minimum", k.minimum))
    ])
    return piecewise_html(k.delta, digits, max_rows, caption=caption) + extremes


def chance_html(report) -> str:
    """A chance-game verdict (:class:`~symbolic_noise.analysis.chance.ChanceReport`) as its text, preformatted."""
    return f"<pre>{html.escape(report.text())}</pre>"


def point_latex(result, digits: int = DIGITS) -> str:
    r"""An answer at one p as display LaTeX.

    >>> from symbolic_noise import Nim, solve
    >>> point_latex(solve(Nim(3), "binary").at("1/4"))
    '$$N\\left(\\tfrac{1}{4}\\right) = \\tfrac{13}{20} \\approx 0.650000 \\quad \\text{optimal: 0}$$'
    """
    _, _, dec = _point_parts(result, digits)
    x = result.p if isinstance(result.p, RealAlgebraic) else RealAlgebraic.coerce(result.p)
    value = result.value
    exact = "" if hasattr(value, "exact_str") else f" = {number_latex(RealAlgebraic.rational(value), digits)}"
    return (f"$$N\\left({number_latex(x, digits)}\\right){exact} \\approx {dec} "
            f"\\quad \\text{{optimal: {moves_text(result.optimal)}}}$$")


# --------------------------------------------------------------------------- solutions


def solution_repr(solution) -> str:
    """``<Solution: title; pieces, breakpoints>`` (one line).

    >>> from symbolic_noise import Chomp, solve
    >>> solution_repr(solve(Chomp(2, 2), "king"))
    '<Solution: N(p) for Chomp, 2 x 2 bar, king channel, p in [0, 1]; 2 pieces, 1 breakpoint>'
    """
    f = solution.value()
    n = len(f.points) - 2
    return f"<Solution: {title(solution)}; {_plural(len(f.formulas), 'piece')}, {_plural(n, 'breakpoint')}>"


def solution_html(solution, position=None, digits: int = DIGITS, max_rows: int = MAX_ROWS) -> str:
    """The title, the pieces of N with their optimal moves and P/N/O classes,
    and the breakpoints with N and the optimal moves there, as HTML.

    >>> from symbolic_noise import Chomp, solve
    >>> text = solution_html(solve(Chomp(2, 2), "king"))
    >>> "Chomp, 2 x 2 bar" in text, "(1,2), (2,1)" in text, ">1/3<" in text
    (True, True, True)
    """
    f = solution.value(position)
    return piecewise_html(f, digits, max_rows, caption=title(solution, position))


def solution_latex(solution, position=None, digits: int = DIGITS, max_rows: int = MAX_ROWS) -> str | None:
    r"""N as a ``cases`` environment with the optimal moves of every piece
    (``None`` beyond ``max_rows`` pieces).

    >>> from symbolic_noise import Chomp, solve
    >>> print(solution_latex(solve(Chomp(2, 2), "king")))
    $$N(p) = \begin{cases}
    \frac{1 - p}{2} & 0 \le p \le \tfrac{1}{3} \quad \text{(optimal: (1,2), (2,1))} \\
    p & \tfrac{1}{3} < p \le 1 \quad \text{(optimal: (2,2))}
    \end{cases}$$
    """
    f = solution.value(position)
    if len(f.formulas) > max_rows:
        return None
    body = f.latex("N", digits=digits, label_text=lambda moves: "optimal: " + moves_text(moves))
    return f"$${body}$$"


# --------------------------------------------------------------------------- certificates


def certificate_repr(cert) -> str:
    """``<Certificate holds: statement, position, pieces>`` or the counterexample's p.

    >>> from symbolic_noise import Nim, solve
    >>> from symbolic_noise.analysis.certificates import check
    >>> certificate_repr(check(solve(Nim(5), "binary"), "optimal 3 on [1/2, 4/5]"))
    '<Certificate FAILS: optimal 3 on [1/2, 4/5] at position 5; counterexample p = 51/64>'
    """
    head = f"{cert.statement.text()} at position {_position_text(cert.position)}"
    if cert.holds:
        return f"<Certificate holds: {head}; {_plural(len(cert.pieces), 'piece')} certified>"
    return f"<Certificate FAILS: {head}; counterexample p = {cert.counterexample['p']}>"


def _position_text(v: Any) -> str:
    return move_text(v) if isinstance(v, tuple) else str(v)


def _reason_text(claim: dict) -> str:
    kind = claim.get("kind")
    against = f" vs {claim['against']}" if "against" in claim else ""
    if kind == "identical":
        return f"identical{against}"
    if kind == "sign":
        roots = claim.get("roots", [])
        degree = len(claim["g"]) - 1 if "g" in claim else None
        deg = f"degree {degree}, " if degree is not None else ""
        need = "&ge; 0" if claim.get("need") == "nonneg" else "&gt; 0"
        return f"g {need}{against} ({deg}{_plural(len(roots), 'root')} inside)"
    return html.escape(f"{kind}{against}")


def certificate_html(cert, max_rows: int = MAX_ROWS) -> str:
    """The verdict and, piece by piece, the reason why it holds; or the
    counterexample with the exact values there.

    >>> from symbolic_noise import Nim, solve
    >>> from symbolic_noise.analysis.certificates import check
    >>> text = certificate_html(check(solve(Nim(5), "binary"), "N >= 1/2 on [0, 1/2]"))
    >>> "holds" in text, text.count("<tr>")
    (True, 2)
    """
    verdict = "holds" if cert.holds else "FAILS"
    caption = f"{cert.statement.text()} (position {_position_text(cert.position)}): {verdict}"
    if not cert.holds:
        ce = cert.counterexample
        rows = [[html.escape(k), html.escape(str(ce[k])), html.escape(str(ce.get(k + "_decimal", "")))]
                for k in ce if not k.endswith("_decimal")]
        return _table(["at the counterexample", "exact", "decimal"], rows, caption)
    rows = []
    for i in _cut(len(cert.pieces), max_rows):
        if i is None:
            rows.append(_ellipsis(2, len(cert.pieces) - max_rows))
            continue
        piece = cert.pieces[i]
        where = f"[{piece['lo']['decimal'][:10]}, {piece['hi']['decimal'][:10]}]"
        rows.append([html.escape(where), "; ".join(_reason_text(c) for c in piece["claims"]) or "no claim needed"])
    return _table(["piece", "reason"], rows, caption)


# --------------------------------------------------------------------------- classical reports


def sequence_report_repr(rep) -> str:
    """One line: the ruleset, how many values, the period.

    >>> from symbolic_noise.games.classical import sequence_report
    >>> sequence_report_repr(sequence_report("4.3", 12))
    '<SequenceReport octal:4.3: G(0..12) = 0 1 2 0 2 0 2 0 2 0 2 0 2; period 2 from n = 2 (proven)>'
    """
    values = " ".join(str(v) for v in rep.values[:20]) + (" ..." if len(rep.values) > 20 else "")
    return f"<SequenceReport {rep.game}: G(0..{len(rep.values) - 1}) = {values}; {_period_text(rep.periodicity)}>"


def _period_text(per) -> str:
    if per is None:
        return "no period found"
    how = "proven" if per.proven else "not proven"
    return f"period {per.period} from n = {per.preperiod} ({how})"


def sequence_report_html(rep, per_row: int = 20, max_values: int = 400) -> str:
    """The nim-sequence as a grid (``per_row`` values a row), and the period.

    >>> from symbolic_noise.games.classical import sequence_report
    >>> sequence_report_html(sequence_report("0.137", 39)).count("<tr>")
    3
    """
    rows = []
    values = rep.values[:max_values]
    for i in range(0, len(values), per_row):
        rows.append([f"<b>{i}</b>"] + [str(v) for v in values[i:i + per_row]])
    width = max(len(r) for r in rows) if rows else 1
    rows = [r + [""] * (width - len(r)) for r in rows]
    caption = f"G(n) of {rep.game}: {_period_text(rep.periodicity)}"
    return _table(["n"] + [f"+{j}" for j in range(width - 1)], rows, caption)
