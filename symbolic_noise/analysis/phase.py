"""Phase diagrams: the first player's value N(p, q) on the unit square (theory.md, section 6).

The first player sends through ``channel`` at p, the second through
``opponent_channel`` at q; both play optimally.  With ``W_v^i`` the value of
player i to move at v:

    W_v^1(w) = sum_u psi_v(w, u)(p) (1 - W_u^2),   W_v^2(w) = sum_u psi_v(w, u)(q) (1 - W_u^1)

and ``W_v^i = max_w W_v^i(w)``.  :func:`phase` proceeds by backward induction
over the polynomial set F: at each step it builds the cylindrical decomposition
of F (:mod:`symbolic_noise.exact.cad`), reads at every 2-cell's rational sample
the followers' formulas (exact evaluation; a 2-cell is sign-invariant for F, so
the formulas are constant on it), and adds to F the irreducible factors of the
numerators of ``W_v^i(w) - W_v^i(w')`` for every pair of distinct sent moves
and every follower combination that occurs, each with its *relevance set*: the
cells of the ``GRID x GRID`` grid where an interval quadtree cannot prove that
the factor has a strict sign or that one of the two moves is strictly below a
third (:meth:`_Solver._needed_factors`).  Outside that set the factor's zero set
never meets the set where the two moves are maximal together, so its sections
count only inside it, and resultants are taken only between neighbouring
counted sections (:func:`symbolic_noise.exact.cad.columns`).  The decomposition
for v thus refines its followers' where it matters.  At the end, every 2-cell
of the final decomposition carries N and every sent move's value as bivariate
rational functions and the first player's optimal moves at the start, and
:mod:`symbolic_noise.analysis.phasecells` merges cells with the same N and optimal moves
for output.  Two different formulas tying at a 2-cell's sample would mean a
missed switching set: it raises instead.

Examples
--------
>>> from symbolic_noise.games import Nim
>>> d = phase(Nim(2), "binary", "binary")
>>> r = d.locate("1/4", "1/3")
>>> r.value, sorted(r.optimal)
(3/4, [0])
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import fmpq

from ..exact.algebraic import rational_between, real_roots, sorted_exact
from ..exact.bivariate import BiRational, BoxBalls, BoxSign, bernstein_sign, from_univariate, irreducible_factors, poly_key, q_coeffs, specialise_q
from ..exact.cad import GRID, Projection, columns, locate_point
from ..games.channels import get_channel
from ..errors import ChannelNotApplicableError, IntervalError, InvalidChannelError, PhaseTooLargeError, UnknownChannelError
from ..games.rulesets import Game
from ..exact.formula import exact_number


#: refuse games with more positions than this (both players count once each)
MAX_POSITIONS = 200
#: refuse when the polynomial set grows beyond this many irreducible polynomials
MAX_POLYS = 2000


def opponent_spec(spec: str):
    """The channel of ``C@q`` (the second player's channel with its parameter named q).

    >>> opponent_spec("binary@q").name
    'binary'
    """
    base, at, var = spec.rpartition("@")
    if not at:
        return get_channel(spec)
    if var.strip() != "q":
        raise UnknownChannelError(f"the opponent's channel is written NAME@q for a phase diagram, not {spec!r}")
    return get_channel(base)


def _channel_rows(channel, game, v, var: int):
    """psi at v as rows of bivariate rational functions in p (var 0) or q (var 1);
    a two-parameter channel gives its own rows in (p, q) for both players."""
    if getattr(channel, "two_parameter", False):
        return [[e if not e.num.is_zero() else None for e in row] for row in channel.rows2(game, v)]
    rows = channel.rows(game, v)
    out = []
    for den, row in zip(rows.den, rows.num):
        d = from_univariate(den, var)
        out.append([BiRational(from_univariate(n, var), d) if not n.is_zero() else None for n in row])
    return out


@dataclass(frozen=True)
class Cell:
    """A 2-cell: sector ``sector`` of column ``column``, with its exact sample point.

    ``below``/``above`` name the boundaries ``(polynomial index, root index)``
    (``None``: p = 0 or p = 1).  ``value`` is N and ``moves`` every sent move's
    value, bivariate rational functions; ``optimal`` the first player's optimal
    moves at the start.  In a merged cell (:attr:`PhaseDiagram.cells`) ``value``
    and ``optimal`` hold on the whole cell, ``moves`` on the proved 2-cell that
    holds the sample (a move's formula may change across a merged-away section).
    """

    column: int  #: the index of the column (an interval of q between critical values)
    sector: int  #: the index of the sector within the column, counted from p = 0 upwards
    p: fmpq  #: the sample point's p, exact
    q: fmpq  #: the sample point's q, exact
    below: tuple | None  #: the boundary below, ``(polynomial index, root index)``, or ``None`` at p = 0
    above: tuple | None  #: the boundary above, ``(polynomial index, root index)``, or ``None`` at p = 1
    value: BiRational  #: N(p, q) on the cell
    moves: dict  #: every sent move's value by name, on the proved 2-cell that holds the sample
    optimal: frozenset  #: the first player's optimal moves at the start, on the cell

    def name(self) -> str:
        """The cell's name, ``C<column>.<sector>``."""
        return f"C{self.column}.{self.sector}"


@dataclass(frozen=True)
class Located:
    """The answer of :meth:`PhaseDiagram.locate`: exact value and optimal moves at (p, q)."""

    p: fmpq  #: the point's p, exact
    q: fmpq  #: the point's q, exact
    value: fmpq  #: N(p, q), exact
    optimal: frozenset  #: the first player's optimal moves at (p, q)
    cell: dict  #: where the point lies in the merged diagram (a cell, a boundary or a critical line of q)


class PhaseDiagram:
    """The decomposition of [0, 1]^2 with N(p, q) and the optimal moves on every cell."""

    #: which decomposition made it ("sweep" or "cad"), set by :func:`phase`
    method: str | None = None

    def __init__(self, game, channel, opponent, start, misere, proj, cols, cells, solver):
        from .phasecells import merge

        self.game, self.channel, self.opponent = game, channel, opponent
        self.start, self.misere = start, misere
        self.polys = proj.polys
        #: the proved decomposition (every counted section, before merging)
        self.cad_columns, self.cad_cells = cols, cells
        self.cad_critical = [c.lo for c in cols] + [cols[-1].hi]
        #: the output, merged columns and cells (:mod:`symbolic_noise.analysis.phasecells`)
        self.columns, self.cells, self._where = merge(cols, cells, proj.polys)
        self.critical = [c.lo for c in self.columns] + [self.columns[-1].hi]
        self._solver = solver

    def locate(self, p, q) -> Located:
        """The cell containing the exact point (p, q), with N and the optimal moves there.

        Inside a 2-cell of the proved decomposition the cell's formula gives N;
        on any of its sections or critical lines (walls or not) the value and
        optimal moves are those of the exact two-player backward induction at
        (p, q).  ``cell`` describes where the point lies in the merged diagram.
        """
        p, q = exact_number(p), exact_number(q)
        for name, x in (("p", p), ("q", q)):
            if not 0 <= x <= 1:
                raise IntervalError(f"{name} = {x} is outside [0, 1]")
        where = locate_point(self.columns, self.polys, p, q)
        if where[0] == "critical":
            c = self.critical[where[1]]
            info = {"kind": "critical-line", "q": c.exact_str(), "index": where[1]}
        elif where[0] == "boundary":
            f, i = self.columns[where[1]].boundaries[where[2]]
            info = {"kind": "boundary", "column": where[1], "polynomial": f, "root": i}
        else:
            _, col, sector = where
            cell = self.cells[(col, sector)]
            info = {"kind": "cell", "name": cell.name(), "column": col, "sector": sector,
                    "sample": [str(cell.p), str(cell.q)], "below": cell.below, "above": cell.above,
                    "formula": cell.value}
        fine = locate_point(self.cad_columns, self.polys, p, q)
        if fine[0] != "cell":
            value, optimal = self._solver.pointwise(p, q)
            return Located(p, q, value, optimal, info)
        if p in (0, 1) or q in (0, 1):
            # the sides of the square are no sections, but moves may tie there (p = 1
            # in Nim 5); where a channel is undefined the cell's formula is the limit
            try:
                value, optimal = self._solver.pointwise(p, q)
                return Located(p, q, value, optimal, info)
            except ChannelNotApplicableError:
                pass
        cell = self.cad_cells[(fine[1], fine[2])]
        return Located(p, q, cell.value(p, q), cell.optimal, info)

    def diagonal(self) -> list:
        """The restriction to q = p: ``[(lo, hi, optimal on the open piece)]``, pieces
        with equal optimal moves merged, end points exact.  The diagonal meets the
        sections only at roots of ``f(t, t)`` and the critical lines at t = the
        critical values: between two such points it stays in one 2-cell."""
        from flint import fmpz_poly

        pts = list(self.cad_critical)
        for f in self.polys:
            coeffs: dict = {}
            for (i, j), c in f.to_dict().items():
                coeffs[i + j] = coeffs.get(i + j, 0) + int(c)
            g = fmpz_poly([coeffs.get(d, 0) for d in range(max(coeffs) + 1)])
            if not g.is_zero():
                pts.extend(real_roots(g, 0, 1))
        cuts: list = []
        for r in sorted_exact(pts):
            if not cuts or cuts[-1].compare(r) != 0:
                cuts.append(r)
        out: list = []
        for lo, hi in zip(cuts, cuts[1:]):
            t = rational_between(lo, hi)
            opt = self.locate(t, t).optimal
            if out and out[-1][2] == opt:
                out[-1] = (out[-1][0], hi, opt)
            else:
                out.append((lo, hi, opt))
        return out

    def regions(self) -> dict:
        """``{optimal-move set: [cells]}``."""
        out: dict = {}
        for cell in self.cells.values():
            out.setdefault(cell.optimal, []).append(cell)
        return out

    def stats(self) -> dict:
        """Sizes: boundary polynomials, critical values of q and cells, of the
        merged diagram and of the proved decomposition, and the largest total degree."""
        return {
            "polynomials": len(self.polys),
            "critical_values": len(self.critical),
            "cells": len(self.cells),
            "cad_critical_values": len(self.cad_critical),
            "cad_cells": len(self.cad_cells),
            "max_total_degree": int(max((f.total_degree() for f in self.polys), default=0)),
        }

    def plot(self, path=None, **options):
        """Draw the diagram (regions coloured by optimal moves); returns the figure."""
        from ..io.phase_render import plot_phase

        return plot_phase(self, path, **options)

    def to_json(self) -> dict:
        """The whole diagram as JSON data: polynomials, critical values, columns and cells."""
        from ..io.phase_render import phase_json

        return phase_json(self)

    def __repr__(self) -> str:
        s = self.stats()
        return f"<PhaseDiagram of {self.game.describe()}: {s['cells']} cells, {s['critical_values']} critical values of q>"

    def _repr_html_(self) -> str:
        """The text summary (critical values, regions and their cells), in Jupyter."""
        import html

        from ..io.phase_render import phase_text

        return "<pre>" + html.escape(phase_text(self)) + "</pre>"


class _Solver:
    """Backward induction over the polynomial set (see the module docstring)."""

    def __init__(self, game: Game, channel, opponent, root, misere: bool):
        self.game, self.misere = game, misere
        self.chans = {1: channel, 2: opponent}
        self.order = [v for v in game.positions(root)]
        if 2 * len(self.order) > MAX_POSITIONS:
            raise PhaseTooLargeError(
                f"{game.describe()} has {len(self.order)} positions; phase diagrams are limited to {MAX_POSITIONS // 2}"
            )
        self.root = root
        # only the states (v, i) reachable from (start, 1) matter: (start, 2) never does
        self.needed = {(root, 1)}
        for v in reversed(self.order):
            for i in (1, 2):
                if (v, i) in self.needed:
                    self.needed.update((u, 3 - i) for u in game.followers(v))
        self.proj = Projection()
        self.formulas: list[BiRational] = []
        self._ids: dict = {}
        self.rows: dict = {}
        self.moves: dict = {}  # (v, i) -> {follower formula ids: [move formula ids]}
        self._combos: dict = {}  # (v, i, follower formula ids) -> [move formula ids] (:meth:`move_formulas`)
        self.labels = {v: [game.move_label(v, w) for w in game.followers(v)] for v in self.order}
        self.terminal = self._intern(BiRational.constant(1 if misere else 0))
        self._column_cache: dict = {}
        self._balls: dict = {}  # integer box (i, j, depth) -> its arb balls
        self._signs: dict = {}  # formula pair -> box signs of their difference
        self._densigns: dict = {}  # formula id -> sign of its denominator on the square
        self._belows: dict = {}  # (a, b, strict) -> whether a < b (<= b) on the whole square
        self._above: dict = {}  # (formula c, formula x, box) -> c > x on the box, proved
        self._qc: dict = {}  # formula id -> coefficients in p of num and den (polynomials in q)
        self._points: dict = {}  # sample point -> (state, values, positions done)
        self.fol = {v: game.followers(v) for v in self.order}
        self.alive: dict = {}  # (v, i, follower formula ids) -> the moves' formulas not dominated
        # (v, i, formula id) -> the alive sets of the follower combinations where it is a
        # candidate for W_v^i (it can be W_v^i only where it is not below another of one of them)
        self.producers: dict = {}
        self._dependants: dict = {}  # (u, i, formula id) -> combinations above whose relevance used its candidates
        self._strips: dict = {}  # (v, i, combination) -> the q-strips its relevance covered

    def _intern(self, f: BiRational) -> int:
        k = self._ids.get(f)
        if k is None:
            k = self._ids[f] = len(self.formulas)
            self.formulas.append(f)
        return k

    def _add_poly(self, g) -> None:
        for h in irreducible_factors(g):
            self.proj.add(h)
        if len(self.proj.polys) > MAX_POLYS:
            raise PhaseTooLargeError(
                f"the phase diagram of {self.game.describe()} needs more than {MAX_POLYS} boundary polynomials"
            )

    def _den_sign(self, t: int) -> int:
        """The sign of formula ``t``'s denominator on the closed square (0: not proved), cached."""
        s = self._densigns.get(t)
        if s is None:
            s = self._densigns[t] = bernstein_sign(self.formulas[t].den)
        return s

    def _below(self, a: int, b: int, strict: bool) -> bool:
        """Whether formula ``a`` < (``strict``) or <= formula ``b`` on all of [0, 1]^2, proved exactly."""
        key = (a, b, strict)
        hit = self._belows.get(key)
        if hit is None:
            fa, fb = self.formulas[a], self.formulas[b]
            sd = self._den_sign(a) * self._den_sign(b)
            hit = self._belows[key] = sd != 0 and sd * bernstein_sign(fb.diff_numerator(fa), strict=strict) > 0
        return hit

    def _needed_factors(self, alive: list, strips: list, context=()) -> list:
        """The irreducible factors of the differences of the moves' formulas whose
        zero sets may meet the set where the two moves are maximal together, each
        with the grid cells (:data:`~symbolic_noise.exact.cad.GRID`) where it may.

        A quadtree of boxes covers [0, 1]^2 down to the grid; a box is dropped
        when on it g has a proved strict sign, or ``a`` or ``b`` is strictly below
        another formula (interval arithmetic, rigorous).  Then the maximisers
        change only across the zero sets of the factors inside the grid cells
        kept.  Only the closed strips of q where this follower combination
        occurs are covered: the combination's region lies in the closure of its
        cells.  ``None`` for the cells means everywhere (no proof attempted).

        ``context`` lists, per follower, its formula t in the combination and
        the alive sets of the follower's own combinations where t is a
        candidate.  A box is dropped too when for some follower, in each of
        those sets another formula is strictly above t on the box (proved):
        then t is W of that follower nowhere on the box (on the closure of a
        cell where t is W, t is >= every candidate of the cell's combination),
        so the combination's region does not meet the box.
        """
        out: dict = {}
        pairs = [(a, b) for x, a in enumerate(alive) for b in alive[x + 1:]]
        factors = {(a, b): irreducible_factors(self.formulas[a].diff_numerator(self.formulas[b])) for a, b in pairs}
        signs = self._signs  # (a, b) -> (BoxSign of num(a - b), sign of den(a) den(b)); shared by all groups
        for a in alive:
            for b in alive:
                if a != b and (a, b) not in signs:
                    fa, fb = self.formulas[a], self.formulas[b]
                    signs[(a, b)] = (BoxSign(fa.diff_numerator(fb)), self._den_sign(a) * self._den_sign(b))
        usable = len(alive) >= 2 and all(signs[(a, b)][1] != 0 for a in alive for b in alive if a != b)
        depth = GRID.bit_length() - 1
        balls, above = self._balls, self._above
        # the grid rows meeting a closed strip, and prefix counts to test a box's rows at once
        hit = [False] * GRID
        for lo, hi in {(int(a.p), int(a.q), int(b.p), int(b.q)): (a, b) for a, b in strips}.values():
            # closed rows [r, r + 1]/GRID meeting the closed strip [lo, hi]
            first = max(0, int((lo * GRID).floor()) - 1)
            last = min(GRID - 1, int((hi * GRID).ceil()))
            for r in range(first, last + 1):
                if not hit[r] and fmpq(r, GRID) <= hi and lo <= fmpq(r + 1, GRID):
                    hit[r] = True
        prefix = [0]
        for h in hit:
            prefix.append(prefix[-1] + h)

        def box_of(i, j, d):  # the integer box (i, j) at depth d, its balls cached
            key = (i, j, d)
            if key not in balls:
                w = fmpq(1, 2**d)
                balls[key] = BoxBalls(i * w, (i + 1) * w, j * w, (j + 1) * w)
            return balls[key]

        def over(c, x, key):  # formula c is strictly above formula x on the box (cached for all groups)
            k = (c, x, key)
            if k not in above:
                above[k] = signs[(c, x)][1] * signs[(c, x)][0].sign(box_of(*key)) > 0
            return above[k]

        def dominated(x, key, cache):  # x is strictly below another formula on the box
            if (x, key) not in cache:
                cache[(x, key)] = any(over(c, x, key) for c in alive if c != x)
            return cache[(x, key)]

        def possible(key, cache):  # the combination may hold somewhere on the closed box
            if ("combination", key) not in cache:
                ok = True
                for t, sets in context:
                    if sets and all(any(c != t and over_any(c, t, key) for c in group) for group in sets):
                        ok = False
                        break
                cache[("combination", key)] = ok
            return cache[("combination", key)]

        def over_any(c, x, key):  # like over, for formulas of another position (their signs made on demand)
            k = (c, x, key)
            if k not in above:
                if (c, x) not in signs:
                    fc, fx = self.formulas[c], self.formulas[x]
                    signs[(c, x)] = (BoxSign(fc.diff_numerator(fx)), self._den_sign(c) * self._den_sign(x))
                above[k] = signs[(c, x)][1] * signs[(c, x)][0].sign(box_of(*key)) > 0
            return above[k]

        def meets_strips(j, d):
            s = 1 << (depth - d)
            return prefix[(j + 1) * s] > prefix[j * s]

        cache: dict = {}
        for a, b in pairs:
            for g in factors[(a, b)]:
                k = poly_key(g)
                if not usable:
                    out[k] = (g, None)
                    continue
                gs = BoxSign(g)
                todo, kept = [(0, 0, 0)], set()
                while todo:
                    key = todo.pop()
                    i, j, d = key
                    if not meets_strips(j, d):
                        continue
                    if gs.sign(box_of(*key)) != 0 or dominated(a, key, cache) or dominated(b, key, cache):
                        continue
                    if context and not possible(key, cache):
                        continue
                    if d == depth:
                        kept.add((i, j))
                        continue
                    todo += [(2 * i, 2 * j, d + 1), (2 * i + 1, 2 * j, d + 1), (2 * i, 2 * j + 1, d + 1), (2 * i + 1, 2 * j + 1, d + 1)]
                if kept:
                    prev = out.get(k)
                    if prev is None:
                        out[k] = (g, kept)
                    elif prev[1] is not None:
                        out[k] = (g, prev[1] | kept)
        return list(out.values())

    def move_formulas(self, v, i: int, tup: tuple) -> list[int]:
        """The formula ids of ``W_v^i(w)`` for every sent move w, the followers'
        ``W_u^j`` being the formulas ``tup`` (in the order of ``game.followers(v)``):
        ``sum_u psi_v(w, u) (1 - W_u^j)``, interned (cached per combination)."""
        key = (v, i, tup)
        ids = self._combos.get(key)
        if ids is not None:
            return ids
        if (v, i) not in self.rows:
            self.rows[(v, i)] = _channel_rows(self.chans[i], self.game, v, i - 1)
        lose = [BiRational(self.formulas[t].den - self.formulas[t].num, self.formulas[t].den) for t in tup]
        ids = []
        for row in self.rows[(v, i)]:
            total = BiRational.constant(0)
            for e, g in zip(row, lose):
                if e is not None and not g.num.is_zero():
                    total = total + BiRational(e.num * g.num, e.den * g.den)
            ids.append(self._intern(total))
        self._combos[key] = ids
        return ids

    def _move_ids(self, v, i: int, tup: tuple, *, strict: bool, strips=None) -> list[int]:
        table = self.moves.setdefault((v, i), {})
        ids = table.get(tup)
        if ids is not None:
            return ids
        if strict:
            raise ArithmeticError(f"a follower combination at {v!r} was not seen during the induction")
        first = (v, i) not in self.rows
        ids = self.move_formulas(v, i, tup)
        if first:
            for row in self.rows[(v, i)]:
                for e in row:
                    if e is not None:
                        self._add_poly(e.den)
        distinct = sorted(set(ids))
        # A move strictly below another on the whole closed square is never optimal
        # and never ties: its switching sets are not needed (Bernstein proves it).
        # Below the start only W (the max) matters, not who attains it: a move
        # below another (ties allowed) never changes the formula of the max.
        strict = v == self.root
        alive = [a for a in distinct if not any(self._below(a, b, strict) for b in distinct if b != a)]
        self.alive[(v, i, tup)] = frozenset(alive)
        table[tup] = ids
        self._relevance(v, i, tup, alive, strips or [(fmpq(0), fmpq(1))])
        stale = set()
        for t in alive:
            self.producers.setdefault((v, i, t), []).append(frozenset(alive))
            # a combination above that used t's candidates saw fewer of them: redo its relevance
            stale |= self._dependants.get((v, i, t), set())
        for key in sorted(stale, key=repr):
            self._relevance(*key, sorted(self.alive[key]), self._strips[key])
        return ids

    def _relevance(self, v, i: int, tup: tuple, alive: list, strips: list) -> None:
        """Add the switching factors of the combination ``tup`` at (v, i) with their
        relevance sets (:meth:`_needed_factors`); the follower formulas' candidates
        used are recorded, so that a candidate set found later makes it run again
        (the relevance sets only grow: :meth:`Projection.add` takes unions)."""
        self._strips[(v, i, tup)] = strips
        context = []
        for u, t in zip(self.fol[v], tup):
            self._dependants.setdefault((u, 3 - i, t), set()).add((v, i, tup))
            context.append((t, list(self.producers.get((u, 3 - i, t), ()))))
        for g, cells in self._needed_factors(alive, strips, context):
            self.proj.add(g, cells)
        if len(self.proj.polys) > MAX_POLYS:
            raise PhaseTooLargeError(
                f"the phase diagram of {self.game.describe()} needs more than {MAX_POLYS} boundary polynomials"
            )

    def _value(self, t: int, p: fmpq, q: fmpq, cache: dict) -> fmpq:
        """Formula ``t`` at (p, q), exactly; its restriction to the line q is kept
        (every sector of a column shares q)."""
        g = cache.get(t)
        if g is None:
            qc = self._qc.get(t)
            if qc is None:
                f = self.formulas[t]
                qc = self._qc[t] = (q_coeffs(f.num), q_coeffs(f.den))
            g = cache[t] = (specialise_q(None, q, qc[0]), specialise_q(None, q, qc[1]))
        d = g[1](p)
        if d == 0:
            raise ZeroDivisionError(f"a denominator vanishes at ({p}, {q})")
        return g[0](p) / d

    def state_at(self, p: fmpq, q: fmpq, upto: int, *, strict: bool, collect=None, strip=None):
        """Formula ids of ``W_v^i`` at the sample (p, q) for the first ``upto`` positions;
        with ``collect``, the follower combinations of the position ``upto`` are
        recorded.  What is known at a point is kept (a sample recurs while the
        decomposition is refined) and the induction resumes from there."""
        pkey = (int(p.p), int(p.q), int(q.p), int(q.q))
        state, values, done = self._points.get(pkey, ({}, {}, 0))
        cache = self._column_cache.setdefault(pkey[2:], {})
        for n in range(done, min(upto + 1, len(self.order))):
            v = self.order[n]
            fs = self.fol[v]
            for i in (1, 2):
                if (v, i) not in self.needed:
                    continue
                if not fs:
                    state[(v, i)], values[(v, i)] = self.terminal, fmpq(1 if self.misere else 0)
                    continue
                tup = tuple(state[(u, 3 - i)] for u in fs)
                if n >= upto:
                    if collect is not None:
                        collect.setdefault((v, i), {}).setdefault(tup, []).append(strip)
                    continue
                ids = self._move_ids(v, i, tup, strict=strict)
                vals = [self._value(t, p, q, cache) for t in ids]
                top = max(vals)
                lead = {t for t, x in zip(ids, vals) if x == top}
                if len(lead) > 1:  # a dominated move may touch the max (below the start only)
                    lead &= self.alive[(v, i, tup)]
                if len(lead) != 1:
                    raise ArithmeticError(f"different formulas tie at the 2-cell sample ({p}, {q}) at {v!r}")
                state[(v, i)], values[(v, i)] = lead.pop(), top
            if n < upto:
                done = n + 1
        self._points[pkey] = (state, values, done)
        return state, values

    def run(self, progress=None):
        n = len(self.order)
        for upto in range(n):
            # one position at a time: its followers come earlier in the order
            seen: dict = {}
            if upto == 0:
                self.state_at(fmpq(1, 2), fmpq(1, 2), 0, strict=False, collect=seen, strip=(fmpq(0), fmpq(1)))
            else:
                for col in columns(self.proj):
                    # a closed rational strip of q around the column (outer ends of the isolating intervals)
                    strip = (col.lo.lo, col.hi.hi)
                    for s in col.sectors:
                        self.state_at(s, col.q, upto, strict=False, collect=seen, strip=strip)
            v = self.order[upto]
            for i in (1, 2):
                for tup, strips in seen.get((v, i), {}).items():
                    self._move_ids(v, i, tup, strict=False, strips=strips)
            if progress is not None:
                progress(upto + 1, n)
        cols = columns(self.proj)
        cells = {}
        for col in cols:
            for k, s in enumerate(col.sectors):
                state, _ = self.state_at(s, col.q, n, strict=True)
                v = self.root
                fs = self.game.followers(v)
                if not fs:
                    moves, optimal = {}, frozenset()
                else:
                    ids = self._move_ids(v, 1, tuple(state[(u, 2)] for u in fs), strict=True)
                    moves = {m: self.formulas[t] for m, t in zip(self.labels[v], ids)}
                    best = state[(v, 1)]
                    optimal = frozenset(m for m, t in zip(self.labels[v], ids) if t == best)
                below = col.boundaries[k - 1] if k > 0 else None
                above = col.boundaries[k] if k < len(col.boundaries) else None
                cells[(col.index, k)] = Cell(col.index, k, s, col.q, below, above,
                                             self.formulas[state[(v, 1)]], moves, optimal)
        return cols, cells

    def pointwise(self, p: fmpq, q: fmpq):
        """Exact two-player backward induction at one rational point."""
        mats = {}
        W: dict = {}
        out = None
        for v in self.order:
            fs = self.game.followers(v)
            for i in (1, 2):
                if not fs:
                    W[(v, i)] = fmpq(1 if self.misere else 0)
                    continue
                x = p if i == 1 else q
                key = (v, i)
                if key not in mats:
                    if getattr(self.chans[i], "two_parameter", False):
                        mats[key] = _rows_at(self.chans[i].rows2(self.game, v), p, q, v)
                    else:
                        mats[key] = self.chans[i].rows(self.game, v).at(x)
                lose = [1 - W[(u, 3 - i)] for u in fs]
                vals = [sum((a * b for a, b in zip(row, lose)), fmpq(0)) for row in mats[key]]
                W[(v, i)] = max(vals)
                if v == self.root and i == 1:
                    out = (W[(v, i)], frozenset(m for m, y in zip(self.labels[v], vals) if y == W[(v, i)]))
        if out is None:
            out = (W[(self.root, 1)], frozenset())
        return out


def _rows_at(rows, p: fmpq, q: fmpq, v) -> list:
    """A two-parameter channel's rows at the point (p, q), exactly."""
    try:
        return [[e(p, q) for e in row] for row in rows]
    except ZeroDivisionError:
        raise ChannelNotApplicableError(
            f"the two-parameter channel is undefined at (p, q) = ({p}, {q}) (no legal move can be received)", position=v
        ) from None


def phase(game: Game, channel, opponent_channel=None, *, start=None, misere: bool = False, progress=None,
          method: str = "sweep", executor=None) -> PhaseDiagram:
    """The phase diagram of ``game``: the first player at p through ``channel``,
    the second at q through ``opponent_channel`` (default: the same family).

    ``executor`` (``method="sweep"`` only): a ``concurrent.futures`` executor, e.g.
    ``ProcessPoolExecutor(2)``, that computes the events' discriminants and
    resultants (most of the time of a large diagram); the diagram is the same.

    >>> from symbolic_noise.games import Chomp
    >>> d = phase(Chomp(2, 2), "king", "king@q")
    >>> d.locate("1/2", "1/2").value, sorted(d.locate("1/2", "1/2").optimal)
    (1/2, [(2, 2)])
    """
    ch = get_channel(channel) if not hasattr(channel, "rows") else channel
    if opponent_channel is None:
        opp = ch
    elif hasattr(opponent_channel, "rows"):
        opp = opponent_channel
    else:
        opp = opponent_spec(opponent_channel)
    if getattr(ch, "two_parameter", False) or getattr(opp, "two_parameter", False):
        if ch.name != opp.name:
            raise InvalidChannelError(
                f"a two-parameter channel ({ch.name if getattr(ch, 'two_parameter', False) else opp.name}) is shared by"
                " both players: give it as --channel alone"
            )
        opp = ch
    root = game.start() if start is None else game.check_position(start)
    solver = _Solver(game, ch, opp, root, misere)
    if method == "sweep":
        from .phasesweep import run_sweep

        proj, cols, cells = run_sweep(solver, progress, executor=executor)
    elif method == "cad":
        cols, cells = solver.run(progress)
        proj = solver.proj
    else:
        raise ValueError(f"unknown phase method {method!r} (sweep or cad)")
    diagram = PhaseDiagram(game, ch, opp, root, misere, proj, cols, cells, solver)
    diagram.method = method  # (which decomposition: what the outputs' provenance names)
    return diagram


__all__ = ["Cell", "Located", "PhaseDiagram", "opponent_spec", "phase"]
