"""Solving disjoint sub-intervals of p in parallel, and stitching them together.

The value of a position at p depends only on its followers' values at the same
p, so [a, b] can be cut into sub-intervals that are solved independently, by
any executor with the ``concurrent.futures`` interface (``submit`` returning
futures with ``result()``): a local ``ProcessPoolExecutor``, or a Dask
distributed client's ``get_executor()`` for a cluster.  Results travel as exact
JSON (:mod:`symbolic_noise.solvers.codec`), and :func:`stitch` joins the pieces, merging
those that continue across a cut, so the result is identical to the serial solve.

Examples
--------
>>> from concurrent.futures import ThreadPoolExecutor
>>> from symbolic_noise import Nim, solve
>>> with ThreadPoolExecutor(2) as pool:
...     par = solve_parallel(Nim(6), "binary", executor=pool, chunks=3)
>>> par.value() == solve(Nim(6), "binary").value()
True
"""

from __future__ import annotations

import time
from typing import Callable

from flint import fmpq, fmpz_poly

from . import codec
from ..games.channels import Channel, get_channel
from ..games.rulesets import Game
from ..exact.algebraic import FactorHints, RealAlgebraic
from ..exact.piecewise import PiecewiseFunction, PointValue

from ..exact.ratfunc import RationalFunction
from .piecewise import SolveProgress, exact_interval, solve
from .solution import Solution
from ..exact.formula import exact_number


def split_interval(a, b, chunks: int) -> list[tuple[fmpq, fmpq]]:
    """``[a, b]`` cut into ``chunks`` equal sub-intervals with exact end points.

    >>> [(str(x), str(y)) for x, y in split_interval(0, 1, 3)]
    [('0', '1/3'), ('1/3', '2/3'), ('2/3', '1')]
    """
    a, b = exact_number(a), exact_number(b)
    if chunks < 1:
        raise ValueError("need at least one chunk")
    cuts = [a + (b - a) * fmpq(i, chunks) for i in range(chunks + 1)]
    return list(zip(cuts, cuts[1:]))


def balanced_cuts(values, a, b, chunks: int) -> list[tuple[fmpq, fmpq]]:
    """Cut [a, b] into ``chunks`` sub-intervals holding about the same number of
    the distinct breakpoints of ``values`` (a probe: the solved small
    positions), since the work of a solve grows with the breakpoints it meets
    and larger positions break where smaller ones do.  Cuts are dyadic
    rationals with 20 bits; this only balances work, it decides nothing.

    >>> from symbolic_noise import Nim, solve
    >>> cuts = balanced_cuts(solve(Nim(12), "binary").values(), 0, 1, 4)
    >>> len(cuts), str(cuts[0][0]), str(cuts[-1][1])
    (4, '0', '1')
    """
    a, b = exact_number(a), exact_number(b)
    seen, points = set(), []
    for f in values.values():
        for x in f.breakpoints:
            if id(x) not in seen:  # a breakpoint inherited by many positions counts once
                seen.add(id(x))
                lo, hi = x.interval
                points.append((lo + hi) / 2)
    points.sort()
    if chunks <= 1 or not points:
        return split_interval(a, b, max(chunks, 1))
    cuts = [a]
    scale = 2**20
    for i in range(1, chunks):
        q = points[(i * len(points)) // chunks]
        c = fmpq((q * scale).floor(), scale)
        if cuts[-1] < c < b:
            cuts.append(c)
    cuts.append(b)
    return list(zip(cuts, cuts[1:]))


def solve_chunk(game: Game, channel: Channel, lo: str, hi: str, order_size=None, start=None, misere=False,
                known=None, cache_path=None):
    """Solve one sub-interval (in a worker): the encoded values of every position
    reachable from ``start``, in the order of ``game.positions(start)``.
    ``known`` holds encoded values of some positions on exactly [lo, hi]."""
    store = None
    if cache_path is not None:
        from .cache import SolutionCache

        store = SolutionCache(cache_path, game, channel, (lo, hi), misere=misere)
    order = game.positions(start)
    given = {} if known is None else {order[i]: codec.decode(data) for i, data in known.items()}
    try:
        sol = solve(game, channel, (lo, hi), start=start, misere=misere, store=store, known=given)
    finally:
        if store is not None:
            store.close()
    return [codec.encode(sol.value(v)) for v in sol.positions()]


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


def stitch(parts: list[PiecewiseFunction]) -> PiecewiseFunction:
    """Join piecewise functions on consecutive intervals ``[c_0, c_1], [c_1, c_2], ...``.

    At every cut both sides must give the same optimal set (they are the same
    exact point); pieces continuing across a cut with the same formula and
    labels are merged.
    """
    points = list(parts[0].points)
    formulas = list(parts[0].formulas)
    labels = list(parts[0].labels) if parts[0].labels is not None else None
    plabels = list(parts[0].point_labels) if parts[0].point_labels is not None else None
    for part in parts[1:]:
        if points[-1].compare(part.points[0]) != 0:
            raise ValueError("the parts are not on consecutive intervals")
        if plabels is not None and plabels[-1] != part.point_labels[0]:
            raise AssertionError(f"the two sides disagree on the optimal set at the cut {points[-1]}")
        points += part.points[1:]
        formulas += part.formulas
        if labels is not None:
            labels += part.labels
            plabels += part.point_labels[1:]
    return PiecewiseFunction(points, formulas, labels, plabels)


def solve_parallel(
    game: Game,
    channel: Channel | str,
    interval=(0, 1),
    *,
    executor,
    chunks: int = 8,
    start=None,
    misere: bool = False,
    balance: bool = True,
    cache_path: str | None = None,
    progress: Callable[[SolveProgress], None] | None = None,
) -> Solution:
    """Solve ``game`` on ``chunks`` sub-intervals of ``interval`` through
    ``executor`` and stitch the results (identical to :func:`solve`).

    With ``balance`` (the default) the first half of the positions (followers
    first) is solved here first, as a probe: its breakpoints place the cuts
    (:func:`balanced_cuts`) and its values are handed to the workers, so no
    position is solved twice.  Without it the cuts are equal.  ``cache_path``
    lets every chunk store its positions in that SQLite file (for workers that
    share the file system); ``progress`` receives a :class:`SolveProgress`
    counting finished chunks.
    """
    channel = get_channel(channel)
    a, b = exact_interval(interval)
    root = game.start() if start is None else game.check_position(start)
    order = game.positions(root)
    probe = {}
    if balance and chunks > 1 and len(order) > 2:
        from .piecewise import solve_positions

        probe = solve_positions(game, channel, (a, b), order[: len(order) // 2], misere=misere).values()
        pieces = balanced_cuts(probe, a, b, chunks)
    else:
        pieces = split_interval(a, b, chunks)
    index = {v: i for i, v in enumerate(order)}
    t0 = time.perf_counter()
    futures = []
    for lo, hi in pieces:
        given = {index[v]: codec.encode(f.restrict(lo, hi)) for v, f in probe.items()} or None
        futures.append(
            executor.submit(solve_chunk, game, channel, str(lo), str(hi), None, root, misere, given, cache_path)
        )
    results = []
    for i, fut in enumerate(futures):
        results.append(fut.result())
        if progress is not None:
            progress(SolveProgress(i + 1, len(futures), f"p in [{pieces[i][0]}, {pieces[i][1]}]", 1.0, time.perf_counter() - t0))
    values = {}
    for k, v in enumerate(order):
        values[v] = stitch([codec.decode(result[k]) for result in results])
    return Solution(game, channel, (a, b), values, root, misere)
