"""Certified grid rows (balls, exact fallback) against the piecewise solution,
and the command line's --at, --method and --position."""

import csv
import io
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import reports
from symbolic_noise.io.cli import main
from symbolic_noise.solvers.onepoint.fastpoint import point_solve
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.io.pointgrid import certified_row, choose_method, grid_rows
from symbolic_noise.solvers.onepoint.pointwise import evaluate
from symbolic_noise.exact.rounding import fixed
from symbolic_noise.solvers.piecewise import solve


def run(*args):
    return subprocess.run([sys.executable, "-m", "symbolic_noise.io.cli", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("k", range(4, 11))
def test_appendix_rows_identical_to_piecewise(k):
    points = reports.grid("0.01")
    sol = solve(Nim(k), "binary")
    expected = reports.table_rows(sol, points)
    got = grid_rows(Nim(k), "binary", points, 15)
    assert [(r.p, r.decimals, r.optimal) for r in got] == [(p, fixed(v, 15), opt) for p, v, opt in expected]
    # p = 1/2 is a tie of every move: only the exact engine may decide it
    assert got[50].method == "exact" and got[50].exact == Fraction(1, 2)


def test_exact_rows_are_exact_and_ball_rows_correct():
    rows = grid_rows(Chomp(3, 3), "king", [Fraction(i, 9) for i in range(10)], 20)
    sol = solve(Chomp(3, 3), "king")
    for r in rows:
        at = sol.at(fmpq(r.p.numerator, r.p.denominator))
        assert r.decimals == fixed(Fraction(int(at.value.p), int(at.value.q)), 20)
        assert set(r.optimal) == at.optimal
    assert all(r.method == "exact" for r in rows if len(r.optimal) > 1)  # ties: only exact decides
    tie = certified_row(Chomp(2, 2), "king", "1/3", 10)  # theory.md 3.2: all three moves tie
    assert tie.method == "exact" and tie.exact == Fraction(1, 3) and len(tie.optimal) == 3


@settings(max_examples=30)
@given(st.integers(1, 60), st.fractions(min_value=0, max_value=1, max_denominator=100), st.integers(1, 40), st.booleans())
def test_certified_rows_equal_exact(k, p, digits, misere):
    q = fmpq(p.numerator, p.denominator)
    row = certified_row(Nim(k), "binary", q, digits, misere=misere)
    exact = point_solve(Nim(k), "binary", q, misere=misere)
    assert row.decimals == fixed(Fraction(int(exact.value.p), int(exact.value.q)), digits)
    assert set(row.optimal) == exact.optimal
    assert row.method == "exact" or len(row.optimal) == 1


def test_digits_beyond_double_precision():
    r = certified_row(Nim(200), "binary", "3/10", 60)
    exact = point_solve(Nim(200), "binary", fmpq(3, 10)).value
    assert r.method == "ball" and r.decimals == fixed(Fraction(int(exact.p), int(exact.q)), 60)


def test_auto_method():
    assert choose_method("auto", Nim(10), None, False) == "piecewise"
    assert choose_method("auto", Nim(256), None, True) == "piecewise"
    assert choose_method("auto", Chomp(8, 8), None, False) == "pointwise"
    assert choose_method("pointwise", Nim(4), None, True) == "pointwise"


# --------------------------------------------------------------------------- command line


def test_cli_at_uses_fast_engine_and_keeps_the_contract(capsys):
    assert main(["solve", "nim", "64", "--at", "3/10", "--format", "json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    ref = evaluate(Nim(64), "binary", "3/10")[64]
    assert set(data) == {"format", "p", "value", "value_decimal", "optimal", "meta"} and data["format"] == "symbolic-noise.point/1"
    assert data["value"] == str(ref.value) and data["optimal"] == sorted(ref.optimal)
    assert data["value_decimal"] == fixed(Fraction(int(ref.value.p), int(ref.value.q)), 15)


def test_cli_at_piecewise_method_agrees(capsys):
    assert main(["solve", "chomp", "3x3", "--at", "1/3", "--method", "piecewise", "--no-cache"]) == 0
    piece = capsys.readouterr().out
    assert main(["solve", "chomp", "3x3", "--at", "1/3", "--no-cache"]) == 0
    assert capsys.readouterr().out == piece


def test_cli_table_methods(capsys):
    assert main(["table", "nim", "7", "--step", "0.05", "--no-cache"]) == 0
    piece = [row for row in csv.reader(io.StringIO(capsys.readouterr().out)) if not row[0].startswith("# ")]
    assert main(["table", "nim", "7", "--step", "0.05", "--method", "pointwise", "--no-cache"]) == 0
    point = [row for row in csv.reader(io.StringIO(capsys.readouterr().out)) if not row[0].startswith("# ")]
    assert point[0] == piece[0] == ["k", "p", "N", "optimal", "method"]  # the same columns either way
    assert [row[:4] for row in point] == [row[:4] for row in piece]
    assert {row[4] for row in point[1:]} == {"ball", "exact"} and {row[4] for row in piece[1:]} == {"exact"}
    assert main(["table", "nim", "7", "--step", "0.5", "--method", "pointwise", "--format", "json", "--no-cache"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "symbolic-noise.table/1" and doc["meta"]["method"] == "pointwise"
    rows = doc["rows"]
    assert rows[1]["N_exact"] == "1/2" and rows[1]["method"] == "exact" and rows[0]["method"] == "ball"
    assert main(["table", "nim", "7", "--step", "0.5", "--method", "pointwise", "--format", "text", "--no-cache"]) == 0
    assert "pointwise: 1 row certified by ball arithmetic, 2 computed exactly" in capsys.readouterr().out


def test_cli_plot_pointwise(tmp_path):
    out = tmp_path / "n.png"
    assert main(["plot", "chomp", "4x5", "--method", "pointwise", "--step", "0.1", "-o", str(out), "--no-cache"]) == 0
    assert out.stat().st_size > 0


def test_cli_constant_channel(capsys):
    assert main(["solve", "chomp", "2x5", "--channel", "uniform", "--format", "json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["pieces"]) == 1 and data["breakpoints"] == []
    assert data["pieces"][0]["value"] == str(evaluate(Chomp(2, 5), "uniform", 0)[(5, 5)].value)


@pytest.mark.parametrize(
    "args,message",
    [
        (["chomp", "2x3", "--position", "5,2"], "5,2 is not a position of the 2 x 3 bar: it has a bottom row of 5 squares"),
        (["chomp", "2x3", "--position", "3,4"], "3,4 is not a Chomp position: rows must not increase"),
        (["chomp", "2x3", "--position", "1,1,1"], "it has 3 rows"),
        (["chomp", "2x3", "--position", "3,0"], "row lengths must be positive"),
        (["chomp", "2x3", "--position", "a,b"], "a Chomp position is written as row lengths like 3,2"),
        (["nim", "5", "--position", "9"], "a heap of 9 chips is not a position of Nim with k = 5"),
        (["nim", "5", "--at", "3/2"], "p = 3/2 is outside [0, 1]"),
    ],
)
def test_bad_positions_one_line_exit_2(args, message):
    res = run("solve", *args, "--at", "1/3", "--no-cache") if "--at" not in args else run("solve", *args, "--no-cache")
    assert res.returncode == 2
    assert message in res.stderr and res.stderr.count("\n") == 1


def test_cli_too_many_grid_points():
    res = run("table", "nim", "100", "--step", "0.0000001", "--no-cache")
    assert res.returncode == 2 and "more than 100000 grid points" in res.stderr


def test_cli_at_certified_digits(capsys):
    assert main(["solve", "nim", "100", "--at", "3/10", "--method", "pointwise", "--digits", "40", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = point_solve(Nim(100), "binary", fmpq(3, 10)).value
    assert data["value_decimal"] == fixed(Fraction(int(exact.p), int(exact.q)), 40)
    assert data["method"] == "ball" and data["value"] is None and data["optimal"] == [0]
    assert main(["solve", "nim", "9", "--at", "1/2", "--method", "pointwise"]) == 0
    assert capsys.readouterr().out.startswith("N(1/2) = 0.500000000000000 (exactly 1/2)   optimal: 0, 1, 2, 3, 4, 5, 6, 7, 8")
