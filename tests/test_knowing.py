"""The value of knowing p against an independent exact evaluation of both games."""

import json

from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import Nim
from symbolic_noise.io.cli import main
from symbolic_noise.analysis.knowing import compare_values, extremum, value_of_knowing, zero_set
from symbolic_noise.exact.piecewise import PointValue
from test_players import evaluate_players, random_channel, random_game

rational_p = st.fractions(min_value=0, max_value=1, max_denominator=50)


def _check(k, game, channels, reading, ps):
    informed = ("optimal", "optimal") if reading == "both" else ("optimal", "classical")
    f = k.delta
    points = [fmpq(p.numerator, p.denominator) for p in ps] + [x.rational_value for x in f.points if x.is_rational]
    for p in points:
        a = evaluate_players(game, channels, informed, p)[(game.start(), 1)][0]
        b = evaluate_players(game, channels, ("classical", "classical"), p)[(game.start(), 1)][0]
        assert f(p) == a - b
        assert compare_values(PointValue(f.formula_at(p), _ra(p)), k.maximum) <= 0
        assert compare_values(PointValue(f.formula_at(p), _ra(p)), k.minimum) >= 0
        assert (f(p) == 0) == (any(x.rational_value == p for x in k.zeros) or any(
            a_.compare(_ra(p)) <= 0 <= b_.compare(_ra(p)) for a_, b_ in k.zero_intervals))
    for x in k.argmax:
        assert compare_values(PointValue(f.formula_at(x), x), k.maximum) == 0
    for x in k.argmin:
        assert compare_values(PointValue(f.formula_at(x), x), k.minimum) == 0


def _ra(p):
    from symbolic_noise.exact.algebraic import RealAlgebraic

    return RealAlgebraic.rational(p)


@settings(max_examples=40)
@given(st.data(), st.lists(rational_p, min_size=1, max_size=3), st.sampled_from(["both", "first"]))
def test_value_of_knowing_on_random_games(data, ps, reading):
    game, graph = data.draw(random_game())
    ch = random_channel(data.draw, graph)
    k = value_of_knowing(game, ch, reading=reading)
    _check(k, game, (ch, ch), reading, ps)


def test_nim10_value_of_knowing_exact_maximum():
    k = value_of_knowing(Nim(10), "binary")
    assert k.maximum.decimal(12) == "0.0266529338147"
    (x,) = k.argmax
    assert x.decimal(12) == "0.936463638543"
    assert k.minimum.decimal(6) == "-0.00727381"  # knowing p can hurt the first player
    (iv,) = k.zero_intervals
    assert str(iv[0]) == "0" and str(iv[1]) == "1/2"  # Conjecture 9: optimal = classical on [0, 1/2]
    first = value_of_knowing(Nim(10), "binary", reading="first")
    assert str(first.maximum) == "1/2" and [str(x) for x in first.argmax] == ["1"]
    assert str(first.minimum) == "0"


def test_extremum_and_zeros_of_N3():
    from symbolic_noise import solve

    f = solve(Nim(3), "binary").value()
    m = extremum(f, "max")
    assert str(m.value) == "1" and [str(x) for x in m.points] == ["0"]
    assert zero_set(f) == ((), (f.points[-1],))


def test_cli_compare_json(capsys):
    assert main(["compare", "nim", "5", "--reading", "first", "--format", "json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "symbolic-noise.knowing/1"
    assert data["maximum"]["value"] == "1/2" and data["maximum"]["points"][0]["exact"] == "1"
    assert data["informed"] == "optimal vs classical"
