"""Statements proved from a certified map, and map certificates re-checked.

One job: decide a :class:`~symbolic_noise.analysis.certificates.Statement`
(``N >= c``, ``N <= c``, ``|2N-1| < eps``, ``optimal M``, ``optimal-set S``
on ``[a, b]``) for any game and channel from a certified map
(:mod:`symbolic_noise.solvers.maps`, theory.md section 8), write what proves
it as a certificate (:data:`FORMAT`), and re-prove such a certificate from the
game's own equations.

A certificate that a statement **holds** carries proof units, boxes of p with
exact rational ends that cover the statement's interval end to end:

* ``class [a, b] S``: the moves that can be optimal on the box (arb
  enclosures) all lie in the proved tie class S, so S is the optimal set on it;
* ``crossing [a, b] L R, change in [lo, hi]``: only the classes L and R can be
  optimal on the box, ``V_l - V_r`` has a derivative of one sign on it, is
  positive at a and negative at b, and has those same signs at lo and hi, so
  the set is L, then ``L | R`` at one c in (lo, hi), then R (``point``: c
  itself, confirmed by an exact evaluation, when it is rational; a bound N
  touches at that c is proved by the signs of ``V_l'`` and ``V_r'``);
* ``onesided [a, b] at c``: c is an end of the box, the exact one-sided series
  at c give the set S at c and the one class R optimal beside it, and the
  anchored enclosures of the box prove R optimal on the rest of the box (for
  ``N >= c`` statements that touch at c, the first nonzero coefficient of
  ``V_r - c`` and the sign of that derivative over the box prove the bound);
* ``value [a, b]``: an arb enclosure of N over the box (statements about N);
* ``slope [a, b] from e``: N evaluated exactly at the end e, and the sign of
  the enclosure of its generalised gradient over the box (a bound that N
  touches at e, such as N(0) = 1/2);
* ``point c``: an exact evaluation at the rational c (statements at one p).

A certificate that a statement **fails** carries one rational p, where an
exact evaluation (:func:`~symbolic_noise.solvers.onepoint.fastpoint.point_solve`)
shows it false.  A statement the map cannot decide (an undecided stretch, a
change interval that straddles the statement's end, an enclosure too wide)
is reported not proved, never claimed.

:func:`verify_map_document` trusts nothing in a file but the names: it
rebuilds the game, channel and position, lays out psi again
(:class:`~symbolic_noise.solvers.maps.structure.Layout`, which proves the tie
classes exactly), re-proves every unit with arb enclosures and exact series
(never the search, :func:`~symbolic_noise.solvers.maps.build_map`), checks that
the units cover the interval without a gap, and derives the statement from
them.

>>> from symbolic_noise.games.rulesets import Nim
>>> cert = map_check(Nim(5), "binary", "optimal 3 on [3/5, 3/4]")
>>> cert.verdict, [u[0] for u in cert.units][:2]
('holds', ['class', 'class'])
>>> [v.verdict for v in verify_map_document(cert.to_json())]
['holds']
>>> map_check(Nim(5), "binary", "optimal 3 on [3/5, 4/5]").counterexample
10/13
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flint import arb, ctx, fmpq

from ..errors import SymbolicNoiseError, VerificationError
from ..exact.formula import exact_number
from .certificates import Statement, StatementError, _move_text, _position_from_json, _position_json

#: the format of a map certificate document
FORMAT = "symbolic-noise.map-certificate/1"
#: most proof units one certificate may carry
MAX_UNITS = 200_000
#: estimated CPU seconds of a check (:func:`estimate_seconds`) refused unless the caller allows more
MAX_SECONDS = 120.0
#: most characters of one exact number in a certificate
MAX_NUMBER = 400
#: the arb precision a certificate may ask for, in bits
PRECISIONS = (64, 4096)
#: the prover splits a box that one enclosure cannot settle this many times at most
SPLIT_DEPTH = 14
#: the most boxes the prover splits off for one statement about N
VALUE_BOXES = 4_000

#: the prover tries N exact at a box's end (slope units) only where the end's denominator is at most this
SLOPE_DENOMINATOR = 4096

_KINDS = ("class", "crossing", "onesided", "value", "slope", "point")


@dataclass
class MapCertificate:
    """The outcome of :func:`map_check`.

    ``verdict``: ``"holds"`` (proved by ``units``), ``"fails"`` (false at the
    exact rational ``counterexample``) or None (the map does not decide it;
    ``reason`` says why, in one line)."""

    statement: Statement  #: the statement decided
    game: object  #: the game it speaks of
    channel: object  #: the channel
    start: object  #: the position the statement speaks of
    misere: bool  #: misère play
    interval: tuple  #: the interval the units cover (the statement's)
    verdict: str | None  #: "holds", "fails" or None (not proved)
    units: list = field(default_factory=list)  #: the proof units, in order of p
    counterexample: fmpq | None = None  #: a p where the statement fails (exact)
    reason: str = ""  #: why the statement is not proved
    prec: int = 128  #: the arb precision of the enclosures, in bits
    map: object = field(default=None, repr=False)  #: the map the units came from

    @property
    def holds(self) -> bool:
        """True when the statement is proved."""
        return self.verdict == "holds"

    def to_json(self) -> dict:
        """The certificate document (:data:`FORMAT`); only a decided statement has one."""
        return map_certificate_document(self)


# --------------------------------------------------------------------------- re-proving units


@dataclass
class _Fact:
    """What one re-proved unit establishes on ``[a, b]``: ``pieces`` of
    ``(s, t, S, open_lo, open_hi)`` (S the optimal set there, None when not
    known), exact bounds ``value`` of N over the box, and for a one-sided unit
    the series and anchored enclosure that decide bounds touching at c."""

    a: fmpq
    b: fmpq
    pieces: list
    value: tuple | None
    touch: object = None


class _Prover:
    """The layout of one game, channel and position, and the re-proof of proof
    units over it (every test a certain comparison of balls, or exact)."""

    def __init__(self, game, channel, root, interval, misere):
        from ..solvers.maps.structure import Layout

        self.game, self.channel, self.root, self.misere = game, channel, root, misere
        self.layout = Layout(game, channel, root, interval)
        names = self.layout.names
        self.classes = self.layout.classes
        self.class_of = {i: k for k, c in enumerate(self.classes) for i in c}
        self.class_by_names = {frozenset(names[i] for i in c): k for k, c in enumerate(self.classes)}
        self.points: dict = {}
        self.exacts: dict = {}
        self.enclosures = 0

    def enclose(self, a, b, anchor=None):
        from ..solvers.maps.enclose import enclose

        self.enclosures += 1
        return enclose(self.layout, a, b, self.misere, anchor)

    def point(self, c):
        if c not in self.points:
            self.points[c] = self.enclose(c, c)
        return self.points[c]

    def names(self, moves) -> frozenset:
        return frozenset(self.layout.names[i] for i in moves)

    def klass(self, S, what) -> int:
        k = self.class_by_names.get(S)
        _need(k is not None, f"{what} {_set_text(S)} is not a proved tie class of the position's moves")
        return k

    def exact(self, p):
        from ..solvers.onepoint.fastpoint import point_solve

        if p not in self.exacts:
            self.exacts[p] = point_solve(self.game, self.channel, p, start=self.root, misere=self.misere)
        return self.exacts[p]

    def unit(self, u) -> _Fact:
        """Re-prove one unit; :class:`VerificationError` when it does not hold."""
        kind = u[0]
        if kind == "point":
            c = u[1]
            ans = self.exact(c)
            return _Fact(c, c, [(c, c, ans.optimal, False, False)], (ans.value, ans.value))
        a, b = u[1], u[2]
        _need(a < b, f"the box [{a}, {b}] is empty")
        if kind == "value":
            return _Fact(a, b, [(a, b, None, False, False)], _bounds(self.enclose(a, b).value))
        if kind == "slope":
            end = u[3]
            _need(end in (a, b), f"the exact end {end} is not an end of [{a}, {b}]")
            rb = self.enclose(a, b)
            return _Fact(a, b, [(a, b, None, False, False)], _bounds(rb.value),
                         touch=(self.exact(end).value, rb.der, 1 if end == a else -1))
        if kind == "class":
            rb = self.enclose(a, b)
            k = self.klass(u[3], "the set")
            got = {self.class_of[i] for i in rb.candidates}
            _need(got == {k}, f"on [{a}, {b}] the moves that may be optimal are not the class {_set_text(u[3])}")
            return _Fact(a, b, [(a, b, u[3], False, False)], _bounds(rb.value))
        if kind == "crossing":
            return self.crossing(*u[1:])
        return self.onesided(*u[1:])

    def crossing(self, a, b, L, R, lo, hi, point) -> _Fact:
        kl, kr = self.klass(L, "the left set"), self.klass(R, "the right set")
        _need(kl != kr, "a crossing is between two different classes")
        _need(a <= lo <= hi <= b, f"the change interval [{lo}, {hi}] is not inside the box [{a}, {b}]")
        rb = self.enclose(a, b)
        got = {self.class_of[i] for i in rb.candidates}
        _need(got <= {kl, kr}, f"on [{a}, {b}] a move outside {_set_text(L)} and {_set_text(R)} may be optimal")
        l, r = self.classes[kl][0], self.classes[kr][0]
        gd = rb.ders[l] - rb.ders[r]
        _need(gd > 0 or gd < 0, f"on [{a}, {b}] the derivative of the difference is not of one sign")

        def g(x):
            pt = self.point(x)
            return pt.moves[l] - pt.moves[r]

        _need(g(a) > 0, f"at p = {a} the left set {_set_text(L)} is not certainly above the right one")
        _need(g(b) < 0, f"at p = {b} the right set {_set_text(R)} is not certainly above the left one")
        _need(lo == a or g(lo) > 0, f"the change is not certainly right of p = {lo}")
        _need(hi == b or g(hi) < 0, f"the change is not certainly left of p = {hi}")
        both = L | R
        if point is None:
            pieces = [(a, lo, L, False, False), (lo, hi, None, True, True), (hi, b, R, False, False)]
        else:
            at = self.exact(point) if lo <= point <= hi else None
            _need(at is not None and at.optimal == both,
                  f"the classes {_set_text(L)} and {_set_text(R)} do not tie at p = {point}")
            pieces = [(a, point, L, False, True), (point, point, both, False, False), (point, b, R, True, False)]
            return _Fact(a, b, pieces, _bounds(rb.value), touch=(at.value, rb.ders[l], rb.ders[r]))
        return _Fact(a, b, pieces, _bounds(rb.value))

    def onesided(self, a, b, c, side, R, S) -> _Fact:
        from ..solvers.maps.series import first_nonzero, side_series

        _need(side in ("left", "right") and c == (a if side == "left" else b),
              f"the tie point {c} is not the {side} end of [{a}, {b}]")
        sgn = 1 if side == "left" else -1
        try:
            ser = side_series(self.layout, c, sgn, self.misere)
        except ZeroDivisionError:
            raise VerificationError(f"the channel's rows have a pole at p = {c}") from None
        _need(self.names(ser.tie[-1]) == S, f"the optimal set at p = {c} is not {_set_text(S)}")
        kr = self.klass(R, "the set beside the tie point")
        _need({self.class_of[i] for i in ser.best[-1]} == {kr},
              f"the exact series at p = {c} do not put {_set_text(R)} alone first on the {side}")
        rb = self.enclose(a, b, ser)
        r = self.classes[kr][0]
        tied = {self.class_of[i] for i in ser.tie[-1]}
        for K in {self.class_of[i] for i in rb.candidates} - {kr}:
            k = self.classes[K][0]
            if K not in tied:
                _need(rb.moves[k].upper() < rb.moves[r].lower(),
                      f"on [{a}, {b}] the move {_move_text(self.layout.names[k])} is not certainly below")
                continue
            j, sign = first_nonzero(ser.moves[r], ser.moves[k])
            _need(j is not None and j > 0 and sign > 0 and _positive(rb, r, k, j, sgn),
                  f"on [{a}, {b}] the move {_move_text(self.layout.names[k])} is not certainly below "
                  f"{_set_text(R)} beside p = {c}")
        inner = (a, c, R, False, True) if side == "right" else (c, b, R, True, False)
        pieces = [inner, (c, c, S, False, False)] if side == "right" else [(c, c, S, False, False), inner]
        return _Fact(a, b, pieces, _bounds(rb.value), touch=(ser, rb, r, sgn))


def _positive(rb, r, k, j, sgn) -> bool:
    """``V_r - V_k``'s j-th coefficient in ``h = sgn (p - c)`` is positive over the box."""
    if j == 1 and (rb.ders[r] - rb.ders[k]) * sgn > 0:
        return True
    return bool(rb.taylor is not None and rb.taylor[r][j] - rb.taylor[k][j] > 0)


