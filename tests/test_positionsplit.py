"""Parallel solves split by positions give exactly the serial results, however
the workers' tasks are interleaved."""

import json
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from flint import fmpq

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.errors import CacheError
from symbolic_noise.games.channels import get_channel
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.solvers.storage import codec
from symbolic_noise.solvers.schedules.positionsplit import levels, prefer_positions, solve_by_positions

from conftest import Here, RecordingStore
from conftest import assert_same_solution as same


class Jumbled:
    """A worker whose tasks run on two threads after random delays, so that
    they overlap and finish out of order (as on a Dask worker with several
    threads): the worker's lock and the driver's bookkeeping must cope."""

    def __init__(self, seed):
        self.pool = ThreadPoolExecutor(2)
        self.rng = random.Random(seed)
        self.lock = threading.Lock()

    def submit(self, fn, *args, **kwargs):
        with self.lock:
            pause = self.rng.random() * 0.002

        def run():
            time.sleep(pause)
            return fn(*args, **kwargs)

        return self.pool.submit(run)

    def shutdown(self):
        self.pool.shutdown()


GAMES = [(Chomp(3, 3), "king"), (Chomp(2, 4), "rook"), (Chomp(3, 3), "all"), (MultiNim((2, 3)), "binary"), (Nim(9), "binary")]


@pytest.mark.parametrize("game,channel", GAMES, ids=lambda x: getattr(x, "describe", lambda: x)())
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_matches_serial(game, channel, workers):
    stats = {}
    par = solve_by_positions(game, channel, executors=[Here() for _ in range(workers)], stats=stats)
    same(solve(game, channel), par)
    solved = [v for _, positions, _, _ in stats["tasks"] for v in positions]
    mirrored = stats.get("mirrored", [])
    assert sorted(solved + mirrored, key=repr) == sorted((v for v in game.positions() if game.followers(v)), key=repr)
    if isinstance(game, Chomp) and game.rows == game.cols:
        # a square board: the transposed positions are mirrored, never solved twice
        t = game.symmetry()
        assert mirrored and all(t.position(v) in solved for v in mirrored)
    else:
        assert not mirrored
    if workers > 1 and isinstance(game, Chomp):
        assert len({i for i, _, _, _ in stats["tasks"]}) > 1  # the work was shared


def same_on_jumbled_workers(game, channel, seeds):
    """The serial solution, and the split one on Jumbled workers with each
    list of ``seeds`` (one worker per seed)."""
    serial = solve(game, channel)
    for row in seeds:
        workers = [Jumbled(seed) for seed in row]
        try:
            same(serial, solve_by_positions(game, channel, executors=workers))
        finally:
            for w in workers:
                w.shutdown()
    return serial


def test_interleaved_tasks_on_threads():
    same_on_jumbled_workers(Chomp(3, 4), "king", [(0, 10), (1, 11)])


def test_interleaved_tasks_with_breakpoint_keys():
    """Tasks that run out of order still find every breakpoint key the values
    sent to them name (the driver counts a key as held only once the task
    that carried its definition is done)."""
    serial = same_on_jumbled_workers(Chomp(4, 3), "all", [(s + 20, s + 30, s + 40) for s in range(3)])
    assert any(not x.is_rational for x in serial.value().points)


def test_breakpoint_keys_are_each_workers_own_and_decode_elsewhere():
    from symbolic_noise.exact.interning import Interner
    from symbolic_noise.solvers.schedules.positionsplit import _Keys, _pack, _unpack

    values = list(solve(Chomp(4, 4), "king").values().values())
    a, b = _Keys(0, 2), _Keys(1, 2)
    wires = [codec.encode(f, wire=True, point=a.encode_point) for f in values]
    defs = a.take()
    named = {x for w in wires for x in w["points"] if type(x) is int}
    irrational = [x for f in values for x in f.points if not x.is_rational]
    # one key per distinct breakpoint object, even keys only, each defined once
    assert named == set(defs) and all(k % 2 == 0 for k in named)
    assert len(named) == len({id(x) for x in irrational}) < len(irrational)
    assert a.take() == {}  # taken: not defined again
    # worker b decodes them with the definitions, and names them by a's keys after
    interner = Interner()
    b.define(defs, interner)
    got = [interner.function(_unpack(_pack(w), b.table)) for w in wires]
    assert got == values
    again = codec.encode(got[-1], wire=True, point=b.encode_point)
    assert again["points"] == wires[-1]["points"] and b.take() == {}
    # a breakpoint b made itself gets an odd key
    own = solve(Nim(5), "binary").value()
    keys = [x for x in codec.encode(own, wire=True, point=b.encode_point)["points"] if type(x) is int]
    assert keys and all(k % 2 == 1 for k in keys)
    # a key the receiver was not given is an error, not a wrong point
    with pytest.raises(CacheError):
        codec.decode(wires[-1], trusted=True, table={})


