"""Statements proved from a certified map (analysis/mapcert.py): the verdicts
agree with the exact method wherever the map decides (checked against the
exact piecewise solve, and at random intervals by hypothesis), a statement
the map cannot decide is reported not proved, and the command line's
``check --method map`` and ``verify`` work end to end."""

import json

import pytest
from flint import fmpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic_noise import solve
from symbolic_noise.analysis.certificates import StatementError, check
from symbolic_noise.analysis.mapcert import FORMAT, map_check, verify_map_document
from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.errors import VerificationError
from symbolic_noise.io.cli import main
from symbolic_noise.solvers.onepoint.fastpoint import point_solve

_SOLVED: dict = {}


def _exact(family, param, channel, misere=False):
    key = (family, param, channel, misere)
    if key not in _SOLVED:
        _SOLVED[key] = solve(game_from_spec(family, param), channel, misere=misere)
    return _SOLVED[key]


#: (family, param, channel, misère, statement, the map must decide it)
CASES = [
    ("nim", "8", "binary", False, "N >= 2/5 on [0, 1]", True),
    ("nim", "8", "binary", False, "N <= 9/10 on [1/5, 4/5]", True),
    ("nim", "8", "binary", False, "optimal 0 on [0, 1/2]", True),
    ("nim", "8", "binary", False, "optimal-set {0} on [1/10, 2/5]", True),
    ("nim", "8", "binary", False, "optimal 7 on [3/5, 9/10]", True),
    ("nim", "8", "binary", False, "optimal-set {7} on [3/5, 1]", True),
    ("nim", "8", "binary", False, "N <= 1/2 on [1/2, 1]", True),
    ("nim", "8", "binary", False, "optimal 0 on [1/2, 1/2]", True),
    ("nim", "8", "binary", False, "|2N-1| < 1/2 on [1/4, 3/4]", True),
    ("nim", "6", "binary", True, "optimal 0 on [0, 1/3]", True),
    ("chomp", "3x3", "king", False, "optimal (3,3) on [1/2, 1]", True),
    ("chomp", "3x3", "king", False, "N >= 1/3 on [0, 1]", True),
    ("chomp", "3x3", "king", False, "N >= 1/4 on [0, 1]", True),
    ("chomp", "3x3", "king", False, "optimal-set {(1,2), (2,1)} on [0, 1/10]", True),
    ("chomp", "3x3", "king", False, "optimal (2,2) on [0, 1]", True),
    ("chomp", "2x2", "king", False, "optimal (2,2) on [1/3, 1]", True),
    ("chomp", "2x2", "king", False, "optimal-set {(1,2), (2,1)} on [0, 1/3]", True),
    ("chomp", "2x2", "king", False, "N >= 1/3 on [0, 1]", True),  # N touches 1/3 at the exact crossing
    ("chomp", "2x2", "king", False, "N <= 1/2 on [0, 1/3]", True),
    ("nim", "8", "binary", False, "N >= 1/2 on [0, 1/2]", True),  # N touches 1/2 at the tie point
    ("subtraction:1,2,3", "7", "binary", False, "N >= 1/2 on [0, 1/2]", True),
    ("subtraction:1,2,3", "7", "binary", False, "optimal 7->4 on [0, 1/4]", True),
    ("subtraction:1,2,3", "7", "binary", False, "optimal 7->5 on [1/3, 2/3]", True),
    ("subtraction:1,2,3", "7", "binary", False, "N <= 1 on [0, 1]", True),
]


@pytest.mark.parametrize("family, param, channel, misere, statement, decides", CASES,
                         ids=[f"{c[0]} {c[1]} {c[4]}{' misere' if c[3] else ''}" for c in CASES])
def test_the_map_agrees_with_the_exact_method(family, param, channel, misere, statement, decides):
    cert = map_check(game_from_spec(family, param), channel, statement, misere=misere)
    exact = check(_exact(family, param, channel, misere), statement)
    assert (cert.verdict is not None) == decides, cert.reason
    if cert.verdict is None:
        assert cert.reason and "\n" not in cert.reason
        return
    assert cert.holds == exact.holds
    again = verify_map_document(json.loads(json.dumps(cert.to_json())))
    assert [v.verdict for v in again] == [cert.verdict]
    if cert.verdict == "fails":  # the counterexample is exact: the statement is false there
        p = cert.counterexample
        assert cert.statement.lo <= p <= cert.statement.hi
        assert not check(_exact(family, param, channel, misere), f"{statement.split(' on ')[0]} on [{p}, {p}]").holds


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.integers(0, 40), w=st.integers(1, 20), kind=st.sampled_from(["ge", "le", "optimal", "set"]),
       x=st.integers(0, 5))
def test_random_statements_on_nim_6_agree_with_the_exact_solve(a, w, kind, x):
    lo, hi = fmpq(a, 40), min(fmpq(1), fmpq(a + w, 40))
    text = {"ge": f"N >= {fmpq(x, 8)}", "le": f"N <= {fmpq(x + 3, 8)}", "optimal": f"optimal {x}",
            "set": f"optimal-set {{{x}}}"}[kind] + f" on [{lo}, {hi}]"
    cert = map_check(game_from_spec("nim", "6"), "binary", text, width="2^-20")
    if cert.verdict is not None:
        assert cert.holds == check(_exact("nim", "6", "binary"), text).holds, text


