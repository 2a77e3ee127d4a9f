"""Phase diagrams by a sweep over q of exact one-parameter solves.

The global decomposition of :mod:`symbolic_noise.analysis.phase` splits every
column at every critical value of every switching polynomial of every state.
This module only splits where the *structure* of the solution changes.

**Structure.**  At a rational q = s the two-player backward induction
(``W_v^1`` at p, ``W_v^2`` at q, see :mod:`symbolic_noise.analysis.phase`) is a
one-parameter problem in p.  For every needed state (v, i) its *pieces* are the
open p-intervals between its followers' breakpoints (where some follower's
formula changes) and its own switching points; on a piece one formula ``b`` (a
bivariate :class:`~symbolic_noise.exact.bivariate.BiRational`, interned) is
strictly above every other candidate ``c`` (a distinct move formula not
strictly below another on the whole square).  A state's own switching points
are all roots, in its followers' cell, of the irreducible factors of
``num(b - c)`` for the best ``b`` on either side (a touching ``c`` splits the
piece too, so that the optimal-move set is constant on every open piece).  A
breakpoint is named ``(f, k)``: the k-th root of the irreducible bivariate
polynomial f(., s) in 0 < p < 1.  ``S(s)`` is the list, per state, of its
pieces: the names of the ends and b and the candidates; non-root states pass on
only the points where b changes.

**Events.**  A finite set of polynomials in q such that S is constant on every
q-interval free of their real roots:

* every breakpoint (f, k) of a state: ``disc_p f``, ``f(0, q)``, ``f(1, q)``
  (the roots of f in (0, 1) stay simple and do not cross p = 0, 1, so the index
  k names one continuous curve), and ``res_p(f, f')`` for the next breakpoint
  (f', k') of the same state when f' != f (two breakpoints never meet, so their
  order is kept: every follower breakpoint is a breakpoint of the state, so the
  union of the followers' breakpoints keeps its order too);
* every piece, b its best formula and c another candidate, every irreducible
  factor g of ``num(b - c)``: when g is free of p, g itself; else
  ``disc_p g``, ``res_p(g, f)`` with the polynomial f of each end of the piece
  (only when g != f), and ``g(0, q)`` / ``g(1, q)`` when the piece ends at
  p = 0 / p = 1.  Then no root of g can enter the open piece: it would have to
  cross one of its ends (a common root of g and f, or g(0 or 1, q) = 0), or be
  born inside as a double root (``disc_p g`` = 0); a factor with ``deg_p g >= 1``
  is irreducible, so it never vanishes identically on a line q = q* (that would
  need the factor q - q* in every coefficient).  A root of f escaping to
  infinity (a root of the leading coefficient) stays outside [0, 1] near q*,
  so leading coefficients are not events.  So ``b - c`` keeps its strict sign on
  the piece, b stays the best, and the pieces of the state keep their formulas:
  by induction over the states (followers first), the whole structure is constant.
* Denominators of formulas are proved non-zero on the closed square
  (:func:`~symbolic_noise.exact.bivariate.bernstein_sign`); where that fails,
  the denominators' factors are treated like factors of ``num(b - c)``.

**Spurious events.**  A root q* of ``disc_p g`` matters only if g and
``dg/dp`` have a common zero near q* with p in [0, 1]; a root of
``res_p(g, f)`` only if g and f have.  :func:`~symbolic_noise.exact.crossings.no_common_zero`
proves the contrary with arb boxes on p in [0, 1] and q in the isolating
interval of q* (narrowed to :data:`~symbolic_noise.exact.cad.CROSSING_WIDTH`):
such a root is dropped.  Roots of ``f(0, q)``, ``f(1, q)`` and of factors free
of p always stay.  An unproved event stays (correct, only slower).

**Sweep.**  The strip of S(s) is the open interval between the nearest kept
events below and above s.  An open q-interval (a, b) to cover gets a rational
sample s (never a root of its own events: checked exactly, the sample moves
otherwise); its strip covers (max(a, lo), min(b, hi)) and what is left of
(a, b) on either side is covered the same way.  Every end is a critical value;
two neighbouring columns with the same structure are joined by the output
merge (:mod:`symbolic_noise.analysis.phasecells`) when the critical value
between them is regular for their walls.

**Resultants.**  The discriminants and resultants in p are FLINT's values,
computed by Kronecker substitution (one integer resultant at q = 2^k:
:func:`~symbolic_noise.exact.bivariate.resultant_p_rows`), several times faster
than ``fmpz_mpoly``'s for these dense polynomials.

**Workers.**  With an ``executor`` the discriminants and resultants (most of
the time of a large diagram) run in its workers: :func:`event_roots` takes the
polynomials' coefficient rows and returns square-free parts and isolated roots
as plain data.  A state's events are submitted as soon as its pieces are known;
every q-interval still to cover gets its sample's structure at once, and the
next strip finished is one whose events are all in.  Strips do not depend on that
order: the diagram is the serial one.

Examples
--------
>>> from symbolic_noise.games import Nim
>>> d = phase_sweep(Nim(3), "binary", "binary@q")
>>> [c.exact_str() for c in d.critical], len(d.cells)
(['0', '1/2', '1'], 4)
>>> r = d.locate("1/4", "1/3")
>>> r.value, sorted(r.optimal)
(2/3, [0])
"""

