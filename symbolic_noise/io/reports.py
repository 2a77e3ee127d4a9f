"""Renderings of solutions: text that reads like the paper, a stable JSON
contract, LaTeX, and tables of N(p) at given values of p.

Pure functions from results to strings or plain data; nothing here prints or
touches files (the command line does).

The JSON contract (``solution_json``, ``"format": "symbolic-noise.solution/2"``)::

    {"format": "symbolic-noise.solution/2",
     "meta": provenance,                   # what the result is: see below
     "game": {"name", "description", "position"},
     "channel": str, "digits": int,
     "interval": [number, number],
     "pieces":      [{"lo": number, "hi": number, "value": formula,
                      "optimal": [move, ...], "class": "P" | "N" | "O"}],
     "breakpoints": [point, ...],          # interior points, increasing, each with "name": "b1", "b2", ...
     "endpoints":   [point, point],        # p = a and p = b
     "stats": {"pieces", "breakpoints", "max_degree", "positions"},
     "terminal": str}                      # only for a position without moves: one line saying so

    number  = {"decimal": str, "exact": str}
    point   = number + {"value": str, "value_decimal": str, "optimal": [move, ...],
                        "polynomial": str | null, "isolating_interval": [str, str] | null}

``provenance`` is :func:`symbolic_noise.games.provenance.record`: the game's
canonical spec and description, the position, the channel (its name, what its
p means, the SHA-256 of a channel file), misère play, both players'
strategies, the interval, the method (``piecewise``) and the software's
version.  Version 2 of the contract added it; everything else is as in version 1.

``decimal`` strings have the requested number of significant digits, correctly
rounded; ``exact`` and ``value`` strings parse with ``sympy.sympify`` (a
rational, a ``CRootOf(..., i)``, or a formula in ``p``); ``value`` at a point
is N there: a rational, the ``CRootOf`` of its minimal polynomial, or, when the
point's minimal polynomial has degree > 40, ``Subs(formula, p, CRootOf(...))``
(the piece's formula at the point, each written once; ``.doit()`` substitutes).
A move is named as the game names it: chips left for Nim (an int),
``[row, column]`` for Chomp.  ``optimal`` lists every optimal move
(ties in full), sorted.

Examples
--------
>>> from symbolic_noise.solvers.piecewise import solve
>>> from symbolic_noise.games.rulesets import Nim
>>> print(solution_text(solve(Nim(2), "binary"), digits=6))
N(p) for 1-pile Nim, k = 2, binary channel, p in [0, 1]
  [0, 1/2]  N = 1 - p   optimal: 0
  [1/2, 1]  N = p       optimal: 1
breakpoints:
  b1  p = 1/2  N = 1/2  optimal: 0, 1
end points:
  p = 0  N = 1  optimal: 0
  p = 1  N = 1  optimal: 1
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from ..exact.algebraic import FactorHints, RealAlgebraic, minimal_polynomials
from ..exact.piecewise import PiecewiseFunction
from ..exact.polys import to_fraction
from ..exact.ratfunc import RationalFunction, poly_text
from ..exact.rounding import exact_decimal, fixed
from ..exact.formula import exact_number

FORMAT = "symbolic-noise.solution/2"


def move_json(move):
    """A move name as JSON (tuples become lists)."""
    return list(move) if isinstance(move, tuple) else move


def move_text(move) -> str:
    """A move name as text: ``3`` or ``(1,2)``."""
    if isinstance(move, tuple):
        return "(" + ",".join(str(x) for x in move) + ")"
    return str(move)


def moves_text(moves, sep: str = ", ") -> str:
    """The moves by name, sorted; ``none (no move)`` for a position without moves."""
    return sep.join(move_text(m) for m in sorted(moves)) if moves else "none (no move)"


def number_json(x: RealAlgebraic, digits: int) -> dict:
    """An exact number as JSON: ``{"decimal": ..., "exact": ...}``."""
    return {"decimal": x.decimal(digits), "exact": x.exact_str()}


def _point_text(x: RealAlgebraic, digits: int) -> str:
    """A rational point exactly, an irrational one as a decimal.  Rationality is
    decided (:meth:`RealAlgebraic.decide_rational`, without factoring), not
    taken from how the point was found: a solver may find 1/11 as a root of a
    quartic, and the text must say 1/11 as the JSON's ``exact`` does."""
    x.decide_rational()
    return str(x.rational_value) if x.is_rational else x.decimal(digits)


