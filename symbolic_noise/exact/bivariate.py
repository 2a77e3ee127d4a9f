"""Bivariate exact core: rational functions of (p, q) and a cylindrical decomposition.

Polynomials are ``fmpz_mpoly`` in the variables ``p, q`` (:data:`CTX`).  A
:class:`BiRational` is ``num/den`` in lowest terms with a positive leading
coefficient in ``den``, so equal functions have equal representations.

:func:`decompose` builds the cylindrical decomposition of [0, 1]^2 over q
(theory.md, section 6) for a finite set of irreducible polynomials: the
critical values of q are the real roots in [0, 1] of leading coefficients,
discriminants, resultants in p of every pair, and of ``f(0, q)``, ``f(1, q)``
(a boundary running into p = 0 or p = 1), plus the ends 0 and 1; all are exact
:class:`~symbolic_noise.exact.algebraic.RealAlgebraic` numbers.  Between two critical
values each polynomial's roots in (0, 1) are continuous in q and never meet, so
their order and the sectors between them are read at one rational sample q.

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

from flint import fmpq, fmpq_poly, fmpz, fmpz_mpoly, fmpz_mpoly_ctx, fmpz_poly

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


def specialise_q(f: fmpz_mpoly, s: fmpq) -> fmpq_poly:
    """``f(p, s)`` for a rational ``s``, exactly, as a polynomial in p.

    >>> p, q = CTX.gens()
    >>> specialise_q(p * q - 1, fmpq(1, 2))
    1/2*x + (-1)
    """
    coeffs: dict = {}
    powers: dict = {}
    for (i, j), c in f.to_dict().items():
        if j not in powers:
            powers[j] = s**j
        coeffs[i] = coeffs.get(i, fmpq(0)) + fmpq(c) * powers[j]
    return fmpq_poly([coeffs.get(i, 0) for i in range(max(coeffs, default=-1) + 1)])


def at_q(f: fmpz_mpoly, s: fmpq) -> fmpz_poly:
    """``f(p, s)`` for a rational ``s``, cleared of denominators (same roots in p)."""
    return specialise_q(f, s).numer()


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
    from flint import arb

    return (arb(lo.p) / lo.q).union(arb(hi.p) / hi.q)


class BoxSign:
    """Rigorous sign of a polynomial on a box by interval (arb) Horner evaluation:
    +1 or -1 only when certain, else 0.  Interval arithmetic proves; it never guesses.

    >>> p, q = CTX.gens()
    >>> s = BoxSign(p - q)
    >>> s(fmpq(1, 2), fmpq(1), fmpq(0), fmpq(1, 4)), s(fmpq(0), fmpq(1), fmpq(0), fmpq(1))
    (1, 0)
    """

    def __init__(self, f: fmpz_mpoly):
        rows: dict = {}
        for (i, j), c in f.to_dict().items():
            rows.setdefault(i, {})[j] = int(c)
        m = max(rows, default=0)
        self.rows = [[rows.get(i, {}).get(j, 0) for j in range(max(rows.get(i, {0: 0}), default=0) + 1)] for i in range(m + 1)]

    def __call__(self, plo: fmpq, phi: fmpq, qlo: fmpq, qhi: fmpq) -> int:
        from flint import arb

        P, Q = box_ball(plo, phi), box_ball(qlo, qhi)
        total = arb(0)
        for row in reversed(self.rows):
            c = arb(0)
            for a in reversed(row):
                c = c * Q + a
            total = total * P + c
        return 1 if total > 0 else (-1 if total < 0 else 0)


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


def interior_roots(f: fmpz_mpoly, s: fmpq) -> list[RealAlgebraic]:
    """The real roots of ``f(p, s)`` in the open interval 0 < p < 1, increasing."""
    g = at_q(f, s)
    if g.degree() < 1:
        return []
    zero, one = RealAlgebraic.rational(0), RealAlgebraic.rational(1)
    return [r for r in real_roots(g, 0, 1) if r.compare(zero) > 0 and r.compare(one) < 0]


class Projection:
    """The critical-value polynomials in q of a growing set of polynomials, with
    the resultants of every pair computed once."""

    def __init__(self):
        self.polys: list[fmpz_mpoly] = []
        self._keys: dict = {}
        self.q_polys: dict = {}  # key -> fmpz_poly in q (square-free part not needed)

    def _add_q(self, g: fmpz_mpoly) -> None:
        if g.is_zero() or g.is_constant():
            return
        for h in irreducible_factors(g):
            self.q_polys.setdefault(poly_key(h), in_q(h))

    def add(self, f: fmpz_mpoly) -> int:
        """Add an irreducible normalised polynomial; returns its index."""
        k = poly_key(f)
        if k in self._keys:
            return self._keys[k]
        idx = self._keys[k] = len(self.polys)
        if deg_p(f) == 0:
            self._add_q(f)
        else:
            self._add_q(lc_p(f))
            if deg_p(f) >= 2:
                self._add_q(f.discriminant("p"))
            self._add_q(f.compose(ZERO2, Q_GEN))
            self._add_q(f.compose(ONE2, Q_GEN))
            for g in self.polys:
                if deg_p(g) >= 1:
                    self._add_q(f.resultant(g, "p"))
        self.polys.append(f)
        return idx

    def critical_values(self) -> list[RealAlgebraic]:
        """0, 1 and every real root in [0, 1] of the projection, increasing, distinct."""
        pts = [RealAlgebraic.rational(0), RealAlgebraic.rational(1)]
        for g in self.q_polys.values():
            pts.extend(real_roots(g, 0, 1))
        out: list[RealAlgebraic] = []
        for r in sorted_exact(pts):
            if not out or out[-1].compare(r) != 0:
                out.append(r)
        return out


def columns(proj: Projection) -> list[Column]:
    """The cylindrical decomposition of [0, 1]^2 adapted to ``proj.polys``."""
    crit = proj.critical_values()
    cols = []
    for k in range(len(crit) - 1):
        lo, hi = crit[k], crit[k + 1]
        s = rational_between(lo, hi)
        col = Column(k, lo, hi, s)
        roots = []
        for idx, f in enumerate(proj.polys):
            if deg_p(f) >= 1:
                for i, r in enumerate(interior_roots(f, s)):
                    roots.append((r, idx, i))
        roots = sorted(roots, key=_cmp_key)
        col.boundaries = [(idx, i) for _, idx, i in roots]
        edges = [RealAlgebraic.rational(0)] + [r for r, _, _ in roots] + [RealAlgebraic.rational(1)]
        for a, b in zip(edges, edges[1:]):
            if a.compare(b) >= 0:  # two sections meet at the sample: the projection missed a crossing
                raise ArithmeticError("sections of different polynomials meet inside a column")
            col.sectors.append(rational_between(a, b))
        cols.append(col)
    return cols


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
