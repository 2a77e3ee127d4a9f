"""Parallel solves in lockstep: every worker owns a p-range for the whole solve,
all workers solve the same positions round by round, and the ranges are
re-balanced between rounds.

Cutting [a, b] into sub-intervals solved independently from start to end
(:mod:`symbolic_noise.solvers.parallel`) has to guess in advance where the work
will be, and the work of a solve moves and concentrates as positions grow (for
1-pile Nim through the binary channel, half the work of the largest heaps lies
in p in [0.79, 0.81], a place the small heaps do not show).  Here the split is
measured instead of guessed: after every round each worker reports its CPU
time, the work inside a range is taken to follow the breakpoints of the round's
values there, and the cuts move to the weighted quantiles of that model.  A
worker whose range grows receives the solved values on the part it gains (exact
JSON, :mod:`symbolic_noise.solvers.codec`); everything else, in particular the
solver's per-cell caches, stays in the worker between rounds, which is what
sub-interval solves lose when they hand values over.

A worker is a single-process executor (``submit``/``result``), so that its
state can live in the process: ``ProcessPoolExecutor(max_workers=1)`` locally,
or a Dask client's ``get_executor(workers=[address], ...)`` pinned to one
worker of a cluster.  Cuts only balance work; they decide nothing: the values on
adjacent ranges are joined by :func:`symbolic_noise.solvers.parallel.stitch`,
which checks that both sides give the same optimal set at every cut, so the
result is the serial solve's.

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from symbolic_noise import Nim, solve
>>> pools = [ThreadPoolExecutor(1), ThreadPoolExecutor(1)]
>>> par = solve_lockstep(Nim(8), "binary", executors=pools)
>>> par.value() == solve(Nim(8), "binary").value()
True
>>> for pool in pools:
...     pool.shutdown()
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from flint import ctx as flint_ctx
from flint import fmpq

from . import codec
from .piecewise import symmetry
from ..errors import WorkerLostError
from ..exact.piecewise import PiecewiseFunction
from ..exact.interning import Interner
from ..games.channels import Channel, get_channel
from ..games.rulesets import Game
from .parallel import split_interval, stitch
from .piecewise import SolveProgress, exact_interval
from .piecewise.cells import _Cells
from .piecewise.collector import fewer_collections
from .piecewise.followers import _Position
from .piecewise.position import _PositionSolver
from .solution import Solution

#: cuts are dyadic rationals with this many bits (short numbers keep the cells
#: next to a cut cheap; where exactly a cut falls does not matter)
_CUT_BITS = 20
#: most positions in one round: the cost of positions grows fast (cubically in
#: the heap for Nim), and a long round is one the balance cannot correct
_MAX_BATCH = 8


# --------------------------------------------------------------------------- worker side


class RangeWorker:
    """The part of a solve that one worker owns: every position's value on the
    range [lo, hi], and the solver's caches for that range.  With
    ``profiling`` (the lockstep and stealing splits) it records where along
    p its CPU went, for :meth:`take_profile`.

    >>> from symbolic_noise import Nim
    >>> w = RangeWorker(Nim(3), get_channel("binary"), fmpq(0), fmpq(1, 2))
    >>> [w.solve_position(v).formulas[-1].text() for v in (0, 1, 2, 3)][-1]
    '(1 - p + p^2)/(1 + p)'
    """

    def __init__(self, game: Game, channel: Channel, lo: fmpq, hi: fmpq, misere: bool = False, profiling: bool = True):
        self.game, self.channel, self.misere = game, channel, misere
        # (a split by positions never reads the profile: it would only grow,
        # and its clock read at every base cell took 5.6 % of the workers'
        # CPU on Chomp 6 x 6 king)
        self.profiling = profiling
        self.lo, self.hi = fmpq(lo), fmpq(hi)
        self.values: dict = {}
        self.cells = _Cells(self.lo, self.hi)
        self.norm: dict = {}
        self.profile: list = []  # (p, CPU seconds) of the pieces solved since the last take_profile
        self.interner = Interner()  # one object per breakpoint: solved here or handed over

    def _record(self, fraction: float, seconds: float) -> None:
        scale = 2**_CUT_BITS
        where = self.lo + (self.hi - self.lo) * fmpq(int(fraction * scale), scale)
        self.profile.append((where, seconds))

    def _marker(self) -> Callable[[float], None] | None:
        """The sweep's progress callback that records where along p a
        position's CPU went (:meth:`_record`), or None without ``profiling``."""
        if not self.profiling:
            return None
        last = [0.0, time.process_time()]  # where the sweep stood, and when

        def mark(fraction: float) -> None:
            now = time.process_time()
            self._record((last[0] + fraction) / 2, now - last[1])
            last[:] = [fraction, now]

        return mark

    def take_profile(self) -> list:
        """Where the work went since the last call: ``[(p, CPU seconds), ...]``,
        one entry per piece solved (for balancing only)."""
        out, self.profile = self.profile, []
        return out

    def solve_position(self, v) -> PiecewiseFunction:
        """Solve ``v`` on the range (its followers must be solved)."""
        with fewer_collections():  # (collector.py)
            return self._solve_position(v)

    def _solve_position(self, v) -> PiecewiseFunction:
        if v in self.values:
            return self.values[v]
        if not self.game.followers(v):
            value = PiecewiseFunction.constant(1 if self.misere else 0, self.lo, self.hi, frozenset(), frozenset())
        else:
            # a square Chomp board's transposed position: its image's value, relabelled
            value = symmetry.mirrored(self.game, self.channel, v, self.values, (self.lo, self.hi), self.interner)
        if value is None:
            # a self-symmetric position: one move of each mirror pair (worth the same)
            half = symmetry.representatives(self.game, self.channel, v, self.values, (self.lo, self.hi))
            pos = _Position(self.game, self.channel, v, self.lo, self.hi, *(half or ()))
            follower_values = [self.values[w] for w in pos.followers]
            solver = _PositionSolver(pos, follower_values, self.lo, self.hi, self.cells, self.norm)
            mark = self._marker()
            value = solver.run(mark)
            if half is not None:
                value = symmetry.close_labels(value, self.game.symmetry())
            value = self.interner.function(value)  # one object per breakpoint, as in the serial solve
            if mark is not None:
                mark(1.0)
            self.cells.next_position()
            flint_ctx.cleanup()  # as in the serial solve: FLINT's pools only grow
        self.values[v] = value
        return value

    def forget(self, positions) -> None:
        """Drop the values of ``positions`` (no position left to solve here
        needs them) and the normalised pairs kept for their pieces, so that
        a worker of a long solve holds only what is still to be used."""
        norm = self.norm
        for v in positions:
            value = self.values.pop(v, None)
            if value is None:
                continue
            norm.pop(("pairs", id(value)), None)
            for f, start in zip(value.formulas, value.points):
                got = norm.get((id(f), id(start)))
                if got is not None and got[0] is f and got[1] is start:
                    del norm[(id(f), id(start))]

    def shrink(self, lo: fmpq, hi: fmpq) -> tuple[dict | None, dict | None]:
        """Give up the parts of the range outside [lo, hi] (inside the old range):
        the values there (``{position: PiecewiseFunction}``) below and above."""
        lo, hi = fmpq(lo), fmpq(hi)
        if not (self.lo <= lo < hi <= self.hi):
            raise ValueError(f"[{lo}, {hi}] is not a sub-range of [{self.lo}, {self.hi}]")
        left = {v: f.restrict(self.lo, lo) for v, f in self.values.items()} if lo > self.lo else None
        right = {v: f.restrict(hi, self.hi) for v, f in self.values.items()} if hi < self.hi else None
        if left or right:
            self.values = {v: f.restrict(lo, hi) for v, f in self.values.items()}
            self._moved(lo, hi)
        return left, right

    def grow(self, left: dict | None = None, right: dict | None = None) -> None:
        """Take over the values on the parts next to the range (every solved
        position's, from the workers that gave them up)."""
        if not (left or right):
            return
        for part in (left, right):
            if part is not None and set(part) != set(self.values):
                raise ValueError("a handed-over part must hold every solved position")
        values = {}
        for v, f in self.values.items():
            parts = ([self.interner.function(left[v])] if left else []) + [f]
            parts += [self.interner.function(right[v])] if right else []
            values[v] = stitch(parts)
        self.values = values
        # the parts' outer ends are cuts, rational numbers
        lo = next(iter(left.values())).points[0].lo if left else self.lo
        hi = next(iter(right.values())).points[-1].hi if right else self.hi
        self._moved(lo, hi)

    def _moved(self, lo: fmpq, hi: fmpq) -> None:
        self.lo, self.hi = lo, hi
        self.cells.a, self.cells.b = lo, hi
        # the caches are keyed by the identity of pieces and formulas, not by
        # piece indices: they stay valid on the part of the range kept


