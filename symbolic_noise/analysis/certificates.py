"""Exact statements about N(p), checked with certificates or refuted with
counterexamples.

A :class:`Statement` is one of (``[a, b]`` exact, ``c``/``eps`` exact rationals)::

    N >= c on [a, b]            N <= c on [a, b]            N == c on [a, b]
    optimal M on [a, b]         optimal-set {M1, M2} on [a, b]
    |2N-1| < eps on [a, b]

where moves ``M`` are written as the game names them: ``0`` (Nim: chips left),
``(1,2)`` (Chomp: row, column) or ``3->1`` (heap games).  ``optimal M`` means M
is among the optimal moves at every p of [a, b]; ``optimal-set S`` that the
optimal moves are exactly S at every p.

:func:`check` returns a :class:`Certificate`.  If the statement holds, it lists
for every piece of the solution meeting [a, b] the exact reason, always of one
of two kinds about an integer polynomial ``g`` derived from the formulas (for
``N >= c``, ``g`` is the numerator of ``N - c`` over a positive denominator):

* ``identical``: ``g = 0`` identically on the piece;
* ``sign``: ``g`` has the stated real roots in the open piece (usually none),
  each a touching root where that is allowed, and the stated sign at a named
  rational point of every stretch between them, and at the piece's ends.

Otherwise it gives a counterexample: an exact point (rational, or algebraic)
where the statement fails, with the exact values there.  :func:`verify`
re-checks a certificate from its JSON form alone: it re-derives every ``g``
from the stored formulas, re-isolates its real roots and re-evaluates every
sign, trusting nothing the solver or :func:`check` computed.  Optimality
certificates carry each move's own formula on each piece; given the solution,
:func:`verify` also re-derives those from the followers' values and the channel.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> sol = solve(Nim(5), "binary")
>>> check(sol, "N >= 1/2 on [0, 1/2]").holds
True
>>> cert = check(sol, "optimal 3 on [1/2, 4/5]")      # 4 is better after 0.7623...
>>> cert.holds, cert.counterexample["p"]
(False, '51/64')
>>> verify(check(sol, "optimal 0 on [0, 1/2]").to_json())
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flint import fmpq, fmpz_poly

from ..exact import polys
from ..exact.algebraic import RealAlgebraic, dyadic_hull, rational_between, real_roots, sorted_exact
from ..errors import SymbolicNoiseError, VerificationError  # noqa: F401  (VerificationError: re-exported)
from ..exact.polys import as_fmpq, sign
from ..exact.ratfunc import RationalFunction


class StatementError(SymbolicNoiseError, ValueError):
    """A statement that cannot be read."""


# --------------------------------------------------------------------------- statements


def _parse_move(text: str):
    text = text.strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    m = re.fullmatch(r"\(\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*\)", text)
    if m:
        return tuple(int(x) for x in m.group(1).split(","))
    if not text:
        raise StatementError("an empty move name")
    return text


def _move_text(m) -> str:
    return "(" + ",".join(str(x) for x in m) + ")" if isinstance(m, tuple) else str(m)


def _split_moves(text: str) -> list:
    """Split ``a, (1,2), 3->1`` at commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


_INTERVAL = r"\s+on\s+\[\s*([^,\]]+?)\s*,\s*([^\]]+?)\s*\]\s*$"


