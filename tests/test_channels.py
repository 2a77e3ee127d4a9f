"""Channels: the built-in distributions are valid, match theory.md, and custom
distributions are validated exactly."""

from fractions import Fraction

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.games.channels import (
    BinaryChannel,
    CustomChannel,
    NeighbourChannel,
    Rows,
    custom_channel_from_json,
    get_channel,
    validate_rows,
)
from symbolic_noise.errors import ChannelNotApplicableError, InvalidChannelError, UnknownChannelError
from symbolic_noise.games.rulesets import Chomp, Nim
from symbolic_noise.exact.formula import exact_number as as_fmpq
from symbolic_noise.exact.formula import parse_formula


def q_fraction(s, r, n, p):
    d = bin(s ^ r).count("1")
    return p**d * (1 - p) ** (n - d)


SAMPLE_P = [fmpq(0), fmpq(1, 7), fmpq(1, 2), fmpq(5, 6), fmpq(1)]


def assert_distribution(rows, m):
    """At every sample p each of the m rows has m entries >= 0 summing to 1 (exactly)."""
    assert len(rows.den) == len(rows.num) == m
    for p in SAMPLE_P:
        for row in rows.at(p):
            assert len(row) == m and min(row) >= 0 and sum(row, fmpq(0)) == 1, (p, row)


@pytest.mark.parametrize("name", ["identity", "uniform", "binary"])
def test_builtin_channels_are_distributions_on_nim(name):
    """validate_rows accepts them, and at rational p every row is a probability
    vector; identity is the identity matrix, uniform is 1/k everywhere, binary
    keeps the sent move with probability (1-p)^n / Z_s (theory.md 3.1)."""
    ch = get_channel(name)
    for k in range(1, 17):
        rows = ch.rows(Nim(k), k)
        assert validate_rows(rows, (0, 1), game=Nim(k), position=k) is None
        assert_distribution(rows, k)
        at = rows.at(fmpq(1, 3))
        if name == "identity":
            assert at == [[int(i == j) for j in range(k)] for i in range(k)]
        elif name == "uniform":
            assert at == [[fmpq(1, k)] * k for _ in range(k)]
        else:
            n, p = k.bit_length(), Fraction(1, 3)
            for s in range(k):
                z = sum(q_fraction(s, j, n, p) for j in range(k))
                assert at[s][s] == as_fmpq((1 - p) ** n / z)


@pytest.mark.parametrize("name", ["identity", "uniform", "king", "rook", "all"])
def test_builtin_channels_are_distributions_on_chomp(name):
    """Every position of Chomp 3x4: valid, rows are probability vectors, and
    the neighbour channels hit the target with probability p exactly when it
    has a legal neighbour (theory.md 3.2)."""
    ch, g = get_channel(name), Chomp(3, 4)
    for v in g.positions():
        if g.followers(v):
            rows = ch.rows(g, v)
            assert validate_rows(rows, (0, 1), game=g, position=v) is None
            m = len(g.followers(v))
            assert_distribution(rows, m)
            diagonal = [row[i] for i, row in enumerate(rows.at(fmpq(2, 7)))]
            if name == "identity":
                assert diagonal == [1] * m
            elif name == "uniform":
                assert diagonal == [fmpq(1, m)] * m
            else:
                squares = g.squares(v)
                for t, d in zip(squares, diagonal):
                    lonely = not any(
                        u != t and (name == "all" or max(abs(u[0] - t[0]), abs(u[1] - t[1])) == 1
                                    and (name == "king" or abs(u[0] - t[0]) + abs(u[1] - t[1]) == 1))
                        for u in squares
                    )
                    assert d == (1 if lonely else fmpq(2, 7)), (v, t)


@given(st.integers(2, 20), st.fractions(min_value=0, max_value=1, max_denominator=97).filter(lambda x: 0 < x < 1))
def test_binary_channel_is_the_hamming_channel(k, p):
    """psi_k(s, r) = q(s, r) / sum_j q(s, j), straight from theory.md 3.1."""
    n = k.bit_length()
    got = BinaryChannel().rows(Nim(k), k).at(fmpq(p.numerator, p.denominator))
    for s in range(k):
        z = sum(q_fraction(s, j, n, p) for j in range(k))
        for r in range(k):
            expected = q_fraction(s, r, n, p) / z
            assert got[s][r] == fmpq(expected.numerator, expected.denominator)


