"""Heap games: codes, positions, moves and their names, the binary encoding,
the command-line words, and solving them through every kind of channel."""

import json

import pytest

from symbolic_noise.games.registry import game_from_spec as heap_game_from_spec
from flint import fmpq

from symbolic_noise import solve
from symbolic_noise.games.channels import BinaryChannel, CustomChannel, custom_channel_from_json
from symbolic_noise.errors import GameParameterError, UnknownGameError
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.games.heapgames import (
    GrundyRules,
    GrundysGame,
    HeapGame,
    LaskerRules,
    LaskersNim,
    MultiNim,
    NimRules,
    OctalGame,
    OctalRules,
    SubtractionGame,
    SubtractionRules,
    heap_rules_from_spec,
    heaps_position,
    normalise_code,
    parse_heaps,
)
from symbolic_noise.solvers.onepoint.pointwise import evaluate

#: one small game of every heap family (the generic tests run over all of them)
FAMILIES = {
    "multinim": MultiNim((1, 2, 3)),
    "kayles": OctalGame("0.77", (2, 4)),
    "dawson-kayles": OctalGame("0.07", 7),
    "dawson-chess": OctalGame("0.137", (2, 5)),
    "4.3": OctalGame("4.3", 6),
    "hex-0x0.8F": OctalGame("0x0.8F", 7),
    "hex-0x4.8": OctalGame("0x4.8", 6),
    "subtraction-2,3,7": SubtractionGame({2, 3, 7}, (3, 9)),
    "lasker": LaskersNim((2, 4)),
    "grundy": GrundysGame(9),
}


def apply_label(v, label):
    """The position a move name describes: ``h->a+b`` replaces one heap h by a, b."""
    h, _, left = label.partition("->")
    rest = list(v)
    rest.remove(int(h))
    pieces = [] if left == "0" else [int(x) for x in left.split("+")]
    return tuple(sorted(rest + pieces))


# --------------------------------------------------------------------------- codes


@pytest.mark.parametrize(
    "code, normal, digits",
    [
        ("0.77", "0.77", (0, 7, 7)),
        (".77", "0.77", (0, 7, 7)),
        ("0.770", "0.77", (0, 7, 7)),
        ("04.30", "4.3", (4, 3)),
        ("4.", "4.0", (4,)),
        ("0.07", "0.07", (0, 0, 7)),
        (" 0.137 ", "0.137", (0, 1, 3, 7)),
        ("0x.f", "0x0.F", (0, 15)),
        ("0X0.8a", "0x0.8A", (0, 8, 10)),
        ("0xC.0", "0xC.0", (12,)),
    ],
)
def test_codes_normalise_like_cgsuite(code, normal, digits):
    assert normalise_code(code)[:2] == (normal, digits)
    assert OctalRules(code) == OctalRules(normal)


@pytest.mark.parametrize(
    "code, fragment",
    [
        ("", "written like"),
        ("abc", "written like"),
        ("0.7.7", "written like"),
        ("077", "written like"),
        ("0.8", "start with 0x"),
        ("0.19", "not an octal digit"),
        ("0x0.G", "not an hexadecimal digit"),
        ("1.2", "must be 0 or 4"),
        ("0x2.0", "must be 0, 4, 8 or C"),
        ("45.1", "one digit"),
        (".", "written like"),
    ],
)
def test_bad_codes_are_rejected_with_a_message(code, fragment):
    with pytest.raises(GameParameterError, match=fragment):
        OctalRules(code)


def test_named_octal_games():
    assert heap_rules_from_spec("kayles").code == "0.77"
    assert heap_rules_from_spec("dawson-kayles").code == "0.07"
    assert heap_rules_from_spec("dawson-chess").code == "0.137"
    assert heap_rules_from_spec("octal:04.30").key() == "octal:4.3"
    assert heap_rules_from_spec("hex:0.f") == heap_rules_from_spec("0x0.F")