@dataclass(frozen=True)
class Statement:
    """A statement about N(p) on the exact interval [lo, hi] (see the module docstring)."""

    kind: str  #: 'ge', 'le', 'eq', 'optimal', 'optimal_set', 'fair'
    value: Any  #: the constant (fmpq) or eps, the move, or the frozenset of moves
    lo: fmpq
    hi: fmpq

    @classmethod
    def parse(cls, text: str) -> "Statement":
        """Read a statement.

        >>> Statement.parse("|2N-1| < 1/100 on [3/10, 1]").kind
        'fair'
        >>> Statement.parse("optimal-set {(1,2), (2,1)} on [0, 1/3]").value == frozenset({(1, 2), (2, 1)})
        True
        """
        m = re.search(_INTERVAL, text)
        if not m:
            raise StatementError(f"a statement ends with 'on [a, b]': {text!r}")
        try:
            lo, hi = as_fmpq(m.group(1)), as_fmpq(m.group(2))
        except SymbolicNoiseError as exc:
            raise StatementError(f"in {text!r}: {exc}") from None
        if not lo <= hi:
            raise StatementError(f"the interval [{lo}, {hi}] is empty")
        head = text[: m.start()].strip()
        rel = re.fullmatch(r"N\s*(>=|<=|==)\s*(.+)", head)
        if rel:
            kind = {">=": "ge", "<=": "le", "==": "eq"}[rel.group(1)]
            return cls(kind, _number(rel.group(2), text), lo, hi)
        fair = re.fullmatch(r"\|\s*2\s*\*?\s*N\s*-\s*1\s*\|\s*<\s*(.+)", head)
        if fair:
            eps = _number(fair.group(1), text)
            if eps <= 0:
                raise StatementError("eps must be positive")
            return cls("fair", eps, lo, hi)
        opt_set = re.fullmatch(r"optimal[-_ ]set\s*\{(.*)\}", head)
        if opt_set:
            moves = frozenset(_parse_move(x) for x in _split_moves(opt_set.group(1)))
            return cls("optimal_set", moves, lo, hi)
        opt = re.fullmatch(r"optimal\s+(.+)", head)
        if opt:
            return cls("optimal", _parse_move(opt.group(1)), lo, hi)
        raise StatementError(
            f"cannot read {text!r}: use 'N >= c', 'N <= c', 'N == c', 'optimal M', 'optimal-set {{M, ...}}'"
            " or '|2N-1| < eps', followed by 'on [a, b]'"
        )

    def text(self) -> str:
        where = f"on [{self.lo}, {self.hi}]"
        if self.kind in ("ge", "le", "eq"):
            return f"N {dict(ge='>=', le='<=', eq='==')[self.kind]} {self.value} {where}"
        if self.kind == "fair":
            return f"|2N-1| < {self.value} {where}"
        if self.kind == "optimal":
            return f"optimal {_move_text(self.value)} {where}"
        return "optimal-set {" + ", ".join(_move_text(m) for m in sorted(self.value, key=repr)) + "} " + where

    __str__ = text


def _number(text: str, whole: str) -> fmpq:
    try:
        return as_fmpq(text.strip())
    except SymbolicNoiseError:
        raise StatementError(f"{text.strip()!r} in {whole!r} is not an exact rational number") from None


# --------------------------------------------------------------------------- sign analysis


def _point_json(x: RealAlgebraic, digits: int = 20) -> dict:
    out = {"exact": x.exact_str(), "decimal": x.decimal(digits)}
    if not x.is_rational:
        out["poly"] = [str(int(c)) for c in x.poly.coeffs()]
        out["lo"], out["hi"] = str(x.lo), str(x.hi)
    return out


def _point_from_json(d) -> RealAlgebraic:
    if "poly" in d:
        return RealAlgebraic.root(fmpz_poly([int(c) for c in d["poly"]]), as_fmpq(d["lo"]), as_fmpq(d["hi"]))
    return RealAlgebraic.rational(as_fmpq(d["exact"]))


def _analyse(g: fmpz_poly, lo: RealAlgebraic, hi: RealAlgebraic) -> dict:
    """Signs of the integer polynomial ``g`` on the closed interval [lo, hi]:
    ``{"roots": [(point, side signs)], "stretches": [(t, sign)], "ends": (s_lo, s_hi)}``."""
    if lo.compare(hi) == 0:
        s_lo = lo.sign_of(g)
        return {"roots": [], "stretches": [], "ends": (s_lo, s_lo)}
    outer_lo, outer_hi = dyadic_hull(lo, hi)
    s = polys.bernstein_sign(g, outer_lo, outer_hi)
    if s:
        # g has the sign s on the open (outer_lo, outer_hi): on the piece, and at
        # each end unless that end is outer_lo / outer_hi itself
        def end_sign(x, bound):
            return sign(g(bound)) if x.is_rational and x.lo == bound else s

        t = rational_between(lo, hi)
        return {"roots": [], "stretches": [(t, s)], "ends": (end_sign(lo, outer_lo), end_sign(hi, outer_hi))}
    s_lo, s_hi = lo.sign_of(g), hi.sign_of(g)
    inside = []
    for r in real_roots(g, outer_lo, outer_hi):
        if r.compare(lo) > 0 and r.compare(hi) < 0:
            inside.append(r)
    cuts = [lo] + inside + [hi]
    stretches = []
    for a, b in zip(cuts, cuts[1:]):
        t = rational_between(a, b)
        stretches.append((t, sign(g(t))))
    return {"roots": inside, "stretches": stretches, "ends": (s_lo, s_hi)}


