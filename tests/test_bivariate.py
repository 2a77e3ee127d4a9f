"""``bernstein_sign`` on the unit square against the Bernstein coefficients computed
the slow way (exact rationals, straight from the definition)."""

from fractions import Fraction
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.exact.bivariate import CTX, bernstein_sign


def slow_sign(coeffs: dict, strict: bool) -> int:
    """The decision from the tensor-Bernstein coefficients of degree (m, n):
    b_kl = sum_{i<=k, j<=l} C(k,i) C(l,j) / (C(m,i) C(n,j)) c_ij."""
    if not coeffs:
        return 0
    m = max(i for i, _ in coeffs)
    n = max(j for _, j in coeffs)
    signs = set()
    for k in range(m + 1):
        for l in range(n + 1):
            b = sum(Fraction(comb(k, i) * comb(l, j), comb(m, i) * comb(n, j)) * c
                    for (i, j), c in coeffs.items() if i <= k and j <= l)
            if b != 0 or strict:
                signs.add((b > 0) - (b < 0))
    if len(signs) != 1 or 0 in signs:
        return 0
    return signs.pop()


terms = st.dictionaries(st.tuples(st.integers(0, 4), st.integers(0, 4)), st.integers(-20, 20), max_size=8)


@settings(max_examples=300, deadline=None)
@given(terms, st.integers(0, 40), st.booleans())
def test_bernstein_sign_matches_the_definition(coeffs, shift, strict):
    coeffs = {e: c for e, c in coeffs.items() if c}
    # a positive constant added now and then: decided cases, not only mixed ones
    coeffs[(0, 0)] = coeffs.get((0, 0), 0) + shift
    coeffs = {e: c for e, c in coeffs.items() if c}
    f = CTX.from_dict(coeffs)
    assert bernstein_sign(f, strict=strict) == slow_sign(coeffs, strict)


def test_corners_decide_mixed_signs():
    p, q = CTX.gens()
    assert bernstein_sign(p - q) == 0
    assert bernstein_sign(p * q) == 0  # zero at three corners
    assert bernstein_sign(p * q, strict=False) == 1
    assert bernstein_sign(2 + 2 * p * q - p) == 1
