"""Two players, two channels, fixed strategies (theory.md, section 5): against an
independent exact evaluation at rational p, on random games."""

import json

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import given
from hypothesis import strategies as st

from symbolic_noise.exact.formula import parse_formula
from symbolic_noise import CustomChannel, ExplicitGame, InvalidStrategyError, RationalFunction, solve
from symbolic_noise.io.cli import main
from symbolic_noise.games.extra_channels import FixedChannel
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.solvers.twoplayer.players import get_strategy, solve_players, strategy_from_json

from conftest import random_graph

R = parse_formula  # a formula in p, read from text
BERNSTEIN = [fmpz_poly([1, -2, 1]), fmpz_poly([0, 2, -2]), fmpz_poly([0, 0, 1])]  # (1-p)^2, 2p(1-p), p^2


# --------------------------------------------------------------------------- the independent evaluator


def classical_choice(game, v, misere):
    """The classical strategy, re-derived: win/loss by plain backward induction."""
    win = {}
    for u in game.positions(v):
        fs = game.followers(u)
        win[u] = any(not win[w] for w in fs) if fs else misere
    fs = game.followers(v)
    for w in fs:
        if not win[w]:
            return w
    return fs[0]


def sent_weights(game, v, name, misere):
    fs = game.followers(v)
    if isinstance(name, dict):  # a pure table {position: follower}
        return {w: fmpq(int(w == name[v])) for w in fs}
    if name == "uniform":
        return {w: fmpq(1, len(fs)) for w in fs}
    if name == "classical":
        pick = classical_choice(game, v, misere)
        return {w: fmpq(int(w == pick)) for w in fs}
    return None


_ROWS: dict = {}  # psi per (channel, position), computed once (the channel object is kept alive)


def evaluate_players(game, channels, names, p, misere=False):
    """``{(v, i): (W, optimal-or-sent labels, {label: W(w)})}`` at one rational p,
    by backward induction over (position, player to move)."""
    out = {}
    for v in game.positions():
        fs = game.followers(v)
        for i in (1, 2):
            if not fs:
                out[(v, i)] = (fmpq(int(misere)), frozenset(), {})
                continue
            key = (id(channels[i - 1]), v)
            if key not in _ROWS:
                _ROWS[key] = (channels[i - 1], channels[i - 1].rows(game, v))
            psi = _ROWS[key][1].at(p)
            lose = [1 - out[(u, 3 - i)][0] for u in fs]
            moves = {w: sum((x * y for x, y in zip(row, lose)), fmpq(0)) for w, row in zip(fs, psi)}
            labels = {w: game.move_label(v, w) for w in fs}
            weights = sent_weights(game, v, names[i - 1], misere)
            if weights is None:
                top = max(moves.values())
                best = frozenset(labels[w] for w, x in moves.items() if x == top)
            else:
                top = sum((weights[w] * moves[w] for w in fs), fmpq(0))
                best = frozenset(labels[w] for w in fs if weights[w])
            out[(v, i)] = (top, best, {labels[w]: x for w, x in moves.items()})
    return out


@st.composite
def random_game(draw):
    graph = random_graph(draw)
    return ExplicitGame(graph, max(graph)), graph


def random_channel(draw, graph):
    """A valid channel: ratios of polynomials with non-negative Bernstein coefficients."""
    coeff = st.integers(0, 3)
    tables = {}
    for v, fs in graph.items():
        table = {}
        for w in fs:
            weights = [[draw(coeff) for _ in range(3)] for _ in fs]
            for k in range(3):
                if sum(c[k] for c in weights) == 0:
                    weights[draw(st.integers(0, len(fs) - 1))][k] = 1
            # exact RationalFunctions (no text to parse: fast)
            terms = [BERNSTEIN[0] * c[0] + BERNSTEIN[1] * c[1] + BERNSTEIN[2] * c[2] for c in weights]
            total = sum(terms[1:], terms[0])
            table[w] = {u: RationalFunction(t, total) for u, t in zip(fs, terms)}
        tables[v] = table
    return CustomChannel(tables, default="identity")


@st.composite
def two_player_setups(draw):
    game, graph = draw(random_game())
    first = random_channel(draw, graph)
    kind = draw(st.sampled_from(["same", "other", "identity", "tremble", "fixed"]))
    if kind == "same":
        second = first
    elif kind == "other":
        second = random_channel(draw, graph)
    elif kind == "fixed":
        q = draw(st.fractions(min_value=0, max_value=1, max_denominator=12))
        second = FixedChannel(first, f"{q.numerator}/{q.denominator}")
    else:
        second = kind
    names = (draw(st.sampled_from(["optimal", "classical", "uniform"])), draw(st.sampled_from(["optimal", "classical", "uniform"])))
    return game, first, second, names


rational_p = st.fractions(min_value=0, max_value=1, max_denominator=60)