def _touches(fact: _Fact, c0: fmpq, sign: int) -> bool:
    """Whether a one-sided unit proves ``sign (N - c0) >= 0`` on its box: N is
    ``V_r`` beside c, and the first nonzero coefficient of ``V_r - c0`` at c
    has the sign wanted, order j >= 1 (so N(c) = c0), and so has the j-th
    coefficient over the box (Taylor's theorem with the Lagrange remainder).
    Or a crossing at an exact c: ``sign (N(c) - c0) >= 0`` exactly, and
    ``V_l`` moves away from c0 leftwards, ``V_r`` rightwards, on the whole box
    (signs of their derivatives: the mean value theorem).  Or a slope unit:
    ``sign (N(e) - c0) >= 0`` exactly at the end e of the box, and N moves
    away from c0 from e on (the sign of the enclosure of its generalised
    gradient over the box: Lebourg's mean value theorem)."""
    from ..solvers.maps.series import ORDER, first_nonzero

    if fact.touch is None:
        return False
    if len(fact.touch) == 3 and isinstance(fact.touch[2], int):  # N exact at an end, N' over the box
        at, der, side = fact.touch
        return sign * (at - c0) >= 0 and bool(der * (sign * side) >= 0)
    if len(fact.touch) == 3:  # a crossing at the exact c: N = V_l left of c, V_r right of it
        at, dl, dr = fact.touch
        return sign * (at - c0) >= 0 and bool(dl * sign <= 0) and bool(dr * sign >= 0)
    ser, rb, r, sgn = fact.touch
    j, s = first_nonzero(ser.moves[r], [c0] + [fmpq(0)] * ORDER)
    if j is None or j == 0 or s != sign:
        return False
    if j == 1 and rb.ders[r] * (sgn * sign) > 0:
        return True
    return bool(rb.taylor is not None and rb.taylor[r][j] * sign > 0)


