"""The Bellman check: stored piecewise values are the game's own values.

Given a game and a channel (rebuilt by the caller from their spec, never read
from a file) and, for every position ``u`` of a set ``S`` closed under
followers, a continuous piecewise-rational ``N_u`` on ``[a, b]``,
:func:`check_values` proves that every ``N_u`` is the value of ``u``, or
raises :class:`~symbolic_noise.errors.VerificationError` naming the position
and the place where the equations fail (theory.md, section 7).  The followers
and psi come from the game and the channel; the values' labels (their optimal
moves) are read only as hints of which move to try first.

On every *cell* of ``u`` (between consecutive breakpoints of ``N_u`` and of
its followers' values) every follower ``x`` has one formula ``N_x``, so every
sent move ``w`` has the value ``V_w = sum_x psi_u(w, x) (1 - N_x)``, a
rational function.  The check proves, on every cell:

1. ``N_u = V_{w*}`` identically for one move ``w*``.  On the first cell of a
   run with the same ``w*`` this is an identity of cross-multiplied integer
   polynomials over the common denominator of the followers' formulas; on
   each following cell it is the identity of the *increments*: the followers
   whose formula changes at the cut change ``V_{w*}`` by
   ``sum psi(w*, x) (N_x^old - N_x^new)``, and ``N_u`` must change by as much.
2. ``V_w <= V_{w*}`` on the closed cell for every other move ``w``: first by a
   certified enclosure (each follower's value at a point of the cell in ball
   arithmetic, the followers' slopes over the cell by
   :class:`~symbolic_noise.solvers.piecewise.spread.SlopeBounds`, psi's slope by ball
   evaluation; everything rounded outward and read off as exact bounds), and
   where the enclosure cannot decide, exactly: the numerator of
   ``V_{w*} - V_w`` over the common denominator has no sign change on the
   closed cell (Bernstein coefficients, else exact root isolation).

Terminal positions must have ``N = 0`` (misère: 1).  By backward induction
these local facts make every stored ``N_u`` the value of ``u``: on every closed
cell ``N_u = max_w V_w``, so ``N_u`` is also continuous.  Nothing is searched
and nothing is screened: the work is a product, an identity and a sign test
per move and cell.

Examples
--------
>>> from symbolic_noise import Nim, solve
>>> sol = solve(Nim(6), "binary")
>>> report = check_values(sol.game, sol.channel, sol.values(), (0, 1))
>>> report.positions, report.cells > 0
(7, True)
>>> from symbolic_noise.exact.piecewise import PiecewiseFunction
>>> forged = sol.values(); forged[3] = PiecewiseFunction.constant(fmpq(1, 2))
>>> check_values(sol.game, sol.channel, forged, (0, 1))
Traceback (most recent call last):
...
symbolic_noise.errors.VerificationError: position 3: on [0, 1/2] the stored N = 1/2 is the value of no sent move
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
from flint import arb, arb_poly, ctx, fmpq, fmpz_poly  # noqa: F401

from ..errors import SymbolicNoiseError, VerificationError
from ..exact import polys
from ..exact.algebraic import RealAlgebraic, dyadic_hull, rational_between, real_roots, sorted_exact
from ..exact.piecewise import PiecewiseFunction

from ..exact.ratfunc import RationalFunction
from ..solvers.piecewise.spread import SlopeBounds
from ..exact.formula import exact_number

#: working precision (bits) of the followers' values at a cell's sample point; raised where too loose
PREC = 128
#: a ball of a value wider than this (relative to 1) is recomputed at a higher precision
_LOOSE = 2.0**-30
#: most precision tried for one value before the enclosure gives up (the exact test then decides)
MAX_PREC = 4096
_DIAG = None
#: a cell's box is halved at most this many times in depth before the exact test
SPLITS = 3
#: slack added to every float bound: far above the rounding error of the sums below
_SLACK = 2.0**-40


@dataclass
class BellmanReport:
    """What :func:`check_values` proved: how many positions, cells and tests."""

    positions: int = 0  #: positions whose values were proved
    cells: int = 0  #: cells (stretches between the followers' breakpoints) checked
    identities: int = 0  #: full identities (the first cell of each run of one optimal move)
    increments: int = 0  #: cells proved by the identity of the increments
    enclosed: int = 0  #: (move, cell) pairs settled by the certified enclosure
    exact: int = 0  #: (move, cell) pairs settled by an exact sign test


def _fail(game, u, x, y, what: str):
    where = f"on [{_short(x)}, {_short(y)}]" if x is not y else f"at p = {_short(x)}"
    raise VerificationError(f"position {game.position_label(u)}: {where} {what}")


def _short(x: RealAlgebraic) -> str:
    return x.exact_str() if x.is_rational else x.decimal(12)


class _Points:
    """Every breakpoint of the values, ranked once: equal numbers share a rank,
    so a position's cells are runs of consecutive ranks."""

    def __init__(self, values: Mapping, a: fmpq, b: fmpq):
        by_id: dict = {}
        ends = (RealAlgebraic.rational(a), RealAlgebraic.rational(b))
        for x in ends:
            by_id[id(x)] = x
        for f in values.values():
            for x in f.points:
                by_id.setdefault(id(x), x)
        ordered = sorted_exact(list(by_id.values()))
        self.rank: dict = {}
        self.points: list = []
        for x in ordered:
            if self.points and x.compare(self.points[-1]) == 0:
                self.rank[id(x)] = len(self.points) - 1
            else:
                self.rank[id(x)] = len(self.points)
                self.points.append(x)
        self.a, self.b = self.rank[id(ends[0])], self.rank[id(ends[1])]
        self._keep = list(by_id.values())  # (ids stay valid while the points live)

    def ranks(self, f: PiecewiseFunction) -> list:
        return [self.rank[id(x)] for x in f.points]


