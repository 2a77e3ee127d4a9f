"""A result says what it is: the JSON report's provenance record and the text
header name the game, position, channel (and what its p means), misère play,
the strategies, the interval, the method and the version."""

import json

import pytest

from symbolic_noise import __version__
from symbolic_noise.io.cli import main


def run(capsys, *argv):
    assert main(list(argv) + ["--no-cache"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("argv, family, param, channel, means, misere", [
    (["solve", "nim", "5", "--misere", "--format", "json"], "nim", "5", "binary", "flips", True),
    (["solve", "chomp", "2x3", "--format", "json"], "chomp", "2x3", "king", "intended square", False),
    (["solve", "kayles", "4", "--format", "json"], "octal:0.77", "4", "binary", "flips", False),
    (["solve", "nim", "4", "--channel", "tremble", "--interval", "0,1/2", "--format", "json"], "nim", "4", "tremble", "random", False),
])
def test_json_names_what_was_solved(capsys, argv, family, param, channel, means, misere):
    data = json.loads(run(capsys, *argv))
    assert data["format"] == "symbolic-noise.solution/2"
    meta = data["meta"]
    assert meta["game"]["family"] == family and meta["game"]["param"] == param
    assert meta["channel"]["name"] == channel and means in meta["channel"]["p"]
    assert meta["misere"] is misere and meta["method"] == "piecewise"
    assert meta["software"] == f"symbolic_noise {__version__}"
    assert meta["interval"] == (["0", "1/2"] if "--interval" in argv else ["0", "1"])


def test_players_and_strategies_are_named(capsys):
    meta = json.loads(run(capsys, "solve", "nim", "4", "--strategy", "classical", "--opponent-channel", "binary@1/10",
                          "--format", "json"))["meta"]
    assert meta["strategies"] == ["classical", "optimal"]
    assert meta["channel"]["name"] == "binary" and meta["opponent_channel"]["name"] == "binary@1/10"
    assert "fixed" in meta["opponent_channel"]["p"]


def test_the_text_header_says_misere(capsys):
    first = run(capsys, "solve", "nim", "3", "--misere").splitlines()[0]
    assert first == "N(p) for 1-pile Nim, k = 3, binary channel, misère play, p in [0, 1]"
    assert "misère" not in run(capsys, "solve", "nim", "3").splitlines()[0]


@pytest.mark.parametrize("extra, method", [([], "pointwise-exact"), (["--method", "pointwise"], "pointwise-ball")])
def test_answers_at_one_p_name_what_they_answer(capsys, extra, method):
    line = run(capsys, "solve", "chomp", "3x3", "--at", "1/10", *extra)
    assert line.rstrip().endswith("[Chomp, 3 x 3 bar, king channel]")
    meta = json.loads(run(capsys, "solve", "chomp", "3x3", "--at", "1/10", "--misere", "--format", "json", *extra))["meta"]
    assert meta["game"] == {"family": "chomp", "param": "3x3", "description": "Chomp, 3 x 3 bar"}
    assert meta["misere"] is True and meta["interval"] == ["1/10", "1/10"]
    assert meta["method"] in (method, "ball", "exact")


@pytest.mark.parametrize("method", ["piecewise", "pointwise"])
def test_csv_tables_start_with_the_provenance_and_keep_their_columns(capsys, method):
    out = run(capsys, "table", "chomp", "2x3", "--channel", "rook", "--step", "0.5", "--misere", "--method", method)
    comments = [line for line in out.splitlines() if line.startswith("# ")]
    assert "# game: Chomp, 2 x 3 bar (chomp 2x3)" in comments and "# misere: yes" in comments
    assert any(line.startswith("# channel: rook (p is the chance of hitting the intended square)") for line in comments)
    assert out.splitlines()[len(comments)] == "board,p,N,optimal,method"


def test_figures_carry_the_provenance_in_their_metadata(capsys, tmp_path):
    from PIL import Image

    png, svg, pdf = (tmp_path / f"n.{x}" for x in ("png", "svg", "pdf"))
    for path in (png, svg, pdf):
        assert main(["plot", "nim", "4", "--misere", "-o", str(path), "--no-cache"]) == 0
    text = Image.open(png).text
    assert text["Title"] == "1-pile Nim, k = 4, binary channel" and "misere: yes" in text["Description"]
    assert "1-pile Nim, k = 4, binary channel" in svg.read_text() and "misere: yes" in svg.read_text()
    assert b"misere: yes" in pdf.read_bytes() and __version__.encode() in pdf.read_bytes()


def test_latex_comments_carry_the_provenance(capsys):
    out = run(capsys, "solve", "chomp", "2x2", "--format", "latex", "--misere")
    comments = [line for line in out.splitlines() if line.startswith("% ")]
    assert "% game: Chomp, 2 x 2 bar (chomp 2x2)" in comments and "% misere: yes" in comments
    assert any(line.startswith("% software: symbolic_noise ") for line in comments)


def test_phase_diagrams_name_both_players_and_the_method(capsys):
    meta = json.loads(run_plain(capsys, "phase", "chomp", "2x2", "--opponent-channel", "king@q", "--format", "json",
                                "--method", "cad"))["meta"]
    assert meta["method"] == "phase: cad" and meta["game"]["family"] == "chomp"
    assert meta["channel"]["p"].startswith("p is") and meta["opponent_channel"]["p"].startswith("q is")


def run_plain(capsys, *argv):
    """A command that takes no cache option."""
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_summary_reports_have_no_formulas_but_every_piece_and_breakpoint(capsys):
    from symbolic_noise import Nim, solve

    out = run(capsys, "solve", "nim", "10", "--format", "summary")
    f = solve(Nim(10), "binary").value()
    assert out.splitlines()[0] == "N(p) for 1-pile Nim, k = 10, binary channel, p in [0, 1]"
    assert f"{len(f.formulas)} pieces, {len(f.points) - 2} breakpoints" in out
    assert "N = (" not in out and out.count("degree ") == len(f.formulas) + 1


def test_atlas_titles_name_the_channel(tmp_path, monkeypatch):
    from symbolic_noise.io import atlas as atlas_module

    titles = []
    draw = atlas_module.atlas
    monkeypatch.setattr(atlas_module, "atlas", lambda rows, **options: titles.append(options["title"]) or draw(rows, **options))
    assert main(["atlas", "subtraction:1,2,3", "--k", "1..4", "-o", str(tmp_path / "a.png")]) == 0
    assert main(["atlas", "chomp", "--k", "1..3", "--misere", "-o", str(tmp_path / "b.png")]) == 0
    assert titles == ["optimal moves of subtraction:1,2,3, binary channel, normal play, k = 1..4",
                      "optimal moves of Chomp, 2 x k bars, king channel, misère play, k = 1..3"]


def test_every_result_type_has_a_rich_display():
    """Notebook displays of the results that had none: answers at one p (exact
    and ball), the value of knowing p, and chance-game verdicts."""
    from symbolic_noise import Nim
    from symbolic_noise.analysis.chance import chance_report
    from symbolic_noise.analysis.knowing import value_of_knowing
    from symbolic_noise.solvers.onepoint.fastpoint import point_solve

    exact = point_solve(Nim(3), "binary", "1/4")._repr_html_()
    assert ">13/20<" in exact and ">0<" in exact and ">exact<" in exact  # N_3(1/4) = 13/20, move 0
    k = value_of_knowing(Nim(4), "binary")
    html = k._repr_html_()
    assert k.maximum.exact_str() == "1/2" and ">1/2<" in html and "Delta(p)" in html
    verdict = chance_report(Nim(4), "binary")._repr_html_()
    assert verdict.startswith("<pre>") and "a chance game" in verdict
