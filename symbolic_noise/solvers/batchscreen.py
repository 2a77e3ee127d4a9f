"""Screening every cell of a position at once, for channels affine in p.

The solver's per-cell screen (:meth:`symbolic_noise.solvers.solver._PositionSolver._screen`)
bounds each follower's value over one cell and each move's value from those,
one cell at a time: on Chomp that is a Python call, a cache look-up and often
an exact Bernstein range for every (cell, follower) pair, and 2.8 million
pairs on the 5 x 6 board.  When every channel row is affine in p,

    psi_v(w, u)(s) = P0[w, u] + s P1[w, u]      (Q_w a positive constant),

as in Chomp's king, rook and all-neighbour channels, the screen of all the
position's *base cells* (the cells between its followers' breakpoints) is a
few ball-matrix products:

1. every follower ``u`` and base cell ``i`` get an enclosure
   ``g_u(x) in [lo_ui, hi_ui]`` for every x in the cell, ``g_u = 1 - N_u``, by
   the mean-value form around the middle of the cell's rational hull
   ``[a_i, b_i]``: ``g_u(mid) -+ sup |g_u'| (b_i - a_i) / 2``, the supremum a
   ball evaluation of ``(n' d - n d') / d^2`` on a ball covering the hull
   (no bound, and no screen of that cell, unless ``d > 0`` on the whole ball);
2. a move's value ``V_w(x) = sum_u psi(w, u)(x) g_u(x)`` then lies between
   ``sum_u psi(w, u)(x) lo_ui`` and ``sum_u psi(w, u)(x) hi_ui``, because
   ``psi >= 0`` on the parameter range (the channel is validated there); both
   are affine in x, so their extremes over the cell are at its ends:
   ``(P0 L)[w, i] + a_i (P1 L)[w, i]`` and the same at ``b_i``, with ``L`` the
   k x n matrix of the ``lo_ui`` (likewise ``H`` for the upper ends);
3. a move whose upper bound lies below the best lower bound (the floor of a
   leader) is strictly worse than the leader on the whole cell.

Every bound is a ball-arithmetic enclosure read off at its certain end, and a
move is dropped only on a certain comparison: no float decides.  A sub-cell of
a base cell (split by a breakpoint the sweep finds) keeps its base cell's
survivors, which are a superset of its own.

>>> from flint import fmpz_poly, fmpq
>>> P0, P1 = affine_rows([(fmpz_poly([0, 1]),), ], [fmpz_poly([1])]) or (None, None)
>>> P0 is None   # one move only: nothing to screen
True
>>> rows = [(fmpz_poly([0, 2]), fmpz_poly([1, -1]), fmpz_poly([1, -1])),     # Chomp 2 x 2, king channel
...         (fmpz_poly([1, -1]), fmpz_poly([0, 2]), fmpz_poly([1, -1])),
...         (fmpz_poly([1, -1]), fmpz_poly([1, -1]), fmpz_poly([0, 2]))]
>>> P0, P1 = affine_rows(rows, [fmpz_poly([2])] * 3)
>>> one, zero = fmpz_poly([1]), fmpz_poly([0])
>>> # the followers: 1 x 2 and 2 x 1 (N = 1), the L of three squares (N = 0); spans (start, stop, num, den)
>>> pieces = [[(0, 2, one, one)], [(0, 2, one, one)], [(0, 2, zero, one)]]
>>> # moves (1, 2) and (2, 1) are worth (1 - p)/2, (2, 2) is worth p
>>> screen_cells(P0, P1, [(fmpq(0), fmpq(1, 4)), (fmpq(1, 2), fmpq(1))], pieces)
[[0, 1], [2]]
"""

from __future__ import annotations

from flint import arb, arb_mat, ctx, fmpq, fmpz_poly

#: working precision (bits) of the ball arithmetic
PREC = 64
#: moves whose lower bounds are computed (those with the largest upper bounds)
LEADERS = 3
#: a formula's enclosures are dropped from an :class:`EnclosureCache` when
#: no position used them for this many positions (looked at as often)
KEEP = 128


def affine_rows(P: list, Q: list) -> tuple[arb_mat, arb_mat] | None:
    """``(P0, P1)``, the m x k ball matrices of ``psi(w, u) = P_wu / Q_w = P0 +
    p P1``, when every ``Q_w`` is a positive constant and every ``P_wu`` has
    degree at most 1 and there are at least two moves; else ``None``."""
    if len(Q) < 2 or any(q.degree() != 0 or not q[0] > 0 for q in Q):
        return None
    if any(n.degree() > 1 for row in P for n in row):
        return None
    with ctx.workprec(PREC):  # (the balls of p/q too, not only the matrices)
        rows0 = [[arb(fmpq(n[0], q[0])) for n in row] for q, row in zip(Q, P)]
        rows1 = [[arb(fmpq(n[1], q[0])) for n in row] for q, row in zip(Q, P)]
        return arb_mat(rows0), arb_mat(rows1)


