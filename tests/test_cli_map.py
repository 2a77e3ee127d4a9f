"""``symbolic-noise map``: output, provenance, exit statuses, one-line errors."""

from __future__ import annotations

import json

import pytest
from flint import fmpq

from symbolic_noise.io.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_names_the_change_at_one_half(capsys):
    code, out, _ = run(capsys, "map", "nim", "3", "--width", "2^-30")
    assert code == 0
    assert out.startswith("# game: 1-pile Nim, k = 3 (nim 3)")
    assert "# method: map" in out
    assert "0 -> 0, 1, 2 -> 1 at p = 1/2" in out


def test_json_is_exact_and_carries_the_provenance(capsys):
    code, out, _ = run(capsys, "map", "chomp", "2x2", "--format", "json", "--width", "1/1000")
    data = json.loads(out)
    assert code == 0 and data["meta"]["method"] == "map" and data["meta"]["channel"]["name"] == "king"
    (change,) = [iv for iv in data["intervals"] if iv["kind"] == "change"]
    assert fmpq(change["lo"]) < fmpq(1, 3) < fmpq(change["hi"])        # N = max{p, (1-p)/2}
    assert fmpq(change["hi"]) - fmpq(change["lo"]) <= fmpq(1, 1000)
    assert change["at"] == [[1, 2], [2, 1], [2, 2]]


def test_misere_position_and_interval(capsys):
    code, out, _ = run(capsys, "map", "nim", "6", "--position", "3", "--interval", "1/4,3/4", "--misere",
                       "--no-header", "--width", "2^-20")
    assert code == 0
    assert "k = 6, position 3" in out and "misère" in out and "p in [1/4, 3/4]" in out


def test_an_exhausted_budget_exits_1_and_says_undecided(capsys):
    code, out, _ = run(capsys, "map", "nim", "9", "--budget", "5", "--no-header")
    assert code == 1
    assert "undecided" in out and "nothing claimed" in out


def test_the_plot_is_written(tmp_path, capsys):
    path = tmp_path / "m.png"
    code, _, _ = run(capsys, "map", "nim", "4", "--plot", str(path), "--width", "2^-20")
    assert code == 0 and path.stat().st_size > 1000


@pytest.mark.parametrize("argv, message", [
    (["map", "nim", "3", "--width", "0"], "width must be positive"),
    (["map", "nim", "3", "--width", "2^x"], "not a number"),
    (["map", "nim", "3", "--interval", "1/2,1/4"], "must satisfy"),
    (["map", "nim", "3", "--budget", "0"], "--budget must be between"),
    (["map", "nim", "3", "--channel", "king"], "Chomp"),
    (["map", "chess", "3"], "unknown game"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    _, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_progress_reports_the_settled_share_of_the_interval():
    from symbolic_noise import Nim
    from symbolic_noise.solvers.maps import build_map

    seen = []
    build_map(Nim(5), "binary", width="2^-20", progress=lambda done, total: seen.append((done, total)))
    assert seen and all(t == 1000 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1][0] == 1000  # the whole of [0, 1], once


@pytest.mark.parametrize("width", ["2^٤٠", "2^-1_0", "2^", "2^--3"])
def test_widths_are_read_in_ascii_digits_only(capsys, width):
    assert main(["map", "nim", "3", "--width", width, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a number" in err
