"""Bivariate exact core: polynomials and rational functions of (p, q).

Polynomials are ``fmpz_mpoly`` in the variables ``p, q`` (:data:`CTX`).  A
:class:`BiRational` is ``num/den`` in lowest terms with a positive leading
coefficient in ``den``, so equal functions have equal representations.
:class:`BoxSign` decides signs on boxes by interval arithmetic and
:func:`bernstein_sign` on the whole square by Bernstein coefficients; both
answer only when certain.  The cylindrical decomposition built on them is
:mod:`symbolic_noise.exact.cad`.

Examples
--------
>>> p, q = CTX.gens()
>>> BiRational(p * q, p).text()
'q'
"""

from __future__ import annotations

from flint import arb, arb_poly, fmpq, fmpq_poly, fmpz_mpoly, fmpz_mpoly_ctx, fmpz_poly

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
    rows = [{} for _ in range(0 if f.is_zero() else f.degrees()[0] + 1)]
    for (i, j), c in zip(f.monoms(), f.coeffs()):
        rows[i][j] = c
    return [fmpz_poly([r.get(j, 0) for j in range(max(r) + 1)]) if r else fmpz_poly([]) for r in rows]




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
    if f.is_zero():
        return 0
    # the four corner Bernstein coefficients are f's values at the corners: most
    # undecided cases are settled by them (evaluated by FLINT), before the transform
    corners = {(x > 0) - (x < 0) for x in (f(0, 0), f(1, 0), f(0, 1), f(1, 1))}
    if not strict:
        corners.discard(0)
    if len(corners) > 1 or 0 in corners:
        return 0
    coeffs = f.to_dict()
    m = max(i for i, _ in coeffs)
    n = max(j for _, j in coeffs)
    c = [[0] * (m + 1) for _ in range(n + 1)]  # c[j][i]: the coefficient of p^i q^j
    for (i, j), x in coeffs.items():
        c[j][i] = int(x)
    # the transform is a tensor product: in p (each power of q), then in q
    in_p = [_bernstein_scaled(row, m) for row in c]
    signs = set()
    for k in range(m + 1):
        for b in _bernstein_scaled([row[k] for row in in_p], n):
            if b != 0 or strict:
                signs.add((b > 0) - (b < 0))
        if len(signs) > 1 or 0 in signs:
            return 0
    return signs.pop() if signs else 0


_ONE_PLUS_X = fmpz_poly([1, 1])


def _bernstein_scaled(a: list, m: int) -> list:
    """The Bernstein coefficients on [0, 1] of ``sum a_i x^i`` (degree <= m), each
    times the positive ``C(m, k)``: the coefficients of ``sum a_i x^i (1 + x)^(m - i)``
    (``C(m - i, k - i) = C(m, k) C(k, i) / C(m, i)``), which are those of
    ``x^m R(1 + 1/x)``, R the reversal of a: a Taylor shift by FLINT between two
    reversals.

    >>> _bernstein_scaled([1, -2, 1], 2)   # (1 - x)^2: Bernstein coefficients 1, 0, 0
    [1, 0, 0]
    """
    if not any(a):
        return [0] * (m + 1)
    rev = fmpz_poly([0] * (m + 1 - len(a)) + a[::-1])  # sum a_i y^(m - i)
    s = [int(x) for x in rev(_ONE_PLUS_X).coeffs()]
    s += [0] * (m + 1 - len(s))
    return s[::-1]


def box_ball(lo: fmpq, hi: fmpq):
    """An arb ball enclosing the rational interval [lo, hi] (rigorous)."""
    return (arb(lo.p) / lo.q).union(arb(hi.p) / hi.q)