def _allowed(kind: str, s: int, at_point: bool) -> bool:
    """Whether a sign of ``g`` is allowed: ``ge`` needs g >= 0, ``strict`` g > 0."""
    if kind == "nonneg":
        return s >= 0
    if kind == "pos":
        return s > 0
    raise ValueError(kind)


# --------------------------------------------------------------------------- certificates


@dataclass
class Certificate:
    """The outcome of :func:`check`: a certificate, or a counterexample."""

    statement: Statement
    position: Any
    holds: bool
    pieces: list = field(default_factory=list)  #: per sub-piece reasons (JSON-able dicts)
    counterexample: dict | None = None

    def to_json(self) -> dict:
        pos = list(self.position) if isinstance(self.position, tuple) else self.position
        return {
            "format": "symbolic-noise.certificate/1",
            "statement": self.statement.text(),
            "position": pos,
            "verdict": "holds" if self.holds else "fails",
            "pieces": self.pieces,
            "counterexample": self.counterexample,
        }

    def __repr__(self) -> str:
        from ..io.display import certificate_repr

        return certificate_repr(self)

    def _repr_html_(self) -> str:
        from ..io.display import certificate_html

        return certificate_html(self)


def _rf_json(f: RationalFunction) -> dict:
    return {"num": [str(int(c)) for c in f.num.coeffs()], "den": [str(int(c)) for c in f.den.coeffs()], "text": str(f)}


def _rf_from_json(d) -> RationalFunction:
    return RationalFunction(fmpz_poly([int(c) for c in d["num"]]), fmpz_poly([int(c) for c in d["den"]]))


def _refine(funcs: list, lo: RealAlgebraic, hi: RealAlgebraic):
    """The common refinement of piecewise functions over [lo, hi]:
    ``[(a, b, [formula per function])]``."""
    cuts = [lo, hi]
    for f in funcs:
        for x in f.breakpoints:
            if x.compare(lo) > 0 and x.compare(hi) < 0:
                cuts.append(x)
    cuts = sorted_exact(cuts)
    uniq = [cuts[0]]
    for x in cuts[1:]:
        if x.compare(uniq[-1]) != 0:
            uniq.append(x)
    out = []
    if len(uniq) == 1:  # a single point
        return [(uniq[0], uniq[0], [f.formula_at(uniq[0]) for f in funcs])]
    for a, b in zip(uniq, uniq[1:]):
        t = rational_between(a, b)
        out.append((a, b, [f.formula_at(t) for f in funcs]))
    return out


def _sign_numerator(f: RationalFunction, t: fmpq) -> fmpz_poly:
    """The numerator of ``f`` over a denominator positive at ``t`` (and on the
    whole piece: a piece's formula has no pole inside it)."""
    return f.num if f.den(t) > 0 else -f.num


def _counter(point: RealAlgebraic | fmpq, values: dict, digits: int = 20) -> dict:
    x = point if isinstance(point, RealAlgebraic) else RealAlgebraic.rational(point)
    out = {"p": x.exact_str(), "p_decimal": x.decimal(digits)}
    for name, f in values.items():
        from ..exact.piecewise import PointValue

        v = PointValue(f, x)
        out[name] = v.exact_str()
        out[name + "_decimal"] = v.decimal(digits)
    return out


