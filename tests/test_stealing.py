"""p-ranges that run apart and steal work give exactly the serial results,
wherever the steals cut."""

import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from flint import fmpq

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.solvers.schedules import stealing
from symbolic_noise.solvers.schedules.stealing import estimate_cut, solve_stealing

from conftest import Here, RecordingStore
from conftest import assert_same_solution as same


class Lagging(ThreadPoolExecutor):
    """A one-thread worker that sleeps before every task: the others run ahead
    of it, finish first and steal from it."""

    def __init__(self, delay: float):
        super().__init__(1)
        self.delay = delay

    def submit(self, fn, *args, **kwargs):
        def late():
            time.sleep(self.delay)
            return fn(*args, **kwargs)

        return super().submit(late)


@pytest.fixture
def random_steals(monkeypatch):
    """Steals at random cuts (strictly inside the victim's range, as the
    driver asks), and as soon as the victim has one position to go."""
    rng = random.Random(7)
    lock = threading.Lock()

    def cut(profile, lo, hi, share):
        with lock:
            c = lo + (hi - lo) * fmpq(rng.randint(1, 63), 64)
        return c

    monkeypatch.setattr(stealing, "estimate_cut", cut)
    monkeypatch.setattr(stealing, "_MIN_AHEAD", 1)


def _executors(workers: int) -> list:
    return [Here()] + [Lagging(0.002 * i) for i in range(1, workers)]


def _shutdown(executors) -> None:
    for ex in executors:
        if hasattr(ex, "shutdown"):
            ex.shutdown()


GAMES = [(Nim(14), "binary"), (Chomp(2, 3), "king"), (Chomp(3, 3), "rook"), (MultiNim((2, 3)), "binary")]


@pytest.mark.parametrize("game,channel", GAMES, ids=lambda x: getattr(x, "describe", lambda: x)())
@pytest.mark.parametrize("workers", [2, 3])
@pytest.mark.parametrize("probe", [True, False])
def test_matches_serial_with_random_steals(game, channel, workers, probe, random_steals):
    serial = solve(game, channel)
    executors = _executors(workers)
    stats: dict = {}
    try:
        par = solve_stealing(game, channel, executors=executors, probe=probe, stats=stats)
    finally:
        _shutdown(executors)
    same(serial, par)
    if isinstance(game, Nim):
        assert stats.get("steals", 0) >= 1  # the lagging workers were stolen from
    # every steal is recorded: the thief then solved the victim's position again
    assert len(stats.get("stolen", [])) == stats.get("steals", 0)
    for thief, victim, i, _ in stats.get("stolen", []):
        assert thief != victim
        assert any(w == thief and j == i for w, j, *_ in stats["tasks"])
        assert any(w == victim and j == i for w, j, *_ in stats["tasks"])
    assert len(stats["cpu"]) == workers


def test_a_range_worker_takes_given_values_as_one_stream():
    """The values handed to a new range are one stream (the driver encodes
    them with one memo): a breakpoint sent before is its number, and the
    range worker decodes them to the same values, one object per point."""
    from symbolic_noise.games.channels import get_channel
    from symbolic_noise.solvers.storage import codec
    from symbolic_noise.solvers.schedules.ranges import _remote_start, _remote_stop, _worker

    values = solve(Nim(12), "binary").values()
    memo: dict = {}
    given = [(v, codec.encode(f, wire=True, memo=memo)) for v, f in values.items()]
    assert any(type(x) is int for _, data in given for x in data["points"])
    _remote_start("given-stream-test", Nim(12), get_channel("binary"), "0", "1", False, given)
    try:
        worker = _worker("given-stream-test")
        assert worker.values == values
        by_id: dict = {}
        for v, f in values.items():
            for x, y in zip(f.points, worker.values[v].points):
                if not x.is_rational:
                    assert by_id.setdefault(id(x), y) is y
    finally:
        _remote_stop("given-stream-test")


def test_results_travel_by_number_through_steals(monkeypatch):
    """A range worker's results name a breakpoint it sent before by its
    number; through steals (which start new range workers) the solve is still
    the serial one."""
    from symbolic_noise.solvers.storage import codec

    numbered = [0]
    encode_point = codec.encode_point

    def counting(x, wire=False, memo=None):
        out = encode_point(x, wire, memo)
        if type(out) is int and threading.current_thread() is not threading.main_thread():
            numbered[0] += 1  # (the driver encodes on the main thread, the workers off it)
        return out

    monkeypatch.setattr(codec, "encode_point", counting)
    serial = solve(Nim(14), "binary")
    # the second worker 30 ms slower a task: the first runs out of work and
    # steals, even on a loaded machine
    executors = [Lagging(0.0), Lagging(0.03)]
    stats: dict = {}
    try:
        par = solve_stealing(Nim(14), "binary", executors=executors, stats=stats)
    finally:
        _shutdown(executors)
    same(serial, par)
    assert stats.get("steals", 0) >= 1 and numbered[0] > 0


