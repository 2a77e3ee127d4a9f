"""Exact JSON encoding of piecewise functions (for the cache and for moving
results between processes), with the checks a stored value must pass.

An encoded :class:`PiecewiseFunction` is plain JSON data::

    {"points":   [point, ...],               # a = x_0 < x_1 < ... < x_m = b
     "formulas": [[num, den], ...],           # integer coefficient lists, low degree first
     "labels":   [[move, ...], ...] | null,   # optimal moves on each piece
     "point_labels": [[move, ...], ...] | null}

    point = "p/q"  (rational)  or  {"poly": [c0, c1, ...], "lo": "p/q", "hi": "p/q"}

Integers are written as decimal strings, so nothing is lost in any JSON reader.
Between our own processes (``wire=True``) a stream of values can also name
a breakpoint it sent before by its number in the stream (``memo`` on the
encoding side, ``table`` on the decoding side): 1-pile Nim's values share
their breakpoints, and nim 48's 4,246 irrational points are 235 distinct ones.
:func:`decode` rebuilds the function and :func:`check` verifies what the
mathematics requires of a stored value: points strictly increasing from ``a``
to ``b``, every irrational point isolated by its interval, the function
continuous at every breakpoint, and (optionally) the moves legal.

Examples
--------
>>> from symbolic_noise import solve, Nim
>>> f = solve(Nim(3), "binary").value()
>>> g = decode(encode(f))
>>> g == f
True
>>> check(g, 0, 1)
"""

from __future__ import annotations

import json
import re

from flint import fmpq, fmpz_poly

from ...exact.algebraic import RealAlgebraic
from ...errors import CacheError
from ...exact.piecewise import PiecewiseFunction

from ...exact.ratfunc import RationalFunction
from ...exact.formula import exact_number


def _move(m):
    return [_move(x) for x in m] if isinstance(m, tuple) else m


def _unmove(m):
    return tuple(_unmove(x) for x in m) if isinstance(m, list) else m


def _coeffs(f: fmpz_poly, wire: bool = False) -> list:
    # decimal strings for JSON; Python ints between processes (pickle writes
    # them in binary: nim 40's values encode, pickle and decode in 0.37 s
    # instead of 1.15 s as decimal text)
    return list(map(int, f.coeffs())) if wire else [str(int(c)) for c in f.coeffs()]


def encode_point(x: RealAlgebraic, wire: bool = False, memo: dict | None = None):
    """A point's data; with ``memo`` (wire only: ``id(point) -> (point,
    number)``, held by the sender for one stream) an irrational point sent
    before is its number in the stream, an int.  On the wire an irrational
    point also carries ``"s"``, the sign of its polynomial at ``lo``
    (:attr:`RealAlgebraic.lower_sign`: the receiver need not compute it)."""
    q = x.rational_value
    if q is not None:
        return (int(q.p), int(q.q)) if wire else str(q)
    if memo is not None:
        got = memo.get(id(x))
        if got is not None and got[0] is x:  # (the memo holds x: its id is not reused)
            return got[1]
        memo[id(x)] = (x, len(memo))
    lo, hi = x.interval
    if wire:
        return {"poly": _coeffs(x.poly, wire), "lo": (int(lo.p), int(lo.q)), "hi": (int(hi.p), int(hi.q)), "s": x.lower_sign}
    return {"poly": _coeffs(x.poly, wire), "lo": str(lo), "hi": str(hi)}


#: most coefficients of one stored polynomial (N_64's formulas have degree 304)
MAX_COEFFICIENTS = 100_000
_INTEGER = re.compile(r"-?[0-9]+", re.ASCII)


def _poly(coeffs) -> fmpz_poly:
    """An integer polynomial from decimal strings or ints (anything else, such
    as a float that ``int`` would truncate, is a ValueError), with at most
    :data:`MAX_COEFFICIENTS` coefficients of at most :data:`MAX_DIGITS` digits."""
    if type(coeffs) is not list:
        raise ValueError(f"a polynomial is a list of coefficients, not {type(coeffs).__name__}")
    if len(coeffs) > MAX_COEFFICIENTS:
        raise ValueError(f"a stored polynomial has {len(coeffs)} coefficients, more than {MAX_COEFFICIENTS}")
    out = []
    for c in coeffs:
        if type(c) is not int:
            if type(c) is not str:
                raise ValueError(f"a coefficient is an integer or a decimal string, not {type(c).__name__}")
            if len(c) > MAX_DIGITS + 1 or not _INTEGER.fullmatch(c):
                raise ValueError(f"a coefficient is written in at most {MAX_DIGITS} ASCII digits, not {c[:20]!r}")
            c = int(c)
        elif c.bit_length() > 4 * MAX_DIGITS:
            raise ValueError(f"a coefficient has more than {MAX_DIGITS} digits")
        out.append(c)
    return fmpz_poly(out)