def _bounds(x) -> tuple:
    from ..solvers.onepoint.fastpoint import ball_bounds

    if not x.is_finite():
        return (fmpq(0), fmpq(1))
    lo, hi = ball_bounds(x)
    return (max(lo, fmpq(0)), min(hi, fmpq(1)))


def _need(cond, message: str) -> None:
    if not cond:
        raise VerificationError(message)


def _set_text(s) -> str:
    return "{" + ", ".join(_move_text(m) for m in sorted(s, key=repr)) + "}"


# --------------------------------------------------------------------------- from units to the statement


def _clip(piece, lo, hi):
    s, t, S, olo, ohi = piece
    s2, t2 = max(s, lo), min(t, hi)
    olo, ohi = olo and s2 == s, ohi and t2 == t
    if s2 > t2 or (s2 == t2 and (olo or ohi)):
        return None
    return (s2, t2, S, olo, ohi)


def _inside(s, t):
    """A simple rational of [s, t], strictly inside when s < t."""
    from ..solvers.maps.build import simplest_between

    if s == t:
        return s
    third = (t - s) / 3
    return simplest_between(s + third, t - third)


def _set_ok(st: Statement, S) -> bool:
    return st.value in S if st.kind == "optimal" else S == st.value


def _value_ok(st: Statement, fact: _Fact):
    """True (the bound holds on the box), False (it fails on all of it) or None."""
    lo, hi = fact.value
    c = st.value
    if st.kind == "ge":
        return True if lo >= c or _touches(fact, c, 1) else (False if hi < c else None)
    if st.kind == "le":
        return True if hi <= c or _touches(fact, c, -1) else (False if lo > c else None)
    if st.kind == "fair":
        if 2 * hi - 1 < c and 1 - 2 * lo < c:
            return True
        return False if (2 * lo - 1 >= c or 1 - 2 * hi >= c) else None
    if lo == hi:  # eq, at one point
        return lo == c
    return False if (lo > c or hi < c) else None


