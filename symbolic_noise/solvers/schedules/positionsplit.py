"""Parallel solves split by positions: every worker owns the whole p-range and
solves whole positions, each as soon as its followers are solved.

The split by p-ranges (:mod:`symbolic_noise.solvers.schedules.stealing`) has
every worker solve every position, which suits games whose positions form a
chain (1-pile Nim: each heap needs every smaller one).  A game whose positions
form a wide graph, such as Chomp (a 5 x 6 board has 462 positions in 31
levels), has independent positions to hand out instead, and no p-range to
balance: a worker solves a position on all of [a, b] with its own caches, and
only the followers' values it did not solve itself travel to it (exact JSON,
:mod:`symbolic_noise.solvers.storage.codec`, each at most once per worker).

The driver keeps every worker busy with :data:`_DEPTH` tasks of one position
each, taken from the positions whose followers are all solved: first those
with the longest chain of positions still to come above them (the critical
path), among the first few of those the one whose followers the worker holds.
Where a position is solved changes nothing in its value: the solver's result
depends on the followers' values alone, never on its caches, so the result is
the serial solve's (the tests compare every position's formulas, breakpoints
and optimal sets).

Workers are single-process executors, as for the split by p-ranges
(``ProcessPoolExecutor(max_workers=1)``, or a Dask client's executor pinned to
one worker), so a worker's values and caches live in its process between tasks.

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from symbolic_noise import Chomp, solve
>>> pools = [ThreadPoolExecutor(1), ThreadPoolExecutor(1)]
>>> par = solve_by_positions(Chomp(2, 3), "king", executors=pools)
>>> par.value() == solve(Chomp(2, 3), "king").value()
True
>>> for pool in pools:
...     pool.shutdown()
"""

from __future__ import annotations

import heapq
import os
from array import array
import pickle
import threading
import time
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, wait
from typing import Callable

from flint import fmpq

from ..storage import codec
from ..piecewise import symmetry
from ..piecewise.collector import fewer_collections
from ...exact.interning import Interner
from ...exact.piecewise import PiecewiseFunction
from ...games.channels import Channel, get_channel
from ...games.rulesets import Game
from .ranges import RangeWorker, _worker, _WORKERS
from ..piecewise import SolveProgress, exact_interval
from ..solution import Solution

#: tasks kept queued at each worker, so that it never waits for the driver
_DEPTH = 2
#: how many of the most urgent ready positions are looked at for the one whose
#: followers the worker already holds
_LOOK = 4
#: positions per level of the game graph (on average) from which
#: :func:`prefer_positions` advises this split over p-ranges, per worker
_WIDE = 2.0

_LOCKS: dict = {}  # token -> lock: a Dask worker with several threads runs one task of a range at a time


_KEYS: dict = {}  # token -> _Keys: the breakpoints a worker names by key


class _Keys:
    """The breakpoints one worker names by key on the wire.  A Chomp solve's
    values share their breakpoints: a follower's breakpoint is one of every
    position above it (Chomp 5 x 6 king: 78,834 irrational points in its
    values, 2,779 distinct polynomials), so each is encoded and decoded
    once per worker rather than with every value.  Worker ``origin`` of
    ``step`` makes the keys ``origin, origin + step, ...`` (no two workers
    make the same key); the driver sends a worker the definitions of the
    keys made elsewhere that the values it ships name (:func:`_remote_task`'s
    ``defs``)."""

    def __init__(self, origin: int, step: int):
        self.next, self.step = origin, step
        self.memo: dict = {}  # id(point) -> (point, key)
        self.table: dict = {}  # key -> point (for decoding)
        self.new: dict = {}  # key -> the encoded point, made since the last take

    def encode_point(self, x):
        """``x`` on the wire: a rational as itself, else its key (a new key's
        definition is kept for :meth:`take`)."""
        if x.is_rational:
            return codec.encode_point(x, True)
        got = self.memo.get(id(x))
        if got is not None and got[0] is x:
            return got[1]
        key = self.next
        self.next += self.step
        self.memo[id(x)] = (x, key)
        self.table[key] = x
        self.new[key] = codec.encode_point(x, True)
        return key

    def define(self, defs: dict, interner) -> None:
        """Take the definitions ``defs`` (key -> encoded point) made by other workers."""
        for key, data in defs.items():
            if key not in self.table:
                x = interner.point(codec.decode_point(data, trusted=True))
                self.table[key] = x
                if id(x) not in self.memo:  # (a point this worker holds already keeps its key)
                    self.memo[id(x)] = (x, key)

    def take(self) -> dict:
        out, self.new = self.new, {}
        return out


