"""Chance games (the paper's open question 4): decide exactly whether a channel
makes every undecided position of a game an O-position for every p in an interval.

A position ``v`` is a *chance position on I* if ``0 < N_v(p) < 1`` for every p
in ``I``.  No channel can make every position one: the terminal position has
N = 0 and a position whose followers are all terminal has N = 1, whatever the
channel.  So we call ``v`` *forced* when its value is the same 0 or 1 for every
channel and every p (it is terminal; or all its followers are forced with
N = 0, then N_v = 1; or all are forced with N = 1, then N_v = 0), and say the
channel makes the game a **chance game on I** when every position that is not
forced is a chance position on I.  (Corollary 8: for multi-pile Nim through the
uniform channel the forced positions are those made only of 1-chip heaps, and
every other position has N = 1/2.)

:func:`chance_report` decides this exactly from the piecewise solution on the
closed hull ``[a, b]`` of ``I``.  Since ``0 <= N_v <= 1``, ``N_v(p)`` leaves the
open interval (0, 1) exactly where the numerator of ``N_v`` or of ``1 - N_v``
vanishes: on every open piece ``N_v`` is one rational function in lowest terms,
whose numerator is either identically zero or has finitely many roots, isolated
exactly (:func:`symbolic_noise.exact.algebraic.real_roots`); at every breakpoint the
exact sign test :meth:`RealAlgebraic.sign_of` decides.  End points of ``I``
count only where ``I`` is closed.  A failure comes with the first exact p
(smallest) and the value there; an identically decided piece comes with a
rational point inside it.

A sufficient condition that needs no solve (:func:`full_support`): if every
entry ``psi_v(w, u)`` is positive at p, then at p ``N_v = 1`` only if every
follower has N = 0 and ``N_v = 0`` only if every follower has N = 1; by
induction over the positions (followers first), N_v is 0 or 1 at p exactly when
v is forced.  So a channel with full support on I makes *every* game a chance
game on I (binary and Gray-coded binary on (0, 1), tremble on (0, 1], uniform
on [0, 1], Chomp's ``all`` and ``chebyshev`` on (0, 1)).  King and rook do not
have full support; for them the solve decides.

Lemma 7 (a sufficient condition, for the uniform channel): if at every
O-position the P- and N-followers are equally many, every O-position has
N = 1/2.  :func:`lemma7_status` reports its hypothesis next to the verdict.

Examples
--------
>>> rep = chance_report(Nim(4), "binary", "(0,1)")
>>> rep.holds, [repr(v) for v in rep.forced]
(True, ['0', '1'])
>>> rep = chance_report(Nim(4), "binary", "[0,1]")      # at p = 0 the game is classical
>>> rep.holds, rep.witness.position, str(rep.witness.p), rep.witness.value
(False, 2, '0', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flint import fmpq

from ..exact.algebraic import RealAlgebraic, rational_between, real_roots, sorted_exact
from ..errors import IntervalError
from ..games.rulesets import Game, Nim

from ..exact.ratfunc import RationalFunction
from ..solvers.piecewise import exact_interval, solve
from ..exact.formula import exact_number

__all__ = [
    "ChanceInterval", "ChanceReport", "Witness", "chance_report", "forced_positions", "full_support", "lemma7_status",
    "parse_interval",
]


@dataclass(frozen=True)
class ChanceInterval:
    """An interval of p in [0, 1] with exact rational ends, each open or closed.

    >>> parse_interval("(0, 1/2]")
    ChanceInterval(a=0, b=1/2, open_left=True, open_right=False)
    """

    a: fmpq  #: the left end, exact
    b: fmpq  #: the right end, exact
    open_left: bool  #: whether ``a`` is left out
    open_right: bool  #: whether ``b`` is left out

    def text(self) -> str:
        """The interval as :func:`parse_interval` reads it, e.g. ``(0, 1/2]``."""
        return f"{'(' if self.open_left else '['}{self.a}, {self.b}{')' if self.open_right else ']'}"

    def contains_end(self, x: RealAlgebraic) -> bool:
        """Whether the point ``x`` of ``[a, b]`` belongs to the interval."""
        if x.compare(self.a) == 0:
            return not self.open_left
        if x.compare(self.b) == 0:
            return not self.open_right
        return True


def parse_interval(text) -> ChanceInterval:
    """``"(a,b)"``, ``"[a,b)"``, ``"(a,b]"``, ``"[a,b]"``, or ``"a,b"`` (closed);
    exact numbers read by the safe parser, ``0 <= a < b <= 1``.

    >>> parse_interval("0,1").text(), parse_interval("(1/4, 0.5)").text()
    ('[0, 1]', '(1/4, 1/2)')
    >>> parse_interval("(0,1")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.IntervalError: an interval is written (a,b), [a,b), (a,b], [a,b] or a,b, not '(0,1'
    """
    if isinstance(text, ChanceInterval):
        return text
    s = str(text).strip()
    left, right = "[", "]"
    if s[:1] in "([" or s[-1:] in ")]":
        if s[:1] not in "([" or s[-1:] not in ")]":
            raise IntervalError(f"an interval is written (a,b), [a,b), (a,b], [a,b] or a,b, not {text!r}")
        left, right, s = s[0], s[-1], s[1:-1]
    parts = s.split(",")
    if len(parts) != 2:
        raise IntervalError(f"an interval is written (a,b), [a,b), (a,b], [a,b] or a,b, not {text!r}")
    a, b = exact_interval((parts[0].strip(), parts[1].strip()))
    return ChanceInterval(a, b, left == "(", right == ")")


def forced_positions(game: Game, start=None) -> dict:
    """``{v: 0 or 1}`` for the positions whose N is the same for every channel
    and every p (see the module docstring).

    >>> forced_positions(Nim(5))
    {0: 0, 1: 1}
    """
    out: dict = {}
    root = game.start() if start is None else start
    for v in game.positions(root):
        fs = game.followers(v)
        if not fs:
            out[v] = 0
        elif all(out.get(w) == 0 for w in fs):
            out[v] = 1
        elif all(out.get(w) == 1 for w in fs):
            out[v] = 0
    return out


@dataclass(frozen=True)
class Witness:
    """An exact point of I where ``N_v`` is 0 or 1; ``piece`` is the open piece
    (lo, hi) of the solution on which it is so identically, if it is."""

    position: Any  #: the position where N is 0 or 1
    p: Any  #: fmpq or RealAlgebraic
    value: int  #: N there, 0 or 1
    piece: tuple | None = None  #: the open piece ``(lo, hi)`` on which N is so identically, or None

    def as_json(self, game: Game, digits: int = 20) -> dict:
        """The witness as JSON data: the position's label, p (and the piece's ends) exact and in decimals, and N."""
        out = {
            "position": game.position_label(self.position),
            "p": _point_json(self.p, digits),
            "N": self.value,
        }
        if self.piece is not None:
            out["identically_on"] = [_point_json(x, digits) for x in self.piece]
        return out


def _point_json(x, digits: int) -> dict:
    x = RealAlgebraic.coerce(x)
    return {"exact": x.exact_str(), "decimal": x.decimal(digits)}


def _zero_free(num, lo: RealAlgebraic, hi: RealAlgebraic):
    """The smallest root of the polynomial ``num`` strictly inside (lo, hi), or None."""
    if num.degree() < 1:
        return None
    for r in real_roots(num, lo.lo, hi.hi):
        if r.compare(lo) > 0 and r.compare(hi) < 0:
            return r
    return None


def _value_at_point(f, j: int):
    """0, 1 or None (strictly between) for ``N`` at its point ``x_j``, exactly."""
    x = f.points[j]
    for g in (f.formulas[max(0, j - 1)], f.formulas[min(j, len(f.formulas) - 1)]):
        if x.sign_of(g.den) == 0:
            continue  # a removable end singularity of this formula: try the other side
        if x.sign_of(g.num) == 0:
            return 0
        if x.sign_of(g.den - g.num) == 0:
            return 1
        return None
    raise ArithmeticError(f"no formula of N is defined at p = {x}")  # pragma: no cover


def first_decided_point(f, interval: ChanceInterval, position=None) -> Witness | None:
    """The smallest p of ``interval`` where the piecewise ``N`` (on the hull
    [a, b]) is 0 or 1, or None if ``0 < N < 1`` on the whole interval.

    >>> from symbolic_noise import solve
    >>> f = solve(Nim(2), "binary").value()          # 1 - p, then p
    >>> first_decided_point(f, parse_interval("(0,1)")) is None
    True
    >>> str(first_decided_point(f, parse_interval("(0,1]")).p)
    '1'
    """
    for j, x in enumerate(f.points):
        if interval.contains_end(x):
            value = _value_at_point(f, j)
            if value is not None:
                return Witness(position, x.rational_value if x.is_rational else x, value)
        if j == len(f.formulas):
            break
        g: RationalFunction = f.formulas[j]
        lo, hi = f.points[j], f.points[j + 1]
        c = g.constant_value()
        if c is not None and c in (0, 1):
            return Witness(position, rational_between(lo, hi), int(c), (lo, hi))
        found = [r for r in (_zero_free(g.num, lo, hi), _zero_free(g.den - g.num, lo, hi)) if r is not None]
        if found:
            r = sorted_exact(found)[0]
            value = 0 if r.sign_of(g.num) == 0 else 1
            return Witness(position, r.rational_value if r.is_rational else r, value)
    return None


@dataclass
class ChanceReport:
    """The verdict of :func:`chance_report`."""

    game: Game  #: the game decided
    channel: str  #: the channel's name
    interval: ChanceInterval  #: the interval I of p
    holds: bool  #: every position that is not forced is a chance position on I
    start_holds: bool  #: the start position is a chance position on I (or forced)
    witness: Witness | None  #: the first failing position (followers first), its smallest p
    failures: list = field(default_factory=list)  #: every failing position's witness
    forced: dict = field(default_factory=dict)  #: the positions whose N no channel can change, each with that N (0 or 1)
    positions: int = 0  #: the number of positions solved, forced ones included
    half_at_every_chance_position: bool = False  #: N = 1/2 identically on I at every chance position
    seconds: float = 0.0  #: the time the decision took, in seconds
    #: every psi entry is positive on I (then the verdict holds for every game, see the module docstring)
    full_support: bool | None = None

    def _repr_html_(self) -> str:
        from ..io.display import chance_html

        return chance_html(self)

    def as_json(self, digits: int = 20) -> dict:
        """The verdict as JSON data, with the first 20 failing positions' witnesses."""
        g = self.game
        return {
            "game": g.describe(),
            "channel": self.channel,
            "interval": self.interval.text(),
            "chance_game": self.holds,
            "start_is_chance_position": self.start_holds,
            "positions": self.positions,
            "forced": {g.position_label(v): n for v, n in self.forced.items()},
            "failing_positions": len(self.failures),
            "counterexample": None if self.witness is None else self.witness.as_json(g, digits),
            "failures": [w.as_json(g, digits) for w in self.failures[:20]],
            "N_is_one_half_at_every_chance_position": self.half_at_every_chance_position,
            "full_support": self.full_support,
            "seconds": round(self.seconds, 2),
        }

    def text(self) -> str:
        """The verdict in words, with the first witness and the forced positions."""
        g = self.game
        head = f"{g.describe()}, {self.channel} channel, p in {self.interval.text()}: "
        if self.holds:
            lines = [head + "a chance game: 0 < N < 1 at every position that is not forced"]
        else:
            w = self.witness
            p = w.p if isinstance(w.p, RealAlgebraic) else RealAlgebraic.rational(w.p)
            on = "" if w.piece is None else f" (identically on ({w.piece[0]}, {w.piece[1]}))"
            lines = [
                head + f"not a chance game: N = {w.value} at position {g.position_label(w.position)}, "
                f"p = {p.exact_str()} = {p.decimal(15)}{on}",
                f"  {len(self.failures)} of {self.positions - len(self.forced)} unforced positions fail; "
                f"the start position {'is' if self.start_holds else 'is not'} a chance position",
            ]
        forced = ", ".join(f"{g.position_label(v)} (N = {n})" for v, n in list(self.forced.items())[:8])
        more = ", ..." if len(self.forced) > 8 else ""
        lines.append(f"  forced positions (N the same for every channel): {forced}{more}")
        if self.full_support:
            lines.append("  every psi entry is positive on the interval, which alone makes it a chance game")
        if self.holds and self.half_at_every_chance_position:
            lines.append("  N = 1/2 at every chance position (as Lemma 7 gives for the uniform channel)")
        return "\n".join(lines) + "\n"