class _Psi:
    """A position's channel rows as distinct polynomials, with bounds of their
    slopes on 64 sub-boxes of [a, b] (computed once per position)."""

    BOXES = 64

    def __init__(self, rows, a: fmpq, b: fmpq):
        self.m = len(rows.den)
        polys_: list = []
        index: dict = {}

        def put(f: fmpz_poly) -> int:
            key = tuple(int(c) for c in f.coeffs())
            got = index.get(key)
            if got is None:
                got = index[key] = len(polys_)
                polys_.append(f)
            return got

        self.num_idx = np.array([[put(e) for e in row] for row in rows.num], dtype=np.int64).reshape(self.m, self.m)
        self.den_idx = np.array([put(q) for q in rows.den], dtype=np.int64)
        self.polys = polys_
        self.zero = np.array([[e.is_zero() for e in row] for row in rows.num], dtype=bool).reshape(self.m, self.m)
        self.a, self.b = a, b
        # |P| and |P'| upper bounds and min |P| on each sub-box, for every distinct polynomial
        edges = [a + (b - a) * fmpq(i, self.BOXES) for i in range(self.BOXES + 1)]
        self._edges = edges
        n = len(polys_)
        self.hi = np.empty((n, self.BOXES))
        self.low = np.empty((n, self.BOXES))
        self.slope = np.empty((n, self.BOXES))
        with ctx.workprec(64):
            balls = [arb(lo).union(arb(hi)) for lo, hi in zip(edges, edges[1:])]
            for i, f in enumerate(polys_):
                af, ad = arb_poly(f), arb_poly(f.derivative())
                for k, X in enumerate(balls):
                    v, dv = af(X), ad(X)
                    self.hi[i, k] = _up(v.abs_upper())
                    self.low[i, k] = _down(v.abs_lower())
                    self.slope[i, k] = _up(dv.abs_upper())

    def boxes(self, lo: fmpq, hi: fmpq) -> slice:
        w = self.b - self.a
        if w == 0:
            return slice(0, self.BOXES)
        first = int(((lo - self.a) / w * self.BOXES).floor())
        last = int(((hi - self.a) / w * self.BOXES).ceil())
        return slice(max(0, first), min(self.BOXES, max(last, first + 1)))

    def at(self, t: fmpq, prec: int = 64):
        """``(lo, hi)`` float arrays (m x m) holding psi(w, x) at t."""
        with ctx.workprec(prec):
            T = arb(t)
            vals = [f(T) for f in self.polys]
        lo = np.array([_down(v.lower()) for v in vals])
        hi = np.array([_up(v.upper()) for v in vals])
        dlo, dhi = lo[self.den_idx], hi[self.den_idx]
        if not np.all(dlo > 0) and not np.all(dhi < 0):
            return None
        nlo, nhi = lo[self.num_idx], hi[self.num_idx]
        if np.all(dlo > 0):
            plo = np.minimum(nlo / dlo[:, None], nlo / dhi[:, None])
            phi = np.maximum(nhi / dlo[:, None], nhi / dhi[:, None])
        else:
            plo = np.minimum(nhi / dlo[:, None], nhi / dhi[:, None])
            phi = np.maximum(nlo / dlo[:, None], nlo / dhi[:, None])
        return _widen(plo, phi)

    def bounds(self, lo: fmpq, hi: fmpq):
        """``(sup |psi|, sup |psi'|)`` float arrays (m x m) over [lo, hi]."""
        s = self.boxes(lo, hi)
        H, Lw, D = self.hi[:, s].max(axis=1), self.low[:, s].min(axis=1), self.slope[:, s].max(axis=1)
        qlow = Lw[self.den_idx]
        if not np.all(qlow > 0):
            return None
        qhi, qd = H[self.den_idx], D[self.den_idx]
        ph, pd = H[self.num_idx], D[self.num_idx]
        sup = ph / qlow[:, None]
        dsup = (pd * qhi[:, None] + ph * qd[:, None]) / (qlow[:, None] ** 2)
        return sup * (1 + 1e-12) + _SLACK, dsup * (1 + 1e-12) + _SLACK


