"""Classical Sprague–Grundy analysis: laws (hypothesis), literature tables
(tests/data/nim_sequences.json), independent slow methods, the periodicity
theorem, Bouton's rule in normal and misère play, Lemma 7 / Corollary 8, and
agreement with the noisy solver through the identity channel."""

import functools
import json
import operator
from itertools import combinations_with_replacement
from pathlib import Path

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import solve
from symbolic_noise.games.classical import (
    bouton_moves,
    find_period,
    heaps_nim_value,
    lemma7_violations,
    mex,
    nim_outcome,
    nim_sequence,
    nim_sum,
    nim_value,
    outcome,
    periodicity,
    position_classes,
    sequence_report,
    theorem_end,
    winning_moves,
)
from symbolic_noise.errors import GameParameterError
from symbolic_noise.games.rulesets import Chomp, ExplicitGame, Nim
from symbolic_noise.games.heapgames import (
    GrundyRules,
    HeapGame,
    LaskerRules,
    MultiNim,
    NimRules,
    OctalRules,
    SubtractionRules,
    heap_rules_from_spec,
)

DATA = json.loads((Path(__file__).parent / "data" / "nim_sequences.json").read_text())["sequences"]

#: every game family of the package, small (the generic agreement tests)
FAMILIES = {
    "nim-1-pile": Nim(6),
    "chomp": Chomp(2, 3),
    "graph": ExplicitGame({"a": ["b", "c", "d"], "b": ["d"], "c": ["d", "e"], "d": ["e"]}, "a"),
    "multinim": MultiNim((1, 2, 3)),
    "kayles": HeapGame(OctalRules("0.77"), (2, 5)),
    "dawson-kayles": HeapGame(OctalRules("0.07"), 8),
    "dawson-chess": HeapGame(OctalRules("0.137"), (3, 4)),
    "4.3": HeapGame(OctalRules("4.3"), 6),
    "hexadecimal": HeapGame(OctalRules("0x0.8F"), 7),
    "subtraction": HeapGame(SubtractionRules({2, 3, 7}), (4, 9)),
    "lasker": HeapGame(LaskerRules(), (2, 4)),
    "grundy": HeapGame(GrundyRules(), 10),
}

RULES = [NimRules(), LaskerRules(), GrundyRules(), SubtractionRules({2, 3, 7}), SubtractionRules({1, 2, 3})] + [
    OctalRules(code) for code in ("0.77", "0.07", "0.137", "4.3", "0.04", "0.7777", "0x0.F", "0x4.8", "0x0.9C")
]


# --------------------------------------------------------------------------- laws

naturals = st.integers(min_value=0, max_value=2**40)


@given(st.sets(st.integers(min_value=0, max_value=30)))
def test_mex_is_the_least_excluded_value(values):
    m = mex(values)
    assert m not in values
    assert all(k in values for k in range(m))
    assert mex(iter(values)) == m


@given(naturals, naturals, naturals)
def test_nim_sum_is_xor(a, b, c):
    assert nim_sum(a, b, c) == a ^ b ^ c
    assert nim_sum(nim_sum(a, b), c) == nim_sum(a, nim_sum(b, c))
    assert nim_sum(a, b) == nim_sum(b, a)
    assert nim_sum(a, 0) == a and nim_sum(a, a) == 0


def test_nim_sum_refuses_negative_values():
    with pytest.raises(GameParameterError):
        nim_sum(3, -1)


def test_nim_values_of_known_games():
    assert [nim_value(Nim(k)) for k in range(8)] == list(range(8))
    # strategy stealing: a rectangular Chomp bar other than 1 x 1 is an N-position
    assert all(nim_value(Chomp(r, c)) != 0 for r, c in [(2, 2), (2, 3), (3, 3), (3, 4)])
    assert nim_value(Chomp(1, 1)) == 0


def test_deep_games_do_not_hit_the_recursion_limit():
    n = 5000
    chain = ExplicitGame({i: [i + 1] for i in range(n)}, 0)
    assert nim_value(chain) == n % 2
    assert outcome(chain, misere=True) == ("N" if n % 2 == 0 else "P")


def test_misere_grundy_values_of_one_heap():
    # Conway: g-(0) = 1, g-(1) = 0, g-(k) = k for k >= 2
    assert [nim_value(Nim(k), misere=True) for k in range(7)] == [1, 0, 2, 3, 4, 5, 6]


# --------------------------------------------------------------------------- Nim and Bouton


