"""The asymmetric binary channel (0 -> 1 with p, 1 -> 0 with q) against its definition.

The reference here is written from the definition alone, in Fractions: the
weight of receiving r for a sent s is a product over the digits, renormalised
over the legal moves, and N_v = max_w sum_u psi(w, u) (1 - N_u) (both players
send through the same channel, so the game is symmetric).
"""

import random
from fractions import Fraction

import pytest
from flint import fmpq

from symbolic_noise.games.twoparameter import AsymmetricBinaryChannel
from symbolic_noise.games.channels import BinaryChannel, get_channel
from symbolic_noise.errors import ChannelNotApplicableError, InvalidChannelError
from symbolic_noise.games import Nim
from symbolic_noise.analysis.phase import phase
from symbolic_noise.solvers.piecewise import solve


def reference(k, p, q):
    """(N_k, optimal sent moves) at the rational point (p, q), from the definition."""
    game = Nim(k)
    N = {0: Fraction(0)}
    best = None
    for v in range(1, k + 1):
        width, codes = game.binary_encoding(v)
        fs = game.followers(v)
        vals = []
        for s in codes:
            w = []
            for r in codes:
                x = Fraction(1)
                for bit in range(width):
                    sb, rb = (s >> bit) & 1, (r >> bit) & 1
                    x *= (p if rb else 1 - p) if sb == 0 else ((1 - q) if rb else q)
                w.append(x)
            vals.append(sum(x * (1 - N[u]) for x, u in zip(w, fs)) / sum(w))
        N[v] = max(vals)
        best = frozenset(game.move_label(v, u) for u, x in zip(fs, vals) if x == N[v])
    return N[k], best


def to_fmpq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def test_rows_are_distributions_and_the_diagonal_is_binary():
    ch = AsymmetricBinaryChannel()
    rng = random.Random(3)
    for k in (3, 5, 6):
        rows = ch.rows2(Nim(k), k)
        binary = BinaryChannel().rows(Nim(k), k)
        for _ in range(5):
            p, q = fmpq(rng.randint(1, 30), 31), fmpq(rng.randint(1, 30), 31)
            for row in rows:
                assert sum((e(p, q) for e in row), fmpq(0)) == 1
            assert [[e(p, p) for e in row] for row in rows] == binary.at(p)


@pytest.mark.parametrize("k", [3, 4])
def test_locate_matches_the_definition(k):
    d = phase(Nim(k), "asymmetric")
    rng = random.Random(40 + k)
    # the definition divides by the row sum: points with p < 1 and q < 1 (the limits
    # at p = 1 or q = 1 are the diagonal test's and the fixed-channel tests' business)
    points = [(Fraction(rng.randint(0, 23), 24), Fraction(rng.randint(0, 23), 24)) for _ in range(12)]
    points += [(Fraction(1, 2), Fraction(1, 3)), (Fraction(1, 5), Fraction(4, 5)), (Fraction(0), Fraction(1, 2))]
    for p, q in points:
        value, optimal = reference(k, p, q)
        r = d.locate(to_fmpq(p), to_fmpq(q))
        assert r.value == to_fmpq(value), (k, p, q)
        assert r.optimal == optimal, (k, p, q)


def test_diagonal_is_the_binary_solution():
    d = phase(Nim(4), "asymmetric")
    one = solve(Nim(4), "binary").value()
    diag = d.diagonal()
    assert [str(a) for a, _, _ in diag[1:]] == [str(x) for x in one.breakpoints]
    assert [o for _, _, o in diag] == list(one.labels)


def test_one_parameter_use_and_mixing_are_refused():
    with pytest.raises(ChannelNotApplicableError):
        solve(Nim(3), "asymmetric")
    with pytest.raises(InvalidChannelError):
        phase(Nim(3), "asymmetric", "binary@q")
    assert get_channel("asymmetric").two_parameter