def decide(st: Statement, facts: list, *, strict: bool = False):
    """``("holds", None)``, ``("fails", p)`` (a rational p where the units
    show the statement false, to be confirmed exactly) or ``(None, reason)``
    from re-proved units in order of p.  With ``strict``, a gap or overlap of
    the units raises :class:`VerificationError` (a certificate must cover the
    interval end to end)."""
    lo, hi = st.lo, st.hi
    at = lo
    unknown = None
    for k, f in enumerate(facts):
        if f.a > at:
            _need(not strict, f"the units leave ({at}, {f.a}) uncovered")
            unknown = unknown or f"the map leaves [{at}, {f.a}] undecided"
        elif strict and k > 0:
            _need(f.a == facts[k - 1].b, f"unit {k} overlaps the one before it")
        at = max(at, f.b)
        if st.kind in ("optimal", "optimal_set"):
            for piece in f.pieces:
                part = _clip(piece, lo, hi)
                if part is None:
                    continue
                s, t, S, _, _ = part
                if S is None:
                    unknown = unknown or f"a change of the optimal set in ({s}, {t}) may lie on either side of an end"
                elif not _set_ok(st, S):
                    return "fails", _inside(s, t)
        else:
            if f.b < lo or f.a > hi:
                continue
            ok = _value_ok(st, f)
            if ok is False:
                return "fails", _inside(max(f.a, lo), min(f.b, hi))
            if ok is None and st.kind == "eq":
                unknown = unknown or "N == c on an interval is not proved by enclosures (use the exact method)"
            elif ok is None:
                unknown = unknown or f"the enclosure of N on [{f.a}, {f.b}] is too wide to decide"
    if at < hi:
        _need(not strict, f"the units leave ({at}, {hi}] uncovered")
        unknown = unknown or f"the map leaves [{at}, {hi}] undecided"
    return (None, unknown) if unknown else ("holds", None)


