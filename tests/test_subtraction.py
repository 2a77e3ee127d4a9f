"""1-pile subtraction games through the binary channel (open question 2): the
encoding against its definition, and the verdicts of scripts/subtraction_results.py
against the pointwise solver and the saved certificates."""

import json
import os
import random

import pytest
from flint import fmpq

from symbolic_noise import evaluate, get_channel, solve
from symbolic_noise.analysis.certificates import check, verify
from symbolic_noise.games.registry import game_from_spec

ROOT = os.path.join(os.path.dirname(__file__), "..")


def psi_by_definition(h, S, p):
    """Send the chips left h - s in binary; each digit flips with probability p;
    renormalise over the legal codes {h - s}."""
    codes = [h - s for s in S if s <= h]
    width = max(max(codes).bit_length(), 1)
    rows = []
    for a in codes:
        w = [p ** bin(a ^ b).count("1") * (1 - p) ** (width - bin(a ^ b).count("1")) for b in codes]
        rows.append([x / sum(w, fmpq(0)) for x in w])
    return codes, rows


@pytest.mark.parametrize("S", ["1,2", "1,3,4", "2,3", "1,4"])
def test_binary_channel_encodes_the_chips_left(S):
    sset = [int(s) for s in S.split(",")]
    game = game_from_spec(f"subtraction:{S}", "20")
    ch = get_channel("binary")
    rng = random.Random(7)
    for h in range(min(sset), 21):
        v = (h,)
        codes, _ = psi_by_definition(h, sset, fmpq(1, 3))
        # the game's move order, by chips left
        left = [w[0] if w else 0 for w in game.followers(v)]
        order = [codes.index(c) for c in left]
        for _ in range(2):
            p = fmpq(rng.randrange(1, 40), 41)
            _, want = psi_by_definition(h, sset, p)
            got = ch.rows(game, v).at(p)
            assert got == [[want[i][j] for j in order] for i in order]


def test_values_do_not_depend_on_the_start_heap():
    big = solve(game_from_spec("subtraction:1,3,4", "16"), "binary")
    for k in (5, 9, 12):
        small = solve(game_from_spec("subtraction:1,3,4", str(k)), "binary")
        assert small.value((k,)) == big.value((k,))


def test_conjecture9_analogue_fails_for_1_3_4_at_12():
    # G(12) = 3 for S = {1,3,4}, but N_12 < 1/2 at p = 9/32
    sol = solve(game_from_spec("subtraction:1,3,4", "12"), "binary")
    cert = check(sol, "N >= 1/2 on [0, 1/2]", (12,))
    assert not cert.holds
    p = fmpq(9, 32)
    assert evaluate(sol.game, "binary", p)[(12,)].value < fmpq(1, 2)


def test_saved_subtraction_results_agree_with_the_pointwise_solver():
    path = os.path.join(ROOT, "results", "subtraction", "conjectures.json")
    if not os.path.exists(path):
        pytest.skip("results not generated")
    data = json.load(open(path))
    game = game_from_spec("subtraction:1,2", "32")
    for entry in data["verdicts"]["1,2"]["9a"]["entries"]:
        if not entry["holds"]:
            ce = entry["counterexamples"][0]
            if ce.get("pointwise"):
                p = fmpq(*map(int, ce["p"].split("/"))) if "/" in ce["p"] else fmpq(int(ce["p"]))
                assert evaluate(game, "binary", p, start=(entry["k"],))[(entry["k"],)].value < fmpq(1, 2)


def test_saved_certificates_verify():
    path = os.path.join(ROOT, "results", "certificates", "subtraction_2-3_9a.json")
    if not os.path.exists(path):
        pytest.skip("results not generated")
    document = json.load(open(path), parse_float=str)
    assert document["game"] == {"family": "subtraction:2,3", "param": "32"} and document["claims"]
    assert verify(document)  # every value proved by the Bellman check, every claim re-derived


def test_saved_9a_threshold_against_the_pointwise_solver():
    # the exact infimum of {p : N_k(p) < 1/2}: N_k >= 1/2 just below it, < 1/2 just above
    from symbolic_noise.exact.formula import exact_number as as_fmpq

    path = os.path.join(ROOT, "results", "subtraction", "conjectures.json")
    if not os.path.exists(path):
        pytest.skip("results not generated")
    rec = json.load(open(path))["thresholds"]["1,2"]["9a"]
    k, x = rec["attained_at_k"], as_fmpq(rec["threshold"]["decimal"])
    game = game_from_spec("subtraction:1,2", str(k))
    eps = fmpq(1, 10**18)
    assert evaluate(game, "binary", x - eps)[(k,)].value >= fmpq(1, 2)
    assert evaluate(game, "binary", x + eps)[(k,)].value < fmpq(1, 2)