from __future__ import annotations

from flint import fmpq, fmpz_poly

from ..exact.algebraic import RealAlgebraic, rational_between, real_roots, sorted_exact_by
from ..exact.bivariate import (ONE2, Q_GEN, ZERO2, BoxSign, deg_p, discriminant_p_rows, in_q, irreducible_factors, p_rows,
                               poly_key, q_coeffs, resultant_p_rows)
from ..exact.cad import CROSSING_WIDTH, Column, interior_roots, squarefree_parts
from ..exact.crossings import no_common_zero
from ..solvers.storage.codec import decode_point, encode_point


#: q-events whose root is never spurious (a boundary running into p = 0 or 1, a factor free of p)
_HARD = ("edge", "q")


class _Degenerate(Exception):
    """The sample lies on one of its own events: move it."""


class _Polys:
    """The output's boundary polynomials (what :func:`symbolic_noise.exact.cad.locate_point`
    and :mod:`symbolic_noise.analysis.phasecells` read)."""

    def __init__(self, polys):
        self.polys = polys


class SweepSolver:
    """Structures at rational q, their events and the sweep (see the module docstring).

    ``solver`` is a :class:`~symbolic_noise.analysis.phase._Solver`: its formula
    interning, channel rows and pointwise evaluation are shared.
    """

    def __init__(self, solver, drop=(), executor=None):
        self.sv = solver
        #: a ``concurrent.futures`` executor for the discriminants and resultants (``None`` to compute them here)
        self.executor = executor
        self._pending: dict = {}  # owner -> future of event_roots
        self.polys: list = []  #: the irreducible factors of the moves' differences with degree >= 1 in p, each once
        self._pkeys: dict = {}
        self._qc: list = []
        self._degs: list = []
        self._signs: dict = {}  # poly index -> BoxSign
        self._sections: dict = {}  # (poly index, s) -> interior roots
        self._factors: dict = {}  # (a, b) formula ids -> (poly indices with deg_p >= 1, q-polys)
        self._alive: dict = {}  # distinct move ids -> the candidates not strictly dominated
        self._events: dict = {}  # state structure -> set of owners
        self._owner_q: dict = {}  # owner -> q-poly keys
        self._qonly: dict = {}  # key -> a factor free of p
        self._qpolys: dict = {}  # q-poly key -> (fmpz_poly, its real roots in (0, 1))
        self._proved: dict = {}  # (owner, q key, root index) -> proved spurious
        #: event kinds left out (by tests only, which check that a missing event is caught)
        self.drop = set(drop)
        self._dsigns: dict = {}  # poly index -> BoxSign of its derivative in p
        self._rows: dict = {}  # poly index -> its p_rows (the resultants' input)
        self._firsts: dict = {}  # (q-poly key, s) -> index of its first root above s (-1: s is a root)
        #: how many structures were computed (samples, moved ones included)
        self.samples = 0

    # ------------------------------------------------------------------ polynomials

    def _poly(self, g) -> int:
        k = poly_key(g)
        idx = self._pkeys.get(k)
        if idx is None:
            idx = self._pkeys[k] = len(self.polys)
            self.polys.append(g)
            self._qc.append(q_coeffs(g))
            self._degs.append(deg_p(g))
        return idx

    def sections(self, idx: int, s: fmpq) -> list:
        """The roots of polynomial ``idx`` in 0 < p < 1 at q = ``s``, increasing (each computed once)."""
        key = (idx, int(s.p), int(s.q))
        if key not in self._sections:
            self._sections[key] = interior_roots(self.polys[idx], s, self._qc[idx])
        return self._sections[key]

    def _pair(self, a: int, b: int):
        """The irreducible factors of ``num(b - c)`` (and of the denominators not proved
        non-zero): ``(poly indices with deg_p >= 1, factors free of p)``."""
        key = (min(a, b), max(a, b))
        hit = self._factors.get(key)
        if hit is None:
            sv = self.sv
            fa, fb = sv.formulas[key[0]], sv.formulas[key[1]]
            gs = irreducible_factors(fa.diff_numerator(fb))
            for t in key:
                if sv._den_sign(t) == 0:
                    gs += irreducible_factors(sv.formulas[t].den)
            ps, qs = [], []
            for g in gs:
                if deg_p(g) >= 1:
                    idx = self._poly(g)
                    if idx not in ps:
                        ps.append(idx)
                else:
                    qs.append(g)
            hit = self._factors[key] = (ps, qs)
        return hit

    def _candidates(self, ids: list) -> tuple:
        """The distinct move formulas not strictly below another on the whole square
        (such a move is below the best everywhere: never optimal, never tied)."""
        distinct = tuple(sorted(set(ids)))
        hit = self._alive.get(distinct)
        if hit is None:
            sv = self.sv
            hit = tuple(a for a in distinct if not any(sv._below(a, b, True) for b in distinct if b != a))
            self._alive[distinct] = hit
        return hit

    # ------------------------------------------------------------------ the structure at q = s

    def structure(self, s: fmpq):
        """``(pieces of the root, {state: pieces})`` at q = s; a piece is
        ``(lo, hi, best, candidates, ids)`` with ``lo``/``hi`` ``(root, name)`` or ``None``
        (p = 0 / p = 1) and ``ids`` the move formulas.  Raises :class:`_Degenerate` when
        s lies on an event of its own structure."""
        sv = self.sv
        cache: dict = {}
        W: dict = {}  # state -> (points [(root, name)], formula ids)
        pieces_of: dict = {}
        for v in sv.order:
            fs = sv.fol[v]
            for i in (1, 2):
                if (v, i) not in sv.needed:
                    continue
                if not fs:
                    W[(v, i)] = ([], [sv.terminal])
                    pieces_of[(v, i)] = []
                    continue
                follow = [W[(u, 3 - i)] for u in fs]
                pts = _union([pt for w in follow for pt in w[0]])
                names = [{n for _, n in w[0]} for w in follow]
                pos = [0] * len(fs)
                edges = [None] + pts + [None]
                pieces = []
                for j in range(len(pts) + 1):
                    tup = tuple(w[1][k] for w, k in zip(follow, pos))
                    ids = sv.move_formulas(v, i, tup)
                    cand = self._candidates(ids)
                    pieces += self._split(edges[j], edges[j + 1], cand, ids, s, cache)
                    if j < len(pts):
                        n = pts[j][1]
                        pos = [k + (n in ns) for k, ns in zip(pos, names)]
                pieces_of[(v, i)] = pieces
                if self.executor is not None:  # the workers start while the structure goes on
                    self._submit(self._owners_of(pieces))
                ws, wi = [], [pieces[0][2]]
                for a, b in zip(pieces, pieces[1:]):
                    if a[2] != b[2]:
                        ws.append(a[1])
                        wi.append(b[2])
                W[(v, i)] = (ws, wi)
        return pieces_of.get((sv.root, 1), []), pieces_of

    def _split(self, lo, hi, cand: tuple, ids, s: fmpq, cache: dict) -> list:
        """The pieces of one cell (lo, hi) of the followers, from the left: b the best
        just right of the piece's start (exact values at a sample, moved left while a
        root of some ``num(b - c)`` lies before it), the piece ends at the first root of
        a factor of ``num(b - c)``, any c.  (A root of ``b' - c`` for the next best b'
        at that point is one of ``b - b'``: the pieces end at every root of a factor of
        ``num(b - c)``, b the best on either side.)"""
        if len(cand) == 1:
            return [(lo, hi, cand[0], cand, ids)]
        zero, one = RealAlgebraic.rational(0), RealAlgebraic.rational(1)
        out, start = [], lo
        while True:
            a = start[0] if start else zero
            limit = hi[0] if hi else one
            while True:
                t = rational_between(a, limit)
                vals = [(self.sv._value(c, t, s, cache), c) for c in cand]
                top = max(v for v, _ in vals)
                lead = [c for v, c in vals if v == top]
                if len(lead) != 1:
                    # two formulas equal on the whole line q = s (a factor free of p vanishes):
                    # an event; else t is a root of their difference (p = 1/2, binary channel)
                    if any(in_q(g)(s) == 0 for c in lead[1:] for g in self._pair(lead[0], c)[1]):
                        raise _Degenerate
                    limit = RealAlgebraic.rational(t)
                    continue
                b = lead[0]
                found = []
                for c in cand:
                    if c == b:
                        continue
                    ps, qs = self._pair(b, c)
                    for g in qs:
                        if in_q(g)(s) == 0:
                            raise _Degenerate
                    for g in ps:
                        for k, r in enumerate(self.sections(g, s)):
                            if _inside(r, (g, k), start, hi):
                                found.append((r, (g, k)))
                if not found:
                    out.append((start, hi, b, cand, ids))
                    return out
                found = sorted_exact_by(found, lambda it: it[0])
                z = found[0][0]
                side = z.compare(t)
                if side > 0:
                    break
                if side == 0:
                    raise _Degenerate
                limit = z  # b is not the best right after the start: sample before z
            names = {n for r, n in found if r is z or r.compare(z) == 0}
            if len(names) != 1:
                raise _Degenerate
            end = (z, names.pop())
            out.append((start, end, b, cand, ids))
            start = end

    # ------------------------------------------------------------------ events

    def owners(self, pieces_of: dict) -> set:
        """The event owners of a structure: ``(kind, ...)`` tuples (see the module docstring)."""
        out: set = set()
        for pieces in pieces_of.values():
            out |= self._owners_of(pieces)
        return out

    def _owners_of(self, pieces) -> set:
        """The event owners of one state's pieces (cached by their names)."""
        key = tuple((lo[1] if lo else None, hi[1] if hi else None, b, cand) for lo, hi, b, cand, _ in pieces)
        hit = self._events.get(key)
        if hit is None:
            hit = self._events[key] = self._state_owners(key)
        return hit

    def _state_owners(self, key) -> set:
        out: set = set()
        bounds = [hi for _, hi, _, _ in key[:-1]]
        for f, _ in bounds:
            out.add(("disc", f))
            out.add(("edge", f, 0))
            out.add(("edge", f, 1))
        for (f, _), (h, _) in zip(bounds, bounds[1:]):
            if f != h:
                out.add(("res", min(f, h), max(f, h)))
        for lo, hi, b, cand in key:
            for c in cand:
                if c == b:
                    continue
                ps, qs = self._pair(b, c)
                for g in qs:
                    self._qonly.setdefault(poly_key(g), g)
                    out.add(("q", poly_key(g)))
                for g in ps:
                    out.add(("disc", g))
                    for end, a in ((lo, 0), (hi, 1)):
                        if end is None:
                            out.add(("edge", g, a))
                        elif end[0] != g:
                            out.add(("res", min(g, end[0]), max(g, end[0])))
        return {o for o in out if o[0] not in self.drop}

    def _q_keys(self, owner) -> list:
        hit = self._owner_q.get(owner)
        if hit is None:
            fut = self._pending.pop(owner, None)
            if fut is not None:
                return self._store(owner, [_decode_part(part) for part in fut.result()])
            kind = owner[0]
            if kind == "q":
                g = in_q(self._qonly[owner[1]])
            elif kind == "edge":
                g = in_q(self.polys[owner[1]].compose(ZERO2 if owner[2] == 0 else ONE2, Q_GEN))
            elif kind == "disc":
                g = discriminant_p_rows(self._rows_of(owner[1])) if self._degs[owner[1]] >= 2 else None
            else:
                g = resultant_p_rows(self._rows_of(owner[1]), self._rows_of(owner[2]))
            return self._store(owner, _event_parts(g) if g is not None else [])
        return hit

    def _rows_of(self, idx: int) -> list:
        """:func:`~symbolic_noise.exact.bivariate.p_rows` of a polynomial (cached)."""
        hit = self._rows.get(idx)
        if hit is None:
            hit = self._rows[idx] = p_rows(self.polys[idx])
        return hit

    def _task(self, owner):
        """The arguments of :func:`event_roots` for a disc/res owner (``None``: no
        polynomial, a discriminant in p of a polynomial of degree 1)."""
        if owner[0] == "disc":
            if self._degs[owner[1]] < 2:
                return None
            return ("disc", self._rows_of(owner[1]), None)
        return ("res", self._rows_of(owner[1]), self._rows_of(owner[2]))

    def _store(self, owner, parts) -> list:
        """Record an owner's square-free parts ``[(h, roots in (0, 1))]``; its q-poly keys."""
        hit = []
        for h, roots in parts:
            key = tuple(int(c) for c in h.coeffs())
            self._qpolys.setdefault(key, (h, roots))
            hit.append(key)
        self._owner_q[owner] = hit
        return hit

    def _submit(self, owners) -> None:
        """Hand the discriminants and resultants of ``owners`` not yet known to
        :attr:`executor` (the largest first); :meth:`_q_keys` collects them."""
        todo = []
        for o in owners:
            if o[0] in ("disc", "res") and o not in self._owner_q and o not in self._pending:
                args = self._task(o)
                if args is None:
                    self._owner_q[o] = []
                else:
                    todo.append((o, args))
        todo.sort(key=lambda it: -_cost(it[1]))
        for o, args in todo:
            self._pending[o] = self.executor.submit(event_roots, *args)

    def _spurious(self, owner, k, n: int, r: RealAlgebraic) -> bool:
        """Whether the n-th root r of the q-poly k of ``owner`` is proved not to matter."""
        if owner[0] in _HARD:
            return False
        key = (owner, k, n)
        hit = self._proved.get(key)
        if hit is None:
            if owner[0] == "disc":
                a, b = self._sign(owner[1]), self._dsign(owner[1])
            else:
                a, b = self._sign(owner[1]), self._sign(owner[2])
            r.refine_to(CROSSING_WIDTH)
            lo, hi = r.interval
            hit = self._proved[key] = no_common_zero(a, b, [(fmpq(0), fmpq(1))], lo, hi)
        return hit

    def _sign(self, idx: int) -> BoxSign:
        if idx not in self._signs:
            self._signs[idx] = BoxSign(self.polys[idx])
        return self._signs[idx]

    def strip(self, s: fmpq):
        """``(root pieces, lo, hi)``: the structure at s and an open q-interval
        (lo, hi) around s on which it is constant (``RealAlgebraic`` ends)."""
        self.samples += 1
        return self._strip_of(s, *self.structure(s))

    def _ready(self, structure) -> bool:
        """Whether every event of a prepared structure is computed (no worker to wait for)."""
        if structure is None or not self._pending:
            return True
        for pieces in structure[1].values():
            for o in self._owners_of(pieces):
                fut = self._pending.get(o)
                if fut is not None and not fut.done():
                    return False
        return True

    def _strip_of(self, s: fmpq, root_pieces, pieces_of):
        lo, hi = RealAlgebraic.rational(0), RealAlgebraic.rational(1)
        for o in self.owners(pieces_of):
            lo, hi = self._narrow(o, s, lo, hi)
        return root_pieces, lo, hi

    def _dsign(self, idx: int) -> BoxSign:
        if idx not in self._dsigns:
            self._dsigns[idx] = BoxSign(self.polys[idx].derivative("p"))
        return self._dsigns[idx]

    def _narrow(self, owner, s: fmpq, lo: RealAlgebraic, hi: RealAlgebraic):
        """(lo, hi) cut at the owner's kept event roots nearest to s."""
        for k in self._q_keys(owner):
            roots = self._qpolys[k][1]
            # s is a root of h iff it is one of its roots in (0, 1) (s lies there):
            # decided by the search instead of evaluating h, and kept for the owners
            # that share h
            at = (k, s)
            first = self._firsts.get(at)
            if first is None:
                first = _first_above(roots, s)
                if first and roots[first - 1].compare(s) == 0:
                    first = -1
                self._firsts[at] = first
            if first < 0:
                raise _Degenerate
            for n in range(first, len(roots)):
                if roots[n].compare(hi) >= 0:
                    break
                if not self._spurious(owner, k, n, roots[n]):
                    hi = roots[n]
                    break
            for n in range(first - 1, -1, -1):
                if roots[n].compare(lo) <= 0:
                    break
                if not self._spurious(owner, k, n, roots[n]):
                    lo = roots[n]
                    break
        return lo, hi

    # ------------------------------------------------------------------ the sweep

    def run(self, progress=None):
        """Cover (0, 1) with strips; returns ``[(lo, hi, s, root pieces)]`` increasing.

        Each q-interval still to cover gets its sample's structure at once (with an
        :attr:`executor`, its events' resultants start in the workers); the next
        strip finished is one whose events are all computed, if any, else the
        oldest.  Strips do not depend on the order, so the result is that of the
        plain one-at-a-time sweep."""
        waiting: list = []

        def prepare(a, b):
            s = rational_between(a, b)
            self.samples += 1
            try:
                waiting.append((a, b, s, self.structure(s)))
            except _Degenerate:
                waiting.append((a, b, s, None))

        prepare(RealAlgebraic.rational(0), RealAlgebraic.rational(1))
        done = []
        while waiting:
            i = next((j for j, item in enumerate(waiting) if self._ready(item[3])), 0)
            a, b, s, structure = waiting.pop(i)
            for attempt in range(64):
                try:
                    if structure is None:
                        pieces, lo, hi = self.strip(s)
                    else:
                        pieces, lo, hi = self._strip_of(s, *structure)
                    break
                except _Degenerate:
                    # a simple rational between the interval's start and the bad sample
                    # (finitely many events: one of them is regular)
                    s, structure = rational_between(a, RealAlgebraic.rational(s)), None
            else:
                raise ArithmeticError(f"no regular sample found in a q-interval near {s}")
            L = a if lo.compare(a) <= 0 else lo
            H = b if hi.compare(b) >= 0 else hi
            done.append((L, H, s, pieces))
            if L is not a:
                prepare(a, L)
            if H is not b:
                prepare(H, b)
            if progress is not None:
                progress(len(done), len(done) + len(waiting))
        for fut in self._pending.values():  # submitted for a sample that was moved
            fut.cancel()
        self._pending.clear()
        return sorted_exact_by(done, lambda it: it[0])


