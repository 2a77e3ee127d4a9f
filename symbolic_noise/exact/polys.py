"""Integer polynomials in p: the bottom layer of the exact core.

Polynomials are python-flint ``fmpz_poly`` values and rational numbers are
``fmpq`` values; this module holds small pure functions on them:

* exact conversion of user numbers (``as_fmpq``) and exact signs;
* square-free parts and primitive normal forms;
* the Möbius transforms behind Descartes' rule of signs: the number of sign
  variations of ``(1 + s)^d g(1 / (1 + s))`` bounds the number of roots of ``g``
  in (0, 1), and its coefficients are, up to positive binomial factors, the
  Bernstein coefficients of ``g`` on [0, 1];
* real-root isolation on a closed interval by the Vincent–Collins–Akritas
  bisection (G. E. Collins and A. G. Akritas, SYMSAC 1976; F. Rouillier and
  P. Zimmermann, J. Comput. Appl. Math. 162 (2004) 33-50).

Nothing here knows about games; the algebraic numbers, rational functions and
piecewise functions of the layers above are built on these functions.

Examples
--------
>>> from flint import fmpz_poly, fmpq
>>> f = fmpz_poly([-1, 0, 2])                    # 2 p^2 - 1, root 1/sqrt(2)
>>> isolate_real_roots(f, 0, 1)
([], [(0, 1)], 2*x^2 + (-1))
>>> bernstein_sign(fmpz_poly([1, -1]), 0, fmpq(1, 2))     # 1 - p > 0 on (0, 1/2)
1
"""

from __future__ import annotations

import functools
import operator
from fractions import Fraction
from numbers import Integral, Rational

from flint import arb, arb_poly, ctx, fmpq, fmpq_poly, fmpz, fmpz_poly

from ..errors import ExpressionError

X = fmpz_poly([0, 1])
ONE_PLUS_X = fmpz_poly([1, 1])
ZERO = fmpz_poly([])
ONE = fmpz_poly([1])
MINUS_X = fmpz_poly([0, -1])


# --------------------------------------------------------------------------- numbers


def as_fmpq(x) -> fmpq:
    """Convert an exact number (int, Fraction, fmpq or SymPy Rational) to
    ``fmpq``; floats are refused, and so is text: the exact core reads no text
    (:func:`symbolic_noise.exact.formula.exact_number` reads numbers from text
    with the formula grammar, and takes everything this function takes).

    >>> as_fmpq(2), as_fmpq(Fraction(1, 3))
    (2, 1/3)
    """
    if isinstance(x, fmpq):
        return x
    if isinstance(x, (bool, float)):
        raise ExpressionError(
            f"{x!r} is a float; give exact numbers (int, Fraction, or a string like '1/3' or '0.25')"
        )
    if isinstance(x, (int, fmpz)):
        return fmpq(int(x))
    if isinstance(x, (Fraction,)) or (isinstance(x, Rational) and not isinstance(x, Integral)):
        return fmpq(int(x.numerator), int(x.denominator))
    if isinstance(x, Integral):
        return fmpq(int(x))
    if isinstance(x, str):
        raise ExpressionError(
            f"{x[:40]!r} is text; the exact core reads no text (read it with symbolic_noise.exact.formula.exact_number)"
        )
    # SymPy numbers without importing SymPy here
    if getattr(x, "is_Rational", False):
        return fmpq(int(x.p), int(x.q))
    raise ExpressionError(f"{x!r} is not an exact rational number")


def to_fraction(q: fmpq) -> Fraction:
    """``fmpq`` to ``fractions.Fraction`` (for rounding and printing)."""
    return Fraction(int(q.p), int(q.q))


def sign(x) -> int:
    """The sign -1, 0 or 1 of an exact number."""
    return (x > 0) - (x < 0)


# --------------------------------------------------------------------------- normal forms


def primitive(f: fmpz_poly) -> fmpz_poly:
    """``f`` divided by its content, with a positive leading coefficient (0 stays 0).

    >>> primitive(fmpz_poly([4, -6]))
    3*x + (-2)
    """
    if f.is_zero():
        return f
    c = f.content()
    if f.leading_coefficient() < 0:
        c = -c
    return f if c == 1 else f // c


