"""Maps agree with the exact piecewise solver and with exact values at one p.

Every exact change of the start's optimal set (from ``solve``) must lie in
exactly one change interval of the map, with the same sets on either side and
at the point; every change interval must hold exactly one exact change; every
proved interval's set must be the exact optimal set at its ends and midpoint,
and its value enclosure must hold the exact value there.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

import symbolic_noise as sn
from symbolic_noise.errors import IntervalError
from symbolic_noise.games.channels import get_channel
from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.solvers.maps import build_map, simplest_between
from symbolic_noise.solvers.maps.enclose import enclose
from symbolic_noise.solvers.maps.series import side_series
from symbolic_noise.solvers.maps.structure import Layout
from symbolic_noise.solvers.onepoint.fastpoint import point_solve


def exact_changes(f):
    """(point, set on the left, set at the point, set on the right) for every
    point where the exact optimal set changes (the ends included; a side
    outside the interval is None)."""
    pts, labels, at = f.points, f.labels, f.point_labels
    out = []
    for j, x in enumerate(pts):
        left = labels[j - 1] if j > 0 else None
        right = labels[j] if j < len(pts) - 1 else None
        if any(s is not None and s != at[j] for s in (left, right)):
            out.append((x, left, at[j], right))
    return out


def agreement_problems(game, channel, m, misere=False):
    f = sn.solve(game, channel, misere=misere).value()
    problems = []
    changes = exact_changes(f)

    def holds(iv, x):
        return x.compare(iv.lo) >= 0 and x.compare(iv.hi) <= 0

    for x, left, at, right in changes:
        hits = [iv for iv in m.kinds("change") if holds(iv, x)]
        if len(hits) != 1:
            problems.append(f"the exact change at {x} lies in {len(hits)} change intervals")
            continue
        iv = hits[0]
        if iv.at != at or (iv.left is not None and iv.left != left) or (iv.right is not None and iv.right != right):
            problems.append(f"at {x}: exact {left} {at} {right}, map {iv.left} {iv.at} {iv.right}")
    for iv in m.kinds("change"):
        inside = [x for x, *_ in changes if holds(iv, x)]
        if len(inside) != 1:
            problems.append(f"{iv.claims()} holds {len(inside)} exact changes")
        if iv.width > m.width:
            problems.append(f"{iv.claims()} is wider than {m.width}")
        if iv.point is not None and not any(x.compare(iv.point) == 0 for x in inside):
            problems.append(f"{iv.claims()} names the wrong point")
    for iv in m.kinds("proved"):
        for p in (iv.lo, (iv.lo + iv.hi) / 2, iv.hi):
            if f.label_at(p) != iv.optimal:
                problems.append(f"{iv.claims()}, but the exact set at {p} is {f.label_at(p)}")
            if not iv.value[0] <= f(p) <= iv.value[1]:
                problems.append(f"N({p}) = {f(p)} is outside {iv.value}")
    ends = [iv for iv in m.intervals]
    if ends[0].lo != m.interval[0] or ends[-1].hi != m.interval[1]:
        problems.append("the map does not cover the interval")
    if any(a.hi != b.lo for a, b in zip(ends, ends[1:])):
        problems.append("consecutive intervals do not share their ends")
    return problems


CASES = [("nim", str(k), "binary", False) for k in (2, 3, 4, 5, 6, 7, 8, 9, 12, 16)] + [
    ("nim", "5", "binary", True),
    ("nim", "6", "binary", True),
    ("chomp", "2x2", "king", False),
    ("chomp", "2x3", "king", False),
    ("chomp", "3x3", "king", False),
    ("chomp", "3x3", "rook", False),
    ("chomp", "3x3", "all", False),
    ("chomp", "3x3", "chebyshev", False),
    ("chomp", "3x3", "king", True),
    ("chomp", "4x4", "king", False),
    ("chomp", "4x4", "all", False),
    ("nim", "5", "uniform", False),
    ("nim", "6", "binary-gray", False),
    ("nim", "5", "tremble", False),
    ("kayles", "6", "binary", False),
    ("kayles", "8", "binary", False),
    ("0.137", "8", "binary", False),
    ("subtraction:1,2", "7", "binary", False),
    ("subtraction:2,3", "9", "binary", False),
]


@pytest.mark.parametrize("name,arg,channel,misere", CASES)
def test_the_map_agrees_with_the_exact_solver(name, arg, channel, misere):
    game = game_from_spec(name, arg)
    m = build_map(game, channel, misere=misere, width="2^-40")
    assert m.complete, [iv.claims() for iv in m.kinds("undecided")]
    assert agreement_problems(game, channel, m, misere) == []


def test_nim_3_changes_at_one_half_with_every_move_tied():
    """theory.md 3.1: send 0 below 1/2, send 1 above, all three tie at 1/2."""
    m = build_map(Nim(3), "binary", width="2^-30")
    (half,) = [iv for iv in m.kinds("change") if iv.lo <= fmpq(1, 2) <= iv.hi]
    assert (half.left, half.at, half.right, half.point) == ({0}, {0, 1, 2}, {1}, fmpq(1, 2))
    assert [iv.optimal for iv in m.kinds("proved")] == [{0}, {1}]


def test_chomp_2x2_changes_at_one_third():
    """theory.md 3.2: N = max{p, (1 - p)/2}, all three moves tie at p = 1/3."""
    m = build_map(sn.Chomp(2, 2), "king", width="2^-30")
    (c,) = m.kinds("change")
    assert c.lo < fmpq(1, 3) < c.hi and c.at == {(1, 2), (2, 1), (2, 2)}
    assert c.point == fmpq(1, 3)  # the crossing's simplest rational, confirmed exactly
    assert c.left == {(1, 2), (2, 1)} and c.right == {(2, 2)}


def test_a_small_budget_leaves_undecided_intervals_and_claims_only_truths():
    game = game_from_spec("nim", "9")
    m = build_map(game, "binary", budget=12)
    assert not m.complete
    undecided = m.kinds("undecided")
    for problem in agreement_problems(game, "binary", m):
        # the only complaint allowed: an exact change the map left undecided
        assert "lies in 0 change intervals" in problem
        x = problem.split(" at ")[1].split(" lies")[0]
        assert any(iv.lo <= fmpq(x) <= iv.hi for iv in undecided) if "/" in x or x.isdigit() else True


def test_moves_tied_for_reasons_the_engine_cannot_prove_stay_undecided():
    """Subtraction {1, 3} from 8: both moves lead to positions of equal value
    (N_7 = N_5), so they tie for every p, but neither their rows nor a
    symmetry say so; the map must not guess a set."""
    game = game_from_spec("subtraction:1,3", "8")
    m = build_map(game, "binary", budget=300)
    assert not m.complete
    assert agreement_problems(game, "binary", m) == []
    exact = sn.solve(game, "binary").value()
    assert all(lab == frozenset({"8->7", "8->5"}) for lab in exact.labels)


def test_a_wrong_claim_is_caught_by_the_agreement_check():
    """The checker used above is not vacuous: a map that puts nim 3's change
    anywhere but at 1/2, or claims the wrong set, fails it."""
    m = build_map(Nim(3), "binary", width="2^-30")
    from dataclasses import replace

    moved = [replace(iv, lo=iv.lo - fmpq(1, 10), hi=iv.hi - fmpq(1, 10)) if iv.point == fmpq(1, 2) else iv
             for iv in m.intervals]
    wrong_set = [replace(iv, optimal=frozenset({2})) if iv.kind == "proved" else iv for iv in m.intervals]
    for intervals in (moved, wrong_set):
        forged = replace(m, intervals=intervals)
        assert agreement_problems(Nim(3), "binary", forged)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_the_map_holds_at_random_rational_p(k):
    p = fmpq(k, 10**6)
    for game, channel in ((Nim(7), "binary"), (sn.Chomp(3, 3), "king")):
        m = _cached_map(game, channel)
        exact = point_solve(game, channel, p)
        for iv in m.interval_at(p):
            if iv.kind == "proved":
                assert exact.optimal == iv.optimal
                assert iv.value[0] <= exact.value <= iv.value[1]
            elif iv.kind == "change":
                assert exact.optimal in (iv.left, iv.at, iv.right)
                assert iv.value[0] <= exact.value <= iv.value[1]


_MAPS: dict = {}


def _cached_map(game, channel):
    key = (game.key(), channel)
    if key not in _MAPS:
        _MAPS[key] = build_map(game, channel, width="2^-30")
    return _MAPS[key]


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 999), st.integers(1, 1000))
def test_box_enclosures_hold_the_exact_values(a, w):
    """Over a box, every sent move's ball holds its exact value at the box's
    ends and midpoint, and the derivative ball holds the slope of a chord."""
    lo = fmpq(a, 1000)
    hi = min(lo + fmpq(w, 10**6), fmpq(1))
    game = sn.Chomp(3, 3)
    lay = Layout(game, get_channel("rook"), game.start())
    rb = enclose(lay, lo, hi)
    exact = {p: point_solve(game, "rook", p) for p in (lo, (lo + hi) / 2, hi)}
    for p, ans in exact.items():
        assert rb.value.contains(ans.value)
        for i, name in enumerate(lay.names):
            assert rb.moves[i].contains(ans.move_values[name])
    if hi > lo:
        for i, name in enumerate(lay.names):
            if lay.names[i] in exact[lo].optimal or True:
                chord = (exact[hi].move_values[name] - exact[lo].move_values[name]) / (hi - lo)
                assert rb.ders[i].contains(chord)


@pytest.mark.parametrize("name,arg,channel", [("nim", "6", "binary"), ("chomp", "3x3", "all"), ("kayles", "6", "binary")])
def test_the_arb_reference_engine_agrees_too(name, arg, channel):
    game = game_from_spec(name, arg)
    m = build_map(game, channel, width="2^-30", engine="arb")
    assert m.complete and agreement_problems(game, channel, m) == []


_BLOCK_CASES = [(sn.Chomp(3, 3), "king", False), (sn.Nim(7), "binary", False), (sn.Nim(6), "binary", True)]


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 999), st.integers(1, 1000), st.sampled_from(["numpy", "compiled"]), st.sampled_from(range(3)))
def test_binary64_block_bounds_hold_the_exact_values(a, w, how, case):
    """Over each box of a block, the binary64 bounds (the numpy recursion and
    the compiled one over sparse rows) hold every sent move's exact value at
    the box's ends and midpoint and the slope of its chord."""
    from symbolic_noise.solvers.maps.floatblock import enclose_block
    from symbolic_noise.solvers.maps.floatkernel import enclose_compiled

    lo = fmpq(a, 1000)
    boxes = [(lo, min(lo + fmpq(w, 10**k), fmpq(1))) for k in (3, 5, 7)]
    boxes = [(x, y) for x, y in boxes if y > x] + [(lo, lo)]
    game, channel, misere = _BLOCK_CASES[case]
    lay = Layout(game, get_channel(channel), game.start())
    blk = (enclose_block if how == "numpy" else enclose_compiled)(lay, boxes, misere)
    for i, (x, y) in enumerate(boxes):
        ends = {p: point_solve(game, channel, p, misere=misere) for p in (x, (x + y) / 2, y)}
        if x == y:
            continue
        for p, ans in ends.items():
            assert _below(blk.vlo[i], ans.value) and _below(ans.value, blk.vhi[i])
            for j, name in enumerate(lay.names):
                assert _below(blk.mlo[i, j], ans.move_values[name]) and _below(ans.move_values[name], blk.mhi[i, j])
            if not ans.optimal <= {lay.names[j] for j in np.flatnonzero(blk.cands[i])}:
                raise AssertionError(f"an optimal move at {p} was pruned")
        for j, name in enumerate(lay.names):
            chord = (ends[y].move_values[name] - ends[x].move_values[name]) / (y - x)
            assert _below(blk.dlo[i, j], chord) and _below(chord, blk.dhi[i, j])


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, width=64), st.floats(allow_nan=False, allow_infinity=False),
       st.sampled_from(["*", "+", "-", "/"]))
