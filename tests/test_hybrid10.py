"""Conjecture 10 on [a, 1] by boxes and an exact end piece at p = 1: the
certificate re-verifies from its JSON, agrees with the exact verdicts for small
powers of two, and tampered copies are rejected."""

import json

import pytest
from flint import fmpq

from symbolic_noise.errors import VerificationError
from symbolic_noise.analysis.hybrid.power_of_two import certify, end_piece, half_piece, verify_conjecture10
from symbolic_noise.analysis.hybrid.certificates import verify_hybrid


@pytest.fixture(scope="module")
def cert16():
    return certify(16, fmpq(9, 16), delta=fmpq(1, 64), delta_half=fmpq(1, 256), tm_width=fmpq(1, 64))


def test_certificate_verifies_and_agrees_with_the_exact_run(cert16):
    assert verify_hybrid(json.loads(json.dumps(cert16))) is True
    with open("results/conjecture10.json") as fh:
        exact = json.load(fh)
    verdicts = {r["k"]: r["verdict"] for r in exact["results"]}
    assert verdicts[16] == "holds" and 16 not in exact["fails_for"]


def test_end_piece_separates_the_moves_that_tie_at_one():
    e = end_piece(16, fmpq(1, 64))
    assert e["value_at_centre"] == "1"
    assert set(e["leading_order"]) == {str(s) for s in range(15)}
    assert max(e["leading_order"].values()) >= 1  # some move ties with 15 at p = 1


def test_local_piece_at_one_half_separates_every_move_beyond_order_zero():
    h = half_piece(16, fmpq(1, 256))
    assert h["value_at_centre"] == "1/2" and min(h["leading_order"].values()) >= 1



TAMPER = {
    "raise a gap bound": lambda c: c["gap_lower"].__setitem__(0, "1"),
    "raise a half bound": lambda c: c["half_lower"].__setitem__(-1, "1"),
    "negative bound": lambda c: c["gap_lower"].__setitem__(0, "-1/1024"),
    "shrink the coverage": lambda c: c["interval"].__setitem__(0, "9/16"),
    "widen the local piece at 1/2": lambda c: c["half"].__setitem__("delta", "1/16"),
    "alter a leading order at 1/2": lambda c: c["half"]["leading_order"].__setitem__("1", 0),
    "raise a Taylor-model bound": lambda c: c["tm_gap_lower"].__setitem__(0, "1/4"),
    "drop a Taylor-model box": lambda c: (c["tm_cuts"].pop(1), c["tm_gap_lower"].pop(1), c["tm_half_lower"].pop(1)),
    "drop the local piece": lambda c: c.__setitem__("half", None),
    "drop a box": lambda c: (c["cuts"].pop(1), c["gap_lower"].pop(1)),
    "widen the end piece": lambda c: c["end"].__setitem__("delta", "1/4"),
    "alter a leading order": lambda c: c["end"]["leading_order"].__setitem__("0", 5),
    "not a power of two": lambda c: c.__setitem__("k", 12),
    "no short dyadic": lambda c: c["gap_lower"].__setitem__(0, "1/3"),
}


@pytest.mark.parametrize("name", sorted(TAMPER))
def test_tampered_conjecture10_certificates_are_rejected(cert16, name, tampered):
    with pytest.raises((VerificationError, ValueError, KeyError, IndexError)):
        verify_conjecture10(tampered(cert16, TAMPER[name]))


def test_committed_k128_certificate_is_well_formed():
    """The saved k = 128 certificate covers [1/2, 1] with its four pieces joined
    (the full re-check takes about a CPU minute: `symbolic-noise verify`)."""
    with open("results/certificates/hybrid_conjecture10_k128_interval.json") as fh:
        c = json.load(fh)
    half = fmpq(1, 2)
    assert c["k"] == 128 and c["interval"] == ["1/2", "1"]
    assert fmpq(*map(int, c["tm_cuts"][0].split("/"))) == half + fmpq(*map(int, c["half"]["delta"].split("/")))
    assert c["tm_cuts"][-1] == c["cuts"][0] and c["cuts"][-1] != "1"
    assert len(c["gap_lower"]) == len(c["cuts"]) - 1 == len(c["half_lower"])
