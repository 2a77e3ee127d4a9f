"""A solution read from the cache position by position, as it is asked for.

A report needs few of a solution's values: the text, LaTeX and JSON reports
and the plot read the start position's value, ``--moves`` also its
followers', a certificate the positions its statement names.  Loading every
stored position first, as :func:`symbolic_noise.solve` with a ``store`` does,
made a report of Chomp 7 x 7 king from its cache take about 250 s: 4 GB of
entries checked and decoded for one value of 2 MB.  :func:`stored_solution`
returns a :class:`~symbolic_noise.solvers.solution.Solution` whose values
are loaded (and checked, as :meth:`SolutionCache.load` checks every entry)
when first read; a position that is missing or whose entry is unusable is
solved then, from what the cache holds, and saved.  The values are those
the eager load gives: an entry is the value the solver found, and a
position solved on demand is solved as it would be by :func:`solve`.

The JSON report's statistics want the largest formula degree over every
position: it comes from the degrees recorded beside the entries
(:meth:`SolutionCache.degrees`), and a position without one is loaded.

Examples
--------
>>> import os, tempfile
>>> from symbolic_noise import Nim, solve
>>> from symbolic_noise.solvers.storage.cache import SolutionCache
>>> path = os.path.join(tempfile.mkdtemp(), "c.sqlite")
>>> with SolutionCache(path, Nim(6), "binary") as store:
...     full = solve(Nim(6), "binary", store=store)
>>> with SolutionCache(path, Nim(6), "binary") as store:
...     lazy = stored_solution(Nim(6), "binary", (0, 1), store)
...     same = lazy.value() == full.value()
...     store.loaded, same, lazy.stats() == full.stats(), store.loaded
(1, True, True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping

from ...exact.interning import Interner
from ...exact.piecewise import PiecewiseFunction
from ...games.channels import Channel, get_channel
from ...games.rulesets import Game
from .cache import _position_key, max_degree
from ..solution import Solution
from ..piecewise import exact_interval, solve


class StoredValues(Mapping):
    """The values of the positions ``order`` (followers first), each loaded
    from ``store`` when first read, or solved (and saved) when the store
    has no sound entry for it; ``known`` holds values read already."""

    def __init__(self, store, game: Game, channel: Channel, interval, order, misere: bool = False,
                 known: dict | None = None):
        self._store = store
        self._game, self._channel, self._interval, self._misere = game, channel, interval, misere
        self._order = tuple(order)
        self._index = set(self._order)
        self._data: dict = {}
        self._interner = Interner()  # (one object per breakpoint, as a solve's values share them)
        a, b = interval
        self._terminal = PiecewiseFunction.constant(1 if misere else 0, a, b, frozenset(), frozenset())
        for v, value in (known or {}).items():
            self._data[v] = self._interner.function(value)

    def __getitem__(self, v):
        got = self._data.get(v)
        if got is not None:
            return got
        if v not in self._index:
            raise KeyError(v)
        if not self._game.followers(v):
            value = self._terminal
        else:
            value = self._store.load(v)
            if value is None:  # not stored, or an unusable entry (reported and deleted by the store)
                value = solve(self._game, self._channel, self._interval, start=v, misere=self._misere,
                              store=self._store).value()
            value = self._interner.function(value)
        self._data[v] = value
        return value

    def __contains__(self, v) -> bool:
        return v in self._index

    def __iter__(self):
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def max_degree(self) -> int:
        """The largest degree of any position's formulas: the recorded
        degrees, and the values of positions without one (loaded)."""
        recorded = self._store.degrees()
        best = 0
        for v in self._order:
            if not self._game.followers(v):
                continue
            d = None if v in self._data else recorded.get(_position_key(v))
            if d is None:
                d = max_degree(self[v])
            best = max(best, d)
        return best


def stored_solution(game: Game, channel: Channel | str, interval, store, *, start=None,
                    misere: bool = False) -> Solution | None:
    """The solution of ``game`` from ``start`` read from ``store`` (a
    :class:`~symbolic_noise.solvers.storage.cache.SolutionCache`) on demand, or
    ``None`` when the store holds no sound entry of the start position, the
    start position has no move, or the channel does not depend on p (then
    :func:`solve` makes the solution in one exact evaluation and reads no
    cache).  ``store`` must stay open while the solution is read."""
    from ..onepoint.fastpoint import is_constant_channel

    if not getattr(store, "enabled", True):  # (a channel with no stable key: nothing is cached)
        return None
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    if not game.followers(root) or is_constant_channel(game, channel, root, (a, b)):
        return None
    value = store.load(root)
    if value is None:
        return None
    values = StoredValues(store, game, channel, (a, b), game.positions(root), misere, known={root: value})
    return Solution(game, channel, (a, b), values, root, misere)


__all__ = ["StoredValues", "stored_solution"]
