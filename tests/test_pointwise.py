"""The pointwise evaluator against a from-scratch implementation of theory.md 3.1
in plain Fractions (no python-flint, no channel code)."""

from fractions import Fraction

import pytest
from flint import fmpq
from hypothesis import given
from hypothesis import strategies as st

from symbolic_noise import evaluate
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.exact.polys import to_fraction


def nim_binary_by_hand(k, p):
    """N_0..N_k of 1-pile Nim through the binary channel, 0 < p < 1."""
    values = [Fraction(0)]
    optimal = [set()]
    for v in range(1, k + 1):
        n = v.bit_length()
        per_move = []
        for s in range(v):
            q = [p ** bin(s ^ r).count("1") * (1 - p) ** (n - bin(s ^ r).count("1")) for r in range(v)]
            per_move.append(sum((1 - values[r]) * q[r] for r in range(v)) / sum(q))
        top = max(per_move)
        values.append(top)
        optimal.append({s for s, x in enumerate(per_move) if x == top})
    return values, optimal


@given(st.integers(1, 12), st.fractions(min_value=0, max_value=1, max_denominator=200).filter(lambda x: 0 < x < 1))
def test_matches_theory_by_hand(k, p):
    values, optimal = nim_binary_by_hand(k, p)
    got = evaluate(Nim(k), "binary", fmpq(p.numerator, p.denominator))
    for v in range(k + 1):
        assert to_fraction(got[v].value) == values[v]
        assert got[v].optimal == optimal[v]


@pytest.mark.parametrize(
    "k,p,digits",
    # the rows where the paper's 15th decimal is off by one (test_solver.PAPER_LAST_DIGIT_OFF)
    [(4, "0.74", "0.63720164041604754829"), (5, "0.01", "0.97078619733744837005"), (5, "0.92", "0.72925245046991644929")],
)
def test_paper_float_noise_rows_independently(k, p, digits):
    values, _ = nim_binary_by_hand(k, Fraction(p))
    assert str(round(values[k] * 10**20)) == digits.replace("0.", "", 1)


def test_ends_of_the_interval_use_limits():
    at0 = evaluate(Nim(6), "binary", 0)
    assert [at0[v].value for v in range(7)] == [0, 1, 1, 1, 1, 1, 1]  # the classical game
    assert at0[6].optimal == {0}
    at1 = evaluate(Nim(4), "binary", 1)
    assert at1[4].value == 1 and at1[4].optimal == {0, 3}  # the paper's erratum


@given(st.integers(1, 9), st.fractions(min_value=0, max_value=1, max_denominator=30), st.booleans(),
       st.sampled_from(["binary", "uniform", "identity"]))
def test_every_position_against_fraction_backward_induction(k, p, misere, channel):
    """Value, optimal set and every sent move's value at every heap, normal and
    misère, p in [0, 1] with its ends, against tests/fraction_reference.py."""
    import fraction_reference as ref

    got = evaluate(Nim(k), channel, fmpq(p.numerator, p.denominator), misere=misere)
    want = ref.nim(k, channel, p, misere)
    assert set(got) == set(want)
    for v, (value, best, moves) in want.items():
        assert to_fraction(got[v].value) == value and got[v].optimal == best
        assert {m: to_fraction(x) for m, x in got[v].move_values.items()} == dict(enumerate(moves))


def test_evaluate_from_a_given_start():
    """start=3 in Nim(9): the positions 0..3 only, N_3(1/4) = (1 - p + p^2)/(1 + p) = 13/20."""
    got = evaluate(Nim(9), "binary", "1/4", start=3)
    assert set(got) == {0, 1, 2, 3} and got[3].value == fmpq(13, 20)