def _cost(args) -> int:
    kind, a, b = args
    da = len(a) - 1
    return 2 * da * da if kind == "disc" else da * (len(b) - 1)


def event_roots(kind: str, a: list, b: list | None) -> list:
    """The events of one owner as plain data, what an executor's worker computes:
    for ``disc_p a`` or ``res_p(a, b)`` (bivariate polynomials given by their
    :func:`~symbolic_noise.exact.bivariate.p_rows`: ``a[i][j]`` the coefficient of
    p^i q^j), its square-free parts in q, each ``(coefficients, roots in (0, 1))``,
    the roots encoded by :func:`~symbolic_noise.solvers.storage.codec.encode_point`.

    >>> event_roots("res", [[0, -1], [2]], [[-1], [1]])
    [([-2, 1], [])]
    >>> event_roots("res", [[0, -1], [2]], [[-1], [4]])
    [([-1, 2], ['1/2'])]
    """
    g = discriminant_p_rows(a) if kind == "disc" else resultant_p_rows(a, b)
    return [([int(c) for c in h.coeffs()], [encode_point(r) for r in roots]) for h, roots in _event_parts(g)]


def _event_parts(g: fmpz_poly) -> list:
    """``[(h, roots of h in (0, 1))]`` for the square-free parts h of a polynomial
    g in q."""
    zero, one = fmpq(0), fmpq(1)
    return [(h, [r for r in real_roots(h, 0, 1) if r.compare(zero) > 0 and r.compare(one) < 0])
            for _, h in squarefree_parts(g)]