def test_octal_digits_mean_what_winning_ways_says():
    dawson_chess = OctalRules("0.137")
    # d1 = 1: take 1 only from a heap of 1; d2 = 3: take 2 leaving 0 or 1 heap;
    # d3 = 7: take 3 leaving 0, 1 or 2 heaps
    assert set(dawson_chess.remainders(1)) == {()}
    assert set(dawson_chess.remainders(2)) == {()}
    assert set(dawson_chess.remainders(3)) == {(), (1,)}
    assert set(dawson_chess.remainders(6)) == {(4,), (3,), (1, 2)}
    assert set(OctalRules("4.3").remainders(4)) == {(3,), (1, 3), (2, 2)}
    assert set(OctalRules("0x0.8").remainders(5)) == {(1, 1, 2)}
    assert set(OctalRules("0x8.0").remainders(6)) == {(1, 1, 4), (1, 2, 3), (2, 2, 2)}
    assert OctalRules("0x0.8").max_heaps == 3 and OctalRules("0.33").max_heaps == 1


def test_rulesets_give_remainders_by_their_definitions():
    assert set(NimRules().remainders(4)) == {(), (1,), (2,), (3,)}
    assert set(LaskerRules().remainders(5)) == {(), (1,), (2,), (3,), (4,), (1, 4), (2, 3)}
    assert set(GrundyRules().remainders(8)) == {(1, 7), (2, 6), (3, 5)}
    assert GrundyRules().remainders(2) == ()
    assert set(SubtractionRules({2, 3, 7}).remainders(7)) == {(5,), (4,), ()}
    assert SubtractionRules({1, 2, 3}) == heap_rules_from_spec("subtraction:3,2,1")