@pytest.mark.parametrize("k", range(2, 33))
def test_binary_channel_limits(k):
    rows = BinaryChannel().rows(Nim(k), k)
    n = k.bit_length()
    assert rows.at(0) == [[int(s == r) for r in range(k)] for s in range(k)]
    at_one = rows.at(1)
    for s in range(k):
        far = max(bin(s ^ r).count("1") for r in range(k))
        targets = [r for r in range(k) if bin(s ^ r).count("1") == far]
        assert at_one[s] == [fmpq(1, len(targets)) if r in targets else 0 for r in range(k)]
    assert n == k.bit_length()


def test_chomp_neighbours():
    g = Chomp(2, 2)
    v = g.start()
    king = NeighbourChannel("king").rows(g, v).at(fmpq(1, 5))
    rook = NeighbourChannel("rook").rows(g, v).at(fmpq(1, 5))
    # squares in order (1,2), (2,1), (2,2)
    assert king[0] == [fmpq(1, 5), fmpq(2, 5), fmpq(2, 5)]
    assert rook[0] == [fmpq(1, 5), 0, fmpq(4, 5)]
    assert rook[2] == [fmpq(2, 5), fmpq(2, 5), fmpq(1, 5)]
    alln = NeighbourChannel("all").rows(Chomp(1, 2), (2,)).at(fmpq(1, 3))
    assert alln == [[1]]  # a lone move has no neighbour: it is hit surely


def test_channel_not_applicable():
    with pytest.raises(ChannelNotApplicableError):
        NeighbourChannel("king").rows(Nim(3), 3)
    with pytest.raises(ChannelNotApplicableError):
        BinaryChannel().rows(Chomp(2, 2), (2, 2))
    with pytest.raises(UnknownChannelError):
        get_channel("gaussian")


def two_moves(e00, e01, e10="0", e11="1"):
    return CustomChannel({2: {0: {0: e00, 1: e01}, 1: {0: e10, 1: e11}}}, default="identity")


def check(ch, interval=(0, 1), k=2):
    g = Nim(k)
    return ch.check(g, k, ch.rows(g, k), interval)


def test_valid_custom_channels():
    """Accepted, and each is the distribution it was written as: at p = 2/5
    the first row is (1 - p/2, p/2) = (4/5, 1/5), (1/(1+p), p/(1+p)) = (5/7, 2/7),
    ((1-p)^2, p(2-p)) = (9/25, 16/25), (1-p, p) = (3/5, 2/5), (1-2p, 2p) = (1/5, 4/5)."""
    cases = [
        (two_moves("1 - p/2", "p/2"), (0, 1), [fmpq(4, 5), fmpq(1, 5)]),
        (two_moves("1/(1+p)", "p/(1+p)"), (0, 1), [fmpq(5, 7), fmpq(2, 7)]),
        (two_moves("(1-p)**2", "p*(2-p)"), (0, 1), [fmpq(9, 25), fmpq(16, 25)]),
        (CustomChannel(lambda v, w, u: "1 - p" if w == u else "p"), (0, 1), [fmpq(3, 5), fmpq(2, 5)]),
        # 1 - 2p is a probability on [0, 1/2] only
        (two_moves("1 - 2*p", "2*p"), (0, "1/2"), [fmpq(1, 5), fmpq(4, 5)]),
    ]
    for ch, interval, first in cases:
        assert check(ch, interval=interval) is None
        assert ch.rows(Nim(2), 2).at(fmpq(2, 5))[0] == first


def test_negative_entry_names_position_move_and_p():
    with pytest.raises(InvalidChannelError) as err:
        check(two_moves("1 - 2*p", "2*p"))
    e = err.value
    assert (e.position, e.sent, e.received) == (2, 0, 0)
    assert e.p is not None and 1 - 2 * as_fmpq(e.p) < 0
    assert "position 2" in str(e) and "sent 0" in str(e) and "received 0" in str(e)


