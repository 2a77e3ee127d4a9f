"""Shared-box fairness certificates: the binary64 interval enclosures hold the
exact values, one certificate carries the thresholds of a batch of heaps, it
re-verifies from its JSON alone, tampered copies are rejected, and the
enclosures hold the exact thresholds where those are known (k <= 64)."""

import glob
import json
import random
from fractions import Fraction

import pytest
from flint import fmpq

from symbolic_noise import Nim
from symbolic_noise.errors import VerificationError
from symbolic_noise.io.cli import main
from symbolic_noise.solvers.onepoint.fastpoint import point_solve
from symbolic_noise.solvers.boxes.floatbox import enclose_many, q_down, q_up
from symbolic_noise.solvers.boxes.hybrid import enclose
from symbolic_noise.analysis.hybrid.fairness import shared_certificate, verify_shared
from symbolic_noise.analysis.hybrid.certificates import verify_hybrid

BOXES = [(fmpq(1, 5), fmpq(1, 4)), (fmpq(7, 16), fmpq(1, 2)), (fmpq(1, 2), fmpq(9, 16)),
         (fmpq(3, 4), fmpq(13, 16)), (fmpq(15, 16), fmpq(1)), (fmpq(1), fmpq(1)), (fmpq(1, 2), fmpq(1, 2)),
         (fmpq(1, 64), fmpq(1, 32))]


def test_float_intervals_hold_every_exact_value():
    K = 14
    lo, hi = enclose_many(K, BOXES, block=3)
    rng = random.Random(3)
    for i, (a, b) in enumerate(BOXES):
        for p in [a, b] + [a + (b - a) * fmpq(rng.randrange(1, 40), 40) for _ in range(3)]:
            exact = point_solve(Nim(K), "binary", p, all_positions=True)
            for j in range(1, K + 1):
                v = Fraction(int(exact[j].value.p), int(exact[j].value.q))
                assert Fraction(lo[i, j]) <= v <= Fraction(hi[i, j]), (i, j, p)


def test_float_intervals_are_as_tight_as_the_arb_balls():
    a, b = fmpq(3, 5), fmpq(3, 5) + fmpq(1, 2**12)
    lo, hi = enclose_many(40, [(a, b)])
    ball = enclose(40, a, b).value[40]
    assert float(hi[0, 40] - lo[0, 40]) <= 1.001 * float(2 * ball.rad())


def test_outward_rounding_of_rationals():
    for q in (fmpq(1, 3), fmpq(-2, 7), fmpq(1, 2), fmpq(10**20 + 1, 10**20)):
        assert Fraction(q_down(q)) <= Fraction(int(q.p), int(q.q)) <= Fraction(q_up(q))
    assert q_down(fmpq(1, 2)) == q_up(fmpq(1, 2)) == 0.5


def test_boxes_outside_the_range_are_refused():
    with pytest.raises(ValueError):
        enclose_many(5, [(fmpq(1, 100), fmpq(1, 50))])
    with pytest.raises(ValueError):
        enclose_many(5, [(fmpq(1, 4), fmpq(3, 4))])


@pytest.fixture(scope="module")
def shared():
    # tol 2^-16: fine enough that some heaps refine locally below the shared boxes (the tampering tests need one)
    return shared_certificate(18, 22, tol=fmpq(1, 2**16))


def test_shared_certificate_verifies_and_holds_the_exact_thresholds(shared):
    assert verify_hybrid(json.loads(json.dumps(shared))) is True
    with open("results/fairness.json") as fh:
        exact = {r["k"]: r for r in json.load(fh)["results"]}
    assert [h["k"] for h in shared["heaps"]] == list(range(18, 23)) and not shared["undecided"]
    for h in shared["heaps"]:
        e = exact[h["k"]]
        assert h["exists"] == e["exists"]
        lo, hi = (Fraction(x) for x in h["p0"])
        d = Fraction(e["p0"]["decimal"])
        assert lo <= d - Fraction(1, 10**20) and d + Fraction(1, 10**20) <= hi and hi - lo <= Fraction(1, 2**12)