def fails_at(prover: _Prover, st: Statement, p: fmpq) -> bool:
    """Whether the statement is false at the rational p, by exact evaluation."""
    if not st.lo <= p <= st.hi:
        return False
    ans = prover.exact(p)
    if st.kind in ("optimal", "optimal_set"):
        return not _set_ok(st, ans.optimal)
    v, c = ans.value, st.value
    return not {"ge": v >= c, "le": v <= c, "eq": v == c, "fair": abs(2 * v - 1) < c}[st.kind]


# --------------------------------------------------------------------------- proving


def _check_moves(st: Statement, names, v) -> None:
    wanted = [st.value] if st.kind == "optimal" else list(st.value) if st.kind == "optimal_set" else []
    unknown = [m for m in wanted if m not in set(names)]
    if unknown:
        raise StatementError(f"{', '.join(_move_text(m) for m in unknown)} is not a move of position {v!r}")


def map_check(game, channel, statement, position=None, *, misere: bool = False, width="2^-30",
              budget: int = 200_000, prec: int = 128) -> MapCertificate:
    """Decide ``statement`` about ``N_position`` from a certified map of
    ``[a, b]`` (the statement's interval); see the module docstring.  A
    statement at one p is decided by exact evaluation there."""
    from ..games.channels import get_channel
    from ..solvers.maps import build_map

    st = statement if isinstance(statement, Statement) else Statement.parse(statement)
    channel = get_channel(channel)
    v = game.start() if position is None else game.check_position(position)
    if not 0 <= st.lo <= st.hi <= 1:
        raise StatementError(f"[{st.lo}, {st.hi}] is not inside [0, 1]")
    if not game.followers(v):
        raise StatementError(f"position {v!r} has no moves: check it with the exact method")
    old = ctx.prec
    ctx.prec = max(prec, PRECISIONS[0])
    try:
        prover = _Prover(game, channel, v, (st.lo, st.hi), misere)
        _check_moves(st, prover.layout.names, v)
        cert = MapCertificate(st, game, channel, v, misere, (st.lo, st.hi), None, prec=ctx.prec)
        if st.lo == st.hi:
            units = [("point", st.lo)]
        else:
            cert.map = build_map(game, channel, start=v, interval=(st.lo, st.hi), width=width, misere=misere,
                                 budget=budget, prec=prec)
            units = [tuple(u) for u in cert.map.proofs]
        value = st.kind not in ("optimal", "optimal_set")
        units, facts = _settle(prover, st, units, value)
        verdict, extra = decide(st, facts)
        if verdict == "fails":
            if fails_at(prover, st, extra):
                cert.verdict, cert.counterexample = "fails", extra
            else:  # (the units said so: an exact evaluation must agree before it is claimed)
                cert.reason = f"the map's verdict at p = {extra} is not confirmed by exact evaluation"
        elif verdict == "holds":
            cert.verdict, cert.units = "holds", units
        else:
            cert.reason = extra
    finally:
        ctx.prec = old
    return cert


