"""Lockstep parallel solves (p-ranges re-balanced between rounds) give exactly
the serial results, whatever the cuts do."""

import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from flint import fmpq, fmpz_poly

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.games.channels import get_channel
from symbolic_noise.games.heapgames import MultiNim
from symbolic_noise.solvers.lockstep import Interner, RangeWorker, balance_cuts, solve_lockstep

from conftest import Here, RecordingStore
from conftest import assert_same_solution as same


def chaotic(seed):
    """A rebalance policy that moves every cut at random every round (within
    the neighbouring ranges, as the contract asks): it exercises every kind of
    hand-over, giving and taking at once included."""
    rng = random.Random(seed)

    def policy(ranges, loads, profiles):
        assert len(loads) == len(ranges) == len(profiles)
        if rng.random() < 0.2:
            return None
        cuts = []
        for i in range(len(ranges) - 1):
            lo = max(ranges[i][0], cuts[-1]) if cuts else ranges[i][0]
            hi = ranges[i + 1][1]
            c = lo + (hi - lo) * fmpq(rng.randint(1, 63), 64)
            cuts.append(c)
        return cuts

    return policy


GAMES = [(Nim(14), "binary"), (Chomp(2, 3), "king"), (Chomp(3, 3), "rook"), (MultiNim((2, 3)), "binary")]


@pytest.mark.parametrize("game,channel", GAMES, ids=lambda x: getattr(x, "describe", lambda: x)())
@pytest.mark.parametrize("workers", [2, 3])
def test_matches_serial_with_random_cuts(game, channel, workers):
    serial = solve(game, channel)
    for seed in range(2):
        par = solve_lockstep(game, channel, executors=[Here() for _ in range(workers)], rebalance=chaotic(seed))
        same(serial, par)


def test_default_balance_and_processes():
    serial = solve(Nim(16), "binary")
    pools = [ProcessPoolExecutor(1) for _ in range(2)]
    try:
        par = solve_lockstep(Nim(16), "binary", executors=pools)
    finally:
        for pool in pools:
            pool.shutdown()
    same(serial, par)


def test_threads_share_a_process():
    with ThreadPoolExecutor(1) as a, ThreadPoolExecutor(1) as b:
        par = solve_lockstep(Nim(10), "binary", executors=[a, b], rebalance=chaotic(3))
    same(solve(Nim(10), "binary"), par)


def test_sub_interval_misere_and_known():
    serial = solve(Nim(9), "binary", ("1/4", "7/8"), misere=True)
    par = solve_lockstep(Nim(9), "binary", ("1/4", "7/8"), executors=[Here(), Here()], misere=True,
                         rebalance=chaotic(1))
    same(serial, par)
    known = {v: serial.value(v) for v in range(5)}
    par = solve_lockstep(Nim(9), "binary", ("1/4", "7/8"), executors=[Here(), Here(), Here()], misere=True,
                         known=known, rebalance=chaotic(2))
    same(serial, par)


def test_one_worker_and_progress():
    seen = []
    par = solve_lockstep(Nim(6), "binary", executors=[Here()], progress=lambda p: seen.append(p.done))
    same(solve(Nim(6), "binary"), par)
    assert seen[-1] == 7 and seen == sorted(seen)
    with pytest.raises(ValueError):
        solve_lockstep(Nim(6), "binary", executors=[])


def test_dask_pinned_workers():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            executors = [
                client.get_executor(workers=[w], allow_other_workers=False, pure=False)
                for w in sorted(client.scheduler_info()["workers"])
            ]
            par = solve_lockstep(Nim(12), "binary", executors=executors, rebalance=chaotic(4))
    same(solve(Nim(12), "binary"), par)


# --------------------------------------------------------------------------- balancing


def test_balance_cuts_follows_the_work():
    half = [(fmpq(0), fmpq(1, 2)), (fmpq(1, 2), fmpq(1))]
    # all the work of the right range sits at 3/4 and 7/8: the cut moves between them
    cuts = balance_cuts(half, [1.0, 3.0], [[], [(fmpq(3, 4), 1.0), (fmpq(7, 8), 2.0)]])
    assert cuts == [fmpq(13, 16)]
    # balanced already: no move
    assert balance_cuts(half, [1.0, 1.02], [[(fmpq(1, 4), 1.0)], [(fmpq(3, 4), 1.02)]]) is None
    assert balance_cuts(half, [0.0, 0.0], [[], []]) is None
    assert balance_cuts(half[:1], [1.0], [[]]) is None


def test_balance_cuts_stay_inside_the_neighbours():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(2, 5)
        ends = sorted({fmpq(rng.randint(1, 999), 1000) for _ in range(n - 1)})
        if len(ends) < n - 1:
            continue
        ranges = list(zip([fmpq(0)] + ends, ends + [fmpq(1)]))
        loads = [rng.random() * 10 for _ in ranges]
        profiles = [
            [(lo + (hi - lo) * fmpq(rng.randint(0, 100), 100), rng.random()) for _ in range(rng.randint(0, 5))]
            for lo, hi in ranges
        ]
        cuts = balance_cuts(ranges, loads, profiles)
        if cuts is None:
            continue
        assert len(cuts) == n - 1
        full = [fmpq(0)] + cuts + [fmpq(1)]
        assert all(x < y for x, y in zip(full, full[1:]))
        for i, c in enumerate(cuts):  # every new range overlaps its old self
            assert ranges[i][0] < c < ranges[i + 1][1]


