"""Packed formulas (RationalFunction.pack) and packing.VALUES_BUDGET:
a packed formula is the same function, and a solve that packs its finished
values past the budget (every one, with the budget at 0) gives the same
values, breakpoints and optimal sets, with the followers' caches naming the
formulas, not holding their polynomials."""

from __future__ import annotations

import gc
import types

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import RationalFunction, solve
from symbolic_noise.exact import polys
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.solvers.storage import packing

from conftest import assert_same_solution

coefficients = st.lists(st.integers(-(2**600), 2**600) | st.integers(-300, 300), max_size=40)


@settings(max_examples=300, deadline=None)
@given(coefficients)
def test_pack_and_unpack_give_the_polynomial_back(cs):
    f = fmpz_poly(cs)
    data = polys.pack(f)
    assert isinstance(data, bytes)
    assert polys.unpack(data) == f
    assert polys.packed_degree(data) == f.degree()


@settings(max_examples=200, deadline=None)
@given(coefficients, coefficients.filter(lambda c: any(c)), st.fractions(0, 1))
def test_a_packed_formula_is_the_same_function(num, den, x):
    f = RationalFunction(fmpz_poly(num), fmpz_poly(den))
    g = RationalFunction(f.num, f.den)
    text, latex, h = f.text(), f.latex(), hash(f)
    g.pack()
    assert g.packed and not f.packed
    assert g == f and hash(g) == h and g.text() == text and g.latex() == latex
    assert g.num == f.num and g.den == f.den and g.degree == f.degree
    q = fmpq(x.numerator, x.denominator)
    if f.den(q) != 0:
        assert g(q) == f(q)
    assert (g - f).is_zero and (1 - g) == (1 - f)
    g.pack()  # (again: nothing changes)
    assert g == f
    assert g.bytes_estimate() == len(polys.pack(f.num)) + len(polys.pack(f.den))


CASES = [
    (Nim(30), "binary"),  # affine rows: the batched sweep and its screen's cache
    (Nim(14), "tremble"),
    (Chomp(3, 4), "king"),  # rows not affine in p: the per-cell sweep
    (Chomp(2, 5), "rook"),
]


@pytest.mark.parametrize("game, channel", CASES)
def test_packing_every_finished_value_changes_no_result(game, channel, monkeypatch):
    expected = solve(game, channel)
    monkeypatch.setattr(packing, "VALUES_BUDGET", 0)
    ours = solve(game, channel)
    assert_same_solution(ours, expected)
    solved = [f for v in ours.positions() for f in ours.value(v).formulas if not f.is_constant]
    assert solved and all(f.packed for f in solved)
    assert not any(f.packed for v in expected.positions() for f in expected.value(v).formulas)


def test_the_sizes_of_packed_values_are_read_without_unpacking(monkeypatch):
    """``Solution.stats`` (every report's sizes) reads every value's degree:
    from the bytes, not by unpacking (a serial Chomp 7 x 7 king JSON report
    took 117.7 s instead of 41.2 s when it unpacked them)."""
    expected = solve(Nim(30), "binary").stats()
    monkeypatch.setattr(packing, "VALUES_BUDGET", 0)
    sol = solve(Nim(30), "binary")
    packed = [f for v in sol.positions() for f in sol.value(v).formulas if f.packed]
    assert len(packed) > 20  # (else the check below would hold without packing)

    def refuse(data):
        raise AssertionError("unpacked")

    monkeypatch.setattr(polys, "unpack", refuse)
    assert sol.stats() == expected
    assert expected["max_degree"] > 20


def test_within_the_budget_nothing_is_packed_and_past_it_the_oldest_are():
    """Nim 30's values take a few MB: the default budget packs none; a budget
    of half their size packs the oldest positions' and keeps the newest."""
    sol = solve(Nim(30), "binary")
    held = sol._workspace[0].held
    assert held.bytes > 0 and not any(f.packed for v in sol.positions() for f in sol.value(v).formulas)
    total = held.bytes
    saved = packing.VALUES_BUDGET
    try:
        packing.VALUES_BUDGET = total // 2
        half = solve(Nim(30), "binary")
    finally:
        packing.VALUES_BUDGET = saved
    flags = [any(f.packed for f in half.value(v).formulas) for v in range(1, 31)]
    assert flags[0] and not flags[-1]
    assert flags == sorted(flags, reverse=True)  # oldest first
    assert half._workspace[0].held.bytes <= total // 2


def _polynomial_bytes(*roots) -> int:
    """The estimated bytes of every distinct fmpz_poly reachable from ``roots``."""
    seen, todo, total = set(), list(roots), 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (int, str, bytes, float, fmpq, type, types.ModuleType, types.FunctionType)):
            continue  # (not through classes and modules to everything else)
        seen.add(id(obj))
        if isinstance(obj, fmpz_poly):
            total += polys.bytes_estimate(obj.degree(), obj.height_bits())
            continue
        todo.extend(gc.get_referents(obj))
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                todo.append(getattr(obj, name))
    return total


def test_packed_values_free_their_polynomials(monkeypatch):
    """The point of packing: the cells, slope blocks, ranges and the batch
    screen's cache name followers' formulas by the RationalFunction, so that
    once every value is packed (and nothing is kept unpacked) the polynomials
    reachable from the solution and its workspace shrink by about the
    values' own (the workspace itself holds the same in both solves)."""
    kept = solve(Nim(32), "binary")
    values = kept._workspace[0].held.bytes
    monkeypatch.setattr(packing, "VALUES_BUDGET", 0)
    monkeypatch.setattr(packing, "UNPACKED_BUDGET", 0)
    packed = solve(Nim(32), "binary")
    assert packed.value() == kept.value()
    assert not packed._workspace[0].unpacked._pairs
    before = _polynomial_bytes(kept._workspace, kept.values())
    after = _polynomial_bytes(packed._workspace, packed.values())
    # (exactly the values' own on this solve; a cache of enclosure ranges
    # that held its formulas' polynomials as well left 92 % of them)
    assert before - after > 0.97 * values
