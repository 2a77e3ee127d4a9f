"""Real algebraic numbers: the exact breakpoints of piecewise functions.

A :class:`RealAlgebraic` is a square-free integer polynomial together with an
isolating interval with rational end points, like SymPy's ``CRootOf``.

Invariants (checked on construction, kept by every refinement):

* rational form: ``lo == hi`` is the number and ``poly`` is ``den * x - num``;
* otherwise ``lo < hi``, ``poly(lo) * poly(hi) < 0`` and ``poly`` has exactly
  one root in the open interval (lo, hi).

Comparisons refine the intervals until they are certain, and equality of two
irrational numbers is decided exactly (their polynomials' gcd has a common root
in both intervals).  Refinement mutates the interval, never the number, so
instances are not hashable.

Examples
--------
>>> from flint import fmpz_poly
>>> r = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)      # 1/sqrt(2)
>>> r.decimal(30)
'0.707106781186547524400844362105'
>>> r > RealAlgebraic.rational("7/10"), r == RealAlgebraic.rational("7/10")
(True, False)
>>> r.to_sympy()
CRootOf(2*x**2 - 1, 1)
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import arb, arb_poly, ctx, fmpq, fmpz_poly

from . import polys
from .polys import sign
from .rounding import significant
from .formula import exact_number
from .minpolys import FactorHints, minimal_polynomials  # noqa: F401  (their home was here)
from .rootindex import roots_below


class RealAlgebraic:
    """A real algebraic number given by a square-free polynomial and an isolating interval."""

    __slots__ = ("_poly", "_lo", "_hi", "_slo", "_minpoly", "_index", "_exact", "_irrational")

    # ------------------------------------------------------------------ construction

    def __init__(self, poly: fmpz_poly, lo: fmpq, hi: fmpq, *, _trusted: bool = False, _slo: int | None = None):
        lo, hi = exact_number(lo), exact_number(hi)
        if not _trusted:
            if poly.degree() < 1:
                raise ValueError("a defining polynomial must have degree >= 1")
            if lo == hi:
                if poly(lo) != 0:
                    raise ValueError(f"{lo} is not a root of {poly}")
                poly = polys.linear_factor(lo)
            else:
                poly = polys.sqf_part(poly)
                if not lo < hi:
                    raise ValueError("an isolating interval needs lo < hi")
                if poly(lo) == 0 or poly(hi) == 0:
                    raise ValueError("isolating interval end points must not be roots")
                rationals, intervals, _ = polys.isolate_real_roots(poly, lo, hi)
                if len(rationals) + len(intervals) != 1:
                    raise ValueError(f"({lo}, {hi}) does not isolate one root of {poly}")
        self._poly = poly
        self._lo = lo
        self._hi = hi
        # (a ball decides the sign when it can: an exact value of a degree-300
        # polynomial at a long end point costs tens of microseconds; a trusted
        # caller may know it: our own process sent it with the interval)
        if lo == hi:
            self._slo = 0
        elif _trusted and _slo is not None:
            self._slo = _slo
        else:
            self._slo = polys.sign_at(poly, lo)
        self._minpoly = poly if poly.degree() == 1 else None
        self._index = None
        self._exact = None  # exact_str, kept: a report prints a breakpoint once per piece and move
        self._irrational = False  # proved irrational (decide_rational), kept for the same reason
        if poly.degree() == 1 and lo != hi:
            self._make_rational(fmpq(-poly.coeffs()[0], poly.coeffs()[1]))

    @classmethod
    def rational(cls, q) -> "RealAlgebraic":
        """The rational number ``q`` (anything :func:`symbolic_noise.exact.formula.exact_number` accepts)."""
        q = exact_number(q)
        return cls(polys.linear_factor(q), q, q, _trusted=True)

    @classmethod
    def root(cls, poly: fmpz_poly, lo, hi) -> "RealAlgebraic":
        """The unique root of ``poly`` in (lo, hi) (checked); ``poly`` need not be square-free."""
        return cls(poly, lo, hi)

    @classmethod
    def _from_isolation(cls, poly: fmpz_poly, lo: fmpq, hi: fmpq, slo: int | None = None) -> "RealAlgebraic":
        """Trusted constructor for intervals produced by :func:`polys.isolate_real_roots`
        (``slo``: the sign of ``poly`` at ``lo``, when known: :attr:`lower_sign`)."""
        return cls(poly, lo, hi, _trusted=True, _slo=slo)

    @classmethod
    def coerce(cls, x) -> "RealAlgebraic":
        """``x`` itself if it is a RealAlgebraic, else the exact rational ``x``."""
        return x if isinstance(x, RealAlgebraic) else cls.rational(x)

    @classmethod
    def from_sympy(cls, expr) -> "RealAlgebraic":
        """From a SymPy real number: a Rational, a real ``CRootOf``, or any real
        algebraic expression SymPy can give a minimal polynomial for.

        >>> import sympy
        >>> RealAlgebraic.from_sympy(sympy.sqrt(2) / 2).decimal(6)
        '0.707107'
        """
        import sympy

        if isinstance(expr, str):  # text is data: only an exact rational is read from it
            return cls.rational(exact_number(expr))
        if not isinstance(expr, sympy.Basic):
            return cls.rational(exact_number(expr))
        if expr.is_Rational:
            return cls.rational(fmpq(int(expr.p), int(expr.q)))
        x = sympy.Dummy("x")
        mp = sympy.Poly(sympy.minimal_polynomial(expr, x), x)
        f = polys.primitive(fmpz_poly([int(c) for c in reversed(mp.all_coeffs())]))
        rationals, intervals, g = polys.isolate_real_roots(f, -polys.root_bound(f), polys.root_bound(f))
        candidates = [cls.rational(r) for r in rationals] + [cls._from_isolation(g, a, b) for a, b in intervals]
        # the root within `slack` of a `digits`-digit approximation (whose error
        # is below 10^-digits relative): refine the candidates near it to
        # intervals narrower than `slack`; when two distinct roots are still
        # that near (closer than the approximation can tell), ask for more digits
        digits = 50
        while True:
            approx = sympy.Rational(sympy.N(expr, digits))
            target = fmpq(int(approx.p), int(approx.q))
            slack = fmpq(1, 10 ** (digits - 5)) * max(1, abs(target))
            near = [c for c in candidates if c._lo - slack <= target <= c._hi + slack]
            for c in near:
                c.refine_to(slack)
            near = [c for c in near if c._lo - slack <= target <= c._hi + slack]
            if len(near) == 1:
                return near[0]
            if not near:
                raise ValueError(f"{expr} is not a real algebraic number")
            digits *= 2

    # ------------------------------------------------------------------ basic access

    @property
    def poly(self) -> fmpz_poly:
        """The square-free defining polynomial (not necessarily irreducible)."""
        return self._poly

    @property
    def interval(self) -> tuple[fmpq, fmpq]:
        """The current isolating interval ``(lo, hi)`` (``lo == hi`` when rational)."""
        return self._lo, self._hi

    @property
    def lo(self) -> fmpq:
        """The isolating interval's lower end (the number itself when it is rational)."""
        return self._lo

    @property
    def hi(self) -> fmpq:
        """The isolating interval's upper end (the number itself when it is rational)."""
        return self._hi

    @property
    def is_rational(self) -> bool:
        """True when the number is known to be rational (see :meth:`minpoly` to decide)."""
        return self._lo == self._hi

    @property
    def knows_minpoly(self) -> bool:
        """True when the minimal polynomial is known (found, or rational)."""
        return self._minpoly is not None

    @property
    def lower_sign(self) -> int:
        """The sign of :attr:`poly` at the isolating interval's lower end (0
        for a rational number), as the refinements keep it."""
        return self._slo

    @property
    def rational_value(self) -> fmpq | None:
        """The number as ``fmpq`` if it is known to be rational, else ``None``."""
        return self._lo if self._lo == self._hi else None

    def _make_rational(self, q: fmpq) -> None:
        self._poly = polys.linear_factor(q)
        self._minpoly = self._poly
        self._lo = self._hi = q
        self._slo = 0

    # ------------------------------------------------------------------ refinement

    def refine(self) -> None:
        """Halve the isolating interval (exact sign at the midpoint)."""
        if self._lo == self._hi:
            return
        m = (self._lo + self._hi) / 2
        self._cut(m, sign(self._poly(m)))

    def _cut(self, m: fmpq, s: int) -> None:
        """Keep the half of the interval on which the polynomial changes sign,
        given its sign ``s`` at the interior point ``m``."""
        if s == 0:
            self._make_rational(m)
        elif s == self._slo:
            self._lo = m
        else:
            self._hi = m

    def refine_to(self, width) -> None:
        """Refine until ``hi - lo <= width``.

        Bisection, with the sign at each midpoint read from a ball evaluation
        when the ball excludes 0 (certain), and computed exactly otherwise;
        exact evaluation at long dyadic points of a degree-300 polynomial costs
        milliseconds, the ball a few microseconds.
        """
        width = exact_number(width)
        if self._hi - self._lo <= width:
            return
        coeffs = self._poly.coeffs()
        base = self._poly.height_bits() + 64
        prec, ball_poly = 0, None
        while self._hi - self._lo > width:
            m = (self._lo + self._hi) / 2
            need = base + 2 * max(int(m.q).bit_length(), int(abs(m.p)).bit_length())
            if need > prec:
                prec = 2 * need
                with ctx.workprec(prec):
                    ball_poly = arb_poly(coeffs)
            with ctx.workprec(prec):
                value = ball_poly(arb(m))
            self._cut(m, 1 if value > 0 else -1 if value < 0 else sign(self._poly(m)))

    def refine_newton(self, width) -> None:
        """Refine until ``hi - lo <= width``, as :meth:`refine_to` does, from
        intervals that Newton's method proposes (:func:`polys.newton_bracket`)
        and exact signs confirm (each end point is a cut of the interval
        whatever its sign); bisection where no proposal holds.  About 80 bits
        of a degree-270 breakpoint of nim 64 take two Newton steps and two
        signs instead of 80 bisections.  The interval reached differs from
        :meth:`refine_to`'s, so the solver, whose cache stores intervals,
        keeps bisecting; reports use this one.
        """
        width = exact_number(width)
        for _ in range(6):
            if self._hi - self._lo <= width:
                return
            got = polys.newton_bracket(self._poly, self._lo, self._hi, width)
            if got is None:  # (far from the root for Newton yet: bisect a while)
                self.refine_to((self._hi - self._lo) / 64)
                continue
            for t in got:
                if self._lo < t < self._hi:
                    self._cut(t, polys.sign_at(self._poly, t))
        self.refine_to(width)

    def decide_rational(self) -> bool:
        """Whether the number is rational (it then collapses to its rational
        form), decided without factoring: a rational root ``a/b`` of the
        defining polynomial has ``b`` dividing its leading coefficient ``c``,
        and two such numbers are at least ``1/c^2`` apart, so once the
        interval is narrower than that, the only candidate is the rational of
        least denominator in it (:func:`polys.simplest_rational`), and one exact
        value decides.  A report's rational points print as fractions.

        >>> r = RealAlgebraic.root(fmpz_poly([-1, 3]) * fmpz_poly([-1, 0, 2]), 0, fmpq(1, 2))
        >>> r.decide_rational(), r
        (True, RealAlgebraic.rational('1/3'))
        """
        if self._lo == self._hi:
            return True
        if self._minpoly is not None or self._irrational:
            return False
        lead = abs(int(self._poly.leading_coefficient()))
        self.refine_newton(fmpq(1, 2 ** (2 * lead.bit_length() + 8)))
        if self._lo == self._hi:
            return True
        c = polys.simplest_rational(self._lo, self._hi)
        q = fmpq(c.numerator, c.denominator)
        if c.denominator <= lead and self._poly(q) == 0:
            self._make_rational(q)
            return True
        self._irrational = True
        return False

    def _separate(self, q: fmpq) -> int:
        """Compare with a rational ``q`` exactly: -1, 0 or 1 as self <, ==, > q."""
        if self._lo == self._hi:
            return sign(self._lo - q)
        if q <= self._lo:
            return 1
        if q >= self._hi:
            return -1
        s = sign(self._poly(q))
        if s == 0:
            self._make_rational(q)
            return 0
        if s == self._slo:  # no root in (lo, q]: the root is above q
            self._lo = q
            return 1
        self._hi = q
        return -1

    # ------------------------------------------------------------------ exact questions

    def sign_of(self, f: fmpz_poly) -> int:
        """The exact sign of the polynomial ``f`` at this number.

        >>> from flint import fmpz_poly
        >>> r = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
        >>> r.sign_of(fmpz_poly([-1, 0, 2]) * 5), r.sign_of(fmpz_poly([-7, 10]))
        (0, 1)
        """
        if f.is_zero():
            return 0
        if self._lo == self._hi:
            return sign(f(self._lo))
        if f.degree() <= 0:
            return sign(f.coeffs()[0])
        g = f.gcd(self._poly)
        if g.degree() >= 1 and sign(g(self._lo)) != sign(g(self._hi)):
            return 0
        while True:
            s = polys.bernstein_sign(f, self._lo, self._hi)
            if s:
                return s
            self.refine()
            if self._lo == self._hi:
                return sign(f(self._lo))

    def compare(self, other) -> int:
        """-1, 0 or 1 as ``self`` is less than, equal to or greater than ``other``."""
        if not isinstance(other, RealAlgebraic):
            return self._separate(exact_number(other))
        if self is other:
            return 0
        if other._lo == other._hi:
            return self._separate(other._lo)
        if self._lo == self._hi:
            return -other._separate(self._lo)
        common = None  # gcd of the two polynomials if both numbers are its roots
        checked = False
        while True:
            if self._hi <= other._lo:
                return -1
            if other._hi <= self._lo:
                return 1
            if not checked:
                checked = True
                g = self._poly.gcd(other._poly)
                if (
                    g.degree() >= 1
                    and sign(g(self._lo)) != sign(g(self._hi))
                    and sign(g(other._lo)) != sign(g(other._hi))
                ):
                    common = g
            if common is not None:
                lo = min(self._lo, other._lo)
                hi = max(self._hi, other._hi)
                if polys.count_real_roots(common, lo, hi) == 1:
                    return 0
            self.refine()
            other.refine()
            if self._lo == self._hi or other._lo == other._hi:
                return self.compare(other)

    def __eq__(self, other):
        try:
            return self.compare(other) == 0
        except (TypeError, ValueError):
            return NotImplemented

    def __lt__(self, other):
        return self.compare(other) < 0

    def __le__(self, other):
        return self.compare(other) <= 0

    def __gt__(self, other):
        return self.compare(other) > 0

    def __ge__(self, other):
        return self.compare(other) >= 0

    __hash__ = None  # equal numbers may have different representations

    def minpoly(self, hints: "FactorHints | None" = None) -> fmpz_poly:
        """The minimal polynomial (primitive, positive leading coefficient).

        Factors the defining polynomial once; a rational number collapses to its
        rational form.  ``hints`` (shared by the points of one report, see
        :func:`minimal_polynomials`) divides out irreducible factors met before
        first, and learns the new ones: it changes the time, not the result.
        """
        if self._minpoly is None:
            found, rest = (None, self._poly) if hints is None else hints.strip(self._poly, self._lo, self._hi)
            if found is None:
                _, factors = rest.factor()
                factors = [polys.primitive(fac) for fac, _ in factors]
                if hints is not None:
                    hints.learn(factors)
                for fac in factors:
                    if sign(fac(self._lo)) != sign(fac(self._hi)):
                        found = fac
                        break
                else:  # pragma: no cover - the invariants make this impossible
                    raise AssertionError("no factor of the defining polynomial changes sign")
            self._settle(found)
        return self._minpoly

    def adopt_minpoly(self, m: fmpz_poly) -> None:
        """Take ``m`` as the minimal polynomial, as :meth:`minpoly` found it in
        another process (:func:`symbolic_noise.solvers.schedules.offload.minimal_polynomials_on`).

        Checked here: ``m`` is primitive with a positive leading coefficient,
        divides the defining polynomial exactly and changes sign on the
        isolating interval, so the number is its root; that ``m`` is
        irreducible is the other process's factorization's word.  Raises
        ``ValueError`` when a check fails.
        """
        if self._minpoly is not None:
            return
        if m.degree() < 1 or polys.primitive(m) != m or m.coeffs()[-1] < 0:
            raise ValueError(f"{m} is not a primitive polynomial with a positive leading coefficient")
        if divmod(self._poly, m)[1] != 0 or sign(m(self._lo)) == sign(m(self._hi)):
            raise ValueError(f"{m} is not the minimal polynomial of {self}")
        self._settle(m)

    def adopt_root_index(self, k: int) -> None:
        """Take ``k`` as :meth:`root_index`, as another process counted it
        (:func:`symbolic_noise.solvers.schedules.offload.minimal_polynomials_on`); that
        process's count is its word (counting again is what it saves), only
        its range is checked.  Needs the minimal polynomial known."""
        if self._minpoly is None:
            raise ValueError("the minimal polynomial must be known first")
        if not 0 <= k < max(1, self._minpoly.degree()):
            raise ValueError(f"{k} is not the index of a root of {self._minpoly}")
        if self._index is None:
            self._index = int(k)

    def narrow_to(self, lo, hi) -> None:
        """Take [lo, hi], inside the isolating interval, as the new one, as
        :meth:`refine_to` found it in another process.  Checked exactly: the
        defining polynomial has opposite non-zero signs at ``lo`` and ``hi``
        (so the one root of the old interval is in the new one); raises
        ``ValueError`` otherwise.  Nothing to do for a rational number.

        >>> r = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
        >>> r.narrow_to("7/10", "3/4"); r.interval
        (7/10, 3/4)
        """
        if self._lo == self._hi:
            return
        lo, hi = exact_number(lo), exact_number(hi)
        if not self._lo <= lo < hi <= self._hi:
            raise ValueError(f"[{lo}, {hi}] is not inside the isolating interval [{self._lo}, {self._hi}]")
        slo, shi = sign(self._poly(lo)), sign(self._poly(hi))
        if slo == 0 or shi == 0 or slo == shi:
            raise ValueError(f"the defining polynomial does not change sign on [{lo}, {hi}]")
        self._lo, self._hi, self._slo = lo, hi, slo

    def _settle(self, m: fmpz_poly) -> None:
        """``m`` (irreducible, with the number as its root in the interval) is
        the minimal polynomial: a rational number collapses to its rational
        form, else ``m`` becomes the defining polynomial."""
        self._minpoly = m
        if m.degree() == 1:
            c = m.coeffs()
            self._make_rational(fmpq(-c[0], c[1]))
        else:
            self._poly = m
            self._slo = sign(self._poly(self._lo))

    def root_index(self) -> int:
        """Index of this number among the real roots of its minimal polynomial, in
        increasing order (SymPy's ``CRootOf`` index)."""
        if self._index is None:
            m = self.minpoly()
            if m.degree() == 1:
                self._index = 0
            else:  # (the number is a root of m, its interval isolates it: self._poly is m)
                self._index = roots_below(m, self._lo, self._hi, self._slo)
        return self._index

    # ------------------------------------------------------------------ conversions

    def to_sympy(self):
        """SymPy ``Rational`` or ``CRootOf`` (SymPy may simplify it to radicals)."""
        import sympy

        m = self.minpoly()
        if self._lo == self._hi:
            return sympy.Rational(int(self._lo.p), int(self._lo.q))
        x = sympy.Symbol("x")
        expr = sympy.Poly(list(reversed([int(c) for c in m.coeffs()])), x).as_expr()
        return sympy.CRootOf(expr, self.root_index())

    def exact_str(self) -> str:
        """A SymPy-parsable exact form: ``'1/2'`` or ``'CRootOf(x**3 - x - 1, 0)'``."""
        if self._exact is None:
            m = self.minpoly()
            if self._lo == self._hi:
                self._exact = str(Fraction(int(self._lo.p), int(self._lo.q)))
            else:
                from .ratfunc import poly_str

                self._exact = f"CRootOf({poly_str(m, 'x')}, {self.root_index()})"
        return self._exact

    def enclosure(self, width) -> tuple[Fraction, Fraction]:
        """Exact bounds ``lo <= x <= hi`` with ``hi - lo <= width``."""
        self.refine_to(width)
        return polys.to_fraction(self._lo), polys.to_fraction(self._hi)

    def short_interval(self, digits: int = 4) -> tuple[Fraction, Fraction]:
        """A closed interval with decimal end points (at least ``digits`` decimals)
        holding this number and no other root of its minimal polynomial; for
        printing isolating intervals people can read.

        >>> from flint import fmpz_poly
        >>> RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1).short_interval()
        (Fraction(707, 1000), Fraction(442, 625))
        """
        m = self.minpoly()  # first: a rational number collapses to its exact form here
        if self._lo == self._hi:
            q = polys.to_fraction(self._lo)
            return q, q
        while True:
            scale = 10**digits
            lo, hi = self.enclosure(fmpq(1, 10 * scale))
            a = Fraction(int(lo * scale), scale) if lo >= 0 else -Fraction(int(-lo * scale) + 1, scale)
            b = a + Fraction(1, scale)
            while b < hi:
                b += Fraction(1, scale)
            fa, fb = fmpq(a.numerator, a.denominator), fmpq(b.numerator, b.denominator)
            if m(fa) != 0 and m(fb) != 0 and polys.count_real_roots(m, fa, fb) == 1:
                return a, b
            digits += 1

    def decimal(self, digits: int = 15) -> str:
        """Correctly rounded decimal string with ``digits`` significant digits."""
        if self._lo == self._hi:
            q = polys.to_fraction(self._lo)
            return significant(q, q, digits)
        extra = 3
        while True:
            text = significant(polys.to_fraction(self._lo), polys.to_fraction(self._hi), digits)
            if text is not None:
                return text
            lo, hi = self._lo, self._hi
            if lo > 0 or hi < 0:  # one sign: the width that decides follows from the size
                self.refine_newton(min(abs(lo), abs(hi)) / 10 ** (digits + extra))
                extra += 8  # (near a tie between two roundings: more digits)
            else:
                for _ in range(8):
                    self.refine()

    def to_mpmath(self, prec: int = 53):
        """An ``mpmath.mpf`` within ``2^-prec`` (relative to max(1, |x|)) of the number."""
        import mpmath

        lo, hi = self.enclosure(fmpq(1, 2 ** (prec + 4)))
        mid = (lo + hi) / 2
        with mpmath.workprec(prec + 10):
            return mpmath.mpf(mid.numerator) / mid.denominator

    def __float__(self) -> float:
        """The nearest double (ties to even, as ``float`` of a ``Fraction``),
        for plotting only; never use it to decide anything.  The enclosure is
        narrowed until both of its ends round to the same double: rounding is
        monotone, so the number rounds to it too (an irrational number is never
        a tie, so this ends)."""
        width = fmpq(1, 2**60)
        while True:
            lo, hi = self.enclosure(width)
            a, b = _round_to_double(lo), _round_to_double(hi)
            if a == b and math.copysign(1.0, a) == math.copysign(1.0, b):
                return a
            gap = hi - lo
            width = fmpq(gap.numerator, gap.denominator * 2**32)

    def __str__(self) -> str:
        if self._lo == self._hi:
            return str(self._lo)
        return self.decimal(15) + "..."

    def __repr__(self) -> str:
        if self._lo == self._hi:
            return f"RealAlgebraic.rational('{self._lo}')"
        return f"RealAlgebraic.root(fmpz_poly({[int(c) for c in self._poly.coeffs()]}), '{self._lo}', '{self._hi}')"

    def _repr_latex_(self) -> str:
        from ..io.display import algebraic_latex  # the renderer, in the rendering layer

        return algebraic_latex(self)