def chance_report(game: Game, channel, interval="(0,1)", *, solution=None) -> ChanceReport:
    """Decide exactly whether ``channel`` makes ``game`` a chance game on
    ``interval`` (a :class:`ChanceInterval` or its text; default the open (0, 1)).
    ``solution`` (on the hull [a, b] of the interval) is reused if given."""
    import time

    t0 = time.perf_counter()
    iv = parse_interval(interval)
    if solution is None:
        solution = solve(game, channel, (iv.a, iv.b))
    elif solution.interval != (iv.a, iv.b):
        raise IntervalError(f"the solution is on [{solution.interval[0]}, {solution.interval[1]}], not on [{iv.a}, {iv.b}]")
    forced = forced_positions(game, solution.start)
    failures, half = [], True
    for v in solution.positions():
        if v in forced:
            continue
        f = solution.value(v)
        w = first_decided_point(f, iv, v)
        if w is not None:
            failures.append(w)
        elif half and any(g.constant_value() != fmpq(1, 2) for g in f.formulas):
            half = False
    name = getattr(solution.channel, "name", str(channel))
    return ChanceReport(
        game, name, iv, not failures, all(w.position != solution.start for w in failures),
        failures[0] if failures else None, failures, forced, len(solution.positions()),
        half and not failures, time.perf_counter() - t0, full_support(game, solution.channel, iv, solution.start) is None,
    )