def _settle(prover: _Prover, st: Statement, units, value: bool):
    """The units re-proved (what a verifier will do), each split where one
    enclosure cannot settle it: a class box into class halves, a one-sided box
    into the one-sided half at its tie point and a class half; for a statement
    about N, any box into value boxes (the half at a tie point one-sided) until
    its enclosure decides the bound.  Units that still fail are dropped (the
    statement is then not proved there)."""
    from ..solvers.maps.build import simplest_between

    out = []
    budget = [VALUE_BOXES]

    def attempt(u, depth):
        try:
            fact = prover.unit(u)
        except VerificationError:
            fact = None
        if fact is not None and (not value or _value_ok(st, fact) is not None):
            return [(u, fact)]
        if st.kind in ("ge", "le") and u[0] not in ("point", "slope"):  # N exact at a simple end, N' over the box
            for end in (x for x in u[1:3] if x.q <= SLOPE_DENOMINATOR and prover.point(x).value.overlaps(arb(st.value))):
                try:
                    got = prover.unit(("slope", u[1], u[2], end))
                except VerificationError:
                    continue
                if _value_ok(st, got) is not None:
                    return [(("slope", u[1], u[2], end), got)]
        if u[0] in ("point", "slope") or (u[0] == "crossing" and not value) or depth >= SPLIT_DEPTH or budget[0] <= 0:
            return [] if fact is None else [(u, fact)]
        budget[0] -= 1
        a, b = u[1], u[2]
        m = simplest_between(a + (b - a) / 3, b - (b - a) / 3)
        halves = []
        for x, y in ((a, m), (m, b)):
            if u[0] == "onesided" and u[3] in (x, y):
                halves.append(("onesided", x, y, *u[3:]))
            elif value:
                halves.append(("value", x, y))
            else:
                halves.append(("class", x, y, u[3] if u[0] == "class" else u[5]))
        return attempt(halves[0], depth + 1) + attempt(halves[1], depth + 1)

    for u in units:
        out.extend(attempt(u, 0))
    return [u for u, _ in out], [f for _, f in out]


# --------------------------------------------------------------------------- the document


def _q(x) -> str:
    return str(fmpq(x))


def _moves_json(s) -> list:
    return [_position_json(m) for m in sorted(s, key=repr)]


def _unit_json(u) -> dict:
    kind = u[0]
    if kind == "point":
        return {"kind": "point", "at": _q(u[1])}
    out = {"kind": kind, "lo": _q(u[1]), "hi": _q(u[2])}
    if kind == "class":
        out["set"] = _moves_json(u[3])
    elif kind == "crossing":
        _, _, _, L, R, lo, hi, point = u
        out.update(left=_moves_json(L), right=_moves_json(R), change=[_q(lo), _q(hi)],
                   point=None if point is None else _q(point))
    elif kind == "onesided":
        _, _, _, c, side, R, S = u
        out.update(at=_q(c), side=side, beside=_moves_json(R), tie=_moves_json(S))
    elif kind == "slope":
        out["exact"] = _q(u[3])
    return out


def map_certificate_document(cert: MapCertificate) -> dict:
    """The certificate document of a decided statement: what it speaks of
    (game and channel by their canonical specs, position, misère, interval),
    the provenance record (``meta``), the claim, and its proof units or
    counterexample."""
    from ..games.provenance import channel_spec, game_spec, record

    if cert.verdict is None:
        raise StatementError(f"the statement {cert.statement.text()} is not proved: it has no certificate")
    gspec, cspec = game_spec(cert.game), channel_spec(cert.channel)
    if gspec is None or cspec is None:
        raise StatementError("a map certificate names its game and channel: this game or channel has no name to rebuild it by")
    claim = {"statement": cert.statement.text(), "verdict": cert.verdict}
    if cert.verdict == "fails":
        claim["counterexample"] = {"p": _q(cert.counterexample)}
    lo, hi = cert.interval
    return {
        "format": FORMAT,
        "meta": record(cert.game, cert.channel, position=cert.start, misere=cert.misere, interval=cert.interval,
                       method="map"),
        "game": gspec,
        "channel": cspec,
        "position": _position_json(cert.start),
        "misere": bool(cert.misere),
        "interval": [_q(lo), _q(hi)],
        "prec": cert.prec,
        "claims": [claim],
        "units": [_unit_json(u) for u in cert.units],
    }


# --------------------------------------------------------------------------- verifying


@dataclass(frozen=True)
class MapVerified:
    """One claim :func:`verify_map_document` re-proved."""

    statement: Statement  #: the statement, read again from the document
    position: object  #: the position it speaks of
    verdict: str  #: "holds" or "fails", re-derived


def _number(x, what: str) -> fmpq:
    _need(isinstance(x, str) and 0 < len(x) <= MAX_NUMBER, f"{what} is an exact rational written as text")
    try:
        return exact_number(x)
    except SymbolicNoiseError as exc:
        raise VerificationError(f"{what}: {exc}") from None


def _moves_from(x, names: set, what: str) -> frozenset:
    _need(isinstance(x, list) and 0 < len(x) <= len(names), f"{what} is a list of the position's moves")
    out = frozenset(_position_from_json(m) for m in x)
    _need(len(out) == len(x) and out <= names, f"{what} names a move the position does not have")
    return out