def test_the_units_cover_the_interval_in_order():
    cert = map_check(game_from_spec("chomp", "3x3"), "king", "N >= 1/4 on [0, 1]")
    ends = [(u[1], u[2]) for u in cert.units]
    assert ends[0][0] == 0 and ends[-1][1] == 1
    assert all(x[1] == y[0] for x, y in zip(ends, ends[1:]))
    assert {u[0] for u in cert.units} >= {"class", "crossing"}
    # each crossing's change interval holds the exact breakpoint of the exact solve
    f = _exact("chomp", "3x3", "king").value()
    for u in cert.units:
        if u[0] == "crossing":
            lo, hi = u[5], u[6]
            assert any(lo < fmpq(x.lo) and fmpq(x.hi) < hi or (x.is_rational and lo < x.lo < hi) for x in f.points), u
            for p, side in ((u[1], u[3]), (u[2], u[4])):
                assert point_solve(game_from_spec("chomp", "3x3"), "king", p).optimal == side


def test_undecided_and_unreadable_statements():
    game = game_from_spec("nim", "8")
    tight = map_check(game, "binary", "optimal 0 on [0, 1/2]", budget=3)
    assert tight.verdict is None and "undecided" in tight.reason
    with pytest.raises(StatementError, match="not a move"):
        map_check(game, "binary", "optimal 9 on [0, 1/2]")
    with pytest.raises(StatementError):
        tight.to_json()


def _run(capsys, argv):
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_check_by_map_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "c.json"
    status, out, _ = _run(capsys, ["check", "nim", "8", "optimal 0 on [0, 1/2]", "--method", "map", "--out", str(path)])
    assert status == 0 and out.splitlines()[1].startswith("holds   optimal 0 on [0, 1/2]  (proved from a certified map")
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT and doc["meta"]["method"] == "map"
    status, out, _ = _run(capsys, ["verify", str(path)])
    assert status == 0 and out.startswith("verified: optimal 0 on [0, 1/2] holds at position 8 of nim 8")
    status, out, _ = _run(capsys, ["check", "nim", "5", "optimal 3 on [3/5, 4/5]", "--method", "map", "--out", str(path)])
    assert status == 1 and "FAILS" in out and "exact evaluation" in out
    assert _run(capsys, ["verify", str(path)])[0] == 0
    status, out, err = _run(capsys, ["check", "nim", "8", "optimal 0 on [0, 1/2]", "--method", "map", "--budget", "5",
                                     "--out", str(tmp_path / "none.json")])
    assert status == 3 and out.splitlines()[1].startswith("NOT PROVED") and "no certificate written" in err
    assert not (tmp_path / "none.json").exists()
    status, _, err = _run(capsys, ["check", "conjecture9", "--k", "1..3", "--method", "map"])
    assert status == 2 and err.count("\n") == 1
    status, _, err = _run(capsys, ["check", "nim", "4", "optimal 0 on [0, 1/4]", "--method", "map", "--interval", "0,1/2"])
    assert status == 2 and "--interval" in err and err.count("\n") == 1


def test_a_forged_file_is_rejected_on_one_line(tmp_path, capsys):
    path = tmp_path / "c.json"
    assert main(["check", "nim", "8", "optimal 0 on [0, 1/2]", "--method", "map", "--out", str(path)]) == 0
    doc = json.loads(path.read_text())
    doc["units"][0]["set"] = [1]
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    status, out, _ = _run(capsys, ["verify", str(path)])
    assert status == 1 and out.startswith("REJECTED") and out.count("\n") == 1 and "unit 0" in out


def test_verify_caps_the_size_of_a_map_certificate(tmp_path, capsys, monkeypatch):
    from symbolic_noise.io import cli_mapcert

    path = tmp_path / "c.json"
    assert main(["check", "nim", "4", "optimal 0 on [0, 1/4]", "--method", "map", "--out", str(path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(cli_mapcert, "MAX_MAP_CERTIFICATE_CHARS", 100)
    status, _, err = _run(capsys, ["verify", str(path)])
    assert status == 2 and "cap" in err and err.count("\n") == 1


def test_verify_caps_the_work_a_map_certificate_causes(tmp_path, capsys):
    """A certificate whose re-proof is estimated above the cap is refused
    before any unit is re-proved, on one line naming the option that allows it;
    allowed, it verifies."""
    from symbolic_noise.analysis import mapcert

    path = tmp_path / "c.json"
    assert main(["check", "nim", "6", "N >= 2/5 on [0, 1]", "--method", "map", "--out", str(path)]) == 0
    capsys.readouterr()
    doc = json.loads(path.read_text())
    est = mapcert.estimate_seconds(len(doc["units"]), 1, 1)
    assert est > 0
    calls = []
    with pytest.raises(VerificationError, match="--max-seconds"):
        verify_map_document(doc, max_seconds=1e-9, progress=lambda *a: calls.append(a))
    assert calls == []  # refused before the first unit
    assert verify_map_document(doc, max_seconds=10_000)[0].verdict == "holds"
    status, out, _ = _run(capsys, ["verify", str(path), "--max-seconds", "1000"])
    assert status == 0 and out.startswith("verified")
