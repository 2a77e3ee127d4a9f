"""The CRootOf index of a real algebraic number (exact.rootindex) against
SymPy's CRootOf ordering and against counting every root below the
isolating interval (polys.count_real_roots)."""

import sympy
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.exact import polys
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.exact.rootindex import roots_below

X = sympy.Symbol("x")


def _sympy_poly(f: fmpz_poly):
    return sympy.Poly([int(c) for c in reversed(f.coeffs())], X)


def _check_every_root(f: fmpz_poly) -> int:
    """Every real root of ``f`` (from our isolation of ``f``, not of its
    factors) against SymPy: its minimal polynomial is the irreducible factor
    of ``f`` changing sign on the interval and its index is the number of
    that factor's real roots below it, by SymPy's exact comparisons."""
    g = polys.sqf_part(f)
    bound = polys.root_bound(g)
    rationals, intervals, rest = polys.isolate_real_roots(g, -bound, bound)
    factors = [fac for fac, _ in sympy.factor_list(_sympy_poly(g))[1]]
    checked = 0
    for a, b in intervals:
        x = RealAlgebraic.root(rest, a, b)
        sa, sb = sympy.Rational(int(a.p), int(a.q)), sympy.Rational(int(b.p), int(b.q))
        (fac,) = [h for h in factors if h.degree() >= 1 and sympy.sign(h.eval(sa)) * sympy.sign(h.eval(sb)) < 0]
        if fac.degree() == 1:
            assert x.decide_rational()
            continue
        expected = sum(1 for j in range(sympy.Poly(fac).count_roots()) if sympy.CRootOf(fac.as_expr(), j) < sa)
        mine = fmpz_poly([int(c) for c in reversed(fac.all_coeffs())])
        assert x.minpoly() == polys.primitive(mine)
        assert x.root_index() == expected
        assert x.to_sympy() == sympy.CRootOf(fac.as_expr(), expected)
        checked += 1
    return checked


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-6, 6), min_size=3, max_size=7),
    st.lists(st.integers(-4, 4), min_size=2, max_size=4),
)
def test_index_and_minimal_polynomial_match_sympy(a, b):
    f, g = fmpz_poly(a), fmpz_poly(b)
    if f.degree() < 1 or g.degree() < 1:
        return
    _check_every_root(f * g)


def test_roots_near_zero_and_beyond_one():
    # roots clustered on both sides of 0, below -1 and above 1 (the fallback),
    # and a product whose factors interleave their roots
    cases = [
        fmpz_poly([-1, 0, 0, 0, 0, 10**6]) * fmpz_poly([1, 0, -3, 0, 1]),  # x^5 = 1e-6, x^4 - 3x^2 + 1
        fmpz_poly([-7, 0, 1]) * fmpz_poly([-2, 0, 0, 1]),  # +-sqrt(7), cbrt(2)
        fmpz_poly([1, -8, 0, 0, 0, 0, 0, 1]) * fmpz_poly([-1, 3, 0, -1]),
    ]
    assert sum(_check_every_root(f) for f in cases) >= 9


def test_roots_below_counts_as_the_whole_line_does():
    """On the breakpoints of nim 14 (minimal polynomials of degree up to
    about 40), against counting from a root bound up to the interval."""
    from symbolic_noise import Nim, solve

    f = solve(Nim(14), "binary").value()
    seen = 0
    for x in f.points:
        if x.is_rational or x.minpoly().degree() < 2:
            continue
        m = x.poly
        lo, hi = x.interval
        expected = polys.count_real_roots(m, -polys.root_bound(m), lo)
        assert roots_below(m, lo, hi, x.lower_sign) == expected
        # and from a narrower interval (the count must not depend on it)
        x.refine_to(fmpq(1, 2**90))
        lo, hi = x.interval
        assert roots_below(m, lo, hi, x.lower_sign) == expected
        seen += 1
    assert seen >= 5


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-9, 9), min_size=2, max_size=12),
    st.sampled_from([(-1, 0), (0, 1), (-3, 5), (fmpq(1, 3), fmpq(7, 5))]),
)
def test_descartes_bisection_isolates_every_root(coeffs, ends):
    """Each part holds exactly one root and the parts with the roots found
    at midpoints are all the roots in (lo, hi), by SymPy's exact counts;
    skipping the parts above a cut keeps exactly the parts below it."""
    f = fmpz_poly(coeffs)
    lo, hi = (fmpq(e) for e in ends)
    if f.degree() < 1:
        return
    f = polys.sqf_part(f)
    if f(lo) == 0 or f(hi) == 0:
        return
    found, parts = polys.descartes_bisection(f, lo, hi)
    work = f
    for r in found:
        assert f(r) == 0
        work = work // polys.linear_factor(r)
    sp = _sympy_poly(work)
    q = lambda v: sympy.Rational(int(v.p), int(v.q))  # noqa: E731
    assert all(sp.count_roots(q(a), q(b)) == 1 for a, b in parts)
    assert len(parts) + len(found) == _sympy_poly(f).count_roots(q(lo), q(hi))
    cut = (lo + hi) / 3 + hi / 3
    kept = polys.descartes_bisection(f, lo, hi, skip=lambda a, b: a >= cut)[1]
    assert [p for p in kept if p[1] <= cut] == [p for p in parts if p[1] <= cut]