def test_negative_between_roots_is_found():
    # (2p - 1)^2 - 1/100 is negative only on (0.45, 0.55): sampling at 0, 1/2, 1 would see -1/100 at 1/2,
    # so use one negative only on a tiny interval away from simple points
    e = "(10*p - 3)*(10*p - 3) - 1/1000000"  # negative on (0.3 - 1e-4, 0.3 + 1e-4)
    with pytest.raises(InvalidChannelError) as err:
        check(two_moves(e, f"1 - ({e})"))
    x = as_fmpq(err.value.p)
    assert (10 * x - 3) ** 2 - fmpq(1, 10**6) < 0


def test_rows_must_sum_to_one():
    with pytest.raises(InvalidChannelError) as err:
        check(two_moves("1 - p", "p/2"))
    assert "sum" in str(err.value) and err.value.sent == 0 and err.value.p is not None


def test_poles_are_rejected():
    with pytest.raises(InvalidChannelError) as err:
        check(two_moves("1 - 1/(3 - 4*p)", "1/(3 - 4*p)"))
    assert "pole" in str(err.value)


def test_illegal_and_malformed_entries():
    with pytest.raises(InvalidChannelError, match="not a legal move"):
        check(CustomChannel({2: {0: {0: "1 - p", 5: "p"}, 1: {1: 1}}}))
    with pytest.raises(InvalidChannelError, match="not a legal move"):
        check(CustomChannel({2: {7: {0: 1}, 0: {0: 1}, 1: {1: 1}}}))
    with pytest.raises(InvalidChannelError, match="rational function"):
        check(two_moves("1 - sqrt(p)", "sqrt(p)"))
    with pytest.raises(InvalidChannelError, match="no default"):
        CustomChannel({}).rows(Nim(2), 2)


def test_custom_channel_from_json():
    data = {
        "default": "uniform",
        "rows": [
            {"position": [2, 2], "sent": [1, 2], "received": [[[1, 2], "p"], [[2, 2], "1 - p"]]},
        ],
    }
    ch = custom_channel_from_json(data)
    g = Chomp(2, 2)
    rows = ch.rows(g, (2, 2))
    assert rows.at(fmpq(1, 4))[0] == [fmpq(1, 4), 0, fmpq(3, 4)]
    with pytest.raises(InvalidChannelError):
        custom_channel_from_json({"rows": [{"position": 2}]})
    with pytest.raises(InvalidChannelError):
        custom_channel_from_json({"rows": [], "default": "nonsense"})
    # a float is no exact probability: the error says what was given
    with pytest.raises(InvalidChannelError, match=r"not float 0\.5"):
        custom_channel_from_json({"rows": [{"position": 2, "sent": 0, "received": [[0, 0.5], [1, "1/2"]]}]}).rows(Nim(2), 2)


def test_rows_from_matrix_reduces_rows():
    from symbolic_noise.exact.ratfunc import RationalFunction as R

    rows = Rows.from_matrix([[parse_formula("1/(1+p)"), parse_formula("p/(1+p)")], [R.constant(0), R.constant(1)]])
    assert rows.den[0] == parse_formula("1 + p").num
    assert rows.at(Fraction(1, 3)) == [[fmpq(3, 4), fmpq(1, 4)], [0, 1]]


# --------------------------------------------------------------------------- an encoding of the user's


def affine_code(game, v):
    """Nim's move m coded as 5m + 3 modulo 2^n (n digits, n the bits of v): a
    bijection that does not keep Hamming distances (0, 1 -> 011, 000: distance
    2 instead of 1)."""
    n = v.bit_length()
    return n, tuple((5 * m + 3) % 2**n for m in game.followers(v))


