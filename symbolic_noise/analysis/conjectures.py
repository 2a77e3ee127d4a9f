"""The paper's conjectures and open questions about 1-pile Nim through the binary
channel (theory.md 3.1, 3.4), as exact computations.

* :func:`conjecture9` and :func:`conjecture10` give the statements (for
  :func:`symbolic_noise.analysis.certificates.check`) that make up Conjecture 9
  (``N_k >= 1/2`` on [0, 1/2] and sending 0 optimal there, every k) and
  Conjecture 10 (``N_k >= 1/2`` on [0, 1] and sending ``k - 1`` optimal on
  [1/2, 1], k a power of two).
* :func:`fairness_threshold` is the exact infimum ``p0`` of the thresholds
  with ``|2 N(p) - 1| < eps`` for every p in [p0, 1] (the paper's "rather fair
  for large p").
* :func:`optimal_breakpoints` lists the points where the optimal-move set of a
  position changes, with the sets on either side.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> sol = solve(Nim(10), "binary")
>>> [str(s) for s in conjecture9(10)]
['N >= 1/2 on [0, 1/2]', 'optimal 0 on [0, 1/2]']
>>> t = fairness_threshold(sol.value(10), "1/100")
>>> t.exists, t.point.decimal(6)
(True, '0.994659')
>>> [(b.point.decimal(4), sorted(b.left), sorted(b.right)) for b in optimal_breakpoints(sol.value(4))]
[('0.5000', [0], [3])]
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq

from ..exact.algebraic import RealAlgebraic, real_roots, sorted_exact
from .certificates import Statement
from ..exact.piecewise import PiecewiseFunction
from ..exact.formula import exact_number



def is_power_of_two(k: int) -> bool:
    """Whether ``k`` is one of 1, 2, 4, 8, ...

    >>> [k for k in range(1, 20) if is_power_of_two(k)]
    [1, 2, 4, 8, 16]
    """
    return k >= 1 and k & (k - 1) == 0


def conjecture9(k: int) -> list[Statement]:
    """Conjecture 9 for heap ``k``: N_k >= 1/2 on [0, 1/2], and sending 0 is optimal there."""
    half = fmpq(1, 2)
    return [Statement("ge", half, fmpq(0), half), Statement("optimal", 0, fmpq(0), half)]


def conjecture10(k: int) -> list[Statement]:
    """Conjecture 10 for a power of two ``k``: N_k >= 1/2 on [0, 1], and sending
    ``k - 1`` is optimal on [1/2, 1]."""
    if not is_power_of_two(k):
        raise ValueError(f"Conjecture 10 is about powers of two, not {k}")
    half = fmpq(1, 2)
    return [Statement("ge", half, fmpq(0), fmpq(1)), Statement("optimal", k - 1, half, fmpq(1))]


@dataclass(frozen=True)
class Threshold:
    """The outcome of :func:`fairness_threshold`."""

    exists: bool  #: False when |2N - 1| >= eps already at the right end
    point: RealAlgebraic | None  #: the infimum p0 (None if it does not exist)
    attained: bool  #: whether |2N - 1| < eps holds at p0 itself (only when p0 is the left end)
    value_at_right_end: fmpq  #: N at the right end of the interval


def fairness_threshold(f: PiecewiseFunction, eps) -> Threshold:
    """The smallest ``p0`` (an infimum) such that ``|2 N(p) - 1| < eps`` for every p
    in (p0, 1]: the largest root of ``2N - 1 = +-eps``, exactly, or the left end
    if there is none; ``exists`` is False if the condition fails at the right end.
    """
    eps = exact_number(eps)
    a, b = f.interval
    end = f(b).rational_value if not b.is_rational else f(b.rational_value)
    end = end if end is not None else None
    if end is None or abs(2 * end - 1) >= eps:
        return Threshold(False, None, False, end)
    for j in range(len(f.formulas) - 1, -1, -1):
        lo, hi = f.points[j], f.points[j + 1]
        g = 2 * f.formulas[j] - 1
        found = []
        for expr in (g - eps, g + eps):
            num = expr.num
            if num.degree() < 1:
                continue
            for r in real_roots(num, lo.lo, hi.hi):
                if r.compare(lo) >= 0 and r.compare(hi) <= 0:
                    found.append(r)
        if found:
            return Threshold(True, sorted_exact(found)[-1], False, end)
    return Threshold(True, a, True, end)


@dataclass(frozen=True)
class Breakpoint:
    """A point where the optimal-move set changes."""

    point: RealAlgebraic  #: the breakpoint, exact
    left: frozenset  #: optimal moves just left of the point
    at: frozenset  #: optimal moves at the point
    right: frozenset  #: optimal moves just right of it


def optimal_breakpoints(f: PiecewiseFunction) -> list[Breakpoint]:
    """The interior points of ``f`` where the optimal-move set changes, or is
    larger at the point than on both sides (a touching tie)."""
    out = []
    for j in range(1, len(f.points) - 1):
        left, right, at = f.labels[j - 1], f.labels[j], f.point_labels[j]
        if left != right or at != left:
            out.append(Breakpoint(f.points[j], left, at, right))
    return out
