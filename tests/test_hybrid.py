"""The hybrid method: box enclosures hold the exact values, Taylor models hold
them too, certificates re-verify from their JSON alone, tampered ones are
rejected, and the verdicts agree with the exact certificates for small k."""

import json
from fractions import Fraction
import random

import pytest
from flint import arb, fmpq

from symbolic_noise import Nim, solve
from symbolic_noise.io.cli import main
from symbolic_noise.errors import VerificationError
from symbolic_noise.solvers.onepoint.fastpoint import point_solve
from symbolic_noise.solvers.boxes.hybrid import enclose
from symbolic_noise.analysis.hybrid.take_all import box_margins, certify, local_half, verify_conjecture9
from symbolic_noise.analysis.hybrid.certificates import counterexample_certificate, fairness_certificate, verify_hybrid
from symbolic_noise.analysis.series import taylor_rational
from symbolic_noise.solvers.boxes.taylormodel import _Box, nim_models


def _holds(ball, q):
    """q lies in the ball (exact ends)."""
    return bool(ball.lower() <= arb(q)) and bool(ball.upper() >= arb(q)) if ball.rad() > 0 else (ball - arb(q)).contains(0)


BOXES = [(fmpq(0), fmpq(1, 8)), (fmpq(1, 5), fmpq(1, 4)), (fmpq(7, 16), fmpq(1, 2)), (fmpq(1, 2), fmpq(9, 16)),
         (fmpq(3, 4), fmpq(13, 16)), (fmpq(15, 16), fmpq(1))]


@pytest.mark.parametrize("a,b", BOXES)
def test_box_enclosures_hold_every_exact_value(a, b):
    K = 12
    box = enclose(K, a, b)
    rng = random.Random(7)
    points = [a, b] + [a + (b - a) * fmpq(rng.randrange(1, 50), 50) for _ in range(4)]
    for p in points:
        exact = point_solve(Nim(K), "binary", p, all_positions=True)
        for j in range(1, K + 1):
            assert _holds(box.value[j], exact[j].value)
        for s, v in point_solve(Nim(K), "binary", p).move_values.items():
            assert _holds(box.moves[K][s], v)


@pytest.mark.parametrize("c,lo,hi,exact", [
    (fmpq(1, 2), fmpq(-1, 64), fmpq(0), True),
    (fmpq(1, 2), fmpq(0), fmpq(1, 256), True),
    (fmpq(1), fmpq(-1, 64), fmpq(0), True),
    (fmpq(3, 10), fmpq(-1, 100), fmpq(1, 100), False),
    (fmpq(7, 10), fmpq(-1, 100), fmpq(1, 100), False),
])
def test_taylor_models_hold_every_exact_value(c, lo, hi, exact):
    K = 10
    m = nim_models(K, c, lo, hi, order=4, exact=exact, keep={K})
    box = _Box(lo, hi, exact)
    for t in (lo, hi, (lo + hi) / 2, lo + (hi - lo) / 3):
        e = arb(t)
        exact_vals = point_solve(Nim(K), "binary", c + t, all_positions=True)
        for j in (2, 5, K):
            f = m.value[j]
            approx = sum((arb(x) * e**i for i, x in enumerate(f.P)), arb(0)) + e ** f.q * f.R
            assert _holds(approx, exact_vals[j].value), (j, t)


def test_first_order_lemma_at_one_half_matches_the_exact_formulas():
    """F_k'(1/2) = -2/(k(k-1)) from the left (docs/hybrid.md)."""
    for k in range(2, 7):
        f = solve(Nim(k), "binary").value()
        i = max(i for i, x in enumerate(f.points) if x.compare(fmpq(1, 2)) < 0)
        coeffs = taylor_rational(f.formulas[i], fmpq(1, 2), 1)
        assert coeffs == [fmpq(1, 2), fmpq(-2, k * (k - 1))]


@pytest.fixture(scope="module")
def cert9():
    return certify(10, 0, fmpq(1, 2))


def test_conjecture9_certificate_verifies_and_agrees_with_the_exact_one(cert9):
    assert cert9["verdict"] == "holds" and cert9["local"] is not None
    assert verify_hybrid(json.loads(json.dumps(cert9))) is True
    with open("results/conjecture9.json") as fh:
        exact = json.load(fh)
    assert all(r["verdict"] == "holds" for r in exact["results"] if r["k"] <= 10)



TAMPER9 = {
    "raise a gap bound": lambda c: c["gap_lower"].__setitem__(0, "1"),
    "negative bound": lambda c: c["half_lower"].__setitem__(0, "-1/1000"),
    "remove a box's bounds": lambda c: (c["gap_lower"].pop(), c["half_lower"].pop()),
    "shrink the coverage": lambda c: c["cuts"].__setitem__(0, "1/1024"),
    "drop the last box": lambda c: (c["cuts"].pop(), c["gap_lower"].pop(), c["half_lower"].pop()),
    "widen the local piece": lambda c: c["local"].__setitem__("delta", "1/4"),
    "alter a local coefficient": lambda c: c["local"]["second_coefficient_lower"].__setitem__("8", "1"),
    "alter a local margin": lambda c: c["local"].__setitem__("even_margin_lower", "1"),
    "claim a larger K": lambda c: c.__setitem__("K", 10**6),
}


