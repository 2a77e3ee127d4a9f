"""Two-parameter channels: psi depends on (p, q), and both players send through it.

The only one so far is the **asymmetric binary channel**: every move
is written as its binary code (as for the ``binary`` channel, theory.md 3.1),
and each digit is corrupted independently,

* a digit 0 becomes 1 with probability **p**,
* a digit 1 becomes 0 with probability **q**,

so a code ``r`` is received for a sent ``s`` with weight

    w(s, r) = p^a (1 - p)^b q^c (1 - q)^d,

``a`` (``b``) the digits 0 of s that flip (stay), ``c`` (``d``) the digits 1 of s
that flip (stay), renormalised over the legal moves.  On the diagonal q = p it
is the ``binary`` channel; at q = 0 it is a channel that only sets digits, at
p = 0 the ``z`` channel in q.  The factor common to a whole row is cancelled
first (as for ``binary``), so each row's denominator vanishes on [0, 1]^2 only
where no legal move can be received at all: at such a corner the channel is
undefined (its limits depend on the direction) and evaluating there raises
:class:`~symbolic_noise.errors.ChannelNotApplicableError`.

A two-parameter channel has no one-parameter ``rows``; :func:`symbolic_noise.analysis.phase.phase`
uses :meth:`AsymmetricBinaryChannel.rows2` for both players.

Examples
--------
>>> from symbolic_noise.games import Nim
>>> [f.text() for f in AsymmetricBinaryChannel().rows2(Nim(2), 2)[1]]   # sending 1 from a heap of 2
    ['q', '1 - q']
"""

from __future__ import annotations

from ..exact.bivariate import CTX, ONE2, BiRational
from .channels import BinaryChannel, Channel
from ..errors import ChannelNotApplicableError
from .rulesets import Game

_P, _Q = CTX.gens()


class AsymmetricBinaryChannel(Channel):
    """0 -> 1 flips with p, 1 -> 0 flips with q, digit by digit (module docstring)."""

    name = "asymmetric"
    two_parameter = True  #: psi depends on (p, q), and phase diagrams take its rows from :meth:`rows2`

    def key(self) -> str | None:
        return "asymmetric"

    def rows(self, game: Game, v):
        raise ChannelNotApplicableError(
            "the asymmetric channel has two parameters (0 -> 1 with p, 1 -> 0 with q): use it with `phase`", position=v
        )

    def rows2(self, game: Game, v) -> list[list[BiRational]]:
        """psi at v: row i is the distribution of the received move when move i is sent."""
        width, codes = BinaryChannel().codes(game, v)
        out = []
        for s in codes:
            weights = []
            for r in codes:
                w = ONE2
                for bit in range(width):
                    sb, rb = (s >> bit) & 1, (r >> bit) & 1
                    w *= (_P if rb else 1 - _P) if sb == 0 else (1 - _Q if rb else _Q)
                weights.append(w)
            g = weights[0]
            for w in weights[1:]:
                g = g.gcd(w)
            weights = [w / g for w in weights]  # the row's common factor: limits at the sides
            den = weights[0]
            for w in weights[1:]:
                den += w
            out.append([BiRational(w, den) for w in weights])
        return out


__all__ = ["AsymmetricBinaryChannel"]