def _claim(g: fmpz_poly, a: RealAlgebraic, b: RealAlgebraic, need: str, allow_touch: bool):
    """Check ``g`` (need 'nonneg' or 'pos') on [a, b]; returns (reason dict, bad point or None)."""
    if g.is_zero():
        return {"kind": "identical"}, (None if need == "nonneg" else rational_between(a, b) if a.compare(b) else a)
    an = _analyse(g, a, b)
    # the leftmost violation: the left end, then stretches and roots in order, then the right end
    if not _allowed(need, an["ends"][0], True):
        return None, a
    for i, (t, s) in enumerate(an["stretches"]):
        if not _allowed(need, s, False):
            return None, t
        if i < len(an["roots"]) and (need == "pos" or not allow_touch):
            return None, an["roots"][i]
    if not _allowed(need, an["ends"][1], True):
        return None, b
    reason = {
        "kind": "sign",
        "g": [str(int(c)) for c in g.coeffs()],
        "roots": [_point_json(r) for r in an["roots"]],
        "points": [[str(t), s] for t, s in an["stretches"]],
        "ends": list(an["ends"]),
        "need": need,
    }
    return reason, None


def check(solution, statement, position=None, digits: int = 20, *, full: bool = True) -> Certificate:
    """Check ``statement`` (a :class:`Statement` or its text) about ``N_position``
    in ``solution``; returns a :class:`Certificate` (``holds`` True with the
    reasons, or False with a counterexample).  With ``full=False`` the
    certificate keeps the kinds of its reasons but not the formulas and
    polynomials (enough for a summary, not for :func:`verify`)."""
    st = statement if isinstance(statement, Statement) else Statement.parse(statement)
    v = solution.start if position is None else position
    f = solution.value(v)
    a_sol, b_sol = f.interval
    if st.lo < a_sol.lo or st.hi > b_sol.hi:
        raise StatementError(f"[{st.lo}, {st.hi}] is outside the solved interval [{a_sol}, {b_sol}]")
    lo, hi = RealAlgebraic.rational(st.lo), RealAlgebraic.rational(st.hi)
    cert = Certificate(st, v, True)
    if st.kind in ("ge", "le", "eq", "fair"):
        for a, b, (formula,) in _refine([f], lo, hi):
            t = rational_between(a, b) if a.compare(b) else a.lo
            c = st.value
            if st.kind == "fair":
                # |2N - 1| < eps  <=>  eps - (2N - 1) > 0  and  (2N - 1) + eps > 0
                checks = [(c - (2 * formula - 1), "pos"), ((2 * formula - 1) + c, "pos")]
            elif st.kind == "ge":
                checks = [(formula - c, "nonneg")]
            elif st.kind == "le":
                checks = [(c - formula, "nonneg")]
            else:
                checks = [(formula - c, "zero")]
            entry = {"lo": _point_json(a), "hi": _point_json(b), "claims": []}
            if full:
                entry["formula"] = _rf_json(formula)
            for expr, need in checks:
                g = _sign_numerator(expr, t)
                if need == "zero":
                    if g.is_zero():
                        entry["claims"].append({"kind": "identical"})
                        continue
                    if a.compare(b) == 0:  # a single point: its value decides
                        if a.sign_of(g) == 0:
                            entry["claims"].append({"kind": "point", "ends": [0, 0]})
                            continue
                        cert.holds = False
                        cert.counterexample = _counter(a, {"N": formula}, digits)
                        return cert
                    bad = rational_between(a, b)
                    # a point where g != 0 exists among few simple ones
                    for _ in range(64):
                        if isinstance(bad, fmpq) and g(bad) != 0:
                            break
                        bad = rational_between(a, RealAlgebraic.rational(bad)) if isinstance(bad, fmpq) else bad
                    reason, badpt = None, bad
                else:
                    reason, badpt = _claim(g, a, b, need, allow_touch=True)
                if reason is None:
                    cert.holds = False
                    cert.counterexample = _counter(badpt, {"N": formula}, digits)
                    return cert
                entry["claims"].append(reason)
            cert.pieces.append(entry if full else _summary(entry))
        return cert
    # optimality statements need every sent move's own value, cell by cell
    if st.lo == st.hi:
        values = solution.move_values(v)
        cells = [(lo, lo, {m: g.formula_at(lo) for m, g in values.items()})]
    else:
        cells = solution.move_formulas(v, lo, hi)
    names = [solution.game.move_label(v, w) for w in solution.game.followers(v)]
    moves = set(names)
    if st.kind == "optimal":
        if st.value not in moves:
            raise StatementError(f"{_move_text(st.value)} is not a move of position {v!r}")
        members = [st.value]
    else:
        unknown = [m for m in st.value if m not in moves]
        if unknown:
            raise StatementError(f"{', '.join(_move_text(m) for m in unknown)} are not moves of position {v!r}")
        members = sorted(st.value, key=repr)
    head = members[0]
    for a, b, by in cells:
        t = rational_between(a, b) if a.compare(b) else a.lo
        entry = {"lo": _point_json(a), "hi": _point_json(b), "claims": []}
        if full:
            entry["moves"] = {_move_text(m): _rf_json(by[m]) for m in names}
        for w in names:
            if w == head:
                continue
            g = _sign_numerator(by[head] - by[w], t)
            if st.kind == "optimal" or w not in members:
                need = "nonneg" if st.kind == "optimal" else "pos"
                reason, bad = _claim(g, a, b, need, allow_touch=True)
            else:  # another member of the optimal set: it must tie identically
                reason = {"kind": "identical"} if g.is_zero() else None
                bad = None if g.is_zero() else (rational_between(a, b) if a.compare(b) else a)
                if bad is not None and isinstance(bad, fmpq) and g(bad) == 0:
                    bad = next(x for x in (a.lo, b.hi, (a.lo + b.hi) / 2) if g(x) != 0)
            if reason is None:
                cert.holds = False
                cert.counterexample = _counter(
                    bad, {f"N({_move_text(head)})": by[head], f"N({_move_text(w)})": by[w]}, digits
                )
                return cert
            reason["against"] = _move_text(w)
            entry["claims"].append(reason)
        cert.pieces.append(entry if full else _summary(entry))
    return cert


