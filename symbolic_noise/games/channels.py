"""Move error distributions psi: what the channel delivers when a move is sent.

At a position ``v`` with followers ``w_0, ..., w_{m-1}`` a channel gives the
matrix ``psi_v(w_i, w_j)`` of exact rational functions of p: row ``i`` is the
distribution of the received move when ``w_i`` is sent.  The solver works with
:class:`Rows`, the same matrix over a common denominator per row,
``psi_v(w_i, w_j) = num[i][j] / den[i]``, reduced so that ``den[i]`` does not
vanish where the row is a probability distribution.  This is how the binary
channel's values at p = 0 and p = 1 come out as the limits of its rational
functions.

Built-in channels (:func:`get_channel` by name): ``identity``, ``uniform``,
``binary`` (Hamming channel on binary codes of the moves), and Chomp's
``king``, ``rook`` and ``all`` neighbour channels.  :class:`CustomChannel`
takes psi from the user and is validated exactly (:func:`validate_rows`).

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> BinaryChannel().matrix(Nim(3), 3)[0]          # sending 0 from a heap of 3
[parse_formula('(-p + 1)/(p + 1)'), parse_formula('p/(p + 1)'), parse_formula('p/(p + 1)')]
"""

from __future__ import annotations

import abc
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from flint import fmpq, fmpz_poly

from ..exact import polys
from ..exact.algebraic import RealAlgebraic, rational_between, real_roots
from ..errors import (
    ChannelNotApplicableError,
    ExpressionError,
    InvalidChannelError,
    UnknownChannelError,
)
from .rulesets import Game
from ..errors import GameParameterError, did_you_mean
from ..exact.polys import ONE
from ..exact.ratfunc import RationalFunction
from ..exact.formula import exact_number, rational_function