def _up(x: arb) -> float:
    v = float(x.upper()) if hasattr(x, "upper") else float(x)
    return np.nextafter(v, np.inf) if np.isfinite(v) else np.inf


def _down(x: arb) -> float:
    v = float(x.lower()) if hasattr(x, "lower") else float(x)
    return np.nextafter(v, -np.inf) if np.isfinite(v) else -np.inf


def _widen(lo, hi):
    return np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf)


class _Values:
    """Followers' values at sample points and slopes over cells, cached by
    formula (one formula serves many cells and positions)."""

    def __init__(self):
        self._at: dict = {}
        self._slope: dict = {}
        self.slopes = SlopeBounds()

    def at(self, f: RationalFunction, t: fmpq) -> tuple[float, float]:
        key = (id(f), t)
        got = self._at.get(key)
        if got is not None:
            return got
        c = f.constant_value()
        if c is not None:
            out = (_down(arb(c)), _up(arb(c)))
        else:
            out = self._ball(f, t)
        self._at[key] = out
        if len(self._at) > 400_000:
            self._at.clear()
        return out

    def _ball(self, f: RationalFunction, t: fmpq) -> tuple[float, float]:
        prec = PREC
        while True:
            with ctx.workprec(prec):
                T = arb(t)
                v = f.num(T) / f.den(T)
            if v.is_finite() and v.rad() < _LOOSE:
                return _down(v.lower()), _up(v.upper())
            if prec >= MAX_PREC:
                return -np.inf, np.inf
            prec *= 2

    def slope(self, key, f: RationalFunction, lo: fmpq, hi: fmpq) -> float:
        if f.degree == 0:
            return 0.0
        k = (id(f), lo, hi)
        got = self._slope.get(k)
        if got is None:
            s = self.slopes.slope(key, f.num, f.den, lo, hi, name=f)
            got = self._slope[k] = np.inf if s is None or not s.is_finite() else _up(s)
            if len(self._slope) > 400_000:
                self._slope.clear()
        return got


