"""The cylindrical decomposition of [0, 1]^2 over q (theory.md, section 6).

:func:`decompose` builds it for a finite set of irreducible polynomials: the
critical values of q are the real roots in [0, 1] of leading coefficients,
discriminants, of ``f(0, q)``, ``f(1, q)`` (a boundary running into p = 0 or
p = 1) and of the resultants in p of the pairs whose sections are adjacent in
some column (:func:`columns`, a Bentley-Ottmann fixed point), plus the ends 0
and 1; all are exact :class:`~symbolic_noise.exact.algebraic.RealAlgebraic` numbers.
Between two critical values each polynomial's roots in (0, 1) are continuous in
q and never meet, so their order and the sectors between them are read at one
rational sample q.  A polynomial may be declared relevant only on some cells of
a grid (:class:`Projection`); its sections then count only there.

Examples
--------
>>> from symbolic_noise.exact.bivariate import CTX
>>> p, q = CTX.gens()
>>> cols = decompose([p - q])
>>> [str(c.lo) for c in cols], [len(c.sectors) for c in cols]
(['0'], [2])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flint import fmpq, fmpq_poly, fmpz_mpoly, fmpz_poly

from .algebraic import RealAlgebraic, rational_between, real_roots, sorted_exact, sorted_exact_by
from .bivariate import (ONE2, Q_GEN, ZERO2, BoxSign, at_q, deg_p, discriminant_q, in_q, irreducible_factors, lc_p,
                        poly_key, q_coeffs, resultant_q)
from .crossings import no_common_zero, no_common_zero_boxes

# --------------------------------------------------------------------------- cylindrical decomposition


@dataclass
class Column:
    """The cylinder over the open q-interval (lo, hi) of two consecutive critical values.

    ``boundaries[k] = (f, i)``: the k-th section from below is the i-th root (from
    0, counted in the open interval 0 < p < 1) of ``polys[f]`` in p, for every q in
    (lo, hi).  ``sectors[k]`` is a rational sample p between sections k - 1 and k
    (p = 0 and p = 1 closing the ends), all at the sample ``q``.
    """

    index: int  #: the column's place, counted from q = 0
    lo: RealAlgebraic  #: the critical value below
    hi: RealAlgebraic  #: the critical value above
    q: fmpq  #: the rational sample q inside (lo, hi)
    boundaries: list = field(default_factory=list)  #: the sections ``(f, i)``, from below
    sectors: list = field(default_factory=list)  #: a rational sample p of every sector, from below


def interior_roots(f: fmpz_mpoly, s: fmpq, coeffs=None) -> list[RealAlgebraic]:
    """The real roots of ``f(p, s)`` in the open interval 0 < p < 1, increasing."""
    g = at_q(f, s, coeffs)
    if g.degree() < 1:
        return []
    zero, one = RealAlgebraic.rational(0), RealAlgebraic.rational(1)
    return [r for r in real_roots(g, 0, 1) if r.compare(zero) > 0 and r.compare(one) < 0]


#: a resultant root's isolating interval is narrowed to this width before its
#: line is tested for a meeting of the pair's sections (:meth:`Projection._may_cross`)
CROSSING_WIDTH = fmpq(1, 2**30)

#: boxes are not split below this size when proving that two polynomials have no
#: common zero where both count (:meth:`Projection.may_meet`): then the resultant is taken
APART_WIDTH = fmpq(1, 2**9)

#: the relevance grid; a polynomial may be declared relevant only on closed cells
#: [i/GRID, (i+1)/GRID] x [j/GRID, (j+1)/GRID] of this grid
GRID = 64


def _row_of(s: fmpq) -> int:
    """The grid row j with j/GRID < s < (j+1)/GRID (s is never on a grid line)."""
    return int((s * GRID).floor())


def _intervals(cells) -> dict:
    """``{row: [(a, b), ...]}``: the kept grid cells of each row as maximal closed p-intervals."""
    rows: dict = {}
    for i, j in cells:
        rows.setdefault(j, []).append(i)
    out = {}
    for j, xs in rows.items():
        xs, runs = sorted(set(xs)), []
        for i in xs:
            if runs and runs[-1][1] == i:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
        out[j] = [(fmpq(a, GRID), fmpq(b, GRID)) for a, b in runs]
    return out


def squarefree_q_parts(g: fmpz_mpoly) -> list:
    """``[(key, h)]``: the square-free factors h of a polynomial in q alone (pairwise
    coprime, primitive, positive leading coefficient, degree >= 1) as ``fmpz_poly``,
    keyed by their coefficients; ``[]`` for a constant or zero g.

    >>> from symbolic_noise.exact.bivariate import CTX
    >>> _, q = CTX.gens()
    >>> [k for k, _ in squarefree_q_parts(-2 * (q - 1) ** 2 * q)]
    [(0, 1), (-1, 1)]
    """
    if g.is_zero() or g.is_constant():
        return []
    return squarefree_parts(in_q(g))


def squarefree_parts(g: fmpz_poly) -> list:
    """:func:`squarefree_q_parts` of a polynomial in q given as an ``fmpz_poly``.

    >>> [k for k, _ in squarefree_parts(fmpz_poly([0, -2, 4, -2]))]
    [(0, 1), (-1, 1)]
    """
    if g.degree() < 1:
        return []
    out = []
    for h, _ in g.factor_squarefree()[1]:
        if h.degree() < 1:
            continue
        if h.coeffs()[-1] < 0:
            h = -h
        out.append((tuple(int(c) for c in h.coeffs()), h))
    return out


def at_p(f: fmpz_mpoly, a: fmpq) -> fmpz_poly:
    """``f(a, q)`` for a rational ``a``, cleared of denominators, as a polynomial in q."""
    coeffs: dict = {}
    for (i, j), c in f.to_dict().items():
        coeffs[j] = coeffs.get(j, fmpq(0)) + fmpq(c) * a**i
    return fmpq_poly([coeffs.get(j, 0) for j in range(max(coeffs, default=-1) + 1)]).numer()


class Projection:
    """The critical-value polynomials in q of a growing set of polynomials.

    Each polynomial contributes its leading coefficient and discriminant in p
    and ``f(0, q)``, ``f(1, q)`` when it is added.  Resultants are computed
    lazily, only for the pairs :func:`columns` finds adjacent (a Bentley-Ottmann
    argument, see there), each pair once.

    A polynomial may come with a *relevance set*: closed cells of the
    ``GRID x GRID`` grid outside which its zero set provably does not matter
    (the caller proves it; :mod:`symbolic_noise.analysis.phase` uses interval
    quadtrees).  Its sections then count in a column only where they lie in
    those cells, and its critical values only in the grid rows where it is
    relevant.  With any relevance set present, the grid lines q = j/GRID are
    critical values, so a column lies inside one grid row, and the roots of
    ``f(a, q)`` at the ends a of its relevant p-intervals are too, so a section
    stays in or out of the relevant set on the whole column.
    """

    def __init__(self):
        self.polys: list[fmpz_mpoly] = []  #: the polynomials in (p, q), in the order they were added
        self._keys: dict = {}
        self.q_polys: dict = {}  #: the critical-value polynomials in q (irreducible factors), by key
        self._owners: dict = {}  # key -> owners: (i,) for lc/disc/edges of i, (i, j) for a resultant
        self.pairs: set = set()  #: the index pairs (i, j), i < j, whose resultant is in :attr:`q_polys`
        self.cells: list = []  #: per polynomial, its relevance set of grid cells (None if relevant everywhere)
        self.rows: list = []  #: per polynomial, None or its relevant closed p-intervals by grid row
        self._roots: dict = {}  # q-poly key -> its real roots in [0, 1]
        self._sections: dict = {}  # (poly index, rational q) -> roots in 0 < p < 1
        self._ends: dict = {}  # (poly index, a, row) -> roots of f(a, q) in the row
        self.degs: list = []  #: per polynomial, its degree in p
        self.qc: list = []  #: per polynomial, its coefficients in p as polynomials in q
        self.version = 0  # bumped whenever a polynomial or a relevance set changes
        self._columns: dict = {}
        self._shared: dict = {}
        self._crossing: dict = {}  # (q-poly key, root index, pair, relevance sizes) -> sections proved apart
        self._signs: dict = {}  # poly index -> its BoxSign
        self._apart: dict = {}  # (i, j, relevance sizes) -> no common zero where both count, proved

    def _add_q(self, g: fmpz_mpoly, owner: tuple) -> None:
        """Record the real roots' polynomial of ``g`` (a polynomial in q alone) for
        ``owner``: its square-free factors (pairwise coprime, primitive, positive
        leading coefficient) as univariate polynomials.  Only their roots matter,
        so no full factorisation: equal roots of different keys are merged
        exactly when the critical values are sorted."""
        if not (g.is_zero() or g.is_constant()):
            self._add_q_poly(in_q(g), owner)

    def _add_q_poly(self, g: fmpz_poly, owner: tuple) -> None:
        """:meth:`_add_q` of a polynomial in q given as an ``fmpz_poly``."""
        for k, h in squarefree_parts(g):
            self.q_polys.setdefault(k, h)
            self._owners.setdefault(k, set()).add(owner)

    def add(self, f: fmpz_mpoly, cells=None) -> int:
        """Add an irreducible normalised polynomial, relevant on the grid ``cells``
        (``None``: everywhere); a polynomial added again gets the union.  Returns its index."""
        k = poly_key(f)
        self.version += 1
        if k in self._keys:
            idx = self._keys[k]
            old = self.cells[idx]
            if old is not None:
                self.cells[idx] = None if cells is None else old | set(cells)
                self.rows[idx] = None if cells is None else _intervals(self.cells[idx])
            return idx
        idx = self._keys[k] = len(self.polys)
        self.polys.append(f)
        self.degs.append(deg_p(f))
        self.qc.append(q_coeffs(f))
        self.cells.append(None if cells is None else set(cells))
        self.rows.append(None if cells is None else _intervals(cells))
        owner = (idx,)
        if deg_p(f) == 0:
            self._add_q(f, owner)
        else:
            self._add_q(lc_p(f), owner)
            if deg_p(f) >= 2:
                self._add_q_poly(discriminant_q(f), owner)
            self._add_q(f.compose(ZERO2, Q_GEN), owner)
            self._add_q(f.compose(ONE2, Q_GEN), owner)
        return idx

    def add_pair(self, i: int, j: int) -> None:
        """Add the resultant in p of polynomials ``i`` and ``j`` (once)."""
        key = (min(i, j), max(i, j))
        if key in self.pairs or i == j:
            return
        self.pairs.add(key)
        self._add_q_poly(resultant_q(self.polys[i], self.polys[j]), key)

    def add_all_pairs(self) -> None:
        """Every pairwise resultant (the classical projection; for tests)."""
        for i in range(len(self.polys)):
            for j in range(i):
                if deg_p(self.polys[i]) >= 1 and deg_p(self.polys[j]) >= 1:
                    self.add_pair(i, j)

    def restricted(self) -> bool:
        """Whether any polynomial came with a relevance set."""
        return any(c is not None for c in self.cells)

    def _shared_rows(self, owner: tuple):
        """The grid rows where every polynomial of ``owner`` is relevant and, for a
        pair, their relevant p-intervals overlap (closed); ``None``: every row."""
        key = (owner, self.version)
        hit = self._shared.get(owner)
        if hit is not None and hit[0] == key:
            return hit[1]
        rows = [self.rows[i] for i in owner if self.rows[i] is not None]
        if not rows:
            out = None
        elif len(rows) == 1:
            out = set(rows[0])
        else:
            out = {j for j in rows[0] if j in rows[1]
                   and any(a <= d and c <= b for a, b in rows[0][j] for c, d in rows[1][j])}
        self._shared[owner] = (key, out)
        return out

    def may_meet(self, i: int, j: int) -> bool:
        """Whether the relevant parts of polynomials i and j may meet: a shared grid row
        where their relevant p-intervals overlap, and no proof (arb boxes,
        :func:`~symbolic_noise.exact.crossings.no_common_zero_boxes`) that the two
        polynomials have no common zero on the closed overlaps.  Cached per
        relevance sets."""
        i, j = min(i, j), max(i, j)
        rows = self._shared_rows((i, j))
        if rows is not None and not rows:
            return False
        sig = (i, j, len(self.cells[i]) if self.cells[i] is not None else -1,
               len(self.cells[j]) if self.cells[j] is not None else -1)
        hit = self._apart.get(sig)
        if hit is None:
            boxes = [(a, b, fmpq(row, GRID), fmpq(row + 1, GRID))
                     for row in (range(GRID) if rows is None else sorted(rows)) for a, b in self._overlaps(i, j, row)]
            hit = self._apart[sig] = no_common_zero_boxes(self._box_sign(i), self._box_sign(j), boxes,
                                                          min_width=APART_WIDTH)
        return not hit

    def _relevant_rows(self, owner: tuple, r: RealAlgebraic):
        """Whether ``r`` lies in a closed grid row of :meth:`_shared_rows`."""
        cand = self._shared_rows(owner)
        if cand is None:
            return True
        lo, hi = r.interval
        zero = RealAlgebraic.rational
        for j in cand:
            if fmpq(j, GRID) <= hi and lo <= fmpq(j + 1, GRID):
                if r.compare(zero(fmpq(j, GRID))) >= 0 and r.compare(zero(fmpq(j + 1, GRID))) <= 0:
                    return True
        return False

    def critical_values(self) -> list[RealAlgebraic]:
        """0, 1 and every real root in [0, 1] of the projection where its polynomials
        are relevant, the grid lines and the relevant intervals' end crossings;
        increasing, distinct."""
        pts = [RealAlgebraic.rational(0), RealAlgebraic.rational(1)]
        for key, g in self.q_polys.items():
            if key not in self._roots:
                self._roots[key] = real_roots(g, 0, 1)
            for k, r in enumerate(self._roots[key]):
                if any(self._relevant_rows(o, r) and (len(o) == 1 or self._may_cross(key, k, o, r)) for o in self._owners[key]):
                    pts.append(r)
        if self.restricted():
            pts.extend(RealAlgebraic.rational(fmpq(j, GRID)) for j in range(1, GRID))
            for idx, rows in enumerate(self.rows):
                if rows is None or self.degs[idx] == 0:
                    continue
                for j, ivs in rows.items():
                    for a, b in ivs:
                        for x in (a, b):
                            if 0 < x < 1:
                                pts.extend(self._end_roots(idx, x, j))
        out: list[RealAlgebraic] = []
        for r in sorted_exact(pts):
            if not out or out[-1].compare(r) != 0:
                out.append(r)
        return out

    def _may_cross(self, key, k: int, owner: tuple, r: RealAlgebraic) -> bool:
        """Whether the counted sections of the pair ``owner`` may meet on the line q = r
        (r the k-th root of the resultant factor ``key``); False only when proved
        (:func:`symbolic_noise.exact.crossings.no_common_zero`) on a closed
        neighbourhood of the line: every closed grid row meeting r's isolating
        interval, p in the overlaps of the two closed relevant p-intervals there
        ([0, 1] for a polynomial relevant everywhere).  Cached per relevance sets."""
        i, j = owner
        sig = (key, k, owner, len(self.cells[i]) if self.cells[i] is not None else -1,
               len(self.cells[j]) if self.cells[j] is not None else -1)
        hit = self._crossing.get(sig)
        if hit is None:
            hit = self._crossing[sig] = self._prove_apart(i, j, r)
        return not hit

    def _prove_apart(self, i: int, j: int, r: RealAlgebraic) -> bool:
        r.refine_to(CROSSING_WIDTH)
        lo, hi = r.interval
        ivs = []
        for row in range(max(0, int((lo * GRID).floor()) - 1), min(GRID - 1, int((hi * GRID).ceil())) + 1):
            if fmpq(row, GRID) <= hi and lo <= fmpq(row + 1, GRID):
                ivs += self._overlaps(i, j, row)
        return no_common_zero(self._box_sign(i), self._box_sign(j), ivs, lo, hi)

    def _overlaps(self, i: int, j: int, row: int) -> list:
        """The closed p-intervals where polynomials i and j both count in grid row ``row``."""
        whole = [(fmpq(0), fmpq(1))]
        out = []
        for a, b in whole if self.rows[i] is None else self.rows[i].get(row, []):
            for c, d in whole if self.rows[j] is None else self.rows[j].get(row, []):
                if max(a, c) <= min(b, d):
                    out.append((max(a, c), min(b, d)))
        return out

    def _box_sign(self, idx: int) -> BoxSign:
        if idx not in self._signs:
            self._signs[idx] = BoxSign(self.polys[idx])
        return self._signs[idx]

    def _end_roots(self, idx: int, a: fmpq, j: int) -> list:
        key = (idx, a, j)
        if key not in self._ends:
            g = at_p(self.polys[idx], a)
            # g == 0: f is p - a itself, a section that stays on the interval's end
            self._ends[key] = [] if g.degree() < 1 else real_roots(g, fmpq(j, GRID), fmpq(j + 1, GRID))
        return self._ends[key]

    def sections(self, idx: int, s: fmpq) -> list[RealAlgebraic]:
        """The roots in 0 < p < 1 of polynomial ``idx`` at q = s (cached)."""
        per = self._sections.setdefault((int(s.p), int(s.q)), {})
        if idx not in per:
            per[idx] = interior_roots(self.polys[idx], s, self.qc[idx])
        return per[idx]

    def in_row(self, idx: int, row: int) -> bool:
        """Whether polynomial ``idx`` may count anywhere in grid row ``row``."""
        rows = self.rows[idx]
        return rows is None or row in rows

    def counts(self, idx: int, r: RealAlgebraic, s: fmpq) -> bool:
        """Whether the section through (r, s) of polynomial ``idx`` counts (lies in its relevant set)."""
        rows = self.rows[idx]
        if rows is None:
            return True
        for a, b in rows.get(_row_of(s), ()):
            if r.compare(a) >= 0 and r.compare(b) <= 0:
                return True
        return False


def columns(proj: Projection) -> list[Column]:
    """The cylindrical decomposition of [0, 1]^2 adapted to ``proj.polys``.

    Only resultants of pairs of polynomials whose counted sections are
    *adjacent* in some column are needed, and they are added until a fixed
    point (a Bentley-Ottmann argument).  Why this suffices: let (c1, c2) be a
    column with sample s, every adjacent pair at s having its resultant's roots
    among the critical values.  Each polynomial's roots in (0, 1) are continuous
    and distinct on the column (no root of lc, disc, f(0, q), f(1, q) in it), and
    a counted section stays counted (the column lies in one grid row and no
    section crosses the end of a relevant interval in it).  If two counted
    sections met in the column, take the meeting q* nearest to s: up to q* the
    order is that of s, and the sections through the meeting point form a block
    that is contiguous in that order (a section between two of them is squeezed
    onto the point).  Two neighbours in the block belong to different
    polynomials (else a double root: disc = 0), so their resultant vanishes at
    q*; the meeting point lies in both relevant sets, in one grid row where
    their relevant p-intervals overlap, so the pair was projected and q* is a
    critical value inside the column: impossible.  (Neighbours whose relevant
    p-intervals overlap in no grid row, or proved to have no common zero on the
    closed overlaps (:meth:`Projection.may_meet`), cannot meet and are not projected.)
    """
    while True:
        crit = proj.critical_values()
        cols, missing = [], set()
        for k in range(len(crit) - 1):
            lo, hi = crit[k], crit[k + 1]
            s = rational_between(lo, hi)
            col = Column(k, lo, hi, s)
            roots = _column_roots(proj, s)
            col.boundaries = [(idx, i) for _, idx, i in roots]
            for (_, a, _), (_, b, _) in zip(roots, roots[1:]):
                # neighbours whose relevant p-intervals share no grid row cannot meet
                if a != b and (min(a, b), max(a, b)) not in proj.pairs and proj.may_meet(a, b):
                    missing.add((min(a, b), max(a, b)))
            edges = [RealAlgebraic.rational(0)] + [r for r, _, _ in roots] + [RealAlgebraic.rational(1)]
            for a, b in zip(edges, edges[1:]):
                if a.compare(b) >= 0:
                    # two sections meet at the sample: only possible for a pair not yet projected
                    if not missing:
                        raise ArithmeticError("sections of different polynomials meet inside a column")
                    col.sectors.append(None)
                else:
                    col.sectors.append(rational_between(a, b))
            cols.append(col)
        if not missing:
            return cols
        for a, b in missing:
            proj.add_pair(a, b)


def _column_roots(proj: Projection, s: fmpq) -> list:
    """The counted sections at q = s, increasing: ``[(root, poly index, root index)]`` (cached
    while the polynomial set is unchanged)."""
    key = (int(s.p), int(s.q), proj.version)
    cache = proj._columns
    if key not in cache:
        row = _row_of(s) if proj.restricted() else None
        roots = []
        for idx, d in enumerate(proj.degs):
            if d >= 1 and (row is None or proj.in_row(idx, row)):
                for i, r in enumerate(proj.sections(idx, s)):
                    if proj.counts(idx, r, s):
                        roots.append((r, idx, i))
        cache[key] = sorted_exact_by(roots, lambda item: item[0])
    return cache[key]


def locate_point(cols: list[Column], polys, p: fmpq, q: fmpq) -> tuple:
    """Where the rational point (p, q) lies in a decomposition, decided exactly:
    ``("cell", column, sector)``, ``("boundary", column, k)`` (on section k) or
    ``("critical", k)`` (q is the k-th critical value, counting 0 as the 0th).

    >>> from symbolic_noise.exact.bivariate import CTX
    >>> p_, q_ = CTX.gens()
    >>> cols = decompose([p_ - q_])
    >>> [locate_point(cols, [p_ - q_], fmpq(*a), fmpq(*b)) for a, b in [((1, 4), (1, 2)), ((1, 2), (1, 2)), ((1, 2), (0, 1))]]
    [('cell', 0, 0), ('boundary', 0, 0), ('critical', 0)]
    """
    y = RealAlgebraic.rational(q)
    crit = [c.lo for c in cols] + [cols[-1].hi]
    col = None
    for k, c in enumerate(crit):
        s = y.compare(c)
        if s == 0:
            return ("critical", k)
        if s < 0:
            col = k - 1
            break
    if col is None or col < 0:
        raise ValueError(f"q = {q} is outside [0, 1]")
    x = RealAlgebraic.rational(p)
    sector = 0
    roots: dict = {}
    for k, (f, i) in enumerate(cols[col].boundaries):
        if f not in roots:
            roots[f] = interior_roots(polys[f], q)
        s = x.compare(roots[f][i])
        if s == 0:
            return ("boundary", col, k)
        if s > 0:
            sector = k + 1
    return ("cell", col, sector)


def decompose(polys) -> list[Column]:
    """The cylindrical decomposition of [0, 1]^2 for the irreducible factors of ``polys``."""
    proj = Projection()
    for f in polys:
        for g in irreducible_factors(f):
            proj.add(g)
    return columns(proj)


__all__ = [
    "GRID",
    "Column",
    "Projection",
    "columns",
    "decompose",
    "interior_roots",
    "locate_point",
]
