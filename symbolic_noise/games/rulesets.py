"""Games as finite acyclic graphs: positions, followers and move names.

A game (a *ruleset* holding its parameters) has a start position, the followers
``F(v)`` of every position in a stable order, and a human name for each move.
Positions are hashable, immutable, canonical values: an ``int`` heap for Nim, a
tuple of row lengths for Chomp.  A move is identified with the follower it
leads to, as in the paper; :meth:`Game.move_label` names it the way a person
would (chips left in Nim, the square ``(row, column)`` in Chomp).

Examples
--------
>>> Nim(3).followers(3)
(0, 1, 2)
>>> g = Chomp(2, 2)
>>> g.start(), [g.move_label(g.start(), w) for w in g.followers(g.start())]
((2, 2), [(1, 2), (2, 1), (2, 2)])
>>> ExplicitGame({"a": ["b", "c"], "b": ["c"]}, "a").positions()
('c', 'b', 'a')
"""

from __future__ import annotations

import abc
import hashlib
from typing import Any, Hashable, Iterable, Mapping

from ..errors import CyclicGameError, GameParameterError

Position = Hashable
Move = Any  # a JSON-friendly name: int, str or tuple of ints


def topological_order(followers, start) -> tuple:
    """Positions reachable from ``start``, every position after all its followers.

    ``followers`` maps a position to its followers.  Raises
    :class:`CyclicGameError` (naming a cycle) if the graph is not acyclic.
    """
    order = []
    state = {start: 1}  # 1 = on the current path, 2 = finished
    stack = [(start, iter(followers(start)))]
    while stack:
        v, it = stack[-1]
        for w in it:
            s = state.get(w)
            if s is None:
                state[w] = 1
                stack.append((w, iter(followers(w))))
                break
            if s == 1:
                path = [u for u, _ in stack]
                raise CyclicGameError(path[path.index(w):] + [w])
        else:
            stack.pop()
            state[v] = 2
            order.append(v)
    return tuple(order)


