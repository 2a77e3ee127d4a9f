"""A map shared between workers proves what the serial map proves: the same
change intervals (sets either side and at the change, the exact point when
named, overlapping) and, wherever both claim something, compatible claims;
and both agree with the exact piecewise solver."""

from __future__ import annotations

import json
import re
import time

import pytest
from flint import fmpq

from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.io.cli import main
from symbolic_noise.io.workers import local_pool, stop_pools
from symbolic_noise.solvers.maps import build_map
from symbolic_noise.solvers.maps.parallel import BOXES_PER_WORKER, build_map_parallel, first_boxes
from symbolic_noise.solvers.onepoint.fastpoint import point_solve

from test_cli import pty_run
from test_maps import agreement_problems


@pytest.fixture(scope="module")
def pools():
    pools = [local_pool(1) for _ in range(2)]
    yield pools
    stop_pools(pools)


def claims_at(iv, x):
    """The optimal sets an interval allows at the rational x (None: any)."""
    if iv.kind == "proved":
        return {iv.optimal}
    if iv.kind == "undecided":
        return None
    if iv.point is None:
        return {s for s in (iv.left, iv.at, iv.right) if s is not None} or None
    side = iv.left if x < iv.point else iv.at if x == iv.point else iv.right
    return None if side is None else {side}


def differences(serial, par):
    """Where two maps of one interval disagree (empty when they prove the same)."""
    out = []
    sc, pc = serial.kinds("change"), par.kinds("change")
    if [(c.left, c.at, c.right, c.point) for c in sc] != [(c.left, c.at, c.right, c.point) for c in pc]:
        out.append(f"change intervals: {[c.claims() for c in sc]} != {[c.claims() for c in pc]}")
    out += [f"{s.claims()} and {p.claims()} do not overlap" for s, p in zip(sc, pc) if s.hi < p.lo or p.hi < s.lo]
    return out + conflicts(serial, par)


def conflicts(serial, par):
    """Points where the two maps claim different optimal sets."""
    out = []
    ends = sorted({iv.lo for m in (serial, par) for iv in m.intervals} | {serial.interval[1]})
    points = ends + [(x + y) / 2 for x, y in zip(ends, ends[1:])]
    for x in points:
        for s in serial.interval_at(x):
            for p in par.interval_at(x):
                a, b = claims_at(s, x), claims_at(p, x)
                if a is not None and b is not None and not a & b:
                    out.append(f"at {x}: {s.claims()} against {p.claims()}")
    return out


CASES = [
    ("nim", "12", "binary", False, (0, 1)),
    ("chomp", "3x3", "king", False, (0, 1)),
    ("nim", "5", "binary", True, (0, 1)),
    ("nim", "12", "binary", False, ("1/3", "3/4")),
]


@pytest.mark.parametrize("name,arg,channel,misere,interval", CASES)
def test_two_workers_prove_what_one_proves(pools, name, arg, channel, misere, interval):
    game = game_from_spec(name, arg)
    serial = build_map(game, channel, misere=misere, interval=interval)
    par = build_map_parallel(game, channel, misere=misere, interval=interval, executors=pools)
    assert serial.complete and par.complete
    assert differences(serial, par) == []
    assert par.stats["workers"] == 2 and par.stats["tasks"] >= 2
    if interval == (0, 1):
        assert agreement_problems(game, channel, par, misere) == []
    # the proofs and the band cover the interval in order, as the serial map's do
    assert [r[1] for r in par.proofs] == sorted(r[1] for r in par.proofs)
    assert par.band[0][0] == par.interval[0] and par.band[-1][1] == par.interval[1]


def test_a_change_at_the_end_of_boxes_solved_apart_is_one_change_interval(pools):
    """Binary Nim's every move ties at p = 1/2, an end of the first boxes dealt
    out (each side proved one-sidedly, maybe by another worker), and at p = 1."""
    assert fmpq(1, 2) in [lo for lo, _ in first_boxes(0, 1, 2 * BOXES_PER_WORKER)]
    m = build_map_parallel(Nim(12), "binary", executors=pools, width="2^-30")
    # the set beside 1/2 is proved by the one-sided proof at 1/2, on a box on each side
    sides = {r[4] for r in m.proofs if r[0] == "onesided" and r[3] == fmpq(1, 2)}
    assert sides == {"left", "right"}
    (half,) = m.interval_at(fmpq(1, 2))
    assert half.kind == "change" and half.lo < fmpq(1, 2) < half.hi and half.point == fmpq(1, 2)
    exact = point_solve(Nim(12), "binary", fmpq(1, 2))
    assert half.at == exact.optimal and half.left == {0}
    assert half.left != half.right  # the sets on both sides, each from its own box
    last = m.intervals[-1]
    assert last.kind == "change" and last.point == 1 and last.at == point_solve(Nim(12), "binary", fmpq(1)).optimal


def test_the_arb_engine_is_shared_too(pools):
    serial = build_map(Nim(5), "binary", engine="arb")
    par = build_map_parallel(Nim(5), "binary", engine="arb", executors=pools)
    assert par.complete and differences(serial, par) == []


def test_the_budget_is_shared(pools):
    game = Nim(12)
    full = build_map(game, "binary")
    par = build_map_parallel(game, "binary", executors=pools, budget=full.stats["boxes"] // 3)
    assert not par.complete
    # a worker finishes the block it is on: at most a block's proofs over, each
    assert par.stats["boxes"] <= full.stats["boxes"] // 3 + 100
    for iv in par.kinds("proved"):  # what is claimed still holds
        for x in (iv.lo, (iv.lo + iv.hi) / 2, iv.hi):
            assert point_solve(game, "binary", x).optimal == iv.optimal
    assert conflicts(full, par) == []


def test_the_command_line_shares_the_map(capsys):
    argv = ["map", "chomp", "3x3", "--format", "json"]
    assert main(argv) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(argv + ["--jobs", "2"]) == 0
    par = json.loads(capsys.readouterr().out)
    keys = ("kind", "left", "at", "right", "point", "optimal")
    assert [{k: iv.get(k) for k in keys} for iv in par["intervals"]] == [
        {k: iv.get(k) for k in keys} for iv in serial["intervals"]]
    assert par["stats"]["workers"] == 2 and par["meta"]["method"] == "map"


def test_dask_workers_share_the_map():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            executors = [
                client.get_executor(workers=[w], allow_other_workers=False, pure=False)
                for w in sorted(client.scheduler_info()["workers"])
            ]
            par = build_map_parallel(Nim(12), "binary", executors=executors)
    assert differences(build_map(Nim(12), "binary"), par) == [] and par.complete


def test_ctrl_c_with_jobs_is_one_clean_line():
    start = time.time()
    # interrupt once the first tasks are back (the bar counts thousandths of [0, 1])
    status, text = pty_run(["map", "nim", "64", "--jobs", "2"], interrupt_after=1, interrupt_when="/1000")
    assert status == 130 and "Traceback" not in text, (status, text[-3000:])
    assert time.time() - start < 90  # the workers are stopped, not waited for
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    last = [line for line in plain.replace("\r", "\n").splitlines() if line.strip()][-1]
    assert last == "symbolic-noise: interrupted"