def expand(options):
    out = {()} if options.empty else set()
    out |= {(r,) for r in options.one}
    for s in options.two:
        out |= {(a, s - a) for a in range(1, s // 2 + 1) if not (options.two_unequal and 2 * a == s)}
    for s in options.three:
        out |= {(a, b, s - a - b) for a in range(1, s) for b in range(a, s) if b <= s - a - b}
    return out


@pytest.mark.parametrize(
    "rules",
    [NimRules(), LaskerRules(), GrundyRules(), SubtractionRules({2, 3, 7})]
    + [OctalRules(c) for c in ("0.77", "0.137", "4.3", "0.7777", "0x0.F", "0x4.8", "0xC.9A")],
    ids=lambda r: r.key(),
)
def test_grouped_options_and_remainders_agree(rules):
    # the fast nim-sequence uses options(), the game graph remainders(): the two
    # descriptions of one ruleset are written independently
    for h in range(0, 25):
        assert expand(rules.options(h)) == set(rules.remainders(h)), h


# --------------------------------------------------------------------------- positions and moves


def test_positions_are_sorted_tuples_without_empty_heaps():
    assert heaps_position([3, 0, 2, 3]) == (2, 3, 3)
    assert heaps_position(0) == () and heaps_position(4) == (4,)
    assert parse_heaps("[7, 2, 5, 3]") == parse_heaps("7+2+5+3") == (2, 3, 5, 7)
    assert parse_heaps("0") == parse_heaps("") == ()
    for bad in ([-1], "2,x", [1.5], None):
        with pytest.raises(GameParameterError):
            heaps_position(bad)


@pytest.mark.parametrize("name", FAMILIES)
def test_move_labels_name_their_followers(name):
    game = FAMILIES[name]
    for v in game.positions():
        fs = game.followers(v)
        labels = [game.move_label(v, w) for w in fs]
        assert len(set(fs)) == len(fs)
        assert len(set(labels)) == len(labels)
        json.dumps(labels)
        for w, label in zip(fs, labels):
            assert w == tuple(sorted(w)) and all(h > 0 for h in w)
            assert apply_label(v, label) == w
            assert game.follower_by_label(v, label) == w
        assert game.followers(v) == fs  # stable
        assert game.parse_position(game.position_label(v)) == v


def test_moves_of_kayles_and_nim_by_name():
    g = OctalGame("0.77", 3)
    # chips left ascending, then fewer heaps first
    assert [g.move_label((3,), w) for w in g.followers((3,))] == ["3->1", "3->2", "3->1+1"]
    g = MultiNim((2, 2))
    assert [g.move_label((2, 2), w) for w in g.followers((2, 2))] == ["2->0", "2->1"]
    with pytest.raises(GameParameterError):
        g.move_label((2, 2), (1, 1))


# --------------------------------------------------------------------------- binary encoding


def test_binary_encoding_of_two_heaps():
    g = MultiNim((2, 3))
    # (2, 3): slots [2][3], two digits each; 2->0 leaves 00 11, 3->1 leaves 10 01
    assert g.binary_encoding((2, 3)) == (4, (0b0011, 0b0111, 0b1000, 0b1001, 0b1010))
    # after 3->0 only the heap of 2 is written, still with two digits
    assert g.binary_encoding((2,)) == (2, (0, 1))
    # equal heaps: the first one moves
    assert MultiNim((3, 3)).binary_encoding((3, 3)) == (4, (0b0011, 0b0111, 0b1011))


def test_binary_encoding_of_splits_uses_extra_slots():
    g = LaskersNim(3)
    assert [g.move_label((3,), w) for w in g.followers((3,))] == ["3->0", "3->1", "3->2", "3->1+2"]
    assert g.binary_encoding((3,)) == (4, (0b0000, 0b0100, 0b1000, 0b1001))


@pytest.mark.parametrize("name", FAMILIES)
def test_binary_codes_are_distinct_and_fit(name):
    game = FAMILIES[name]
    for v in game.positions():
        width, codes = game.binary_encoding(v)
        assert len(set(codes)) == len(codes) == len(game.followers(v))
        assert all(0 <= c < 2**width for c in codes)


@pytest.mark.parametrize("k", range(1, 7))
def test_one_heap_binary_is_the_papers_1_pile_nim(k):
    heaps, pile = solve(MultiNim(k), "binary").value(), solve(Nim(k), "binary").value()
    assert heaps.points == pile.points and heaps.formulas == pile.formulas
    # the same optimal moves, named "k->j" instead of j (chips left)
    named = lambda moves: {f"{k}->{j}" for j in moves}  # noqa: E731
    assert heaps.labels == tuple(named(m) for m in pile.labels)
    assert heaps.point_labels == tuple(named(m) for m in pile.point_labels)


def test_multinim_binary_at_p_0_and_one_half():
    # p = 0: the identity (N = 1 iff the nim-sum is non-zero);
    # p = 1/2: every code equally likely, i.e. the uniform channel
    game = MultiNim((1, 2, 3))
    binary, uniform = solve(game, "binary"), solve(game, "uniform")
    for v in binary.positions():
        nimsum = 0
        for h in v:
            nimsum ^= h
        assert binary.at(0, v).value == (1 if nimsum else 0)
        assert binary.at("1/2", v).value == uniform.at("1/2", v).value


def test_multinim_binary_matches_pointwise_backward_induction():
    game = MultiNim((2, 3))
    sol = solve(game, "binary")
    for p in ("1/5", "1/2", "2/3", "9/10"):
        point = evaluate(game, "binary", p)
        for v in sol.positions():
            assert sol.at(p, v).value == point[v].value
            assert sol.at(p, v).optimal == point[v].optimal


def test_a_custom_encoding_plugs_in():
    def gray(game, v):
        width, codes = game.binary_encoding(v)
        return width, tuple(c ^ (c >> 1) for c in codes)

    game = MultiNim((2, 3))
    sol = solve(game, BinaryChannel(encoding=gray))
    assert sol.at(0).value == 1 and sol.channel.name == "binary[gray]"


# --------------------------------------------------------------------------- channels


def test_custom_channel_on_move_names():
    # at 1+2 the move 2->1 is received as 1->0 with probability p; identity elsewhere
    data = {
        "default": "identity",
        "rows": [
            {"position": [1, 2], "sent": "1->0", "received": [["1->0", "1"]]},
            {"position": [1, 2], "sent": "2->0", "received": [["2->0", "1"]]},
            {"position": [1, 2], "sent": "2->1", "received": [["2->1", "1 - p"], ["1->0", "p"]]},
        ],
    }
    sol = solve(MultiNim((1, 2)), custom_channel_from_json(data))
    (piece,) = sol.value().pieces()
    assert piece.formula.text() == "1 - p" and piece.label == {"2->1"}
    assert sol.at(1).optimal == {"1->0", "2->0", "2->1"}


def test_custom_channel_function_on_octal_game():
    game = OctalGame("0.137", 4)

    def psi(v, sent, received):
        m = len(game.followers(v))
        if m == 1:
            return 1
        return "1 - p" if sent == received else f"p/{m - 1}"

    sol = solve(game, CustomChannel(psi))
    point = evaluate(game, CustomChannel(psi), "1/3")
    assert sol.at("1/3").value == point[(4,)].value


@pytest.mark.parametrize("name", FAMILIES)
def test_uniform_channel_solves_every_family(name):
    game = FAMILIES[name]
    sol = solve(game, "uniform")
    for v in sol.positions():
        (piece,) = sol.value(v).pieces()  # N does not depend on p
        assert 0 <= piece.formula.constant_value() <= 1


# --------------------------------------------------------------------------- command-line words


@pytest.mark.parametrize(
    "name, arg, expected",
    [
        ("nim", "5", Nim(5)),
        ("nim", "2,3", MultiNim((2, 3))),
        ("nim", "5,", MultiNim(5)),
        ("kayles", "5", OctalGame("0.77", 5)),
        ("dawson-chess", "6", OctalGame("0.137", 6)),
        ("octal:0.137", "6", OctalGame("0.137", 6)),
        ("0.137", "2+4", OctalGame("0.137", (2, 4))),
        ("hex:0.8", "7", OctalGame("0x0.8", 7)),
        ("lasker", "7", LaskersNim(7)),
        ("grundy", "8", GrundysGame(8)),
        ("subtraction:1,2,3", "10", SubtractionGame({1, 2, 3}, 10)),
        ("Subtraction:{2, 3, 7}", "9", SubtractionGame({2, 3, 7}, 9)),
    ],
)
def test_games_from_command_line_words(name, arg, expected):
    game = heap_game_from_spec(name, arg)
    assert isinstance(game, HeapGame) == isinstance(expected, HeapGame)
    assert game.key() == expected.key() and game.start() == expected.start()
    assert game.name == expected.name and game.describe() == expected.describe()


@pytest.mark.parametrize(
    "name, arg, error",
    [
        ("chess", "3", UnknownGameError),
        ("octal:0.9", "3", GameParameterError),
        ("kayles", None, GameParameterError),
        ("kayles", "-1", GameParameterError),
        ("kayles", "two", GameParameterError),
        ("subtraction:", "3", GameParameterError),
        ("subtraction:a,b", "3", GameParameterError),
        ("subtraction:0,1", "3", GameParameterError),
        ("nim", "-2", GameParameterError),
    ],
)
def test_bad_command_line_words(name, arg, error):
    with pytest.raises(error):
        heap_game_from_spec(name, arg)


def test_chomp_is_not_a_heap_game():
    from symbolic_noise.games.rulesets import Chomp

    assert isinstance(heap_game_from_spec("chomp", "2x2"), Chomp)
    with pytest.raises(GameParameterError):
        heap_game_from_spec("octal:0.9", "3")  # a heap word with a bad code


def test_solution_json_of_a_heap_game_is_plain_data():
    from symbolic_noise import reports

    data = reports.solution_json(solve(MultiNim((1, 2)), "uniform"))
    assert data["game"]["position"] == [1, 2]
    assert json.loads(json.dumps(data)) == data
    assert fmpq(1, 2) == solve(MultiNim((1, 2)), "uniform").at(0).value
