"""Work after a parallel solve, done on its workers: the minimal polynomials of
a report's breakpoints and the exact values of N at them.

Both are independent per point, so they are dealt to the solve's
single-process executors (``submit``/``result``) in turn; the points travel as
their defining polynomial and isolating interval, the answers come back as
integer coefficients and exact rationals, and the local objects adopt them.
"""

from __future__ import annotations

from typing import Callable

from flint import fmpq, fmpz_poly

from ...exact.algebraic import FactorHints, RealAlgebraic
from ...exact.piecewise import PiecewiseFunction, PointValue
from ...exact.ratfunc import RationalFunction


def _remote_minpolys(items: list, index: bool = False, bits: int | None = None) -> list:
    """For each of the numbers ``items`` (``(coefficients, lo, hi)`` of a
    defining polynomial and an isolating interval): its minimal polynomial
    (coefficients; one :class:`FactorHints` for all), its root index when
    ``index``, and its isolating interval refined to width ``2^-bits``
    (strings) when ``bits``."""
    points = [RealAlgebraic(fmpz_poly(c), fmpq(lo), fmpq(hi), _trusted=True) for c, lo, hi in items]
    hints = FactorHints()
    out = []
    for x in points:
        m = [int(c) for c in x.minpoly(hints).coeffs()]
        k = x.root_index() if index else None
        if bits is not None:
            x.refine_to(fmpq(1, 2**bits))
        out.append((m, k, str(x.lo), str(x.hi)))
    return out


def minimal_polynomials_on(points, executors: list, *, digits: int | None = None, index: bool = False) -> None:
    """Find the minimal polynomials of ``points`` (what a report prints, see
    :func:`symbolic_noise.exact.algebraic.minimal_polynomials`) on
    ``executors``, each factoring a share: the numbers take them with
    :meth:`RealAlgebraic.adopt_minpoly`, which checks them.  With ``index``
    (the JSON report's ``CRootOf`` form) the workers also count each one's
    root index (:meth:`RealAlgebraic.adopt_root_index`), and with ``digits``
    they refine each interval as far as a report with that many digits
    refines the point for its value there
    (:meth:`symbolic_noise.exact.piecewise.PointValue.enclosure`), which the
    driver checks by two exact signs (:meth:`RealAlgebraic.narrow_to`).

    The shares are dealt out in turn along ``points``, so that each worker
    meets both the small positions' breakpoints and the large ones' (the cost
    grows with the degree).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> from symbolic_noise import Nim, solve
    >>> points = solve(Nim(8), "binary").value().points
    >>> [x.poly.degree() for x in points if not x.is_rational]
    [13, 10, 7, 9, 12]
    >>> with ThreadPoolExecutor(1) as a, ThreadPoolExecutor(1) as b:
    ...     minimal_polynomials_on(points, [a, b], index=True)
    >>> [(x.poly.degree(), x.root_index()) for x in points if x.knows_minpoly and not x.is_rational]
    [(6, 1), (8, 1), (7, 2), (8, 1), (8, 1)]
    """
    todo = [x for x in points if not x.is_rational and not x.knows_minpoly]
    bits = None if digits is None else PointValue.point_bits(digits)
    item = lambda x: ([int(c) for c in x.poly.coeffs()], str(x.lo), str(x.hi))  # noqa: E731
    for x, (m, k, lo, hi) in _dealt(executors, todo, item, _remote_minpolys, index, bits):
        x.adopt_minpoly(fmpz_poly(m))
        if k is not None:
            x.adopt_root_index(k)
        x.narrow_to(lo, hi)


def _dealt(executors: list, todo: list, item: Callable, task: Callable, *args):
    """``(thing, answer)`` for each of ``todo``: the things dealt out in turn to
    ``executors`` (so that each meets small and large ones alike), each
    share sent as ``task([item(thing), ...], *args)``, which answers in order."""
    if not todo:
        return []
    n = max(1, min(len(executors), len(todo)))
    shares = [todo[i::n] for i in range(n)]
    futures = [ex.submit(task, [item(x) for x in share], *args) for ex, share in zip(executors, shares)]
    return [pair for share, future in zip(shares, futures) for pair in zip(share, future.result())]


def _remote_point_values(items: list) -> list:
    """For each ``(num, den, m, lo, hi)`` (a formula's coefficients, and a
    point's minimal polynomial and isolating interval): the formula's value
    at the point in algebraic form (:meth:`PointValue.as_algebraic`), as
    ``(minimal polynomial, lo, hi, root index)`` (the index None for a
    rational), or None above its degree bound."""
    out = []
    for num, den, m, lo, hi in items:
        m = fmpz_poly(m)
        x = RealAlgebraic(m, fmpq(lo), fmpq(hi), _trusted=True)
        x.adopt_minpoly(m)
        y = PointValue(RationalFunction._canonical(fmpz_poly(num), fmpz_poly(den)), x).as_algebraic()
        if y is None:
            out.append(None)
            continue
        k = None if y.is_rational else y.root_index()  # (finds its minimal polynomial)
        out.append(([int(c) for c in y.minpoly().coeffs()], str(y.lo), str(y.hi), k))
    return out


def point_values_on(f: PiecewiseFunction, executors: list) -> None:
    """Find the values of ``f`` at its irrational breakpoints in algebraic
    form (what the JSON report prints: :meth:`PointValue.exact_str`) on
    ``executors``, each a share, dealt out in turn; ``f`` takes them with
    :meth:`PiecewiseFunction.adopt_point_value`, which checks each against
    an enclosure, and the minimal polynomials and root indices with
    :meth:`RealAlgebraic.adopt_minpoly` and :meth:`RealAlgebraic.adopt_root_index`.
    The breakpoints' own minimal polynomials are found first (here, unless
    known: :func:`minimal_polynomials_on` finds them on the executors).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> from symbolic_noise import Nim, solve
    >>> f = solve(Nim(6), "binary").value()
    >>> with ThreadPoolExecutor(1) as a, ThreadPoolExecutor(1) as b:
    ...     point_values_on(f, [a, b])
    >>> [f.point_value(j).exact_str() for j in range(1, len(f.points) - 1)] == [
    ...     PointValue(f.formulas[j - 1], f.points[j]).exact_str() for j in range(1, len(f.points) - 1)]
    True
    """
    todo = [j for j in range(len(f.points)) if f.point_value(j).rational_value is None]

    def item(j):
        x, g = f.points[j], f.formulas[max(0, j - 1)]
        return ([int(c) for c in g.num.coeffs()], [int(c) for c in g.den.coeffs()],
                [int(c) for c in x.minpoly().coeffs()], str(x.lo), str(x.hi))

    for j, got in _dealt(executors, todo, item, _remote_point_values):
        if got is None:
            continue
        m, lo, hi, k = got
        m = fmpz_poly(m)
        if lo == hi:
            y = RealAlgebraic.rational(fmpq(lo))
        else:
            y = RealAlgebraic(m, fmpq(lo), fmpq(hi), _trusted=True)
            y.adopt_minpoly(m)
            y.adopt_root_index(k)
        f.adopt_point_value(j, y)
