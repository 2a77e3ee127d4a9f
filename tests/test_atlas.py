"""The atlas command and its families: files written in every format, exact
rows, one-line errors with exit status 2."""

from pathlib import Path

import pytest

from symbolic_noise.io.atlas import family_values
from symbolic_noise.io.cli import main


@pytest.mark.parametrize("suffix, magic", [("png", b"\x89PNG"), ("pdf", b"%PDF"), ("svg", b"<?xml")])
def test_atlas_command_writes_the_file(tmp_path, suffix, magic):
    out = tmp_path / f"atlas.{suffix}"
    assert main(["atlas", "nim", "--k", "1..6", "-o", str(out)]) == 0
    assert Path(out).read_bytes().startswith(magic)


def test_atlas_command_for_chomp_and_heap_games(tmp_path):
    assert main(["atlas", "chomp", "2", "--k", "1..3", "-o", str(tmp_path / "c.png"), "--no-shade"]) == 0
    assert main(["atlas", "subtraction:1,2,3", "--k", "1..5", "--channel", "binary", "-o", str(tmp_path / "s.png")]) == 0


@pytest.mark.parametrize("argv, message", [
    (["atlas", "nim", "--k", "five", "-o", "x.png"], "--k takes a range like 1..64"),
    (["atlas", "chess", "--k", "1..3", "-o", "x.png"], "unknown game 'chess'"),
    (["atlas", "chomp", "2", "--k", "0..3", "-o", "x.png"], "at least one row and one column"),
    (["atlas", "nim", "--k", "1..3", "--channel", "nosuch", "-o", "x.png"], "nosuch"),
])
def test_atlas_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("symbolic-noise: error:") and message in err and err.count("\n") == 1


def test_family_rows_are_the_solver_values():
    from symbolic_noise import Nim, solve

    rows = dict(family_values("nim", [3, 5]))
    sol = solve(Nim(5), "binary")
    assert rows[5].formulas == sol.value(5).formulas and rows[3].points == sol.value(3).points
    assert [sorted(s) for s in rows[5].labels] == [[0], [3], [4]]