def test_processes():
    pools = [ProcessPoolExecutor(1) for _ in range(2)]
    try:
        stats = {}
        par = solve_by_positions(Chomp(3, 4), "king", executors=pools, stats=stats)
    finally:
        for pool in pools:
            pool.shutdown()
    same(solve(Chomp(3, 4), "king"), par)
    assert stats["shipped"] > 0 and len(stats["idle"]) == 2


def test_sub_interval_misere_known_store_and_progress():
    game = Chomp(3, 3)
    serial = solve(game, "king", ("1/4", "7/8"), misere=True)
    known = {v: serial.value(v) for v in game.positions() if sum(v) <= 3}

    store, seen = RecordingStore(), []
    par = solve_by_positions(game, "king", ("1/4", "7/8"), executors=[Here(), Here()], misere=True, known=known,
                             store=store, progress=lambda p: seen.append((p.done, p.total)))
    same(serial, par)
    todo = {v for v in game.positions() if v not in known and game.followers(v)}
    assert set(store.saved) == todo  # neither the known positions nor the terminal one
    assert all(store.saved[v] == par.value(v) for v in todo)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (len(game.positions()),) * 2
    with pytest.raises(ValueError):
        solve_by_positions(game, "king", executors=[])


def test_a_cache_gets_the_workers_json_text():
    """A store with ``save_text`` (the SQLite cache) receives the text the
    workers made (the cache's JSON of the serial values, up to the isolating
    intervals of the breakpoints, which refinements in different processes
    leave different), and the driver decodes only the values that are read."""
    from symbolic_noise.solvers.schedules import positionsplit

    class TextStore(RecordingStore):
        def save_text(self, v, text, degree=None):
            assert v not in self.saved
            self.saved[v] = text
            self.degrees[v] = degree

    store = TextStore()
    store.degrees = {}
    game = Chomp(3, 4)
    par = solve_by_positions(game, "king", executors=[Here(), Here()], store=store)
    values = par._values
    assert isinstance(values, positionsplit._Values) and values._encoded  # nothing read yet
    serial = solve(game, "king")
    # the report's sizes decode no value but the start's (the largest degree is the workers' word)
    encoded = len(values._encoded)
    assert par.stats() == serial.stats()
    assert len(values._encoded) >= encoded - 1
    assert set(store.saved) == {v for v in game.positions() if game.followers(v)}
    for v, text in store.saved.items():
        got = codec.decode(json.loads(text))
        assert got == serial.value(v) and got.labels == serial.value(v).labels, v
        assert got.point_labels == serial.value(v).point_labels, v
        assert store.degrees[v] == max(g.degree for g in serial.value(v).formulas), v  # (the cache records it)
    same(serial, par)
    assert not values._encoded  # every value read once is kept decoded
    assert par.values() == serial.values() and len(values) == len(game.positions())


def test_a_start_position_other_than_the_game_start():
    game = Chomp(3, 4)
    start = game.followers(game.start())[3]
    par = solve_by_positions(game, "rook", start=start, executors=[Here(), Here()])
    same(solve(game, "rook", start=start), par)
    assert par.start == start


def test_dask_pinned_workers():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            executors = [
                client.get_executor(workers=[w], allow_other_workers=False, pure=False)
                for w in sorted(client.scheduler_info()["workers"])
            ]
            par = solve_by_positions(Chomp(3, 3), "king", executors=executors)
    same(solve(Chomp(3, 3), "king"), par)


def test_which_split_suits_which_game():
    assert levels(Nim(12), Nim(12).positions()) == 13
    assert levels(Chomp(5, 6), Chomp(5, 6).positions()) == 30  # the full board to the poisoned square: 29 moves
    assert not prefer_positions(Nim(48), Nim(48).positions(), 2)
    assert prefer_positions(Chomp(5, 6), Chomp(5, 6).positions(), 2)
    assert not prefer_positions(Chomp(1, 8), Chomp(1, 8).positions(), 2)  # a row of squares is a chain


# --------------------------------------------------------------------------- the wire format


