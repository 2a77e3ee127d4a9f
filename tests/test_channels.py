"""Channels: the built-in distributions are valid, match theory.md, and custom
distributions are validated exactly."""

from fractions import Fraction

import pytest
from flint import fmpq
from hypothesis import given
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
from symbolic_noise.exact.polys import as_fmpq


def q_fraction(s, r, n, p):
    d = bin(s ^ r).count("1")
    return p**d * (1 - p) ** (n - d)


@pytest.mark.parametrize("name", ["identity", "uniform", "binary"])
def test_builtin_channels_are_distributions_on_nim(name):
    ch = get_channel(name)
    for k in range(1, 17):
        validate_rows(ch.rows(Nim(k), k), (0, 1), game=Nim(k), position=k)


@pytest.mark.parametrize("name", ["identity", "uniform", "king", "rook", "all"])
def test_builtin_channels_are_distributions_on_chomp(name):
    ch, g = get_channel(name), Chomp(3, 4)
    for v in g.positions():
        if g.followers(v):
            validate_rows(ch.rows(g, v), (0, 1), game=g, position=v)


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
    ch.check(g, k, ch.rows(g, k), interval)


def test_valid_custom_channels():
    check(two_moves("1 - p/2", "p/2"))
    check(two_moves("1/(1+p)", "p/(1+p)"))
    check(two_moves("(1-p)**2", "p*(2-p)"))
    check(CustomChannel(lambda v, w, u: "1 - p" if w == u else "p"), k=2)
    # 1 - 2p is a probability on [0, 1/2] only
    check(two_moves("1 - 2*p", "2*p"), interval=(0, "1/2"))


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


def test_rows_from_matrix_reduces_rows():
    from symbolic_noise.exact.ratfunc import RationalFunction as R

    rows = Rows.from_matrix([[R.from_expr("1/(1+p)"), R.from_expr("p/(1+p)")], [R.constant(0), R.constant(1)]])
    assert rows.den[0] == R.from_expr("1 + p").num
    assert rows.at(Fraction(1, 3)) == [[fmpq(3, 4), fmpq(1, 4)], [0, 1]]
