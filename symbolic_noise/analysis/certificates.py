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
where the statement fails, with the exact values there.

:func:`certificate_document` turns certificates into one self-contained
document (``symbolic-noise.certificate/2``): the game, channel, play,
strategies and interval by name, the claims, and the values of every position
their proof needs.  :func:`verify_document` trusts none of it but the names:
it rebuilds the game and the channel, proves the stored values with the
game's own equations (:mod:`symbolic_noise.analysis.bellman`) and decides
each statement afresh from them (theory.md, section 7).

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

import json
import re
from dataclasses import dataclass, field
from typing import Any

from flint import fmpq, fmpz_poly

from ..exact import polys
from ..exact.algebraic import RealAlgebraic, dyadic_hull, rational_between, real_roots, sorted_exact
from ..errors import SymbolicNoiseError, VerificationError  # noqa: F401  (VerificationError: re-exported)
from ..exact.polys import sign
from ..exact.ratfunc import RationalFunction
from ..exact.formula import exact_number


class StatementError(SymbolicNoiseError, ValueError):
    """A statement that cannot be read."""


# --------------------------------------------------------------------------- statements


def _parse_move(text: str):
    text = text.strip()
    if re.fullmatch(r"-?[0-9]+", text) and len(text) <= 12:
        return int(text)
    m = re.fullmatch(r"\(\s*(-?[0-9]{1,12}(?:\s*,\s*-?[0-9]{1,12})*)\s*\)", text)
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
    lo: fmpq  #: the interval's left end, exact
    hi: fmpq  #: the interval's right end, exact

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
            lo, hi = exact_number(m.group(1)), exact_number(m.group(2))
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
            if not moves:
                raise StatementError(f"an optimal set names at least one move: {text!r}")
            return cls("optimal_set", moves, lo, hi)
        opt = re.fullmatch(r"optimal\s+(.+)", head)
        if opt:
            return cls("optimal", _parse_move(opt.group(1)), lo, hi)
        raise StatementError(
            f"cannot read {text!r}: use 'N >= c', 'N <= c', 'N == c', 'optimal M', 'optimal-set {{M, ...}}'"
            " or '|2N-1| < eps', followed by 'on [a, b]'"
        )

    def text(self) -> str:
        """The statement as :meth:`parse` reads it, e.g. ``N >= 1/2 on [0, 1/2]``."""
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
        return exact_number(text.strip())
    except SymbolicNoiseError:
        raise StatementError(f"{text.strip()!r} in {whole!r} is not an exact rational number") from None


# --------------------------------------------------------------------------- sign analysis


def _point_json(x: RealAlgebraic, digits: int = 20) -> dict:
    out = {"exact": x.exact_str(), "decimal": x.decimal(digits)}
    if not x.is_rational:
        out["poly"] = [str(int(c)) for c in x.poly.coeffs()]
        out["lo"], out["hi"] = str(x.lo), str(x.hi)
    return out


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

    statement: Statement  #: the statement checked
    position: Any  #: the position it speaks of
    holds: bool  #: the verdict, True if the statement holds
    pieces: list = field(default_factory=list)  #: per sub-piece reasons (JSON-able dicts)
    counterexample: dict | None = None  #: where it fails, the point p and the values there (exact and in decimals)
    solution: Any = field(default=None, repr=False, compare=False)  #: what the statement is about

    def claim_json(self) -> dict:
        """This certificate's claim: the statement, its position, the verdict
        and, for the reader, the reasons :func:`check` found (which
        :func:`verify` re-derives rather than reads)."""
        return {
            "position": _position_json(self.position),
            "statement": self.statement.text(),
            "verdict": "holds" if self.holds else "fails",
            "pieces": [_summary(p) for p in self.pieces],
            "counterexample": self.counterexample,
        }

    def to_json(self) -> dict:
        """The certificate as a self-contained document (``symbolic-noise.certificate/2``):
        the game, channel, interval and play it speaks of, its claim, and the
        values of every position the proof needs (see :func:`certificate_document`)."""
        return certificate_document([self])

    def __repr__(self) -> str:
        from ..io.display import certificate_repr

        return certificate_repr(self)

    def _repr_html_(self) -> str:
        from ..io.display import certificate_html

        return certificate_html(self)


FORMAT = "symbolic-noise.certificate/2"
OLD_FORMATS = ("symbolic-noise.certificate/1", "symbolic-noise.certificates/1")


