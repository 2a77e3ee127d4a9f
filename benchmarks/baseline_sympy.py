"""A straightforward exact reference solver for 1-pile Nim through the binary
channel, in plain SymPy: on every cell between the followers' breakpoints it
forms every move's value with ``sympy.cancel``, finds the real roots of the
numerator of every pairwise difference with ``sympy.real_roots``, and picks the
best move on each resulting sub-interval by exact evaluation.

It is the baseline of ``nim_scaling.py --baseline`` (theory.md's method, done
the obvious way), not part of the package.
"""

from __future__ import annotations

import sympy as sp

p = sp.Symbol("p")


def _psi(k):
    n = k.bit_length()
    rows = []
    for s in range(k):
        q = [p ** bin(s ^ r).count("1") * (1 - p) ** (n - bin(s ^ r).count("1")) for r in range(k)]
        z = sp.Add(*q)
        rows.append([sp.cancel(x / z) for x in q])
    return rows


def _rational_inside(a, b):
    """A rational strictly between the real numbers a < b."""
    digits = 20
    while True:
        x = sp.Rational(str(sp.N((a + b) / 2, digits)))
        if sp.N(x - a, digits + 10) > 0 and sp.N(b - x, digits + 10) > 0:
            return x
        digits *= 2


def solve_baseline(K: int) -> dict:
    """``{k: [(lo, hi, formula, best_move), ...]}`` for k = 0..K."""
    N = {0: [(sp.Integer(0), sp.Integer(1), sp.Integer(0), None)]}
    for k in range(1, K + 1):
        psi = _psi(k)
        cuts = {sp.Integer(0), sp.Integer(1)}
        for u in range(k):
            for lo, hi, _, _ in N[u]:
                cuts.update((lo, hi))
        cuts = sorted(cuts, key=lambda c: sp.N(c, 50))
        pieces = []
        for a, b in zip(cuts, cuts[1:]):
            mid = _rational_inside(a, b)
            follower = []
            for u in range(k):
                follower.append(next(f for lo, hi, f, _ in N[u] if sp.N(lo - mid, 50) <= 0 <= sp.N(hi - mid, 50)))
            values = [sp.cancel(sp.Add(*[(1 - follower[u]) * psi[s][u] for u in range(k)])) for s in range(k)]
            points = {a, b}
            for i in range(k):
                for j in range(i + 1, k):
                    num = sp.numer(sp.together(values[i] - values[j]))
                    if num == 0:
                        continue
                    poly = sp.Poly(num, p)
                    if poly.degree() < 1:
                        continue
                    for r in sp.real_roots(poly):
                        if sp.N(r - a, 50) > 0 and sp.N(b - r, 50) > 0:
                            points.add(r)
            points = sorted(points, key=lambda c: sp.N(c, 50))
            for lo, hi in zip(points, points[1:]):
                t = _rational_inside(lo, hi)
                at = [v.subs(p, t) for v in values]
                best = max(range(k), key=lambda s: at[s])
                if pieces and pieces[-1][2] == values[best] and pieces[-1][3] == best:
                    pieces[-1] = (pieces[-1][0], hi, values[best], best)
                else:
                    pieces.append((lo, hi, values[best], best))
        N[k] = pieces
    return N
