"""Nim-sequences of octal games at record scale: the rare/common split.

This module's one job is to compute ``G(0), G(1), ...`` of an octal game fast
enough to reach its period and prove it (the values of Grundy's game too, for
which no periodicity theorem is known).

The method is Gangolli and Plambeck's (1989), as Flammenkamp's "sparse space"
and tczajka/octal-games use it.  A linear form ``f(x) = parity(x & mask)``
(optionally XOR the parity of the heap, when every split takes a number of
chips of one parity ``q``: then ``a + b`` has the parity of ``n - q``) splits
nim-values into *rare* (``f = 0``) and *common* ones.  Being linear, ``f`` makes
rare ^ rare and common ^ common rare, and rare ^ common common.  So the common
values among the options of ``n`` all come from splits with a rare part: a pass
over the few rare heaps finds them, and with them the least common value not
excluded (the *common candidate*).  Only if a rare value below it is still
not excluded must the splits be scanned (after trying the splits that gave
that value at the last 8 heaps), and the scan stops as soon as none is left.  If the mex turns out rare, the mask is chosen afresh: the one with the
fewest rare heaps, read off a Walsh–Hadamard transform of the value counts.

The periodicity theorem (Winning Ways ch. 4, :func:`~.classical.theorem_end`)
is checked online, at powers of two and at the heap a candidate period needs;
the run stops as soon as it holds.  The kernels are compiled by numba when it
is installed; without it they run as plain Python (slowly, but the same code).

Examples
--------
>>> rare_sequence("0.77", 11)                      # Kayles
(0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6)
>>> run = prove_period("0.137")                    # Dawson's chess
>>> run.periodicity.preperiod, run.periodicity.period, run.periodicity.proven
(52, 34, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import GameParameterError, HeapCapError, SymbolicNoiseError
from .heapgames import GrundyRules, HeapRules, OctalRules, heap_rules_from_spec

try:  # the inner loops; the same functions run uncompiled without numba
    from numba import njit as _njit

    def _compiled(fn):
        return _njit(cache=True, nogil=True)(fn)

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - numba is a dependency

    def _compiled(fn):
        fn.py_func = fn
        return fn

    HAVE_NUMBA = False


#: the default cap on heap sizes (values take 2 bytes each, the run about 6 bytes a heap at the peak, 400 MB)
DEFAULT_MAX_HEAP = 1 << 26

# kernel state slots (an int64 array, so that one call can resume another)
_MASK, _POS, _BITS, _NRARE, _RPB, _RECOMPUTE, _NSCANS, _NRECOMP, _NSTEPS = range(9)
# kernel return codes
_DONE, _GROW, _WIDEN = 0, 1, 2
#: heaps back whose witnesses are tried (a power of two)
_W = 8


# --------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class Moves:
    """An octal game's moves by the chips ``k`` they take: ``whole`` (take the
    heap of exactly ``k``), ``take`` (leave one non-empty heap), ``split``
    (leave two non-empty heaps; ``equal_ok`` False forbids equal ones, as in
    Grundy's game)."""

    whole: tuple  #: the ``k`` for which a heap of exactly ``k`` may be taken away
    take: tuple  #: the ``k`` that may be taken leaving one non-empty heap
    split: tuple  #: the ``k`` that may be taken leaving two non-empty heaps
    equal_ok: bool = True  #: whether the two heaps left by a split may be equal

    @property
    def max_removal(self) -> int:
        """The most chips one move takes (0 for a game without moves)."""
        return max(self.whole + self.take + self.split, default=0)

    @property
    def position_parity(self) -> int:
        """``q`` if every split takes ``k = q`` (mod 2), else 2 (no heap-parity bit)."""
        parities = {k & 1 for k in self.split}
        return parities.pop() if len(parities) == 1 else (0 if not parities else 2)


def moves_of(game_or_rules) -> Moves:
    """The :class:`Moves` of an octal code or Grundy's game.

    >>> moves_of("0.137")
    Moves(whole=(1, 2, 3), take=(2, 3), split=(3,), equal_ok=True)
    >>> moves_of("grundy").equal_ok
    False
    """
    rules = heap_rules_from_spec(game_or_rules)
    if isinstance(rules, GrundyRules):
        return Moves((), (), (0,), False)
    if isinstance(rules, OctalRules) and rules.max_heaps <= 2:
        ds = rules.digits
        return Moves(
            tuple(k for k, d in enumerate(ds) if d & 1),
            tuple(k for k, d in enumerate(ds) if d & 2),
            tuple(k for k, d in enumerate(ds) if d & 4),
        )
    raise GameParameterError(
        f"the rare-value engine computes octal games and Grundy's game, not {rules.describe()}"
        " (its values by the reference path: grundy GAME --upto N --period)"
    )


def supports(game_or_rules) -> bool:
    """Whether :func:`moves_of` accepts the ruleset.

    >>> supports("kayles"), supports("lasker"), supports("hex:0.8")
    (True, False, False)
    """
    try:
        moves_of(game_or_rules)
    except (GameParameterError, SymbolicNoiseError):
        return False
    return True


# --------------------------------------------------------------------------- the kernels


@_compiled
def _choose_mask(G, n, counts, st, rare, par):
    """Pick the mask with the fewest rare heaps among ``G[0:n]`` (a Walsh–Hadamard
    transform of ``counts``) and list the rare heaps; False if ``rare`` is too small."""
    bits = st[_BITS]
    rpb = st[_RPB]
    size = 2 << bits
    h = counts[:size].copy()
    step = 1
    while step < size:
        for i in range(0, size, 2 * step):
            for j in range(i, i + step):
                a = h[j]
                b = h[j + step]
                h[j] = a + b
                h[j + step] = a - b
        step *= 2
    best = 0
    bestval = (h[0] + n) >> 1
    for i in range(1, size):
        if rpb == 2 and (i & 1) == 1:
            continue
        val = (h[i] + n) >> 1
        if val < bestval:
            best = i
            bestval = val
    if bestval > rare.shape[0]:
        return False
    mask = best >> 1
    pos = best & 1
    st[_MASK] = mask
    st[_POS] = pos
    for v in range(1 << bits):
        x = v & mask
        p = 0
        while x:
            p ^= 1
            x &= x - 1
        par[v] = p
    k = 0
    for i in range(n):
        flip = pos & ((i ^ rpb) & 1)
        if par[G[i]] == flip:
            rare[k] = i
            k += 1
    st[_NRARE] = k
    st[_RECOMPUTE] = 0
    st[_NRECOMP] += 1
    return True


@_compiled
def _advance(G, n, stop, whole, take, split, equal_ok, counts, st, rare, par, seen, wit, vmax):
    """Compute ``G[n:stop]``; return (code, next n).  ``code`` is ``_DONE``, or
    ``_GROW`` (the rare list needs room) or ``_WIDEN`` (a value reached ``vmax``).

    ``wit[v, n % _W]`` is a split ``(a << 5) | index of k`` that gave the rare
    value ``v`` at heap ``n``: in a stretch with period dividing ``_W`` the same
    split gives it again, so it is tried (and checked) before any scan."""
    rpb = st[_RPB]
    while True:
        if st[_RECOMPUTE] != 0:
            if not _choose_mask(G, n, counts, st, rare, par):
                return _GROW, n
        if n >= stop:
            return _DONE, n
        bits = st[_BITS]
        pos = st[_POS]
        nrare = st[_NRARE]
        flip = pos & ((n ^ rpb) & 1)  # rare at n: par[v] == flip
        for k in whole:
            if k == n:
                seen[0] = n
        for k in take:
            if k < n:
                seen[G[n - k]] = n
        for k in split:
            for j in range(nrare):
                r = rare[j]
                if r >= 1 and r + k < n:
                    r2 = n - r - k
                    if equal_ok or r != r2:
                        seen[G[r] ^ G[r2]] = n
        top = 1 << bits
        cand = top
        for v in range(top):
            if seen[v] != n and par[v] != flip:
                cand = v
                break
        left = 0
        for v in range(cand):
            if seen[v] != n and par[v] == flip:
                left += 1
        slot = n & (_W - 1)
        if left > 0:  # first the splits that gave an open value at the last _W heaps
            for v in range(cand):
                if seen[v] == n or par[v] != flip:
                    continue
                for d in range(1, _W + 1):
                    w = wit[v, (n - d) & (_W - 1)]
                    if w < 0:
                        continue
                    a = w >> 5
                    b = n - split[w & 31] - a
                    if b >= a and (equal_ok or a != b) and (G[a] ^ G[b]) == v:
                        seen[v] = n
                        wit[v, slot] = w
                        left -= 1
                        break
        if left > 0:
            st[_NSCANS] += 1
            for ki in range(split.shape[0]):
                k = split[ki]
                a = 1
                while left > 0 and 2 * a + k <= n:
                    b = n - k - a
                    if equal_ok or a != b:
                        v = G[a] ^ G[b]
                        if v < cand and seen[v] != n:  # (below cand only rare values are open)
                            seen[v] = n
                            wit[v, slot] = (a << 5) | ki
                            left -= 1
                    a += 1
                st[_NSTEPS] += a - 1
            if left > 0:
                v = 0
                while seen[v] == n or par[v] != flip:
                    v += 1
                cand = v
                st[_RECOMPUTE] = 1
        if cand >= vmax:
            return _WIDEN, n
        if cand >= top:
            st[_BITS] = bits + 1
            st[_RECOMPUTE] = 1
        G[n] = cand
        counts[(cand << 1) | ((n ^ rpb) & 1)] += 1
        n += 1


@_compiled
def _best_period(G, n, lo):
    """The ``(start, p)`` with ``G[x + p] == G[x]`` for ``start <= x < n - p`` that
    minimises ``max(start, lo) + p`` (the periodicity theorem's need), least ``p``
    on ties; ``(-1, -1)`` if ``n < 2``."""
    best_s = -1
    best_p = -1
    best_key = 1 << 62
    p0 = 0  # a period of the tail, whose multiples skip its stretch
    s0 = 0
    p = 1
    while p < n and p < best_key:
        s = n - p
        if p0 > 0 and p % p0 == 0 and s0 < s:
            s = s0  # G[x] == G[x + p] on [s0, n - p) by the period p0
        while s > 0 and G[s - 1] == G[s - 1 + p]:
            s -= 1
        key = max(s, lo) + p
        if key < best_key:
            best_key = key
            best_s = s
            best_p = p
        if p0 == 0 and n - s >= 2 * p + 32:
            p0 = p
            s0 = s
        p += 1
    return best_s, best_p


@_compiled
def _last_mismatch_below(G, hi, d):
    """The largest ``x < hi`` with ``G[x] != G[x + d]``, or -1."""
    x = hi - 1
    while x >= 0 and G[x] == G[x + d]:
        x -= 1
    return x


# --------------------------------------------------------------------------- the engine


def words_sha256(values) -> str:
    """The SHA-256 of values as little-endian 32-bit words, hashed a block at a time.

    >>> words_sha256([0, 1]) == hashlib.sha256(bytes([0, 0, 0, 0, 1, 0, 0, 0])).hexdigest()
    True
    """
    values = np.asarray(values)
    h = hashlib.sha256()
    for i in range(0, values.shape[0], 1 << 20):
        h.update(values[i : i + (1 << 20)].astype("<u4").tobytes())
    return h.hexdigest()


@dataclass(frozen=True)
class RareRun:
    """One run of the engine: the values ``G(0..heaps-1)``, the periodicity it
    proved (``None`` if it stopped at a fixed heap), and its statistics."""

    game: str  #: the ruleset's key, e.g. ``octal:0.16``
    values: np.ndarray  #: ``G(0..heaps-1)``, unsigned integers
    periodicity: object  #: a :class:`~.classical.Periodicity` or ``None``
    mask: int  #: the last rare mask (bits of the value)
    position_bit: bool  #: whether the heap's parity is part of the split
    rare_count: int  #: rare heaps at the end
    scans: int  #: heaps whose mex needed a scan of the splits (stopped once no rare value was open)
    remasks: int  #: times the mask was chosen
    scan_steps: int = 0  #: splits looked at by those scans

    @property
    def heaps(self) -> int:
        """How many values were computed, ``G(0..heaps-1)``."""
        return int(self.values.shape[0])

    def sha256(self, upto: int | None = None) -> str:
        """The SHA-256 of ``G(0..upto)`` as little-endian 32-bit words (all values by default)."""
        return words_sha256(self.values if upto is None else self.values[: upto + 1])


class _Engine:
    """The state of one run, resumable chunk by chunk."""

    def __init__(self, moves: Moves, capacity: int):
        self.moves = moves
        self.whole = np.array(moves.whole, dtype=np.int64)
        self.take = np.array(moves.take, dtype=np.int64)
        self.split = np.array(moves.split, dtype=np.int64)
        self.G = np.zeros(max(capacity, 1), dtype=np.uint16)
        self.vmax = 1 << 16
        self.counts = np.zeros(2 << 17, dtype=np.int64)
        self.par = np.zeros(1 << 17, dtype=np.uint8)
        self.seen = np.full(1 << 17, -1, dtype=np.int64)
        self.wit = np.full((1 << 17, _W), -1, dtype=np.int64)
        self.rare = np.zeros(1024, dtype=np.int64)
        self.st = np.zeros(9, dtype=np.int64)
        self.st[_RPB] = moves.position_parity
        self.st[_RECOMPUTE] = 1
        self.n = 0

    def load(self, values) -> None:
        """Start from known values ``G(0..len(values)-1)`` (a resumed run): the
        counts are rebuilt and the mask chosen afresh."""
        values = np.asarray(values)
        n = int(values.shape[0])
        top = int(values.max()) if n else 0
        if top >= self.vmax:
            self.widen()
        self.grow(n)
        self.G[:n] = values
        parity = (np.arange(n) ^ self.st[_RPB]) & 1
        np.add.at(self.counts, (values.astype(np.int64) << 1) | parity, 1)
        self.st[_BITS] = top.bit_length()
        self.st[_RECOMPUTE] = 1
        self.n = n

    def widen(self) -> None:
        """Values beyond 16 bits: 32-bit storage, the tables to 2^20 values."""
        if self.vmax >= 1 << 20:
            raise GameParameterError("nim-values beyond 2^20: the rare-value engine stops here")
        self.G = self.G.astype(np.uint32)
        self.vmax = 1 << 20
        for name, fill in (("counts", 0), ("par", 0), ("seen", -1)):
            old = getattr(self, name)
            new = np.full((2 if name == "counts" else 1) << 21, fill, dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)
        self.wit = np.full((1 << 21, _W), -1, dtype=np.int64)

    def grow(self, capacity: int) -> None:
        if capacity > self.G.shape[0]:
            G = np.zeros(capacity, dtype=self.G.dtype)
            G[: self.n] = self.G[: self.n]
            self.G = G

    def run(self, stop: int, limit: int = 0) -> None:
        """Compute up to heap ``stop - 1``; storage grows by doubling, up to ``limit`` heaps."""
        if stop > self.G.shape[0]:
            self.grow(max(stop, min(2 * self.G.shape[0], limit)))
        while True:
            code, self.n = _advance(
                self.G, self.n, stop, self.whole, self.take, self.split, self.moves.equal_ok,
                self.counts, self.st, self.rare, self.par, self.seen, self.wit, self.vmax,
            )
            if code == _DONE:
                return
            if code == _GROW:
                self.rare = np.zeros(2 * self.rare.shape[0], dtype=np.int64)
            else:
                self.widen()

    def result(self, game: str, periodicity) -> RareRun:
        st = self.st
        return RareRun(
            game, self.G[: self.n].copy(), periodicity, int(st[_MASK]), bool(st[_POS]),
            int(st[_NRARE]), int(st[_NSCANS]), int(st[_NRECOMP]), int(st[_NSTEPS]),
        )


def rare_sequence(game_or_rules, n: int, *, progress: Callable | None = None, chunk: int = 1 << 16) -> tuple:
    """``G(0..n)`` by the rare/common split (the same values as
    :func:`~.classical.nim_sequence`, in time about ``n`` times the rare count);
    ``progress(largest heap done, rare count)`` is called every ``chunk`` heaps.

    >>> rare_sequence("0.137", 19)
    (0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3)
    >>> rare_sequence("grundy", 12)
    (0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise GameParameterError(f"the largest heap must be a non-negative integer, not {n!r}")
    eng = _Engine(moves_of(game_or_rules), n + 1)
    while eng.n < n + 1:
        eng.run(n + 1 if progress is None else min(n + 1, eng.n + chunk))
        if progress is not None:
            progress(eng.n - 1, int(eng.st[_NRARE]))
    return tuple(eng.G[: n + 1].tolist())


def _theorem(moves: Moves):
    from .classical import theorem_end

    heaps = 2 if moves.split else 1
    return heaps, (lambda i, p: theorem_end(i, p, moves.max_removal, heaps))


def least_period(values, start: int, period: int) -> tuple:
    """Given ``G(x + period) = G(x)`` for every ``x >= start`` (proved), the least
    period and its preperiod, read off ``values`` (which must reach
    ``start + 2 * period``): the least period divides ``period``.

    >>> least_period([5, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], 1, 4)
    (1, 2)
    """
    G = np.asarray(values)
    for d in range(1, period + 1):
        if period % d:
            continue
        x = int(_last_mismatch_below(G, start + period, d))
        if x < start:
            return x + 1, d
    raise AssertionError("unreachable: the period itself has no mismatch")


def prove_period(
    game_or_rules,
    *,
    max_heap: int = DEFAULT_MAX_HEAP,
    progress: Callable | None = None,
    chunk: int = 1 << 20,
    resume=None,
    on_chunk: Callable | None = None,
) -> RareRun:
    """Compute ``G(0), G(1), ...`` until the periodicity theorem proves a period.

    The period is looked for at powers of two and at the heap a candidate
    needs; every ``chunk`` heaps ``progress(heap, rare_count, (preperiod,
    period) or None)`` is called if given.  Raises :class:`HeapCapError` past
    ``max_heap``.  The returned period is the least one, with its preperiod;
    the claim is re-checked on the values with numpy before it is returned.
    ``resume`` (values ``G(0..m-1)`` of an earlier run, trusted as they are)
    starts at heap ``m``; ``on_chunk(values)`` sees the values computed so far
    after every chunk (to save a checkpoint).

    >>> p = prove_period("0.77").periodicity          # Kayles
    >>> p.preperiod, p.period, p.needed
    (71, 12, 167)
    """
    from .classical import Periodicity

    rules = heap_rules_from_spec(game_or_rules)
    moves = moves_of(rules)
    if not moves.equal_ok:  # (a, b - P) may be an equal split where (a, b) was not
        raise GameParameterError(f"no periodicity theorem covers {rules.describe()}: its splits must be unequal")
    heaps, need = _theorem(moves)
    lo = 1 if heaps >= 2 else 0
    eng = _Engine(moves, min(max_heap + 1, 1 << 16))
    if resume is not None:
        eng.load(resume)
    check = max(2, eng.n)
    candidate = None
    proved = False
    while not proved:
        eng.run(min(check, eng.n + chunk, max_heap + 1), max_heap + 1)
        if eng.n == check or eng.n > max_heap:
            s, p = (int(x) for x in _best_period(eng.G, eng.n, lo))
            if p > 0:
                needed = need(s, p)
                candidate = (s, p)
                proved = needed <= eng.n - 1
                check = min(1 << eng.n.bit_length(), needed + 1)
            else:
                check = 2 * eng.n
        if on_chunk is not None and not proved:
            on_chunk(eng.G[: eng.n])
        if progress is not None:
            progress(eng.n, int(eng.st[_NRARE]), candidate)
        if eng.n > max_heap and not proved:
            raise HeapCapError(
                f"no period of {rules.key()} proved through heap {max_heap:,}"
                + (f" (candidate period {candidate[1]} from {candidate[0]})" if candidate else "")
                + ": raise the heap cap"
            )
    s, p = least_period(eng.G[: eng.n], s, p)
    needed = need(s, p)
    G = eng.G[: eng.n]
    # numbers propose, the check decides: the stretch the theorem needs, compared afresh
    if not (needed <= eng.n - 1 and np.array_equal(G[s : needed + 1 - p], G[s + p : needed + 1])):
        raise AssertionError(f"period {p} from {s} of {rules.key()} failed its re-check")
    return eng.result(rules.key(), Periodicity(s, p, True, eng.n - 1, needed))