def test_bouton_examples_of_theory_md():
    assert nim_sum(3, 4, 5) == 2 and bouton_moves((3, 4, 5)) == ((3, 1),)
    assert nim_sum(7, 2, 5, 3) == 3 and bouton_moves((7, 2, 5, 3)) == ((7, 4), (2, 1), (3, 0))
    # taking one from the 4 wins; so do 5 -> 2 and 6 -> 1
    assert nim_sum(4, 5, 6) == 7 and bouton_moves((4, 5, 6)) == ((4, 3), (5, 2), (6, 1))
    assert bouton_moves((1, 2, 3)) == () and bouton_moves(()) == ()


small_heaps = st.lists(st.integers(min_value=0, max_value=5), max_size=4)


@settings(max_examples=60, deadline=None)
@given(small_heaps, st.booleans())
def test_bouton_moves_are_the_moves_to_p_positions(heaps, misere):
    game = MultiNim(heaps)
    expected = {apply(game, w) for w in winning_moves(game, misere=misere)}
    assert {f"{h}->{k}" for h, k in bouton_moves(heaps, misere=misere)} == expected
    assert nim_outcome(heaps, misere=misere) == outcome(game, misere=misere)


def apply(game, w):
    return game.move_label(game.start(), w)


def test_misere_nim_rule_against_the_solver():
    # the mover wins iff the nim-sum is non-zero, unless every heap has at most
    # one chip: then iff the number of 1-heaps is even
    sol = solve(MultiNim((1, 1, 3, 4)), "identity", misere=True)
    game = sol.game
    for v in sol.positions():
        ones_only = all(h <= 1 for h in v)
        wins = (len(v) % 2 == 0) if ones_only else nim_sum(*v) != 0
        assert sol.at("1/2", v).value == (1 if wins else 0), v
        assert outcome(game, v, misere=True) == ("N" if wins else "P")
        assert nim_outcome(v, misere=True) == ("N" if wins else "P")


# --------------------------------------------------------------------------- agreement with the solver


@pytest.mark.parametrize("name", FAMILIES)
def test_identity_channel_is_the_classical_game(name):
    game = FAMILIES[name]
    for misere in (False, True):
        sol = solve(game, "identity", misere=misere)
        for v in sol.positions():
            classical = outcome(game, v, misere=misere)
            for piece in sol.value(v).pieces():
                assert piece.formula.constant_value() == (1 if classical == "N" else 0), (v, misere)
            if not misere:
                assert (nim_value(game, v) != 0) == (classical == "N")
            else:
                assert (nim_value(game, v, misere=True) == 0) == (classical == "P")
            winners = {game.move_label(v, w) for w in winning_moves(game, v, misere=misere)}
            if winners:
                assert sol.at("1/3", v).optimal == winners


# --------------------------------------------------------------------------- Lemma 7 and Corollary 8


def test_corollary_8_multi_pile_nim_is_a_fair_chance_game():
    game = MultiNim((4, 4, 4, 4))  # every position of at most 4 piles of at most 4 chips
    sol = solve(game, "uniform")
    assert len(sol.positions()) == 70
    classes = position_classes(sol, "1/3")
    assert position_classes(sol, 0) == classes == position_classes(sol, 1)
    assert lemma7_violations(game, classes) == ()
    for v, cls in classes.items():
        ones_only = all(h == 1 for h in v)
        expected = ("N" if len(v) % 2 else "P") if ones_only else "O"
        assert cls == expected, v
        if cls == "O":
            (piece,) = sol.value(v).pieces()
            assert piece.formula.constant_value() == fmpq(1, 2), v


def test_lemma_7_detects_a_violation():
    # v has two P-followers (terminal) and one N-follower: N_v = 2/3, not 1/2
    game = ExplicitGame({"v": ["t1", "t2", "x"], "x": ["t3"]}, "v")
    sol = solve(game, "uniform")
    classes = position_classes(sol, "1/2")
    assert classes["v"] == "O" and sol.at("1/2").value == fmpq(2, 3)
    assert lemma7_violations(game, classes) == (("v", 2, 1),)


# --------------------------------------------------------------------------- nim-sequences


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key())
def test_fast_and_slow_sequences_agree(rules):
    n = 60 if rules.max_heaps == 3 else 200
    assert nim_sequence(rules, n) == nim_sequence(rules, n, method="slow") == nim_sequence(rules, n, cache=False)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key())
def test_sequence_is_the_mex_on_the_game_graph(rules):
    seq = nim_sequence(rules, 18)
    assert seq == tuple(nim_value(HeapGame(rules, n)) for n in range(19))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULES), st.lists(st.integers(min_value=0, max_value=7), max_size=3))
def test_sprague_grundy_theorem(rules, heaps):
    # the nim-value of several heaps, by mex on the multiset game, is the XOR
    # of the single heaps' values
    assert nim_value(HeapGame(rules, heaps)) == heaps_nim_value(rules, heaps)