def test_wire_encoding_round_trips_and_shares_label_sets():
    f = solve(Chomp(3, 3), "king").value()
    data = codec.encode(f, wire=True)
    assert set(data["labels"]) == {"sets", "at"} and len(data["labels"]["sets"]) < len(f.labels)
    assert all(type(x) is tuple for x in data["points"] if not isinstance(x, dict))
    g = codec.decode(data, trusted=True)
    assert g == f and g.labels == f.labels and g.point_labels == f.point_labels
    # and through the checked path
    assert codec.decode(data) == f
    # the cache's JSON text is unchanged: lists of moves and decimal strings
    text = codec.encode(f)
    assert isinstance(text["labels"], list) and all(isinstance(x, (str, dict)) for x in text["points"])
    assert codec.decode(json.loads(json.dumps(text))) == f


@pytest.mark.parametrize("bad", [7, -1, "0", 1.0])
def test_wire_label_index_outside_the_table_is_refused(bad):
    data = codec.encode(solve(Nim(3), "binary").value(), wire=True)
    data["labels"]["at"][0] = bad
    with pytest.raises(CacheError, match="index"):
        codec.decode(data, trusted=True)


@pytest.mark.parametrize("bad", [(1, 0), (1, -2), (1.0, 2), ("1", 2)])
def test_wire_rational_must_be_a_pair_of_ints(bad):
    data = codec.encode(solve(Nim(3), "binary").value(), wire=True)
    data["points"][0] = bad
    with pytest.raises(CacheError):
        codec.decode(data, trusted=True)


def test_the_interner_keeps_one_object_per_optimal_move_set():
    from symbolic_noise.exact.interning import Interner

    sol = solve(Chomp(3, 4), "king")
    seen = Interner()
    values = [seen.function(codec.decode(codec.encode(f))) for f in sol.values().values()]
    sets = [s for f in values for s in f.labels + f.point_labels]
    assert len({id(s) for s in sets}) == len(set(sets)) < len(sets)
    assert all(g == f and g.labels == f.labels and g.point_labels == f.point_labels
               for g, f in zip(values, sol.values().values()))


@pytest.mark.parametrize("game,channel", [(Chomp(1, 1), "king"), (Chomp(1, 2), "king"), (Nim(0), "binary"), (Nim(1), "binary")],
                         ids=lambda x: getattr(x, "describe", lambda: x)())
def test_games_with_almost_nothing_to_hand_out(game, channel):
    stats = {}
    same(solve(game, channel), solve_by_positions(game, channel, executors=[Here(), Here()], stats=stats))
    assert len(stats.get("tasks", [])) == sum(1 for v in game.positions() if game.followers(v))


@pytest.mark.parametrize("game", [Chomp(4, 4), Chomp(3, 5)], ids=lambda g: g.describe())
def test_workers_forget_the_values_no_position_left_needs(game, monkeypatch):
    """A worker drops a value once every position that needs it is solved (a
    Chomp 7 x 7 king solve with --jobs 2 held nearly every value in each
    worker and ran out of memory); forgetting one too early would be a
    KeyError in the worker, and the result must stay the serial one."""
    from symbolic_noise.solvers.schedules.ranges import RangeWorker

    forgotten = []
    real = RangeWorker.forget
    monkeypatch.setattr(RangeWorker, "forget", lambda self, vs: forgotten.extend(vs) or real(self, vs))
    par = solve_by_positions(game, "king", executors=[Here(), Here()])
    same(solve(game, "king"), par)
    inner = [v for v in game.positions() if game.followers(v) and v != game.start()]
    assert len(set(forgotten) & set(inner)) > len(inner) / 2


def test_position_workers_keep_no_load_profile(monkeypatch):
    """A split by positions never reads the workers' load profile (it balances
    by positions, not p): they must not record one, which grew by a clock read
    and an entry per base cell for the whole solve.  A lockstep worker still does."""
    from symbolic_noise.solvers.schedules import positionsplit
    from symbolic_noise.solvers.schedules.ranges import RangeWorker

    made = []

    class Recorded(RangeWorker):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(positionsplit, "RangeWorker", Recorded)
    pools = [ThreadPoolExecutor(1), ThreadPoolExecutor(1)]
    try:
        par = solve_by_positions(Chomp(3, 4), "king", executors=pools)
    finally:
        for pool in pools:
            pool.shutdown()
    same(par, solve(Chomp(3, 4), "king"))
    assert len(made) == 2 and all(not w.profiling and w.profile == [] for w in made)
    assert all(w.values for w in made)  # both solved positions
    lockstep = RangeWorker(Nim(3), get_channel("binary"), fmpq(0), fmpq(1))
    for v in range(4):
        lockstep.solve_position(v)
    assert lockstep.profile and all(0 <= x <= 1 and s >= 0 for x, s in lockstep.profile)
