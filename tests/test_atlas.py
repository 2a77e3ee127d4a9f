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


def test_atlas_fills_the_cache_and_a_second_run_reads_it(tmp_path, monkeypatch):
    import symbolic_noise.solvers.piecewise as engine

    cache = tmp_path / "c.sqlite"
    assert main(["atlas", "nim", "--k", "1..8", "--cache", str(cache), "-o", str(tmp_path / "a.png")]) == 0
    from symbolic_noise import Nim
    from symbolic_noise.games.channels import get_channel
    from symbolic_noise.solvers.storage.cache import SolutionCache

    store = SolutionCache(str(cache), Nim(8), get_channel("binary"), (0, 1))
    try:  # every heap with a move was saved
        assert all(store.load(k) is not None for k in range(1, 9))
    finally:
        store.close()

    def no_solve(*args, **kwargs):
        raise AssertionError("the second run must read the cache, not solve")

    monkeypatch.setattr(engine, "solve", no_solve)
    assert main(["atlas", "nim", "--k", "1..8", "--cache", str(cache), "-o", str(tmp_path / "b.png")]) == 0
    with pytest.raises(AssertionError, match="must read the cache"):
        main(["atlas", "nim", "--k", "1..8", "--no-cache", "-o", str(tmp_path / "c.png")])


def test_atlas_cache_path_errors_are_one_line(capsys, tmp_path):
    assert main(["atlas", "nim", "--k", "1..3", "--cache", str(tmp_path / "missing" / "c.db"), "-o", "x.png"]) == 2
    err = capsys.readouterr().err
    assert "cannot open the cache" in err and err.count("\n") == 1


def test_atlas_progress_is_quiet_off_a_terminal(capsys, tmp_path):
    assert main(["atlas", "nim", "--k", "1..6", "--no-cache", "-o", str(tmp_path / "a.png")]) == 0
    assert capsys.readouterr().err == ""


def test_atlas_hands_progress_to_the_solve(monkeypatch, tmp_path):
    import sys

    from symbolic_noise.io import cli

    seen = []

    class Recorder(cli._ProgressBar):
        def __call__(self, info, total=None):
            seen.append(info.done)

    monkeypatch.setattr(cli, "_ProgressBar", Recorder)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["atlas", "nim", "--k", "1..6", "--no-cache", "-o", str(tmp_path / "a.png")]) == 0
    assert seen and max(seen) >= 6