@settings(max_examples=20)
@given(st.fractions(min_value=0, max_value=1, max_denominator=30).filter(lambda x: 0 < x < 1))
def test_binary_channel_uses_the_encoding_it_is_given(p):
    """BinaryChannel(encoding=...) is the Hamming channel of theory.md 3.1 on
    THOSE codes: psi(s, r) = q(c_s, c_r) / sum_j q(c_s, c_j), recomputed here
    in Fractions; a channel ignoring ``encoding=`` gives the plain codes' rows."""
    q = Fraction(p)
    ch = BinaryChannel(encoding=affine_code)
    assert ch.name == "binary[affine_code]" and ch.key() is None and BinaryChannel().key() == "binary"
    for k in range(2, 9):
        n, codes = affine_code(Nim(k), k)
        assert ch.codes(Nim(k), k) == (n, codes)
        got = ch.rows(Nim(k), k).at(as_fmpq(q))
        for s in range(k):
            z = sum(q_fraction(codes[s], c, n, q) for c in codes)
            assert got[s] == [as_fmpq(q_fraction(codes[s], c, n, q) / z) for c in codes]
    # heap 2: codes 1 and 0 (n = 2: 3 and 0, distance 2): sending 0 keeps it
    # with probability (1-p)^2 / ((1-p)^2 + p^2), not 1 - p
    row = ch.rows(Nim(2), 2).at(as_fmpq(q))[0]
    assert row[0] == as_fmpq((1 - q) ** 2 / ((1 - q) ** 2 + q**2))


def test_binary_encoding_errors_and_limits():
    """Codes must be distinct, one per move, and fit in the width; at p = 1 the
    mass goes to the legal codes farthest from the sent one, at p = 0 to it."""
    three = lambda game, v: (2, (0, 1, 3))  # noqa: E731  Nim(3): moves 0, 1, 2 coded 00, 01, 11
    rows = BinaryChannel(encoding=three).rows(Nim(3), 3)
    # p = 1: 00 -> 11 (distance 2); 01 -> 00 or 11 (both at distance 1), evenly; 11 -> 00
    assert rows.at(1) == [[0, 0, 1], [fmpq(1, 2), 0, fmpq(1, 2)], [1, 0, 0]]
    assert rows.at(0) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    for bad in [lambda g, v: (2, (0, 1)), lambda g, v: (2, (0, 1, 1)), lambda g, v: (1, (0, 1, 2)),
                lambda g, v: (2, (-1, 0, 1))]:
        with pytest.raises(ChannelNotApplicableError):
            BinaryChannel(encoding=bad).rows(Nim(3), 3)
    assert BinaryChannel(name="mine").name == "mine"


@pytest.mark.parametrize("kind", ["king", "rook", "all"])
def test_neighbour_channels_against_their_definition(kind):
    """Every position of Chomp 3x4 at p = 3/10: psi from theory.md 3.2
    recomputed in Fractions by tests/fraction_reference.py."""
    import fraction_reference as ref

    g, p = Chomp(3, 4), Fraction(3, 10)
    for v in g.positions():
        if g.followers(v):
            want = ref.neighbour_psi(ref.chomp_squares(v), kind, p)
            assert NeighbourChannel(kind).rows(g, v).at(as_fmpq(p)) == [[as_fmpq(x) for x in row] for row in want]


def test_channel_files_are_read_as_data():
    """A probability is text or a whole number; true, 0.5 and null are
    refused; a file needs a "rows" list of [move, expression] pairs."""
    row = lambda received: {"default": "identity", "rows": [{"position": 2, "sent": 0, "received": received}]}  # noqa: E731
    for bad in [True, 0.5, None]:
        with pytest.raises(InvalidChannelError, match="write the probability as text"):
            custom_channel_from_json(row([[0, bad], [1, "1"]]))
    for bad in [5, [[0]], [[0, "1", 2]], "p"]:
        with pytest.raises(InvalidChannelError, match="pairs"):
            custom_channel_from_json(row(bad))
    for bad in [{"default": "uniform"}, [], "rows"]:
        with pytest.raises(InvalidChannelError, match="rows"):
            custom_channel_from_json(bad)
    ch = custom_channel_from_json(row([[0, "1 - p"], [1, "p"]]))
    assert ch.name == "custom" and CustomChannel({}).name == "custom"
    assert custom_channel_from_json(row([[0, 1], [1, 0]]), name="mine").name == "mine"
    assert ch.rows(Nim(2), 2).at(fmpq(1, 4))[0] == [fmpq(3, 4), fmpq(1, 4)]