def test_heaps_without_a_threshold_are_listed():
    c = shared_certificate(12, 14, tol=fmpq(1, 2**8))
    assert [h["exists"] for h in c["heaps"]] == [True, False, False]
    assert verify_shared(c)



def _first_local(c):
    return next(h for h in c["heaps"] if len(h["local_cuts"]) > 1)


TAMPER = {
    "a shared bound at eps": lambda c: c["bounds"].__setitem__(-1, "1/100"),
    "a shared bound the intervals do not imply": lambda c: c["bounds"].__setitem__(-1, "1/16777216"),
    "a bound that is no short dyadic": lambda c: c["bounds"].__setitem__(-1, "1/300"),
    "a local bound the intervals do not imply": lambda c: _first_local(c)["local_bounds"].__setitem__(0, "1/16777216"),
    "the failing point moved up": lambda c: c["heaps"][0].__setitem__("fails_at", c["heaps"][0]["p0"][1]),
    "the enclosure shrunk": lambda c: c["heaps"][0]["p0"].__setitem__(0, c["heaps"][0]["p0"][1]),
    "the upper end moved down": lambda c: c["heaps"][0]["p0"].__setitem__(1, c["heaps"][0]["local_cuts"][1]),
    "the last shared box removed": lambda c: (c["cuts"].pop(), c["bounds"].pop()),
    "a cut without its bound": lambda c: c["cuts"].pop(1),
    "a heap claims more shared boxes": lambda c: c["heaps"][0].__setitem__("shared_from", c["heaps"][0]["shared_from"] - 1),
    "a heap claims fewer shared boxes": lambda c: c["heaps"][0].__setitem__("shared_from", c["heaps"][0]["shared_from"] + 1),
    "N_k(1) edited": lambda c: c["heaps"][0].__setitem__("N_at_1", "1/3"),
    "a threshold denied": lambda c: c["heaps"][0].__setitem__("exists", False),
    "a heap outside the batch": lambda c: c["heaps"][-1].__setitem__("k", 99),
    "boxes below 1/64": lambda c: c["cuts"].__setitem__(0, "1/128"),
}


@pytest.mark.parametrize("name", sorted(TAMPER))
def test_tampered_shared_certificates_are_rejected(shared, name, tampered):
    with pytest.raises((VerificationError, ValueError, KeyError, IndexError)):
        verify_hybrid(tampered(shared, TAMPER[name]))


def test_cli_verifies_and_rejects_shared_files(shared, tmp_path, capsys, tampered):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(shared))
    bad.write_text(json.dumps(tampered(shared, TAMPER["a shared bound the intervals do not imply"])))
    assert main(["verify", str(good)]) == 0
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "verified fairness k = 18..22: 5 thresholds enclosed" in out and "REJECTED" in out


def test_committed_shared_certificates_are_consistent():
    """Each saved batch lists its heaps once, in its range, with enclosures of width
    <= 2^-16 that join its shared boxes (the full re-check: `symbolic-noise verify`)."""
    files = sorted(glob.glob("results/certificates/hybrid_fairness_shared_k*.json"))
    for f in files:
        with open(f) as fh:
            c = json.load(fh)
        k1, k2 = c["ks"]
        assert f.endswith(f"_k{k1}-{k2}.json")
        ks = [h["k"] for h in c["heaps"]] + [int(k) for k in c["undecided"]]
        assert sorted(ks) == list(range(k1, k2 + 1))
        for h in c["heaps"]:
            if h["exists"]:
                lo, hi = (Fraction(x) for x in h["p0"])
                assert 0 < hi - lo <= Fraction(1, 2**16) and h["local_cuts"][-1] == c["cuts"][h["shared_from"]]