def _enclose(pieces: list, hulls: tuple, lows: list, highs: list, bad: set, cache: dict, gen: int) -> None:
    """Fill ``lows[i]``, ``highs[i]`` (exact arb ends) with an enclosure of
    ``g = 1 - num/den`` on hull ``i`` for every span ``(start, stop, num,
    den)`` of ``pieces``: ``g(mid_i) -+ L rad_i``, ``L`` a bound of ``|g'|``
    on a ball covering the hull; a cell whose denominator is not certainly
    positive there goes into ``bad``.
    ``cache`` keeps the enclosures by the formula's identity and the hull's
    name (and the generation ``gen`` that last used them): positions that
    share a follower meet it on the same hulls."""
    balls, mids, rads, names = hulls
    for start, stop, num, den in pieces:
        got = cache.get(id(num))
        if got is None or got[0] is not num:
            got = cache[id(num)] = [num, {}, {}, set(), gen]
        else:
            got[4] = gen
        _, low, high, poles, _ = got
        hs = names[start:stop]
        try:  # (most spans are known on every hull: one pass at C speed)
            lows[start:stop] = [low[h] for h in hs]
        except KeyError:
            slope = num.derivative() * den - num * den.derivative()
            for i in range(start, stop):
                h = names[i]
                if h in low:
                    continue
                # (one bound per span, on a ball covering its cells, was looser:
                # Chomp 5 x 5 king left 9,112 cells to the sweep instead of 7,592)
                L = _slope_bound(slope, den, balls[i])
                if L is False:
                    low[h] = high[h] = _ZERO
                    poles.add(h)
                else:
                    M = mids[i]
                    e = 1 - num(M) / den(M)
                    r = L * rads[i]
                    low[h], high[h] = (e - r).lower(), (e + r).upper()
            lows[start:stop] = [low[h] for h in hs]
        highs[start:stop] = [high[h] for h in hs]
        if poles:
            bad.update(i for i in range(start, stop) if names[i] in poles)


def _slope_bound(slope: fmpz_poly, den: fmpz_poly, X: arb) -> arb | bool:
    """An upper bound (exact) of ``|slope / den^2|`` on the ball ``X``, or
    False unless ``den > 0`` certainly on ``X``; with ``slope = num' den -
    num den'`` it bounds ``|(num/den)'|``."""
    D = den(X)
    if not D > 0:
        return False
    return (abs(slope(X)) / (D * D)).upper()


_ZERO = arb(0)


class EnclosureCache:
    """The followers' enclosures kept between calls of :func:`screen_cells`,
    by formula (held, so that its identity names it) and hull; a formula no
    position used for :data:`KEEP` positions is dropped.  Chomp 6 x 6 king
    made 5.7 million enclosures when a cache of 50,000 formulas was emptied
    whenever full, 2.0 million keeping every one (peak 1.03 GB), 2.1 million
    with KEEP = 128 (880 MB) and 2.8 million with KEEP = 32 (683 MB)."""

    def __init__(self):
        self.formulas: dict = {}
        self.gen = 0

    def next_position(self) -> None:
        self.gen += 1
        if self.gen % KEEP == 0:
            old = self.gen - KEEP
            self.formulas = {k: v for k, v in self.formulas.items() if v[4] >= old}


def screen_cells(P0: arb_mat, P1: arb_mat, hulls: list, pieces: list, names: list | None = None, cache: EnclosureCache | None = None) -> list:
    """The moves not shown strictly worse than another on each cell.

    ``hulls`` are the cells' rational hulls ``(a_i, b_i)`` (inside the range
    where the channel is valid), ``pieces[u]`` follower ``u``'s formulas as
    spans ``(start, stop, num, den)`` of cell indices (``den > 0`` on them;
    together they cover every cell).  Returns, per cell, the sorted list of
    surviving move indices, or ``None`` where no enclosure was proved.
    ``names`` are hashable names of the hulls and ``cache`` an
    :class:`EnclosureCache` that keeps the followers' enclosures for later
    calls.
    """
    n, k, m = len(hulls), len(pieces), P0.nrows()
    if P0.ncols() != k:
        raise ValueError(f"{P0.ncols()} channel columns for {k} followers")
    if names is None:
        names = [(a.p, a.q, b.p, b.q) for a, b in hulls]
    if cache is None:
        cache = EnclosureCache()
    with ctx.workprec(PREC):
        balls = [arb(a).union(arb(b)) for a, b in hulls]
        mids = [arb((a + b) / 2) for a, b in hulls]
        rads = [arb((b - a) / 2) for a, b in hulls]
        bad: set = set()
        L, H = [], []
        for spans in pieces:
            lows, highs = [None] * n, [None] * n
            _enclose(spans, (balls, mids, rads, names), lows, highs, bad, cache.formulas, cache.gen)
            if sum(stop - start for start, stop, _, _ in spans) != n:
                raise ValueError("the follower's spans do not cover every cell")
            L.append(lows)
            H.append(highs)
        L, H = arb_mat(L), arb_mat(H)
        # row-major m x n: entry w * n + i.  A move's bounds are affine in
        # p: over a cell's ball X, h0 + X h1 holds its values, and the
        # ball's ends are the extremes at the cell's ends (up to rounding)
        L0, L1 = P0 * L, P1 * L  # (read at the leaders' entries only)
        H0, H1 = (P0 * H).entries(), (P1 * H).entries()
        out = []
        for i in range(n):
            if i in bad:
                out.append(None)
                continue
            X = balls[i]
            ups = [(h0 + X * h1).upper() for h0, h1 in zip(H0[i::n], H1[i::n])]
            # the floor of the move with the largest upper bound; where that
            # leaves several, the best floor of the first LEADERS of them
            w = max(range(m), key=ups.__getitem__)
            floor = (L0[w, i] + X * L1[w, i]).lower()
            kept = [w for w in range(m) if not ups[w] < floor]
            if len(kept) > 1:
                for w in sorted(kept, key=ups.__getitem__, reverse=True)[1:LEADERS]:
                    low = (L0[w, i] + X * L1[w, i]).lower()
                    if low > floor:
                        floor = low
                kept = [w for w in kept if not ups[w] < floor]
            out.append(kept)
        return out