def test_a_sum_witness_is_a_point_where_the_sum_is_not_1():
    """Row (1 - p, p + p(2p - 1)(p - 1)): entries >= 0 (2p^2 - 3p + 2 > 0), sum
    1 + p(2p - 1)(p - 1), which is 1 at p = 0, 1/2 and 1, the first points
    tried: the error must still name a p of [0, 1] where the sum is not 1."""
    with pytest.raises(InvalidChannelError, match="sum") as err:
        check(two_moves("1 - p", "p + p*(2*p - 1)*(p - 1)"))
    x = as_fmpq(err.value.p)
    assert 0 <= x <= 1 and x * (2 * x - 1) * (x - 1) != 0
    assert f"at p = {x} the sum is {1 + x * (2 * x - 1) * (x - 1)}" in str(err.value)


def test_custom_channel_errors_name_moves_by_their_labels():
    """On Chomp the moves are squares: a negative entry is reported with the
    sent and received squares, not their indices."""
    ch = CustomChannel({(2, 2): {(1, 2): {(1, 2): "1 - 2*p", (2, 2): "2*p"}}}, default="king")
    with pytest.raises(InvalidChannelError) as err:
        ch.check(Chomp(2, 2), (2, 2), ch.rows(Chomp(2, 2), (2, 2)), (0, 1))
    assert (err.value.sent, err.value.received) == ((1, 2), (1, 2)) and "position (2,2)" in str(err.value)


def test_custom_channel_cache_keys():
    """The same table written in another order has the same key; another
    table, another default or a default without a key change it or make it None."""
    a = CustomChannel({2: {0: {0: "1 - p", 1: "p"}, 1: {1: 1}}}, default="identity")
    b = CustomChannel({2: {1: {1: 1}, 0: {1: "p", 0: "1 - p"}}}, default="identity")
    c = CustomChannel({2: {0: {0: "1 - p/2", 1: "p/2"}, 1: {1: 1}}}, default="identity")
    d = CustomChannel({2: {0: {0: "1 - p", 1: "p"}, 1: {1: 1}}}, default="uniform")
    e = CustomChannel({2: {0: {0: "1 - p", 1: "p"}, 1: {1: 1}}})
    assert a.key() == b.key() and a.key().startswith("custom:") and len(a.key()) == len("custom:") + 16
    assert len({a.key(), c.key(), d.key(), e.key()}) == 4
    assert CustomChannel(lambda v, w, u: 1).key() is None
    assert CustomChannel({}, default=BinaryChannel(encoding=lambda g, v: (1, (0,)))).key() is None
    # lists and tuples, nested: the canonical form of the table
    f = CustomChannel({(2, 2): {(1, 2): [[(1, 2), "p"], [(2, 2), "1 - p"]]}}, default="king")
    g = CustomChannel({(2, 2): {(1, 2): [[(1, 2), "p"], [(2, 2), "1 - p"]]}}, default="king")
    assert f.key() == g.key() != CustomChannel({(2, 2): {(1, 2): [[(2, 2), "p"], [(1, 2), "1 - p"]]}}, default="king").key()
    # the same probabilities received as other moves: another channel (other rows), another key
    h = CustomChannel({2: {0: {0: "1 - p", 1: "p"}}}, default="identity")
    k = CustomChannel({2: {0: {0: "p", 1: "1 - p"}}}, default="identity")
    assert h.rows(Nim(2), 2).at(fmpq(1, 3)) != k.rows(Nim(2), 2).at(fmpq(1, 3)) and h.key() != k.key()