def full_support(game: Game, channel, interval="(0,1)", start=None):
    """``None`` if every entry of psi is positive at every p of the interval at
    every non-terminal position reachable from ``start``; otherwise the first
    ``(position, sent, received, p)`` where an entry vanishes (exact p).

    >>> full_support(Nim(6), "binary", "(0,1)") is None
    True
    >>> full_support(Nim(6), "binary", "[0,1)")[3]
    0
    >>> full_support(Nim(3), "z")[:3]          # sending 0 never receives 1
    (2, 0, 1)
    """
    from ..games.channels import get_channel

    iv = parse_interval(interval)
    ch = get_channel(channel)
    mid = (iv.a + iv.b) / 2
    root = game.start() if start is None else start
    for v in game.positions(root):
        fs = game.followers(v)
        if not fs:
            continue
        rows = ch.rows(game, v)
        for i, (den, row) in enumerate(zip(rows.den, rows.num)):
            for j, num in enumerate(row):
                bad = _vanishes(num, iv, mid)
                if bad is not None:
                    return v, game.move_label(v, fs[i]), game.move_label(v, fs[j]), bad
    return None


def _vanishes(num, iv: ChanceInterval, mid: fmpq):
    """A point of ``iv`` where the polynomial ``num`` (a numerator of psi, whose
    row denominator is non-zero there) is zero, or None."""
    if num.is_zero():
        return mid
    for r in real_roots(num, iv.a, iv.b):
        if iv.contains_end(r):
            return r.rational_value if r.is_rational else r
    return None


def lemma7_status(solution, p) -> dict:
    """Lemma 7's hypothesis at the exact ``p``: the P/N/O classes there and the
    O-positions whose P- and N-followers are not equally many.

    >>> from symbolic_noise import solve
    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> lemma7_status(solve(MultiNim((1, 2)), "uniform"), "1/2")["hypothesis_holds"]
    True
    """
    from ..games.classical import lemma7_violations, position_classes

    classes = position_classes(solution, exact_number(p))
    bad = lemma7_violations(solution.game, classes)
    g = solution.game
    return {
        "p": str(exact_number(p)),
        "hypothesis_holds": not bad,
        "O_positions": sum(1 for c in classes.values() if c == "O"),
        "violations": [{"position": g.position_label(v), "P_followers": a, "N_followers": b} for v, a, b in bad[:20]],
        "violation_count": len(bad),
    }