def _position_json(v):
    return [_position_json(x) for x in v] if isinstance(v, tuple) else v


def certificate_document(certs: list) -> dict:
    """One certificate document for ``certs`` (from :func:`check` on one
    solution): what it speaks of (game, channel, misère, strategies,
    interval, software version), the claims, and the values of every
    position reachable from the claims' positions (theory.md, section 7).
    :func:`verify` rebuilds the game and the channel from the names and
    proves the values with the game's own equations before it re-derives
    each claim."""
    from .._version import __version__
    from ..games.provenance import channel_spec, game_spec
    from ..solvers.storage import codec
    from .bellman import closure

    if not certs:
        raise StatementError("a certificate document needs at least one claim")
    sol = certs[0].solution
    if sol is None or any(c.solution is None for c in certs):
        raise StatementError("a certificate document is made from certificates that know their solution")
    game, channel = sol.game, sol.channel
    gspec, cspec = game_spec(game), channel_spec(channel)
    for c in certs:
        other = c.solution
        if (game_spec(other.game), channel_spec(other.channel), other.interval, other.misere) != (
            gspec, cspec, sol.interval, sol.misere
        ):
            raise StatementError("the claims of one certificate document speak of one game, channel, interval and play")
    if gspec is None:
        raise StatementError(f"{game.describe()} has no name to rebuild it by: its certificates cannot be verified")
    if cspec is None:
        raise StatementError(f"the channel {channel.name} has no name to rebuild it by: its certificates cannot be verified")
    a, b = sol.interval
    positions = closure(game, [c.position for c in certs])
    source = {}
    for c in certs:
        for v in closure(game, [c.position]):
            source.setdefault(v, c.solution)
    return {
        "format": FORMAT,
        "software": f"symbolic_noise {__version__}",
        "game": gspec,
        "channel": cspec,
        "misere": bool(sol.misere),
        "strategies": {"first": "optimal", "second": "optimal"},
        "interval": [str(a), str(b)],
        "claims": [c.claim_json() for c in certs],
        "values": [[_position_json(v), _unlabelled(codec.encode(source[v].value(v)))] for v in positions],
    }


def _unlabelled(encoded: dict) -> dict:
    """A value without its optimal-move sets: the verifier finds the optimal
    moves from the game's equations itself, and sets a file does carry are
    claims it must prove (which costs about half a check more)."""
    return {**encoded, "labels": None, "point_labels": None}


def _rf_json(f: RationalFunction) -> dict:
    return {"num": [str(int(c)) for c in f.num.coeffs()], "den": [str(int(c)) for c in f.den.coeffs()], "text": str(f)}


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
    if g.is_zero():  # g = 0 everywhere: g >= 0 holds identically, g > 0 nowhere
        if need == "nonneg":
            return {"kind": "identical"}, None
        return None, (rational_between(a, b) if a.compare(b) else a)
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
    cert = Certificate(st, v, True, solution=solution)
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
            elif a.compare(b) == 0:  # another member at a single point: it must tie there
                tie = g.is_zero() or a.sign_of(g) == 0
                reason = {"kind": "identical"} if g.is_zero() else {"kind": "point", "ends": [0, 0]} if tie else None
                bad = None if tie else a
            else:  # another member of the optimal set on a piece: it must tie identically
                reason = {"kind": "identical"} if g.is_zero() else None
                bad = None if g.is_zero() else rational_between(a, b)
                if bad is not None and g(bad) == 0:
                    bad = next(x for x in (a.lo, b.hi, (a.lo + b.hi) / 2) if g(x) != 0)
            if reason is None:
                cert.holds = False
                if (st.kind == "optimal" or w not in members) and isinstance(bad, fmpq):
                    # the witness is an optimal move at the point, not merely one that beats the claim
                    w = max(names, key=lambda m: (by[m](bad), m == w))
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


