"""tremble, binary-gray, z and NAME@Q channels against independent brute-force
distributions at rational p."""

import itertools

import pytest
from flint import fmpq
from hypothesis import given
from hypothesis import strategies as st

from symbolic_noise import evaluate, get_channel, solve, validate_rows
from symbolic_noise.errors import IntervalError, UnknownChannelError
from symbolic_noise.games.extra_channels import gray
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.games.heapgames import MultiNim

inner_p = st.fractions(min_value=0, max_value=1, max_denominator=40).filter(lambda x: 0 < x < 1)


def brute_force(codes, width, p, flip):
    """psi by enumerating every error pattern: ``flip(bit_of_sent)`` is the
    probability that a digit holding that bit flips."""
    rows = []
    for s in codes:
        weights = []
        for r in codes:
            w = fmpq(1)
            for d in range(width):
                a, b = (s >> d) & 1, (r >> d) & 1
                w *= flip(a) if a != b else 1 - flip(a)
            weights.append(w)
        total = sum(weights, fmpq(0))
        rows.append([w / total for w in weights])
    return rows


def games():
    return [(Nim(k), k) for k in range(1, 10)] + [(MultiNim((2, 3)), (2, 3)), (MultiNim((1, 2, 3)), (1, 2, 3))]


def assert_distribution(rows, m, ps=(fmpq(0), fmpq(1, 7), fmpq(1, 2), fmpq(5, 6), fmpq(1))):
    """At every p of ``ps`` each of the m rows has m entries >= 0 summing to 1 (exactly)."""
    assert len(rows.den) == len(rows.num) == m
    for p in ps:
        for row in rows.at(p):
            assert len(row) == m and min(row) >= 0 and sum(row, fmpq(0)) == 1, (p, row)


@pytest.mark.parametrize("name", ["binary-gray", "z", "tremble"])
def test_new_channels_are_distributions_on_every_position(name):
    """validate_rows accepts every position's rows, they are probability
    vectors at rational p, and at p = 0 all three channels deliver the sent
    move (no flip, no tremble)."""
    ch = get_channel(name)
    for game, _ in games():
        for v in game.positions():
            if game.followers(v):
                rows = ch.rows(game, v)
                assert validate_rows(rows, (0, 1), game=game, position=v) is None
                m = len(game.followers(v))
                assert_distribution(rows, m)
                assert rows.at(0) == [[int(i == j) for j in range(m)] for i in range(m)]


@given(inner_p)
def test_binary_gray_and_z_against_brute_force(q):
    p = fmpq(q.numerator, q.denominator)
    for game, _ in games():
        for v in game.positions():
            fs = game.followers(v)
            if not fs:
                continue
            width, codes = game.binary_encoding(v)
            g = [gray(c) for c in codes]
            assert get_channel("binary-gray").rows(game, v).at(p) == brute_force(g, width, p, lambda bit: p)
            # Z: a 1 flips with probability p, a 0 never
            assert get_channel("z").rows(game, v).at(p) == brute_force(codes, width, p, lambda bit: p if bit else fmpq(0))


@given(inner_p)
def test_tremble_against_its_definition(q):
    p = fmpq(q.numerator, q.denominator)
    for k in range(1, 7):
        m = get_channel("tremble").rows(Nim(k), k).at(p)
        assert m == [[(1 - p) * (i == j) + p / k for j in range(k)] for i in range(k)]


def test_z_channel_limits_at_the_ends():
    m = get_channel("z").rows(Nim(4), 4)
    assert m.at(0) == [[int(i == j) for j in range(4)] for i in range(4)]
    # at p = 1 every 1 is lost: code 0 (take all) is received whatever is sent
    assert m.at(1) == [[1, 0, 0, 0]] * 4


def test_gray_code_changes_the_game():
    assert [gray(c) for c in range(8)] == [0, 1, 3, 2, 6, 7, 5, 4]
    assert len(set(gray(c) for c in range(256))) == 256
    a, b = solve(Nim(4), "binary"), solve(Nim(4), "binary-gray")
    assert a.value() != b.value()
    for p in [fmpq(1, 3), fmpq(3, 4)]:
        assert b.at(p).value == evaluate(Nim(4), "binary-gray", p)[4].value