def _remote_start(token, game, channel, lo, hi, misere, origin=0, step=1):
    _WORKERS[token] = RangeWorker(game, channel, fmpq(lo), fmpq(hi), misere, profiling=False)
    _LOCKS[token] = threading.Lock()
    _KEYS[token] = _Keys(origin, step)
    return os.getpid()


def _remote_task(token, foreign, positions, text=False, mirrors=(), forget=(), defs=None):
    """Take the followers' values ``foreign`` (encoded; those already held are
    skipped), solve ``positions`` in order, return the CPU seconds (in all,
    and of taking the values), their encoded values, with ``text`` their
    JSON text for the cache (made here, in parallel, rather than by the
    driver), the mirror images made (:mod:`symbolic_noise.solvers.piecewise.symmetry`):
    ``[(position, encoded, text, degree)]`` for each position of ``mirrors`` whose
    image the channel lets mirror (the driver vouches that the position's
    followers have their images' values), and the largest degree of each
    value's formulas (:meth:`Solution.stats` then decodes none).  The values
    of ``forget`` are dropped first: no position left to solve needs them.
    The values' irrational breakpoints are keys (:class:`_Keys`): ``defs``
    defines those made by other workers that ``foreign`` names, and the
    result ends with the definitions of the keys this task made and, per
    value returned (the solved ones, then the images), the keys it names."""
    worker = _worker(token)
    keys = _KEYS[token]
    with _LOCKS[token], fewer_collections():
        start = time.process_time()
        worker.forget(forget)
        keys.define(defs or {}, worker.interner)
        for v, data in foreign:
            if v not in worker.values:
                worker.values[v] = worker.interner.function(_unpack(data, keys.table))
        taking = time.process_time() - start
        out, texts, images, degrees, named, image_named = [], [], [], [], [], []
        for v in positions:
            for u in worker.game.followers(v):  # terminal followers are made where they are needed
                if u not in worker.values and not worker.game.followers(u):
                    worker.solve_position(u)
            value = worker.solve_position(v)
            wire = codec.encode(value, wire=True, point=keys.encode_point)
            named.append(_named(wire))
            out.append(_pack(wire))
            degrees.append(max((g.degree for g in value.formulas), default=0))
            plain = codec.encode(value) if text else None
            if text:
                texts.append(codec.dumps(plain))
            if v in mirrors:
                span = (worker.lo, worker.hi)
                image = symmetry.mirror_checked(worker.game, worker.channel, v, value, span, worker.interner)
                if image is not None:
                    t = worker.game.symmetry()
                    tv = t.position(v)
                    worker.values[tv] = image
                    image_text = codec.dumps(codec.relabel(plain, t.move)) if text else None
                    images.append((tv, _pack(codec.relabel(wire, t.move)), image_text, degrees[-1]))
                    image_named.append(named[-1])
        return time.process_time() - start, taking, out, texts, images, degrees, keys.take(), named + image_named


def _named(wire: dict) -> array:
    """The breakpoint keys a value's wire form names, in an array (the
    driver keeps one per position)."""
    return array("q", sorted({x for x in wire["points"] if type(x) is int}))


def _pack(data: dict) -> bytes:
    """A value's wire encoding as one bytes object (pickle): the driver keeps
    every value and only relays most of them, and a bytes object takes a
    fraction of the memory of the lists of Python ints it holds (Chomp 7 x 7
    king: the driver's encoded values grew past 5 GB) and crosses a process
    boundary without being rebuilt.  Only our own processes read it."""
    return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)


def _unpack(data: bytes, table: dict | None = None):
    """The value :func:`_pack` packed (the data of our own workers: trusted);
    ``table``: the points by key (:class:`_Keys`)."""
    return codec.decode(pickle.loads(data), trusted=True, table=table)


def _remote_stop(token):
    _WORKERS.pop(token, None)
    _LOCKS.pop(token, None)


