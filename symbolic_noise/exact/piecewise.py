"""Continuous piecewise-rational functions of p with exact algebraic breakpoints.

A :class:`PiecewiseFunction` on [a, b] is a list of points
``a = x_0 < x_1 < ... < x_m = b`` (:class:`RealAlgebraic`), one
:class:`RationalFunction` per open piece ``(x_{i-1}, x_i)``, and optional
labels: one per piece and one per point (the solver uses them for optimal-move
sets).  Adjacent pieces with the same formula and label, whose common point has
that label too, are merged.

Values are exact: at a rational p by the formula of its piece, and at a
breakpoint as a :class:`PointValue` (a formula evaluated at an algebraic number),
which prints to any number of digits.

Examples
--------
>>> from symbolic_noise.exact.ratfunc import RationalFunction as R
>>> half = RealAlgebraic.rational("1/2")
>>> from symbolic_noise.exact.formula import parse_formula
>>> N2 = PiecewiseFunction.build([0, half, 1], [parse_formula("1 - p"), parse_formula("p")])
>>> N2(fmpq(1, 4)), N2(fmpq(3, 4)), N2(half).decimal(3)
(3/4, 3/4, '0.500')
>>> N2.to_sympy()
Piecewise((1 - p, (p >= 0) & (p <= 1/2)), (p, p <= 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

from flint import arb, arb_poly, ctx, fmpq

from . import polys
from .algebraic import RealAlgebraic, minimal_polynomials

from .ratfunc import RationalFunction
from .rounding import exact_decimal, significant
from .formula import exact_number


# --------------------------------------------------------------------------- point values


def _arb_bounds(a: arb) -> tuple[Fraction, Fraction]:
    """Exact rational bounds of an arb ball."""
    man, exp = a.mid().man_exp()
    rman, rexp = a.rad().mid().man_exp()
    mid = Fraction(int(man)) * Fraction(2) ** int(exp)
    rad = Fraction(int(rman)) * Fraction(2) ** int(rexp)
    return mid - rad, mid + rad


#: the guard bits :meth:`PointValue.enclosure` refines the point with first,
#: and the guard digits :meth:`PointValue.decimal` asks an enclosure for first
_FIRST_EXTRA, _DECIMAL_EXTRA = 16, 4


def _bits(digits: int, extra: int) -> int:
    """The bits of the width to which an enclosure of ``digits`` digits refines its point."""
    return int(digits * 3.33) + extra


class PointValue:
    """The exact value ``formula(x)`` of a rational function at an algebraic point.

    >>> from flint import fmpz_poly
    >>> x = RealAlgebraic.root(fmpz_poly([-1, 0, 2]), 0, 1)
    >>> from symbolic_noise.exact.formula import parse_formula
    >>> v = PointValue(parse_formula("p**2"), x)
    >>> v.decimal(5), v.exact_str()
    ('0.50000', '1/2')
    >>> PointValue(parse_formula("p/(1 + p)"), x).exact_str()
    'CRootOf(x**2 + 2*x - 1, 1)'
    """

    __slots__ = {
        "formula": "The rational function evaluated (a piece's formula).",
        "point": "The algebraic point it is evaluated at.",
        "_algebraic": None,
    }

    def __init__(self, formula: RationalFunction, point: RealAlgebraic, algebraic: RealAlgebraic | None = None):
        self.formula = formula
        self.point = point
        # the value's algebraic form when another process found it
        # (PiecewiseFunction.adopt_point_value): as_algebraic returns it
        self._algebraic = algebraic

    @property
    def rational_value(self) -> fmpq | None:
        """The value if it is known to be rational (the point is rational, or the
        formula is constant), else ``None``."""
        c = self.formula.constant_value()
        if c is not None:
            return c
        q = self.point.rational_value
        return None if q is None else self.formula(q)

    def enclosure(self, digits: int = 20) -> tuple[Fraction, Fraction]:
        """Exact bounds on the value, of width at most 10^-digits times max(1, |value|).

        The point is refined and the formula evaluated in ball arithmetic; near
        a pole or where large coefficients cancel (formulas of degree 300 with
        1000-bit coefficients occur at Nim 64) a ball can come back infinite or
        wide, and then both the point's precision and the working precision are
        raised until the enclosure is finite and narrow enough.  The formula has
        no pole at the point (it is a piece's formula there), so this ends.
        """
        q = self.rational_value
        if q is not None:
            f = polys.to_fraction(q)
            return f, f
        f = self.formula
        target = Fraction(1, 10**digits)
        height = max(f.num.height_bits(), f.den.height_bits()) + max(f.degree, 1).bit_length() + 8
        extra = _FIRST_EXTRA
        while True:
            bits = _bits(digits, extra)
            self.point.refine_newton(fmpq(1, 2**bits))
            lo, hi = self.point.interval
            with ctx.workprec(height + bits + 32):
                ball = arb((lo + hi) / 2, (hi - lo) / 2)
                value = arb_poly(f.num.coeffs())(ball) / arb_poly(f.den.coeffs())(ball)
            if value.is_finite():
                blo, bhi = _arb_bounds(value)
                if bhi - blo <= target * max(1, abs(blo)):
                    return blo, bhi
            extra *= 2

    @staticmethod
    def point_bits(digits: int) -> int:
        """The width ``2^-bits`` to which :meth:`decimal` with ``digits`` first
        refines the point (through :meth:`enclosure` with more digits)."""
        return _bits(digits + _DECIMAL_EXTRA, _FIRST_EXTRA)

    def decimal(self, digits: int = 15) -> str:
        """Correctly rounded, ``digits`` significant digits."""
        q = self.rational_value
        if q is not None:
            f = polys.to_fraction(q)
            return significant(f, f, digits)
        extra = _DECIMAL_EXTRA
        while True:
            lo, hi = self.enclosure(digits + extra)
            text = significant(lo, hi, digits)
            if text is not None:
                return text
            extra += 8

    def as_algebraic(self, max_degree: int = 40) -> RealAlgebraic | None:
        """The value as a :class:`RealAlgebraic` (its own minimal polynomial), or
        ``None`` when the point's minimal polynomial has degree > ``max_degree``.

        The value ``y = num(x)/den(x)`` is a root of the resultant
        ``Res_x(m(x), y den(x) - num(x))`` (``m`` the point's minimal polynomial),
        computed by exact interpolation in ``y``; the factor holding the value is
        picked by exact root isolation around a numeric enclosure.
        """
        q = self.rational_value
        if q is not None:
            return RealAlgebraic.rational(q)
        m = self.point.minpoly()
        d = m.degree()
        if d > max_degree:
            return None
        if self._algebraic is not None:
            return self._algebraic
        num, den = self.formula.num, self.formula.den
        # R(y) has degree <= d: interpolate it from d + 1 exact resultants, at
        # integers y where y den - num keeps its full degree (else the univariate
        # resultant is scaled differently)
        full = max(num.degree(), den.degree())
        ys, y = [], 0
        while len(ys) < d + 1:
            if (den * y - num).degree() == full:
                ys.append(y)
            y += 1
        values = [fmpq(m.resultant(den * y - num)) for y in ys]
        R = _interpolate(ys, values)
        if R.is_zero():  # pragma: no cover - den(x) != 0 at the point makes R non-zero
            return None
        digits = 20
        while True:
            lo, hi = self.enclosure(digits)
            flo = fmpq(lo.numerator, lo.denominator)
            fhi = fmpq(hi.numerator, hi.denominator)
            found = []
            for fac, _ in R.factor()[1]:
                rationals, intervals, g = polys.isolate_real_roots(polys.sqf_part(fac), flo, fhi)
                found += [(fac, r, r) for r in rationals] + [(fac, a, b) for a, b in intervals]
            if not found:  # pragma: no cover - would mean a wrong resultant
                raise AssertionError(f"{self} is not a root of its resultant")
            if len(found) == 1:
                fac, a, b = found[0]
                if a == b:
                    return RealAlgebraic.rational(a)
                return RealAlgebraic.root(fac, a, b)
            digits += 20

    def exact_str(self) -> str:
        """A SymPy-parsable exact expression of the value: a rational, a
        ``CRootOf`` of the value's minimal polynomial, or (for high degrees)
        ``Subs(formula, p, CRootOf(...))``: the formula at the point's
        ``CRootOf``, both written once (substituting the root's text for every
        power of p made 2.4 MB strings at Nim 64; ``.doit()`` substitutes)."""
        q = self.rational_value
        if q is not None:
            return str(polys.to_fraction(q))
        alg = self.as_algebraic()
        if alg is not None:
            return alg.exact_str()
        return f"Subs({self.formula.formula('p')}, p, {self.point.exact_str()})"

    def to_sympy(self):
        """The value as a SymPy expression: a ``Rational`` when it is rational, else
        the formula with the point's ``CRootOf`` substituted for p."""
        q = self.rational_value
        if q is not None:
            import sympy

            return sympy.Rational(int(q.p), int(q.q))
        return self.formula.to_sympy().subs("p", self.point.to_sympy())

    def __float__(self):
        lo, hi = self.enclosure(18)
        return float((lo + hi) / 2)

    def __str__(self):
        q = self.rational_value
        return str(q) if q is not None else self.decimal(15) + "..."

    def __repr__(self):
        return f"PointValue({self.formula!r}, {self.point!r})"


def _interpolate(xs, ys):
    """The primitive integer polynomial through the points (xs, ys) (Lagrange, exact)."""
    from flint import fmpq_poly

    total = fmpq_poly([])
    for i, (xi, yi) in enumerate(zip(xs, ys)):
        if yi == 0:
            continue
        term = fmpq_poly([yi])
        for j, xj in enumerate(xs):
            if j != i:
                term = term * fmpq_poly([-xj, 1]) / (xi - xj)
        total += term
    return polys.primitive(total.numer())


# --------------------------------------------------------------------------- pieces


@dataclass(frozen=True)
class Piece:
    """One open piece ``(lo, hi)`` with its formula and label."""

    lo: RealAlgebraic  #: the piece's left end
    hi: RealAlgebraic  #: the piece's right end
    formula: RationalFunction  #: the function's formula on the open piece
    label: Any = None  #: the piece's label (the optimal-move set in a solve), or None


class PiecewiseFunction:
    """A continuous piecewise-rational function on [a, b] (see the module docstring)."""

    __slots__ = {
        "points": "The points ``a = x_0 < ... < x_m = b``, as RealAlgebraic numbers.",
        "formulas": "One RationalFunction per open piece ``(x_{i-1}, x_i)``.",
        "labels": "One label per piece, or None.",
        "point_labels": "One label per point, or None.",
        "_at": None,
    }

    def __init__(self, points, formulas, labels=None, point_labels=None, *, merge: bool = True):
        points = tuple(RealAlgebraic.coerce(x) for x in points)
        formulas = tuple(formulas)
        if len(points) != len(formulas) + 1 or not formulas:
            raise ValueError("need one more point than formulas, and at least one formula")
        if labels is not None and len(labels) != len(formulas):
            raise ValueError("need one label per piece")
        if point_labels is not None and len(point_labels) != len(points):
            raise ValueError("need one label per point")
        self.points = points
        self.formulas = formulas
        self.labels = tuple(labels) if labels is not None else None
        self.point_labels = tuple(point_labels) if point_labels is not None else None
        self._at = None  # point index -> the value there in algebraic form (adopt_point_value)
        if merge:
            self._merge()

    @classmethod
    def build(cls, points, formulas, labels=None, point_labels=None) -> "PiecewiseFunction":
        """Like the constructor, but checks that the points increase strictly."""
        f = cls(points, formulas, labels, point_labels, merge=False)
        for a, b in zip(f.points, f.points[1:]):
            if not a < b:
                raise ValueError(f"points must increase strictly ({a} >= {b})")
        f._merge()
        return f

    @classmethod
    def constant(cls, c, a=0, b=1, label=None, point_label=None) -> "PiecewiseFunction":
        """The constant ``c`` on [a, b]."""
        return cls(
            [a, b],
            [RationalFunction.constant(c)],
            None if label is None else [label],
            None if point_label is None else [point_label, point_label],
        )

    def _merge(self) -> None:
        pts, fs = [self.points[0]], []
        labs = [] if self.labels is not None else None
        plabs = [self.point_labels[0]] if self.point_labels is not None else None
        for i, f in enumerate(self.formulas):
            lab = self.labels[i] if self.labels is not None else None
            if fs and fs[-1] == f and (labs is None or labs[-1] == lab) and (
                plabs is None or plabs[-1] == lab
            ):
                pts[-1] = self.points[i + 1]
                if plabs is not None:
                    plabs[-1] = self.point_labels[i + 1]
                continue
            fs.append(f)
            pts.append(self.points[i + 1])
            if labs is not None:
                labs.append(lab)
            if plabs is not None:
                plabs.append(self.point_labels[i + 1])
        self.points = tuple(pts)
        self.formulas = tuple(fs)
        self.labels = tuple(labs) if labs is not None else None
        self.point_labels = tuple(plabs) if plabs is not None else None

    # ------------------------------------------------------------------ structure

    @property
    def interval(self) -> tuple[RealAlgebraic, RealAlgebraic]:
        """The end points ``(a, b)``."""
        return self.points[0], self.points[-1]

    @property
    def breakpoints(self) -> tuple[RealAlgebraic, ...]:
        """The interior points x_1 .. x_{m-1}, as a tuple (so ``breakpoints[0]``
        is x_1; :meth:`breakpoint` counts from 1 as every output does)."""
        return self.points[1:-1]

    def breakpoint(self, j: int) -> RealAlgebraic:
        """The j-th breakpoint x_j, counted from 1 as in the reports (``b1``,
        ``b2``, ...) and ``--series bJ``; IndexError outside 1 .. m - 1.

        >>> from symbolic_noise import Nim, solve
        >>> f = solve(Nim(4), "binary").value()
        >>> f.breakpoint(1) == f.breakpoints[0], str(f.breakpoint(1))
        (True, '1/2')
        """
        if not 1 <= j <= len(self.points) - 2:
            raise IndexError(f"breakpoint b{j}: there are {len(self.points) - 2} breakpoints, b1 .. b{len(self.points) - 2}")
        return self.points[j]

    def pieces(self) -> list[Piece]:
        """Every open piece with its ends, formula and label, from left to right."""
        return [
            Piece(self.points[i], self.points[i + 1], f, self.labels[i] if self.labels is not None else None)
            for i, f in enumerate(self.formulas)
        ]

    def __len__(self) -> int:
        return len(self.formulas)

    def locate(self, x) -> tuple[str, int]:
        """``("point", j)`` if ``x`` is the point x_j, else ``("piece", i)`` for the
        open piece holding it.  ``x`` is exact (rational or RealAlgebraic)."""
        a, b = self.interval
        if x < a or x > b:
            raise ValueError(f"p = {x} is outside [{a}, {b}]")
        lo, hi = 0, len(self.points) - 1
        # binary search for the last point <= x
        while lo < hi:
            mid = (lo + hi + 1) // 2
            c = self.points[mid].compare(x)
            if c == 0:
                return "point", mid
            if c < 0:
                lo = mid
            else:
                hi = mid - 1
        if self.points[lo].compare(x) == 0:
            return "point", lo
        return "piece", lo

    def formula_at(self, x) -> RationalFunction:
        """The formula valid at ``x`` (at a breakpoint, the left piece's: both agree there)."""
        kind, i = self.locate(x)
        if kind == "point":
            i = max(0, i - 1)
        return self.formulas[i]

    def __call__(self, x):
        """Exact value: ``fmpq`` at a rational ``x``, :class:`PointValue` at an algebraic one."""
        if isinstance(x, RealAlgebraic):
            return PointValue(self.formula_at(x), x)
        x = exact_number(x)
        return self.formula_at(x)(x)

    def label_at(self, x):
        """The label at ``x``: the point's label at a breakpoint, else the piece's."""
        kind, i = self.locate(x if isinstance(x, RealAlgebraic) else exact_number(x))
        if kind == "point":
            return None if self.point_labels is None else self.point_labels[i]
        return None if self.labels is None else self.labels[i]

    def point_value(self, j: int) -> PointValue:
        """The exact value at the point x_j."""
        return PointValue(self.formulas[max(0, j - 1)], self.points[j], None if self._at is None else self._at.get(j))

    def adopt_point_value(self, j: int, value: RealAlgebraic) -> None:
        """Take ``value`` as the value at the point x_j in algebraic form, as
        :meth:`PointValue.as_algebraic` found it in another process
        (:func:`symbolic_noise.solvers.schedules.offload.point_values_on`).

        Checked here: ``value`` lies within an enclosure of the value of
        width 10^-20 (a rational exactly; an irrational one's isolating
        interval meets it); that its polynomial has the value as a root is
        the other process's resultant's word.  Raises ``ValueError`` when the
        check fails."""
        lo, hi = (fmpq(e.numerator, e.denominator) for e in PointValue(self.formulas[max(0, j - 1)], self.points[j]).enclosure(20))
        a, b = value.interval
        if b < lo or a > hi:
            raise ValueError(f"{value} is not the value at breakpoint {j}")
        if self._at is None:
            self._at = {}
        self._at[j] = value

    # ------------------------------------------------------------------ operations

    def restrict(self, lo, hi) -> "PiecewiseFunction":
        """The same function on the sub-interval [lo, hi] (exact end points).

        >>> from symbolic_noise.exact.ratfunc import RationalFunction as R
        >>> from symbolic_noise.exact.formula import parse_formula
        >>> f = PiecewiseFunction([0, RealAlgebraic.rational("1/2"), 1], [parse_formula("1 - p"), parse_formula("p")])
        >>> [str(x) for x in f.restrict("1/4", "1/3").points]
        ['1/4', '1/3']
        """
        lo, hi = RealAlgebraic.coerce(lo), RealAlgebraic.coerce(hi)
        a, b = self.interval
        if lo.compare(a) < 0 or hi.compare(b) > 0 or lo.compare(hi) >= 0:
            raise ValueError(f"[{lo}, {hi}] is not a sub-interval of [{a}, {b}]")
        points, formulas, labels, plabels = [lo], [], [], [self.label_at(lo)]
        for i, f in enumerate(self.formulas):
            left, right = self.points[i], self.points[i + 1]
            if right.compare(lo) <= 0 or left.compare(hi) >= 0:
                continue
            formulas.append(f)
            labels.append(self.labels[i] if self.labels is not None else None)
            if right.compare(hi) < 0:
                points.append(right)
                plabels.append(self.point_labels[i + 1] if self.point_labels is not None else None)
        points.append(hi)
        plabels.append(self.label_at(hi))
        return PiecewiseFunction(
            points,
            formulas,
            labels if self.labels is not None else None,
            plabels if self.point_labels is not None else None,
        )

    def map(self, op: Callable[[RationalFunction], RationalFunction]) -> "PiecewiseFunction":
        """Apply ``op`` to every formula (keeping points and labels)."""
        return PiecewiseFunction(self.points, [op(f) for f in self.formulas], self.labels, self.point_labels)

    @staticmethod
    def combine(
        funcs: Sequence["PiecewiseFunction"], op: Callable[[list[RationalFunction]], RationalFunction]
    ) -> "PiecewiseFunction":
        """``op`` applied piece by piece over the common refinement of ``funcs``
        (all on the same interval); labels are dropped."""
        if not funcs:
            raise ValueError("nothing to combine")
        a, b = funcs[0].interval
        for f in funcs[1:]:
            if f.interval[0] != a or f.interval[1] != b:
                raise ValueError("piecewise functions on different intervals")
        points = [a]
        idx = [0] * len(funcs)
        formulas = []
        while True:
            current = [f.formulas[i] for f, i in zip(funcs, idx)]
            ends = [f.points[i + 1] for f, i in zip(funcs, idx)]
            nxt = ends[0]
            for e in ends[1:]:
                if e < nxt:
                    nxt = e
            formulas.append(op(current))
            points.append(nxt)
            if nxt.compare(b) == 0:
                break
            for k, e in enumerate(ends):
                if e is nxt or e.compare(nxt) == 0:
                    idx[k] += 1
        return PiecewiseFunction(points, formulas)

    def __eq__(self, other):
        if not isinstance(other, PiecewiseFunction):
            return NotImplemented
        return (
            len(self.points) == len(other.points)
            and all(x == y for x, y in zip(self.points, other.points))
            and self.formulas == other.formulas
            and self.labels == other.labels
            and self.point_labels == other.point_labels
        )

    __hash__ = None

    # ------------------------------------------------------------------ renderings

    def to_sympy(self, symbol="p"):
        """A SymPy ``Piecewise`` on [a, b] (the first condition includes p >= a)."""
        import sympy

        p = sympy.Symbol(symbol) if isinstance(symbol, str) else symbol
        args = []
        for i, f in enumerate(self.formulas):
            hi = self.points[i + 1].to_sympy()
            cond = p <= hi
            if i == 0:
                cond = sympy.And(p >= self.points[0].to_sympy(), cond)
            args.append((f.to_sympy(p), cond))
        return sympy.Piecewise(*args)

    def latex(self, name: str = "N", digits: int = 6, label_text: Callable[[Any], str] | None = None) -> str:
        """LaTeX ``cases`` environment; irrational breakpoints are named rho_j and
        described after it.  ``label_text`` renders a piece's label (e.g. the
        optimal moves) after its condition."""
        minimal_polynomials(self.points)  # (all with one FactorHints: they share factors)
        names = {}
        notes = []
        for j, x in enumerate(self.points):
            if x.rational_value is not None:
                q = polys.to_fraction(x.rational_value)
                names[j] = str(q.numerator) if q.denominator == 1 else f"\\tfrac{{{q.numerator}}}{{{q.denominator}}}"
            else:
                k = len(notes) + 1
                names[j] = f"\\rho_{{{k}}}"
                m = x.minpoly()
                lo, hi = (exact_decimal(e) for e in x.short_interval())
                notes.append(
                    f"\\rho_{{{k}}} \\approx {x.decimal(digits)}"
                    f" \\text{{ is the root of }} {RationalFunction(m).latex()}"
                    f" \\text{{ in }} [{lo}, {hi}]"
                )
        rows = []
        for i, f in enumerate(self.formulas):
            rel = "\\le" if i == 0 else "<"
            row = f"{f.latex()} & {names[i]} {rel} p \\le {names[i + 1]}"
            if label_text is not None and self.labels is not None:
                row += f" \\quad \\text{{({label_text(self.labels[i])})}}"
            rows.append(row)
        body = " \\\\\n".join(rows)
        out = f"{name}(p) = \\begin{{cases}}\n{body}\n\\end{{cases}}"
        if notes:
            out += "\n\\quad\\text{where } " + ",\\ ".join(notes)
        return out

    # display: renderers live in display.py and plots.py

    def __repr__(self):
        from ..io.display import piecewise_repr

        return piecewise_repr(self)

    def _repr_html_(self) -> str:
        from ..io.display import piecewise_html

        return piecewise_html(self)

    def _repr_latex_(self) -> str | None:
        from ..io.display import piecewise_latex

        return piecewise_latex(self)

    def plot(self, **options):
        """:func:`symbolic_noise.io.plots.plot_function` of this function; returns the figure."""
        from ..io.plots import plot_function

        return plot_function(self, **options)
