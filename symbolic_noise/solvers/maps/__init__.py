"""Certified maps of the whole range of p, for any game and channel.

A map of the start position over [a, b] (theory.md section 8) is a cover by
proved intervals (the optimal-move set, proved, with an enclosure of N),
change intervals (exactly one change of the set inside, with the sets either
side) and undecided intervals (the budget ran out).  Rooms:

* :mod:`~symbolic_noise.solvers.maps.structure` -- the positions, followers and psi laid out once, and the
  start's proved tie classes (equal rows, respected symmetries);
* :mod:`~symbolic_noise.solvers.maps.series` -- exact one-sided Taylor series of every value at a tie
  point, which pick the moves optimal just beside it;
* :mod:`~symbolic_noise.solvers.maps.enclose` -- arb enclosures of every value, derivative and midpoint
  value over one box of p, followers first, with the mean-value form;
* :mod:`~symbolic_noise.solvers.maps.build` -- the sweep: boxes, the three proofs (one class, a crossing,
  a tie point at an end), shrinking of change intervals, merging;
* :mod:`~symbolic_noise.solvers.maps.result` -- :class:`Map` and :class:`MapInterval`, the data;
* :mod:`~symbolic_noise.solvers.maps.parallel` -- the sweep's boxes shared between worker processes or a
  Dask cluster's workers (``map --jobs N``, ``--dask ADDRESS``).

Rendering (text, JSON with provenance, HTML) is :mod:`symbolic_noise.io.mapreport`.

>>> from symbolic_noise.games.rulesets import Nim
>>> print(build_map(Nim(2), "binary", width="2^-20").kinds("change")[0].claims())
{0} -> {0, 1} -> {1} at p = 1/2
"""

from .build import build_map, simplest_between
from .result import Map, MapInterval

__all__ = ["Map", "MapInterval", "build_map", "simplest_between"]