def _class(f: RationalFunction) -> str:
    c = f.constant_value()
    return "P" if c == 0 else ("N" if c == 1 else "O")


def title(solution, position=None, *, interval: bool = True) -> str:
    """A one-line title: the game, the position if it is not the game's start,
    the channel, and (with ``interval``) the interval of p."""
    game = solution.game
    desc = game.describe()
    v = solution.start if position is None else game.check_position(position)
    if v != game.start():
        desc += f", position {game.position_label(v)}"
    out = f"N(p) for {desc}, {solution.channel.name} channel"
    if getattr(solution, "misere", False):
        out += ", misère play"
    if interval:
        a, b = solution.interval
        out += f", p in [{a}, {b}]"
    return out


def no_move_text(solution, position=None) -> str | None:
    """One line for a position without moves (the player to move has lost, or
    won in misère play, whatever p is), or ``None`` if it has moves.

    >>> from symbolic_noise.solvers.piecewise import solve
    >>> from symbolic_noise.games.rulesets import Nim
    >>> no_move_text(solve(Nim(0), "binary"))
    'N(p) for 1-pile Nim, k = 0, binary channel, p in [0, 1]: no move from this position, the player to move has lost: N = 0 for every p'
    """
    game = solution.game
    v = solution.start if position is None else game.check_position(position)
    if game.followers(v):
        return None
    outcome = "won: N = 1" if solution.misere else "lost: N = 0"
    return f"{title(solution, position)}: no move from this position, the player to move has {outcome} for every p"


def solution_text(solution, position=None, digits: int = 15) -> str:
    """The paper's style: every piece with its formula and optimal moves, then
    the breakpoints and end points with N and the optimal moves there."""
    terminal = no_move_text(solution, position)
    if terminal is not None:
        return terminal
    f = solution.value(position)
    minimal_polynomials(f.points)  # (all with one FactorHints: they share factors)
    at = [_point_text(x, digits) for x in f.points]  # (each point once: a piece's ends are its neighbours')
    rows = []
    for i, pc in enumerate(f.pieces()):
        rows.append((f"[{at[i]}, {at[i + 1]}]", f"N = {pc.formula.text()}", f"optimal: {moves_text(pc.label)}"))
    lines = [title(solution, position)] + _aligned(rows)
    points = list(enumerate(f.points))
    interior = points[1:-1]
    if interior:
        lines.append("breakpoints:")
        named: list[tuple[str, ...]] = []
        for j, x in interior:
            named.append((f"b{j}", f"p = {at[j]}", f"N = {_value_text(f, j, digits)}", f"optimal: {moves_text(f.point_labels[j])}"))
        lines += _aligned(named)
        for j, x in interior:
            if not x.is_rational:
                lo, hi = (exact_decimal(e) for e in x.short_interval())
                lines.append(f"  {at[j]} is the root of {poly_text(x.minpoly())} in [{lo}, {hi}]")
    lines.append("end points:")
    rows = []
    for j, x in (points[0], points[-1]):
        rows.append((f"p = {at[j]}", f"N = {_value_text(f, j, digits)}", f"optimal: {moves_text(f.point_labels[j])}"))
    lines += _aligned(rows)
    return "\n".join(lines)


def solution_summary(solution, position=None, digits: int = 15) -> str:
    """The text report without formulas, for solves too large to read whole:
    the title, counts, every piece's interval, optimal moves and formula
    degree, and the breakpoints with N and the optimal moves there.

    >>> from symbolic_noise.solvers.piecewise import solve
    >>> from symbolic_noise.games.rulesets import Nim
    >>> print(solution_summary(solve(Nim(3), "binary"), digits=6))
    N(p) for 1-pile Nim, k = 3, binary channel, p in [0, 1]
    2 pieces, 1 breakpoint, largest degree 3
      [0, 1/2]  degree 2  optimal: 0
      [1/2, 1]  degree 3  optimal: 1
    breakpoints:
      b1  p = 1/2  N = 1/2  optimal: 0, 1, 2
    """
    terminal = no_move_text(solution, position)
    if terminal is not None:
        return terminal
    f = solution.value(position)
    pieces = f.pieces()
    degree = max(pc.formula.degree for pc in pieces)
    n = len(f.points) - 2
    lines = [title(solution, position),
             f"{len(pieces)} piece{'s' if len(pieces) != 1 else ''}, {n} breakpoint{'s' if n != 1 else ''}, largest degree {degree}"]
    at = [_point_text(x, digits) for x in f.points]  # (each point once)
    lines += _aligned([(f"[{at[i]}, {at[i + 1]}]", f"degree {pc.formula.degree}",
                        f"optimal: {moves_text(pc.label)}") for i, pc in enumerate(pieces)])
    if n:
        lines.append("breakpoints:")
        lines += _aligned([(f"b{j}", f"p = {at[j]}", f"N = {_value_text(f, j, digits)}",
                            f"optimal: {moves_text(f.point_labels[j])}") for j in range(1, len(f.points) - 1)])
    return "\n".join(lines)


