"""Parallel solves over p-ranges that run apart, with work stealing.

Every worker owns a p-range and solves every position on it, followers first,
at its own pace (a :class:`~symbolic_noise.solvers.schedules.ranges.RangeWorker`):
no worker waits for another between positions (a schedule in rounds, which an
earlier version had, costs each round its slowest worker's time).  Only the
total work of each range has to come out even.

The first cuts come from a probe: the first third of the positions is solved
here, and the cuts split its breakpoints evenly
(:func:`symbolic_noise.solvers.schedules.cuts.balanced_cuts`); the probe's values
are handed to the workers.  While it runs, each worker makes a throwaway solve
of the game's first few positions (:func:`_remote_warm`): a worker process's
first solve costs more than the same solve later.  Where the work then goes
is not known in advance (1-pile Nim through the binary channel does 23 % of
the work of nim 48 for p in [0.800, 0.810]: ``benchmarks/work_profile.py``),
so the ranges are balanced by *stealing*: a worker that has solved every
position on its range takes over part of the range of the worker with the
most work left.  That worker (the victim) finishes the position it is on
over its whole range, and then narrows to what it keeps.  The thief starts
a fresh range worker on the other part, with the values of the positions
the victim has finished there (the driver holds them), and solves the rest.
The cut is placed by the victim's last position's profile (where its CPU
seconds went, piece by piece), so that both are expected to finish
together.  A steal happens only while the victim has at least
:data:`_MIN_AHEAD` positions after the one it is on; cuts only balance work
and decide nothing.

For every position the parts the workers solve partition [a, b]; the driver
joins them with :func:`symbolic_noise.solvers.schedules.cuts.stitch`, which checks
that both sides give the same optimal set at every cut, so the result is the
serial solve's.  A part solved over a range that has since been narrowed is
restricted to what the worker kept.

Workers are single-process executors: each has at most one task at a time,
so a Dask worker's threads never run two of them at once.

The workers use about 1.1-1.25x the serial CPU (benchmarks/HISTORY.md has the
same-run comparisons with the earlier schedule in rounds).  One run's schedule replayed in one process
took 1.13x: its steal about 5 % (the thief starts its range cold, its cells,
slope bounds and enclosures made anew for every earlier position's pieces
there, and the victim's position in flight is thrown away on the stolen
part), the values' encoding about 3 %; fixed cuts cost nothing (two ranges of
nim 48 cut at 0.805 or 0.788 run at the same time take 0.98x and 1.01x the
serial CPU: ``benchmarks/parallel_work.py --alone 161/200``).

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from symbolic_noise import Nim, solve
>>> pools = [ThreadPoolExecutor(1), ThreadPoolExecutor(1)]
>>> par = solve_stealing(Nim(10), "binary", executors=pools)
>>> par.value() == solve(Nim(10), "binary").value()
True
>>> for pool in pools:
...     pool.shutdown()
"""

from __future__ import annotations

import os
import time
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from flint import fmpq

from ..storage import codec
from ...exact.interning import Interner
from ...games.channels import Channel, get_channel
from ...games.rulesets import Game
from .ranges import _CUT_BITS, RangeWorker, _dyadic_inside, _remote_start, _remote_stop, _worker
from .cuts import balanced_cuts, split_interval, stitch
from ..piecewise import SolveProgress, exact_interval, solve_positions
from ..solution import Solution

#: a steal needs the victim to have at least this many positions after the
#: one it is solving (the thief solves that one again on its part, cold)
_MIN_AHEAD = 2

#: a thief's first position on its part costs about this many times what it
#: costs a warm range worker: its cells, slope bounds and enclosures are made
#: anew for every earlier position's pieces there.  nim 48, the steal at
#: position 23 of 33 (three runs): the thief's first position 0.44-0.46 s, its
#: next ones 0.22 s and up.  Counted as warm (1), the thief ended 0.14 s and
#: 0.6 s after the victim; as 2.5, 0.2-0.5 s before it.  Balances work only
_COLD = 2.0

#: seconds the driver sleeps after handing a worker its next task, before it
#: decodes the value just received: the executor's threads ship the task
#: (ProcessPoolExecutor: its queue thread, then the pipe's feeder thread) only
#: when they get a core and the GIL, and with both cores busy (the other
#: worker, and the driver decoding) a task waited 5-9 ms to reach its worker
#: late in nim 48.  Sleeping 1 ms cut these waits from 0.09-0.19 s per worker
#: in all to 0.02-0.04 s, beside the thief's range start (0.06-0.07 s; three
#: runs each, /tmp timeline of the tasks' start and end in the workers,
#: 2026-11-26)
_HAND_OFF = 0.001