def test_the_compiled_outward_steps_hold_the_exact_result(x, y, op):
    """``_dn``/``_up`` of a rounded operation bracket its exact result,
    subnormal and huge results included (checked in exact rationals)."""
    from fractions import Fraction

    from symbolic_noise.solvers.maps.floatkernel import _dn, _up

    if op == "/" and y == 0:
        return
    with np.errstate(all="ignore"):
        r = {"*": np.float64(x) * y, "+": np.float64(x) + y, "-": np.float64(x) - y, "/": np.float64(x) / y}[op]
    if not np.isfinite(r):
        return
    fx, fy = Fraction(x), Fraction(y)
    exact = {"*": fx * fy, "+": fx + fy, "-": fx - fy, "/": fx / fy if fy else None}[op]
    lo, hi = _dn(float(r)), _up(float(r))
    assert lo < r < hi
    assert (lo == -np.inf or Fraction(lo) <= exact) and (hi == np.inf or exact <= Fraction(hi))


def _below(u, v) -> bool:
    """u <= v exactly, for floats and rationals."""
    from fractions import Fraction

    def q(t):
        return Fraction(float(t)) if not hasattr(t, "p") else Fraction(int(t.p), int(t.q))

    if not hasattr(u, "p") and float(u) == -float("inf") or not hasattr(v, "p") and float(v) == float("inf"):
        return True  # (an unbounded end)
    return q(u) <= q(v)