class BoxBalls:
    """The arb balls of a box [plo, phi] x [qlo, qhi] that :class:`BoxSign` needs:
    the box, its centre and its half-widths (rigorous enclosures)."""

    __slots__ = {
        "P": "The p-interval [plo, phi] as a ball.",
        "Q": "The q-interval [qlo, qhi] as a ball.",
        "cp": "The centre's p as a ball.",
        "cq": "The centre's q as a ball.",
        "rp": "The ball [-wp, wp] of the half-width in p.",
        "rq": "The ball [-wq, wq] of the half-width in q.",
        "qkey": "The q-interval exactly, as a key (boxes sharing it share the rows' values in q).",
    }

    def __init__(self, plo: fmpq, phi: fmpq, qlo: fmpq, qhi: fmpq):
        half = fmpq(1, 2)
        #: the q-interval, exactly; boxes sharing it share the rows' values in q (:class:`BoxSign`)
        self.qkey = (int(qlo.p), int(qlo.q), int(qhi.p), int(qhi.q))
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
        # q-interval -> the coefficients in p as balls: rows at Q, rows at the centre cq,
        # dp and dq at Q (every box of a quadtree row shares them)
        self._inq: dict = {}

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

    def _in_q(self, b: BoxBalls, k: int):
        """Component k of the rows evaluated at the box's q-interval (cached per q-interval):
        0 rows at Q, 1 rows at cq, 2 dp at Q, 3 dq at Q, each an ``arb_poly`` in p."""
        hit = self._inq.get(b.qkey)
        if hit is None:
            hit = self._inq[b.qkey] = [None] * 4
        if hit[k] is None:
            rows, y = ((self.rows, b.Q), (self.rows, b.cq), (self.dp, b.Q), (self.dq, b.Q))[k]
            hit[k] = arb_poly([r(y) for r in rows]) if rows else None
        return hit[k]

    def sign(self, b: BoxBalls) -> int:
        """The same enclosures as :meth:`_horner` on the box, with the polynomials in q
        evaluated once per q-interval."""
        f = self._in_q(b, 0)
        if f is None:
            return 0
        total = f(b.P)
        if total > 0:
            return 1
        if total < 0:
            return -1
        mv = self._in_q(b, 1)(b.cp)
        dp, dq = self._in_q(b, 2), self._in_q(b, 3)
        if dp is not None:
            mv += dp(b.P) * b.rp
        if dq is not None:
            mv += dq(b.P) * b.rq
        return 1 if mv > 0 else (-1 if mv < 0 else 0)


def deg_p(f: fmpz_mpoly) -> int:
    """The degree of ``f`` in p (0 for the zero polynomial)."""
    return max((i for i, _ in f.to_dict()), default=0)


def p_rows(f: fmpz_mpoly) -> list[list[int]]:
    """``f`` as its coefficients in p (index = power of p), each the list of its
    integer coefficients in q (index = power of q); ``[]`` for 0.

    >>> p, q = CTX.gens()
    >>> p_rows(p * q - 1)
    [[-1], [0, 1]]
    """
    rows = [{} for _ in range(0 if f.is_zero() else f.degrees()[0] + 1)]
    for (i, j), c in zip(f.monoms(), f.coeffs()):
        rows[i][j] = int(c)
    return [[r.get(j, 0) for j in range(max(r) + 1)] if r else [0] for r in rows]


def _at(row: list, x: int) -> int:
    """The integer polynomial ``row`` (coefficients from the constant) at x (Horner)."""
    v = 0
    for c in reversed(row):
        v = v * x + c
    return v


def _balanced_digits(v: int, k: int, n: int) -> list:
    """The n digits c_0, ..., c_{n-1} of ``v = sum c_i 2^(k i)`` with every
    ``|c_i| < 2^(k-1)`` (balanced base 2^k), split in halves: the low half of such a
    sum lies in ``(-2^(k h - 1), 2^(k h - 1))``, so it is v's balanced residue."""
    if n <= 16:
        out, half, mask = [], 1 << (k - 1), (1 << k) - 1
        for _ in range(n - 1):
            c = v & mask
            if c >= half:
                c -= 1 << k
            out.append(c)
            v = (v - c) >> k
        return out + [v]
    h = n // 2
    bits = k * h
    low = v & ((1 << bits) - 1)
    if low >> (bits - 1):
        low -= 1 << bits
    return _balanced_digits(low, k, h) + _balanced_digits((v - low) >> bits, k, n - h)


def resultant_p_rows(a: list, b: list) -> fmpz_poly:
    """``res_p(a, b)`` in Z[q], exactly, from :func:`p_rows` of two polynomials with
    ``deg_p >= 1``, by Kronecker substitution: q = 2^k turns a and b into integer
    polynomials in p whose resultant is R(2^k) (the resultant is a polynomial in
    the coefficients and the degrees in p are kept: the leading coefficients do not
    vanish at 2^k), and the coefficients of R are R(2^k)'s balanced digits in base
    2^k.  The digits are R's coefficients when 2^k > 2 M, M a bound on them: R(z)
    is the determinant of the Sylvester matrix at z, so on |z| = 1 Hadamard's
    inequality gives ``|R(z)|^2 <= A^n B^m`` with ``A = sum ||a_i||_1^2`` over the
    coefficients a_i of a in p (``B`` alike), m, n the degrees of a, b in p, and
    every coefficient of R is at most ``max |R(z)|`` on the unit circle (Cauchy).
    One integer resultant (FLINT's multi-modular ``fmpz_poly_resultant``) is several
    times faster than ``fmpz_mpoly`` resultant in p of dense bivariate polynomials.

    >>> p, q = CTX.gens()
    >>> f, g = 2 * p**3 + q * p + 1, p**2 + q
    >>> resultant_p_rows(p_rows(f), p_rows(g)) == in_q(f.resultant(g, "p"))
    True
    """
    m, n = len(a) - 1, len(b) - 1
    if m < 1 or n < 1:
        raise ValueError("resultant_p_rows needs degree >= 1 in p")
    A = sum(sum(map(abs, r)) ** 2 for r in a)
    B = sum(sum(map(abs, r)) ** 2 for r in b)
    k = ((A**n * B**m).bit_length() + 1) // 2 + 2
    x = 1 << k
    fa = fmpz_poly([_at(r, x) for r in a])
    fb = fmpz_poly([_at(r, x) for r in b])
    if fa.degree() != m or fb.degree() != n:  # never: 2^k exceeds the roots' bound of a_m, b_n
        raise ArithmeticError("Kronecker substitution lost a leading coefficient")
    deg = m * max(len(r) for r in b) + n * max(len(r) for r in a)  # > deg_q R (a Sylvester term's degree)
    digits = _balanced_digits(int(fa.resultant(fb)), k, deg)
    if abs(digits[-1]) >= x >> 1:  # never: deg bounds deg_q R
        raise ArithmeticError("Kronecker substitution: too few digits")
    return fmpz_poly(digits)