_WORKERS: dict[str, RangeWorker] = {}


def _worker(token) -> RangeWorker:
    try:
        return _WORKERS[token]
    except KeyError:
        raise WorkerLostError(
            f"worker process {os.getpid()} does not hold its range of the solve (restarted, or not pinned)"
        ) from None


def _remote_start(token, game, channel, lo, hi, misere, given):
    """Start range worker ``token`` with the ``given`` values (one stream:
    a breakpoint may be named by its number, :func:`codec.encode`'s memo)."""
    worker = _WORKERS[token] = RangeWorker(game, channel, fmpq(lo), fmpq(hi), misere)
    table: list = []
    for v, data in given:
        worker.values[v] = worker.interner.function(codec.decode(data, trusted=True, table=table))  # solved before
    return os.getpid()


def _remote_solve(token, positions):
    """Solve ``positions`` in order: the CPU seconds, where they went, and the
    encoded values on the range."""
    worker = _worker(token)
    start = time.process_time()
    out = [codec.encode(worker.solve_position(v), wire=True) for v in positions]
    return time.process_time() - start, worker.take_profile(), out


def _encoded(part):
    return None if part is None else [(v, codec.encode(f, wire=True)) for v, f in part.items()]


def _decoded(part):
    # our own workers' encoding of values they solved: no re-isolation
    return None if part is None else {v: codec.decode(data, trusted=True) for v, data in part}