def _unit_from(d, names: set, k: int):
    """A unit of the document as the tuple the prover uses (read by our own
    grammar, every size capped)."""
    what = f"unit {k}"
    _need(isinstance(d, dict) and d.get("kind") in _KINDS, f"{what} is not one of the kinds {', '.join(_KINDS)}")
    kind = d["kind"]
    keys = {"point": {"kind", "at"}, "value": {"kind", "lo", "hi"}, "class": {"kind", "lo", "hi", "set"},
            "slope": {"kind", "lo", "hi", "exact"},
            "crossing": {"kind", "lo", "hi", "left", "right", "change", "point"},
            "onesided": {"kind", "lo", "hi", "at", "side", "beside", "tie"}}[kind]
    _need(set(d) == keys, f"{what} ({kind}) has the fields {', '.join(sorted(keys))}")
    if kind == "point":
        return ("point", _number(d["at"], f"{what}'s point"))
    a, b = _number(d["lo"], f"{what}'s left end"), _number(d["hi"], f"{what}'s right end")
    if kind == "value":
        return ("value", a, b)
    if kind == "slope":
        return ("slope", a, b, _number(d["exact"], f"{what}'s exact end"))
    if kind == "class":
        return ("class", a, b, _moves_from(d["set"], names, f"{what}'s set"))
    if kind == "crossing":
        ch = d["change"]
        _need(isinstance(ch, list) and len(ch) == 2, f"{what}'s change interval is a pair of numbers")
        point = None if d["point"] is None else _number(d["point"], f"{what}'s change point")
        return ("crossing", a, b, _moves_from(d["left"], names, f"{what}'s left set"),
                _moves_from(d["right"], names, f"{what}'s right set"),
                _number(ch[0], f"{what}'s change interval"), _number(ch[1], f"{what}'s change interval"), point)
    _need(d["side"] in ("left", "right"), f'{what}\'s side is "left" or "right"')
    return ("onesided", a, b, _number(d["at"], f"{what}'s tie point"), d["side"],
            _moves_from(d["beside"], names, f"{what}'s set beside the tie point"),
            _moves_from(d["tie"], names, f"{what}'s set at the tie point"))


def estimate_seconds(units: int, entries: int, positions: int) -> float:
    """CPU seconds to re-prove ``units`` units of a game whose layout has
    ``entries`` nonzero psi entries over ``positions`` positions (measured:
    about 0.4 us an entry and 80 us a position for each unit, at 128 bits,
    on nim 32, nim 64 and Chomp 5x5 king)."""
    return units * (0.4e-6 * entries + 8e-5 * positions)