class _Common:
    """The followers' formulas on one cell over their common denominator
    ``L``: ``e_x = (d_x - n_x) L / d_x``, so that ``V_w = A_w / (q_w L)`` with
    ``A_w = sum_x num_w(x) e_x`` (the channel's row ``w`` is ``num_w / q_w``)."""

    def __init__(self, formulas: list):
        L = polys.ONE
        for f in formulas:
            d = f.den
            if not d.is_one():
                g = L.gcd(d)
                L = L * (d // g) if not g.is_one() else L * d
        self.L = L
        self.e = [(f.den - f.num) * (L // f.den) for f in formulas]

    def numerator(self, row) -> fmpz_poly:
        acc = polys.ZERO
        for c, e in zip(row, self.e):
            if not c.is_zero():
                acc += c * e
        return acc


def _nonneg_on(g: fmpz_poly, x: RealAlgebraic, y: RealAlgebraic, strict: bool) -> bool:
    """Whether ``g >= 0`` (``> 0`` if strict) on the closed [x, y], exactly."""
    if g.is_zero():
        return not strict
    if x.compare(y) == 0:
        s = x.sign_of(g)
        return s > 0 or (s == 0 and not strict)
    lo, hi = dyadic_hull(x, y)
    s = polys.bernstein_sign(g, lo, hi)
    if s != 0:
        if s < 0:
            return False
        # positive on the open hull: the ends of [x, y] are inside it unless they are its ends
        for z, end in ((x, lo), (y, hi)):
            if z.is_rational and z.rational_value == end:
                v = polys.sign(g(end))
                if v < 0 or (strict and v == 0):
                    return False
        return True
    for z in (x, y):
        v = z.sign_of(g)
        if v < 0 or (strict and v == 0):
            return False
    inside = [r for r in real_roots(g, lo, hi) if r.compare(x) > 0 and r.compare(y) < 0]
    if strict and inside:
        return False
    cuts = [x] + inside + [y]
    for u, v in zip(cuts, cuts[1:]):
        if polys.sign(g(rational_between(u, v))) < 0:
            return False
    return True


def _positive_inside(g: fmpz_poly, x: RealAlgebraic, y: RealAlgebraic, zero_x: bool, zero_y: bool) -> bool:
    """Whether ``g > 0`` on the open (x, y), and at each end ``g = 0`` where
    ``zero_*`` is True, ``g > 0`` where it is False."""
    if g.is_zero():
        return False
    for z, zero in ((x, zero_x), (y, zero_y)):
        s = z.sign_of(g)
        if (s != 0) if zero else (s <= 0):
            return False
    if x.compare(y) == 0:
        return True
    lo, hi = dyadic_hull(x, y)
    if polys.bernstein_sign(g, lo, hi) > 0:
        return True
    if any(r.compare(x) > 0 and r.compare(y) < 0 for r in real_roots(g, lo, hi)):
        return False
    return polys.sign(g(rational_between(x, y))) > 0


class _Position:
    """The check of one position (see the module docstring)."""

    def __init__(self, checker: "_Checker", u):
        self.c = checker
        self.u = u
        game = checker.game
        self.fs = game.followers(u)
        self.labels = [game.move_label(u, w) for w in self.fs]
        self.index = {lab: i for i, lab in enumerate(self.labels)}

    def prepare(self) -> bool:
        """Check the value's shape; False for a terminal position (checked here)."""
        c, u, game = self.c, self.u, self.c.game
        f = self.f = c.values[u]
        ranks = self.ranks = c.points.ranks(f)
        if ranks[0] != c.points.a or ranks[-1] != c.points.b:
            raise VerificationError(f"position {game.position_label(u)}: its value is not given on exactly [{c.a}, {c.b}]")
        if any(r2 <= r1 for r1, r2 in zip(ranks, ranks[1:])) and c.a != c.b:
            raise VerificationError(f"position {game.position_label(u)}: its breakpoints do not increase")
        if not self.fs:
            want = 1 if c.misere else 0
            for g in f.formulas:
                if g.constant_value() != want:
                    raise VerificationError(
                        f"position {game.position_label(u)} is terminal, so N = {want}, not {_clip(g.text())}"
                    )
            return False
        self.rows = c.channel.rows(game, u)
        c.channel.check(game, u, self.rows, (c.a, c.b))
        self.psi = _Psi(self.rows, c.a, c.b)
        self.fvals = [c.values[x] for x in self.fs]
        return True

    def walk(self):
        """``(x, y, N, label, forms, where, changed)`` for every cell in order:
        the cell's ends, ``N_u``'s formula and label there, the followers'
        formulas and their indices, and the followers whose formula changed
        at ``x`` (``None`` on the first cell)."""
        c, f, ranks = self.c, self.f, self.ranks
        franks = [c.points.ranks(g) for g in self.fvals]
        cuts = sorted(set(ranks).union(*franks))
        where = [0] * len(self.fs)
        own = 0
        for k in range(len(cuts) - 1):
            r0, r1 = cuts[k], cuts[k + 1]
            while own + 1 < len(ranks) - 1 and ranks[own + 1] <= r0:
                own += 1
            changed = []
            for j, fr in enumerate(franks):
                i = where[j]
                while i + 1 < len(fr) - 1 and fr[i + 1] <= r0:
                    i += 1
                if i != where[j]:
                    changed.append(j)
                where[j] = i
            forms = [g.formulas[i] for g, i in zip(self.fvals, where)]
            label = f.labels[own] if f.labels is not None else None
            self._piece = own
            yield (c.points.points[r0], c.points.points[r1], f.formulas[own], label, forms, list(where),
                   changed if k else None)

    def run(self) -> None:
        c = self.c
        if self.prepare():
            if c.a == c.b:
                self._at_point(c.a)
            # labels=True: the optimal moves must be given and are proved;
            # "given": they are proved where a value carries them (a file's claims)
            checked = c.labels is True or (c.labels == "given" and (self.f.labels is not None or self.f.point_labels is not None))
            if checked:
                self._prepare_labels()
            run_w, prev_forms, prev_own = None, None, None
            for x, y, N, label, forms, where, changed in self.walk():
                run_w = self._identity(x, y, N, forms, label, run_w, prev_forms, prev_own, changed)
                self._inequalities(x, y, N, forms, run_w, where, label if checked else None)
                prev_forms, prev_own = forms, N
                c.report.cells += 1
        c.report.positions += 1

    def _prepare_labels(self) -> None:
        """Labels on every piece and point, of legal moves; a point's label
        holds its neighbouring pieces' (they tie at the point, by continuity)."""
        f = self.f
        if f.labels is None or f.point_labels is None or len(f.point_labels) != len(f.points):
            raise VerificationError(f"position {self.c.game.position_label(self.u)}: its optimal moves are not given")
        for j, at in enumerate(f.point_labels):
            near = set()
            if j > 0:
                near |= set(f.labels[j - 1])
            if j < len(f.labels):
                near |= set(f.labels[j])
            if not near <= set(at) or not set(at) <= set(self.index):
                raise VerificationError(
                    f"position {self.c.game.position_label(self.u)}: the optimal moves at p = {_short(f.points[j])} are wrong"
                )
        self.point_index = {r: j for j, r in enumerate(self.ranks)}

    def values_at(self, t: fmpq) -> tuple:
        """``(N_u(t), [V_w(t)])`` exactly at a rational t."""
        ys = [1 - g(t) for g in self.fvals]
        out = []
        for row, q in zip(self.rows.num, self.rows.den):
            d = q(t)
            if d == 0:
                raise VerificationError(f"position {self.c.game.position_label(self.u)}: a row of psi is not defined at p = {t}")
            out.append(sum((n(t) * y for n, y in zip(row, ys)), fmpq(0)) / d)
        return self.f(t), out

    def _at_point(self, t: fmpq) -> None:
        """The Bellman equation at the single point of a degenerate interval."""
        N, vs = self.values_at(t)
        if N != max(vs):
            raise VerificationError(
                f"position {self.c.game.position_label(self.u)}: at p = {t} the stored N = {N} is not the best move's value {max(vs)}"
            )

    # ------------------------------------------------------------------ 1. the identity

    def _identity(self, x, y, N, forms, label, run_w, prev_forms, prev_N, changed):
        """The move ``w*`` with ``N = V_{w*}`` on the cell (proved), preferring
        the move of the previous cell (an identity of increments)."""
        c = self.c
        if run_w is not None and changed is not None and self._increment(run_w, N, prev_N, forms, prev_forms, changed):
            c.report.increments += 1
            return run_w
        tried = []
        order = []
        if run_w is not None:
            order.append(run_w)
        if label:
            order += sorted(self.index[m] for m in label if m in self.index)
        order += range(len(self.fs))
        common = None
        for w in order:
            if w in tried:
                continue
            tried.append(w)
            if common is None:
                common = self._common(forms)
            A = common.numerator(self.rows.num[w])
            if A * N.den == N.num * self.rows.den[w] * common.L:
                c.report.identities += 1
                return w
        _fail(c.game, self.u, x, y, f"the stored N = {_clip(N.text())} is the value of no sent move")

    def _increment(self, w, N, prev_N, forms, prev_forms, changed) -> bool:
        """Whether ``N - prev_N == sum_j psi(w, j) (prev_j - new_j)`` (then
        ``N = V_w`` on this cell follows from ``prev_N = V_w`` on the last),
        by cross-multiplying (no gcd): ``a / b == sum_j c_j / d_j``."""
        if not changed:
            return N == prev_N
        num, q = self.rows.num[w], self.rows.den[w]
        terms = []
        for j in changed:
            if num[j].is_zero() or prev_forms[j] is forms[j]:
                continue
            f0, f1 = prev_forms[j], forms[j]
            terms.append((num[j] * (f0.num * f1.den - f1.num * f0.den), f0.den * f1.den))
        if len(terms) > 2:
            return False  # (many followers change together: the full identity costs less)
        a = N.num * prev_N.den - prev_N.num * N.den
        b = N.den * prev_N.den * q
        if not terms:
            return a.is_zero()
        if len(terms) == 1:
            c, d = terms[0]
            return a * d == c * b
        (c1, d1), (c2, d2) = terms
        return a * d1 * d2 == (c1 * d2 + c2 * d1) * b

    def _common(self, forms) -> _Common:
        key = tuple(id(g) for g in forms)
        cache = self.c.common_cache
        got = cache.get(key)
        if got is None:
            got = _Common(forms)
            cache[key] = (got, forms)
            if len(cache) > 256:
                cache.pop(next(iter(cache)))
            return got
        return got[0]

    # ------------------------------------------------------------------ 2. the inequalities

    def _inequalities(self, x, y, N, forms, w, where, label=None) -> None:
        """``V_v <= V_w`` on the closed cell for every other move ``v``; with
        ``label`` (the labels are checked too) the moves of ``label`` tie with
        ``w`` identically and every other move is strictly worse on the open
        cell, and at each end of the cell unless the end's own label (a
        breakpoint of N_u, or an end of the interval) names it."""
        c = self.c
        m = len(self.fs)
        members = set() if label is None else {self.index[lab] for lab in label if lab in self.index}
        if label is not None and (len(members) != len(label) or w not in members):
            _fail(c.game, self.u, x, y, f"the optimal moves {sorted(map(str, label))} are not those of the value")
        if m == 1:
            return
        # the moves the stored label names tie with w: an identity settles each (a hint
        # only when the labels are not checked: a move that does not tie is tested below)
        hinted = members if label is not None else {
            self.index[lab] for lab in (self.f.labels[self._piece] if self.f.labels is not None else ()) if lab in self.index}
        todo = self._enclose(x, y, forms, w, where, skip=hinted)
        if not todo and not (hinted - {w}):
            return
        common = self._common(forms)
        A = common.numerator(self.rows.num[w])
        q = self.rows.den[w]
        for v in sorted(hinted - {w}):
            if A * self.rows.den[v] == common.numerator(self.rows.num[v]) * q:
                c.report.identities += 1
                continue
            if label is not None:
                _fail(c.game, self.u, x, y, f"the stored optimal move {self.labels[v]!r} does not tie with {self.labels[w]!r}")
            todo.append(v)
        t = rational_between(x, y) if x.compare(y) else x.lo
        for v in todo:
            # V_w - V_v = (A q_v - A_v q) / (q q_v L): its numerator over a positive denominator
            g = A * self.rows.den[v] - common.numerator(self.rows.num[v]) * q
            den = q * self.rows.den[v] * common.L
            if polys.sign(den(t)) < 0:
                g = -g
            c.report.exact += 1
            if label is None:
                ok = _nonneg_on(g, x, y, strict=False)
            else:
                ok = _positive_inside(g, x, y, self._end_tie(x, v), self._end_tie(y, v))
            if not ok:
                if label is not None and _nonneg_on(g, x, y, strict=False):
                    _fail(c.game, self.u, x, y, f"the stored optimal moves are wrong for the move {self.labels[v]!r}")
                _fail(c.game, self.u, x, y, f"sending {self.labels[v]!r} is better than the stored value N = {_clip(N.text())}")

    def _end_tie(self, z, v):
        """Whether the stored labels say move ``v`` is optimal at the cell end
        ``z``: True or False at a breakpoint of N_u or an end of the interval,
        False at a breakpoint of a follower only (inside a piece of N_u)."""
        j = self.point_index.get(self.c.points.rank[id(z)]) if hasattr(self, "point_index") else None
        if j is None:
            return False
        return self.labels[v] in self.f.point_labels[j]

    def _enclose(self, x, y, forms, w, where, skip=()) -> list:
        """The moves whose ``V_v <= V_w`` the enclosure could not prove on [x, y]
        (its margins are strict: the moves it settles are worse everywhere there)."""
        others = [v for v in range(len(self.fs)) if v != w and v not in skip]
        if not others:
            return []
        if x.compare(y) == 0:
            return others
        lo, hi = dyadic_hull(x, y, self.c.a, self.c.b)
        return self._box(lo, hi, forms, w, where, others, SPLITS)

    def _box(self, lo, hi, forms, w, where, moves, depth) -> list:
        """:meth:`_enclose` on the dyadic box [lo, hi] (a hull of the cell or a
        part of one) for ``moves``, halving the box where a move's gap at the
        middle is clearly larger than the bound on its variation would allow
        at half the width (a gap that vanishes at an end of the cell is left to
        the exact test at once)."""
        c, m = self.c, len(self.fs)
        t = (lo + hi) / 2
        P = self.psi.at(t)
        B = self.psi.bounds(lo, hi)
        if P is None or B is None:
            return moves
        plo, phi = P
        sup, dsup = B
        ylo = np.empty(m)
        yhi = np.empty(m)
        slope = np.empty(m)
        for j, g in enumerate(forms):
            vlo, vhi = c.vals.at(g, t)
            ylo[j], yhi[j] = 1.0 - vhi, 1.0 - vlo
            slope[j] = c.vals.slope((self.fs[j], where[j]), g, lo, hi)
        ylo, yhi = np.nextafter(ylo, -np.inf), np.nextafter(yhi, np.inf)
        if not (np.all(np.isfinite(ylo)) and np.all(np.isfinite(yhi)) and np.all(np.isfinite(slope))):
            return moves
        idx = np.array(moves, dtype=np.int64)
        # G_v = V_w - V_v = sum_j D_vj (1 - N_j), D_vj = psi(w, j) - psi(v, j), which is 0
        # identically where the two rows hold the same entry (one channel's rows often
        # differ in a few followers only: Chomp's neighbour channels)
        same = (self.psi.num_idx[idx] == self.psi.num_idx[w][None, :]) & (
            self.psi.den_idx[idx] == self.psi.den_idx[w])[:, None]
        live = ~same
        # G_v(t): interval products, summed
        dlo = np.where(live, plo[w][None, :] - phi[idx], 0.0)
        dhi = np.where(live, phi[w][None, :] - plo[idx], 0.0)
        Y0, Y1 = ylo[None, :], yhi[None, :]
        low = np.minimum(np.minimum(dlo * Y0, dlo * Y1), np.minimum(dhi * Y0, dhi * Y1)).sum(axis=1)
        # the variation over the box: |G_v(s) - G_v(t)| <= r max |G_v'|, where
        # |G_v'| <= sum_j |D_vj'| |1 - N_j| + |D_vj| |N_j'| and |1 - N_j| <= |y_j| + r |N_j'|
        r = float(hi - t) * (1 + 1e-9)
        ybound = np.maximum(np.abs(ylo), np.abs(yhi)) + r * slope
        dD = np.where(live, dsup[w][None, :] + dsup[idx], 0.0)
        sD = np.where(live, sup[w][None, :] + sup[idx], 0.0)
        var = r * (dD @ ybound + sD @ slope)
        size = np.abs(dlo).sum(axis=1) + np.abs(dhi).sum(axis=1) + var
        margin = low - var - 1e-12 * size - _SLACK
        undecided = [v for v, ok in zip(moves, margin > 0) if not ok]
        c.report.enclosed += len(moves) - len(undecided)
        if not undecided or depth == 0:
            return undecided
        # halving helps where the gap exceeds the variation at half the width
        # (a gap that vanishes at an end of the cell does not: it is exact)
        worth = [v for v, lw, vr in zip(moves, low, var) if v in undecided and lw > 0.55 * vr]
        if not worth:
            return undecided
        rest = [v for v in undecided if v not in worth]
        mid = t
        left = self._box(lo, mid, forms, w, where, worth, depth - 1)
        right = self._box(mid, hi, forms, w, where, worth, depth - 1)
        return rest + sorted(set(left) | set(right))


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


class _Checker:
    def __init__(self, game, channel, values, interval, misere, labels=False):
        self.game, self.channel, self.values, self.misere = game, channel, values, misere
        self.labels = labels
        self.a, self.b = (exact_number(x) for x in interval)
        self.points = _Points(values, self.a, self.b)
        self.report = BellmanReport()
        self.vals = _Values()
        self.common_cache: dict = {}


def check_position(game, channel, values: Mapping, interval, u, *, misere: bool = False,
                   labels: bool = False) -> BellmanReport:
    """The Bellman check of the one position ``u``, its followers' values
    taken as given (they are the caller's: proved before, or just computed).
    With ``labels`` the optimal-move sets it carries are proved too: on every
    piece exactly the moves that tie with N_u, and at every breakpoint and end
    exactly the moves optimal there."""
    needed = {u: values[u], **{x: values[x] for x in game.followers(u)}}
    checker = _Checker(game, channel, needed, interval, misere, labels)
    try:
        _Position(checker, u).run()
    except VerificationError:
        raise
    except SymbolicNoiseError as exc:
        raise VerificationError(f"position {game.position_label(u)}: {exc}") from None
    return checker.report


def check_optimal(game, channel, values: Mapping, interval, u, members, lo, hi, *, exact_set: bool,
                  misere: bool = False):
    """Whether every move of ``members`` (move names) is optimal at every p of
    [lo, hi] (and, with ``exact_set``, no other move is), from values that
    have passed :func:`check_values`; returns ``(holds, p)`` with a rational
    ``p`` where it fails (or ``None``)."""
    lo, hi = exact_number(lo), exact_number(hi)
    needed = {u: values[u], **{x: values[x] for x in game.followers(u)}}
    checker = _Checker(game, channel, needed, interval, misere)
    pos = _Position(checker, u)
    if not pos.prepare():
        return (not members, None)
    ids = []
    for m in members:
        if m not in pos.index:
            raise VerificationError(f"{m!r} is not a move of position {game.position_label(u)}")
        ids.append(pos.index[m])
    others = [v for v in range(len(pos.fs)) if v not in ids]
    if lo == hi:
        N, vs = pos.values_at(lo)
        ok = all(vs[i] == N for i in ids) and (not exact_set or all(vs[v] < N for v in others))
        return ok, (None if ok else lo)
    L, H = RealAlgebraic.rational(lo), RealAlgebraic.rational(hi)
    for x, y, N, label, forms, where, changed in pos.walk():
        if y.compare(L) <= 0 or x.compare(H) >= 0:
            continue
        x = x if x.compare(L) >= 0 else L
        y = y if y.compare(H) <= 0 else H
        common = pos._common(forms)
        for i in ids:
            A = common.numerator(pos.rows.num[i])
            if A * N.den != N.num * pos.rows.den[i] * common.L:
                return False, _witness_between(x, y, lambda t: pos.values_at(t)[1][i] != pos.values_at(t)[0])
        if exact_set and others:
            if not ids:
                return False, rational_between(x, y)
            w = ids[0]
            todo = pos._box(*dyadic_hull(x, y, lo, hi), forms, w, where, others, SPLITS)  # (its margins are strict)
            if todo:
                A = common.numerator(pos.rows.num[w])
                t = rational_between(x, y)
                for v in todo:
                    g = A * pos.rows.den[v] - common.numerator(pos.rows.num[v]) * pos.rows.den[w]
                    if polys.sign((pos.rows.den[w] * pos.rows.den[v] * common.L)(t)) < 0:
                        g = -g
                    if not _nonneg_on(g, x, y, strict=True):
                        return False, _witness_between(x, y, lambda t: pos.values_at(t)[1][v] >= pos.values_at(t)[0])
    return True, None


def _witness_between(x, y, bad) -> fmpq | None:
    """A simple rational of [x, y] where ``bad`` holds, or None."""
    cands = [rational_between(x, y)]
    if x.is_rational:
        cands.insert(0, x.rational_value)
    if y.is_rational:
        cands.append(y.rational_value)
    lo, hi = dyadic_hull(x, y)
    cands += [lo + (hi - lo) * fmpq(k, 64) for k in range(1, 64)]
    for t in cands:
        if x.compare(t) <= 0 and y.compare(t) >= 0:
            try:
                if bad(t):
                    return t
            except (VerificationError, ZeroDivisionError):
                continue
    return None


def closure(game, starts) -> list:
    """Every position reachable from ``starts``, followers first."""
    order: list = []
    seen: set = set()
    for s in starts:
        for v in game.positions(s):
            if v not in seen:
                seen.add(v)
                order.append(v)
    return order


def check_values(game, channel, values: Mapping, interval, *, misere: bool = False, positions=None,
                 progress: Callable[[Any, int, int], None] | None = None, labels: bool | str = False) -> BellmanReport:
    """Prove that ``values[u]`` is the value of ``u`` for every position of
    ``positions`` (default: every position reachable from the game's start),
    which must be closed under followers and all be in ``values``; returns a
    :class:`BellmanReport` or raises :class:`VerificationError`.  ``progress(u,
    done, total)`` is called after each position.  ``labels``: ``True`` proves
    every value's optimal-move sets (they must be given), ``"given"`` proves
    them where a value carries them, ``False`` ignores them."""
    order = closure(game, [game.start()]) if positions is None else list(positions)
    members = set(order)
    for u in order:
        if u not in values:
            raise VerificationError(f"the value of position {game.position_label(u)} is missing")
        for x in game.followers(u):
            if x not in members:
                raise VerificationError(
                    f"position {game.position_label(x)}, a follower of {game.position_label(u)}, is not in the checked set"
                )
    checker = _Checker(game, channel, {u: values[u] for u in order}, interval, misere, labels)
    done = set()
    pending = list(order)
    # followers first: a position's followers are proved before it is
    ordered = []
    for u in closure(game, order):
        if u in members and u not in done:
            done.add(u)
            ordered.append(u)
    for i, u in enumerate(ordered):
        try:
            _Position(checker, u).run()
        except SymbolicNoiseError as exc:
            if isinstance(exc, VerificationError):
                raise
            raise VerificationError(f"position {game.position_label(u)}: {exc}") from None
        if progress is not None:
            progress(u, i + 1, len(ordered))
    del pending
    return checker.report


__all__ = ["BellmanReport", "check_optimal", "check_position", "check_values", "closure"]
