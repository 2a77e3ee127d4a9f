"""Exact backward induction at a single rational p (theory.md, section 2).

This is the slow, obviously-correct method: every psi entry is evaluated at
``p`` as an exact rational and the equations

    N_v(w) = sum_u (1 - N_u) psi_v(w, u),    N_v = max_w N_v(w)

are applied position by position.  It shares nothing with the piecewise solver
but the channel's psi, and serves as its independent check (and answers
one-off questions at a given p).

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> r = evaluate(Nim(3), "binary", "1/2")[3]
>>> r.value, sorted(r.optimal)
(1/2, [0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq

from ...games.channels import Channel, get_channel
from ...games.rulesets import Game
from ...exact.formula import exact_number



@dataclass(frozen=True)
class PointSolution:
    """Value, optimal moves (by name) and every sent move's value at one p."""

    value: fmpq  #: ``N_v(p)``, exact
    optimal: frozenset  #: the optimal moves, by name
    move_values: dict  #: every sent move's name to its value ``N_v(w)``


def evaluate(game: Game, channel: Channel | str, p, *, start=None, misere: bool = False) -> dict:
    """``{position: PointSolution}`` for every position reachable from ``start``.

    ``misere=True`` plays the misère convention: a player with no move wins.
    """
    channel = get_channel(channel)
    p = exact_number(p)
    root = game.start() if start is None else game.check_position(start)
    out = {}
    for v in game.positions(root):
        fs = game.followers(v)
        if not fs:
            out[v] = PointSolution(fmpq(1 if misere else 0), frozenset(), {})
            continue
        psi = channel.rows(game, v).at(p)
        lose = [1 - out[u].value for u in fs]
        moves = {}
        for w, row in zip(fs, psi):
            moves[game.move_label(v, w)] = sum((x * y for x, y in zip(row, lose)), fmpq(0))
        top = max(moves.values())
        out[v] = PointSolution(top, frozenset(m for m, x in moves.items() if x == top), moves)
    return out