def test_custom_channel_tables_defaults_and_errors():
    """Positions without a table and sent moves without a row use the
    default; an illegal or repeated move and an unreadable entry are errors
    that name the position, the sent and the received move."""
    ch = CustomChannel({2: {1: {1: 1}}}, default="uniform")
    assert ch.rows(Nim(2), 2).at(fmpq(1, 3)) == [[fmpq(1, 2), fmpq(1, 2)], [0, 1]]  # sent 0: the default's row
    assert ch.rows(Nim(3), 3).at(fmpq(1, 3)) == [[fmpq(1, 3)] * 3] * 3  # no table at 3
    with pytest.raises(InvalidChannelError, match="psi at position 2: the sent move 7 is not a legal move") as err:
        CustomChannel({2: {7: {0: 1}}}).rows(Nim(2), 2)
    assert (err.value.position, err.value.sent, err.value.received) == (2, 7, None)
    with pytest.raises(InvalidChannelError, match="position 2, sent 0: the received move 5") as err:
        CustomChannel({2: {0: {5: 1}}}).rows(Nim(2), 2)
    assert (err.value.sent, err.value.received) == (0, 5)
    with pytest.raises(InvalidChannelError, match="given twice"):
        CustomChannel({2: {0: [(0, "p"), (0, "1 - p")], 1: {1: 1}}}).rows(Nim(2), 2)
    with pytest.raises(InvalidChannelError, match="position 2, sent 0, received 1") as err:
        CustomChannel({2: {0: {0: "1", 1: "sqrt(p)"}, 1: {1: 1}}}).rows(Nim(2), 2)
    assert (err.value.position, err.value.sent, err.value.received) == (2, 0, 1)
    with pytest.raises(InvalidChannelError, match="position 2, sent 1, received 0") as err:
        CustomChannel(lambda v, w, u: "sqrt(p)" if (w, u) == (1, 0) else int(w == u)).rows(Nim(2), 2)
    with pytest.raises(ChannelNotApplicableError, match="king channel"):
        NeighbourChannel("king").rows(Nim(3), 3)


def test_validate_rows_without_a_game_and_after_a_root_at_the_end():
    """Without a game the moves are named by index; an entry vanishing at p = 0
    and negative only near p = 3/10 is still found negative."""
    bad = two_moves("1 - 2*p", "2*p").rows(Nim(2), 2)
    with pytest.raises(InvalidChannelError) as err:
        validate_rows(bad)
    assert (err.value.sent, err.value.received) == (0, 0) and "position None" in str(err.value)
    # a position without its game: named by its repr, the moves by index
    with pytest.raises(InvalidChannelError, match=r"position \(2, 1\), sent 0") as err:
        validate_rows(bad, position=(2, 1))
    assert err.value.position == (2, 1) and (err.value.sent, err.value.received) == (0, 0)
    e = "p*((10*p - 3)*(10*p - 3) - 1/1000000)"  # 0 at p = 0, < 0 on (0.2999, 0.3001)
    with pytest.raises(InvalidChannelError, match="negative") as err:
        check(two_moves(e, f"1 - ({e})"))
    x = as_fmpq(err.value.p)
    assert x * ((10 * x - 3) ** 2 - fmpq(1, 10**6)) < 0


def test_binary_channel_names():
    import functools

    enc = functools.partial(lambda game, v, shift: (v.bit_length(), tuple(game.followers(v))), shift=0)
    assert BinaryChannel(encoding=enc).name == "binary[custom encoding]"
    assert BinaryChannel(encoding=enc, name="plain").name == "plain" and BinaryChannel().name == "binary"


def test_register_channel():
    from symbolic_noise.games import channels

    channels.register_channel("identity-again", lambda: get_channel("identity"))
    try:
        assert "identity-again" in channels.channel_names()
        assert get_channel("identity-again").rows(Nim(2), 2).at(fmpq(1, 2)) == [[1, 0], [0, 1]]
    finally:
        del channels._BUILTIN["identity-again"]


def test_a_channel_function_sees_the_position():
    """psi(v, w, u) may depend on the position v: noiseless from a heap of 2,
    every move received as 'take all' from a heap of 3."""
    ch = CustomChannel(lambda v, w, u: int(w == u) if v == 2 else int(u == 0))
    assert ch.rows(Nim(2), 2).at(fmpq(1, 3)) == [[1, 0], [0, 1]]
    assert ch.rows(Nim(3), 3).at(fmpq(1, 3)) == [[1, 0, 0]] * 3
