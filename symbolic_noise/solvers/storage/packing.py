"""Finished values held packed past a memory budget.

A long solve's memory is mostly its finished values' formulas (nim 128:
2.45 GB estimated of 3.06 GB): every later position reads them, but only a
part of their pieces on each position.  Past :data:`VALUES_BUDGET` a solve
packs its oldest values (:meth:`RationalFunction.pack`: the polynomials kept
as bytes, a quarter to a third of FLINT's memory for them); the solver's caches
name a follower's piece by its RationalFunction, not by its polynomials, so a
packed value frees them, and :class:`Unpacked` unpacks a piece where a
position uses it.  The values, breakpoints and optimal sets are the same
packed or not (tests/test_packing.py).
"""

from __future__ import annotations

from collections import OrderedDict, deque

from ...exact import polys
from ...exact.piecewise import PiecewiseFunction
from ...exact.ratfunc import RationalFunction

#: bytes (estimated, :meth:`RationalFunction.bytes_estimate`) the values a
#: solve made may keep as FLINT polynomials; past it the oldest are packed
#: (:meth:`RationalFunction.pack`: the same functions in a quarter to a third of
#: the memory, unpacked piece by piece where a later position uses them).
#: Nim 64's values come to about 160 MB and are not touched; nim 96's to
#: about 0.9 GB and nim 128's to about 2.5 GB (``benchmarks/memory_breakdown.py``)
VALUES_BUDGET = 2**29
#: bytes (estimated) of packed formulas kept unpacked after use, the most
#: recently used first: half of nim 64's unpackings (every value packed)
#: were of a piece the position before had unpacked
UNPACKED_BUDGET = 2**27


class Unpacked:
    """Packed formulas unpacked for the sweep, kept after use up to
    :data:`UNPACKED_BUDGET` bytes (estimated), least recently used first out."""

    def __init__(self):
        self._pairs: OrderedDict = OrderedDict()  # (id(rf), neg) -> (rf, num, den, bytes)
        self.bytes = 0

    def get(self, rf: RationalFunction, neg: bool) -> tuple:
        """``(num, den)`` of packed ``rf``, both negated if ``neg``."""
        key = (id(rf), neg)
        got = self._pairs.get(key)
        if got is not None and got[0] is rf:  # (held: the id is rf's)
            self._pairs.move_to_end(key)
            return got[1], got[2]
        n, d = rf.num, rf.den
        if neg:
            n, d = -n, -d
        size = polys.bytes_estimate(n.degree(), n.height_bits()) + polys.bytes_estimate(d.degree(), d.height_bits())
        self._pairs[key] = (rf, n, d, size)
        self.bytes += size
        while self.bytes > UNPACKED_BUDGET and self._pairs:
            self.bytes -= self._pairs.popitem(last=False)[1][3]
        return n, d


class HeldValues:
    """The values a solve made, oldest first, that keep their polynomials in
    FLINT: past :data:`VALUES_BUDGET` (read at each addition) the oldest are
    packed.  Followers' formulas are named in the solver's caches by the
    RationalFunction (:class:`symbolic_noise.solvers.piecewise.followers._Follower`), so a
    packed value frees its memory."""

    def __init__(self):
        self._values: deque = deque()  # (value, its estimated bytes)
        self.bytes = 0

    def add(self, value: PiecewiseFunction) -> None:
        """Hold a new value; past :data:`VALUES_BUDGET`, pack the oldest values until under it."""
        size = sum(f.bytes_estimate() for f in {id(f): f for f in value.formulas}.values() if not f.packed)
        self._values.append((value, size))
        self.bytes += size
        while self.bytes > VALUES_BUDGET and self._values:
            old, size = self._values.popleft()
            self.bytes -= size
            for f in old.formulas:
                f.pack()