def test_the_series_at_a_point_give_its_exact_values():
    lay = Layout(Nim(5), get_channel("binary"), 5)
    for c in (fmpq(0), fmpq(1, 2), fmpq(1, 3), fmpq(1)):
        exact = point_solve(Nim(5), "binary", c)
        for sgn in (1, -1):
            s = side_series(lay, c, sgn)
            assert s.value[-1][0] == exact.value
            assert {lay.names[i] for i in s.tie[-1]} == exact.optimal


def test_simplest_between():
    assert simplest_between(fmpq(1, 3), fmpq(2, 3)) == fmpq(1, 2)
    assert simplest_between(fmpq(3, 10), fmpq(4, 10)) == fmpq(1, 3)
    assert simplest_between(fmpq(0), fmpq(1, 2)) == 0


def test_bad_intervals_and_widths_are_refused():
    with pytest.raises(IntervalError):
        build_map(Nim(3), "binary", interval=("1/2", "1/4"))
    with pytest.raises(IntervalError):
        build_map(Nim(3), "binary", width="0")
    with pytest.raises(IntervalError):
        build_map(Nim(3), "binary", interval=("0", "2"))


def test_a_sub_interval_and_a_terminal_start():
    m = build_map(Nim(3), "binary", interval=("1/4", "3/4"), width="2^-20")
    assert (m.intervals[0].lo, m.intervals[-1].hi) == (fmpq(1, 4), fmpq(3, 4))
    assert [iv.kind for iv in m.intervals] == ["proved", "change", "proved"]
    t = build_map(Nim(0), "binary")
    assert [(iv.kind, iv.optimal, iv.value) for iv in t.intervals] == [("proved", frozenset(), (0, 0))]