@given(two_player_setups(), st.lists(rational_p, min_size=1, max_size=3), st.booleans())
def test_two_player_solution_matches_pointwise_evaluation(setup, ps, misere):
    game, first, second, names = setup
    sol = solve_players(game, first, second, strategy=names[0], opponent_strategy=names[1], misere=misere)
    channels = sol.players[0].channel, sol.players[1].channel
    points = [fmpq(p.numerator, p.denominator) for p in ps]
    for v in game.positions():
        points += [x.rational_value for x in sol.value(v).points if x.is_rational]
    for p in points:
        direct = evaluate_players(game, channels, names, p, misere)
        for v in game.positions():
            for i in (1, 2):
                res = sol.at(p, v, player=i)
                assert res.value == direct[(v, i)][0], (v, i, p)
                assert res.optimal == direct[(v, i)][1], (v, i, p)
                assert 0 <= res.value <= 1
            if game.followers(v):
                for i in (1, 2):
                    moves = sol.move_values(v, player=i)
                    assert {m: f(p) for m, f in moves.items()} == direct[(v, i)][2]
    if names == ("classical", "classical") or "optimal" not in names:
        # both players fixed: one rational function on the whole interval
        assert all(len(sol.value(v, i).formulas) == 1 for v in game.positions() for i in (1, 2))


@given(two_player_setups())
def test_generic_two_player_machinery_reproduces_the_symmetric_solver(setup):
    game, first, _, _ = setup
    sym = solve(game, first)
    gen = solve_players(game, first, delegate=False)
    for v in game.positions():
        assert gen.value(v, 1) == sym.value(v)
        assert gen.value(v, 2) == sym.value(v)


@pytest.mark.parametrize("k", [2, 5, 9])
def test_default_is_the_papers_game(k):
    sym = solve(Nim(k), "binary")
    sol = solve_players(Nim(k), "binary", "binary")
    assert sol.value() == sym.value() and sol.value(player=2) == sym.value()


def test_both_fixed_is_one_rational_function_checked_at_random_points():
    sol = solve_players(Nim(6), "binary", strategy="classical", opponent_strategy="uniform")
    (f,) = sol.value().formulas
    chans = sol.players[0].channel, sol.players[1].channel
    for p in [fmpq(0), fmpq(1, 7), fmpq(2, 5), fmpq(13, 17), fmpq(1)]:
        assert f(p) == evaluate_players(Nim(6), chans, ("classical", "uniform"), p)[(6, 1)][0]


# --------------------------------------------------------------------------- known values


def test_noisy_player_against_a_noiseless_opponent_on_nim2():
    # heap 1 is an N-position for anyone; from 2 the first player's move is
    # the only noisy one: N = max(1 - p, p)
    sol = solve_players(Nim(2), "binary", "identity")
    assert sol.value().formulas == (R("1 - p"), R("p"))


def test_classical_strategy_is_take_all_in_nim_and_bouton_in_multinim():
    w = get_strategy("classical").weights(Nim(7), 7)
    assert w == (1,) + (0,) * 6
    g = MultiNim((7, 2, 5, 3))
    w = get_strategy("classical").weights(g, g.start())
    sent = [g.move_label(g.start(), u) for u, x in zip(g.followers(g.start()), w) if x]
    assert len(sent) == 1 and sent[0] in {"7->4", "2->1", "3->0"}


def test_opponent_at_a_fixed_parameter_is_constant_in_q():
    sol = solve_players(Nim(3), "binary", "binary@1/10")
    direct = evaluate_players(Nim(3), (sol.players[0].channel, sol.players[1].channel), ("optimal", "optimal"), fmpq(1, 3))
    assert sol.at("1/3").value == direct[(3, 1)][0]
    # the second player's own value at heap 2 does not depend on p: 9/10
    assert sol.value(2, player=2).formulas == (R("9/10"),)


# --------------------------------------------------------------------------- strategy files


def test_strategy_file_is_validated():
    with pytest.raises(InvalidStrategyError, match="not a legal move"):
        strategy_from_json({"moves": [[3, 5], [2, 0], [1, 0]]}, Nim(3))
    with pytest.raises(InvalidStrategyError, match="no move given at position 2"):
        strategy_from_json({"moves": [[3, 0], [1, 0]]}, Nim(3))
    with pytest.raises(InvalidStrategyError, match="given twice"):
        strategy_from_json({"moves": [[3, 0], [3, 1]]}, Nim(3))
    with pytest.raises(InvalidStrategyError, match="sum to"):
        strategy_from_json({"moves": [[2, {"0": "1/2", "1": "1/3"}], [1, 0]]}, Nim(2))
    with pytest.raises(InvalidStrategyError, match="moves"):
        strategy_from_json([1, 2], Nim(3))
    s = strategy_from_json({"default": "classical", "moves": [[[2, 2], [2, 2]]]}, Chomp(2, 2))
    assert s.weights(Chomp(2, 2), (2, 2)) == (0, 0, 1)