def test_default_cuts_and_processes():
    serial = solve(Nim(16), "binary")
    pools = [ProcessPoolExecutor(1) for _ in range(2)]
    try:
        par = solve_stealing(Nim(16), "binary", executors=pools)
    finally:
        for pool in pools:
            pool.shutdown()
    same(serial, par)


def test_sub_interval_misere_and_known(random_steals):
    serial = solve(Nim(9), "binary", ("1/4", "7/8"), misere=True)
    executors = _executors(3)
    try:
        par = solve_stealing(Nim(9), "binary", ("1/4", "7/8"), executors=executors[:2], misere=True)
        same(serial, par)
        known = {v: serial.value(v) for v in range(5)}
        par = solve_stealing(Nim(9), "binary", ("1/4", "7/8"), executors=executors, misere=True, known=known)
        same(serial, par)
    finally:
        _shutdown(executors)


def test_store_progress_and_one_worker(random_steals):
    store, seen = RecordingStore(), []
    known = {0: solve(Nim(0), "binary").value(0), 1: solve(Nim(1), "binary").value(1)}
    executors = _executors(2)
    try:
        par = solve_stealing(Nim(9), "binary", executors=executors, store=store, known=known,
                             progress=lambda p: seen.append(p.done))
    finally:
        _shutdown(executors)
    # the probe's positions and the workers' alike; not the known ones, not the terminal 0
    assert set(store.saved) == set(range(2, 10))
    for v, value in store.saved.items():
        assert value == par.value(v)
    assert seen == sorted(seen) and seen[-1] == 10
    par = solve_stealing(Nim(6), "binary", executors=[Here()])
    same(solve(Nim(6), "binary"), par)
    with pytest.raises(ValueError):
        solve_stealing(Nim(6), "binary", executors=[])


def test_a_start_position_other_than_the_game_start(random_steals):
    game = Chomp(3, 3)
    start = game.followers(game.start())[2]
    executors = _executors(2)
    try:
        par = solve_stealing(game, "king", start=start, executors=executors)
    finally:
        _shutdown(executors)
    serial = solve(game, "king", start=start)
    same(serial, par)
    assert par.start == serial.start


def test_dask_pinned_workers():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            executors = [
                client.get_executor(workers=[w], allow_other_workers=False, pure=False)
                for w in sorted(client.scheduler_info()["workers"])
            ]
            par = solve_stealing(Nim(12), "binary", executors=executors)
    same(solve(Nim(12), "binary"), par)


def test_estimate_cut_places_the_share():
    profile = [(fmpq(i, 100), 1.0) for i in range(1, 100)]
    lo, hi = fmpq(0), fmpq(1)
    for share in (0.1, 0.25, 0.5, 0.9):
        c = estimate_cut(profile, lo, hi, share)
        above = sum(w for x, w in profile if x > c) / len(profile)
        assert lo < c < hi and abs(above - share) <= 0.02
    # no profile: the middle; a cut always lies strictly inside, with a short denominator
    assert estimate_cut([], fmpq(1, 4), fmpq(3, 4), 0.5) == fmpq(1, 2)
    c = estimate_cut([(fmpq(1, 3), 5.0)], fmpq(1, 3), fmpq(1, 3) + fmpq(1, 2**30), 0.99)
    assert fmpq(1, 3) < c < fmpq(1, 3) + fmpq(1, 2**30)


def test_a_worker_that_lost_its_state_is_reported():
    from symbolic_noise.errors import WorkerLostError
    from symbolic_noise.solvers.schedules import ranges as lockstep

    class Forgetful(Here):
        """Forgets every range after a few tasks (a restarted worker)."""

        calls = 0

        def submit(self, fn, *args, **kwargs):
            if fn is stealing._remote_step:
                Forgetful.calls += 1
                if Forgetful.calls > 4:
                    lockstep._WORKERS.clear()
            return super().submit(fn, *args, **kwargs)

    with pytest.raises(WorkerLostError, match="does not hold its range"):
        solve_stealing(Nim(12), "binary", executors=[Forgetful(), Forgetful()])