def _remote_shrink(token, lo, hi):
    left, right = _worker(token).shrink(fmpq(lo), fmpq(hi))
    return _encoded(left), _encoded(right)


def _remote_grow(token, left, right):
    _worker(token).grow(_decoded(left), _decoded(right))


def _remote_stop(token):
    _WORKERS.pop(token, None)


# --------------------------------------------------------------------------- balancing


def balance_cuts(ranges, loads, profiles, *, tolerance: float = 0.2) -> list[fmpq] | None:
    """New inner cuts for ``ranges`` (consecutive ``(lo, hi)``), or ``None`` when
    the current ones are within ``tolerance`` of the best the model predicts.

    Moving a cut has a cost the model does not see: the worker that gains a
    stretch starts its cells cold.  With 0.05 the cuts of nim 48 moved about
    20 times; with 0.2 about 5-10 times, and the lockstep solve was faster: a
    same-run alternation on 2026-11-24 (2 workers, nim 48) gave mean walls of
    27.8 s (0.05, 8 runs), 25.5 s (0.3, 8 runs) and 22.4 s (0.2, 4 runs), the
    serial solve 36.5 s; the results were identical in every run.

    The model: range ``i`` did ``loads[i]`` seconds of work in the last round,
    spread as its ``profiles[i]`` says (``[(p, seconds), ...]``, one entry per
    piece solved; evenly over the range when empty), and the next round's work
    is spread the same way.  The new cuts are the model's weighted quantiles,
    rounded to dyadic rationals, each kept strictly inside the two old ranges
    next to it so that every range overlaps its old self.  This balances work
    and decides nothing.

    >>> [str(c) for c in balance_cuts([(fmpq(0), fmpq(1, 2)), (fmpq(1, 2), fmpq(1))],
    ...                               [1.0, 3.0], [[], [(fmpq(3, 4), 1.0), (fmpq(7, 8), 2.0)]])]
    ['13/16']
    """
    n = len(ranges)
    if n < 2:
        return None
    total = float(sum(loads))
    if total <= 0:
        return None
    atoms = []  # (p, seconds)
    for (lo, hi), load, profile in zip(ranges, loads, profiles):
        profile = [(x, w) for x, w in profile if lo <= x <= hi and w > 0]
        recorded = sum(w for _, w in profile)
        if recorded > 0:
            atoms += [(x, w * load / recorded) for x, w in profile]
        else:
            atoms += [(lo + (hi - lo) * fmpq(2 * j + 1, 32), load / 16) for j in range(16)]
    atoms.sort(key=lambda a: a[0])
    target = total / n
    if max(loads) <= target * (1 + tolerance):  # the model gives the current cuts their loads
        return None
    scale = 2**_CUT_BITS
    cuts, acc, k = [], 0.0, 1
    for j, (x, w) in enumerate(atoms):
        acc += w
        while k < n and acc >= k * target:
            nxt = atoms[j + 1][0] if j + 1 < len(atoms) else ranges[-1][1]
            c = (x + nxt) / 2 if nxt > x else x
            cuts.append(fmpq((c * scale).floor(), scale))
            k += 1
    while len(cuts) < n - 1:
        cuts.append(ranges[len(cuts)][1])
    # keep every cut strictly inside its two old neighbouring ranges, increasing
    out = []
    for i, c in enumerate(cuts):
        lo, hi = ranges[i][0], ranges[i + 1][1]
        lower = max(lo, out[-1]) if out else lo
        if not lower < c < hi:
            c = _dyadic_inside(lower, hi)
        out.append(c)
    return out