def levels(game: Game, order) -> int:
    """The number of levels of the positions ``order`` (followers first): the
    longest chain of moves among them, plus one.

    >>> from symbolic_noise import Chomp, Nim
    >>> levels(Nim(5), Nim(5).positions()), levels(Chomp(2, 2), Chomp(2, 2).positions())
    (6, 4)
    """
    depth: dict = {}
    for v in order:
        depth[v] = 1 + max((depth[u] for u in game.followers(v) if u in depth), default=0)
    return max(depth.values(), default=0)


def prefer_positions(game: Game, order, workers: int) -> bool:
    """Whether a solve of ``order`` on ``workers`` workers should be split by
    positions (a wide game graph: at least :data:`_WIDE` positions per level
    per worker) rather than by p-ranges (a chain, such as 1-pile Nim).

    >>> from symbolic_noise import Chomp, Nim
    >>> prefer_positions(Nim(30), Nim(30).positions(), 2), prefer_positions(Chomp(4, 4), Chomp(4, 4).positions(), 2)
    (False, True)
    """
    return len(order) >= _WIDE * workers * levels(game, order)


def solve_by_positions(
    game: Game,
    channel: Channel | str,
    interval=(0, 1),
    *,
    executors: list,
    start=None,
    misere: bool = False,
    known: dict | None = None,
    progress: Callable[[SolveProgress], None] | None = None,
    stats: dict | None = None,
    store=None,
) -> Solution:
    """Solve ``game`` with its positions handed out to ``len(executors)``
    workers (see the module docstring); the result is identical to
    :func:`symbolic_noise.solve`.

    The arguments are those of :func:`symbolic_noise.solvers.schedules.stealing.solve_stealing`
    (``known``: positions solved before on ``interval``, handed out as they
    are needed; ``store``: receives every solved position as soon as it is
    back).  ``stats``, a dict if given, receives ``tasks`` (per task: the
    worker, the positions, its CPU seconds and those of taking the
    followers' values sent with it), ``mirrored`` (the positions made as
    mirror images, :mod:`symbolic_noise.solvers.piecewise.symmetry`) and ``shipped`` (how many
    values travelled to a worker that did not solve them) and ``idle`` (per
    worker, the wall seconds it had no task, as far as the driver saw).
    """
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    order = game.positions(root)
    n = len(executors)
    if n < 1:
        raise ValueError("need at least one executor")
    interner = Interner()  # the results share breakpoint objects, as the serial solve's do
    pdefs: dict = {}  # breakpoint key -> its encoding, as the worker that made the key sent it (_Keys)
    values = _Values(interner, _PointTable(pdefs, interner))
    for v in order:
        if v in (known or {}):
            values[v] = known[v]
    token = f"{os.getpid()}-{id(order)}-{time.time_ns()}-positions"
    tokens = [f"{token}-{i}" for i in range(n)]
    starts = [ex.submit(_remote_start, tok, game, channel, str(a), str(b), misere, i, n) for i, (ex, tok) in enumerate(zip(executors, tokens))]
    for f in starts:
        f.result()

    # what is left to solve, and in which order: the terminal positions are
    # made by every worker that needs them (a constant), the others wait for
    # their followers
    index = {v: i for i, v in enumerate(order)}
    followers = {v: tuple(game.followers(v)) for v in order}
    todo = [v for v in order if v not in values and followers[v]]
    terminal = {v for v in order if not followers[v]}
    waiting = {v: sum(1 for u in set(followers[v]) if u not in values and u not in terminal) for v in todo}
    parents: dict = {}
    for v in todo:
        for u in set(followers[v]):
            parents.setdefault(u, []).append(v)
    # a square Chomp board's transposed positions: the worker that solves the
    # first of a pair mirrors it into the other (symmetry.mirror_checked) when
    # the driver knows the first one's followers have their images' values
    # ("twins": mirrored, or their own images); the other waits for it
    t = game.symmetry() if hasattr(game, "symmetry") else None
    image_of: dict = {}
    twins: set = set()  # positions whose value was made as the mirror image of their image's, or the other way
    if t is not None:
        pending_set = set(todo)
        for v in todo:
            tv = t.position(v)
            if tv != v and tv in pending_set and index[v] < index[tv]:
                image_of[v] = tv
                waiting[tv] += 1
                parents.setdefault(v, []).append(tv)
    # a worker forgets a value once every position that needs it is solved
    # (its parents, and the mirror image waiting for it): told with its next task
    remaining = {u: len(ws) for u, ws in parents.items()}
    spent: list = [[] for _ in range(n)]

    def done_with(w):
        for u in set(followers[w]) | ({t.position(w)} if t is not None and t.position(w) in image_of else set()):
            if u in remaining:
                remaining[u] -= 1
                if remaining[u] == 0:
                    for i in range(n):
                        if u in held[i]:
                            held[i].discard(u)
                            spent[i].append(u)

    # the longest chain of positions to solve above each one: the critical path goes first
    above: dict = {}
    for v in reversed(todo):
        above[v] = 1 + max((above[w] for w in parents.get(v, ())), default=0)
    ready = [(-above[v], index[v], v) for v in todo if waiting[v] == 0]
    heapq.heapify(ready)

    encoded: dict = {}  # position -> its value as exact JSON (solved, or known and shipped once)
    mirrored: set = set()  # positions made as mirror images (never handed out)
    held = [set() for _ in range(n)]  # positions whose values a worker holds (tasks done)
    inflight = [0] * n
    pending: dict = {}  # future -> (worker, positions)
    for v in terminal:
        if v not in values:
            values[v] = PiecewiseFunction.constant(1 if misere else 0, a, b, frozenset(), frozenset())
    t0 = time.perf_counter()
    done, total = len(values), len(order)

    named: dict = {}  # position -> the breakpoint keys its value names (an array)
    known_keys = [set() for _ in range(n)]  # keys made elsewhere whose definitions a worker holds (tasks done)

    def encoding(u):
        got = encoded.get(u)
        if got is None:
            got = encoded[u] = _pack(codec.encode(values[u], wire=True))
        return got

    def pick(i):
        """The ready position for worker ``i``: of the :data:`_LOOK` most
        urgent, the one with the fewest followers it lacks."""
        look = [heapq.heappop(ready) for _ in range(min(_LOOK, len(ready)))]
        lacks = [sum(1 for u in set(followers[v]) if u not in held[i] and u not in terminal) for _, _, v in look]
        best = min(range(len(look)), key=lambda j: (lacks[j], look[j][:2]))
        for j, item in enumerate(look):
            if j != best:
                heapq.heappush(ready, item)
        return look[best][2]

    # a cache that takes JSON text gets it from the workers (SolutionCache.save_text)
    want_text = store is not None and hasattr(store, "save_text")
    shipped = 0
    idle, since = [0.0] * n, [None] * n  # seconds a worker had no task (as the driver sees it)

    def fill():
        # one task at a time to the worker with the fewest queued, so that a
        # short ready list is shared rather than taken by the first worker
        nonlocal shipped
        while ready:
            i = min(range(n), key=inflight.__getitem__)
            if inflight[i] >= _DEPTH:
                return
            ex, tok = executors[i], tokens[i]
            v = pick(i)
            foreign = [(u, encoding(u)) for u in sorted(set(followers[v]), key=index.get)
                       if u not in held[i] and u not in terminal]
            # the breakpoint keys those values name that worker i neither made
            # nor holds from a task done (one still running may be sent again:
            # a worker's tasks need not run in the order they were sent)
            lacking = set().union(*(named.get(u, ()) for u, _ in foreign)) - known_keys[i]
            defs = {k: pdefs[k] for k in lacking if k % n != i}
            shipped += len(foreign)
            mirrors = ()
            if v in image_of and all(u in twins or t.position(u) == u for u in set(followers[v])):
                mirrors = (v,)
            forget, spent[i] = spent[i], []
            fut = ex.submit(_remote_task, tok, foreign, [v], want_text, mirrors, forget, defs)
            pending[fut] = (i, [v], [u for u, _ in foreign], list(defs))
            if inflight[i] == 0 and since[i] is not None:
                idle[i] += time.perf_counter() - since[i]
            inflight[i] += 1

    try:
        while len(values) < total:
            fill()
            if not pending:  # pragma: no cover - a finite game graph has a ready position while one is left
                raise RuntimeError("no position is ready, yet some are not solved")
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            back = []
            for fut in finished:
                i, positions, given, defined = pending.pop(fut)
                known_keys[i].update(defined)
                inflight[i] -= 1
                if inflight[i] == 0:
                    since[i] = time.perf_counter()
                cpu, taking, outs, texts, images, degrees, new_defs, names = fut.result()
                pdefs.update(new_defs)
                # a worker holds what it was sent once the task is done (the
                # tasks of one worker need not run in the order they were sent)
                for u in given:  # (one spent while the task ran is forgotten with the next)
                    if remaining.get(u) == 0:
                        spent[i].append(u)
                    else:
                        held[i].add(u)
                if stats is not None:
                    stats.setdefault("tasks", []).append((i, positions, cpu, taking))
                    stats.setdefault("mirrored", []).extend(tv for tv, _, _, _ in images)
                solved = [(v, data, texts[k] if texts else None, degrees[k]) for k, (v, data) in enumerate(zip(positions, outs))]
                for tv, _, _, _ in images:
                    twins.update((tv, t.position(tv)))
                    mirrored.add(tv)
                for (v, data, text, degree), keys in zip(solved + images, names):
                    named[v] = keys
                    encoded[v] = data
                    values.degrees[v] = degree
                    held[i].add(v)
                    back.append((v, text))
                    done_with(v)
                    for w in parents.get(v, ()):
                        waiting[w] -= 1
                        if waiting[w] == 0 and w not in mirrored:
                            heapq.heappush(ready, (-above[w], index[w], w))
            fill()  # the workers get their next positions before the driver stores any
            for v, text in back:
                values.add(v, encoded[v])
                done += 1
                if want_text:
                    store.save_text(v, text, degree=values.degrees.get(v))
                elif store is not None:
                    store.save(v, values[v])
                if progress is not None:
                    progress(SolveProgress(done, total, v, 1.0, time.perf_counter() - t0))
    finally:
        for ex, tok in zip(executors, tokens):
            try:
                ex.submit(_remote_stop, tok)
            except RuntimeError:  # already shut down
                pass
    if stats is not None:
        end = time.perf_counter()  # (the workers that finished before the last one waited too)
        stats["shipped"] = shipped
        stats["idle"] = [t + (end - s if s is not None and not k else 0.0) for t, s, k in zip(idle, since, inflight)]
    values.order(order)
    return Solution(game, channel, (a, b), values, root, misere)