# --------------------------------------------------------------------------- pieces


def test_interner_tells_roots_apart():
    seen = Interner()
    f = fmpz_poly([1, -5, 5])  # roots (5 -+ sqrt 5)/10: 0.276..., 0.723...
    a = RealAlgebraic.root(f, fmpq(1, 5), fmpq(2, 5))
    b = RealAlgebraic.root(f, fmpq(3, 5), fmpq(4, 5))
    overlapping = RealAlgebraic.root(f, fmpq(1, 4), fmpq(1, 2))  # neither nested nor disjoint
    assert seen.point(a) is a and seen.point(b) is b
    assert seen.point(overlapping) is a
    half = RealAlgebraic.rational(fmpq(1, 2))
    assert seen.point(half) is half
    # intervals that touch at one point: the roots on either side are different
    g = fmpz_poly([2, -16, 16])  # 16p^2 - 16p + 2: 0.146..., 0.853...
    below = RealAlgebraic.root(g, 0, fmpq(1, 2))
    above = RealAlgebraic.root(g, fmpq(1, 2), 1)
    fresh = Interner()
    assert fresh.point(below) is below and fresh.point(above) is above


def test_range_worker_hand_over():
    ch = get_channel("binary")
    left = RangeWorker(Nim(5), ch, fmpq(0), fmpq(1, 2))
    right = RangeWorker(Nim(5), ch, fmpq(1, 2), fmpq(1))
    for v in range(4):
        left.solve_position(v)
        right.solve_position(v)
    gone_left, gone_right = left.shrink(fmpq(0), fmpq(1, 3))
    assert gone_left is None and set(gone_right) == set(range(4))
    right.grow(left=gone_right)
    assert (right.lo, right.hi) == (fmpq(1, 3), fmpq(1))
    left.solve_position(4), right.solve_position(4)
    full = solve(Nim(5), "binary")
    for v in range(5):
        assert full.value(v).restrict(fmpq(1, 3), 1) == right.values[v]
        assert full.value(v).restrict(0, fmpq(1, 3)) == left.values[v]
    with pytest.raises(ValueError):
        left.shrink(fmpq(1, 4), fmpq(1, 2))  # not inside the range
    with pytest.raises(ValueError):
        right.grow(left={0: full.value(0)})  # not every solved position


def test_a_worker_keeps_its_caches_on_the_part_of_its_range_it_keeps():
    """Moving a range's left end renumbers every piece; the pieces kept keep
    their normalised pairs and the names under which the slope bounds and
    enclosures are cached (not piece indices), and the next position is still
    the serial one."""
    from symbolic_noise.solvers.piecewise.followers import _Follower

    ch = get_channel("binary")
    worker = RangeWorker(Nim(13), ch, fmpq(1, 2), fmpq(1))
    for v in range(13):
        worker.solve_position(v)

    def pairs():
        out = {}
        for v, value in worker.values.items():
            for i, start in enumerate(value.points[:-1]):
                f = _Follower(v, value)
                f.enter(i, worker.norm)
                out[(v, id(start))] = (f.key, f.rf, f.neg)  # (the caches hold and compare rf)
        return out

    before = pairs()
    cut = fmpq(25, 32)
    worker.shrink(cut, fmpq(1))
    after = pairs()
    kept = [key for key in after if key in before]
    assert kept and len(kept) < len(before)
    assert all(after[key][0] == before[key][0] for key in kept)  # the caches' names
    assert all(after[key][1] is before[key][1] and after[key][2] is before[key][2] for key in kept)
    worker.solve_position(13)
    assert worker.values[13] == solve(Nim(13), "binary").value(13).restrict(cut, 1)


def test_a_worker_that_lost_its_state_is_reported():
    from symbolic_noise.errors import WorkerLostError
    from symbolic_noise.solvers import lockstep

    class Forgetful(Here):
        """Forgets every range after the first round (a restarted worker)."""

        calls = 0

        def submit(self, fn, *args, **kwargs):
            if fn is lockstep._remote_solve:
                Forgetful.calls += 1
                if Forgetful.calls > 2:
                    lockstep._WORKERS.clear()
            return super().submit(fn, *args, **kwargs)

    with pytest.raises(WorkerLostError, match="does not hold its range"):
        solve_lockstep(Nim(8), "binary", executors=[Forgetful(), Forgetful()])


def test_store_receives_every_solved_position():
    store = RecordingStore()
    par = solve_lockstep(Nim(9), "binary", executors=[Here(), Here()], store=store, rebalance=chaotic(5),
                         known={0: solve(Nim(0), "binary").value(0), 1: solve(Nim(1), "binary").value(1)})
    assert set(store.saved) == set(range(2, 10))  # not the known ones, not the terminal 0
    for v, value in store.saved.items():
        assert value == par.value(v)


def test_a_start_position_other_than_the_game_start():
    game = Chomp(3, 3)
    start = game.followers(game.start())[2]
    serial = solve(game, "king", start=start)
    par = solve_lockstep(game, "king", start=start, executors=[Here(), Here()], rebalance=chaotic(6))
    same(serial, par)
    assert par.start == serial.start
