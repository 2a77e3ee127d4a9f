"""The range worker of the parallel schedules: ranges of p handed over between
workers keep exactly the serial values, and a worker keeps its caches on the
part of its range it keeps."""

import pytest
from flint import fmpq, fmpz_poly

from symbolic_noise import Nim, solve
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.games.channels import get_channel
from symbolic_noise.exact.interning import Interner
from symbolic_noise.solvers.schedules.ranges import RangeWorker


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