def verify_map_document(document, *, progress=None, max_seconds=None) -> list[MapVerified]:
    """Re-prove a map certificate (:func:`map_certificate_document`) from the
    game it names; its claims as re-derived, or :class:`VerificationError`
    (one line).  ``progress(done, total)``, if given, is told the units
    re-proved.  A check estimated (:func:`estimate_seconds`) above
    ``max_seconds`` (default :data:`MAX_SECONDS`) is refused before any unit
    is re-proved."""
    from ..games.provenance import channel_from_canonical, game_from_canonical

    _need(isinstance(document, dict), "a map certificate is a JSON object")
    _need(document.get("format") == FORMAT, f"not a map certificate of format {FORMAT}")
    keys = ("meta", "game", "channel", "position", "misere", "interval", "prec", "claims", "units")
    for key in keys:
        _need(key in document, f'the map certificate has no "{key}"')
    try:
        game = game_from_canonical(document["game"])
        channel = channel_from_canonical(document["channel"])
        v = game.check_reachable(game.check_position(_position_from_json(document["position"])))
    except VerificationError:
        raise
    except SymbolicNoiseError as exc:
        raise VerificationError(f"the certificate names no game, channel and position that can be rebuilt: {exc}") from None
    misere = document["misere"]
    _need(type(misere) is bool, '"misere" is true or false')
    iv = document["interval"]
    _need(isinstance(iv, list) and len(iv) == 2, '"interval" is a pair of exact rationals written as text')
    a, b = _number(iv[0], "the interval"), _number(iv[1], "the interval")
    _need(0 <= a <= b <= 1, f"the interval [{a}, {b}] is not inside [0, 1]")
    prec = document["prec"]
    _need(type(prec) is int and PRECISIONS[0] <= prec <= PRECISIONS[1],
          f'"prec" is a whole number of bits from {PRECISIONS[0]} to {PRECISIONS[1]}')
    _check_meta(document["meta"], document["game"], document["channel"], game, v, misere, iv)
    claims, units = document["claims"], document["units"]
    _need(isinstance(claims, list) and len(claims) == 1 and isinstance(claims[0], dict),
          '"claims" is a list of one claim')
    claim = claims[0]
    _need(isinstance(claim.get("statement"), str) and len(claim["statement"]) <= 10_000, "the claim's statement is not text")
    _need(claim.get("verdict") in ("holds", "fails"), 'the verdict is "holds" or "fails"')
    try:
        st = Statement.parse(claim["statement"])
    except SymbolicNoiseError as exc:
        raise VerificationError(f"the claim: {exc}") from None
    _need((st.lo, st.hi) == (a, b), f"the statement's interval [{st.lo}, {st.hi}] is not the certificate's [{a}, {b}]")
    _need(isinstance(units, list) and len(units) <= MAX_UNITS, f'"units" is a list of at most {MAX_UNITS} units')
    if not game.followers(v):
        raise VerificationError(f"position {v!r} has no moves: a map certificate does not speak of it")
    old = ctx.prec
    ctx.prec = prec
    try:
        try:
            prover = _Prover(game, channel, v, (a, b), misere)
        except SymbolicNoiseError as exc:
            raise VerificationError(f"the game's equations cannot be laid out on [{a}, {b}]: {exc}") from None
        try:
            _check_moves(st, prover.layout.names, v)
        except StatementError as exc:
            raise VerificationError(str(exc)) from None
        if claim["verdict"] == "fails":
            _need(set(claim) == {"statement", "verdict", "counterexample"} and not units
                  and isinstance(claim["counterexample"], dict) and set(claim["counterexample"]) == {"p"},
                  'a failed claim carries its counterexample {"p": ...} and no units')
            p = _number(claim["counterexample"]["p"], "the counterexample")
            _need(fails_at(prover, st, p), f"the statement {st.text()} does not fail at p = {p}")
            return [MapVerified(st, v, "fails")]
        _need(set(claim) == {"statement", "verdict"}, "a proved claim carries no counterexample")
        names = set(prover.layout.names)
        parsed = [_unit_from(d, names, k) for k, d in enumerate(units)]
        lay = prover.layout
        t = estimate_seconds(len(parsed), sum(1 for k in range(len(lay.order)) for row in lay.num[k] for q in row
                                              if q >= 0), len(lay.order)) * (prec / 128) ** 1.5
        cap = MAX_SECONDS if max_seconds is None else max_seconds
        _need(t <= cap, f"re-proving these {len(parsed)} units would take about {t:.0f} CPU seconds, more than "
                        f"{cap:g} (the cap); if its size is expected, allow it with: symbolic-noise verify FILE "
                        f"--max-seconds {int(t * 2) + 10}")
        facts = []
        for k, u in enumerate(parsed):
            ends = (u[1],) if u[0] == "point" else (u[1], u[2])
            _need(all(a <= x <= b for x in ends), f"unit {k} reaches outside the interval [{a}, {b}]")
            try:
                facts.append(prover.unit(u))
            except VerificationError as exc:
                raise VerificationError(f"unit {k} ({u[0]}): {exc}") from None
            if progress is not None:
                progress(k + 1, len(parsed))
        verdict, why = decide(st, facts, strict=True)
        if verdict != "holds":
            raise VerificationError(f"the units do not prove {st.text()}: "
                                    + (f"it fails at p = {why}" if verdict == "fails" else why))
    finally:
        ctx.prec = old
    return [MapVerified(st, v, "holds")]


def _check_meta(meta, gspec, cspec, game, v, misere, interval) -> None:
    """The provenance record must speak of what the certificate names."""
    _need(isinstance(meta, dict) and isinstance(meta.get("game"), dict) and isinstance(meta.get("channel"), dict),
          '"meta" is a provenance record')
    g, c = meta["game"], meta["channel"]
    _need(g.get("family") == gspec["family"] and g.get("param") == gspec["param"],
          "the provenance record names another game")
    _need(c.get("sha256") == cspec["sha256"] if "sha256" in cspec else c.get("name") == cspec["name"],
          "the provenance record names another channel")
    _need(meta.get("position") == game.position_label(v), "the provenance record names another position")
    _need(meta.get("misere") is misere and meta.get("interval") == interval and meta.get("method") == "map",
          "the provenance record speaks of another play, interval or method")


__all__ = ["FORMAT", "MapCertificate", "MapVerified", "decide", "fails_at", "map_certificate_document", "map_check",
           "verify_map_document"]