def _trusted_poly(coeffs) -> fmpz_poly:
    """:func:`_poly` for trusted data: a list of ints (the wire form) goes to
    FLINT as it is, without a check per coefficient; anything else (decimal
    strings from the cache) takes the checked path."""
    if type(coeffs) is list and len(coeffs) <= MAX_COEFFICIENTS:
        try:
            return fmpz_poly(coeffs)
        except TypeError:
            pass
    return _poly(coeffs)


#: digits in one integer of a stored rational.  Isolating intervals refined
#: by exact comparisons of close breakpoints get long end points (Chomp 6 x 6
#: king: 1,136 digits, which the formula grammar's cap of 1,000 for text
#: from outside refused, so that every such cache entry was recomputed); this
#: stays below Python's own limit for int(str), 4,300 digits
MAX_DIGITS = 4_000
_RATIONAL = re.compile(r"-?[0-9]+(?:/[0-9]+)?")


def _rational(text) -> fmpq:
    """An exact rational from the codec's ``"p/q"`` (or ``"p"``) text.

    >>> _rational("-3/7"), _rational("12")
    (-3/7, 12)
    """
    if type(text) is not str or not _RATIONAL.fullmatch(text):
        raise ValueError(f"a stored rational is written p/q, not {str(text)[:40]!r}")
    top, _, bottom = text.partition("/")
    if len(top) > MAX_DIGITS + 1 or len(bottom) > MAX_DIGITS:
        raise ValueError(f"a stored rational has more than {MAX_DIGITS} digits")
    q = int(bottom) if bottom else 1
    if q == 0:
        raise ValueError("a stored rational has denominator 0")
    return fmpq(int(top), q)


def _wire_rational(data) -> fmpq:
    """A rational from the wire form ``(p, q)`` (a tuple of ints: pickle
    between our own processes; JSON has no tuples), or from text."""
    if type(data) is tuple:
        p, q = data
        if type(p) is not int or type(q) is not int or q <= 0:
            raise ValueError("a rational on the wire is a pair of ints (p, q > 0)")
        return fmpq(p, q)
    return _rational(data)


def decode_point(data, *, trusted: bool = False, table: list | dict | None = None) -> RealAlgebraic:
    """A point from its encoding.  By default the interval is checked to
    isolate exactly one root of the polynomial; ``trusted=True`` skips that
    check, for data whose integrity is otherwise known (a checksum).
    ``table``: the irrational points decoded so far in this stream (a point
    that is an int is looked up there, every other one is appended), or a
    dict of points by key (an int is looked up, nothing is added); without
    it, an int is not a point."""
    if isinstance(data, (str, tuple)):
        return RealAlgebraic.rational(_wire_rational(data))
    if type(data) is int and isinstance(table, dict):  # keys given apart from the stream (defined before)
        return table[data]
    if type(data) is int and table is not None:
        if not 0 <= data < len(table):
            raise ValueError("a breakpoint's number is not in the stream's table")
        return table[data]
    poly = (_trusted_poly if trusted else _poly)(data["poly"])
    lo, hi = _wire_rational(data["lo"]), _wire_rational(data["hi"])
    if trusted:
        slo = data.get("s")  # (our own process's: see encode_point)
        x = RealAlgebraic._from_isolation(poly, lo, hi, slo if slo in (-1, 1) else None)
    else:
        x = RealAlgebraic.root(poly, lo, hi)
    if isinstance(table, list):
        table.append(x)
    return x