def document_text(document: dict) -> str:
    """A certificate document as compact JSON text, one line per claim and per
    value (large documents stay small on disk and readable in a diff)."""
    head = {k: v for k, v in document.items() if k not in ("claims", "values")}
    lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"claims":[']
    lines.append(",\n".join(json.dumps(c, separators=(",", ":")) for c in document["claims"]))
    lines.append('],"values":[')
    lines.append(",\n".join(json.dumps(r, separators=(",", ":")) for r in document["values"]))
    lines.append("]}\n")
    return "\n".join(lines)


# --------------------------------------------------------------------------- independent verification

#: most claims in one certificate document
MAX_CLAIMS = 100_000
#: most pieces of one stored value, and the highest degree of one of its formulas or points
MAX_PIECES = 200_000
MAX_DEGREE = 20_000
#: longest statement text
MAX_STATEMENT = 10_000


@dataclass(frozen=True)
class Verified:
    """One claim :func:`verify_document` re-derived: its statement, position and verdict."""

    statement: Statement  #: the statement, read again from the document
    position: Any  #: the position it speaks of
    holds: bool  #: the verdict re-derived


def verify(document: dict) -> bool:
    """Re-check a certificate document (:func:`certificate_document`)
    independently of the solver and of whoever wrote it; True, or
    :class:`VerificationError`.  See :func:`verify_document`."""
    verify_document(document)
    return True


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise VerificationError(message)


def verify_document(document, *, progress=None) -> list[Verified]:
    """Verify a certificate document and return its claims as re-derived.

    The game and the channel are rebuilt from their names (a custom channel
    from its document, whose SHA-256 must match); the followers and psi come
    from them.  The stored values of every position reachable from the
    claims' positions are proved to be the game's values by the Bellman check
    (:func:`symbolic_noise.analysis.bellman.check_values`); each statement is
    then decided afresh from those values, and must come out as the
    document's verdict.  Nothing else in the file is trusted: the reasons a
    claim carries are not read."""
    from ..games.provenance import channel_from_canonical, game_from_canonical
    from ..solvers.storage import codec
    from .bellman import check_optimal, check_values, closure

    _need(isinstance(document, dict), "a certificate is a JSON object")
    fmt = document.get("format")
    if fmt in OLD_FORMATS:
        raise VerificationError(
            f"this certificate has the old format {fmt}, which names neither the game nor the channel and cannot be"
            " verified; re-issue it with: symbolic-noise check GAME PARAM \"STATEMENT\" [--channel C] --out FILE"
        )
    _need(fmt == FORMAT, f"not a certificate of format {FORMAT} (found {str(fmt)[:60]!r})")
    for key in ("game", "channel", "misere", "strategies", "interval", "claims", "values"):
        _need(key in document, f'the certificate has no "{key}"')
    try:
        game = game_from_canonical(document["game"])
        channel = channel_from_canonical(document["channel"])
    except VerificationError:
        raise
    except SymbolicNoiseError as exc:
        raise VerificationError(f"the certificate names no game and channel that can be rebuilt: {exc}") from None
    misere = document["misere"]
    _need(type(misere) is bool, '"misere" is true or false')
    _need(document["strategies"] == {"first": "optimal", "second": "optimal"},
          "only certificates of optimal play by both players can be verified")
    iv = document["interval"]
    _need(isinstance(iv, list) and len(iv) == 2 and all(isinstance(x, str) and len(x) <= 200 for x in iv),
          '"interval" is a pair of exact rationals written as text')
    try:
        a, b = exact_number(iv[0]), exact_number(iv[1])
    except SymbolicNoiseError as exc:
        raise VerificationError(f"the interval: {exc}") from None
    _need(0 <= a <= b <= 1, f"the interval [{a}, {b}] is not inside [0, 1]")
    claims = document["claims"]
    _need(isinstance(claims, list) and 0 < len(claims) <= MAX_CLAIMS, f'"claims" is a list of 1 to {MAX_CLAIMS} claims')
    parsed = []
    for k, c in enumerate(claims):
        _need(isinstance(c, dict) and {"position", "statement", "verdict"} <= set(c),
              f'claim {k} needs "position", "statement" and "verdict"')
        _need(isinstance(c["statement"], str) and len(c["statement"]) <= MAX_STATEMENT, f"claim {k}: the statement is not text")
        _need(c["verdict"] in ("holds", "fails"), f'claim {k}: the verdict is "holds" or "fails"')
        try:
            st = Statement.parse(c["statement"])
            v = game.check_reachable(game.check_position(_position_from_json(c["position"])))
        except SymbolicNoiseError as exc:
            raise VerificationError(f"claim {k}: {exc}") from None
        _need(a <= st.lo and st.hi <= b, f"claim {k}: [{st.lo}, {st.hi}] is outside the certificate's interval [{a}, {b}]")
        parsed.append((st, v, c["verdict"] == "holds"))
    needed = closure(game, [v for _, v, _ in parsed])
    wanted = set(needed)
    rows = document["values"]
    _need(isinstance(rows, list), '"values" is a list of [position, value] pairs')
    values: dict = {}
    points: dict = {}
    for k, row in enumerate(rows):
        _need(isinstance(row, list) and len(row) == 2, f"values entry {k} is not a [position, value] pair")
        try:
            v = game.check_position(_position_from_json(row[0]))
        except SymbolicNoiseError as exc:
            raise VerificationError(f"values entry {k}: {exc}") from None
        _need(v not in values, f"the value of position {game.position_label(v)} is given twice")
        if v in wanted:
            values[v] = _decode_value(row[1], points, f"the value of position {game.position_label(v)}")
    missing = [v for v in needed if v not in values]
    _need(not missing, f"the value of position {game.position_label(missing[0]) if missing else ''} is missing")
    # the optimal moves a value carries are claims of the file too: proved, not trusted
    check_values(game, channel, values, (a, b), misere=misere, positions=needed, progress=progress, labels="given")
    out = []
    for st, v, verdict in parsed:
        if st.kind in ("optimal", "optimal_set"):
            members = [st.value] if st.kind == "optimal" else sorted(st.value, key=repr)
            holds, _ = check_optimal(game, channel, values, (a, b), v, members, st.lo, st.hi,
                                     exact_set=st.kind == "optimal_set", misere=misere)
        else:
            holds = _value_statement(values[v], st, v)
        _need(holds == verdict, f"the statement {st.text()} at position {game.position_label(v)} "
              f"{'holds' if holds else 'fails'}, not as the certificate says")
        out.append(Verified(st, v, holds))
    return out


def _position_from_json(x, depth: int = 0):
    if depth > 64:
        raise VerificationError("a position nests too deeply")
    if isinstance(x, list):
        return tuple(_position_from_json(e, depth + 1) for e in x)
    if type(x) is int or isinstance(x, str):
        return x
    raise VerificationError(f"a position is a whole number or a list, not {type(x).__name__}")


def _decode_value(data, points: dict, what: str):
    """A stored value, its sizes capped before any work, its breakpoints
    shared by their text (one object per distinct number)."""
    from ..solvers.storage import codec

    _need(isinstance(data, dict) and isinstance(data.get("points"), list) and isinstance(data.get("formulas"), list),
          f"{what} is not an encoded piecewise function")
    _need(0 < len(data["formulas"]) <= MAX_PIECES and len(data["points"]) == len(data["formulas"]) + 1,
          f"{what} has no pieces, more than {MAX_PIECES}, or not one more point than pieces")
    for pair in data["formulas"]:
        _need(isinstance(pair, list) and len(pair) == 2 and all(isinstance(c, list) and len(c) <= MAX_DEGREE + 1 for c in pair),
              f"{what}: a formula is a [numerator, denominator] pair of degree at most {MAX_DEGREE}")
    objects = []
    for x in data["points"]:
        _need(not isinstance(x, dict) or (isinstance(x.get("poly"), list) and len(x["poly"]) <= MAX_DEGREE + 1),
              f"{what}: a breakpoint's degree is too high")
        key = repr(sorted(x.items())) if isinstance(x, dict) else x
        got = points.get(key) if isinstance(key, str) else None
        if got is None:
            try:
                got = codec.decode_point(x)
            except (ValueError, TypeError, KeyError, AttributeError, SymbolicNoiseError) as exc:
                raise VerificationError(f"{what}: a breakpoint cannot be read ({exc})") from None
            if isinstance(key, str):
                points[key] = got
        objects.append(got)
    try:
        f = codec.decode({**data, "points": list(range(len(objects)))}, table=dict(enumerate(objects)))
    except SymbolicNoiseError as exc:
        raise VerificationError(f"{what} cannot be read: {exc}") from None
    return f


def _value_statement(f, st: Statement, v) -> bool:
    """Whether a statement about N (>=, <=, ==, |2N-1| < eps) holds for the proved value ``f``."""

    class _One:  # the little of a Solution that check() reads for these statements
        def __init__(self, f):
            self.f = f
            self.start = v

        def value(self, _v=None):
            return self.f

    return check(_One(f), st, v, full=False).holds


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
