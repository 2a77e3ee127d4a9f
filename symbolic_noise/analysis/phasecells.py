"""Merging the cells of a phase decomposition for output (theory.md, section 6).

The decomposition that :mod:`symbolic_noise.analysis.phase` proves correct is adapted to
every switching polynomial of every position; most of its sections separate
cells where the first player's value N and optimal moves at the start are the
same.  This module merges them, exactly:

* within a column, consecutive sectors with the same N (as a bivariate rational
  function) and the same optimal-move set become one cell; the sections left
  between cells are the column's *walls*;
* two neighbouring columns become one when they have the same walls
  ``(polynomial, root index)`` and the same cells, and the critical value c
  between them is regular for the walls: no wall polynomial has a root of its
  leading coefficient, discriminant, ``f(0, q)`` or ``f(1, q)`` at c, and no two
  adjacent walls of different polynomials have a root of their resultant there
  (decided exactly, with :meth:`RealAlgebraic.sign_of`).  Then every wall stays
  a continuous, simple root with the same index through c, the walls never meet,
  and the cells continue across the line q = c.

N is continuous, so a merged cell's formula holds on its closure; only points on
a merged-away section or critical line may carry extra tied moves, and
:meth:`PhaseDiagram.locate` answers those by exact pointwise induction.

Examples
--------
>>> from symbolic_noise.games import Nim
>>> from symbolic_noise.analysis.phase import phase
>>> d = phase(Nim(3), "binary", "binary@q")
>>> [c.exact_str() for c in d.critical], len(d.cells)
(['0', '1/2', '1'], 4)
"""

from __future__ import annotations

from dataclasses import replace

from flint import fmpz_poly

from ..exact.algebraic import RealAlgebraic, rational_between
from ..exact.bivariate import ONE2, Q_GEN, ZERO2, deg_p, discriminant_q, in_q, lc_p, resultant_q
from ..exact.cad import Column, interior_roots, locate_point


def _sign_at(c: RealAlgebraic, f) -> int:
    """The exact sign of a polynomial in q alone (``fmpz_mpoly`` or ``fmpz_poly``) at c."""
    if f.is_zero():
        return 0
    return c.sign_of(f if isinstance(f, fmpz_poly) else in_q(f))


class _Regularity:
    """Exact checks that a critical value is regular for given walls (cached)."""

    def __init__(self, polys):
        self.polys = polys
        self._single: dict = {}
        self._res: dict = {}

    def single(self, idx: int):
        if idx not in self._single:
            f = self.polys[idx]
            qs = [lc_p(f), f.compose(ZERO2, Q_GEN), f.compose(ONE2, Q_GEN)]
            if deg_p(f) >= 2:
                qs.append(discriminant_q(f))
            self._single[idx] = qs
        return self._single[idx]

    def res(self, a: int, b: int):
        key = (min(a, b), max(a, b))
        if key not in self._res:
            self._res[key] = resultant_q(self.polys[key[0]], self.polys[key[1]])
        return self._res[key]

    def regular(self, c: RealAlgebraic, walls) -> bool:
        for idx in {f for f, _ in walls}:
            if any(_sign_at(c, g) == 0 for g in self.single(idx)):
                return False
        for (a, _), (b, _) in zip(walls, walls[1:]):
            if a != b and _sign_at(c, self.res(a, b)) == 0:
                return False
        return True


def merge(cols, fine: dict, polys):
    """The merged columns and cells of a decomposition.

    ``fine[(column, sector)]`` is the :class:`~symbolic_noise.analysis.phase.Cell` of each
    sector.  Returns ``(columns, cells, where)``: merged :class:`Column` objects
    (``boundaries`` are the walls, ``sectors`` one sample p per cell), merged
    cells keyed ``(column, k)``, and ``where[(fine column, fine sector)] =
    (column, k)``.
    """
    per_col = []
    for col in cols:
        runs = []  # [first sector, last sector]
        for k in range(len(col.sectors)):
            c = fine[(col.index, k)]
            if runs and _label(fine[(col.index, runs[-1][0])]) == _label(c):
                runs[-1][1] = k
            else:
                runs.append([k, k])
        walls = [col.boundaries[a - 1] for a, _ in runs[1:]]
        per_col.append((runs, walls, [_label(fine[(col.index, a)]) for a, _ in runs]))
    check = _Regularity(polys)
    groups = []  # lists of fine column indices
    for j, col in enumerate(cols):
        if groups:
            prev = per_col[groups[-1][-1]]
            if prev[1] == per_col[j][1] and prev[2] == per_col[j][2] and check.regular(col.lo, per_col[j][1]):
                groups[-1].append(j)
                continue
        groups.append([j])
    out_cols, cells, where = [], {}, {}
    for m, group in enumerate(groups):
        first = cols[group[0]]
        runs, walls, _ = per_col[group[0]]
        samples = _simple_samples(cols, group, walls, polys)
        mc = Column(m, first.lo, cols[group[-1]].hi, samples[1] if samples else first.q, list(walls), [])
        for k, (a, _) in enumerate(runs):
            cell = fine[(first.index, a)]
            if samples:
                cell = replace(cell, p=samples[0][k], q=samples[1])
            mc.sectors.append(cell.p)
            below = walls[k - 1] if k > 0 else None
            above = walls[k] if k < len(walls) else None
            cells[(m, k)] = replace(cell, column=m, sector=k, below=below, above=above)
        for j in group:
            for k, (a, b) in enumerate(per_col[j][0]):
                for s in range(a, b + 1):
                    where[(cols[j].index, s)] = (m, k)
        out_cols.append(mc)
    return out_cols, cells, where


def _simple_samples(cols, group, walls, polys):
    """Short rational samples for a merged column: q the simplest rational between its
    ends, p the simplest between consecutive walls at that q; ``None`` unless every
    such point lies inside a 2-cell of the proved decomposition (not on a section or
    critical line of it), so that the cell's formula and optimal moves hold there."""
    lo, hi = cols[group[0]].lo, cols[group[-1]].hi
    s = _short_between(lo, hi, cols)
    if s is None:
        return None
    zero, one = RealAlgebraic.rational(0), RealAlgebraic.rational(1)
    roots: dict = {}
    edges = [zero]
    for f, i in walls:
        if f not in roots:
            roots[f] = interior_roots(polys[f], s)
        if i >= len(roots[f]):
            return None
        edges.append(roots[f][i])
    edges.append(one)
    ps = []
    for a, b in zip(edges, edges[1:]):
        if a.compare(b) >= 0:
            return None
        ps.append(rational_between(a, b))
    if any(locate_point(cols, polys, x, s)[0] != "cell" for x in ps):
        return None
    return ps, s


def _short_between(lo: RealAlgebraic, hi: RealAlgebraic, cols):
    """A rational with a small denominator strictly between lo and hi, nearest the
    middle, that is none of the proved decomposition's critical values (the grid
    lines are dyadic, so odd denominators come first)."""
    from flint import fmpq

    mid = rational_between(lo, hi)
    crit = [c.lo for c in cols] + [cols[-1].hi]
    for den in [3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 25, 27, 33, 35, 49, 63, 99]:
        n = int((mid * den).floor())
        for cand in sorted({fmpq(n, den), fmpq(n + 1, den)}, key=lambda x: abs(x - mid)):
            if lo.compare(cand) < 0 and hi.compare(cand) > 0 and all(c.compare(cand) != 0 for c in crit):
                return cand
    return None


def _label(cell):
    return (cell.value, cell.optimal)


__all__ = ["merge"]