class Settling:
    """The default rebalance policy: :func:`balance_cuts`, except in the
    ``settle`` rounds after a move of the cuts.

    A worker that gains a stretch starts its cells there cold, and its next
    round's profile counts the cold start as work in that stretch: the model
    then moves the cuts back.  nim 48 (2 workers, 2026-11-24) moved its cuts
    after rounds 17, 18 and 19 and after 26 and 27, each move answering the
    cold start of the one before (round loads 0.38/0.63, then 1.00/0.46, then
    0.44/0.83 CPU seconds).  The next round's profile is taken as it is.

    An imbalance below the tolerance that persists also moves the cuts: the
    slowest worker's excess over the mean load is summed over the rounds
    since the last move, and once it exceeds ``persist`` times the mean round
    load the cuts go to the model's quantiles (nim 48 kept one worker 10-15 %
    heavier than the other for ten rounds under the 0.2 tolerance).  Eight
    same-run pairs on nim 48, ``persist=0.5`` against none: mean critical path
    14.65 s against 15.35 s, mean balance (half the workers' CPU over the
    critical path) 0.901 against 0.883, about as many moves (5.0 against 4.75).

    >>> policy = Settling()
    >>> ranges, loads, profiles = [(fmpq(0), fmpq(1, 2)), (fmpq(1, 2), fmpq(1))], [1.0, 3.0], [[], []]
    >>> [policy(ranges, loads, profiles) is None for _ in range(3)]
    [False, True, False]
    >>> policy = Settling()   # 13 % above the mean, under the tolerance: moves in the fourth round
    >>> [policy(ranges, [1.0, 1.3], profiles) is None for _ in range(6)]
    [True, True, True, False, True, True]
    """

    def __init__(self, settle: int = 1, persist: float | None = 0.5, **options):
        self.settle, self.options, self.wait = settle, options, 0
        self.persist, self.excess = persist, 0.0

    def __call__(self, ranges, loads, profiles):
        if self.wait > 0:
            self.wait -= 1
            return None
        cuts = balance_cuts(ranges, loads, profiles, **self.options)
        if cuts is None and self.persist is not None and sum(loads) > 0:
            mean = sum(loads) / len(loads)
            self.excess += max(loads) - mean
            if self.excess > self.persist * mean:
                cuts = balance_cuts(ranges, loads, profiles, **{**self.options, "tolerance": 0.0})
        if cuts is not None:
            self.wait, self.excess = self.settle, 0.0
        return cuts


def _dyadic_inside(lo: fmpq, hi: fmpq) -> fmpq:
    """A short dyadic rational strictly between ``lo < hi``."""
    bits = 1
    while True:
        scale = 2**bits
        c = fmpq((lo * scale).floor() + 1, scale)
        if c < hi:
            return c
        bits += 1


# --------------------------------------------------------------------------- driver