def test_text_and_json_carry_the_provenance():
    m = build_map(Nim(3), "binary", width="2^-20")
    data = json.loads(json.dumps(m.to_json()))
    assert data["meta"]["method"] == "map" and data["meta"]["game"]["family"] == "nim"
    kinds = [iv["kind"] for iv in data["intervals"]]
    assert kinds == ["proved", "change", "proved", "change"]
    assert data["intervals"][1]["point"] == "1/2" and data["intervals"][1]["at"] == [0, 1, 2]
    text = str(m)
    assert "# method: map" in text and "0 -> 0, 1, 2 -> 1 at p = 1/2" in text
    assert "<table" in m._repr_html_()


def test_the_centred_derivative_holds_only_where_rows_sum_to_one():
    """The compiled recursion centres each row's derivative sum where psi's row
    sums to 1 exactly (every channel's rows do); forced off, the bounds still
    hold the exact values, and centring never widens the start's derivative
    bounds much (it narrows them near p = 1/2 for binary Nim)."""
    from symbolic_noise.solvers.maps.floatkernel import _sparse, enclose_compiled

    game = sn.Nim(12)
    lay = Layout(game, get_channel("binary"), game.start())
    sparse = _sparse(lay)
    assert sparse[5].all()
    boxes = [(fmpq(53, 100), fmpq(53, 100) + fmpq(1, 10**4)), (fmpq(1, 5), fmpq(1, 4))]
    on = enclose_compiled(lay, boxes)
    lay._sparse_rows = sparse[:5] + (np.zeros_like(sparse[5]),) + sparse[6:]
    off = enclose_compiled(lay, boxes)
    for blk in (on, off):
        for i, (x, y) in enumerate(boxes):
            for p in (x, y):
                v = point_solve(game, "binary", p).value
                assert _below(blk.vlo[i], v) and _below(v, blk.vhi[i])
    width = lambda blk: (blk.dhi - blk.dlo)[0].max()
    assert width(on) < width(off)