def sqf_part(f: fmpz_poly) -> fmpz_poly:
    """The primitive square-free part of a non-constant ``f`` (same real roots, all simple).

    >>> sqf_part(fmpz_poly([1, -1]) ** 3 * fmpz_poly([0, 2]))
    x^2 + (-1)*x
    """
    g = f.gcd(f.derivative())
    return primitive(f // g if g.degree() > 0 else f)


def linear_factor(q: fmpq) -> fmpz_poly:
    """The primitive integer polynomial ``den * x - num`` whose root is ``q``."""
    return fmpz_poly([-q.p, q.q])


def evaluate(f: fmpz_poly, x: fmpq) -> fmpq:
    """Exact value of ``f`` at a rational point."""
    return f(x)


# --------------------------------------------------------------------------- Möbius transforms


def variations(coeffs) -> int:
    """Number of sign changes in a coefficient sequence, zeros skipped.

    >>> variations([1, 0, -2, 3, 3, -1])
    3
    """
    count = 0
    last = 0
    for c in coeffs:
        if c > 0:
            if last < 0:
                count += 1
            last = 1
        elif c < 0:
            if last > 0:
                count += 1
            last = -1
    return count


def local_poly(f: fmpz_poly, lo: fmpq, hi: fmpq) -> fmpz_poly:
    """A positive integer multiple of ``t -> f(lo + (hi - lo) t)``, primitive.

    Its roots in (0, 1) are the roots of ``f`` in (lo, hi), mapped affinely.
    """
    if f.degree() <= 0:
        return f
    g = fmpq_poly(f)(fmpq_poly([lo, hi - lo])).numer()
    c = g.content()
    return g if c == 1 else g // c


def _descartes_poly(g: fmpz_poly) -> fmpz_poly:
    """``(1 + s)^d g(1 / (1 + s))``: positive roots correspond to roots of ``g`` in (0, 1)."""
    return fmpz_poly(g.coeffs()[::-1])(ONE_PLUS_X)


def descartes_count(g: fmpz_poly) -> int:
    """Descartes' bound on the number of roots of ``g`` in the open interval (0, 1).

    The bound is exact when it is 0 or 1 (Vincent's theorem makes it so after
    enough bisection), and always has the parity of the true count.
    """
    if g.degree() <= 0:
        return 0
    return variations(_descartes_poly(g).coeffs())


def bernstein_sign(f: fmpz_poly, lo, hi) -> int:
    """1 (resp. -1) when ``f > 0`` (resp. ``f < 0``) is proved on the open
    interval (lo, hi); 0 when the tests do not decide.

    Two exact tests, the cheaper first.  ``g(t)``, a positive multiple of
    ``f(lo + (hi - lo) t)``, is one Taylor shift away; if its constant term
    outweighs the terms of the other sign (:func:`_dominant_sign`), ``f`` has
    that sign on the closed interval.  Otherwise the Bernstein coefficients
    (one more Taylor shift of ``g``): all >= 0 (resp. <= 0) and not all zero
    prove the sign on the open interval.  That test decides whenever ``f`` has
    no root in [lo, hi] and the interval is small enough; a root at an end
    point is allowed.

    >>> bernstein_sign(fmpz_poly([-1, 2]), fmpq(1, 2), 1)     # 2p - 1 vanishes at 1/2
    1
    >>> bernstein_sign(fmpz_poly([-1, 2]), 0, 1)
    0
    >>> bernstein_sign(fmpz_poly([4, -1, -1]), 0, 1)   # 4 - p - p^2 >= 2 on [0, 1]: decided by the expansion
    1
    """
    return bernstein_test(f, lo, hi)[0]


def bernstein_test(f: fmpz_poly, lo, hi) -> tuple[int, int, int]:
    """:func:`bernstein_sign` with what its transforms tell when it does not
    decide: ``(s, v, s_lo)``.  ``s`` is bernstein_sign's answer; when it is 0,
    ``v`` is the number of sign variations of the Descartes coefficients on
    (lo, hi) when ``f(lo)`` and ``f(hi)`` are both non-zero (else -1), and
    ``s_lo`` the sign of ``f(lo)``.  ``v == 1`` proves that ``f`` has exactly
    one root in (lo, hi), a simple one (Descartes' rule counts roots with
    multiplicity, and the count has the parity of ``v``), where ``f`` changes
    sign from ``s_lo`` to ``-s_lo``.  When ``s != 0``, ``v`` and ``s_lo`` are 0.

    >>> bernstein_test(fmpz_poly([-1, 2]), 0, 1)          # 2p - 1: one root, from - to +
    (0, 1, -1)
    >>> bernstein_test(fmpz_poly([1, -3, 2]), 0, fmpq(3, 4))   # (1 - p)(1 - 2p): one root, at 1/2
    (0, 1, 1)
    >>> bernstein_test(fmpz_poly([1, -3, 2]), 0, 1)        # a root at the end point 1
    (0, -1, 1)
    """
    lo, hi = as_fmpq(lo), as_fmpq(hi)
    if f.degree() <= 0:
        return (sign(f(lo)) if not f.is_zero() else 0), 0, 0
    d = f.degree()
    g = _local_scaled(f, lo, hi, d)
    s = _dominant_sign(g)
    if s:
        return s, 0, 0
    # the scaled Bernstein coefficients are positive multiples of the
    # Descartes coefficients of local_poly(f, lo, hi): the same signs
    coeffs = _descartes_coeffs(g, d)
    pos, neg = max(coeffs) > 0, min(coeffs) < 0
    if pos and neg:
        # coeffs[d] = g(0) is q^d f(lo) and coeffs[0] = g(1) is q^d f(hi)
        if coeffs[0] == 0 or coeffs[d] == 0:
            return 0, -1, sign(coeffs[d])
        return 0, variations(coeffs), sign(coeffs[d])
    return (1 if pos else (-1 if neg else 0)), 0, 0


def sign_at(f: fmpz_poly, t: fmpq) -> int:
    """The exact sign of ``f(t)`` at a rational ``t``: from a ball evaluation
    when the ball excludes 0 (certain), else from the exact value.  Exact
    values at long dyadic points of a degree-300 polynomial cost milliseconds
    (the numerators grow by the point's bits at every Horner step); the ball
    costs microseconds.

    >>> sign_at(fmpz_poly([-1, 0, 2]), fmpq(7, 10)), sign_at(fmpz_poly([-1, 2]), fmpq(1, 2))
    (-1, 0)
    """
    t = as_fmpq(t)
    if f.degree() <= 0:
        return sign(f(t)) if not f.is_zero() else 0
    # the precision refine_to uses at its bisection points
    need = f.height_bits() + 64 + 2 * max(int(t.q).bit_length(), int(abs(t.p)).bit_length())
    with ctx.workprec(2 * need):
        value = f(arb(t))
    if value > 0:
        return 1
    if value < 0:
        return -1
    return sign(f(t))


def newton_bracket(f: fmpz_poly, lo: fmpq, hi: fmpq, width: fmpq) -> tuple[fmpq, fmpq] | None:
    """A proposed interval ``(a, b)``, ``b - a <= width``, around the root of the
    square-free ``f`` in (lo, hi), from Newton's method started at the middle
    (ball arithmetic, midpoints only); ``None`` when the iteration leaves
    (lo, hi) or does not settle.  A proposal only: the caller keeps it where
    the signs of ``f`` at ``a`` and ``b`` (:func:`sign_at`) confirm it.

    >>> newton_bracket(fmpz_poly([-1, 0, 2]), fmpq(0), fmpq(1), fmpq(1, 10**6))
    (2965819/4194304, 2965823/4194304)
    """
    k = int(width.q).bit_length() - int(width.p).bit_length() + 2  # 2^-k <= width / 2
    big = max(abs(lo), abs(hi), fmpq(1))
    prec = f.height_bits() + k + 64 + f.degree().bit_length() + f.degree() * int(big.p // big.q + 1).bit_length()
    with ctx.workprec(prec):
        F = arb_poly(f.coeffs())
        dF = F.derivative()
        x = arb((lo + hi) / 2)
        small = arb(fmpq(1, 2 ** (k + 2)))
        for _ in range(2 * prec.bit_length() + 8):
            step = F(x) / dF(x)
            if not step.is_finite():
                return None
            x = (x - step.mid()).mid()
            man, exp = x.man_exp()
            t = fmpq(int(man)) * fmpq(2) ** int(exp)
            if not lo < t < hi:
                return None
            if abs(step.mid()) < small:
                break
        else:
            return None
    # on the grid of 2^-(k + 1) <= width / 4: the step of the root from t at
    # least one grid step away from a, two from b
    scaled = t * 2 ** (k + 1)
    a = fmpq(int(scaled.p // scaled.q) - 1, 2 ** (k + 1))
    return a, a + fmpq(4, 2 ** (k + 1))


def simplest_rational(lo, hi) -> Fraction:
    """The rational with the least denominator in the closed [lo, hi] (lo <= hi),
    by the continued fractions of its ends.

    >>> simplest_rational(fmpq(3, 10), fmpq(2, 5)), simplest_rational(fmpq(-27, 4), fmpq(-13, 2))
    (Fraction(1, 3), Fraction(-13, 2))
    """
    lo, hi = as_fmpq(lo), as_fmpq(hi)
    an, ad, bn, bd = int(lo.p), int(lo.q), int(hi.p), int(hi.q)  # a = an/ad <= b = bn/bd
    if an <= 0 <= bn:
        return Fraction(0)
    negative = bn < 0
    if negative:
        an, ad, bn, bd = -bn, bd, -an, ad
    h0, h1, k0, k1 = 0, 1, 1, 0  # the convergents of the common continued fraction so far
    while True:
        n = -(-an // ad)  # the least integer >= a
        if n * bd <= bn:
            out = Fraction(n * h1 + h0, n * k1 + k0)
            return -out if negative else out
        n = an // ad  # a and b in (n, n + 1): go on with 1/(b - n) <= 1/(a - n)
        h0, h1, k0, k1 = h1, n * h1 + h0, k1, n * k1 + k0
        an, ad, bn, bd = bd, bn - n * bd, ad, an - n * ad


def _dominant_sign(g: list) -> int:
    """The sign ``s`` of ``g(t) = sum g_i t^i`` on the closed [0, 1] when its
    constant term proves it, else 0.

    For ``s = 1``: with ``c_(d+1) = 0`` and ``c_i = min(g_i + c_(i+1), 0)``,
    ``sum_(j >= i) g_j t^j >= c_i t^i`` on [0, 1] (induction: ``c_(i+1) <= 0``
    and ``t^(i+1) <= t^i``), so ``g(t) >= g_0 + c_1 t >= g_0 + c_1``: a
    negative term is absorbed by the positive ones below it.  The mirror
    image for ``s = -1``.

    >>> _dominant_sign([3, 2, -4]), _dominant_sign([3, -4, 2]), _dominant_sign([-1, 3]), _dominant_sign([-3, 1, 1])
    (1, 0, 0, -1)
    """
    g0 = g[0]
    carry = 0
    if g0 > 0:
        for x in g[:0:-1]:  # g_d, ..., g_1
            carry += x
            if carry > 0:
                carry = 0
        return 1 if g0 + carry > 0 else 0
    if g0 < 0:
        for x in g[:0:-1]:
            carry += x
            if carry < 0:
                carry = 0
        return -1 if g0 + carry < 0 else 0
    return 0


def bernstein_ratio_range(num: fmpz_poly, den: fmpz_poly, lo, hi):
    """Exact bounds ``(m, M)`` with ``m <= num/den <= M`` on the closed interval
    [lo, hi], from Bernstein coefficients (the mediant inequality: a ratio of
    two Bernstein expansions lies between the extreme ratios of corresponding
    coefficients); ``None`` unless every Bernstein coefficient of ``den`` is
    positive (which proves ``den > 0`` there).

    >>> bernstein_ratio_range(fmpz_poly([0, 1]), fmpz_poly([1, 1]), 0, 1)   # p/(1+p)
    (0, 1/2)
    """
    lo, hi = as_fmpq(lo), as_fmpq(hi)
    d = max(num.degree(), den.degree(), 0)
    a = _scaled_bernstein(num, lo, hi, d)
    b = _scaled_bernstein(den, lo, hi, d)
    if any(x <= 0 for x in b):
        return None
    # the extreme ratios a_i / b_i by integer cross-multiplication (b_i > 0),
    # two fractions made in the end
    low = high = 0
    for i in range(1, len(a)):
        if a[i] * b[low] < a[low] * b[i]:
            low = i
        if a[i] * b[high] > a[high] * b[i]:
            high = i
    return fmpq(a[low], b[low]), fmpq(a[high], b[high])


def bernstein_deviation_bound(num: fmpz_poly, den: fmpz_poly, value: fmpq, lo, hi):
    """An exact bound ``M >= |num/den - value|`` on [lo, hi], ``None`` unless
    every Bernstein coefficient of ``den`` there is positive: the largest
    Bernstein coefficient of ``|q num - p den|`` (``value = p/q``) over ``q``
    times the smallest of ``den`` (the mediant inequality).  The Bernstein
    transform (the costly part) is taken of ``num`` and ``den`` alone: the
    coefficients of ``q num - p den`` follow by linearity, without
    transforming a polynomial whose coefficients carry the bits of ``value``.

    >>> bernstein_deviation_bound(fmpz_poly([-1, 2]), fmpz_poly([1, 1]), 0, 0, 1)   # |(2p-1)/(1+p)|
    1
    >>> bernstein_deviation_bound(fmpz_poly([0, 1]), fmpz_poly([1]), fmpq(1, 2), 0, 1)   # |p - 1/2|
    1/2
    """
    lo, hi, value = as_fmpq(lo), as_fmpq(hi), as_fmpq(value)
    d = max(num.degree(), den.degree(), 0)
    b = _scaled_bernstein(den, lo, hi, d)
    # scaled coefficients carry binomials C(d, j); divide them out before comparing
    binom = _binomials(d)
    if min(b) <= 0:
        return None
    a = _scaled_bernstein(num, lo, hi, d)
    vp, vq = value.p, value.q
    if vp != 0:  # (value 0 is 0/1: a stays)
        a = [x * vq - vp * y for x, y in zip(a, b)]
    # Fast path, exact integer arithmetic in C loops: floor(b_j / C_j) is a
    # lower bound of b_j / C_j and floor(|a_j| / C_j) + 1 an upper bound of
    # |a_j| / C_j; when both are large the bound is within 2^-60 of the one below.
    low = min(map(operator.floordiv, b, binom))
    high = max(map(operator.floordiv, map(abs, a), binom)) + 1
    if low >= _BIG and high >= _BIG:
        return fmpq(high, low) / vq
    low = min(fmpq(x, c) for x, c in zip(b, binom))
    return max(fmpq(abs(x), c) for x, c in zip(a, binom)) / low / vq


_BIG = fmpz(2) ** 60


@functools.lru_cache(maxsize=1024)
def _binomials(d: int) -> list:
    """``[C(d, 0), ..., C(d, d)]`` as ``fmpz`` (the coefficients of ``(1 + s)^d``)."""
    return (ONE_PLUS_X**d).coeffs()


_SCALE_CACHE: dict = {}
#: (lo, hi, data) of the last interval asked for (compared by identity; fmpq is immutable)
_SCALE_LAST: tuple = (None, None, None)


def _scale_data(lo: fmpq, hi: fmpq, d: int) -> tuple:
    """``([q^d, q^(d-1), ..., 1], a + w x)`` with ``q`` the least common
    denominator of ``lo`` and ``hi - lo`` and ``a = q lo``, ``w = q (hi - lo)``:
    what :func:`_scaled_bernstein` needs for one interval and degree.  The
    powers of the last few intervals are kept (cells ask for many degrees)."""
    global _SCALE_LAST
    last = _SCALE_LAST  # one read of an immutable tuple: safe when threads share it
    if last[0] is lo and last[1] is hi:  # the same cell as the last call: the common case
        data = last[2]
        key = None
    else:
        # fmpq hashes through fractions.Fraction (a modular inverse): key on the integers
        key = (lo.p, lo.q, hi.p, hi.q)
        data = _SCALE_CACHE.get(key)
    if data is None:
        q = int(lo.q) * int((hi - lo).q) // _gcd(lo.q, (hi - lo).q)
        a, w = lo * q, (hi - lo) * q  # integers
        data = [fmpz(q), [fmpz(1)], fmpz_poly([int(a.p), int(w.p)])]
        if len(_SCALE_CACHE) >= 64:
            try:
                _SCALE_CACHE.pop(next(iter(_SCALE_CACHE)), None)
            except (StopIteration, RuntimeError):  # emptied or changed by another thread
                pass
        _SCALE_CACHE[key] = data
    if key is not None:
        _SCALE_LAST = (lo, hi, data)
    q, powers, line = data
    if len(powers) <= d:  # powers[i] = q^i
        # a longer list replaces the old one whole: a published list is never
        # mutated, so threads sharing the cache always read q^i at index i
        powers = list(powers)
        while len(powers) <= d:
            powers.append(powers[-1] * q)
        data[1] = powers
    return powers[d::-1], line


def _scaled_bernstein(f: fmpz_poly, lo: fmpq, hi: fmpq, d: int) -> list:
    """The coefficients of ``(1 + s)^d g(1 / (1 + s))`` for ``g(t)`` a positive
    multiple of ``f(lo + (hi - lo) t)`` whose factor depends only on
    ``(lo, hi, d)``: the Bernstein coefficients of degree ``d`` on [lo, hi],
    times binomials and that common factor (index ``j`` is Bernstein ``d - j``)."""
    return _descartes_coeffs(_local_scaled(f, lo, hi, d), d)


def _local_scaled(f: fmpz_poly, lo: fmpq, hi: fmpq, d: int) -> list:
    """The coefficients of ``g(t) = q^d f(lo + (hi - lo) t)`` (``q`` from
    :func:`_scale_data`), padded to ``d + 1``: one Taylor shift."""
    powers, line = _scale_data(lo, hi, d)
    # q^(d-i) c_i, in one C-level loop; then compose in FLINT
    scaled = fmpz_poly(list(map(operator.mul, f.coeffs(), powers)))
    g = scaled(line).coeffs()
    return g + [fmpz(0)] * (d + 1 - len(g))


def _descartes_coeffs(g: list, d: int) -> list:
    """The coefficients of ``(1 + s)^d g(1 / (1 + s))`` (``g`` padded to ``d + 1``)."""
    out = fmpz_poly(g[::-1])(ONE_PLUS_X).coeffs()
    return out + [fmpz(0)] * (d + 1 - len(out))


def _gcd(a, b) -> int:
    from math import gcd

    return gcd(int(a), int(b))


# --------------------------------------------------------------------------- root isolation


#: where :func:`isolate_real_roots` splits a wider interval first
_CUTS = (fmpq(-1), fmpq(0), fmpq(1))


def isolate_real_roots(f: fmpz_poly, lo, hi):
    """Isolate the real roots of a square-free ``f`` in the closed interval [lo, hi].

    Returns ``(rationals, intervals, g)``: the roots found to be rational (the
    end points and exact bisection points), sorted; the isolating intervals
    ``(a, b)`` of the other roots, sorted, each open interval holding exactly one
    root; and ``g``, ``f`` divided by the linear factors of those rational roots,
    so that ``g(a) * g(b) < 0`` for every interval.

    A root inside an isolating interval may itself be rational (1/3 below);
    only end points and exact bisection points are recognised as rational here.

    >>> isolate_real_roots(fmpz_poly([0, -1, 2]) * fmpz_poly([-1, 3]), 0, 1)  # roots 0, 1/3, 1/2
    ([0, 1/2], [(0, 1/2)], 3*x + (-1))
    """
    lo, hi = as_fmpq(lo), as_fmpq(hi)
    if f.is_zero():
        raise ValueError("the zero polynomial has no isolated roots")
    cuts = [c for c in _CUTS if lo < c < hi]
    if cuts:
        # bisect [lo, -1], [-1, 0], [0, 1], [1, hi] apart: their bisection points
        # are simple fractions (dyadic when the ends are), where one bisection of
        # a wide [lo, hi] makes every later point an awkward rational (5x slower
        # on the degree-270 polynomials of Nim 64's breakpoints)
        rationals, intervals = [], []
        for a, b in zip([lo, *cuts], [*cuts, hi]):
            r, i, _ = isolate_real_roots(f, a, b)
            rationals.extend(x for x in r if not rationals or x != rationals[-1])
            intervals.extend(i)
        work = f
        for r in rationals:
            work = work // linear_factor(r)
        return rationals, intervals, work
    rationals = []
    work = f
    for e in ((lo,) if lo == hi else (lo, hi)):
        if work.degree() >= 1 and work(e) == 0:
            rationals.append(e)
            work = work // linear_factor(e)
    intervals = []
    if lo < hi and work.degree() >= 1:
        found, intervals = descartes_bisection(work, lo, hi)
        for m in found:
            work = work // linear_factor(m)
        rationals.extend(found)
    rationals.sort()
    intervals.sort()
    return rationals, intervals, work


ONE_PLUS_2X = fmpz_poly([1, 2])


def descartes_bisection(f: fmpz_poly, lo: fmpq, hi: fmpq, skip=None) -> tuple[list, list]:
    """Descartes bisection of the open interval (lo, hi) for the
    square-free ``f`` (not 0 at lo and hi): the midpoints found to be roots,
    and the parts ``(a, b)`` holding one root each, in the order met (left to
    right).  ``skip(a, b)``, if given, drops a part and everything in it
    unseen (a caller that needs only the roots below some number).

    Each part is held by its Descartes polynomial ``P = (1 + s)^d g(1/(1 + s))``
    (``g`` the part mapped onto (0, 1); ``P``'s sign variations bound the
    roots in the part), and its halves' come from ``P`` itself: ``P(1 + 2s)``
    for the left half and the reversal of ``rev(P)(1 + 2s)`` for the right
    (``rev`` the reversal of the coefficients at the part's degree).  That is
    two Taylor shifts and one reversal a split, where shifting ``g`` to the
    halves and then to their Descartes polynomials took three shifts, two
    reversals and a halving.  The bisection, the counts and so the parts are
    those of bisecting ``g``: the polynomials are the same.

    >>> descartes_bisection(fmpz_poly([-1, 0, 4]) * fmpz_poly([-1, 3]), fmpq(0), fmpq(1))
    ([1/2], [(0, 1/2)])
    """
    found, intervals = [], []
    top = _descartes_poly(local_poly(f, lo, hi))
    # (P, its coefficients at the part's degree, the part's ends)
    stack = [(top, top.coeffs(), lo, hi)]
    while stack:
        P, cs, a, b = stack.pop()
        if skip is not None and skip(a, b):
            continue
        v = variations(cs)
        if v == 0:
            continue
        if v == 1:
            intervals.append((a, b))
            continue
        d = len(cs) - 1
        m = (a + b) / 2
        left = P(ONE_PLUS_2X)
        lcs = left.coeffs()
        lcs += [fmpz(0)] * (d + 1 - len(lcs))  # (zeros where a root ends the part)
        rcs = fmpz_poly(cs[::-1])(ONE_PLUS_2X).coeffs()
        rcs += [fmpz(0)] * (d + 1 - len(rcs))
        if lcs[0] == 0:  # P(1) = 2^d g(1/2) = 0: the midpoint is a root
            found.append(m)
            rcs = rcs[1:]  # (the right half's g divided by s: one degree less)
        rcs.reverse()
        stack.append((fmpz_poly(rcs), rcs, m, b))
        stack.append((left, lcs, a, m))
    return found, intervals


def count_real_roots(f: fmpz_poly, lo, hi) -> int:
    """Number of distinct real roots of ``f`` (non-zero) in the closed interval [lo, hi].

    >>> count_real_roots(fmpz_poly([-1, 0, 1]) ** 2, -1, 1)
    2
    """
    if f.degree() <= 0:
        return 0
    g = sqf_part(f)
    lo, hi = as_fmpq(lo), as_fmpq(hi)
    n = 0
    if lo < -1 or hi > 1:
        # where [lo, hi] holds every root beyond -1 (or 1), count those in
        # (0, 1) after x = -1/y (x = 1/y): bisecting [-B, -1] from a root bound
        # B took 2.7x as long (the minimal polynomials of nim 40's breakpoints)
        bound = root_bound(g)
        if lo <= -bound and hi > -1:
            n += _count_closed(_reversed(g, -1), fmpq(0), fmpq(1)) - (1 if g(-1) == 0 else 0)
            lo = fmpq(-1)
        if hi >= bound and lo < 1:
            n += _count_closed(_reversed(g, 1), fmpq(0), fmpq(1)) - (1 if g(1) == 0 else 0)
            hi = fmpq(1)
    return n + _count_closed(g, lo, hi)


def _count_closed(g: fmpz_poly, lo: fmpq, hi: fmpq) -> int:
    """Number of distinct real roots of the square-free ``g`` in [lo, hi]."""
    if g.degree() <= 0:
        return 0
    rationals, intervals, _ = isolate_real_roots(g, lo, hi)
    return len(rationals) + len(intervals)


def _reversed(g: fmpz_poly, s: int) -> fmpz_poly:
    """``y^d g(s / y)``, up to sign (``s`` = 1 or -1): its roots in (0, 1) are
    ``s / x`` for the roots ``x`` of ``g`` beyond ``s`` (x > 1, or x < -1)."""
    r = fmpz_poly(g.coeffs()[::-1])  # y^d g(1 / y)
    return r if s == 1 else r(MINUS_X)


def root_bound(f: fmpz_poly) -> fmpz:
    """An integer ``B`` with every complex root of ``f`` in ``|z| < B``: Fujiwara's
    bound ``2 max_i |a_{d-i} / a_d|^(1/i)``, rounded up to a power of two (far
    tighter than Cauchy's when coefficients are large; a power of two keeps the
    bisection points of ``[-B, B]`` dyadic).

    >>> root_bound(fmpz_poly([-6, 11, -6, 1]))    # roots 1, 2, 3
    16
    """
    c = f.coeffs()
    d = len(c) - 1
    if d < 1:
        return fmpz(1)
    lead = abs(c[-1])
    best = fmpz(0)
    for i in range(1, d + 1):
        a = abs(c[d - i])
        if a == 0:
            continue
        q = -((-a) // lead)  # ceil(a / lead)
        r = q.root(i) if i > 1 else q  # floor of the i-th root
        if r**i < q:
            r += 1
        best = max(best, r)
    return fmpz(1) << int(2 * best + 1 - 1).bit_length()


# --------------------------------------------------------------------------- packed form


def bytes_estimate(degree: int, bits: int) -> int:
    """About the bytes of an fmpz_poly of this degree and height (an integer
    above 62 bits takes an mpz of its own beside its slot)."""
    return (degree + 1) * (8 if bits <= 62 else 56 + 8 * ((bits + 63) // 64))


def pack(f: fmpz_poly) -> bytes:
    """``f`` as bytes: its coefficients in increasing powers, each in the same
    number ``w`` of bytes (two's complement, little-endian), after ``w`` in
    four bytes.  A FLINT integer of more than 62 bits keeps, beside its limbs,
    a pointer, an ``mpz`` and malloc's header: a long solve's formulas take
    three (nim 128) to four (nim 96) times their packed size
    (``benchmarks/memory_breakdown.py``).

    >>> f = fmpz_poly([3, -2**100, 0, 1])
    >>> unpack(pack(f)) == f, len(pack(f))
    (True, 56)
    """
    cs = list(map(int, f.coeffs()))
    w = max((c.bit_length() for c in cs), default=0) // 8 + 1
    return w.to_bytes(4, "little") + b"".join([c.to_bytes(w, "little", signed=True) for c in cs])


def packed_degree(data: bytes) -> int:
    """The degree of the polynomial :func:`pack` made ``data`` from (-1 for
    zero), without unpacking it: reports read every value's degree
    (``Solution.stats``), which unpacked 2.36 million formulas of a serial
    Chomp 7 x 7 king solve (its JSON report 117.7 s instead of 41.2 s).

    >>> packed_degree(pack(fmpz_poly([3, -2**100, 0, 1]))), packed_degree(pack(fmpz_poly([])))
    (3, -1)
    """
    return (len(data) - 4) // int.from_bytes(data[:4], "little") - 1


def unpack(data: bytes) -> fmpz_poly:
    """The polynomial :func:`pack` made ``data`` from.  Internal: only for
    bytes :func:`pack` made in this process (nothing here checks them; data
    from outside goes through the codec's checked parsers)."""
    w = int.from_bytes(data[:4], "little")
    get = int.from_bytes
    return fmpz_poly([get(data[i : i + w], "little", signed=True) for i in range(4, len(data), w)])