@pytest.mark.parametrize("entry", DATA, ids=lambda e: e["game"])
def test_literature_sequences(entry):
    rules = heap_rules_from_spec(entry["game"])
    values = entry["values"]
    if entry["game"] == "0.07":  # Dawson's Kayles: heap n + 1 is Dawson's Chess heap n
        chess = nim_sequence("0.137", 400)
        assert nim_sequence(rules, 401)[1:] == chess and nim_sequence(rules, 0) == (0,)
    else:
        off = entry["offset"]
        assert list(nim_sequence(rules, off + len(values) - 1)[off:]) == values
        assert nim_sequence(rules, 0) == (0,)
    if entry["period"] is None or entry["preperiod"] > 1000:
        return
    end = theorem_end(entry["preperiod"], entry["period"], rules.max_removal, rules.max_heaps)
    found = periodicity(rules, end)
    assert (found.preperiod, found.period, found.proven) == (entry["preperiod"], entry["period"], True)
    # one value fewer and the theorem does not apply
    shorter = periodicity(rules, end - 1)
    assert shorter is None or not shorter.proven


def test_first_values_quoted_in_theory_md():
    assert nim_sequence("kayles", 19) == (0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2)
    assert nim_sequence("dawson-chess", 19) == (0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3)
    assert nim_sequence("grundy", 20) == (0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0)
    assert nim_sequence("4.3", 6) == (0, 1, 2, 0, 2, 0, 2)


def test_kayles_last_exceptional_value_is_at_70():
    g = nim_sequence("kayles", 400)
    assert g[70] != g[82] and all(g[n] == g[n + 12] for n in range(71, 389))
    assert periodicity("kayles", 400) == find_period(g, max_removal=2)


def test_formulas_of_lasker_nim_and_subtraction_games():
    lasker = nim_sequence("lasker", 400)
    for n in range(1, 401):
        assert lasker[n] == {1: n, 2: n, 3: n + 1, 0: n - 1}[n % 4]
    assert nim_sequence("subtraction:1,2,3", 1000) == tuple(n % 4 for n in range(1001))
    assert nim_sequence("nim", 50) == tuple(range(51))


def test_subtraction_2_3_7():
    # period 5, purely periodic: 0, 0, 1, 1, 2 (also the slow method and the graph)
    g = nim_sequence("subtraction:2,3,7", 100)
    assert g[:10] == (0, 0, 1, 1, 2, 0, 0, 1, 1, 2)
    found = periodicity("subtraction:2,3,7", 100)
    assert (found.preperiod, found.period, found.proven) == (0, 5, True)


def test_no_period_without_a_theorem_or_evidence():
    assert periodicity("nim", 200) is None
    assert periodicity("lasker", 200) is None
    assert periodicity("grundy", 2000) is None
    guess = find_period([0, 1] * 20)
    assert (guess.preperiod, guess.period, guess.proven) == (0, 2, False)


def test_splitting_games_are_not_proven_from_preperiod_0():
    # 0.04: G(0..3) = 0 but G(4) = 1; "period 1 from 0" must not be proven
    g = nim_sequence("0.04", 4)
    assert g == (0, 0, 0, 0, 1)
    found = find_period(g[:4], max_removal=2, max_heaps=2, min_cycles=99)
    assert found is None or not found.proven
    assert find_period(g[:4], max_removal=2, max_heaps=1).proven  # the wrong theorem would claim it


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=3), max_size=12),
    st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=6),
)
def test_find_period_on_built_sequences(head, cycle):
    values = head + cycle * 10
    found = find_period(values)
    assert found is not None and not found.proven
    i, p = found.preperiod, found.period
    assert p <= len(cycle) and i <= len(head)
    assert all(values[n] == values[n + p] for n in range(i, len(values) - p))
    assert i == 0 or values[i - 1] != values[i - 1 + p]


def test_sequence_report_json_contract():
    data = sequence_report("0.137", 200).as_json()
    assert set(data) == {"game", "values", "preperiod", "period", "proven"}
    assert (data["game"], data["preperiod"], data["period"], data["proven"]) == ("octal:0.137", 52, 34, True)
    assert len(data["values"]) == 201 and json.loads(json.dumps(data)) == data
    assert sequence_report("lasker", 20).as_json()["period"] is None
    assert sequence_report("kayles", 20, period=False).periodicity is None


def test_xor_of_sequence_values_is_nim_sum():
    seq = nim_sequence("kayles", 10)
    for heaps in combinations_with_replacement(range(11), 3):
        assert heaps_nim_value("kayles", heaps) == functools.reduce(operator.xor, (seq[h] for h in heaps))