def discriminant_p_rows(a: list) -> fmpz_poly:
    """``disc_p a`` in Z[q] (FLINT's ``discriminant``: ``(-1)^(n(n-1)/2) res_p(a, da/dp)
    / lc_p(a)``) for :func:`p_rows` of a polynomial with ``deg_p = n >= 2``, by
    Kronecker substitution as in :func:`resultant_p_rows`: the discriminant is a
    polynomial in the coefficients, so ``disc(a(p, 2^k)) = (disc_p a)(2^k)``.  The
    bound: in the Sylvester matrix of a and a', the first a' row minus n times the
    first a row leaves ``a_n`` alone in the first column, so ``disc_p a = +-det N``,
    N the minor without that row and column: n - 2 rows of a's coefficients, one
    of ``-(n - i) a_i`` and n - 1 of ``i a_i``.  Hadamard's inequality on |z| = 1
    gives ``|disc(z)|^2 <= A^(n-2) C D^(n-1)`` with ``A = sum ||a_i||_1^2``,
    ``C = sum (n - i)^2 ||a_i||_1^2``, ``D = sum i^2 ||a_i||_1^2``.

    >>> p, q = CTX.gens()
    >>> f = 3 * p**2 + (q + 1) * p + 5 * q
    >>> discriminant_p_rows(p_rows(f)) == in_q(f.discriminant("p"))
    True
    """
    n = len(a) - 1
    if n < 2:
        raise ValueError("discriminant_p_rows needs degree >= 2 in p")
    norms = [sum(map(abs, r)) ** 2 for r in a]
    A = sum(norms)
    C = sum((n - i) ** 2 * x for i, x in enumerate(norms))
    D = sum(i * i * x for i, x in enumerate(norms))
    if C == 0:  # a = a_n p^n: a multiple root at 0
        return fmpz_poly([])
    k = ((A ** (n - 2) * C * D ** (n - 1)).bit_length() + 1) // 2 + 2
    x = 1 << k
    fa = fmpz_poly([_at(r, x) for r in a])
    if fa.degree() != n:  # never: 2^k exceeds the roots' bound of a_n
        raise ArithmeticError("Kronecker substitution lost the leading coefficient")
    deg = (2 * n - 2) * max(len(r) for r in a)  # > deg_q disc (a term of det N)
    digits = _balanced_digits(int(fa.discriminant()), k, deg)
    if abs(digits[-1]) >= x >> 1:  # never: deg bounds deg_q disc
        raise ArithmeticError("Kronecker substitution: too few digits")
    return fmpz_poly(digits)


def resultant_q(f: fmpz_mpoly, g: fmpz_mpoly) -> fmpz_poly:
    """``res_p(f, g)`` as a polynomial in q: by :func:`resultant_p_rows` when both
    have degree >= 1 in p, else FLINT's (a power of the other's leading
    coefficient, or 0).

    >>> p, q = CTX.gens()
    >>> resultant_q(p - q, 2 * p - 1), resultant_q(p - q, q + 3)
    (2*x + (-1), x + 3)
    >>> resultant_q(p - q, 2 * p - 1) == in_q((p - q).resultant(2 * p - 1, "p"))
    True
    """
    if deg_p(f) >= 1 and deg_p(g) >= 1:
        return resultant_p_rows(p_rows(f), p_rows(g))
    return in_q(f.resultant(g, "p"))