class _PointTable(dict):
    """The driver's breakpoints by key (:class:`_Keys`), each decoded from
    the definitions ``pdefs`` when a value that names it is first read."""

    def __init__(self, pdefs: dict, interner: Interner):
        super().__init__()
        self._pdefs, self._interner = pdefs, interner

    def __missing__(self, key):
        x = self[key] = self._interner.point(codec.decode_point(self._pdefs[key], trusted=True))
        return x


class _Values(Mapping):
    """The solved values, each decoded from its encoding when first read: the
    driver would otherwise spend a CPU core's worth of time decoding values
    no one reads (a CLI solve reads the start position's and its followers').
    A read decodes the value once and keeps it."""

    def __init__(self, interner: Interner, points: dict | None = None):
        self._data: dict = {}  # position -> value, or None while only encoded
        self._encoded: dict = {}
        self._interner = interner
        self._points = points  # breakpoints by key (_PointTable)
        self.degrees: dict = {}  # position -> the largest degree of its formulas, as its worker said

    def max_degree(self) -> int:
        """The largest degree of any value's formulas, without decoding one."""
        told = max(self.degrees.values(), default=0)
        return max([told] + [max((g.degree for g in f.formulas), default=0) for f in self._data.values() if f is not None])

    def __setitem__(self, v, value) -> None:
        self._data[v] = value

    def add(self, v, data) -> None:
        """``v``'s value, encoded (:func:`codec.encode` on the wire, packed by :func:`_pack`)."""
        self._encoded[v] = data
        self._data[v] = None

    def order(self, order) -> None:
        """Put the positions in ``order`` (the Solution's order of positions)."""
        self._data = {v: self._data[v] for v in order}

    def __getitem__(self, v):
        value = self._data[v]
        if value is None:
            value = self._data[v] = self._interner.function(_unpack(self._encoded.pop(v), self._points))
        return value

    def __contains__(self, v) -> bool:
        return v in self._data

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


__all__ = ["levels", "prefer_positions", "solve_by_positions"]