#: positions (the game's first) each worker solves in a throwaway range worker
#: while the driver probes (:func:`_remote_warm`): a few are enough to touch
#: the solver's code paths, and stay cheap when ``known`` spares the probe
_WARM_UP = 8


# --------------------------------------------------------------------------- worker side


#: per range worker (token): the breakpoints it has sent the driver, for
#: :func:`codec.encode`'s ``memo`` (the driver decodes the stream in order)
_SENT: dict = {}


def _remote_begin(old, token, game, channel, lo, hi, misere, given, positions):
    """Drop the range worker ``old`` (if any), start ``token`` on [lo, hi] with
    the ``given`` values (one stream of :func:`codec.encode` with a memo), and
    solve ``positions`` there."""
    if old is not None:
        _remote_end(old)
    _remote_start(token, game, channel, lo, hi, misere, given)
    return _remote_step(token, positions, None)


def _remote_step(token, positions, keep):
    """Narrow the range to ``keep`` (``(lo, hi)`` strings, or None), then solve
    ``positions``: the CPU seconds, where they went, and the encoded values
    (a breakpoint sent before by this range worker: its number)."""
    worker = _worker(token)
    start = time.process_time()
    if keep is not None:
        worker.shrink(fmpq(keep[0]), fmpq(keep[1]))  # the part given up was stolen: drop it
    memo = _SENT.setdefault(token, {})
    out = [codec.encode(worker.solve_position(v), wire=True, memo=memo) for v in positions]
    return time.process_time() - start, worker.take_profile(), out


def _remote_warm(game, channel, lo, hi, misere, positions):
    """Solve ``positions`` on [lo, hi] in a throwaway range worker: a worker
    process's first solve costs more than the same solve later (nim 48: its
    first task 0.06-0.13 s CPU, 0.033-0.052 s after a throwaway solve of the
    first 8 positions; a forked process first touches the solver's code and
    data), so the driver has each worker make one while it probes.  Returns
    the CPU seconds."""
    start = time.process_time()
    worker = RangeWorker(game, channel, fmpq(lo), fmpq(hi), misere)
    for v in positions:
        worker.solve_position(v)
    return time.process_time() - start


def _remote_end(token):
    _remote_stop(token)
    _SENT.pop(token, None)


# --------------------------------------------------------------------------- driver side


class _Sent(NamedTuple):
    """The task a range worker is on."""

    index: int  # in the positions to solve
    lo: fmpq  # the range it was sent for (narrowed since if a steal took part of it)
    hi: fmpq
    at: float  # perf_counter when it was sent
    first: bool  # it starts the range (the range's first position: cold)


@dataclass(eq=False)
class _Range:
    """What the driver knows of one worker."""

    executor: object
    token: str
    lo: fmpq
    hi: fmpq
    next: int = 0  # index in the positions to solve of the next one to hand out
    future: object = None
    sent: _Sent | None = None  # the task in flight
    keep: tuple | None = None  # a narrowing the next task must do first
    last: float = 0.0  # CPU seconds a position is expected to take here, from the last one solved
    profile: list = field(default_factory=list)  # its [(p, seconds)] on the range
    cpu: float = 0.0  # CPU seconds of all its tasks
    end: float = 0.0  # wall seconds from the solve's start to its last result
    table: list = field(default_factory=list)  # the breakpoints its range worker has sent, in order


def estimate_cut(profile, lo: fmpq, hi: fmpq, share: float) -> fmpq:
    """A dyadic cut ``c`` in (lo, hi) with about ``share`` of the work in
    ``profile`` (``[(p, seconds)]``) above it; the middle when the profile is
    empty.  Balances work only.

    >>> str(estimate_cut([(fmpq(1, 8), 1.0), (fmpq(3, 4), 1.0), (fmpq(7, 8), 2.0)], fmpq(0), fmpq(1), 0.5))
    '13/16'
    """
    atoms = sorted((x, w) for x, w in profile if lo < x < hi and w > 0)
    total = sum(w for _, w in atoms)
    scale = 2**_CUT_BITS
    if total <= 0:
        c = (lo + hi) / 2
    else:
        target, acc, c = total * (1 - share), 0.0, None
        for j, (x, w) in enumerate(atoms):
            acc += w
            if acc >= target:
                nxt = atoms[j + 1][0] if j + 1 < len(atoms) else hi
                c = (x + nxt) / 2
                break
        c = atoms[-1][0] if c is None else c
    c = fmpq((c * scale).floor(), scale)
    return c if lo < c < hi else _dyadic_inside(lo, hi)