@dataclass(frozen=True)
class Rows:
    """psi at one position over a common denominator per row:
    ``psi(w_i, w_j) = num[i][j] / den[i]``."""

    den: tuple  #: the common denominator of each row (sent move), an integer polynomial
    num: tuple  #: the numerators, ``num[i][j] / den[i]`` being the probability of receiving ``w_j`` when ``w_i`` is sent

    @classmethod
    def from_matrix(cls, matrix) -> "Rows":
        """From a square matrix of :class:`RationalFunction` (rows = sent moves)."""
        dens, nums = [], []
        for row in matrix:
            q = ONE
            for e in row:
                if not e.den.is_one():
                    g = q.gcd(e.den)
                    q = q * (e.den // g)
            nums.append(tuple(e.num * (q // e.den) for e in row))
            dens.append(q)
        return cls(tuple(dens), tuple(nums))

    def entry(self, i: int, j: int) -> RationalFunction:
        """``psi(w_i, w_j)``, the probability of receiving move ``j`` when move ``i`` is sent."""
        return RationalFunction(self.num[i][j], self.den[i])

    def matrix(self) -> list[list[RationalFunction]]:
        """The matrix of rational functions (rows = sent moves)."""
        return [[self.entry(i, j) for j in range(len(self.num[i]))] for i in range(len(self.den))]

    def at(self, p) -> list[list[fmpq]]:
        """The exact matrix at a rational p (``ZeroDivisionError`` if a row's
        denominator vanishes there: the row is not defined at that p)."""
        p = exact_number(p)
        out = []
        for q, row in zip(self.den, self.num):
            d = q(p)
            if d == 0:
                raise ZeroDivisionError(f"a row denominator vanishes at p = {p}")
            out.append([n(p) / d for n in row])
        return out


class Channel(abc.ABC):
    """A move error distribution: exact psi matrices, position by position."""

    #: the name used on the command line
    name: str = "channel"
    #: built-in channels are probability distributions by construction
    trusted: bool = True

    @abc.abstractmethod
    def rows(self, game: Game, v) -> Rows:
        """psi at the non-terminal position ``v``, rows and columns in the order of
        ``game.followers(v)``."""

    def matrix(self, game: Game, v) -> list[list[RationalFunction]]:
        """psi at ``v`` as a matrix of rational functions (rows = sent moves)."""
        return self.rows(game, v).matrix()

    def key(self) -> str | None:
        """A canonical string for cache keys (``None``: do not cache)."""
        return self.name

    def check(self, game: Game, v, rows: Rows, interval) -> None:
        """Raise :class:`InvalidChannelError` unless ``rows`` is a distribution on
        ``interval``; built-in channels are trusted."""
        if not self.trusted:
            validate_rows(rows, interval, game=game, position=v)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class IdentityChannel(Channel):
    """psi(w, u) = [w = u]: the classical game."""

    name = "identity"

    def rows(self, game, v) -> Rows:
        m = len(game.followers(v))
        return Rows((ONE,) * m, tuple(tuple(ONE if i == j else polys.ZERO for j in range(m)) for i in range(m)))


class UniformChannel(Channel):
    """psi(w, u) = 1 / |F(v)|, whatever is sent (the paper's equiprobable distribution)."""

    name = "uniform"

    def rows(self, game, v) -> Rows:
        m = len(game.followers(v))
        q = fmpz_poly([m])
        return Rows((q,) * m, tuple((ONE,) * m for _ in range(m)))


class BinaryChannel(Channel):
    """The Hamming channel of theory.md 3.1.

    Every move is written as an ``n``-digit binary code; each digit flips
    independently with probability p, so a code ``r`` is received for a sent
    ``s`` with weight ``q(s, r) = p^d (1-p)^(n-d)`` (``d`` the Hamming distance),
    renormalised over the legal moves.  The codes come from
    ``encoding(game, v) -> (n, codes)`` (codes in follower order), by default
    ``game.binary_encoding(v)``: for 1-pile Nim the chips left, ``n`` the number
    of binary digits of the heap.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> r = BinaryChannel().rows(Nim(2), 2)
    >>> r.entry(0, 0), r.entry(0, 1)
    (parse_formula('-p + 1'), parse_formula('p'))
    """

    name = "binary"

    def __init__(self, encoding: Callable[[Game, Any], tuple[int, tuple[int, ...]]] | None = None, name: str | None = None):
        self._encoding = encoding
        if name is not None:
            self.name = name
        elif encoding is not None:
            self.name = f"binary[{getattr(encoding, '__name__', 'custom encoding')}]"

    def key(self) -> str | None:
        return "binary" if self._encoding is None else None

    def codes(self, game: Game, v) -> tuple[int, tuple[int, ...]]:
        """``(n, codes)``: the number of binary digits and the code of every move at
        ``v``, in follower order, checked to be distinct and to fit in ``n`` digits."""
        if self._encoding is not None:
            width, codes = self._encoding(game, v)
        elif hasattr(game, "binary_encoding"):
            width, codes = game.binary_encoding(v)
        else:
            raise ChannelNotApplicableError(
                f"the binary channel needs a binary encoding of the moves, which {game.describe()} does not have"
                " (give BinaryChannel(encoding=...))",
                position=v,
            )
        codes = tuple(codes)
        if len(codes) != len(game.followers(v)) or len(set(codes)) != len(codes):
            raise ChannelNotApplicableError(
                f"the binary encoding at position {v!r} must give distinct codes, one per move", position=v
            )
        if any(c < 0 or c >= 2**width for c in codes):
            raise ChannelNotApplicableError(f"a binary code at position {v!r} does not fit in {width} digits", position=v)
        return width, codes

    def rows(self, game, v) -> Rows:
        width, codes = self.codes(game, v)
        one_minus_p = fmpz_poly([1, -1])
        # one object per distinct weight p^d (1-p)^(top-d): rows hold few
        # distinct ones, and the solver's set-up groups them by identity first
        weights: dict = {}
        dens, nums = [], []
        for s in codes:
            dist = [bin(s ^ r).count("1") for r in codes]
            top = max(dist)
            # q(s, r) / (1-p)^(width - top): the common factor of the row removed,
            # which gives the limit values at p = 1
            row = []
            for d in dist:
                e = weights.get((d, top))
                if e is None:
                    e = weights[d, top] = polys.X ** d * one_minus_p ** (top - d)
                row.append(e)
            q = polys.ZERO
            for d in set(dist):
                q += weights[d, top] * dist.count(d)
            nums.append(tuple(row))
            dens.append(q)
        return Rows(tuple(dens), tuple(nums))


def chomp_squares(game: Game, v, channel: str) -> list:
    """The squares a player can take at Chomp position ``v`` (the moves, in
    order); :class:`ChannelNotApplicableError` for a game that is not Chomp."""
    if not hasattr(game, "squares"):
        raise ChannelNotApplicableError(
            f"the {channel} channel is defined for Chomp boards, not for {game.describe()}", position=v
        )
    return game.squares(v)


class NeighbourChannel(Channel):
    """Chomp's channels (the paper's Figure 1): the target square is hit with
    probability p, otherwise one of its legal neighbours, evenly; a target with
    no legal neighbour is hit surely.  Neighbours are ``king`` (edge or corner),
    ``rook`` (edge) or ``all`` (every other legal move).

    >>> from symbolic_noise.games.rulesets import Chomp
    >>> NeighbourChannel("king").matrix(Chomp(2, 2), (2, 2))[2]   # aim at (2, 2)
    [parse_formula('(-p + 1)/2'), parse_formula('(-p + 1)/2'), parse_formula('p')]
    """

    KINDS = ("king", "rook", "all")  #: the neighbourhoods a square may have

    def __init__(self, kind: str):
        if kind not in self.KINDS:
            raise UnknownChannelError(f"unknown neighbour kind {kind!r} (choose from {', '.join(self.KINDS)})")
        self.kind = kind
        self.name = kind

    def _adjacent(self, a, b) -> bool:
        di, dj = abs(a[0] - b[0]), abs(a[1] - b[1])
        if self.kind == "king":
            return max(di, dj) == 1
        if self.kind == "rook":
            return di + dj == 1
        return a != b

    def rows(self, game, v) -> Rows:
        squares = chomp_squares(game, v, self.kind)
        dens, nums = [], []
        p = polys.X
        for t in squares:
            nb = [self._adjacent(t, u) for u in squares]
            count = sum(nb)
            if count == 0:
                dens.append(ONE)
                nums.append(tuple(ONE if u == t else polys.ZERO for u in squares))
                continue
            dens.append(fmpz_poly([count]))
            nums.append(
                tuple(p * count if u == t else (fmpz_poly([1, -1]) if n else polys.ZERO) for u, n in zip(squares, nb))
            )
        return Rows(tuple(dens), tuple(nums))


class CustomChannel(Channel):
    """psi given by the user as exact expressions in p, validated exactly.

    ``psi`` is either a function ``psi(v, sent, received)`` returning an
    expression (SymPy, string, or exact number), or a mapping
    ``{v: {sent: {received: expression}}}`` in which moves may be given by name
    (``game.move_label``) or as follower positions; missing entries are 0.
    Positions absent from a mapping, and sent moves without a row, use
    ``default`` (another channel, or a name such as ``"uniform"``); without a
    default they are an error.

    Validation (on the solve interval, by exact real-root counting) checks that
    every entry is a rational function of p without poles, that entries are
    >= 0 on the whole interval and that every row sums to 1 identically.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> ch = CustomChannel({2: {0: {0: "1-p", 1: "p"}, 1: {1: 1}}}, default="identity")
    >>> ch.matrix(Nim(2), 2)
    [[parse_formula('-p + 1'), parse_formula('p')], [parse_formula('0'), parse_formula('1')]]
    """

    trusted = False

    def __init__(self, psi, *, default=None, name: str = "custom"):
        self._psi = psi
        self.name = name
        self._default = get_channel(default) if isinstance(default, str) else default

    def key(self) -> str | None:
        if callable(self._psi):
            return None
        canon = json.dumps(_canonical_json(self._psi), sort_keys=True)
        dflt = None if self._default is None else self._default.key()
        if self._default is not None and dflt is None:
            return None
        return "custom:" + hashlib.sha256((canon + repr(dflt)).encode()).hexdigest()[:16]

    def _parse(self, expr, v, sent, received) -> RationalFunction:
        try:
            return rational_function(expr)
        except (ExpressionError, TypeError) as exc:
            raise InvalidChannelError(
                f"psi at position {v!r}, sent {sent!r}, received {received!r}: {exc}",
                position=v,
                sent=sent,
                received=received,
            ) from None

    def matrix(self, game, v) -> list[list[RationalFunction]]:
        fs = game.followers(v)
        labels = [game.move_label(v, w) for w in fs]
        if callable(self._psi):
            return [
                [self._parse(self._psi(v, w, u), v, lw, lu) for u, lu in zip(fs, labels)] for w, lw in zip(fs, labels)
            ]
        table = _lookup(self._psi, v)
        if table is None:
            if self._default is None:
                raise InvalidChannelError(
                    f"the custom channel does not define psi at position {game.position_label(v)} and has no default",
                    position=v,
                )
            return self._default.matrix(game, v)
        index = {}
        for sent_key, row in table.items():
            i = _move_index(game, v, fs, sent_key, "sent")
            if i in index:
                raise InvalidChannelError(f"position {v!r}: the sent move {sent_key!r} is given twice", position=v, sent=sent_key)
            index[i] = row
        out = []
        fallback = None
        for i, (w, lw) in enumerate(zip(fs, labels)):
            row = index.get(i)
            if row is None:
                if self._default is None:
                    raise InvalidChannelError(
                        f"psi at position {game.position_label(v)}: no distribution given for the sent move {lw!r}"
                        " and no default",
                        position=v,
                        sent=lw,
                    )
                if fallback is None:
                    fallback = self._default.matrix(game, v)
                out.append(fallback[i])
                continue
            entries = [RationalFunction.constant(0)] * len(fs)
            seen = set()
            for rec_key, expr in _items(row):
                j = _move_index(game, v, fs, rec_key, "received", sent=lw)
                if j in seen:
                    raise InvalidChannelError(
                        f"psi at position {v!r}, sent {lw!r}: the received move {rec_key!r} is given twice",
                        position=v,
                        sent=lw,
                        received=rec_key,
                    )
                seen.add(j)
                entries[j] = self._parse(expr, v, lw, labels[j])
            out.append(entries)
        return out

    def rows(self, game, v) -> Rows:
        return Rows.from_matrix(self.matrix(game, v))

    def check(self, game, v, rows, interval) -> None:
        validate_rows(rows, interval, game=game, position=v)

    def check_positions(self, game: Game) -> None:
        """Refuse rows for positions that ``game`` does not have: every
        position of the table must be one of the game's, reachable from its
        start (:meth:`Game.check_reachable`); positions are rewritten in the
        game's canonical form (heaps sorted, a heap game's ``5`` as ``(5,)``),
        so that none is ignored for being written another way.

        >>> from symbolic_noise.games.rulesets import Nim
        >>> CustomChannel({7: {0: {0: 1}}}).check_positions(Nim(3))
        Traceback (most recent call last):
        ...
        symbolic_noise.errors.InvalidChannelError: psi is given at 7, which is not a position of 1-pile Nim, k = 3: a heap of 7 chips is not a position of Nim with k = 3 (at most 3 chips)
        """
        if callable(self._psi):
            return
        canonical: dict = {}
        for v, table in self._psi.items():
            try:
                w = game.check_reachable(game.check_position(_freeze(v)))
            except (GameParameterError, TypeError, ValueError) as exc:
                raise InvalidChannelError(
                    f"psi is given at {_shown_json(v)}, which is not a position of {game.describe()}: {exc}", position=v,
                ) from None
            if w in canonical:
                raise InvalidChannelError(f"psi is given twice at position {game.position_label(w)}", position=w)
            canonical[w] = table
        self._psi = canonical


def _items(row):
    if isinstance(row, Mapping):
        return list(row.items())
    return [tuple(pair) for pair in row]


def _lookup(table, v):
    if v in table:
        return table[v]
    for key, value in table.items():
        if _freeze(key) == _freeze(v):
            return value
    return None


def _freeze(x):
    if isinstance(x, list):
        return tuple(_freeze(e) for e in x)
    return x


def _move_index(game, v, fs, key, role, sent=None) -> int:
    key = _freeze(key)
    for j, w in enumerate(fs):
        if game.move_label(v, w) == key:
            return j
    for j, w in enumerate(fs):
        if w == key:
            return j
    where = f"position {game.position_label(v)}" + (f", sent {sent!r}" if sent is not None else "")
    raise InvalidChannelError(
        f"psi at {where}: the {role} move {key!r} is not a legal move there (psi must be zero outside F(v))",
        position=v,
        sent=key if role == "sent" else sent,
        received=key if role == "received" else None,
    )


def _canonical_json(x):
    if isinstance(x, Mapping):
        return sorted((json.dumps(_canonical_json(k), sort_keys=True), _canonical_json(val)) for k, val in x.items())
    if isinstance(x, (list, tuple)):
        return [_canonical_json(e) for e in x]
    return str(x)


# --------------------------------------------------------------------------- validation


def _witness(f: RationalFunction, lo: fmpq, hi: fmpq, bad: Callable[[fmpq], bool]) -> fmpq | None:
    """A rational point of [lo, hi] where ``bad`` holds, trying simple points
    first (the midpoint, the ends, then dyadic points)."""
    candidates = [(lo + hi) / 2, lo, hi]
    for e in range(2, 12):
        step = (hi - lo) / 2**e
        candidates += [lo + step * i for i in range(1, 2**e, 2)]
    for x in candidates:
        try:
            if bad(x):
                return x
        except ZeroDivisionError:
            continue
    return None


def validate_rows(rows: Rows, interval=(0, 1), *, game: Game | None = None, position=None) -> None:
    """Check exactly that ``rows`` is a probability distribution on [a, b].

    Every entry must be a rational function without poles in [a, b] and >= 0
    there (exact real-root counting and exact signs between the roots), and
    every row must sum to 1 identically.  Raises :class:`InvalidChannelError`
    naming the position, the sent and received moves and an exact offending p.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> bad = CustomChannel({2: {0: {0: "1 - 2*p", 1: "2*p"}, 1: {1: 1}}})
    >>> validate_rows(bad.rows(Nim(2), 2), (0, 1), game=Nim(2), position=2)
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.InvalidChannelError: psi at position 2, sent 0, received 0 is negative at p = 1 (value -1)
    """
    a, b = (exact_number(x) for x in interval)
    labels = None
    if game is not None and position is not None:
        labels = [game.move_label(position, w) for w in game.followers(position)]
    name = lambda i: labels[i] if labels is not None else i  # noqa: E731
    where = game.position_label(position) if game is not None and position is not None else repr(position)
    for i, (q, row) in enumerate(zip(rows.den, rows.num)):
        total = RationalFunction.constant(0)
        for j, n in enumerate(row):
            e = RationalFunction(n, q)
            total = total + e
            if e.is_zero:
                continue
            # poles: roots of the reduced denominator in [a, b]
            poles = real_roots(e.den, a, b) if e.den.degree() >= 1 else []
            if poles:
                raise InvalidChannelError(
                    f"psi at position {where}, sent {name(i)!r}, received {name(j)!r} = {e} has a pole at p = {poles[0].exact_str()}",
                    position=position, sent=name(i), received=name(j), p=poles[0],
                )
            # sign: e has constant sign between consecutive roots of its numerator
            cuts = [r for r in real_roots(e.num, a, b)] if e.num.degree() >= 1 else []
            tests = [a, b]
            bounds = [RealAlgebraic.rational(a)] + cuts + [RealAlgebraic.rational(b)]
            for lo_r, hi_r in zip(bounds, bounds[1:]):
                if lo_r.compare(hi_r) >= 0:
                    continue
                tests.append(rational_between(lo_r, hi_r))
            for x in tests:
                value = e(x)
                if value < 0:
                    raise InvalidChannelError(
                        f"psi at position {where}, sent {name(i)!r}, received {name(j)!r} is negative at p = {x} (value {value})",
                        position=position, sent=name(i), received=name(j), p=x,
                    )
        if total != 1:
            diff = total - 1
            x = _witness(diff, a, b, lambda t: diff(t) != 0)
            at = f" (at p = {x} the sum is {total(x)})" if x is not None else ""
            raise InvalidChannelError(
                f"psi at position {where}, sent {name(i)!r}: the probabilities sum to {total}, not 1{at}",
                position=position, sent=name(i), p=x,
            )


# --------------------------------------------------------------------------- registry

def _asymmetric() -> Channel:
    # a two-parameter channel (phase diagrams only); it builds on the bivariate core
    from .twoparameter import AsymmetricBinaryChannel

    return AsymmetricBinaryChannel()


_BUILTIN = {
    "identity": IdentityChannel,
    "uniform": UniformChannel,
    "binary": BinaryChannel,
    "asymmetric": _asymmetric,
    "king": lambda: NeighbourChannel("king"),
    "rook": lambda: NeighbourChannel("rook"),
    "all": lambda: NeighbourChannel("all"),
}


def channel_names() -> tuple[str, ...]:
    """The names :func:`get_channel` knows, built-in and registered, in the order they were registered."""
    return tuple(_BUILTIN)


def register_channel(name: str, factory: Callable[[], Channel]) -> None:
    """Make ``get_channel(name)`` build ``factory()`` (used by
    :mod:`symbolic_noise.games.extra_channels`)."""
    _BUILTIN[name] = factory


def get_channel(name) -> Channel:
    """A built-in channel by name (a Channel passes through).

    >>> get_channel("king")
    <NeighbourChannel king>
    """
    if isinstance(name, Channel):
        return name
    if name is None:
        return None
    if not isinstance(name, str) or not name.strip():
        raise UnknownChannelError(f"a channel is named by a word such as binary or king, not {str(name)[:40]!r}")
    if "@" in name:
        # "binary@1/10": the channel with its parameter fixed at an exact rational
        from .extra_channels import fixed_channel

        return fixed_channel(name)
    try:
        return _BUILTIN[name]()
    except KeyError:
        raise UnknownChannelError(
            f"unknown channel {name!r}{did_you_mean(name, _BUILTIN)} (choose from {', '.join(_BUILTIN)}, or a custom channel file)"
        ) from None


def _entry(expr, v, sent, received) -> RationalFunction:
    """One probability of a channel file, read as data (see :mod:`symbolic_noise.exact.formula`)."""
    if isinstance(expr, bool) or not isinstance(expr, (str, int)):
        problem = f"write the probability as text such as \"1 - p/2\" or a whole number, not {type(expr).__name__} {expr!r}"
    else:
        try:
            return rational_function(expr)
        except ExpressionError as exc:
            problem = str(exc)
    raise InvalidChannelError(
        f"psi at position {v!r}, sent {sent!r}, received {received!r}: {problem}",
        position=v, sent=sent, received=received,
    )


#: most rows of a channel file, and most probabilities in all its rows
MAX_ROWS = 1_000_000
#: work of all the formulas of one channel file (see :data:`symbolic_noise.exact.formula.MAX_WORK`)
MAX_FILE_WORK = 8 * 10**9


def _shown_json(value) -> str:
    """A position or move from a file, shortened for a message."""
    text = json.dumps(value) if not isinstance(value, tuple) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def json_key(value, what: str, error=InvalidChannelError):
    """A position or move read from a JSON file: a whole number, a string or a
    list of them (lists of lists for positions such as Chomp boards), as a
    hashable value (lists become tuples); anything else is ``error``.

    >>> json_key([2, [1, 3]], "a position")
    (2, (1, 3))
    >>> json_key({"a": 1}, "row 0: the position")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.InvalidChannelError: row 0: the position is a number, a string or a list of them, not an object
    """
    names = {dict: "an object", float: "a number with a point", bool: "true or false", type(None): "null"}

    def freeze(x, depth):
        if isinstance(x, bool) or not isinstance(x, (int, str, list)):
            kind = names.get(type(x), "a number with a point" if isinstance(x, str) else type(x).__name__)
            raise error(f"{what} is a number, a string or a list of them, not {kind}")
        if isinstance(x, list):
            if depth >= 4:
                raise error(f"{what} nests lists deeper than 4 levels")
            return tuple(freeze(e, depth + 1) for e in x)
        return x

    return freeze(value, 0)


def custom_channel_from_json(data, *, name: str = "custom") -> CustomChannel:
    """A :class:`CustomChannel` from the JSON document the command line reads::

        {"default": "uniform",
         "rows": [{"position": 3, "sent": 0,
                   "received": [[0, "1 - p"], [1, "p/2"], [2, "p/2"]]}]}

    Positions and moves are JSON values (lists for tuples, e.g. Chomp squares
    ``[1, 2]``); ``default`` (optional) names the channel used at positions
    without rows.  Every probability is text (or a whole number) read as data
    by :func:`symbolic_noise.exact.formula.parse_formula` when the file is loaded: a
    formula is never evaluated as code, and its length, digits and degree are
    capped.

    >>> custom_channel_from_json({"rows": [{"position": 2, "sent": 0,
    ...     "received": [[0, "__import__('os')"]]}]})
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.InvalidChannelError: psi at position 2, sent 0, received 0: unexpected '__import__' at column 1 in "__import__('os')" (a formula is a rational function of p: numbers, p, + - * / ** ^ and parentheses)
    """
    from ..exact.formula import work_budget

    if not isinstance(data, Mapping) or not isinstance(data.get("rows"), list):
        raise InvalidChannelError('a custom channel file is a JSON object with a "rows" list')
    rows = data["rows"]
    if len(rows) > MAX_ROWS:
        raise InvalidChannelError(f"a custom channel file has {len(rows)} rows, more than {MAX_ROWS} (the cap)")
    table: dict = {}
    entries = 0
    with work_budget(MAX_FILE_WORK, "the channel file"):
        for k, row in enumerate(rows):
            if not isinstance(row, Mapping) or not {"position", "sent", "received"} <= set(row):
                raise InvalidChannelError(f'row {k} of the custom channel needs "position", "sent" and "received"')
            v = json_key(row["position"], f"row {k}: the position")
            sent = json_key(row["sent"], f"row {k}: the sent move")
            received = row["received"]
            if not isinstance(received, list) or not all(isinstance(pair, list) and len(pair) == 2 for pair in received):
                raise InvalidChannelError(f'row {k}: "received" must be a list of [move, expression] pairs')
            entries += len(received)
            if entries > MAX_ROWS:
                raise InvalidChannelError(f"a custom channel file has more than {MAX_ROWS} probabilities (the cap)")
            sent_table = table.setdefault(v, {})
            if sent in sent_table:
                raise InvalidChannelError(f"position {v!r}: the sent move {sent!r} is given twice", position=v, sent=sent)
            pairs = []
            for m, expr in received:
                move = json_key(m, f"row {k}: a received move")
                pairs.append((move, _entry(expr, v, sent, move)))
            sent_table[sent] = pairs
    default = data.get("default")
    if default is not None and (not isinstance(default, str) or not default.strip()):
        raise InvalidChannelError(f'custom channel default: "default" names a built-in channel such as "uniform", not {_shown_json(default)}')
    try:
        channel = CustomChannel(table, default=default, name=name)
    except UnknownChannelError as exc:
        raise InvalidChannelError(f"custom channel default: {exc}") from None
    channel.document = data  # (what a certificate or a cache key names it by: games/provenance.py)
    return channel
