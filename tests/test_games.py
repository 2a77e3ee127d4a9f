"""Games: followers, move names, positions, cycles and bad parameters."""

from math import comb

import networkx as nx
import pytest

from symbolic_noise.errors import CyclicGameError, GameParameterError, UnknownGameError
from symbolic_noise.games.rulesets import Chomp, ExplicitGame, Nim, topological_order
from symbolic_noise.games.registry import game_from_spec


def assert_topological(game, order):
    seen = set()
    for v in order:
        assert all(w in seen for w in game.followers(v)), v
        seen.add(v)


def test_nim():
    g = Nim(5)
    assert g.followers(5) == (0, 1, 2, 3, 4) and g.followers(0) == ()
    assert g.positions() == (0, 1, 2, 3, 4, 5)
    assert g.binary_encoding(4) == (3, (0, 1, 2, 3))
    for bad in (-1, 2.5, "3", True):
        with pytest.raises(GameParameterError):
            Nim(bad)


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 4), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_chomp_positions_are_young_diagrams(rows, cols):
    g = Chomp(rows, cols)
    order = g.positions()
    # every non-empty Young diagram in a rows x cols box holds the poisoned square
    assert len(order) == comb(rows + cols, rows) - 1
    assert_topological(g, order)
    assert g.is_terminal((1,))
    for v in order:
        g.check_position(v)
        labels = [g.move_label(v, w) for w in g.followers(v)]
        assert labels == g.squares(v)
        assert len(set(g.followers(v))) == len(labels)
        for (i, j), w in zip(labels, g.followers(v)):
            assert Chomp.bite(v, i, j) == w


def test_chomp_moves_are_named_like_the_bar():
    g = Chomp(2, 2)
    assert dict(zip([g.move_label((2, 2), w) for w in g.followers((2, 2))], g.followers((2, 2)))) == {
        (1, 2): (1, 1),
        (2, 1): (2,),
        (2, 2): (2, 1),
    }


@pytest.mark.parametrize("bad", [(0,), (2, 3), (), (1, 0), ("a",)])
def test_chomp_rejects_non_diagrams(bad):
    with pytest.raises(GameParameterError):
        Chomp(3, 3).check_position(bad)


def test_explicit_game_and_cycles():
    g = ExplicitGame({"a": ["b", "c"], "b": ["c", "d"], "c": ["d"]}, "a")
    assert_topological(g, g.positions())
    assert g.followers("d") == ()
    with pytest.raises(CyclicGameError) as err:
        ExplicitGame({1: [2], 2: [3], 3: [1]}, 1)
    assert err.value.cycle[0] == err.value.cycle[-1]
    with pytest.raises(CyclicGameError):
        ExplicitGame({1: [1]}, 1)
    with pytest.raises(GameParameterError):
        ExplicitGame({1: [2, 2]}, 1)


def test_networkx_graphs():
    G = nx.DiGraph()
    G.add_edges_from([("s", "x"), ("s", "y"), ("x", "y")])
    g = ExplicitGame.from_networkx(G, "s")
    assert g.followers("s") == ("x", "y") and g.positions() == ("y", "x", "s")
    G.add_edge("y", "s")
    with pytest.raises(CyclicGameError):
        ExplicitGame.from_networkx(G, "s")


def test_deep_games_do_not_recurse():
    chain = {i: [i - 1] for i in range(1, 20000)}
    assert len(topological_order(lambda v: chain.get(v, ()), 19999)) == 20000


def test_game_from_spec():
    assert game_from_spec("nim", "7").k == 7
    assert game_from_spec("CHOMP", "3x4").start() == (4, 4, 4)
    for name, arg in [("chomp", "0x3"), ("chomp", "2by3"), ("chomp", "2x"), ("nim", "-3"), ("nim", "x"), ("nim", None)]:
        with pytest.raises(GameParameterError):
            game_from_spec(name, arg)
    with pytest.raises(UnknownGameError):
        game_from_spec("go", "19")
