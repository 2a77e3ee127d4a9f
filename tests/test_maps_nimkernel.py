"""The distance-class kernel of binary Nim against exact values and the general kernel.

Every bound is compared with exact rationals (the exact pointwise engine's
values), as an exact comparison of the float (a dyadic rational) with them.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.games.channels import get_channel
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.solvers.maps.floatkernel import enclose_compiled
from symbolic_noise.solvers.maps.nimkernel import enclose_block, enclose_heap, enclose_heaps, nim_heap, root_boxes
from symbolic_noise.solvers.maps.structure import Layout
from symbolic_noise.solvers.onepoint.fastpoint import point_solve

Q = fmpq


def _le(x: float, q) -> bool:
    """x <= q exactly (x a float, q a rational)."""
    if not np.isfinite(x):
        return x < 0
    return Fraction(float(x)) <= Fraction(int(q.p), int(q.q))


def _ge(x: float, q) -> bool:
    if not np.isfinite(x):
        return x > 0
    return Fraction(float(x)) >= Fraction(int(q.p), int(q.q))


def _inside(lo, hi, q) -> bool:
    return _le(lo, q) and _ge(hi, q)


def _boxes_at(c, widths=(2**-6, 2**-20, 2**-40)):
    out = [(c, c)]
    for w in widths:
        w = Q(Fraction(w).numerator, Fraction(w).denominator)
        if c > 0:
            out.append((max(c - w, Q(0)), c))
        if c < 1:
            out.append((c, min(c + w, Q(1))))
    return out


BOXES = ([b for c in (Q(0), Q(1, 2), Q(1)) for b in _boxes_at(c)]
         + [(Q(1, 4), Q(1, 4) + Q(1, 2**10)), (Q(7, 10), Q(71, 100)), (Q(3, 10), Q(7, 10)), (Q(0), Q(1))])


def _points(a, b, rng):
    pts = {a, b, (a + b) / 2}
    if a < b:
        pts.add(a + (b - a) * Q(rng.randrange(1, 1000), 1000))
    return sorted(pts)


def _check_heaps(k, boxes, misere, rng):
    """Every heap's N, and the start's moves, values, midpoint values, slopes
    and candidates, against exact values at rational points of each box."""
    blk, lo, hi = enclose_heaps(k, boxes, misere)
    for i, (a, b) in enumerate(boxes):
        pts = _points(a, b, rng)
        answers = {p: point_solve(Nim(k), "binary", p, misere=misere, all_positions=True) for p in pts}
        for p, ans in answers.items():
            for j in range(k + 1):
                assert _inside(lo[i, j], hi[i, j], ans[j].value), (k, a, b, p, j)
            assert _inside(blk.vlo[i], blk.vhi[i], ans[k].value)
            for s, v in ans[k].move_values.items():
                assert _inside(blk.mlo[i, s], blk.mhi[i, s], v), (k, a, b, p, s)
            assert all(blk.cands[i, s] for s in ans[k].optimal), (k, a, b, p)
        mid = answers[(a + b) / 2][k].move_values
        for s, v in mid.items():
            assert _inside(blk.mid_lo[i, s], blk.mid_hi[i, s], v)
        if a < b:  # a difference quotient lies in the derivative's hull (Lebourg)
            va, vb = answers[a][k].move_values, answers[b][k].move_values
            for s in range(k):
                slope = (vb[s] - va[s]) / (b - a)
                assert _inside(blk.dlo[i, s], blk.dhi[i, s], slope), (k, a, b, s)


@pytest.mark.parametrize("misere", [False, True])
def test_every_heap_up_to_40_holds_the_exact_values(misere):
    rng = random.Random(40)
    _check_heaps(40, BOXES, misere, rng)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33])
def test_the_start_of_each_heap_holds_the_exact_values(k):
    _check_heaps(k, BOXES, False, random.Random(k))


def test_point_boxes_are_tight_at_the_limits_of_the_channel():
    """At p = 0 the game is classical; at p = 1 the received move is spread
    over the farthest legal codes (theory.md 3.1); the erratum of k = 4."""
    blk = enclose_heap(4, [(Q(1), Q(1)), (Q(0), Q(0))])
    assert np.all(blk.mhi - blk.mlo < 1e-14)
    assert blk.cands[0].tolist() == [True, False, False, True]  # moves 0 and 3 tie at p = 1 (N = 1)
    assert _inside(blk.vlo[0], blk.vhi[0], Q(1))
    assert blk.cands[1].tolist() == [True, False, False, False]  # take the pile


@pytest.mark.parametrize("k", [6, 17, 40])
def test_as_narrow_as_the_general_kernel_and_both_hold_the_truth(k):
    rng = random.Random(k)
    boxes = [bx for bx in BOXES if bx[0] < bx[1]]
    boxes += [(a, a + Q(1, 2**12)) for a in (Q(rng.randrange(4000), 4096) for _ in range(8))]
    new = enclose_heap(k, boxes)
    old = enclose_compiled(Layout(Nim(k), get_channel("binary"), k), boxes)
    for i, (a, b) in enumerate(boxes):
        ans = point_solve(Nim(k), "binary", (a + b) / 2)
        for s, v in ans.move_values.items():
            assert _inside(new.mlo[i, s], new.mhi[i, s], v) and _inside(old.mlo[i, s], old.mhi[i, s], v)
    finite = np.isfinite(old.dhi - old.dlo) & (old.mhi - old.mlo > 0)
    ratio = (new.mhi - new.mlo)[finite] / (old.mhi - old.mlo)[finite]
    assert np.median(ratio) <= 1.0 + 1e-9
    dfin = np.isfinite(old.dhi - old.dlo) & (old.dhi - old.dlo > 0)
    assert np.median((new.dhi - new.dlo)[dfin] / (old.dhi - old.dlo)[dfin]) <= 1.0


@settings(max_examples=40, deadline=None)
@given(k=st.integers(1, 24), num=st.integers(0, 2**20), e=st.integers(2, 48), misere=st.booleans(),
       seed=st.integers(0, 10**6))
def test_random_boxes_hold_the_exact_values(k, num, e, misere, seed):
    a = Q(num, 2**20)
    b = min(a + Q(1, 2**e), Q(1))
    rng = random.Random(seed)
    blk, lo, hi = enclose_heaps(k, [(a, b)], misere)
    for p in _points(a, b, rng):
        ans = point_solve(Nim(k), "binary", p, misere=misere, all_positions=True)
        assert all(_inside(lo[0, j], hi[0, j], ans[j].value) for j in range(k + 1))
        assert all(_inside(blk.mlo[0, s], blk.mhi[0, s], v) for s, v in ans[k].move_values.items())
        assert all(blk.cands[0, s] for s in ans[k].optimal)


def test_the_dispatch_picks_the_kernel_for_binary_nim_only():
    lay = Layout(Nim(6), get_channel("binary"), 6)
    assert nim_heap(lay) == 6
    assert nim_heap(Layout(Nim(6), get_channel("binary"), 4)) == 4
    assert nim_heap(Layout(Nim(4), get_channel("uniform"), 4)) is None
    assert nim_heap(Layout(Chomp(2, 3), get_channel("king"), (3, 3))) is None
    boxes = [(Q(1, 3), Q(1, 3) + Q(1, 2**16))]
    got = enclose_block(lay, boxes)
    want = enclose_heap(6, boxes)
    assert np.array_equal(got.mlo, want.mlo) and np.array_equal(got.cands, want.cands)
    rb = root_boxes(lay, boxes)[0]
    assert rb.candidates == [int(j) for j in np.flatnonzero(want.cands[0])]
    chomp = Layout(Chomp(2, 3), get_channel("king"), (3, 3))
    assert np.array_equal(enclose_block(chomp, boxes).mlo, enclose_compiled(chomp, boxes).mlo)


def test_bad_boxes_are_refused():
    with pytest.raises(ValueError):
        enclose_heap(3, [(Q(1, 2), Q(1, 3))])
    with pytest.raises(ValueError):
        enclose_heap(0, [(Q(0), Q(1))])


@settings(max_examples=60, deadline=None)
@given(num=st.integers(0, 2**12), e=st.integers(0, 30), n=st.integers(1, 10))
def test_the_weight_tables_hold_each_weight_and_slope(num, e, n):
    """``p^d (1-p)^(m-d)`` and its derivative over the box (at its ends, at
    interior points and at d/m, where the weight is largest) and at the
    midpoint."""
    from symbolic_noise.solvers.maps.nimkernel import _box_data

    a = Q(num, 2**12)
    b = min(a + Q(1, 2**e), Q(1))
    W, dW, M, P = _box_data([(a, b)], n)
    mid = (a + b) / 2
    assert _inside(P[0, 0], P[0, 1], a - mid) and _inside(P[0, 0], P[0, 1], b - mid)
    for m in range(n + 1):
        pts = [a, b, mid, a + (b - a) / 3] + [Q(d, m) for d in range(m + 1) if m and a <= Q(d, m) <= b]
        for d in range(m + 1):
            for p in pts:
                assert _inside(W[0, m, d, 0], W[0, m, d, 1], p**d * (1 - p) ** (m - d)), (m, d, p)
                slope = (d * p ** (d - 1) * (1 - p) ** (m - d) if d else Q(0)) - (
                    (m - d) * p**d * (1 - p) ** (m - d - 1) if m > d else Q(0))
                assert _inside(dW[0, m, d, 0], dW[0, m, d, 1], slope), (m, d, p)
            assert _inside(M[0, m, d, 0], M[0, m, d, 1], mid**d * (1 - mid) ** (m - d))