@pytest.mark.parametrize("name", [n for n in TAMPER9 if n != "claim a larger K"])
def test_tampered_conjecture9_certificates_are_rejected(cert9, name, tampered):
    with pytest.raises((VerificationError, ValueError, KeyError, IndexError)):
        verify_conjecture9(tampered(cert9, TAMPER9[name]))


def test_counterexample_to_conjecture10_at_256_is_exact(tampered):
    with open("results/certificates/hybrid_conjecture10_k256_counterexample.json") as fh:
        c = json.load(fh)
    assert c["better"] == 252 and c["claimed"] == 255 and c["p"] == "99/100"
    assert verify_hybrid(c)
    for edit in (lambda d: d.__setitem__("value_better", d["value_claimed"]),
                 lambda d: d.update(better=255, claimed=252)):
        with pytest.raises(VerificationError):
            verify_hybrid(tampered(c, edit))


def test_small_counterexample_and_refusal():
    c = counterexample_certificate(5, fmpq(9, 10), 4, 3)  # theory.md: k = 5 sends 4 above ~0.77
    assert verify_hybrid(c)
    with pytest.raises(ValueError):
        counterexample_certificate(5, fmpq(9, 10), 3, 4)


@pytest.mark.parametrize("k", [10, 11, 12, 13, 19])
def test_fairness_enclosures_hold_the_exact_threshold(k):
    with open("results/fairness.json") as fh:
        exact = {r["k"]: r for r in json.load(fh)["results"]}[k]
    c = fairness_certificate(k, tol=fmpq(1, 2**12))
    assert c["exists"] == exact["exists"]
    assert verify_hybrid(json.loads(json.dumps(c)))
    if exact["exists"]:
        lo, hi = (float(fmpq(*map(int, x.split("/")))) for x in c["p0"])
        assert lo <= float(exact["p0"]["decimal"]) <= hi


def test_tampered_fairness_certificates_are_rejected(tampered):
    c = fairness_certificate(10, tol=fmpq(1, 2**10))
    edits = [
        lambda d: d["bounds"].__setitem__(0, "1/50"),               # a bound above eps
        lambda d: d["bounds"].__setitem__(-1, "1/1000000000"),       # a bound the balls do not imply
        lambda d: d.__setitem__("fails_at", d["cuts"][0]),           # the failing point moved
        lambda d: d["p0"].__setitem__(1, "1/2"),                     # the enclosure shrunk
        lambda d: (d["cuts"].pop(), d["bounds"].pop()),               # the last box removed
        lambda d: d.__setitem__("N_at_1", "1"),
    ]
    for edit in edits:
        with pytest.raises(VerificationError):
            verify_hybrid(tampered(c, edit))


def test_cli_verifies_and_rejects_hybrid_files(tmp_path, capsys, tampered):
    c = fairness_certificate(11, tol=fmpq(1, 2**10))
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(c))
    bad.write_text(json.dumps(tampered(c, lambda d: d["bounds"].__setitem__(0, "1/10"))))
    assert main(["verify", str(good)]) == 0
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "verified fairness k = 11" in out and "REJECTED" in out


def test_local_argument_and_boxes_small():
    assert local_half(8, fmpq(1, 64)).holds
    r = box_margins(8, fmpq(0), fmpq(1, 16))
    assert r.holds and r.gap.lower() > 0


def test_committed_conjecture9_certificates_for_k_up_to_64_verify():
    """The saved K = 64 run tiles [0, 1/2]; its chunk at 1/2 (boxes and the local
    argument) re-verifies here (the other chunks: `symbolic-noise verify`)."""
    import glob

    files = sorted(glob.glob("results/certificates/hybrid_conjecture9_K64_part*.json"))
    assert len(files) == 5
    cover = []
    for f in files:
        with open(f) as fh:
            c = json.load(fh)
        if c["local"] is not None:
            assert verify_hybrid(c)
        cover.append(tuple(c["interval"]))
    ends = sorted(cover, key=lambda ab: float(fmpq(*map(int, ab[0].split("/"))) if "/" in ab[0] else 0))
    assert ends[0][0] == "0" and ends[-1][1] == "1/2"
    assert all(x[1] == y[0] for x, y in zip(ends, ends[1:]))
    with open("results/conjecture9.json") as fh:
        exact = json.load(fh)
    assert exact["fails_for"] == [] and exact["k"] == [1, 64]


def test_committed_fairness_enclosures_contain_the_exact_thresholds():
    with open("results/fairness.json") as fh:
        exact = {r["k"]: r for r in json.load(fh)["results"]}
    import os

    seen = 0
    for k, e in exact.items():
        path = f"results/certificates/hybrid_fairness_k{k}.json"
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            c = json.load(fh)
        assert c["exists"] == e["exists"], k
        if e["exists"]:
            lo, hi = (Fraction(x) for x in c["p0"])
            # the exact p0 is within 10^-20 of its 20-digit decimal; the enclosure must hold that whole interval
            d = Fraction(e["p0"]["decimal"])
            assert lo <= d - Fraction(1, 10**20) and d + Fraction(1, 10**20) <= hi, k
        seen += 1
    assert seen >= 40