_ANCHORED = [(sn.Nim(9), "binary"), (sn.Nim(6), "uniform"), (sn.Chomp(3, 3), "king")]


@pytest.mark.parametrize("forced_off", [False, True])
@pytest.mark.parametrize("case", range(len(_ANCHORED)))
def test_the_centred_arb_sums_hold_the_exact_derivatives_and_series(forced_off, case):
    """The arb enclosures centre the derivative sums and the series' sums from
    order 1 on where rows sum to 1; forced off (the general formula with ``c R``),
    the balls still hold: every sent move's chord slope over a box near 1/2,
    and, anchored at 1/2, the exact Taylor coefficients there (the uniform
    channel's numerator is the layout's first polynomial, its denominator too)."""
    from symbolic_noise.solvers.maps.series import side_series

    game, channel = _ANCHORED[case]
    lay = Layout(game, get_channel(channel), game.start())
    assert all(all(r) for r in lay.row_one)
    if forced_off:
        lay._row_one = [[False] * len(r) for r in lay.row_one]
    lo, hi = fmpq(1, 2), fmpq(1, 2) + fmpq(1, 200)
    ends = {p: point_solve(game, channel, p) for p in (lo, hi)}
    rb = enclose(lay, lo, hi)
    for i, name in enumerate(lay.names):
        chord = (ends[hi].move_values[name] - ends[lo].move_values[name]) / (hi - lo)
        assert rb.ders[i].contains(chord)
    ser = side_series(lay, lo, 1)
    anchored = enclose(lay, lo, hi, anchor=ser)
    kept = len(anchored.taylor[0])
    assert 2 <= kept <= len(ser.moves[0])
    for i in range(len(lay.names)):
        for o, coef in enumerate(ser.moves[i][:kept]):
            assert anchored.taylor[i][o].contains(coef), (i, o)


_NEAR_CHANGES = [(sn.Chomp(3, 3), "king"), (sn.Chomp(3, 4), "rook"), (sn.Chomp(3, 3), "chebyshev"), (sn.Nim(9), "binary")]