def encode(f: PiecewiseFunction, *, wire: bool = False, memo: dict | None = None, point=None) -> dict:
    """JSON-able data for ``f`` (see the module docstring).  ``wire=True``
    is for handing values between our own processes by pickle, not JSON
    text: integers as Python ints instead of decimal strings, rationals as
    pairs ``(p, q)``, and each distinct optimal-move set once
    (``{"sets": [...], "at": [index, ...]}``).  :func:`decode` reads both.
    ``memo`` (wire only): the sender's record of one stream, in which a
    breakpoint sent before is sent as its number (decode the stream in order
    with one ``table``).  ``point`` (wire only): a function that encodes
    each point instead of :func:`encode_point` (a sender that names its
    breakpoints by keys of its own; the receiver's ``table`` is then a dict
    of them).

    >>> from symbolic_noise import solve, Nim
    >>> f = solve(Nim(3), "binary").value()
    >>> encode(f, wire=True)["formulas"][0]
    [[1, -1, 1], [1, 1]]
    >>> decode(encode(f, wire=True)) == f
    True
    >>> f = solve(Nim(5), "binary").value()   # a breakpoint that is irrational
    >>> memo, table = {}, []
    >>> first, again = encode(f, wire=True, memo=memo), encode(f, wire=True, memo=memo)
    >>> again["points"]
    [(0, 1), (1, 2), 0, (1, 1)]
    >>> g, h = decode(first, trusted=True, table=table), decode(again, trusted=True, table=table)
    >>> g == f and h == f and g.points[2] is h.points[2]
    True
    """
    if (memo is not None or point is not None) and not wire:
        raise ValueError("breakpoint numbers are for the wire form only")
    if point is None:
        point = lambda x: encode_point(x, wire, memo)  # noqa: E731
    labels = None if f.labels is None else _encode_labels(f.labels, wire)
    plabels = None if f.point_labels is None else _encode_labels(f.point_labels, wire)
    return {
        "points": [point(x) for x in f.points],
        "formulas": [[_coeffs(r.num, wire), _coeffs(r.den, wire)] for r in f.formulas],
        "labels": labels,
        "point_labels": plabels,
    }


def text(f: PiecewiseFunction) -> str:
    """``f`` as the compact JSON text the cache stores (:func:`encode`, decimal strings).

    >>> from symbolic_noise import solve, Nim
    >>> text(solve(Nim(1), "binary").value())
    '{"points":["0","1"],"formulas":[[["1"],["1"]]],"labels":[[0]],"point_labels":[[0],[0]]}'
    """
    return dumps(encode(f))


def dumps(data: dict) -> str:
    """Encoded data (:func:`encode`, decimal strings) as the cache's compact JSON text."""
    return json.dumps(data, separators=(",", ":"))


def relabel(data: dict, move) -> dict:
    """Encoded data (either form) of the same function with every optimal move
    ``m`` named ``move(m)`` instead (an injective map: a position's mirror
    image, :mod:`symbolic_noise.solvers.piecewise.symmetry`); the points and formulas
    are shared.  It is what :func:`encode` makes of the relabelled function.

    >>> from symbolic_noise import solve, Chomp
    >>> f = solve(Chomp(2, 2), "king").value()
    >>> relabel(encode(f), lambda m: (m[1], m[0]))["labels"]
    [[[1, 2], [2, 1]], [[2, 2]]]
    """

    def sets(enc):
        if enc is None:
            return None
        name = lambda s: sorted((_move(move(_unmove(m))) for m in s), key=repr)  # noqa: E731
        if isinstance(enc, dict):
            return {"sets": [name(s) for s in enc["sets"]], "at": enc["at"]}
        return [name(s) for s in enc]

    return {**data, "labels": sets(data["labels"]), "point_labels": sets(data["point_labels"])}


def _encode_labels(sets, wire: bool):
    """Optimal-move sets as lists of moves; on the wire, each distinct set
    once (``{"sets": [...], "at": [index, ...]}``: a Chomp 5 x 6 solve has
    80,587 pieces and far fewer distinct sets)."""
    if not wire:
        return [sorted((_move(m) for m in s), key=repr) for s in sets]
    index: dict = {}
    at = [index.setdefault(s, len(index)) for s in sets]
    return {"sets": [sorted((_move(m) for m in s), key=repr) for s in index], "at": at}


#: deepest nesting of a stored move (a Chomp square is a list of two numbers)
MAX_MOVE_DEPTH = 4


