"""Exact rational functions of the error parameter p.

A :class:`RationalFunction` is ``num / den`` with integer polynomials in its
canonical form: ``gcd(num, den) = 1`` in Z[p] (so the content too is coprime)
and the lowest non-zero coefficient of ``den`` is positive (as the paper writes
``(1 - p + p^2)/(1 + p)``; the denominators of winning probabilities are then
usually positive on [0, 1]).  Equal functions therefore have equal fields, and
instances hash.

Three renderings: ``str`` gives a SymPy-parsable formula (``(p**2 - p + 1)/(p + 1)``),
:meth:`RationalFunction.text` the paper's style (``(1 - p + p^2)/(1 + p)``) and
:meth:`RationalFunction.latex` LaTeX.

Examples
--------
>>> from symbolic_noise.exact.formula import parse_formula
>>> N3 = parse_formula("(1 - p + p**2)/(1 + p)")
>>> N3(fmpq(1, 2))
1/2
>>> N3.text()
'(1 - p + p^2)/(1 + p)'
>>> str(1 - N3)
'(-p**2 + 2*p)/(p + 1)'
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq, fmpz, fmpz_poly

from . import polys
from ..errors import ExpressionError
from .polys import ONE, as_fmpq

# --------------------------------------------------------------------------- formatting


def _terms(f: fmpz_poly, ascending: bool):
    coeffs = [(i, c) for i, c in enumerate(f.coeffs()) if c != 0]
    return coeffs if ascending else coeffs[::-1]


def poly_str(f: fmpz_poly, var: str = "p") -> str:
    """A SymPy-parsable string of ``f`` in decreasing powers.

    >>> poly_str(fmpz_poly([1, -1, 2]))
    '2*p**2 - p + 1'
    """
    if f.is_zero():
        return "0"
    out = []
    for i, c in _terms(f, ascending=False):
        mag = abs(c)
        if i == 0:
            body = str(mag)
        else:
            power = var if i == 1 else f"{var}**{i}"
            body = power if mag == 1 else f"{mag}*{power}"
        if not out:
            out.append(("-" if c < 0 else "") + body)
        else:
            out.append((" - " if c < 0 else " + ") + body)
    return "".join(out)


def poly_text(f: fmpz_poly, var: str = "p", *, latex: bool = False) -> str:
    """``f`` in increasing powers, as the paper writes it: ``1 - p + p^2``."""
    if f.is_zero():
        return "0"
    out = []
    for i, c in _terms(f, ascending=True):
        mag = abs(c)
        if i == 0:
            body = str(mag)
        else:
            if i == 1:
                power = var
            else:
                power = f"{var}^{{{i}}}" if latex else f"{var}^{i}"
            body = power if mag == 1 else (f"{mag} {power}" if latex else f"{mag}{power}")
        if not out:
            out.append(("-" if c < 0 else "") + body)
        else:
            out.append((" - " if c < 0 else " + ") + body)
    return "".join(out)


# --------------------------------------------------------------------------- the type


class RationalFunction:
    """An element of Q(p) in canonical form ``num / den`` over Z[p].

    Immutable.  :meth:`pack` keeps the polynomials as bytes (a quarter to a
    third of what FLINT's integers take in a long solve: nim 96, nim 128);
    ``num`` and ``den`` are then unpacked on every access.
    """

    __slots__ = ("_num", "_den", "_hash")

    def __init__(self, num, den=ONE):
        num = num if isinstance(num, fmpz_poly) else fmpz_poly(num if isinstance(num, list) else [num])
        den = den if isinstance(den, fmpz_poly) else fmpz_poly(den if isinstance(den, list) else [den])
        if den.is_zero():
            raise ZeroDivisionError("rational function with zero denominator")
        if num.is_zero():
            num, den = num, ONE
        else:
            g = num.gcd(den)
            if not g.is_one():
                num, den = num // g, den // g
            if _lowest(den) < 0:
                num, den = -num, -den
        self._num = num
        self._den = den
        self._hash = None

    @classmethod
    def _canonical(cls, num: fmpz_poly, den: fmpz_poly) -> "RationalFunction":
        """Wrap polynomials already known to be in canonical form (no checks)."""
        r = object.__new__(cls)
        r._num, r._den, r._hash = num, den, None
        return r

    @property
    def num(self) -> fmpz_poly:
        """The numerator, an integer polynomial coprime to :attr:`den`."""
        n = self._num
        return n if type(n) is fmpz_poly else polys.unpack(n)

    @property
    def den(self) -> fmpz_poly:
        """The denominator, an integer polynomial whose lowest non-zero coefficient is positive."""
        d = self._den
        return d if type(d) is fmpz_poly else polys.unpack(d)

    @property
    def packed(self) -> bool:
        """Whether :meth:`pack` was called."""
        return type(self._num) is bytes

    def pack(self) -> None:
        """Keep the polynomials as bytes (:func:`polys.pack`) from now on: the
        same function, in a quarter to a third of the memory, with each ``num`` and
        ``den`` unpacked on access (about 0.25 ms for degree 500).  A solve
        packs its finished values past a memory budget
        (:data:`symbolic_noise.solvers.storage.packing.VALUES_BUDGET`)."""
        if type(self._num) is fmpz_poly:
            self._num, self._den = polys.pack(self._num), polys.pack(self._den)

    def bytes_estimate(self) -> int:
        """About how many bytes the polynomials take (packed: their bytes)."""
        if type(self._num) is bytes:
            return len(self._num) + len(self._den)
        n, d = self._num, self._den
        return polys.bytes_estimate(n.degree(), n.height_bits()) + polys.bytes_estimate(d.degree(), d.height_bits())

    @classmethod
    def constant(cls, q) -> "RationalFunction":
        """The constant function ``q`` (an exact rational)."""
        q = as_fmpq(q)
        return cls(fmpz_poly([q.p]), fmpz_poly([q.q]))

    @classmethod
    def identity(cls) -> "RationalFunction":
        """The function ``p``."""
        return cls._canonical(polys.X, ONE)

    @classmethod
    def coerce(cls, x) -> "RationalFunction":
        """``x`` if it already is one, a constant for exact numbers, else a
        SymPy expression converted (text: :func:`symbolic_noise.exact.formula.rational_function`)."""
        if isinstance(x, RationalFunction):
            return x
        if isinstance(x, (int, fmpz, fmpq)):
            return cls.constant(x)
        return cls.from_expr(x)

    @classmethod
    def from_expr(cls, expr, symbol: str = "p") -> "RationalFunction":
        """A rational function of ``p`` from a SymPy expression, converted exactly.

        The exact core reads no text: text is read as data, never evaluated, by
        :func:`symbolic_noise.exact.formula.parse_formula` (numbers, ``p``,
        ``+ - * / ** ^``, parentheses; capped in length, digits and degree).

        >>> import sympy
        >>> p = sympy.Symbol("p")
        >>> RationalFunction.from_expr(p / 2 + (1 - p) ** 2)
        parse_formula('(2*p**2 - 3*p + 2)/2')
        """
        if isinstance(expr, str):
            raise ExpressionError(
                f"{expr[:40]!r} is text; the exact core reads no text (read it with symbolic_noise.exact.formula.parse_formula)"
            )
        if isinstance(expr, (bool, float)):
            raise ExpressionError(f"{expr!r} is not exact; give an int, a Fraction, or text such as '1/3'")
        if isinstance(expr, (int, fmpz, fmpq, Fraction)):
            return cls.constant(expr)
        import sympy

        p = sympy.Symbol(symbol)
        if not isinstance(expr, sympy.Basic):
            # never sympify arbitrary objects: SymPy would parse their str()
            raise ExpressionError(f"cannot read a {type(expr).__name__} as a formula in {symbol}")
        if not isinstance(expr, sympy.Expr):
            raise ExpressionError(f"{expr!r} is not an expression in {symbol}")
        others = {s for s in expr.free_symbols if s.name != symbol}
        if others:
            names = ", ".join(sorted(s.name for s in others))
            raise ExpressionError(f"{expr} contains symbols other than {symbol}: {names}")
        for s in expr.free_symbols:  # the user's own Symbol('p', positive=True) etc.
            expr = expr.subs(s, p)
        num, den = sympy.fraction(sympy.together(expr))
        try:
            pn = sympy.Poly(num, p, domain="QQ")
            pd = sympy.Poly(den, p, domain="QQ")
        except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsNeeded) as exc:
            raise ExpressionError(f"{expr} is not a rational function of {symbol} with rational coefficients") from exc
        if pd.is_zero:
            raise ExpressionError(f"{expr} has a zero denominator")
        return cls(*_qq_poly_to_fmpz(pn, pd))

    # ------------------------------------------------------------------ arithmetic

    def __add__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        if self.den == o.den:
            return RationalFunction(self.num + o.num, self.den)
        return RationalFunction(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self):
        return RationalFunction._canonical(-self.num, self.den)

    def __sub__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        return self + (-o)

    def __rsub__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        return o + (-self)

    def __mul__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        return RationalFunction(self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def __truediv__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        if o.num.is_zero():
            raise ZeroDivisionError("division by the zero function")
        return RationalFunction(self.num * o.den, self.den * o.num)

    def __rtruediv__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        return o / self

    def __call__(self, x):
        """Exact value at a rational ``x`` (``ZeroDivisionError`` at a pole)."""
        x = as_fmpq(x)
        d = self.den(x)
        if d == 0:
            raise ZeroDivisionError(f"{self} has a pole at p = {x}")
        return self.num(x) / d

    def __eq__(self, other):
        o = _coerce_operand(other)
        if o is None:
            return NotImplemented
        return self.num == o.num and self.den == o.den

    def __hash__(self):
        if self._hash is None:
            self._hash = hash((tuple(int(c) for c in self.num.coeffs()), tuple(int(c) for c in self.den.coeffs())))
        return self._hash

    # ------------------------------------------------------------------ questions

    @property
    def is_zero(self) -> bool:
        """Whether this is the zero function."""
        return self.num.is_zero()

    @property
    def is_constant(self) -> bool:
        """Whether this does not depend on p."""
        return self.num.degree() <= 0 and self.den.degree() <= 0

    def constant_value(self) -> fmpq | None:
        """The value if the function is constant, else ``None``."""
        if not self.is_constant:
            return None
        return fmpq(0) if self.num.is_zero() else fmpq(self.num.coeffs()[0], self.den.coeffs()[0])

    @property
    def degree(self) -> int:
        """max(deg num, deg den) (read from the bytes when packed)."""
        n, d = self._num, self._den
        if type(n) is bytes:
            return max(polys.packed_degree(n), polys.packed_degree(d), 0)
        return max(n.degree(), d.degree(), 0)

    # ------------------------------------------------------------------ renderings

    def to_sympy(self, symbol="p"):
        """The SymPy expression ``num/den`` in the symbol ``p`` (or the one given)."""
        import sympy

        p = sympy.Symbol(symbol) if isinstance(symbol, str) else symbol
        num = sympy.Poly(list(reversed([int(c) for c in self.num.coeffs()])) or [0], p).as_expr()
        den = sympy.Poly(list(reversed([int(c) for c in self.den.coeffs()])), p).as_expr()
        return num / den

    def __str__(self) -> str:
        return self.formula("p")

    def formula(self, var: str = "p") -> str:
        """SymPy-parsable string, the variable named ``var`` (it may be any expression)."""
        return self._fraction(poly_str(self.num, var), poly_str(self.den, var))

    def text(self) -> str:
        """The paper's style: increasing powers, ``^`` for powers."""
        return self._fraction(poly_text(self.num), poly_text(self.den))

    def _fraction(self, num: str, den: str) -> str:
        """``num/den`` with the parentheses a sum needs (just ``num`` if den is 1)."""
        if self.den.is_one():
            return num
        if len(_terms(self.num, True)) > 1:
            num = f"({num})"
        if self.den.degree() >= 1 or len(_terms(self.den, True)) > 1:
            den = f"({den})"
        return f"{num}/{den}"

    def latex(self) -> str:
        """LaTeX, increasing powers: ``\\frac{1 - p + p^{2}}{1 + p}``."""
        n, d = self.num, self.den
        num = poly_text(n, latex=True)
        if d.is_one():
            return num
        return f"\\frac{{{num}}}{{{poly_text(d, latex=True)}}}"

    def __repr__(self) -> str:
        return f"parse_formula('{self}')"


def _lowest(f: fmpz_poly):
    """The lowest non-zero coefficient of a non-zero polynomial."""
    for c in f.coeffs():
        if c != 0:
            return c
    raise ZeroDivisionError("the zero polynomial has no lowest coefficient")


def _coerce_operand(x) -> RationalFunction | None:
    if isinstance(x, RationalFunction):
        return x
    if isinstance(x, (int, fmpz, fmpq)):
        return RationalFunction.constant(x)
    return None


def _qq_poly_to_fmpz(num, den) -> tuple[fmpz_poly, fmpz_poly]:
    """Clear denominators of two SymPy QQ polynomials, keeping their quotient."""
    from math import lcm

    nc = [fmpq(int(c.numerator), int(c.denominator)) for c in reversed(num.all_coeffs())]
    dc = [fmpq(int(c.numerator), int(c.denominator)) for c in reversed(den.all_coeffs())]
    scale = lcm(*(int(c.q) for c in nc + dc))
    return (
        fmpz_poly([int((c * scale).p) for c in nc]),
        fmpz_poly([int((c * scale).p) for c in dc]),
    )
