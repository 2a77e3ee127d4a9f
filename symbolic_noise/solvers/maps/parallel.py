"""One map shared between workers (``map --jobs N``, ``map --dask ADDRESS``).

:func:`build_map_parallel` deals the boxes of :func:`~symbolic_noise.solvers.maps.build.build_map`'s
sweep out to workers, single-process executors (``submit``/``result``) as the
exact solver's parallel schedules use them
(:mod:`symbolic_noise.solvers.schedules`): ``ProcessPoolExecutor(1)`` locally,
or a Dask client's executor pinned to one worker.  Each worker keeps one
engine for the whole map (the game laid out once, its caches of point
enclosures, tie points and series).

The interval is first cut into boxes by the sweep's own rule (the simplest
rational of each box's middle third: 1/2, then 1/3 and 2/3, ...), a few
levels deep, many more boxes than workers; a tie point such as p = 1/2 is
then a box end, where the one-sided proof works.  A task is a run of
boxes, neighbours in p, and a *slice* of the box budget: the worker sweeps
them as the serial engine does, splitting what it cannot settle, and stops
between blocks once it has enclosed its slice; the boxes it has not settled
go back to the driver's queue, and the next idle worker takes them.  The
work next to a tie point is thus shared however it falls (``map nim 64``
spent 72 % of its CPU within 1/16 of p = 1/2, with the uncompiled screen).  Slices are sized to about
:data:`TASK_SECONDS` of CPU each, from the boxes' cost so far.

Past the first cuts, boxes are split, proved and recorded as the serial
sweep does it; the driver sorts all the records and merges them with the serial
:func:`~symbolic_noise.solvers.maps.build._assemble`, so that a change at the end of two boxes
solved apart (p = 1/2 of binary Nim) is one change interval, as in a serial
run.  Where work is dealt decides nothing.

The budget is shared as a pool: a task's slice is taken from what is left,
less the slices of the tasks running; a worker is told what is left of the
whole budget besides the others' slices, and settles its boxes as
undecided only once that is spent (as the serial sweep does at its budget).
When the pool is empty, the boxes still queued are undecided.  Like the serial
sweep, a worker finishes the block it is on, so the boxes enclosed can
exceed the budget by about one block's proofs per worker.

>>> from concurrent.futures import ThreadPoolExecutor
>>> from symbolic_noise.games.rulesets import Nim
>>> from symbolic_noise.solvers.maps import build_map
>>> pools = [ThreadPoolExecutor(1), ThreadPoolExecutor(1)]
>>> m = build_map_parallel(Nim(3), "binary", width="1/1024", executors=pools)
>>> [(iv.kind, iv.point) for iv in m.intervals] == [(iv.kind, iv.point) for iv in
...     build_map(Nim(3), "binary", width="1/1024").intervals]
True
>>> for pool in pools:
...     pool.shutdown()
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, wait
from contextlib import contextmanager

from flint import ctx, fmpq

from .build import BLOCK, _arguments, _assemble, _band, _Engine, build_map, simplest_between
from .result import Map

#: CPU seconds a task is meant to take (a worker that runs out of boxes waits
#: at most about this long for the others to hand theirs back; balance only)
TASK_SECONDS = 0.5
#: the smallest slice, also the first tasks' (before the boxes' cost is
#: known): one block, what the sweep screens at once.  (With the uncompiled
#: binary64 screen, whose cost per block was mostly fixed, slices of a few
#: boxes made ``map chomp 6x6`` take 3.3 times the CPU.)
MIN_SLICE = BLOCK
#: the interval is first cut into at least this many boxes per worker
BOXES_PER_WORKER = 8


# --------------------------------------------------------------------------- worker side


_ENGINES: dict = {}
_PRECISION = threading.Lock()
#: tasks running in this process, and FLINT's precision before the first
_USERS = [0, 0]


@contextmanager
def _precision(prec: int):
    """FLINT's precision at least ``prec`` while a task runs (tasks of
    threads in one process share it: the last one out restores it)."""
    with _PRECISION:
        if _USERS[0] == 0:
            _USERS[1] = ctx.prec
        _USERS[0] += 1
        ctx.prec = max(prec, 64)
    try:
        yield
    finally:
        with _PRECISION:
            _USERS[0] -= 1
            if _USERS[0] == 0:
                ctx.prec = _USERS[1]


def _remote_sweep(token, setup, boxes, slice_, allowance):
    """Sweep ``boxes`` on the worker's engine ``token`` (made from ``setup`` on
    its first task): stop between blocks after ``slice_`` boxes, settle boxes
    as undecided only past ``allowance``.  Returns the records, the proofs,
    the boxes not settled, the boxes enclosed, the series computed and the
    CPU seconds."""
    start = time.process_time()
    engine = _ENGINES.get(token)
    game, channel, root, interval, misere, width, min_width, prec, kind = setup
    with _precision(prec):
        if engine is None:
            if kind == "float":
                from ..boxes.floatbox import check_float_environment

                check_float_environment()  # (in this process)
            engine = _ENGINES[token] = _Engine(game, channel, root, interval, misere, width, min_width, 0)
            engine.engine = kind
        boxes0, series0 = engine.boxes, len(engine.exact)
        engine.budget = boxes0 + allowance
        engine.proofs = []
        queue = deque(boxes)
        records = engine.sweep(queue, until=boxes0 + slice_)
    used = engine.boxes - boxes0
    return records, engine.proofs, list(queue), used, len(engine.exact) - series0, time.process_time() - start


def _remote_end(token):
    _ENGINES.pop(token, None)


# --------------------------------------------------------------------------- driver side


def first_boxes(a, b, count: int) -> list:
    """``[a, b]`` cut by the sweep's rule (the simplest rational of each box's
    middle third), level by level, into at least ``count`` boxes.

    >>> [str(x) for x, _ in first_boxes(fmpq(0), fmpq(1), 4)] + ["1"]
    ['0', '1/3', '1/2', '2/3', '1']
    """
    boxes = [(fmpq(a), fmpq(b))]
    while len(boxes) < count:
        nxt = []
        for lo, hi in boxes:
            third = (hi - lo) / 3
            c = simplest_between(lo + third, hi - third)
            nxt += [(lo, c), (c, hi)]
        boxes = nxt
    return boxes


def build_map_parallel(game, channel, start=None, interval=(0, 1), width="2^-40", misere: bool = False, *,
                       executors: list, budget: int = 20000, min_width=None, prec: int = 128,
                       engine: str = "float", progress=None, stats: dict | None = None) -> Map:
    """:func:`~symbolic_noise.solvers.maps.build.build_map` on ``executors``
    (single-process executors, one per worker; the module docstring tells
    how the work and the budget are shared).  The arguments are
    :func:`build_map`'s; the map's ``stats`` also count the ``workers`` and
    the ``tasks``.  ``stats``, a dict if given, receives per task the worker,
    the boxes given and enclosed, the CPU seconds, and the wall seconds from
    the call to when it was sent and when its result was back."""
    begun = time.perf_counter()
    n = len(executors)
    if n < 1:
        raise ValueError("need at least one executor")
    channel, root, (a, b), width, min_width = _arguments(game, channel, start, interval, width, budget, min_width,
                                                         engine)
    if not game.followers(root):  # a terminal start: nothing to share
        return build_map(game, channel, root, (a, b), width, misere, budget=budget, min_width=min_width, prec=prec,
                         engine=engine, progress=progress)
    setup = (game, channel, root, (a, b), misere, width, min_width, prec, engine)
    tag = f"{os.getpid()}-{time.time_ns()}"
    tokens = [f"{tag}-{i}" for i in range(n)]
    pending = first_boxes(a, b, BOXES_PER_WORKER * n)
    records: list = []
    proofs: list = []
    running: dict = {}  # future -> (worker index, slice, boxes given, when sent)
    idle = list(range(n))
    used = series = tasks = 0
    cpu = 0.0
    settled = 0
    try:
        while True:
            while idle and pending:
                reserved = sum(task[1] for task in running.values())
                left = budget - used - reserved
                if left < 1:
                    break
                size = MIN_SLICE if used == 0 or cpu <= 0 else int(TASK_SECONDS * used / cpu)
                slice_ = min(max(size, MIN_SLICE), left)
                # a run of neighbouring boxes, an even share of the queue
                k = min(len(pending), -(-len(pending) // n), slice_)
                run, pending = pending[:k], pending[k:]
                w = idle.pop(0)
                future = executors[w].submit(_remote_sweep, tokens[w], setup, run, slice_, left)
                running[future] = (w, slice_, k, time.perf_counter() - begun)
            if not running:
                break
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in finished:
                w, _, given, sent = running.pop(future)
                recs, prf, back, boxes, new_series, seconds = future.result()
                if stats is not None:
                    stats.setdefault("tasks", []).append((w, given, boxes, seconds, sent, time.perf_counter() - begun))
                idle.append(w)
                records += recs
                proofs += prf
                used += boxes
                series += new_series
                cpu += seconds
                tasks += 1
                if back:
                    pending = sorted(pending + back, key=lambda box: box[0])
                if progress is not None:
                    settled += sum(r[2] - r[1] for r in recs)
                    progress(int(1000 * settled / (b - a)), 1000)
        records += [("undecided", lo, hi) for lo, hi in pending]  # the budget is spent
    finally:
        for ex, token in zip(executors, tokens):
            try:
                ex.submit(_remote_end, token)
            except RuntimeError:  # already shut down
                pass
    if pending and progress is not None:
        progress(1000, 1000)
    records.sort(key=lambda r: (r[1], r[2]))
    proofs.sort(key=lambda r: (r[1], r[2]))
    stats = {"boxes": used, "series": series, "workers": n, "tasks": tasks}
    return Map(game, channel, root, (a, b), misere, width, _assemble(records, width), stats, _band(records), proofs)


__all__ = ["build_map_parallel", "first_boxes"]