def _value_text(f: PiecewiseFunction, j: int, digits: int) -> str:
    v = f.point_value(j)
    q = v.rational_value
    return str(q) if q is not None else v.decimal(digits)


def _aligned(rows) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def _point_json(f: PiecewiseFunction, j: int, digits: int, number: dict | None = None) -> dict:
    x = f.points[j]
    v = f.point_value(j)
    out = dict(number) if number is not None else number_json(x, digits)
    out["value"] = v.exact_str()
    out["value_decimal"] = v.decimal(digits)
    out["optimal"] = [move_json(m) for m in sorted(f.point_labels[j])]  # type: ignore[index]
    if x.is_rational:
        out["polynomial"] = None
        out["isolating_interval"] = None
    else:
        out["polynomial"] = RationalFunction(x.minpoly()).formula("x")
        out["isolating_interval"] = [str(e) for e in x.short_interval()]
    return out


def provenance(solution, position=None, method: str = "piecewise") -> dict:
    """The provenance record of a solution (:func:`symbolic_noise.games.provenance.record`)."""
    from ..games.provenance import record

    v = solution.start if position is None else position
    players = getattr(solution, "players", None)
    if players is not None:  # two players, each with a channel and a strategy of their own
        first, second = players
        return record(solution.game, first.channel, position=v, misere=solution.misere, interval=solution.interval,
                      method=method, strategies=[first.strategy, second.strategy], opponent=second.channel)
    return record(solution.game, solution.channel, position=v, misere=getattr(solution, "misere", False),
                  interval=solution.interval, method=method)


def solution_json(solution, position=None, digits: int = 15) -> dict:
    """The JSON contract of the module docstring, as plain data."""
    f = solution.value(position)
    minimal_polynomials(f.points)  # (all with one FactorHints: they share factors)
    for x in f.points:
        # the CRootOf index, counted before the decimals narrow the interval:
        # the count compares the parts near the point with it by the sign at
        # their ends, which costs more as the interval's ends get longer
        x.exact_str()
    v = solution.start if position is None else position
    game = solution.game
    pos = move_json(v) if isinstance(v, tuple) else v
    at = [number_json(x, digits) for x in f.points]  # (each point once: a piece's ends are its neighbours')
    last = len(f.points) - 1
    out = {
        "format": FORMAT,
        "meta": provenance(solution, v),
        "game": {"name": game.name, "description": game.describe(), "position": pos},
        "channel": solution.channel.name,
        "digits": digits,
        "interval": [at[0], at[last]],
        "pieces": [
            {
                "lo": at[i],
                "hi": at[i + 1],
                "value": str(pc.formula),
                "optimal": [move_json(m) for m in sorted(pc.label)],
                "class": _class(pc.formula),
            }
            for i, pc in enumerate(f.pieces())
        ],
        "breakpoints": [{"name": f"b{j}", **_point_json(f, j, digits, at[j])} for j in range(1, last)],
        "endpoints": [_point_json(f, 0, digits, at[0]), _point_json(f, last, digits, at[last])],
        "stats": solution.stats(),
    }
    terminal = no_move_text(solution, position)
    if terminal is not None:
        out["terminal"] = terminal
    return out


def solution_latex(solution, position=None, digits: int = 15) -> str:
    """LaTeX: the cases environment of N with the optimal moves of each piece."""
    from .latex import comment, escape

    terminal = no_move_text(solution, position)
    if terminal is not None:
        return f"{comment(terminal)}\nN(p) = {1 if solution.misere else 0} \\quad \\text{{(no move: the player to move has {'won' if solution.misere else 'lost'})}}"
    f = solution.value(position)
    body = f.latex("N", digits=digits, label_text=lambda moves: "optimal: " + escape(moves_text(moves)))
    record = "\n".join(comment(line) for line in comment_header(provenance(solution, position), prefix="").splitlines())
    return f"{comment(title(solution))}\n{record}\n{body}"