def test_mixed_strategy_file_against_pointwise():
    s = strategy_from_json({"moves": [[2, {"0": "1/3", "1": "2/3"}], [1, 0]]}, Nim(2))
    sol = solve_players(Nim(2), "binary", strategy=s)
    # (1/3)(1 - p) + (2/3) p
    assert sol.value().formulas == (R("(1 + p)/3"),)


def test_cli_strategy_file_with_an_illegal_move_exits_2(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"moves": [[3, 7], [2, 0], [1, 0]]}))
    assert main(["solve", "nim", "3", "--strategy", str(path), "--no-cache", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "7 is not a legal move at position 3" in err


def test_cli_at_json_contract_with_new_options(capsys):
    assert main(["solve", "nim", "3", "--opponent-channel", "identity", "--strategy", "optimal",
                 "--opponent-strategy", "classical", "--at", "1/4", "--format", "json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"format", "p", "value", "value_decimal", "optimal", "meta"} and data["format"] == "symbolic-noise.point/1"
    assert data["p"] == "1/4"
    sol = solve_players(Nim(3), "binary", "identity", opponent_strategy="classical")
    assert data["value"] == str(sol.at("1/4").value)


def test_cli_unknown_strategy_exits_2(capsys):
    assert main(["solve", "nim", "3", "--strategy", "greedy", "--no-cache"]) == 2
    assert "unknown strategy 'greedy'" in capsys.readouterr().err


@given(st.data(), st.lists(rational_p, min_size=1, max_size=3))
def test_random_strategy_tables_against_pointwise_evaluation(data, ps):
    game, graph = data.draw(random_game())
    ch = random_channel(data.draw, graph)
    tables = [{v: data.draw(st.sampled_from(fs)) for v, fs in graph.items()} for _ in range(2)]
    opt = data.draw(st.booleans())
    first = strategy_from_json({"moves": [[v, w] for v, w in tables[0].items()]}, game)
    second = "optimal" if opt else strategy_from_json({"moves": [[v, w] for v, w in tables[1].items()]}, game)
    sol = solve_players(game, ch, strategy=first, opponent_strategy=second)
    names = (tables[0], "optimal" if opt else tables[1])
    for q in ps:
        p = fmpq(q.numerator, q.denominator)
        direct = evaluate_players(game, (ch, ch), names, p)
        for v in game.positions():
            for i in (1, 2):
                assert sol.at(p, v, player=i).value == direct[(v, i)][0]
                assert sol.at(p, v, player=i).optimal == direct[(v, i)][1]


def test_strategy_file_positions_are_canonical():
    g = MultiNim((1, 2))
    s = strategy_from_json({"moves": [[[2, 1], "2->0"], [[1, 1], "1->0"], [[2], "2->1"], [[1], "1->0"]]}, g)
    assert s.weights(g, (1, 2)) == tuple(fmpq(int(g.move_label((1, 2), w) == "2->0")) for w in g.followers((1, 2)))
    with pytest.raises(InvalidStrategyError, match="not a position"):
        strategy_from_json({"moves": [[[0, 3], [1, 2]]]}, Chomp(2, 2))


def test_cli_table_takes_the_player_options(capsys):
    """``table`` with an opponent channel and a strategy: every row is the
    correctly rounded value of the independent (position, player) evaluator."""
    from fractions import Fraction

    from symbolic_noise.games.channels import get_channel

    assert main(["table", "nim", "4", "--opponent-channel", "identity", "--opponent-strategy", "classical",
                 "--step", "1/8", "--format", "json", "--digits", "20", "--no-cache", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "symbolic-noise.table/1" and data["meta"]["strategies"] == ["optimal", "classical"]
    rows = data["rows"]
    assert len(rows) == 9
    game = Nim(4)
    chans = (get_channel("binary"), get_channel("identity"))
    for row in rows:
        p = fmpq(Fraction(row["p_exact"]).numerator, Fraction(row["p_exact"]).denominator)
        top, best, _ = evaluate_players(game, chans, ("optimal", "classical"), p)[(4, 1)]
        assert Fraction(row["N_exact"]) == Fraction(int(top.p), int(top.q))
        assert set(row["optimal"]) == set(best)


def test_cli_plot_takes_the_player_options(tmp_path):
    out = tmp_path / "n4.png"
    assert main(["plot", "nim", "4", "--opponent-channel", "binary@1/10", "--moves", "-o", str(out),
                 "--no-cache", "--quiet"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_table_pointwise_refuses_player_options(capsys):
    assert main(["table", "nim", "4", "--strategy", "uniform", "--method", "pointwise", "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--method pointwise does not take" in err


def test_two_player_solve_reports_progress():
    """Every position is announced once, then the finished solve."""
    seen = []
    solve_players(Nim(4), "binary", "identity", progress=seen.append)
    assert [s.done for s in seen] == list(range(len(seen)))
    assert seen[-1].done == seen[-1].total == 5 and seen[-1].fraction == 1.0
    assert {s.current for s in seen[:-1]} == {0, 1, 2, 3, 4}