@pytest.mark.parametrize("case", range(len(_NEAR_CHANGES)))
def test_boxes_around_each_exact_change_keep_both_sides_moves(case):
    """The start's candidates over a box around a change of its optimal set
    (from the exact solver) keep the moves optimal on both sides: the pruning
    by differences of two rows (rows over different followers on Chomp) and
    by the mean-value form drop only moves that are below everywhere."""
    from symbolic_noise.solvers.maps.floatkernel import enclose_compiled

    game, channel = _NEAR_CHANGES[case]
    lay = Layout(game, get_channel(channel), game.start())
    f = sn.solve(game, channel).value(game.start())
    boxes, points = [], []
    for point in f.points[1:-1]:
        point.refine_to(fmpq(1, 2**80))
        x = point.rational_value if point.rational_value is not None else point.lo  # within 2^-80 of it
        for k in (2, 6, 12, 20):
            for lo, hi in ((x - fmpq(1, 2**k), x + fmpq(1, 2**k)), (x - fmpq(1, 2**k), x + fmpq(1, 2**(k + 3)))):
                lo, hi = max(lo, fmpq(0)), min(hi, fmpq(1))
                boxes.append((lo, hi))
                points.append([lo, (lo + x) / 2, x, (x + hi) / 2, hi])
    assert boxes
    blk = enclose_compiled(lay, boxes)
    for i, pts in enumerate(points):
        kept = {lay.names[j] for j in np.flatnonzero(blk.cands[i])}
        for p in pts:
            assert point_solve(game, channel, p).optimal <= kept, (boxes[i], p)


def test_a_map_too_large_for_its_row_tables_is_refused_before_any_row_is_made(capsys):
    """The layout counts moves times followers over the positions first and
    refuses past its cap, with a one-line error and exit status 2 at the CLI."""
    from symbolic_noise.errors import MapTooLargeError
    from symbolic_noise.io.cli import main

    with pytest.raises(MapTooLargeError, match="more than 1000 entries"):
        Layout(Nim(20), get_channel("binary"), 20, max_entries=1000)
    assert Layout(Nim(10), get_channel("binary"), 10, max_entries=1000).order[-1] == 10  # 385 entries
    assert main(["map", "nim", "1024"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "(the cap)" in err[0] and "1025 positions" in err[0]
    assert main(["atlas", "nim", "--k", "1..1024", "--method", "map", "-o", "never-written.png"]) == 2  # its largest row
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "(the cap)" in err[0]


_TIE_BOXES = [(sn.Nim(7), "binary", fmpq(1, 2)), (sn.Chomp(3, 3), "king", fmpq(0)), (sn.Chomp(3, 3), "all", fmpq(1, 8)),
              (sn.Nim(6), "binary", fmpq(1))]


@pytest.mark.parametrize("case", range(len(_TIE_BOXES)))
@pytest.mark.parametrize("k", [3, 6, 10])
def test_anchored_enclosures_beside_a_tie_point_hold_the_exact_values_and_slopes(case, k):
    """Anchored at a tie point c (where the exact series drop moves from the
    followers' derivative hulls), the start's balls over ``[c, c + 2^-k]`` (or
    to its left) hold every sent move's exact value at points of the box and
    the slope of every chord between them, and the candidates keep the exact
    optimal moves."""
    game, channel, c = _TIE_BOXES[case]
    lay = Layout(game, get_channel(channel), game.start())
    sgn = 1 if c < 1 else -1
    w = fmpq(1, 2**k)
    lo, hi = (c, c + w) if sgn > 0 else (c - w, c)
    rb = enclose(lay, lo, hi, anchor=side_series(lay, c, sgn))
    pts = [lo + (hi - lo) * fmpq(t, 8) for t in range(9)]
    ans = [point_solve(game, channel, p) for p in pts]
    for i, name in enumerate(lay.names):
        for a in ans:
            assert rb.moves[i].contains(a.move_values[name])
        for s in range(len(pts)):
            for t in range(s + 1, len(pts)):
                chord = (ans[t].move_values[name] - ans[s].move_values[name]) / (pts[t] - pts[s])
                assert rb.ders[i].contains(chord), (name, pts[s], pts[t])
    for a in ans[1:-1]:
        assert a.optimal <= {lay.names[j] for j in rb.candidates}