class Game(abc.ABC):
    """A finite acyclic game graph (the protocol every game implements)."""

    #: short family name used by the command line and in cache keys
    name: str = "game"

    @abc.abstractmethod
    def start(self) -> Position:
        """The start position."""

    @abc.abstractmethod
    def followers(self, v: Position) -> tuple:
        """The followers of ``v``, distinct, in a stable order (empty if terminal)."""

    def move_label(self, v: Position, w: Position) -> Move:
        """The name of the move from ``v`` to its follower ``w``."""
        return w

    def position_label(self, v: Position) -> str:
        """A short human name of a position."""
        return str(v)

    def describe(self) -> str:
        """A one-line description for reports."""
        return self.key()

    @abc.abstractmethod
    def key(self) -> str:
        """A canonical string identifying the ruleset and its parameters (not the start)."""

    def check_position(self, v: Position) -> Position:
        """Validate (and normalise) a position given by a user; raise GameParameterError."""
        return v

    def check_reachable(self, v: Position) -> Position:
        """``v`` (a position from :meth:`check_position`) if it can arise from
        the start position, else GameParameterError; games without a cheap
        exact test bound it by the start instead (see the subclasses).  A
        position from outside (the command line, a channel or strategy file)
        passes both checks before any work is done on it."""
        return v

    def parse_position(self, text: str) -> Position:
        """A position written on the command line (JSON, or a plain word),
        validated and checked to be reachable from the start."""
        import json

        if not isinstance(text, str) or not text.strip():
            raise GameParameterError(f"a position of {self.describe()} is not an empty word")
        if len(text) > MAX_POSITION_TEXT:
            raise GameParameterError(f"a position written in {len(text)} characters is longer than {MAX_POSITION_TEXT} (the cap)")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        except RecursionError:
            raise GameParameterError("a position nests too deeply") from None
        if isinstance(value, list):
            value = tuple(value)
        return self.check_reachable(self.check_position(value))

    def positions(self, start: Position | None = None) -> tuple:
        """All positions reachable from ``start`` (default: the start), followers first."""
        return topological_order(self.followers, self.start() if start is None else start)

    def is_terminal(self, v: Position) -> bool:
        """Whether ``v`` has no followers (the player to move there has no move)."""
        return not self.followers(v)

    def symmetry(self):
        """An involution of the positions and move labels that maps moves to
        moves (``position(v)``, ``move(label)``), or None.  The solver
        mirrors a position's value from its image's where the channel is
        shown to respect it (:mod:`symbolic_noise.solvers.piecewise.symmetry`)."""
        return None

    def follower_by_label(self, v: Position, label) -> Position:
        """The follower of ``v`` named ``label`` (a move name or the follower itself)."""
        fs = self.followers(v)
        for w in fs:
            if self.move_label(v, w) == label:
                return w
        for w in fs:
            if w == label:
                return w
        raise GameParameterError(f"{label!r} is not a legal move at position {self.position_label(v)}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"


#: longest text read as one position (Chomp 16384 x 16384 needs about 100,000)
MAX_POSITION_TEXT = 200_000


def whole_list(text: str, what: str, separators: str = ",") -> list[int]:
    """Whole numbers written ``3,2``, ``[3,2]`` or ``(3,2)`` (one pair of
    brackets at most; ASCII digits only); GameParameterError otherwise.  A
    trailing separator is allowed (``5,`` is one number); ``()`` and the
    empty text are none.

    >>> whole_list(" [3, 2] ", "a Chomp position"), whole_list("2+3,", "heaps", ",+"), whole_list("()", "heaps")
    ([3, 2], [2, 3], [])
    >>> whole_list("1_0,2", "heaps")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.GameParameterError: heaps are written as whole numbers like 3,2 (ASCII digits), not '1_0,2'
    """
    from ..exact.formula import parse_whole

    if not isinstance(text, str):
        raise GameParameterError(f"{what} are written as text like 3,2, not {type(text).__name__}")
    if len(text) > MAX_POSITION_TEXT:
        raise GameParameterError(f"{what} written in {len(text)} characters is longer than {MAX_POSITION_TEXT} (the cap)")
    body = text.strip()
    if body[:1] in ("[", "(") and body[-1:] == {"[": "]", "(": ")"}[body[:1]]:
        body = body[1:-1].strip()
    for sep in separators[1:]:
        body = body.replace(sep, separators[0])
    parts = [part.strip() for part in body.split(separators[0])] if body else []
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()  # "5," is one number
    shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
    try:
        return [parse_whole(part, what, 0, None, GameParameterError) for part in parts]
    except GameParameterError:
        raise GameParameterError(f"{what} are written as whole numbers like 3,2 (ASCII digits), not {shown!r}") from None


def _check_int(value, what: str, minimum: int) -> int:
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise GameParameterError(f"{what} must be an integer, not {value!r}")
    value = int(value)
    if value < minimum:
        raise GameParameterError(f"{what} must be >= {minimum}, not {value}")
    return value


class Nim(Game):
    """One pile of ``k`` chips; a move takes any positive number of chips.

    Positions are heap sizes and a move is named by the chips *left* (the paper's
    convention), so ``followers(k) == (0, 1, ..., k-1)``.

    >>> [Nim(5).move_label(5, w) for w in Nim(5).followers(5)]
    [0, 1, 2, 3, 4]
    """

    name = "nim"

    def __init__(self, k: int):
        self.k = _check_int(k, "the heap size", 0)

    def start(self) -> int:
        return self.k

    def followers(self, v: int) -> tuple:
        return tuple(range(v))

    def key(self) -> str:
        return "nim"

    def describe(self) -> str:
        return f"1-pile Nim, k = {self.k}"

    def position_label(self, v) -> str:
        return str(v)

    def check_position(self, v) -> int:
        v = _check_int(v, "a Nim heap", 0)
        if v > self.k:
            raise GameParameterError(f"a heap of {v} chips is not a position of Nim with k = {self.k} (at most {self.k} chips)")
        return v

    def parse_position(self, text: str) -> int:
        from ..exact.formula import parse_whole

        try:
            heap = parse_whole(text, "a Nim heap", None, None, GameParameterError)
        except GameParameterError:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise GameParameterError(f"a Nim heap is a whole number of chips, not {shown!r}") from None
        return self.check_position(heap)

    def binary_encoding(self, v: int) -> tuple[int, tuple[int, ...]]:
        """Width and codes of the moves at ``v`` for the binary channel: each
        follower (chips left) in binary with as many digits as ``v`` has."""
        return v.bit_length(), self.followers(v)


class Transpose:
    """The transposition of a square Chomp board: a Young diagram (row lengths,
    bottom row first) to its conjugate, a square ``(row, column)`` to
    ``(column, row)``.

    >>> t = Transpose()
    >>> t.position((3, 1)), t.position((2, 1, 1)), t.move((1, 2))
    ((2, 1, 1), (3, 1), (2, 1))
    """

    def position(self, v: tuple) -> tuple:
        """The transposed board: the conjugate of the row lengths."""
        return tuple(sum(1 for r in v if r > j) for j in range(v[0])) if v else v

    def move(self, label: tuple) -> tuple:
        """The transposed square: ``(row, column)`` to ``(column, row)``."""
        return (label[1], label[0])


class Chomp(Game):
    """An ``rows x cols`` chocolate bar whose bottom-left square is poisoned.

    A position is a Young diagram: the tuple of row lengths, bottom row first,
    non-increasing.  A move picks a remaining square ``(i, j)`` other than the
    poisoned ``(1, 1)`` (row ``i`` from the bottom, column ``j`` from the left,
    1-based) and removes every square ``(i', j')`` with ``i' >= i`` and
    ``j' >= j``.  The position ``(1,)`` (only the poisoned square) is terminal.

    >>> g = Chomp(2, 3)
    >>> g.followers((3, 3))
    ((1, 1), (2, 2), (3,), (3, 1), (3, 2))
    >>> g.move_label((3, 3), (3, 1))
    (2, 2)
    """

    name = "chomp"

    def __init__(self, rows: int, cols: int):
        self.rows = _check_int(rows, "the number of rows", 1)
        self.cols = _check_int(cols, "the number of columns", 1)

    def start(self) -> tuple:
        return (self.cols,) * self.rows

    def key(self) -> str:
        return "chomp"

    def describe(self) -> str:
        return f"Chomp, {self.rows} x {self.cols} bar"

    def position_label(self, v) -> str:
        return "(" + ",".join(str(r) for r in v) + ")"

    def check_position(self, v) -> tuple:
        import numbers

        try:
            ok = not isinstance(v, (str, bytes)) and all(isinstance(r, numbers.Integral) and not isinstance(r, bool) for r in v)
        except TypeError:
            ok = False
        if not ok:
            shown = repr(v) if len(repr(v)) <= 60 else repr(v)[:57] + "..."
            raise GameParameterError(f"a Chomp position is a tuple of row lengths, not {shown}")
        v = tuple(int(r) for r in v)
        shown = ",".join(str(r) for r in v)
        if not v or any(r < 1 for r in v):
            raise GameParameterError(
                f"{shown or '()'} is not a Chomp position: row lengths must be positive (bottom row first)"
            )
        for i, (a, b) in enumerate(zip(v, v[1:]), 1):
            if a < b:
                raise GameParameterError(
                    f"{shown} is not a Chomp position: rows must not increase (row {i + 1} has {b} squares,"
                    f" the row {i} below it {a})"
                )
        if len(v) > self.rows or v[0] > self.cols:
            what = f"{len(v)} rows" if len(v) > self.rows else f"a bottom row of {v[0]} squares"
            raise GameParameterError(
                f"{shown} is not a position of the {self.rows} x {self.cols} bar: it has {what}"
                f" (at most {self.rows} rows of at most {self.cols} squares)"
            )
        return v

    def parse_position(self, text: str) -> tuple:
        """``"3,2"`` or ``"[3,2]"`` (row lengths, bottom row first); a Young
        diagram inside the board is reachable from the full board."""
        try:
            rows = tuple(whole_list(text, "Chomp row lengths"))
        except GameParameterError:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise GameParameterError(f"a Chomp position is written as row lengths like 3,2, not {shown!r}") from None
        return self.check_position(rows)

    def squares(self, v: tuple) -> list[tuple[int, int]]:
        """The legal move squares of ``v`` (row, column), in the order of its followers."""
        return [(i, j) for i, r in enumerate(v, 1) for j in range(1, r + 1) if (i, j) != (1, 1)]

    @staticmethod
    def bite(v: tuple, i: int, j: int) -> tuple:
        """The position after taking square ``(i, j)`` from ``v``."""
        rows = [r if k < i - 1 else min(r, j - 1) for k, r in enumerate(v)]
        while rows and rows[-1] == 0:
            rows.pop()
        return tuple(rows)

    def followers(self, v: tuple) -> tuple:
        return tuple(self.bite(v, i, j) for i, j in self.squares(v))

    def symmetry(self) -> "Transpose | None":
        """The transposition of a square board (conjugate Young diagrams), else None."""
        return Transpose() if self.rows == self.cols else None

    def move_label(self, v: tuple, w: tuple) -> tuple[int, int]:
        for k, r in enumerate(v):
            left = w[k] if k < len(w) else 0
            if left != r:
                return (k + 1, left + 1)
        raise GameParameterError(f"{w!r} is not a follower of {v!r}")


class ExplicitGame(Game):
    """A game given by its graph: a mapping ``position -> followers`` (positions
    missing from the mapping are terminal), or a networkx ``DiGraph``.

    Cycles are rejected with :class:`CyclicGameError`:

    >>> ExplicitGame({1: [2], 2: [1]}, 1)
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.CyclicGameError: the game graph has a cycle (1 -> 2 -> 1); games must be finite and acyclic
    """

    name = "graph"

    def __init__(self, graph: Mapping[Position, Iterable[Position]], start: Position, *, name: str = "graph"):
        if hasattr(graph, "successors") and hasattr(graph, "nodes"):  # networkx
            graph = {v: list(graph.successors(v)) for v in graph.nodes}
        try:
            self._graph = {v: tuple(ws) for v, ws in graph.items()}
        except AttributeError:
            raise GameParameterError("an explicit game needs a mapping position -> followers") from None
        for v, ws in self._graph.items():
            if len(set(ws)) != len(ws):
                raise GameParameterError(f"position {v!r} lists a follower twice")
        self._start = start
        self.name = name
        self._order = topological_order(self.followers, start)

    @classmethod
    def from_networkx(cls, graph, start, *, name: str = "graph") -> "ExplicitGame":
        """From a networkx ``DiGraph`` (followers are successors, in insertion order)."""
        return cls(graph, start, name=name)

    def start(self):
        return self._start

    def followers(self, v) -> tuple:
        return self._graph.get(v, ())

    def check_reachable(self, v):
        """``v`` if it is a node of the graph (the graph is the game: a
        position it lists counts even where the start does not lead)."""
        nodes = getattr(self, "_nodes", None)
        if nodes is None:
            nodes = self._nodes = set(self._graph) | {w for ws in self._graph.values() for w in ws} | {self._start}
        try:
            found = v in nodes
        except TypeError:
            found = False
        if not found:
            raise GameParameterError(f"{v!r} is not a position of this game graph")
        return v

    def positions(self, start=None) -> tuple:
        if start is None:
            return self._order
        return super().positions(start)

    def key(self) -> str:
        edges = sorted((repr(v), tuple(repr(w) for w in ws)) for v, ws in self._graph.items())
        digest = hashlib.sha256(repr(edges).encode()).hexdigest()[:16]
        return f"{self.name}:{digest}"

    def describe(self) -> str:
        return f"explicit game graph with {len(self._order)} positions"