def _decode_part(part) -> tuple:
    coeffs, roots = part
    return fmpz_poly(coeffs), [decode_point(r, trusted=True) for r in roots]


def _first_above(roots: list, s: fmpq) -> int:
    lo, hi = 0, len(roots)
    while lo < hi:
        m = (lo + hi) // 2
        if roots[m].compare(s) > 0:
            hi = m
        else:
            lo = m + 1
    return lo


def _inside(r: RealAlgebraic, name, lo, hi) -> bool:
    """Whether r lies strictly between the ends (``None``: 0 or 1); a different
    name on an end is a degenerate sample."""
    for end, side in ((lo, 1), (hi, -1)):
        if end is None:
            continue
        c = r.compare(end[0])
        if c == 0:
            if end[1] == name:
                return False
            raise _Degenerate
        if c != side:
            return False
    return True


def _union(points: list) -> list:
    """Sorted, without repeated names; two names at one point: degenerate sample."""
    out: list = []
    for r, n in sorted_exact_by(points, lambda it: it[0]):
        if out and out[-1][0].compare(r) == 0:
            if out[-1][1] != n:
                raise _Degenerate
            continue
        out.append((r, n))
    return out


def build(solver, strips, labels):
    """The output of the sweep as :class:`~symbolic_noise.exact.cad.Column` objects and
    cells, the boundaries re-indexed over the root's boundary polynomials only."""
    from .phase import Cell

    sv = solver.sv
    used: dict = {}
    polys: list = []

    def name(n):
        f, k = n
        if f not in used:
            used[f] = len(polys)
            polys.append(solver.polys[f])
        return (used[f], k)

    cols, cells = [], {}
    for index, (lo, hi, s, pieces) in enumerate(strips):
        col = Column(index, lo, hi, s)
        if not pieces:  # a terminal start: one cell
            pieces = [(None, None, sv.terminal, (), [])]
        col.boundaries = [name(p[1][1]) for p in pieces[:-1]]
        for k, (plo, phi, b, _, ids) in enumerate(pieces):
            a = plo[0] if plo else RealAlgebraic.rational(0)
            c = phi[0] if phi else RealAlgebraic.rational(1)
            t = rational_between(a, c)
            col.sectors.append(t)
            moves = {m: sv.formulas[x] for m, x in zip(labels, ids)}
            optimal = frozenset(m for m, x in zip(labels, ids) if x == b)
            below = col.boundaries[k - 1] if k > 0 else None
            above = col.boundaries[k] if k < len(col.boundaries) else None
            cells[(index, k)] = Cell(index, k, t, s, below, above, sv.formulas[b], moves, optimal)
        cols.append(col)
    return _Polys(polys), cols, cells


def run_sweep(solver, progress=None, drop=(), executor=None):
    """``(polys holder, columns, cells)`` for :class:`~symbolic_noise.analysis.phase.PhaseDiagram`;
    ``executor`` (a ``concurrent.futures`` executor, e.g. a process pool) computes
    the events' discriminants and resultants."""
    sw = SweepSolver(solver, drop, executor)
    strips = sw.run(progress)
    return build(sw, strips, solver.labels[solver.root])


def phase_sweep(game, channel, opponent_channel=None, **kw):
    """:func:`symbolic_noise.analysis.phase.phase` with ``method="sweep"``."""
    from .phase import phase

    return phase(game, channel, opponent_channel, method="sweep", **kw)


__all__ = ["SweepSolver", "phase_sweep", "run_sweep"]
