"""Strategies: how a player chooses the move it sends (theory.md, section 5).

``optimal`` maximises (``weights`` is ``None``: the solver takes a max);
``classical`` is the noise-free strategy: send a move to a P-position of the
classical game (nim-value 0; misère P-position under misère play), the first in
the game's move order, and if there is none the first listed move (1-pile Nim:
take everything); ``uniform`` sends every legal move with probability
1/|F(v)|; a :class:`TableStrategy` gives the move (or a distribution) position
by position, from Python or a JSON file (:func:`strategy_from_json`), validated
against the game.

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> get_strategy("classical").weights(Nim(3), 3)
(1, 0, 0)
"""

from __future__ import annotations

import json
import re
from typing import Mapping

from flint import fmpq

from ...errors import ExpressionError, GameParameterError, InvalidStrategyError
from ...games.channels import json_key
from ...games.rulesets import Game
from ...exact.formula import exact_number



class Strategy:
    """How a player chooses the move it sends: ``weights(game, v)`` gives one
    exact probability per follower (in follower order), or ``None`` for a
    player who maximises."""

    #: the strategy's name, as :func:`get_strategy` and the command line's ``--strategy`` take it
    name = "strategy"

    def weights(self, game: Game, v, misere: bool = False):
        """One exact probability per follower of ``v`` (in follower order) that
        this move is sent, or ``None``: the player maximises."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class OptimalStrategy(Strategy):
    """Maximise the winning probability, knowing p (the paper's player)."""

    name = "optimal"

    def weights(self, game, v, misere=False):
        return None


class ClassicalStrategy(Strategy):
    """The noise-free strategy: the first move (in the game's order) to a
    P-position of the classical game, else the first listed move.

    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> g = MultiNim((3, 4, 5))
    >>> w = ClassicalStrategy().weights(g, g.start())
    >>> [g.move_label(g.start(), u) for u, x in zip(g.followers(g.start()), w) if x]
    ['3->1']
    """

    name = "classical"

    def weights(self, game, v, misere=False):
        from ...games.classical import winning_moves

        fs = game.followers(v)
        wins = winning_moves(game, v, misere=misere)
        pick = wins[0] if wins else fs[0]
        return tuple(fmpq(1) if w == pick else fmpq(0) for w in fs)


class UniformStrategy(Strategy):
    """Every legal move sent with probability 1 / |F(v)|."""

    name = "uniform"

    def weights(self, game, v, misere=False):
        m = len(game.followers(v))
        return (fmpq(1, m),) * m


class TableStrategy(Strategy):
    """A strategy given position by position: ``{position: move}`` (pure) or
    ``{position: {move: weight}}`` (mixed, exact weights summing to 1); moves by
    name or as follower positions.  Positions without an entry use ``default``
    (a strategy or its name); without a default they are an error.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> TableStrategy({2: 1, 1: 0}).weights(Nim(2), 2)
    (0, 1)
    """

    def __init__(self, table: Mapping, *, default=None, name: str = "table"):
        self.table = {}
        for v, choice in table.items():
            self.table[_freeze(v)] = choice
        self.default = None if default is None else get_strategy(default)
        self.name = name

    def weights(self, game, v, misere=False):
        fs = game.followers(v)
        if v not in self.table:
            if self.default is None:
                raise InvalidStrategyError(
                    f"strategy {self.name}: no move given at position {game.position_label(v)} (and no default)"
                )
            w = self.default.weights(game, v, misere)
            if w is None:
                raise InvalidStrategyError(f"strategy {self.name}: the default must be a fixed strategy, not optimal")
            return w
        choice = self.table[v]
        items = list(choice.items()) if isinstance(choice, Mapping) else [(choice, 1)]
        out = [fmpq(0)] * len(fs)
        for move, weight in items:
            try:
                u = game.follower_by_label(v, _freeze(move))
            except GameParameterError:
                raise InvalidStrategyError(
                    f"strategy {self.name}: {move!r} is not a legal move at position {game.position_label(v)}"
                ) from None
            try:
                x = exact_number(weight)
            except ExpressionError as exc:
                raise InvalidStrategyError(
                    f"strategy {self.name}: the weight of {move!r} at position {game.position_label(v)}: {exc}"
                ) from None
            if x < 0:
                raise InvalidStrategyError(f"strategy {self.name}: negative weight {x} at position {game.position_label(v)}")
            out[fs.index(u)] += x
        if sum(out, fmpq(0)) != 1:
            raise InvalidStrategyError(
                f"strategy {self.name}: the weights at position {game.position_label(v)} sum to {sum(out, fmpq(0))}, not 1"
            )
        return tuple(out)

    def validate(self, game: Game, root=None, misere: bool = False) -> None:
        """Check every entry against ``game``: positions exist, moves are legal,
        and every non-terminal position reachable from ``root`` is covered."""
        root = game.start() if root is None else root
        reachable = game.positions(root)
        seen = set(reachable)
        for v in self.table:
            try:
                w = game.check_position(v)
            except (GameParameterError, TypeError, ValueError):
                raise InvalidStrategyError(f"strategy {self.name}: {v!r} is not a position of {game.describe()}") from None
            if w in seen and not game.followers(w):
                raise InvalidStrategyError(f"strategy {self.name}: position {game.position_label(w)} is terminal (no move to send)")
        for v in reachable:
            if game.followers(v):
                self.weights(game, v, misere)


def _freeze(x):
    if isinstance(x, list):
        return tuple(_freeze(e) for e in x)
    return x


STRATEGIES = {"optimal": OptimalStrategy, "classical": ClassicalStrategy, "uniform": UniformStrategy}


def get_strategy(spec) -> Strategy:
    """A strategy by name (``optimal``, ``classical``, ``uniform``); a Strategy
    passes through, a mapping becomes a :class:`TableStrategy`.

    >>> get_strategy("classical")
    <ClassicalStrategy classical>
    """
    if spec is None:
        return OptimalStrategy()
    if isinstance(spec, Strategy):
        return spec
    if isinstance(spec, Mapping):
        return TableStrategy(spec)
    try:
        return STRATEGIES[spec]()
    except (KeyError, TypeError):
        raise InvalidStrategyError(
            f"unknown strategy {spec!r} (choose from {', '.join(STRATEGIES)}, or a strategy JSON file)"
        ) from None


def strategy_from_json(data, game: Game | None = None, *, name: str = "file") -> TableStrategy:
    """A :class:`TableStrategy` from the JSON document the command line reads::

        {"default": "classical", "moves": [[3, 0], [2, 1], [[2, 2], [1, 2]]]}

    ``moves`` lists ``[position, move]`` pairs (JSON lists for tuples: Chomp
    boards ``[2, 2]`` and squares ``[1, 2]``; heap games' moves as named,
    ``"3->1"``); a move may instead be ``{"move": weight, ...}`` with exact
    weights as strings.  ``default`` (optional) covers the other positions.
    With ``game`` the strategy is validated at once (:meth:`TableStrategy.validate`).
    The strategy's ``sha256`` is the SHA-256 of the document's canonical JSON,
    which every result computed with it records.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> strategy_from_json({"moves": [[2, 1], [1, 0]]}, Nim(2)).weights(Nim(2), 2)
    (0, 1)
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("moves"), list):
        raise InvalidStrategyError('a strategy file is a JSON object with a "moves" list of [position, move] pairs')
    table: dict = {}
    for k, pair in enumerate(data["moves"]):
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidStrategyError(f"strategy {name}: entry {k} of \"moves\" is not a [position, move] pair")
        v = json_key(pair[0], f"strategy {name}: entry {k}: the position", InvalidStrategyError)
        if game is not None:
            try:  # canonical form (e.g. sorted heaps), and a position the game can reach
                v = game.parse_position(v) if isinstance(v, str) else game.check_reachable(game.check_position(v))
            except (GameParameterError, TypeError, ValueError) as exc:
                raise InvalidStrategyError(f"strategy {name}: {_short(pair[0])} is not a position of {game.describe()} ({exc})") from None
        try:
            hash(v)
        except TypeError:
            raise InvalidStrategyError(f"strategy {name}: entry {k}: {pair[0]!r} is not a position") from None
        if v in table:
            raise InvalidStrategyError(f"strategy {name}: position {pair[0]!r} is given twice")
        move = pair[1]
        if isinstance(move, Mapping):
            for w in move.values():
                if isinstance(w, bool) or not isinstance(w, (str, int)):
                    raise InvalidStrategyError(
                        f"strategy {name}: entry {k}: a weight is a number or text such as \"1/3\", not {_short(w)}"
                    )
            move = {_move_key(m): str(w) for m, w in move.items()}
        else:
            move = json_key(move, f"strategy {name}: entry {k}: the move", InvalidStrategyError)
        table[v] = move
    default = data.get("default")
    if default is not None and (not isinstance(default, str) or default not in ("classical", "uniform")):
        raise InvalidStrategyError(f'strategy {name}: "default" must be "classical" or "uniform", not {_short(default)}')
    strategy = TableStrategy(table, default=default, name=name)
    from ...games.provenance import document_hash

    strategy.sha256 = document_hash(data)  # named by content in every result's provenance
    if game is not None:
        strategy.validate(game)
    return strategy


def _short(value) -> str:
    """A value from a file, shortened for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _move_key(text):
    """JSON object keys are strings: ``"0"`` is move 0, ``"[1, 2]"`` a square
    (ASCII digits, a list of at most two levels)."""
    t = text.strip()
    if re.fullmatch(r"-?[0-9]{1,18}", t, re.ASCII):
        return int(t)
    if t.startswith("[") and t.endswith("]") and len(t) <= 1000 and re.fullmatch(r"[\[\]0-9, -]*", t, re.ASCII):
        try:
            return json_key(json.loads(t), "a move", InvalidStrategyError)
        except (json.JSONDecodeError, RecursionError, InvalidStrategyError):
            pass
    return t


def load_strategy(spec: str, game: Game, read_json=None) -> Strategy:
    """A strategy from the command line: a name, or a JSON file (validated) read
    by ``read_json(path)`` (the command line's capped reader)."""
    if spec in STRATEGIES or not spec.endswith(".json") or read_json is None:
        return get_strategy(spec)  # an unknown name gives a clear error
    import os

    return strategy_from_json(read_json(spec), game, name=os.path.basename(spec))


__all__ = [
    "ClassicalStrategy",
    "OptimalStrategy",
    "Strategy",
    "TableStrategy",
    "UniformStrategy",
    "get_strategy",
    "load_strategy",
    "strategy_from_json",
]
