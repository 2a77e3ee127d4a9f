"""A refuted optimality claim names, as its witness, a move that is optimal at
the refuting point (checked against backward induction in Fractions)."""

from fractions import Fraction

import pytest

from symbolic_noise import Nim, solve
from symbolic_noise.analysis.certificates import check

import fraction_reference as ref


def _moves(cert):
    """The claimed move's and the witness's keys in the counterexample, e.g. N(3), N(4)."""
    return [k for k in cert.counterexample if k.startswith("N(") and not k.endswith("_decimal")]


@pytest.mark.parametrize("k, statement", [
    (5, "optimal 3 on [1/2, 4/5]"),
    (6, "optimal 1 on [1/2, 1]"),
    (7, "optimal 2 on [0, 1]"),
    (9, "optimal 0 on [1/2, 1]"),
    (10, "optimal 5 on [1/4, 3/4]"),
])
def test_the_witness_is_optimal_at_the_point(k, statement):
    sol = solve(Nim(k), "binary")
    cert = check(sol, statement)
    assert not cert.holds
    p = Fraction(cert.counterexample["p"])
    claimed, witness = _moves(cert)
    value, optimal, moves = ref.nim(k, "binary", p)[k]  # the followers of heap k are the moves 0..k-1
    assert int(witness[2:-1]) in optimal, (statement, p, witness, sorted(optimal))
    assert Fraction(cert.counterexample[witness]) == value
    assert Fraction(cert.counterexample[claimed]) == moves[int(claimed[2:-1])] < value
