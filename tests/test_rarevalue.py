"""The rare-value engine: the same values as the reference paths (numpy's full
scan of splits, the plain mex), the published periods of octal games
(tests/data/octal_periods.json, from tczajka/octal-games and Winning Ways),
the periodicity proof and its cap."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from symbolic_noise.errors import GameParameterError
from symbolic_noise.games.classical import _sequence_slow, nim_sequence, theorem_end
from symbolic_noise.games.heapgames import OctalRules, heap_rules_from_spec
from symbolic_noise.games.rarevalue import (
    HeapCapError,
    least_period,
    moves_of,
    prove_period,
    rare_sequence,
    supports,
)

DATA = json.loads((Path(__file__).parent / "data" / "octal_periods.json").read_text())
PUBLISHED = DATA["trivial"] + DATA["classic"]


def _base36(text: str) -> list:
    return [None if ch == "?" else int(ch, 36) for ch in text if ch not in "()"]


# --------------------------------------------------------------------------- the mathematics


def test_kayles_and_dawsons_chess():
    kayles = prove_period("0.77").periodicity
    assert (kayles.preperiod, kayles.period, kayles.proven, kayles.needed) == (71, 12, True, 167)
    chess = prove_period("dawson-chess").periodicity
    assert (chess.preperiod, chess.period, chess.needed) == (52, 34, 174)
    assert rare_sequence("kayles", 19) == (0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2)


@pytest.mark.parametrize("entry", PUBLISHED, ids=lambda e: e["game"])
def test_published_periods(entry):
    run = prove_period(entry["game"])
    per = run.periodicity
    assert (per.preperiod, per.period, per.proven) == (entry["preperiod"], entry["period"], True)
    rules = heap_rules_from_spec(entry["game"])
    assert per.needed == theorem_end(per.preperiod, per.period, rules.max_removal, rules.max_heaps)
    if "values" in entry:
        shown = _base36(entry["values"])
        assert len(shown) == per.preperiod + per.period
        assert all(w is None or w == int(v) for w, v in zip(shown, run.values))


def test_sixteen_is_the_gangolli_plambeck_period():
    # .16: preperiod 105,351 and period 149,459 (Gangolli and Plambeck, 1989)
    run = prove_period("0.16")
    per = run.periodicity
    assert (per.preperiod, per.period, per.needed) == (105351, 149459, 509621)
    assert run.heaps == per.needed + 1  # the run stops where the theorem holds
    assert run.values[per.preperiod - 1] != run.values[per.preperiod - 1 + per.period]


# --------------------------------------------------------------------------- against the references

REFERENCE_CODES = [
    "0.07", "0.137", "0.77", "0.16", "0.56", "0.354", "0.376", "0.644", "0.165", "0.156", "0.356",
    "4.7", "4.3", "4.05", "4.44", "4.005", "4.024", "4.304", "4.766", "4.127", "4.563",
]


def test_agrees_with_the_numpy_reference():
    for code in REFERENCE_CODES:
        assert rare_sequence(code, 10**4) == nim_sequence(code, 10**4, cache=False), code


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([0, 4]), st.lists(st.integers(min_value=0, max_value=7), min_size=3, max_size=3))
def test_agrees_with_the_numpy_reference_on_random_codes(whole, digits):
    code = f"{whole}." + "".join(map(str, digits))
    try:
        rules = OctalRules(code)
    except GameParameterError:
        return
    assert rare_sequence(rules, 10**4) == nim_sequence(rules, 10**4, cache=False), code


def test_agrees_with_the_numpy_reference_on_grundys_game():
    assert rare_sequence("grundy", 3000) == nim_sequence("grundy", 3000, cache=False)


octal_digit = st.integers(min_value=0, max_value=7)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([0, 4]), st.lists(octal_digit, min_size=1, max_size=4))
def test_agrees_with_the_plain_mex_on_random_codes(whole, digits):
    code = f"{whole}." + "".join(map(str, digits))
    try:
        rules = OctalRules(code)
    except GameParameterError:
        return
    assert list(rare_sequence(rules, 80)) == _sequence_slow(rules, 80)


@settings(max_examples=25, deadline=None)
@given(st.lists(octal_digit, min_size=1, max_size=3).filter(lambda ds: ds[-1] != 0))
def test_a_proof_is_a_true_period(digits):
    try:  # some codes (0.6, 0.16) need more heaps, some are open problems
        run = prove_period("0." + "".join(map(str, digits)), max_heap=1 << 12)
    except HeapCapError:
        assume(False)
    per = run.periodicity
    g = np.asarray(run.values)
    assert np.array_equal(g[per.preperiod : per.needed + 1 - per.period], g[per.preperiod + per.period : per.needed + 1])
    # the least period: no proper divisor works on the proved stretch
    for d in range(1, per.period):
        if per.period % d == 0:
            assert not np.array_equal(g[per.preperiod + per.period : per.needed + 1 - d], g[per.preperiod + per.period + d : per.needed + 1])


# --------------------------------------------------------------------------- rules, caps, helpers


def test_moves_of_codes():
    assert moves_of("4.7") == moves_of(OctalRules("4.7"))
    m = moves_of("0.354")
    assert (m.whole, m.take, m.split, m.max_removal, m.position_parity) == ((1, 2), (1,), (2, 3), 3, 2)
    assert moves_of("0.16").position_parity == 0 and moves_of("0.06").position_parity == 0
    assert supports("0.137") and not supports("lasker") and not supports("subtraction:1,2")
    with pytest.raises(GameParameterError, match="rare-value engine"):
        moves_of("hex:0.8")


def test_no_theorem_for_grundys_game():
    # G(3..11) = 1 0 2 1 0 2 1 0 2 looks periodic, but G(13) = 3
    assert rare_sequence("grundy", 13)[3:] == (1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3)
    with pytest.raises(GameParameterError, match="no periodicity theorem covers Grundy's game"):
        prove_period("grundy")


def test_heap_cap_is_an_error_with_the_candidate():
    with pytest.raises(HeapCapError, match="through heap 1,000"):
        prove_period("0.16", max_heap=1000)


def test_progress_reports_heaps_and_rare_counts():
    seen = []
    prove_period("0.56", progress=lambda *a: seen.append(a), chunk=1 << 16)
    heaps = [h for h, _, _ in seen]
    assert heaps == sorted(heaps) and heaps[-1] == 653570
    assert seen[-1][2] == (326640, 144) and all(r >= 0 for _, r, _ in seen)


def test_least_period_and_bad_arguments():
    assert least_period([5, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], 1, 4) == (1, 2)
    assert least_period([3, 3, 3, 3, 3, 3, 3], 2, 2) == (0, 1)
    with pytest.raises(GameParameterError):
        rare_sequence("0.77", -1)


def test_values_beyond_sixteen_bits_widen():
    # the widening from 16 to 32 bits, forced early by a low limit
    from symbolic_noise.games import rarevalue

    eng = rarevalue._Engine(moves_of("0.3333"), 64)
    eng.vmax = 4  # pretend 2-bit storage: the run must widen and go on
    eng.run(40)
    assert eng.G.dtype == np.uint32 and list(eng.G[:40]) == list(nim_sequence("0.3333", 39))


def test_the_uncompiled_kernels_give_the_same_values(monkeypatch):
    # without numba the same functions run as plain Python
    from symbolic_noise.games import rarevalue

    for name in ("_advance", "_choose_mask", "_best_period", "_last_mismatch_below"):
        monkeypatch.setattr(rarevalue, name, getattr(rarevalue, name).py_func)
    assert rare_sequence("0.137", 300) == nim_sequence("0.137", 300)
    per = prove_period("0.77").periodicity
    assert (per.preperiod, per.period) == (71, 12)


def test_nim_sequence_method_rare_shares_the_memo():
    from symbolic_noise.games.classical import sequence_report

    rules = OctalRules("0.56")
    assert nim_sequence(rules, 3000, method="rare", cache=False) == nim_sequence(rules, 3000, cache=False)
    rep = sequence_report("0.137", 400)
    assert (rep.periodicity.preperiod, rep.periodicity.period, rep.periodicity.proven) == (52, 34, True)
    with pytest.raises(GameParameterError, match="'fast', 'rare' or 'slow'"):
        nim_sequence(rules, 10, method="quick")
