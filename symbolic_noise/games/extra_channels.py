"""More move error distributions: trembling hand, Gray-coded binary, Z-channel,
Chomp's Chebyshev-distance channel, and any channel with its parameter fixed at an exact rational.

Every channel here is a probability distribution by construction (``trusted``)
except a fixed copy of an untrusted channel, which is validated like the
original.  What p means:

* ``tremble``: the sent move with probability 1 - p, otherwise (probability p)
  a uniformly random legal move, which may be the sent move again:
  ``psi(w, u) = (1 - p) [w = u] + p / |F(v)|``.
* ``binary-gray``: the paper's binary channel (each digit flips independently
  with probability p, renormalised over the legal moves), with every move's
  code word written in the reflected Gray code ``c XOR (c >> 1)`` first.
* ``z``: the Z-channel on the same binary codes: only 1 -> 0 flips happen,
  each 1 independently with probability p, renormalised over the legal moves
  like the binary channel (at p = 1 the limit: every 1 that can be lost is).
* ``chebyshev`` (Chomp; the paper's open question 3): the *intended* square is
  hit with probability p (the convention of the ``king``/``rook``/``all``
  channels; the issue tracker words it as 1 - p), otherwise a legal square at
  Chebyshev distance d >= 1 from it, with weight proportional to ``2^-d``,
  renormalised over the legal squares; a target with no other legal square is
  hit surely.
* ``NAME@Q`` (e.g. ``binary@1/10``): channel ``NAME`` at the fixed parameter
  ``p = Q``; its entries are constants, so it ignores the solve's p.

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> [f.text() for f in TrembleChannel().matrix(Nim(2), 2)[0]]
['(2 - p)/2', 'p/2']
>>> [f.text() for f in fixed_channel("binary@1/10").matrix(Nim(2), 2)[0]]
['9/10', '1/10']
"""

from __future__ import annotations

from flint import fmpz_poly

from ..exact import polys
from .channels import BinaryChannel, Channel, Rows, chomp_squares, get_channel, register_channel, validate_rows
from ..errors import ExpressionError, IntervalError, InvalidChannelError, UnknownChannelError
from .rulesets import Game
from ..exact.polys import ONE
from ..exact.ratfunc import RationalFunction
from ..exact.formula import exact_number


class TrembleChannel(Channel):
    """The trembling hand: the sent move with probability 1 - p, else a uniformly
    random legal move: ``psi(w, u) = (1 - p) [w = u] + p / |F(v)|``.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> [f.text() for f in TrembleChannel().matrix(Nim(3), 3)[1]]
    ['p/3', '(3 - 2p)/3', 'p/3']
    """

    name = "tremble"

    def rows(self, game: Game, v) -> Rows:
        m = len(game.followers(v))
        p = polys.X
        stay = fmpz_poly([m]) * (ONE - p) + p
        return Rows((fmpz_poly([m]),) * m, tuple(tuple(stay if i == j else p for j in range(m)) for i in range(m)))


def gray(c: int) -> int:
    """The reflected Gray code of ``c``.

    >>> [gray(c) for c in range(8)]
    [0, 1, 3, 2, 6, 7, 5, 4]
    """
    return c ^ (c >> 1)


class GrayBinaryChannel(BinaryChannel):
    """The paper's binary channel with the move codes written in the reflected
    Gray code (each digit flips with probability p, renormalised over the legal
    moves).  For heap games the whole code word of the binary encoding is
    Gray-coded.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> GrayBinaryChannel().codes(Nim(4), 4)
    (3, (0, 1, 3, 2))
    """

    name = "binary-gray"

    def __init__(self):
        super().__init__(name="binary-gray")

    def key(self) -> str:
        return "binary-gray"

    def codes(self, game: Game, v) -> tuple[int, tuple[int, ...]]:
        width, codes = super().codes(game, v)
        return width, tuple(gray(c) for c in codes)