def move_values_text(solution, position=None, digits: int = 15) -> str:
    """Every sent move's own value N(w), piece by piece."""
    return "\n".join(move_values_text_chunks(solution, position, digits))


def move_values_text_chunks(solution, position=None, digits: int = 15):
    """:func:`move_values_text` one move at a time (joined by newlines), so that
    a large report is written without its whole text in memory."""
    hints = FactorHints()  # (the moves' breakpoints share factors)
    for move, f in solution.move_values(position).items():
        minimal_polynomials(f.points, hints)
        rows = [
            (f"[{_point_text(pc.lo, digits)}, {_point_text(pc.hi, digits)}]", pc.formula.text())
            for pc in f.pieces()
        ]
        width = max(len(r[0]) for r in rows)
        yield "\n".join([f"N(send {move_text(move)}):"] + [f"  {r[0].ljust(width)}  {r[1]}" for r in rows])


def move_values_json(solution, position=None, digits: int = 15) -> list[dict]:
    """``[{"move", "pieces": [{"lo", "hi", "value"}]}]`` for every sent move."""
    return list(iter_move_values_json(solution, position, digits))


def iter_move_values_json(solution, position=None, digits: int = 15):
    """The entries of :func:`move_values_json` one at a time."""
    hints = FactorHints()  # (the moves' breakpoints share factors)
    for move, f in solution.move_values(position).items():
        minimal_polynomials(f.points, hints)
        yield {
            "move": move_json(move),
            "pieces": [
                {"lo": number_json(pc.lo, digits), "hi": number_json(pc.hi, digits), "value": str(pc.formula)}
                for pc in f.pieces()
            ],
        }


def dumps_chunks(data: dict, key: str, items):
    """The text of :func:`dumps` for ``data`` with ``key`` added last, holding
    the list of ``items`` (an iterable), in pieces: each item is turned into text
    only when it is written (``solve nim 64 --moves`` writes 700 MB of JSON)."""
    head = json.dumps(data, indent=2)
    yield head[:-2] + ",\n" if data else "{\n"
    yield f"  {json.dumps(key)}: ["
    first = True
    for item in items:
        text = json.dumps(item, indent=2).replace("\n", "\n    ")
        yield ("\n    " if first else ",\n    ") + text
        first = False
    yield "]\n}\n" if first else "\n  ]\n}\n"


# --------------------------------------------------------------------------- tables


#: most points of a table's grid
MAX_GRID_POINTS = 100_001


def grid(step, a=0, b=1) -> list[Fraction]:
    """The points a, a + step, ... up to b (exact; b included when it is on the grid)."""
    step = to_fraction(exact_number(step))
    a, b = to_fraction(exact_number(a)), to_fraction(exact_number(b))
    if step <= 0:
        raise ValueError("the step must be positive")
    n = int((b - a) / step)
    if n + 1 > MAX_GRID_POINTS:
        raise ValueError(f"the step {step} gives {n + 1} points, more than the cap of {MAX_GRID_POINTS}")
    return [a + i * step for i in range(n + 1)]


def decimals_of(step) -> int:
    """Decimals needed to print multiples of ``step`` exactly (or 6 if none suffice)."""
    step = to_fraction(exact_number(step))
    for d in range(0, 13):
        if (step * 10**d).denominator == 1:
            return d
    return 6


def table_rows(solution, points, position=None) -> list[tuple]:
    """``(p, N(p), optimal moves)`` with exact ``Fraction`` values."""
    f = solution.value(position)
    out = []
    for p in points:
        q = exact_number(p)
        out.append((to_fraction(q), to_fraction(f(q)), tuple(sorted(f.label_at(q)))))
    return out


def _p_text(p: Fraction, decimals: int) -> str:
    return fixed(p, decimals) if (p * 10**decimals).denominator == 1 else str(p)


def position_column(solution) -> tuple[str, str]:
    """A table's first column: its header and the solved position (``k`` and the
    heap for 1-pile Nim, ``board`` and ``RxC`` for a whole Chomp board, else
    ``position`` and the position's label)."""
    game = solution.game
    if game.name == "nim":
        return "k", str(solution.start)
    if game.name == "chomp" and solution.start == game.start():
        return "board", f"{game.rows}x{game.cols}"
    return "position", game.position_label(solution.start)


