"""Periodicity certificates: the checker recomputes the values from the code
alone, accepts true claims (Kayles, Dawson's chess, .16, .56) and rejects every
altered field; ``grundy --certificate`` and ``verify`` on the command line."""

import copy
import json

import pytest

from symbolic_noise.analysis.periodcert import FORMAT, periodicity_certificate, verify_periodicity
from symbolic_noise.errors import VerificationError
from symbolic_noise.io.cli import main


@pytest.fixture(scope="module")
def chess():
    return periodicity_certificate("0.137")


@pytest.mark.parametrize("code,claim", [
    ("0.77", (71, 12, 167)), ("0.137", (52, 34, 174)), ("0.16", (105351, 149459, 509621)), ("0.56", (326640, 144, 653569)),
])
def test_true_claims_are_verified(code, claim):
    cert = periodicity_certificate(code)
    assert (cert["preperiod"], cert["period"], cert["needed"]) == claim and cert["format"] == FORMAT
    assert verify_periodicity(cert) == f"octal:{code} has period {claim[1]} from n = {claim[0]} (G(0..{claim[2]}) recomputed)"


def test_the_mask_is_only_a_hint(chess):
    for mask in (0, 1, 5, 2**19):
        assert verify_periodicity(dict(chess, mask=mask)).startswith("octal:0.137 has period 34")


def altered(cert, **changes):
    out = copy.deepcopy(cert)
    out.update(changes)
    return out


@pytest.mark.parametrize("change,needle", [
    ({"preperiod": 51}, "window"),
    ({"preperiod": 53}, "theorem needs G up to 176"),
    ({"period": 68}, "theorem needs G up to 242"),
    ({"needed": 173}, "theorem needs G up to 174"),
    ({"sha256": "0" * 64}, "SHA-256"),
    ({"game": "octal:0.07"}, "not the rule"),
    ({"game": "grundy"}, "octal:CODE"),
    ({"rule": {"whole": [], "take": [1], "split": [3], "equal_ok": True}}, "not the rule"),
    ({"format": "symbolic-noise.periodicity/0"}, "not a"),
    ({"period": True}, "non-negative integer"),
    ({"needed": 10**12}, "out of range"),
])
def test_altered_claims_are_rejected(chess, change, needle):
    with pytest.raises(VerificationError, match=needle):
        verify_periodicity(altered(chess, **change))


def test_a_period_that_is_not_least_or_a_preperiod_that_is_not_least(chess):
    # period 68 with its own window and hash: true, but not least
    n = 2 * 52 + 2 * 68 + 2
    with pytest.raises(VerificationError, match="not least: 34"):
        verify_periodicity(altered(chess, period=68, needed=n, window=list(chess["window"]) * 2, sha256=_sha(n)))
    n = 2 * 60 + 2 * 34 + 2
    with pytest.raises(VerificationError, match="preperiod is not least"):
        verify_periodicity(altered(chess, preperiod=60, needed=n, window=_window(60, 34), sha256=_sha(n)))


def _values(n):
    from symbolic_noise.games.classical import nim_sequence

    return nim_sequence("0.137", n)


def _window(i, p):
    return list(_values(i + p)[i : i + p])


def _sha(n):
    import hashlib

    import numpy as np

    return hashlib.sha256(np.asarray(_values(n), dtype="<u4").tobytes()).hexdigest()


def test_cli_writes_and_verifies_a_certificate(capsys, tmp_path):
    path = tmp_path / "kayles.json"
    assert main(["grundy", "kayles", "--until-proven", "--quiet", "--certificate", str(path)]) == 0
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out == "verified: octal:0.77 has period 12 from n = 71 (G(0..167) recomputed)\n"
    data = json.loads(path.read_text())
    data["window"][0] ^= 1
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"REJECTED {path}: the window G(71..82)")