def discriminant_q(f: fmpz_mpoly) -> fmpz_poly:
    """``disc_p f`` as a polynomial in q (:func:`discriminant_p_rows`), for
    ``deg_p f >= 2``.

    >>> p, q = CTX.gens()
    >>> discriminant_q(p**2 - q)
    4*x
    """
    return discriminant_p_rows(p_rows(f))


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
    return (tuple(f.monoms()), tuple(f.coeffs()))  # FLINT keeps the terms sorted: canonical


class BiRational:
    """A rational function of (p, q) in lowest terms.

    >>> p, q = CTX.gens()
    >>> f = BiRational(1 - p, ONE2) - BiRational(q, ONE2)
    >>> f.text(), f(fmpq(1, 4), fmpq(1, 2))
    ('1 - p - q', 1/4)
    """

    __slots__ = {
        "num": "The numerator, a polynomial in p and q with integer coefficients.",
        "den": "The denominator, coprime to the numerator, with a positive leading coefficient.",
        "_key": None,
    }

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
        """The constant ``c`` (an exact rational)."""
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
        """The paper's style, as the univariate formulas are written: increasing
        total degree, ``^`` for powers, juxtaposition for products.

        >>> p, q = CTX.gens()
        >>> BiRational(p * q - p + 1, p + 1).text()
        '(1 - p + p q)/(1 + p)'
        """
        return _fraction(mpoly_text(self.num), mpoly_text(self.den), self.num, self.den)

    def formula(self) -> str:
        """The machine form, as in the JSON of a univariate solution:
        SymPy-parsable, decreasing degree, ``*`` and ``**``.

        >>> p, q = CTX.gens()
        >>> BiRational(p**2 * q - p**2 + p, p**2 - p + 1).formula()
        '(p**2*q - p**2 + p)/(p**2 - p + 1)'
        """
        return _fraction(mpoly_str(self.num), mpoly_str(self.den), self.num, self.den)

    __str__ = text

    def __repr__(self) -> str:
        return f"BiRational({self.text()})"



# --------------------------------------------------------------------------- formatting


def _monomials(f: fmpz_mpoly, ascending: bool) -> list:
    """``(p-degree, q-degree, coefficient)`` of every term, by total degree
    (then by the degree in p, decreasing), increasing or decreasing."""
    terms = [(int(e[0]), int(e[1]), int(c)) for e, c in f.terms() if c != 0]
    terms.sort(key=lambda t: (t[0] + t[1], -t[0]), reverse=not ascending)
    return terms


def _join(bodies: list) -> str:
    out = []
    for sign, body in bodies:
        out.append((("-" if sign < 0 else "") if not out else (" - " if sign < 0 else " + ")) + body)
    return "".join(out) or "0"


def mpoly_text(f: fmpz_mpoly) -> str:
    """``f`` in the paper's style: ``1 - p + p q``, ``2p^2 q^3``.

    >>> p, q = CTX.gens()
    >>> mpoly_text(2 * p**2 * q**3 - q + 1)
    '1 - q + 2p^2 q^3'
    """
    return _written(f, ascending=True, power="^", times=" ", coefficient="")


def mpoly_str(f: fmpz_mpoly) -> str:
    """``f`` SymPy-parsable, decreasing degree: ``2*p**2*q**3 - q + 1``.

    >>> p, q = CTX.gens()
    >>> mpoly_str(2 * p**2 * q**3 - q + 1)
    '2*p**2*q**3 - q + 1'
    """
    return _written(f, ascending=False, power="**", times="*", coefficient="*")


def _written(f: fmpz_mpoly, *, ascending: bool, power: str, times: str, coefficient: str) -> str:
    bodies = []
    for i, j, c in _monomials(f, ascending=ascending):
        powers = times.join(v if e == 1 else f"{v}{power}{e}" for v, e in (("p", i), ("q", j)) if e)
        mag = abs(c)
        bodies.append((c, str(mag) if not powers else (powers if mag == 1 else f"{mag}{coefficient}{powers}")))
    return _join(bodies)


def _fraction(num: str, den: str, n: fmpz_mpoly, d: fmpz_mpoly) -> str:
    """``num/den`` with the parentheses a sum needs (``num`` alone over 1)."""
    if d.is_one():
        return num
    if len(list(n.terms())) > 1:
        num = f"({num})"
    if len(list(d.terms())) > 1 or d.total_degree() >= 1:
        den = f"({den})"
    return f"{num}/{den}"

__all__ = [
    "mpoly_str",
    "mpoly_text",
    "BiRational",
    "BoxBalls",
    "BoxSign",
    "CTX",
    "at_q",
    "bernstein_sign",
    "deg_p",
    "discriminant_p_rows",
    "discriminant_q",
    "evaluate2",
    "from_univariate",
    "in_q",
    "irreducible_factors",
    "lc_p",
    "p_rows",
    "poly_key",
    "q_coeffs",
    "resultant_p_rows",
    "resultant_q",
    "specialise_q",
]