def solve_lockstep(
    game: Game,
    channel: Channel | str,
    interval=(0, 1),
    *,
    executors: list,
    start=None,
    misere: bool = False,
    known: dict | None = None,
    progress: Callable[[SolveProgress], None] | None = None,
    round_seconds: float = 0.2,
    rebalance: Callable | None = None,
    stats: dict | None = None,
    store=None,
) -> Solution:
    """Solve ``game`` on ``len(executors)`` p-ranges in lockstep (see the module
    docstring); the result is identical to :func:`symbolic_noise.solve`.

    ``executors`` are single-worker executors, one per range (each keeps its
    range's state between rounds).  ``known`` maps positions to values solved
    before on ``interval`` (they are handed out, not recomputed).  A round
    solves consecutive positions; it grows while rounds take less than
    ``round_seconds`` of CPU.  ``rebalance(ranges, loads, profiles)`` returns new
    inner cuts or ``None`` (default :class:`Settling`; tests pass others).
    ``store`` (as for :func:`symbolic_noise.solve`: ``save(position, value)``)
    receives every solved position as soon as its value is joined, so an
    interrupted solve keeps what it finished.  ``stats``, a dict if given, receives ``rounds`` (per round: the positions
    and every worker's CPU seconds) and ``moves`` (how often the cuts moved),
    from which the benchmarks compute the critical path.
    """
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    order = game.positions(root)
    rebalance = Settling() if rebalance is None else rebalance
    n = len(executors)
    if n < 1:
        raise ValueError("need at least one executor")
    ranges = split_interval(a, b, n)
    token = f"{os.getpid()}-{id(order)}-{time.time_ns()}"
    known = {v: known[v] for v in order if v in (known or {})}
    given = [[(v, codec.encode(f.restrict(lo, hi), wire=True)) for v, f in known.items()] for lo, hi in ranges]
    tokens = [f"{token}-{i}" for i in range(n)]  # executors may share a process (threads)
    for f in [
        ex.submit(_remote_start, tok, game, channel, str(lo), str(hi), misere, g)
        for ex, tok, (lo, hi), g in zip(executors, tokens, ranges, given)
    ]:
        f.result()
    todo = [v for v in order if v not in known]
    t0 = time.perf_counter()
    # the values come back round by round and are joined in a thread of their
    # own while the workers go on with the next round
    joiner = ThreadPoolExecutor(1)
    joined = []
    interner = Interner()  # the results share breakpoint objects, as the serial solve's do
    batch = 1
    i = 0
    saved = 0  # rounds whose values went to the store
    try:
        while i < len(todo):
            chunk = todo[i : i + batch]
            futures = [ex.submit(_remote_solve, tok, chunk) for ex, tok in zip(executors, tokens)]
            saved = _save(store, game, joined, saved, wait=False)  # while the workers work
            results = [f.result() for f in futures]
            loads = [cpu for cpu, _, _ in results]
            joined.append(joiner.submit(_join, chunk, [out for _, _, out in results], interner))
            if stats is not None:
                stats.setdefault("rounds", []).append((list(chunk), loads))
            i += len(chunk)
            if progress is not None:
                progress(SolveProgress(len(known) + i, len(order), chunk[-1], 1.0, time.perf_counter() - t0))
            # the next round's positions, from this round's cost per position
            # (costs grow with the positions, so never more than double)
            per = max(loads) / len(chunk)
            batch = max(1, min(2 * batch, _MAX_BATCH, int(round_seconds / per) if per > 0 else _MAX_BATCH))
            if i < len(todo) and n > 1:
                cuts = rebalance(ranges, loads, [profile for _, profile, _ in results])
                if cuts is not None:
                    ranges = _move(executors, tokens, ranges, cuts)
                    if stats is not None:
                        stats["moves"] = stats.get("moves", 0) + 1
        saved = _save(store, game, joined, saved, wait=True)
        values = dict(known)
        for f in joined:
            values.update(f.result())
    finally:
        joiner.shutdown(cancel_futures=True)
        for ex, tok in zip(executors, tokens):
            try:
                ex.submit(_remote_stop, tok)
            except RuntimeError:  # already shut down
                pass
    return Solution(game, channel, (a, b), {v: values[v] for v in order}, root, misere)


def _save(store, game, joined, saved: int, wait: bool) -> int:
    """Hand the joined rounds after the first ``saved`` to ``store`` (in order,
    stopping at one not joined yet unless ``wait``); the new count."""
    while store is not None and saved < len(joined) and (wait or joined[saved].done()):
        for v, value in joined[saved].result().items():
            if game.followers(v):
                store.save(v, value)
        saved += 1
    return saved


def _join(positions, parts, interner) -> dict:
    """The values of ``positions`` from the workers' encoded parts, range by range."""
    return {
        v: stitch([interner.function(codec.decode(part[k], trusted=True)) for part in parts])
        for k, v in enumerate(positions)
    }


def _move(executors, tokens, ranges, cuts) -> list:
    """Move the ranges' inner cuts to ``cuts``: every worker first gives up what
    it loses, then takes what it gains from its neighbours.  Returns the new
    ranges."""
    a, b = ranges[0][0], ranges[-1][1]
    ends = [a] + list(cuts) + [b]
    new = list(zip(ends, ends[1:]))
    kept = [(max(lo, nlo), min(hi, nhi)) for (lo, hi), (nlo, nhi) in zip(ranges, new)]
    futures = [ex.submit(_remote_shrink, tok, str(klo), str(khi)) for ex, tok, (klo, khi) in zip(executors, tokens, kept)]
    given = [f.result() for f in futures]
    futures = []
    for i, (ex, tok) in enumerate(zip(executors, tokens)):
        # what neighbour i-1 gave up above lands below range i, and so on
        left = given[i - 1][1] if i > 0 else None
        right = given[i + 1][0] if i + 1 < len(given) else None
        if left or right:
            futures.append(ex.submit(_remote_grow, tok, left, right))
    for f in futures:
        f.result()
    return new


__all__ = ["Interner", "RangeWorker", "Settling", "balance_cuts", "solve_lockstep"]
