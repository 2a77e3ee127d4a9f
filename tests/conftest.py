"""Shared test settings: hypothesis profiles and small helpers."""

import copy
import os
import tempfile

import pytest

from hypothesis import HealthCheck, settings

# never touch the user's own cache: every test process gets a fresh one
os.environ["SYMBOLIC_NOISE_CACHE"] = os.path.join(tempfile.mkdtemp(prefix="sn-cache-"), "solutions.sqlite")

settings.register_profile(
    "default",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=600, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def tampered():
    """A function returning a deep copy of a certificate with one edit applied."""

    def make(cert, edit):
        cert = copy.deepcopy(cert)
        edit(cert)
        return cert

    return make


def random_graph(draw, max_positions: int = 7) -> dict:
    """A random acyclic game graph ``{v: followers}`` on positions 0..n-1, the
    last one reaching 0 at least (for a hypothesis ``@composite``'s ``draw``)."""
    from hypothesis import strategies as st

    n = draw(st.integers(2, max_positions))
    graph = {}
    for v in range(1, n):
        fs = draw(st.lists(st.integers(0, v - 1), unique=True, max_size=4))
        if fs:
            graph[v] = fs
    graph.setdefault(n - 1, [0])
    return graph


def assert_matches_pointwise(game, channel, ps, misere: bool) -> None:
    """The exact piecewise solve agrees, value and optimal set at every
    position, with exact backward induction at the rationals ``ps`` and at
    every rational breakpoint."""
    from flint import fmpq

    from symbolic_noise.solvers.onepoint.pointwise import evaluate
    from symbolic_noise.solvers.piecewise import solve

    sol = solve(game, channel, misere=misere)
    points = [fmpq(p.numerator, p.denominator) for p in ps]
    for v in game.positions():
        points += [x.rational_value for x in sol.value(v).points if x.is_rational]
    for p in points:
        direct = evaluate(game, channel, p, misere=misere)
        for v in game.positions():
            res = sol.at(p, v)
            assert res.value == direct[v].value, (v, p)
            assert res.optimal == direct[v].optimal, (v, p)
            assert 0 <= res.value <= 1


class Here:
    """An executor that runs each call at once (one parallel 'worker' per instance)."""

    def submit(self, fn, *args, **kwargs):
        from concurrent.futures import Future

        f = Future()
        f.set_result(fn(*args, **kwargs))
        return f


class RecordingStore:
    """A solve's ``store`` that keeps what it is given and refuses a position twice."""

    def __init__(self):
        self.saved = {}

    def save(self, v, value):
        assert v not in self.saved
        self.saved[v] = value


def assert_same_solution(a, b) -> None:
    """Every position's formulas, breakpoints and optimal sets agree."""
    assert a.positions() == b.positions()
    for v in a.positions():
        assert a.value(v) == b.value(v), v
        assert a.value(v).labels == b.value(v).labels, v
        assert a.value(v).point_labels == b.value(v).point_labels, v