@pytest.mark.parametrize("spec", ["binary@1/3", "tremble@0", "z@1", "uniform@1/2"])
def test_fixed_channel_is_the_channel_at_that_parameter(spec):
    name, q = spec.split("@")
    sol = solve(Nim(5), spec)
    assert len(sol.value().formulas) == 1 and sol.value().formulas[0].is_constant
    assert sol.at("1/7").value == evaluate(Nim(5), name, q)[5].value


def test_fixed_channel_spec_errors():
    with pytest.raises(UnknownChannelError):
        get_channel("binary@")
    with pytest.raises(UnknownChannelError):
        get_channel("binary@x")
    with pytest.raises(IntervalError):
        get_channel("binary@3/2")
    with pytest.raises(UnknownChannelError):
        get_channel("nosuch@1/2")


def test_multi_heap_gray_codes_are_a_bijection():
    g = MultiNim((2, 3))
    width, codes = get_channel("binary-gray").codes(g, g.start())
    assert sorted(codes) == sorted({gray(c) for c in g.binary_encoding(g.start())[1]})
    assert all(0 <= c < 2**width for c in codes)
    _ = itertools  # brute force above enumerates patterns digit by digit


# --------------------------------------------------------------------------- chebyshev (Chomp)


def chebyshev_brute_force(squares, p):
    """psi of the Chebyshev channel straight from its definition, with Fractions."""
    from fractions import Fraction

    rows = []
    for t in squares:
        others = [u for u in squares if u != t]
        if not others:
            rows.append([Fraction(1)])
            continue
        weight = {u: Fraction(1, 2 ** max(abs(t[0] - u[0]), abs(t[1] - u[1]))) for u in others}
        total = sum(weight.values())
        rows.append([p if u == t else (1 - p) * weight[u] / total for u in squares])
    return rows


def chomp_boards():
    from symbolic_noise.games.rulesets import Chomp

    return [Chomp(r, c) for r, c in [(1, 2), (1, 5), (2, 2), (2, 3), (3, 3), (2, 5), (3, 4)]]


def test_chebyshev_rows_are_distributions():
    """Valid on every position of the boards, probability vectors at rational
    p, and at p = 0 a target with other legal squares is never hit (all its
    mass goes to the others)."""
    ch = get_channel("chebyshev")
    for game in chomp_boards():
        for v in game.positions():
            if game.followers(v):
                rows = ch.rows(game, v)
                assert validate_rows(rows, (0, 1), game=game, position=v) is None
                m = len(game.followers(v))
                assert_distribution(rows, m)
                assert [row[i] for i, row in enumerate(rows.at(0))] == [int(m == 1)] * m


@given(inner_p)
def test_chebyshev_against_its_definition(q):
    ch = get_channel("chebyshev")
    p = fmpq(q.numerator, q.denominator)
    for game in chomp_boards():
        for v in game.positions():
            if not game.followers(v):
                continue
            got = ch.rows(game, v).at(p)
            want = chebyshev_brute_force(game.squares(v), q)
            assert [[fmpq(x.numerator, x.denominator) for x in row] for row in want] == got


def test_chebyshev_is_the_identity_at_p_1_and_agrees_with_pointwise():
    from symbolic_noise.games.rulesets import Chomp

    ch = get_channel("chebyshev")
    game = Chomp(3, 3)
    for v in game.positions():
        m = len(game.followers(v))
        if m:
            assert ch.rows(game, v).at(1) == [[fmpq(int(i == j)) for j in range(m)] for i in range(m)]
    sol = solve(game, "chebyshev")
    ident = solve(game, "identity")
    assert sol.at(1).value == ident.at(0).value
    for x in ["1/7", "2/5", "5/6"]:
        point = evaluate(game, "chebyshev", x)
        for v in game.positions():
            assert sol.at(x, v).value == point[v].value
            assert sol.at(x, v).optimal == point[v].optimal
