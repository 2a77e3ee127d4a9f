"""A worker that solves every position on its own range of p, keeping its
cells between positions: the unit of the ``--split p`` and ``--split
positions`` schedules.

A worker is a single-process executor (``submit``/``result``), so that a
:class:`RangeWorker`'s state can live in the process: ``ProcessPoolExecutor(1)``
locally, or a Dask client's ``get_executor(workers=[address], ...)`` pinned to
one worker of a cluster.  The module-level ``_remote_*`` functions are what a
driver submits; they find the worker by its token.  A range can shrink (the
part given up is handed on as exact JSON, :mod:`symbolic_noise.solvers.storage.codec`)
or grow by values solved elsewhere; the solver's per-cell caches stay valid on
the part kept.

"""

from __future__ import annotations

import os
import time
from typing import Callable

from flint import ctx as flint_ctx
from flint import fmpq

from ..storage import codec
from ..piecewise import symmetry
from ...errors import WorkerLostError
from ...exact.piecewise import PiecewiseFunction
from ...exact.interning import Interner
from ...games.channels import Channel
from ...games.rulesets import Game
from ..piecewise.cells import _Cells
from ..piecewise.collector import fewer_collections
from ..piecewise.followers import _Position
from ..piecewise.position import _PositionSolver
from .cuts import stitch

#: cuts are dyadic rationals with this many bits (short numbers keep the cells
#: next to a cut cheap; where exactly a cut falls does not matter)
_CUT_BITS = 20


# --------------------------------------------------------------------------- worker side


class RangeWorker:
    """The part of a solve that one worker owns: every position's value on the
    range [lo, hi], and the solver's caches for that range.  With
    ``profiling`` (the split by p-ranges) it records where along
    p its CPU went, for :meth:`take_profile`.

    >>> from symbolic_noise import Nim, get_channel
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
        self.values: dict = {}  #: the value on [lo, hi] of every position solved here and not forgotten
        self.cells = _Cells(self.lo, self.hi)
        self.norm: dict = {}  #: the normalised pairs kept for the pieces solved here (see :meth:`forget`)
        self.profile: list = []  #: (p, CPU seconds) of the pieces solved since the last :meth:`take_profile`
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


def _remote_stop(token):
    _WORKERS.pop(token, None)


def _dyadic_inside(lo: fmpq, hi: fmpq) -> fmpq:
    """A short dyadic rational strictly between ``lo < hi``."""
    bits = 1
    while True:
        scale = 2**bits
        c = fmpq((lo * scale).floor() + 1, scale)
        if c < hi:
            return c
        bits += 1
