"""The collector's thresholds during solves (symbolic_noise.solvers.piecewise.collector):
raised while a solve runs, the caller's back afterwards, and no change to what
is computed."""

import gc
import threading

import pytest

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.solvers.storage import codec
from symbolic_noise.solvers.piecewise.collector import THRESHOLDS, fewer_collections


@pytest.fixture
def own_thresholds():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_thresholds_raised_inside_and_restored_after(own_thresholds):
    seen = []
    with fewer_collections():
        seen.append(gc.get_threshold())
        with fewer_collections():  # nested: still raised
            seen.append(gc.get_threshold())
        seen.append(gc.get_threshold())
    assert seen == [THRESHOLDS] * 3
    assert gc.get_threshold() == (700, 10, 10)


def test_restored_after_an_exception(own_thresholds):
    with pytest.raises(ZeroDivisionError):
        with fewer_collections():
            1 / 0
    assert gc.get_threshold() == (700, 10, 10)


def test_a_callers_higher_thresholds_are_kept(own_thresholds):
    gc.set_threshold(10**6, 5, 1000)
    with fewer_collections():
        assert gc.get_threshold() == (10**6, THRESHOLDS[1], 1000)
    assert gc.get_threshold() == (10**6, 5, 1000)


def test_threads_the_last_to_leave_restores(own_thresholds):
    inside = threading.Barrier(3)
    leave = threading.Event()

    def work():
        with fewer_collections():
            inside.wait()
            leave.wait()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert gc.get_threshold() == THRESHOLDS
    leave.set()
    for t in threads:
        t.join()
    assert gc.get_threshold() == (700, 10, 10)


def test_a_solve_restores_the_thresholds_and_its_result_is_unchanged(own_thresholds):
    """The same Chomp and Nim values with the collector's defaults and with
    it disabled for the whole solve (a solve frees nothing by the collector
    that it needs later)."""
    games = [(Chomp(3, 4), "king"), (Nim(12), "binary")]
    relaxed = [codec.encode(solve(g, ch).value()) for g, ch in games]
    assert gc.get_threshold() == (700, 10, 10)
    gc.disable()
    try:
        plain = [codec.encode(solve(g, ch).value()) for g, ch in games]
    finally:
        gc.enable()
    assert relaxed == plain