def solve_stealing(
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
    probe: bool = True,
) -> Solution:
    """Solve ``game`` on ``len(executors)`` p-ranges that run apart and steal
    work from each other (see the module docstring); the result is identical
    to :func:`symbolic_noise.solve`.

    ``executors`` are single-worker executors, one per worker.  ``known`` maps
    positions to values solved before on ``interval`` (handed out, not
    recomputed); ``store`` (``save(position, value)``) receives every position
    as soon as all its parts are in, in order.  ``probe``: place the first
    cuts by the probe (else equal ranges).  ``stats``, a dict if given,
    receives ``cpu`` (every worker's CPU seconds), ``ends`` (the wall seconds
    from the call to each worker's last result), ``steals``, ``stolen`` (per
    steal: the thief, the victim, the index of the position the victim was
    solving and the share of the rest meant for the thief) and ``tasks`` (per
    task: worker, position index, CPU seconds, and the wall seconds from the
    call to when it was sent and when its result was back).
    """
    begun = time.perf_counter()
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    order = game.positions(root)
    n = len(executors)
    if n < 1:
        raise ValueError("need at least one executor")
    known = {v: known[v] for v in order if v in (known or {})}
    cuts = split_interval(a, b, n)
    if probe and n > 1 and len(order) > 3:
        first = order[: len(order) // 3]
        # the workers warm up on the game's first few positions while it runs
        # (their tasks queue behind this one; a few, whatever ``known`` holds)
        for ex in executors:
            ex.submit(_remote_warm, game, channel, str(a), str(b), misere, order[:_WARM_UP])
        # (its progress counts on the whole solve's scale: the probe is a prefix)
        report = None if progress is None else (
            lambda p: progress(SolveProgress(p.done, len(order), p.current, p.fraction, p.elapsed))
        )
        probed = solve_positions(game, channel, (a, b), first, misere=misere, known=known, progress=report).values()
        cuts = balanced_cuts(probed, a, b, n)
        for v in first:
            if v not in known and store is not None and game.followers(v):
                store.save(v, probed[v])
            known[v] = probed[v]
    if len(cuts) < n:  # fewer distinct cuts than workers: the rest idle until they steal
        cuts = cuts + [None] * (n - len(cuts))
    todo = [v for v in order if v not in known]
    interner = Interner()  # the results share breakpoint objects, as the serial solve's do
    parts: list[list] = [[] for _ in todo]  # index -> [(lo, hi, value)]
    covered = [fmpq(0) for _ in todo]
    width = b - a
    done: dict = {v: interner.function(f) for v, f in known.items()}
    saved = 0
    tag = f"{os.getpid()}-{id(order)}-{time.time_ns()}"
    serial = [0]
    t0 = time.perf_counter()

    def fresh_token() -> str:
        serial[0] += 1
        return f"{tag}-{serial[0]}"

    def encoded_values(lo: fmpq, hi: fmpq, upto: int) -> list:
        """Every known position's and the first ``upto`` solved positions'
        values on [lo, hi], encoded for a worker (one stream)."""
        memo: dict = {}
        out = [(v, codec.encode(f.restrict(lo, hi), wire=True, memo=memo)) for v, f in known.items()]
        for i in range(upto):
            pieces = [(plo, f.restrict(max(lo, plo), min(hi, phi)))
                      for plo, phi, f in parts[i] if plo < hi and lo < phi]
            pieces.sort(key=lambda part: part[0])
            out.append((todo[i], codec.encode(stitch([f for _, f in pieces]), wire=True, memo=memo)))
        return out

    def send(r: _Range, first: tuple | None = None) -> None:
        i = r.next
        r.next += 1
        if first is None:
            r.future = r.executor.submit(_remote_step, r.token, [todo[i]], r.keep)
        else:
            r.future = r.executor.submit(_remote_begin, *first, [todo[i]])
        r.keep = None
        r.sent = _Sent(i, r.lo, r.hi, time.perf_counter(), first is not None)

    def receive(r: _Range) -> None:
        """Take ``r``'s finished task, hand it the next one at once (the value
        is decoded while the worker goes on), then keep the value."""
        cpu, profile, out = r.future.result()
        back = time.perf_counter()
        i, slo, shi, sent, first = r.sent
        r.future = r.sent = None
        if r.next < len(todo):
            send(r)
            time.sleep(_HAND_OFF)  # let the task go out before the decoding takes the GIL and a core
        value = interner.function(codec.decode(out[0], trusted=True, table=r.table))
        if (slo, shi) != (r.lo, r.hi):  # narrowed while it solved: keep only its part
            value = value.restrict(r.lo, r.hi)
        parts[i].append((r.lo, r.hi, value))
        covered[i] += r.hi - r.lo
        r.cpu, r.end = r.cpu + cpu, time.perf_counter() - begun
        r.profile = [(x, s) for x, s in profile if r.lo <= x <= r.hi]
        # what its next positions will cost, per position (for the next steal):
        # of a position solved over a range narrowed since, the part of its work
        # on what the range keeps (counted whole, a second steal soon after the
        # first overrated this range's work left); a range's first position
        # costs about _COLD warm ones
        full, per = sum(sec for _, sec in profile), cpu
        if (slo, shi) != (r.lo, r.hi) and full > 0:
            per *= sum(sec for _, sec in r.profile) / full
        r.last = per / _COLD if first else per
        if stats is not None:
            stats.setdefault("tasks", []).append((ranges.index(r), i, cpu, sent - begun, back - begun))
        if covered[i] == width:
            pieces = sorted(parts[i], key=lambda part: part[0])
            done[todo[i]] = stitch([f for _, _, f in pieces])

    def steal(thief: _Range) -> bool:
        """Give ``thief`` (idle) part of the busiest range; whether it got any."""
        # (not a range on its first position: its cost per position is not
        # known yet, and that position would be solved a third time; at nim 48
        # two ranges stole back and forth at position 30 three times)
        busy = [
            r for r in ranges
            if r is not thief and r.future is not None and len(todo) - r.next >= _MIN_AHEAD and not r.sent.first
        ]
        if not busy:
            return False
        victim = max(busy, key=lambda r: (len(todo) - r.next) * r.last)
        i = victim.sent.index  # the position the victim is solving now
        ahead = len(todo) - victim.next  # positions after it
        # the thief solves positions i..end on its part (i again, cold); the
        # victim the rest of position i on its whole range, then the later
        # positions on what it keeps: split the later ones so both end together
        elapsed = time.perf_counter() - victim.sent.at
        left_now = max(victim.last - elapsed, 0.0)
        # with s the thief's share: left_now + ahead (1 - s) last = COLD s last + ahead s last
        share = (left_now + ahead * victim.last) / ((_COLD + 2 * ahead) * victim.last) if victim.last > 0 else 0.5
        cut = estimate_cut(victim.profile, victim.lo, victim.hi, share)
        lo, hi = cut, victim.hi
        victim.hi, victim.keep = cut, (str(victim.lo), str(cut))
        given = encoded_values(lo, hi, i)
        old, thief.token = thief.token, fresh_token()
        thief.lo, thief.hi, thief.next, thief.profile, thief.table = lo, hi, i, [], []
        send(thief, (old, thief.token, game, channel, str(lo), str(hi), misere, given))
        if stats is not None:
            stats["steals"] = stats.get("steals", 0) + 1
            stats.setdefault("stolen", []).append((ranges.index(thief), ranges.index(victim), i, share))
        return True

    ranges = [
        _Range(ex, fresh_token(), *(cut if cut is not None else (a, a))) for ex, cut in zip(executors, cuts)
    ]
    try:
        for r in ranges:
            if todo and r.lo < r.hi:
                memo: dict = {}
                given = [(v, codec.encode(f.restrict(r.lo, r.hi), wire=True, memo=memo)) for v, f in known.items()]
                send(r, (None, r.token, game, channel, str(r.lo), str(r.hi), misere, given))
        while any(r.future is not None for r in ranges):
            finished, _ = wait([r.future for r in ranges if r.future is not None], return_when=FIRST_COMPLETED)
            for r in [r for r in ranges if r.future in finished]:
                receive(r)
            for r in ranges:
                if r.future is None:
                    steal(r)
            while saved < len(todo) and todo[saved] in done:
                if store is not None and game.followers(todo[saved]):
                    store.save(todo[saved], done[todo[saved]])
                saved += 1
                if progress is not None:
                    elapsed = time.perf_counter() - t0
                    progress(SolveProgress(len(known) + saved, len(order), todo[saved - 1], 1.0, elapsed))
    finally:
        for r in ranges:
            try:
                r.executor.submit(_remote_end, r.token)
            except RuntimeError:  # already shut down
                pass
    if stats is not None:
        stats["cpu"] = [r.cpu for r in ranges]
        stats["ends"] = [r.end for r in ranges]
    return Solution(game, channel, (a, b), {v: done[v] for v in order}, root, misere)


__all__ = ["estimate_cut", "solve_stealing"]
