"""Bivariate exact core: rational functions of (p, q) and a cylindrical decomposition.

Polynomials are ``fmpz_mpoly`` in the variables ``p, q`` (:data:`CTX`).  A
:class:`BiRational` is ``num/den`` in lowest terms with a positive leading
coefficient in ``den``, so equal functions have equal representations.

:func:`decompose` builds the cylindrical decomposition of [0, 1]^2 over q
(theory.md, section 6) for a finite set of irreducible polynomials: the
critical values of q are the real roots in [0, 1] of leading coefficients,
discriminants, of ``f(0, q)``, ``f(1, q)`` (a boundary running into p = 0 or
p = 1) and of the resultants in p of the pairs whose sections are adjacent in
some column (:func:`columns`, a Bentley-Ottmann fixed point), plus the ends 0
and 1; all are exact :class:`~symbolic_noise.algebraic.RealAlgebraic` numbers.
Between two critical values each polynomial's roots in (0, 1) are continuous in
q and never meet, so their order and the sectors between them are read at one
rational sample q.  A polynomial may be declared relevant only on some cells of
a grid (:class:`Projection`); its sections then count only there.

Examples
--------
>>> p, q = CTX.gens()
>>> cols = decompose([p - q])
>>> [str(c.lo) for c in cols], [len(c.sectors) for c in cols]
(['0'], [2])
>>> BiRational(p * q, p).text()
'q'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flint import arb, arb_poly, fmpq, fmpq_poly, fmpz, fmpz_mpoly, fmpz_mpoly_ctx, fmpz_poly

from .algebraic import RealAlgebraic, rational_between, real_roots, sorted_exact

#: the polynomial ring Z[p, q]
CTX = fmpz_mpoly_ctx.get(("p", "q"))
P_GEN, Q_GEN = CTX.gens()
ZERO2 = CTX.from_dict({})
ONE2 = CTX.from_dict({(0, 0): 1})


def from_univariate(f: fmpz_poly, var: int) -> fmpz_mpoly:
    """The univariate ``f`` as a polynomial in p (``var=0``) or q (``var=1``).

    >>> from_univariate(fmpz_poly([1, -1]), 1)
    -q + 1
    """
    return CTX.from_dict({((i, 0) if var == 0 else (0, i)): c for i, c in enumerate(f.coeffs()) if c != 0})


def in_q(f: fmpz_mpoly) -> fmpz_poly:
    """A polynomial of q alone as an ``fmpz_poly`` (in q)."""
    coeffs: dict = {}
    for (i, j), c in f.to_dict().items():
        if i:
            raise ValueError("the polynomial depends on p")
        coeffs[j] = c
    return fmpz_poly([coeffs.get(j, 0) for j in range(max(coeffs, default=-1) + 1)])


def q_coeffs(f: fmpz_mpoly) -> list:
    """``f`` as its coefficients in p, each an ``fmpz_poly`` in q (index = power of p).

    >>> p, q = CTX.gens()
    >>> [c.coeffs() for c in q_coeffs(p * q - 1)]
    [[-1], [0, 1]]
    """
    rows: dict = {}
    for (i, j), c in f.to_dict().items():
        rows.setdefault(i, {})[j] = c
    return [fmpz_poly([rows.get(i, {}).get(j, 0) for j in range(max(rows.get(i, {0: 0})) + 1)]) for i in range(max(rows, default=-1) + 1)]




def specialise_q(f: fmpz_mpoly, s: fmpq, coeffs=None) -> fmpq_poly:
    """``f(p, s)`` for a rational ``s``, exactly, as a polynomial in p
    (``coeffs``: :func:`q_coeffs` of f, when the caller keeps them).

    >>> p, q = CTX.gens()
    >>> specialise_q(p * q - 1, fmpq(1, 2))
    1/2*x + (-1)
    """
    if coeffs is None:
        coeffs = q_coeffs(f)
    return fmpq_poly([c(s) for c in coeffs])


def at_q(f: fmpz_mpoly, s: fmpq, coeffs=None) -> fmpz_poly:
    """``f(p, s)`` for a rational ``s``, cleared of denominators (same roots in p)."""
    return specialise_q(f, s, coeffs).numer()


def evaluate2(f: fmpz_mpoly, x: fmpq, y: fmpq) -> fmpq:
    """``f(x, y)`` exactly.

    >>> p, q = CTX.gens()
    >>> evaluate2(p * p - q, fmpq(1, 2), fmpq(1, 3))
    -1/12
    """
    total = fmpq(0)
    for (i, j), c in f.to_dict().items():
        total += fmpq(c) * x**i * y**j
    return total


def bernstein_sign(f: fmpz_mpoly, *, strict: bool = True) -> int:
    """+1 (-1) if every Bernstein coefficient of ``f`` on [0, 1]^2 is > 0 (< 0),
    which proves ``f > 0`` (``f < 0``) on the closed square; 0 if undecided.
    With ``strict=False`` zero coefficients are allowed (``f >= 0``, ``f <= 0``).

    >>> p, q = CTX.gens()
    >>> bernstein_sign(1 + p - q), bernstein_sign(1 + p * q), bernstein_sign(p - q)
    (0, 1, 0)
    """
    from math import comb

    coeffs = f.to_dict()
    if not coeffs:
        return 0
    m = max(i for i, _ in coeffs)
    n = max(j for _, j in coeffs)
    signs = set()
    for k in range(m + 1):
        for l in range(n + 1):
            b = fmpq(0)
            for (i, j), c in coeffs.items():
                if i <= k and j <= l:
                    b += fmpq(c) * fmpq(comb(k, i), comb(m, i)) * fmpq(comb(l, j), comb(n, j))
            if b != 0 or strict:
                signs.add((b > 0) - (b < 0))
            if len(signs) > 1 or 0 in signs:
                return 0
    return signs.pop() if signs else 0


def box_ball(lo: fmpq, hi: fmpq):
    """An arb ball enclosing the rational interval [lo, hi] (rigorous)."""
    return (arb(lo.p) / lo.q).union(arb(hi.p) / hi.q)


class BoxBalls:
    """The arb balls of a box [plo, phi] x [qlo, qhi] that :class:`BoxSign` needs:
    the box, its centre and its half-widths (rigorous enclosures)."""

    __slots__ = ("P", "Q", "cp", "cq", "rp", "rq")

    def __init__(self, plo: fmpq, phi: fmpq, qlo: fmpq, qhi: fmpq):
        half = fmpq(1, 2)
        cp, cq = (plo + phi) * half, (qlo + qhi) * half
        self.P, self.Q = box_ball(plo, phi), box_ball(qlo, qhi)
        self.cp, self.cq = arb(cp.p) / cp.q, arb(cq.p) / cq.q
        wp, wq = (phi - plo) * half, (qhi - qlo) * half
        self.rp, self.rq = box_ball(-wp, wp), box_ball(-wq, wq)


class BoxSign:
    """Rigorous sign of a polynomial on a box by interval (arb) arithmetic:
    +1 or -1 only when certain, else 0.  Interval arithmetic proves; it never guesses.

    Two enclosures are tried: Horner's scheme on the box, and the mean value
    form ``f(c) + f_p(box) [-r_p, r_p] + f_q(box) [-r_q, r_q]`` around the
    box's centre c, which is far tighter on small boxes where f is near 0.

    >>> p, q = CTX.gens()
    >>> s = BoxSign(p - q)
    >>> s(fmpq(1, 2), fmpq(1), fmpq(0), fmpq(1, 4)), s(fmpq(0), fmpq(1), fmpq(0), fmpq(1))
    (1, 0)
    """

    def __init__(self, f: fmpz_mpoly):
        d = f.to_dict()
        self.rows = self._rows(d)
        self.dp = self._rows({(i - 1, j): c * i for (i, j), c in d.items() if i})
        self.dq = self._rows({(i, j - 1): c * j for (i, j), c in d.items() if j})

    @staticmethod
    def _rows(coeffs: dict) -> list:
        rows: dict = {}
        for (i, j), c in coeffs.items():
            rows.setdefault(i, {})[j] = int(c)
        m = max(rows, default=-1)
        return [arb_poly([rows.get(i, {}).get(j, 0) for j in range(max(rows.get(i, {0: 0}), default=0) + 1)]) for i in range(m + 1)]

    @staticmethod
    def _horner(rows, P, Q):
        if not rows:
            return arb(0)
        return arb_poly([r(Q) for r in rows])(P)

    def __call__(self, plo: fmpq, phi: fmpq, qlo: fmpq, qhi: fmpq) -> int:
        return self.sign(BoxBalls(plo, phi, qlo, qhi))

    def sign(self, b: BoxBalls) -> int:
        total = self._horner(self.rows, b.P, b.Q)
        if total > 0:
            return 1
        if total < 0:
            return -1
        mv = self._horner(self.rows, b.cp, b.cq) + self._horner(self.dp, b.P, b.Q) * b.rp + self._horner(self.dq, b.P, b.Q) * b.rq
        return 1 if mv > 0 else (-1 if mv < 0 else 0)


def deg_p(f: fmpz_mpoly) -> int:
    return max((i for i, _ in f.to_dict()), default=0)


def lc_p(f: fmpz_mpoly) -> fmpz_mpoly:
    """The leading coefficient of ``f`` in p, a polynomial in q."""
    d = deg_p(f)
    return CTX.from_dict({(0, j): c for (i, j), c in f.to_dict().items() if i == d})


def normalise(f: fmpz_mpoly) -> fmpz_mpoly:
    """The primitive part of ``f`` with a positive leading coefficient."""
    f = f.primitive()[1] if not f.is_zero() else f
    return -f if not f.is_zero() and f.leading_coefficient() < 0 else f


def irreducible_factors(f: fmpz_mpoly) -> list[fmpz_mpoly]:
    """The distinct non-constant irreducible factors of ``f``, normalised.

    >>> p, q = CTX.gens()
    >>> sorted(str(g) for g in irreducible_factors(2 * p * p * (q - p)))
    ['p', 'p - q']
    """
    if f.is_zero() or f.is_constant():
        return []
    return [normalise(g) for g, _ in f.factor()[1] if not g.is_constant()]


def poly_key(f: fmpz_mpoly) -> tuple:
    """A hashable canonical key of a polynomial."""
    return tuple(sorted((tuple(m), int(c)) for m, c in f.to_dict().items()))


class BiRational:
    """A rational function of (p, q) in lowest terms.

    >>> p, q = CTX.gens()
    >>> f = BiRational(1 - p, ONE2) - BiRational(q, ONE2)
    >>> f.text(), f(fmpq(1, 4), fmpq(1, 2))
    ('-p - q + 1', 1/4)
    """

    __slots__ = ("num", "den", "_key")

    def __init__(self, num: fmpz_mpoly, den: fmpz_mpoly = ONE2):
        if den.is_zero():
            raise ZeroDivisionError("zero denominator")
        if num.is_zero():
            num, den = ZERO2, ONE2
        else:
            g = num.gcd(den)
            if not g.is_one():
                num, den = num / g, den / g
            c = den.content()
            if den.leading_coefficient() < 0:
                c = -c
            if c != 1:
                k = num.content().gcd(c)
                if c < 0:
                    k = -k
                num, den = num / k, den / k
        self.num, self.den = num, den
        self._key = (poly_key(num), poly_key(den))

    @classmethod
    def constant(cls, c) -> "BiRational":
        c = fmpq(c)
        return cls(CTX.from_dict({(0, 0): c.p}) if c != 0 else ZERO2, CTX.from_dict({(0, 0): c.q}))

    def __add__(self, other: "BiRational") -> "BiRational":
        if self.den == other.den:
            return BiRational(self.num + other.num, self.den)
        return BiRational(self.num * other.den + other.num * self.den, self.den * other.den)

    def __neg__(self) -> "BiRational":
        return BiRational(-self.num, self.den)

    def __sub__(self, other: "BiRational") -> "BiRational":
        return self + (-other)

    def __eq__(self, other) -> bool:
        return isinstance(other, BiRational) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __call__(self, x: fmpq, y: fmpq) -> fmpq:
        d = evaluate2(self.den, x, y)
        if d == 0:
            raise ZeroDivisionError(f"the denominator vanishes at ({x}, {y})")
        return evaluate2(self.num, x, y) / d

    def diff_numerator(self, other: "BiRational") -> fmpz_mpoly:
        """The numerator of ``self - other`` over the product of denominators."""
        return self.num * other.den - other.num * self.den

    def text(self) -> str:
        if self.den.is_one():
            return str(self.num)
        return f"({self.num})/({self.den})"

    __str__ = text

    def __repr__(self) -> str:
        return f"BiRational({self.text()})"


# --------------------------------------------------------------------------- cylindrical decomposition


@dataclass
class Column:
    """The cylinder over the open q-interval (lo, hi) of two consecutive critical values.

    ``boundaries[k] = (f, i)``: the k-th section from below is the i-th root (from
    0, counted in the open interval 0 < p < 1) of ``polys[f]`` in p, for every q in
    (lo, hi).  ``sectors[k]`` is a rational sample p between sections k - 1 and k
    (p = 0 and p = 1 closing the ends), all at the sample ``q``.
    """

    index: int
    lo: RealAlgebraic
    hi: RealAlgebraic
    q: fmpq
    boundaries: list = field(default_factory=list)
    sectors: list = field(default_factory=list)


def interior_roots(f: fmpz_mpoly, s: fmpq, coeffs=None) -> list[RealAlgebraic]:
    """The real roots of ``f(p, s)`` in the open interval 0 < p < 1, increasing."""
    g = at_q(f, s, coeffs)
    if g.degree() < 1:
        return []
    zero, one = RealAlgebraic.rational(0), RealAlgebraic.rational(1)
    return [r for r in real_roots(g, 0, 1) if r.compare(zero) > 0 and r.compare(one) < 0]


#: relevance grid: a polynomial may be declared relevant only on closed cells
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
    (the caller proves it; :mod:`symbolic_noise.phase` uses interval
    quadtrees).  Its sections then count in a column only where they lie in
    those cells, and its critical values only in the grid rows where it is
    relevant.  With any relevance set present, the grid lines q = j/GRID are
    critical values, so a column lies inside one grid row, and the roots of
    ``f(a, q)`` at the ends a of its relevant p-intervals are too, so a section
    stays in or out of the relevant set on the whole column.
    """

    def __init__(self):
        self.polys: list[fmpz_mpoly] = []
        self._keys: dict = {}
        self.q_polys: dict = {}  # key -> fmpz_poly in q (an irreducible factor)
        self._owners: dict = {}  # key -> owners: (i,) for lc/disc/edges of i, (i, j) for a resultant
        self.pairs: set = set()  # index pairs (i, j), i < j, whose resultant is in q_polys
        self.cells: list = []  # per polynomial: None (relevant everywhere) or a set of grid cells
        self.rows: list = []  # per polynomial: None or {row: [closed p-intervals]}
        self._roots: dict = {}  # q-poly key -> its real roots in [0, 1]
        self._sections: dict = {}  # (poly index, rational q) -> roots in 0 < p < 1
        self._ends: dict = {}  # (poly index, a, row) -> roots of f(a, q) in the row
        self.degs: list = []  # per polynomial: its degree in p
        self.qc: list = []  # per polynomial: its coefficients in p as polynomials in q
        self.version = 0  # bumped whenever a polynomial or a relevance set changes
        self._columns: dict = {}
        self._shared: dict = {}

    def _add_q(self, g: fmpz_mpoly, owner: tuple) -> None:
        if g.is_zero() or g.is_constant():
            return
        for h in irreducible_factors(g):
            k = poly_key(h)
            self.q_polys.setdefault(k, in_q(h))
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
                self._add_q(f.discriminant("p"), owner)
            self._add_q(f.compose(ZERO2, Q_GEN), owner)
            self._add_q(f.compose(ONE2, Q_GEN), owner)
        return idx

    def add_pair(self, i: int, j: int) -> None:
        """Add the resultant in p of polynomials ``i`` and ``j`` (once)."""
        key = (min(i, j), max(i, j))
        if key in self.pairs or i == j:
            return
        self.pairs.add(key)
        self._add_q(self.polys[i].resultant(self.polys[j], "p"), key)

    def add_all_pairs(self) -> None:
        """Every pairwise resultant (the classical projection; for tests)."""
        for i in range(len(self.polys)):
            for j in range(i):
                if deg_p(self.polys[i]) >= 1 and deg_p(self.polys[j]) >= 1:
                    self.add_pair(i, j)

    def restricted(self) -> bool:
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
        """Whether the relevant parts of polynomials i and j may meet (a shared grid row
        where their relevant p-intervals overlap)."""
        rows = self._shared_rows((min(i, j), max(i, j)))
        return rows is None or bool(rows)

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
            for r in self._roots[key]:
                if any(self._relevant_rows(o, r) for o in self._owners[key]):
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
    p-intervals overlap in no grid row cannot meet and are not projected.)
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
        cache[key] = sorted(roots, key=_cmp_key)
    return cache[key]


def locate_point(cols: list[Column], polys, p: fmpq, q: fmpq) -> tuple:
    """Where the rational point (p, q) lies in a decomposition, decided exactly:
    ``("cell", column, sector)``, ``("boundary", column, k)`` (on section k) or
    ``("critical", k)`` (q is the k-th critical value, counting 0 as the 0th).

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


def _cmp_key(item):
    import functools

    return functools.cmp_to_key(lambda a, b: a[0].compare(b[0]))(item)


def decompose(polys) -> list[Column]:
    """The cylindrical decomposition of [0, 1]^2 for the irreducible factors of ``polys``."""
    proj = Projection()
    for f in polys:
        for g in irreducible_factors(f):
            proj.add(g)
    return columns(proj)


__all__ = [
    "BiRational",
    "CTX",
    "Column",
    "Projection",
    "at_q",
    "specialise_q",
    "bernstein_sign",
    "BoxSign",
    "columns",
    "decompose",
    "evaluate2",
    "from_univariate",
    "in_q",
    "interior_roots",
    "irreducible_factors",
    "locate_point",
]