def table_csv(solution, rows, p_decimals: int, decimals: int, method: str | None = None) -> str:
    """The paper's appendix format: ``k,p,N,optimal`` (ties joined by ``;``);
    with ``method``, a last column ``method`` holding it on every row (the
    command line's fixed columns, as the certified tables have)."""
    head, pos = position_column(solution)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([head, "p", "N", "optimal"] + (["method"] if method else []))
    for p, value, opt in rows:
        w.writerow([pos, _p_text(p, p_decimals), fixed(value, decimals), ";".join(move_text(m) for m in opt)]
                   + ([method] if method else []))
    return buf.getvalue()


def _interval_words(interval) -> str:
    if not interval:
        return "none (the result does not depend on p)"
    if isinstance(interval, dict):  # a phase diagram: p and q
        return ", ".join(f"{name} in [{lo}, {hi}]" for name, (lo, hi) in interval.items())
    return f"[{interval[0]}, {interval[1]}]"


def comment_header(meta: dict, prefix: str = "# ") -> str:
    """A provenance record as comment lines (CSV files, plain-text tables).

    >>> from symbolic_noise import Nim, solve
    >>> print(comment_header(provenance(solve(Nim(2), "binary"))).splitlines()[0])
    # game: 1-pile Nim, k = 2 (nim 2)
    """
    game = meta["game"]
    spec = f" ({game['family']} {game['param']})" if "family" in game else ""
    channel = meta["channel"]
    lines = [
        f"game: {game['description']}{spec}",
        f"position: {meta['position']}",
        f"channel: {channel['name']} ({channel['p']})" + (f", sha256 {channel['sha256']}" if "sha256" in channel else ""),
    ]
    if "opponent_channel" in meta:
        other = meta["opponent_channel"]
        lines.append(f"opponent channel: {other['name']} ({other['p']})")
    lines += [
        f"misere: {'yes' if meta['misere'] else 'no'}",
        f"strategies: {' vs '.join(meta['strategies'])}"
        + ("".join(f", {who} file sha256 {h}" for who, h in zip(("first", "second"), meta.get("strategy_sha256", ())) if h)),
        "interval: " + _interval_words(meta.get("interval")),
        f"method: {meta['method']}",
        f"software: {meta['software']}",
    ]
    return "".join(prefix + line.replace("\n", " ") + "\n" for line in lines)


def table_json(solution, rows, p_decimals: int, decimals: int) -> list[dict]:
    """The rows of :func:`table_rows` as JSON data: the position, p and N in
    decimals and exactly, and the optimal moves."""
    head, pos = position_column(solution)
    return [
        {
            head: pos,
            "p": _p_text(p, p_decimals),
            "p_exact": str(p),
            "N": fixed(value, decimals),
            "N_exact": str(value),
            "optimal": [move_json(m) for m in opt],
            "method": "exact",
        }
        for p, value, opt in rows
    ]


#: the JSON contract of a table, ``{"format", "meta", "rows"}``
TABLE_FORMAT = "symbolic-noise.table/1"


def table_document(meta: dict, rows: list[dict]) -> dict:
    """A table's JSON document: the contract name, the provenance record and
    the rows (:func:`table_json`, or the pointwise rows with their method).

    >>> from symbolic_noise import Nim, solve
    >>> sol = solve(Nim(2), "binary")
    >>> doc = table_document(provenance(sol), table_json(sol, table_rows(sol, grid("1/2", 0, 1)), 1, 3))
    >>> doc["format"], doc["meta"]["game"]["param"], [r["N_exact"] for r in doc["rows"]]
    ('symbolic-noise.table/1', '2', ['1', '1/2', '1'])
    """
    return {"format": TABLE_FORMAT, "meta": meta, "rows": rows}


def table_text(solution, rows, p_decimals: int, decimals: int) -> str:
    """The rows of :func:`table_rows` as aligned text columns p, N and optimal,
    under the solution's title."""
    out = [[ "p", "N", "optimal"]]
    for p, value, opt in rows:
        out.append([_p_text(p, p_decimals), fixed(value, decimals), ", ".join(move_text(m) for m in opt)])
    widths = [max(len(r[i]) for r in out) for i in range(2)]
    lines = [title(solution)]
    lines += ["  " + r[0].rjust(widths[0]) + "  " + r[1].ljust(widths[1]) + "  " + r[2] for r in out]
    return "\n".join(lines)


def dumps(data) -> str:
    """JSON text with a trailing newline."""
    return json.dumps(data, indent=2) + "\n"
