"""What the command line says when it is given too little or a misspelt word."""

import pytest
from flint import fmpq

from symbolic_noise import Nim, solve
from symbolic_noise.errors import GameParameterError, did_you_mean
from symbolic_noise.games import ExplicitGame
from symbolic_noise.io.cli import main


def test_a_bare_command_prints_its_usage(capsys):
    assert main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: symbolic-noise")
    for command in ("solve", "check", "verify", "grundy", "phase"):
        assert command in out


@pytest.mark.parametrize(
    "argv, meant",
    [
        (["slove", "nim", "3"], "'solve'"),
        (["solve", "nimm", "3"], "'nim'"),
        (["solve", "kayls", "5"], "'kayles'"),
        (["solve", "nim", "3", "--channel", "binnary"], "'binary'"),
        (["solve", "chomp", "2x2", "--channel", "kng"], "'king'"),
    ],
)
def test_a_misspelt_word_gets_a_suggestion_on_one_line(argv, meant, capsys):
    try:
        status = main(argv)
    except SystemExit as exc:  # (argparse's own errors exit)
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"did you mean {meant}?" in err


def test_no_suggestion_when_nothing_is_close():
    assert did_you_mean("zzzz", ["nim", "chomp"]) == ""
    assert did_you_mean("CHOMP", ["nim", "chomp"]) == " (did you mean 'chomp'?)"


def test_solve_names_what_it_needs_for_a_graph():
    networkx = pytest.importorskip("networkx")
    graph = networkx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    with pytest.raises(GameParameterError, match="ExplicitGame"):
        solve(graph, "uniform")
    # wrapped, it is a game: c is terminal (N = 0), b's one move reaches it (N = 1),
    # and from a the uniform channel delivers b or c evenly: N = (0 + 1)/2
    assert solve(ExplicitGame(graph, "a"), "uniform").value().formulas[0].constant_value() == fmpq(1, 2)
    assert solve(Nim(2), "binary").value().formulas[0].text() == "1 - p"