def _move_set(s) -> frozenset:
    """One stored optimal-move set: a list of moves, each a number, a string or
    a list of them nested at most :data:`MAX_MOVE_DEPTH` deep (checked before
    any recursion)."""
    if type(s) is not list:
        raise ValueError(f"an optimal-move set is a list, not {type(s).__name__}")
    stack = [(m, 1) for m in s]
    while stack:
        m, depth = stack.pop()
        if type(m) is list:
            if depth >= MAX_MOVE_DEPTH:
                raise ValueError(f"a stored move nests deeper than {MAX_MOVE_DEPTH} levels")
            stack.extend((e, depth + 1) for e in m)
        elif type(m) not in (int, str):
            raise ValueError(f"a stored move is a number, a string or a list, not {type(m).__name__}")
    return frozenset(_unmove(m) for m in s)


def _decode_labels(data) -> list:
    if isinstance(data, dict):
        table = [_move_set(s) for s in data["sets"]]
        n = len(table)
        if not all(type(i) is int and 0 <= i < n for i in data["at"]):
            raise ValueError("an optimal-move set's index is not in the table")
        return [table[i] for i in data["at"]]
    if type(data) is not list:
        raise ValueError(f"optimal moves are a list of sets, not {type(data).__name__}")
    return [_move_set(s) for s in data]


def decode(data, *, trusted: bool = False, table: list | dict | None = None) -> PiecewiseFunction:
    """The piecewise function encoded in ``data``; :class:`CacheError` if the data
    cannot be read as one (see :func:`check` for the mathematical checks).
    ``trusted=True``: the points' isolating intervals are not re-checked.
    ``table``: the stream's breakpoints so far (see :func:`encode`'s ``memo``),
    or a dict of breakpoints by key (see :func:`encode`'s ``point``)."""
    try:
        if type(data) is not dict or type(data.get("points")) is not list or type(data.get("formulas")) is not list:
            raise ValueError("an encoded function is an object with lists of points and formulas")
        points = [decode_point(x, trusted=trusted, table=table) for x in data["points"]]
        # stored formulas are canonical; unless trusted, canonicalise them again
        make = RationalFunction._canonical if trusted else RationalFunction
        poly = _trusted_poly if trusted else _poly
        formulas = [make(poly(num), poly(den)) for num, den in data["formulas"]]
        labels = data.get("labels")
        plabels = data.get("point_labels")
        labels = None if labels is None else _decode_labels(labels)
        plabels = None if plabels is None else _decode_labels(plabels)
        return PiecewiseFunction(points, formulas, labels, plabels, merge=False)
    except CacheError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError, OverflowError) as exc:
        raise CacheError(f"unreadable piecewise function ({type(exc).__name__}: {str(exc)[:200]})") from None


def check(f: PiecewiseFunction, a, b, moves=None) -> None:
    """Raise :class:`CacheError` unless ``f`` is a continuous piecewise function on
    exactly [a, b] (strictly increasing points, continuity at every breakpoint,
    labels on every piece and point) whose optimal moves lie in ``moves`` (if
    given)."""
    a, b = exact_number(a), exact_number(b)
    if f.points[0].compare(a) != 0 or f.points[-1].compare(b) != 0:
        raise CacheError(f"it covers [{f.points[0]}, {f.points[-1]}], not [{a}, {b}]")
    for x, y in zip(f.points, f.points[1:]):
        if x.compare(y) >= 0:
            raise CacheError(f"its points do not increase ({x} >= {y})")
    for j in range(1, len(f.points) - 1):
        x = f.points[j]
        left, right = f.formulas[j - 1], f.formulas[j]
        if left.den(x.rational_value) == 0 if x.is_rational else x.sign_of(left.den) == 0:
            raise CacheError(f"a formula has a pole at the breakpoint {x}")
        if x.sign_of((left - right).num) != 0:
            raise CacheError(f"the value jumps at the breakpoint {x}")
    for j, r in enumerate(f.formulas):
        # no pole inside a piece: the denominator keeps its sign (checked at the
        # points where that can be decided cheaply and exactly)
        if r.den.degree() >= 1:
            from ...exact.algebraic import real_roots

            lo, hi = f.points[j], f.points[j + 1]
            for root in real_roots(r.den, lo.lo, hi.hi):
                if root.compare(lo) > 0 and root.compare(hi) < 0:
                    raise CacheError(f"a formula has a pole at {root} inside a piece")
    if f.labels is None or f.point_labels is None:
        raise CacheError("optimal-move labels are missing")
    if moves is not None:
        legal = set(moves)
        for s in list(f.labels) + list(f.point_labels):
            if not s <= legal or (legal and not s):
                raise CacheError("its optimal moves are not legal moves of the position")