class ZChannel(BinaryChannel):
    """The Z-channel on the binary codes of the moves: each 1 digit of the sent
    code becomes 0 independently with probability p, a 0 never changes;
    ``q(s, r) = p^(|s| - |r|) (1 - p)^|r|`` for ``r`` inside ``s`` (as bit sets),
    renormalised over the legal moves.  At p = 1 the value is the limit: the
    legal codes inside ``s`` with fewest ones, evenly.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> [f.text() for f in ZChannel().matrix(Nim(4), 4)[3]]   # send 3 = 11: receive 0, 1, 2 or 3
    ['p^2', 'p - p^2', 'p - p^2', '1 - 2p + p^2']
    """

    name = "z"

    def __init__(self):
        super().__init__(name="z")

    def key(self) -> str:
        return "z"

    def rows(self, game, v) -> Rows:
        width, codes = self.codes(game, v)
        one_minus_p = ONE - polys.X
        dens, nums = [], []
        for s in codes:
            inside = [(r & ~s) == 0 for r in codes]
            ones = [bin(r).count("1") for r in codes]
            low = min(k for k, ok in zip(ones, inside) if ok)
            bits = bin(s).count("1")
            # q(s, r) / (1-p)^low: the common factor of the row removed, which
            # gives the limit values at p = 1
            row = tuple(
                polys.X ** (bits - k) * one_minus_p ** (k - low) if ok else polys.ZERO for k, ok in zip(ones, inside)
            )
            total = polys.ZERO
            for e in row:
                total += e
            nums.append(row)
            dens.append(total)
        return Rows(tuple(dens), tuple(nums))


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The Chebyshev (king-move) distance of two squares.

    >>> chebyshev((1, 2), (3, 3))
    2
    """
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class ChebyshevChannel(Channel):
    """Chomp with a "real-life" error: the intended square ``t`` with probability
    p, otherwise a legal square ``u != t`` with probability proportional to
    ``2^-d(t, u)`` (``d`` the Chebyshev distance):
    ``psi(t, u) = (1 - p) 2^-d(t,u) / sum_{u' != t} 2^-d(t,u')``; a target with
    no other legal square is hit surely.  p is the chance of hitting the target,
    as for ``king``/``rook``/``all`` (the paper's open question 3 words it with the error probability, 1 - p).

    >>> from symbolic_noise.games.rulesets import Chomp
    >>> [f.text() for f in ChebyshevChannel().matrix(Chomp(1, 4), (4,))[0]]   # aim at (1, 2)
    ['p', '(2 - 2p)/3', '(1 - p)/3']
    """

    name = "chebyshev"

    def rows(self, game: Game, v) -> Rows:
        squares = chomp_squares(game, v, "chebyshev")
        dens, nums = [], []
        p = polys.X
        for t in squares:
            dist = [chebyshev(t, u) for u in squares]
            far = max(dist)
            if far == 0:
                dens.append(ONE)
                nums.append((ONE,))
                continue
            # integer weights 2^(far - d) for d >= 1: the same ratios as 2^-d
            weight = [0 if d == 0 else 2 ** (far - d) for d in dist]
            total = sum(weight)
            dens.append(fmpz_poly([total]))
            nums.append(tuple(p * total if d == 0 else fmpz_poly([w, -w]) for d, w in zip(dist, weight)))
        return Rows(tuple(dens), tuple(nums))


class FixedChannel(Channel):
    """Channel ``base`` at the fixed parameter ``p = q``: constant entries.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> FixedChannel("binary", "1/10").name
    'binary@1/10'
    """

    def __init__(self, base, q):
        self.base = get_channel(base)
        self.q = exact_number(q)
        if not 0 <= self.q <= 1:
            raise IntervalError(f"a channel parameter must lie in [0, 1], not {self.q}")
        self.name = f"{self.base.name}@{self.q}"
        self.trusted = self.base.trusted

    def key(self) -> str | None:
        k = self.base.key()
        return None if k is None else f"{k}@{self.q}"

    def rows(self, game, v) -> Rows:
        try:
            matrix = self.base.rows(game, v).at(self.q)
        except ZeroDivisionError:
            raise InvalidChannelError(
                f"channel {self.base.name} is not defined at p = {self.q} (position {game.position_label(v)})",
                position=v, p=self.q,
            ) from None
        return Rows.from_matrix([[RationalFunction.constant(x) for x in row] for row in matrix])

    def check(self, game, v, rows, interval) -> None:
        # constant entries: checking them on any interval checks them at q
        if not self.trusted:
            validate_rows(rows, (0, 1), game=game, position=v)


def fixed_channel(spec: str) -> FixedChannel:
    """``NAME@Q``: the built-in channel ``NAME`` at the exact parameter ``Q``.

    >>> fixed_channel("tremble@1/3").name
    'tremble@1/3'
    """
    base, _, q = spec.rpartition("@")
    if not base.strip() or not q.strip() or "@" in base:
        raise UnknownChannelError(f"a fixed channel is written NAME@P with one @ (e.g. binary@1/10), not {spec!r}")
    try:
        value = exact_number(q)
    except ExpressionError:
        raise UnknownChannelError(f"in {spec!r}, {q!r} is not an exact rational parameter") from None
    return FixedChannel(get_channel(base), value)


register_channel("tremble", TrembleChannel)
register_channel("binary-gray", GrayBinaryChannel)
register_channel("z", ZChannel)
register_channel("chebyshev", ChebyshevChannel)

__all__ = ["ChebyshevChannel", "FixedChannel", "GrayBinaryChannel", "TrembleChannel", "ZChannel", "fixed_channel", "gray"]
