"""Chance games: the exact verdicts of symbolic_noise.analysis.chance against the
pointwise solver at rational p and against Corollary 8."""

import random

import pytest
from flint import fmpq

from symbolic_noise import evaluate
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.analysis.chance import chance_report, forced_positions, lemma7_status, parse_interval
from symbolic_noise.io.cli import main
from symbolic_noise.errors import IntervalError
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.games.heapgames import HeapGame, MultiNim, heap_rules_from_spec

CASES = [
    (Nim(5), "binary"), (Nim(5), "tremble"), (Nim(4), "z"), (Nim(5), "uniform"),
    (Chomp(2, 3), "king"), (Chomp(3, 3), "rook"), (Chomp(2, 4), "chebyshev"),
    (MultiNim((1, 2, 3)), "uniform"), (HeapGame(heap_rules_from_spec("kayles"), (5,)), "uniform"),
]


def sample_points(iv, n, rng):
    out = []
    while len(out) < n:
        x = iv.a + (iv.b - iv.a) * fmpq(rng.randrange(0, 64), 63)
        if (x == iv.a and iv.open_left) or (x == iv.b and iv.open_right):
            continue
        out.append(x)
    return out


@pytest.mark.parametrize("game,channel", CASES)
@pytest.mark.parametrize("interval", ["(0,1)", "[0,1/2]", "(1/3,1]"])
def test_verdict_against_pointwise_values(game, channel, interval):
    rep = chance_report(game, channel, interval)
    rng = random.Random(hash((repr(game), channel, interval)) & 0xFFFF)
    failing = {w.position for w in rep.failures}
    for x in sample_points(rep.interval, 6, rng):
        point = evaluate(game, channel, x)
        for v, sol in point.items():
            if v in rep.forced:
                assert sol.value == rep.forced[v]
            elif v not in failing:
                assert 0 < sol.value < 1, (v, x)
    for w in rep.failures:
        p = w.p.rational_value if isinstance(w.p, RealAlgebraic) else w.p
        if p is not None:  # a rational witness: the pointwise solver must agree
            assert evaluate(game, channel, p)[w.position].value == w.value
        assert rep.interval.a <= (p if p is not None else w.p.lo) <= rep.interval.b


def test_closed_ends_matter():
    assert chance_report(Nim(4), "binary", "(0,1)").holds
    rep = chance_report(Nim(4), "binary", "[0,1)")
    assert not rep.holds and rep.witness.p == 0 and rep.witness.value == 1
    rep = chance_report(Nim(4), "binary", "(0,1]")
    assert not rep.holds and rep.witness.p == 1


def test_z_channel_is_never_a_chance_game_for_nim():
    # sending 0 (code 0) is never corrupted, so N_k = 1 identically
    rep = chance_report(Nim(3), "z", "(0,1)")
    assert not rep.holds and not rep.start_holds
    assert rep.witness.value == 1 and rep.witness.piece is not None


def test_corollary8_multinim_uniform():
    g = MultiNim((2, 2, 3))
    rep = chance_report(g, "uniform", "[0,1]")
    assert rep.holds and rep.half_at_every_chance_position
    assert all(all(h == 1 for h in v) and rep.forced[v] == len(v) % 2 for v in rep.forced)
    from symbolic_noise import solve

    assert lemma7_status(solve(g, "uniform"), "1/2")["hypothesis_holds"]


def test_forced_positions_are_forced_for_every_channel():
    g = Chomp(3, 3)
    forced = forced_positions(g)
    for channel in ["king", "rook", "all", "chebyshev", "uniform", "tremble"]:
        point = evaluate(g, channel, fmpq(2, 7))
        assert all(point[v].value == n for v, n in forced.items())


def test_parse_interval():
    iv = parse_interval("[1/4, 0.75)")
    assert (iv.a, iv.b, iv.open_left, iv.open_right) == (fmpq(1, 4), fmpq(3, 4), False, True)
    assert parse_interval("0,1").text() == "[0, 1]"
    for bad in ["(0,1", "0,1,2", "(1,0)", "[0,2]", "(a,b)"]:
        with pytest.raises(IntervalError):
            parse_interval(bad)


def test_cli_exit_codes(capsys):
    assert main(["chance", "nim", "4", "--channel", "binary"]) == 0
    assert main(["chance", "nim", "4", "--channel", "z", "--format", "json"]) == 1
    assert '"chance_game": false' in capsys.readouterr().out
    assert main(["chance", "nim", "4", "--interval", "(0,1"]) == 2
    assert "error: an interval" in capsys.readouterr().err


@pytest.mark.parametrize("game,channel", CASES)
def test_full_support_implies_a_chance_game(game, channel):
    from symbolic_noise.analysis.chance import full_support

    for interval in ["(0,1)", "[0,1]", "(0,1/2]"]:
        witness = full_support(game, channel, interval)
        rep = chance_report(game, channel, interval)
        assert rep.full_support == (witness is None)
        if witness is None:
            assert rep.holds
        else:  # the entry really vanishes there
            v, sent, received, p = witness
            if not isinstance(p, RealAlgebraic):
                from symbolic_noise import get_channel

                fs = game.followers(v)
                i = [game.move_label(v, w) for w in fs].index(sent)
                j = [game.move_label(v, w) for w in fs].index(received)
                assert get_channel(channel).rows(game, v).at(p)[i][j] == 0


def test_king_and_rook_lack_full_support_yet_small_boards_are_chance_games():
    from symbolic_noise.analysis.chance import full_support

    for channel in ["king", "rook"]:
        assert full_support(Chomp(3, 3), channel) is not None
        assert chance_report(Chomp(3, 3), channel).holds