def _summary(entry: dict) -> dict:
    """A piece's entry without its formulas and polynomials."""
    return {
        "lo": entry["lo"],
        "hi": entry["hi"],
        "claims": [{k: c[k] for k in ("kind", "against", "need") if k in c} for c in entry["claims"]],
    }


# --------------------------------------------------------------------------- independent verification


def _verify_claim(g: fmpz_poly, a: RealAlgebraic, b: RealAlgebraic, claim: dict) -> None:
    if claim["kind"] == "identical":
        if not g.is_zero():
            raise VerificationError("a claimed identity does not hold")
        return
    if claim["kind"] == "point":
        if a.compare(b) != 0 or a.sign_of(g) != 0:
            raise VerificationError("a claimed value at a point is false")
        return
    if [str(int(c)) for c in g.coeffs()] != claim["g"]:
        raise VerificationError("the stored polynomial is not the one the formulas give")
    need = claim["need"]
    roots = [_point_from_json(r) for r in claim["roots"]]
    # the stated roots are roots, strictly inside, increasing, and there are no others
    for r in roots:
        if r.sign_of(g) != 0 or not (r.compare(a) > 0 and r.compare(b) < 0):
            raise VerificationError("a claimed root is not a root inside the piece")
    found = [r for r in real_roots(g, a.lo, b.hi) if r.compare(a) > 0 and r.compare(b) < 0] if not g.is_zero() else []
    if len(found) != len(roots):
        raise VerificationError("the piece holds other roots than those claimed")
    cuts = [a] + sorted_exact(roots) + [b]
    points = claim["points"]
    if len(points) != len(cuts) - 1:
        raise VerificationError("one test point per stretch is needed")
    for (lo_c, hi_c), (t_text, s) in zip(zip(cuts, cuts[1:]), points):
        t = as_fmpq(t_text)
        if not (lo_c.compare(t) < 0 and hi_c.compare(t) > 0):
            raise VerificationError("a test point lies outside its stretch")
        if sign(g(t)) != s or not _allowed(need, s, False):
            raise VerificationError("a sign claim is false")
    ends = (a.sign_of(g), b.sign_of(g))
    if list(ends) != claim["ends"] or not all(_allowed(need, s, True) for s in ends):
        raise VerificationError("a sign at an end of the piece is false")
    if roots and need == "pos":
        raise VerificationError("a strict claim cannot have roots")


