"""Cutting [a, b] into ranges of p and joining the values exactly; minimal
polynomials and point values computed on workers equal the serial ones."""

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from flint import fmpq, fmpz_poly

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.exact.piecewise import PointValue
from symbolic_noise.solvers.schedules.cuts import balanced_cuts, split_interval, stitch
from symbolic_noise.solvers.schedules.offload import minimal_polynomials_on


def same(a, b):
    assert a.positions() == b.positions()
    for v in a.positions():
        assert a.value(v) == b.value(v), v


def test_cuts():
    assert [tuple(map(str, c)) for c in split_interval("1/2", 1, 2)] == [("1/2", "3/4"), ("3/4", "1")]
    cuts = balanced_cuts(solve(Nim(16), "binary").values(), 0, 1, 4)
    assert cuts[0][0] == 0 and cuts[-1][1] == 1
    assert all(a < b for a, b in cuts) and all(x[1] == y[0] for x, y in zip(cuts, cuts[1:]))
    # Nim's breakpoints crowd above p = 1/2, so the balanced cuts do too
    assert sum(1 for a, _ in cuts if a >= fmpq(1, 2)) >= 2


def test_stitch_rejects_gaps():
    f = solve(Nim(3), "binary", (0, "1/3")).value()
    g = solve(Nim(3), "binary", ("1/2", 1)).value()
    with pytest.raises(ValueError):
        stitch([f, g])


def test_cli_dask_scheduler_address(capsys):
    distributed = pytest.importorskip("distributed")
    from symbolic_noise.io.cli import main

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert main(["solve", "nim", "9", "--no-cache", "--format", "json", "--dask", cluster.scheduler_address]) == 0
        par = capsys.readouterr().out
    assert main(["solve", "nim", "9", "--no-cache", "--format", "json"]) == 0
    assert par == capsys.readouterr().out


def test_minimal_polynomials_on_workers_are_the_serial_ones():
    points = solve(Nim(20), "binary").value().points
    alone = [RealAlgebraic(x.poly, x.lo, x.hi, _trusted=True) for x in points]
    assert any(x.poly.degree() > 20 for x in alone)
    with ProcessPoolExecutor(1) as a, ProcessPoolExecutor(1) as b:
        minimal_polynomials_on(points, [a, b])
    assert all(x.knows_minpoly for x in points)
    for x, y in zip(points, alone):
        assert x.minpoly() == y.minpoly() and x == y and x.is_rational == y.is_rational
        assert x.poly == y.poly  # the minimal polynomial became the defining one on both


def test_root_indices_and_refinement_on_workers_are_the_serial_ones():
    points = solve(Nim(16), "binary").value().points
    alone = [RealAlgebraic(x.poly, x.lo, x.hi, _trusted=True) for x in points]
    before = [x.interval for x in points]
    with ThreadPoolExecutor(1) as a, ThreadPoolExecutor(1) as b:
        minimal_polynomials_on(points, [a, b], digits=20, index=True)
    for x, y, (lo, hi) in zip(points, alone, before):
        assert x.exact_str() == y.exact_str()  # the minimal polynomial and the root index
        assert x.decimal(20) == y.decimal(20)
        if not x.is_rational:
            assert lo <= x.lo < x.hi <= hi and x.hi - x.lo <= fmpq(1, 2**PointValue.point_bits(20))


def test_narrow_to_and_adopt_root_index_check_what_they_are_given():
    x = RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, 2)  # sqrt 2
    with pytest.raises(ValueError):
        x.narrow_to(fmpq(3, 2), 2)  # no sign change
    with pytest.raises(ValueError):
        x.narrow_to(fmpq(1, 2), fmpq(3, 2))  # not inside [1, 2]
    with pytest.raises(ValueError):
        x.narrow_to(fmpq(3, 2), fmpq(5, 4))  # empty
    with pytest.raises(ValueError):
        x.adopt_root_index(1)  # the minimal polynomial is not known yet
    x.narrow_to(fmpq(7, 5), fmpq(10, 7))
    assert x.interval == (fmpq(7, 5), fmpq(10, 7)) and x.decimal(10) == "1.414213562"
    assert x.minpoly() == fmpz_poly([-2, 0, 1])
    with pytest.raises(ValueError):
        x.adopt_root_index(2)  # x^2 - 2 has two real roots
    x.adopt_root_index(1)
    assert x.root_index() == 1 and x.exact_str() == "CRootOf(x**2 - 2, 1)"


def test_adopt_minpoly_checks_what_it_is_given():
    m = fmpz_poly([-2, 0, 1])
    f = m * fmpz_poly([-1, 2]) * fmpz_poly([-3, 0, 1])  # roots 1/2, sqrt 2, sqrt 3
    x = RealAlgebraic.root(f, fmpq(13, 10), fmpq(3, 2))  # sqrt 2
    with pytest.raises(ValueError):
        x.adopt_minpoly(fmpz_poly([-3, 0, 1]))  # divides f, no root in the interval
    with pytest.raises(ValueError):
        x.adopt_minpoly(fmpz_poly([-7, 5]))  # its root 7/5 is in the interval, it does not divide f
    with pytest.raises(ValueError):
        x.adopt_minpoly(m * 3)  # not primitive
    with pytest.raises(ValueError):
        x.adopt_minpoly(-m)  # negative leading coefficient
    assert not x.knows_minpoly
    x.adopt_minpoly(m)
    assert x.knows_minpoly and x.minpoly() == m and x.poly == m
    half = RealAlgebraic.root(f, fmpq(1, 3), fmpq(2, 3))
    half.adopt_minpoly(fmpz_poly([-1, 2]))
    assert half.is_rational and half.rational_value == fmpq(1, 2)


def test_point_values_on_workers_are_the_serial_ones():
    """The values at breakpoints in algebraic form found on worker processes
    (point_values_on) print as the serial ones, in every digit of the JSON
    report's exact and decimal forms; a worker's answer replaces the
    resultant that the report would otherwise compute."""
    from symbolic_noise.solvers.schedules.offload import point_values_on

    f = solve(Chomp(4, 4), "king").value()
    inner = range(1, len(f.points) - 1)
    serial = [(PointValue(f.formulas[j - 1], f.points[j]).exact_str(), f.point_value(j).decimal(20)) for j in inner]
    assert any(s.startswith("CRootOf") for s, _ in serial)
    with ProcessPoolExecutor(1) as a, ProcessPoolExecutor(1) as b:
        point_values_on(f, [a, b])
    irrational = [j for j in inner if f.point_value(j).rational_value is None]
    assert irrational and all(f.point_value(j)._algebraic is not None for j in irrational)
    assert [(f.point_value(j).exact_str(), f.point_value(j).decimal(20)) for j in inner] == serial


def test_adopt_point_value_checks_what_it_is_given():
    f = solve(Chomp(3, 3), "king").value()
    j = next(j for j in range(1, len(f.points) - 1) if f.point_value(j).rational_value is None)
    true = f.point_value(j).as_algebraic()
    with pytest.raises(ValueError):
        f.adopt_point_value(j, RealAlgebraic.rational(true.lo + 1))  # far from the value
    assert f.point_value(j)._algebraic is None
    f.adopt_point_value(j, true)
    assert f.point_value(j).as_algebraic() is true