def _round_to_double(q: Fraction) -> float:
    """The double nearest to ``q``, ties to even (``int / int`` is correctly
    rounded in Python); beyond the largest double, an infinity."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def real_roots(f: fmpz_poly, lo, hi) -> list[RealAlgebraic]:
    """The distinct real roots of a non-zero polynomial ``f`` in [lo, hi], increasing.

    >>> from flint import fmpz_poly
    >>> [str(r) for r in real_roots(fmpz_poly([0, -1, 2]) * fmpz_poly([-1, 0, 2]), 0, 1)]
    ['0', '1/2', '0.707106781186548...']
    """
    if f.degree() < 1:
        return []
    rationals, intervals, g = polys.isolate_real_roots(polys.sqf_part(f), lo, hi)
    roots = [RealAlgebraic.rational(r) for r in rationals]
    roots += [RealAlgebraic._from_isolation(g, a, b) for a, b in intervals]
    return sorted_exact(roots)


def roots_between(f: fmpz_poly, x: RealAlgebraic, y: RealAlgebraic, lo, hi) -> tuple[list, bool]:
    """The roots of ``f`` strictly between ``x < y`` (increasing) and whether
    ``f(x) == 0``, for ``x`` and ``y`` in [lo, hi]: every root of ``f`` in
    [lo, hi] isolated (:func:`real_roots`) and compared exactly with ``x``
    and ``y`` (refining as needed).

    >>> from flint import fmpz_poly
    >>> f = fmpz_poly([-1, 0, 2]) * fmpz_poly([-1, 2])    # roots 1/2 and 0.7071...
    >>> inside, at_x = roots_between(f, RealAlgebraic.rational(fmpq(1, 2)), RealAlgebraic.rational(1), 0, 1)
    >>> [r.decimal(6) for r in inside], at_x
    (['0.707107'], True)
    """
    zero_at_x = False
    inside = []
    for r in real_roots(f, lo, hi):
        c = r.compare(x)
        if c == 0:
            zero_at_x = True
        elif c > 0 and r.compare(y) < 0:
            inside.append(r)
    return inside, zero_at_x


def single_root_between(f: fmpz_poly, x: RealAlgebraic, y: RealAlgebraic, lo: fmpq, hi: fmpq, s_lo: int):
    """The roots of ``f`` strictly between ``x < y`` and whether ``f(x) == 0``,
    ``(inside, at_x)`` as :func:`roots_between` gives them, when ``f`` is known to have exactly one root, a simple one, in
    the open (lo, hi) with ``f(lo)`` of sign ``s_lo`` and ``f(hi) != 0``
    (:func:`polys.bernstein_test` with ``v == 1``); ``x`` and ``y`` lie in
    [lo, hi].  ``None`` when the cheap tests do not decide (the root and
    ``x`` or ``y`` share an isolating interval, and ``x`` or ``y`` is not a
    root of ``f``).

    The root is below a rational ``t`` in (lo, hi) when ``f(t)`` has the
    sign of ``-s_lo``, above it when it has ``s_lo``; so an irrational ``x``
    is placed by the signs of ``f`` at the ends of its isolating interval,
    without refining anything.  When the root lies in that interval too, it
    is ``x`` exactly when the gcd of ``f`` and ``x``'s polynomial changes sign
    across it.  No root is isolated from scratch: an irrational root found
    inside gets (lo, hi) as its isolating interval with the square-free part
    of ``f`` (which has the one root there too), as :func:`real_roots` gives
    it when ``f`` is square-free.

    >>> from flint import fmpz_poly
    >>> f = fmpz_poly([-1, 0, 2])                  # 2 p^2 - 1, root 0.7071...
    >>> x, y = RealAlgebraic.rational(fmpq(1, 2)), RealAlgebraic.rational(fmpq(3, 4))
    >>> inside, at_x = single_root_between(f, x, y, fmpq(0), fmpq(1), -1)
    >>> [r.decimal(6) for r in inside], at_x
    (['0.707107'], False)
    >>> r = RealAlgebraic.root(f, fmpq(1, 2), 1)
    >>> single_root_between(f * 3, r, y, fmpq(1, 2), fmpq(1), -1)    # the root is x itself
    ([], True)
    """
    lo, hi = exact_number(lo), exact_number(hi)

    def where(t: fmpq) -> int:
        # 1, 0 or -1 as the root lies above, at or below the rational t
        if t <= lo:
            return 1
        if t >= hi:
            return -1
        s = polys.sign_at(f, t)
        return 0 if s == 0 else (1 if s == s_lo else -1)

    def side(z: RealAlgebraic):
        # (1, 0 or -1 as the root lies above, at or below z, or None; the root if found rational)
        if z.is_rational:
            w = where(z.lo)
            return w, (z.lo if w == 0 else None)
        a, b = z.lo, z.hi
        w = where(b)
        if w >= 0:
            return 1, (b if w == 0 else None)
        w = where(a)
        if w <= 0:
            return -1, (a if w == 0 else None)
        # the root and z both lie in (a, b), where z is the only root of z.poly
        g = f.gcd(z.poly)
        if g.degree() >= 1 and polys.sign_at(g, a) != polys.sign_at(g, b):
            return 0, None
        return None, None

    at, found = side(x)
    if at is None:
        return None
    if at <= 0:
        return [], at == 0
    above, found_y = side(y)
    if above is None:
        return None
    if above >= 0:
        return [], False
    found = found if found is not None else found_y
    root = RealAlgebraic.rational(found) if found is not None else RealAlgebraic._from_isolation(polys.sqf_part(f), lo, hi)
    return [root], False


def separate(x: RealAlgebraic, y: RealAlgebraic) -> None:
    """Refine ``x < y`` until their isolating intervals are disjoint."""
    while not x.hi < y.lo:
        if x.hi - x.lo >= y.hi - y.lo:
            x.refine()
        else:
            y.refine()


def simplest_dyadic(u: fmpq, v: fmpq) -> fmpq:
    """The dyadic rational with the smallest denominator in the open interval (u, v).

    >>> simplest_dyadic(fmpq(1, 3), fmpq(2, 5))
    3/8
    """
    if not u < v:
        raise ValueError("simplest_dyadic needs u < v")
    # Otherwise scale by 2^E with 2^-E < (v - u) / 4: the integers strictly inside
    # (u 2^E, v 2^E) form a run [a, b] of length >= 2, and the dyadic with the
    # smallest denominator is the one of that run with the most trailing zero bits
    # (unique: of two with as many, one more lies between them, with more).
    first = u.floor() + 1
    if first < v:  # an integer inside: the first one (as the plain search finds it)
        return fmpq(first)
    gap = v - u
    E = max(0, int(gap.q).bit_length() - int(gap.p).bit_length() + 3)
    a = int((u * 2**E).floor()) + 1
    b = int((v * 2**E).ceil()) - 1
    if a == b:
        t = a
    else:
        k = (a ^ b).bit_length()  # a and b agree above bit k - 1, where a has 0 and b has 1
        if a & ((1 << k) - 1) == 0:
            t = a
        else:
            t = ((b >> (k - 1)) << (k - 1))
    return fmpq(t, 2**E)


def rational_between(x: RealAlgebraic, y: RealAlgebraic, *, near_left: bool = False) -> fmpq:
    """A simple (dyadic) rational strictly between ``x < y``; with ``near_left``,
    in the first eighth of the gap between their isolating intervals.

    >>> from flint import fmpz_poly
    >>> rational_between(RealAlgebraic.rational("1/3"), RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1))
    3/8
    """
    separate(x, y)
    u, w = x.hi, y.lo
    return simplest_dyadic(u, u + (w - u) / 8 if near_left else w)


def dyadic_hull(x: RealAlgebraic, y: RealAlgebraic, a=None, b=None) -> tuple[fmpq, fmpq]:
    """Short dyadic ``lo <= x`` and ``hi >= y`` (within [a, b] if given), with a
    margin of about 1/16 of the gap between them: few bits keep the Bernstein
    transforms of large polynomials on [lo, hi] cheap (coefficients grow by the
    end points' bits times the degree).  An end that is a short rational is kept.

    >>> from flint import fmpz_poly
    >>> dyadic_hull(RealAlgebraic.rational("1/2"), RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1))
    (1/2, 3/4)
    """
    separate(x, y)
    width = y.lo - x.hi
    # the least m >= 4 with 16 / 2^m <= width: 2^m >= ceil(16 / width)
    ceil = (16 * int(width.q) + int(width.p) - 1) // int(width.p)
    m = max(4, (ceil - 1).bit_length())
    scale = 2**m
    lo = x.lo if x.lo == x.hi and x.lo.q <= scale else fmpq((x.lo * scale).floor(), scale)
    hi = y.hi if y.lo == y.hi and y.hi.q <= scale else fmpq((y.hi * scale).ceil(), scale)
    if a is not None:
        lo = max(exact_number(a), lo)
    if b is not None:
        hi = min(exact_number(b), hi)
    return lo, hi


def sorted_exact(numbers) -> list[RealAlgebraic]:
    """Sort algebraic numbers exactly (refining as needed)."""
    return sorted_exact_by(numbers, lambda x: x)


def sorted_exact_by(items, key) -> list:
    """Sort ``items`` by the algebraic number ``key(item)``, exactly.

    The items are sorted by the lower ends of their isolating intervals, then
    every neighbouring pair is compared exactly (at once when the intervals are
    disjoint, else by refinement).  A chain ``x1 <= x2 <= ...`` proved pair by
    pair is sorted (transitivity).  A pair found out of order has disjoint
    intervals afterwards, so the items are sorted again by lower ends, a few
    times, before falling back to exact comparisons throughout.  Equal numbers end up next to each
    other either way.

    >>> [str(x) for x in sorted_exact([RealAlgebraic.rational(1), RealAlgebraic.rational("1/3")])]
    ['1/3', '1']
    """
    import functools

    items = list(items)
    for _ in range(8):  # an exact comparison that fails leaves the pair's intervals disjoint
        out = sorted(items, key=lambda it: key(it).lo)
        if all([key(a).hi <= key(b).lo or key(a).compare(key(b)) <= 0 for a, b in zip(out, out[1:])]):
            return out
    return sorted(items, key=functools.cmp_to_key(lambda a, b: key(a).compare(key(b))))