def verify(certificate: dict, solution=None) -> bool:
    """Re-check a certificate from its JSON form alone: every polynomial is
    re-derived from the stored formulas and every root count and sign is
    recomputed.  With ``solution`` (optimality statements), every move's stored
    formula is also re-derived from the followers' values and the channel.
    Returns True, or raises :class:`VerificationError`."""
    if certificate.get("verdict") != "holds":
        raise VerificationError("only certificates of statements that hold can be verified")
    st = Statement.parse(certificate["statement"])
    pieces = certificate["pieces"]
    if not pieces:
        raise VerificationError("a certificate needs at least one piece")
    # the pieces tile [lo, hi]
    first, last = _point_from_json(pieces[0]["lo"]), _point_from_json(pieces[-1]["hi"])
    if first.compare(st.lo) != 0 or last.compare(st.hi) != 0:
        raise VerificationError("the pieces do not cover the statement's interval")
    for p1, p2 in zip(pieces, pieces[1:]):
        if _point_from_json(p1["hi"]).compare(_point_from_json(p2["lo"])) != 0:
            raise VerificationError("the pieces leave a gap")
    for piece in pieces:
        a, b = _point_from_json(piece["lo"]), _point_from_json(piece["hi"])
        t = rational_between(a, b) if a.compare(b) else a.lo
        if st.kind in ("ge", "le", "eq", "fair"):
            formula = _rf_from_json(piece["formula"])
            c = st.value
            exprs = {
                "ge": [formula - c],
                "le": [c - formula],
                "eq": [formula - c],
                "fair": [c - (2 * formula - 1), (2 * formula - 1) + c],
            }[st.kind]
            if len(exprs) != len(piece["claims"]):
                raise VerificationError("claims missing")
            for expr, claim in zip(exprs, piece["claims"]):
                _verify_claim(_sign_numerator(expr, t), a, b, claim)
        else:
            formulas = {name: _rf_from_json(d) for name, d in piece["moves"].items()}
            members = [_move_text(st.value)] if st.kind == "optimal" else sorted(_move_text(m) for m in st.value)
            head = members[0] if st.kind == "optimal" else _move_text(sorted(st.value, key=repr)[0])
            against = {c["against"]: c for c in piece["claims"]}
            if set(against) != set(formulas) - {head}:
                raise VerificationError("a move is not compared")
            for w, claim in against.items():
                g = _sign_numerator(formulas[head] - formulas[w], t)
                if st.kind == "optimal_set":
                    expected = "identical" if w in members else "pos"
                    if claim["kind"] != expected and not (expected == "pos" and claim["kind"] == "sign" and claim["need"] == "pos"):
                        raise VerificationError("an optimal-set claim has the wrong kind")
                elif claim["kind"] == "sign" and claim["need"] != "nonneg":
                    raise VerificationError("wrong claim")
                _verify_claim(g, a, b, claim)
            if solution is not None:
                _verify_move_formulas(solution, certificate, formulas, t)
    return True


def _verify_move_formulas(solution, certificate, formulas: dict, t: fmpq) -> None:
    """Re-derive every move's formula from the followers' values and psi."""
    v = certificate["position"]
    game = solution.game
    v = tuple(v) if isinstance(v, list) else v
    fs = game.followers(v)
    rows = solution.channel.rows(game, v)
    follower_formulas = [solution.value(w).formula_at(t) for w in fs]
    for i, w in enumerate(fs):
        acc = RationalFunction.constant(0)
        for j, fu in enumerate(follower_formulas):
            e = rows.entry(i, j)
            if not e.is_zero:
                acc = acc + e * (1 - fu)
        name = _move_text(game.move_label(v, w))
        if formulas.get(name) != acc:
            raise VerificationError(f"the stored formula of move {name} is not the one psi and the followers give")


# --------------------------------------------------------------------------- families


def check_family(solutions: dict, statements) -> dict:
    """``{key: Certificate}`` for a family: ``solutions`` maps a key (e.g. k) to
    ``(solution, position)``; ``statements`` maps the key to its statement (or is
    a function of the key)."""
    out = {}
    for key, (sol, position) in solutions.items():
        st = statements(key) if callable(statements) else statements[key]
        out[key] = check(sol, st, position)
    return out
