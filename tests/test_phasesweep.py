"""The sweep over q (analysis/phasesweep.py) against independent methods.

* sweep and global decomposition (``method="cad"``) give the same value and
  optimal moves at random rational (p, q), and both agree with the exact
  pointwise two-player induction there;
* every proved 2-cell of the sweep: its formula and optimal moves at its sample;
* the diagonal q = p against the one-parameter solution;
* a hypothesis test over random rational points;
* leaving out one kind of event makes ``locate`` wrong somewhere: the events
  are what makes the sweep correct, and the tests can see a missing one.
"""

import json
import random

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise.analysis import phasesweep
from symbolic_noise.analysis.phase import PhaseDiagram, _Solver, opponent_spec, phase
from symbolic_noise.errors import ChannelNotApplicableError
from symbolic_noise.exact.algebraic import RealAlgebraic, sorted_exact_by
from symbolic_noise.exact.bivariate import CTX, deg_p, discriminant_p_rows, in_q, p_rows, resultant_p_rows
from symbolic_noise.games import Chomp, Nim
from symbolic_noise.games.channels import get_channel
from symbolic_noise.io.cli import main
from symbolic_noise.solvers.twoplayer.players import solve_players
from test_phase import assert_diagonal_matches

CASES = {
    "nim3": (Nim(3), "binary", "binary@q"),
    "nim4": (Nim(4), "binary", "binary@q"),
    "nim5": (Nim(5), "binary", "binary@q"),
    "nim6": (Nim(6), "binary", "binary@q"),
    "chomp22": (Chomp(2, 2), "king", "king@q"),
    "chomp23": (Chomp(2, 3), "king", "king@q"),
    "nim4-asymmetric": (Nim(4), "asymmetric", None),
    "nim5-asymmetric": (Nim(5), "asymmetric", None),
}
#: the global decomposition is slow from Nim 6 on: compared on these only
CAD = ["nim3", "nim4", "nim5", "chomp22", "nim4-asymmetric", "nim5-asymmetric"]
_DIAGRAMS: dict = {}


def diagram(name, method="sweep"):
    if (name, method) not in _DIAGRAMS:
        game, ch, opp = CASES[name]
        _DIAGRAMS[(name, method)] = phase(game, ch, opp, method=method)
    return _DIAGRAMS[(name, method)]


def points(seed, n, den=97):
    rng = random.Random(seed)
    out = [(fmpq(rng.randint(0, den), den), fmpq(rng.randint(0, den), den)) for _ in range(n)]
    return out + [(fmpq(1, 2), fmpq(1, 3)), (fmpq(0), fmpq(1)), (fmpq(1), fmpq(0)), (fmpq(1, 3), fmpq(1, 3))]


def answer(d, p, q):
    r = d.locate(p, q)
    return r.value, r.optimal


def pointwise(d, p, q):
    """The exact two-player induction at (p, q); ``None`` where the channel is undefined
    (the asymmetric channel at a corner, where ``locate`` refuses too)."""
    try:
        return d._solver.pointwise(p, q)
    except ChannelNotApplicableError:
        return None


@pytest.mark.parametrize("name", CAD)
def test_sweep_and_cad_agree_with_pointwise(name):
    sweep, cad = diagram(name), diagram(name, "cad")
    for p, q in points(len(name), 60):
        ref = pointwise(sweep, p, q)
        if ref is not None:
            assert answer(sweep, p, q) == answer(cad, p, q) == ref, (p, q)


@pytest.mark.parametrize("name", sorted(CASES))
def test_sweep_locate_against_pointwise(name):
    d = diagram(name)
    for p, q in points(7 + len(name), 80):
        ref = pointwise(d, p, q)
        if ref is not None:
            assert answer(d, p, q) == ref, (p, q)


@pytest.mark.parametrize("name", ["nim4", "nim5", "chomp23"])
def test_sweep_locate_against_the_two_player_solver(name):
    # an independent implementation: both channels fixed at the exact rationals
    game, ch, _ = CASES[name]
    d = diagram(name)
    for p, q in points(3, 6):
        ref = solve_players(game, f"{ch}@{p}", opponent_channel=f"{ch}@{q}").at(0)
        assert answer(d, p, q) == (ref.value, ref.optimal), (p, q)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_proved_cell_at_its_sample(name):
    d = diagram(name)
    for cell in d.cad_cells.values():
        value, optimal = d._solver.pointwise(cell.p, cell.q)
        assert cell.value(cell.p, cell.q) == value and cell.optimal == optimal
        assert max(f(cell.p, cell.q) for f in cell.moves.values()) == value


@pytest.mark.parametrize("name", ["nim3", "nim4", "nim5", "nim6", "chomp22", "chomp23"])
def test_diagonal_is_the_one_parameter_solution(name):
    game, ch, _ = CASES[name]
    assert_diagonal_matches(diagram(name), game, ch)


def test_nim5_values_known_from_the_paper():
    # the diagonal's irrational breakpoint p ~ 0.76 (theory.md, 3.1) is a wall of the sweep's diagram
    d = diagram("nim5")
    diag = d.diagonal()
    assert any(not x.is_rational for _, x, _ in diag[:-1])
    assert d.critical[0].compare(RealAlgebraic.rational(0)) == 0 and d.critical[-1].compare(RealAlgebraic.rational(1)) == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 240), st.integers(0, 240), st.sampled_from(["nim5", "chomp23", "nim5-asymmetric"]))
def test_hypothesis_random_points_against_pointwise(a, b, name):
    d = diagram(name)
    p, q = fmpq(a, 240), fmpq(b, 240)
    ref = pointwise(d, p, q)
    if ref is not None:
        assert answer(d, p, q) == ref


def _without(name, kinds):
    """The sweep's diagram with the event kinds ``kinds`` left out."""
    game, ch, opp = CASES[name]
    c = get_channel(ch)
    o = opponent_spec(opp) if opp else c
    sv = _Solver(game, c, o, game.start(), False)
    proj, cols, cells = phasesweep.run_sweep(sv, drop=kinds)
    return PhaseDiagram(game, c, o, game.start(), False, proj, cols, cells, sv)


def _wrong_somewhere(d, seed=1, n=300) -> bool:
    rng = random.Random(seed)
    for _ in range(n):
        p, q = fmpq(rng.randint(1, 96), 97), fmpq(rng.randint(1, 96), 97)
        try:
            if answer(d, p, q) != d._solver.pointwise(p, q):
                return True
        except (IndexError, ArithmeticError):  # a boundary named by a root that is not there
            return True
    return False


@pytest.mark.parametrize("name, kind", [("nim5", "edge"), ("chomp23", "res")])
def test_a_missing_event_is_caught(name, kind):
    # without the roots of f(0, q), f(1, q) (Nim 5) or of the resultants (Chomp 2 x 3),
    # some strip claims a structure that changes inside it
    assert not _wrong_somewhere(diagram(name))
    assert _wrong_somewhere(_without(name, {kind}))


def test_spurious_events_must_be_proved(monkeypatch):
    # dropping every resultant and discriminant root as if it were proved spurious is wrong
    monkeypatch.setattr(phasesweep.SweepSolver, "_spurious", lambda self, owner, k, n, r: owner[0] not in ("edge", "q"))
    assert _wrong_somewhere(_without("chomp23", set()))


def test_sweep_is_coarser_than_the_global_decomposition():
    for name in ["nim4", "nim5"]:
        sweep, cad = diagram(name), diagram(name, "cad")
        assert len(sweep.cad_cells) < len(cad.cad_cells)
        assert len(sweep.cad_critical) <= len(cad.cad_critical)


def test_unknown_method():
    with pytest.raises(ValueError):
        phase(Nim(2), "binary", "binary@q", method="grid")


def test_cli_method(capsys):
    out = {}
    for method in ("sweep", "cad"):
        assert main(["phase", "nim", "4", "--locate", "1/5,2/7", "--format", "json", "--method", method]) == 0
        out[method] = json.loads(capsys.readouterr().out)
    assert out["sweep"]["value"] == out["cad"]["value"] and out["sweep"]["optimal"] == out["cad"]["optimal"]


# --------------------------------------------------------------------------- events in workers


def _json(d):
    from symbolic_noise.io.phase_render import phase_json

    return phase_json(d)


@pytest.mark.parametrize("name", ["nim5", "chomp23", "nim5-asymmetric"])
def test_events_in_worker_processes_give_the_same_diagram(name):
    from concurrent.futures import ProcessPoolExecutor

    game, ch, opp = CASES[name]
    with ProcessPoolExecutor(2) as pool:
        par = phase(game, ch, opp, executor=pool)
    assert _json(par) == _json(diagram(name))


def test_events_in_a_dask_cluster_give_the_same_diagram():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            par = phase(Nim(5), "binary", "binary@q", executor=client.get_executor(pure=False))
    assert _json(par) == _json(diagram("nim5"))


_bivariate = st.dictionaries(
    st.tuples(st.integers(0, 4), st.integers(0, 5)), st.integers(-40, 40), min_size=1, max_size=14
).map(CTX.from_dict)


@settings(max_examples=300, deadline=None)
@given(_bivariate, _bivariate, _bivariate)
def test_kronecker_resultant_equals_flint(f, g, h):
    """The events' resultants and discriminants by Kronecker substitution
    (:func:`resultant_p_rows`) are FLINT's ``fmpz_mpoly`` ones, exactly; h * f and
    h * g share a factor (a zero resultant), h * h a square (a zero discriminant)."""
    for a, b in ((f, g), (h * f, h * g), (f * f + g, g - 3)):
        if deg_p(a) >= 1 and deg_p(b) >= 1:
            assert resultant_p_rows(p_rows(a), p_rows(b)) == in_q(a.resultant(b, "p"))
    for a in (f, h * h, f * g):
        if deg_p(a) >= 2:
            assert discriminant_p_rows(p_rows(a)) == in_q(a.discriminant("p"))


def test_event_roots_against_sympy():
    """The worker's events: a resultant and a discriminant in p, their square-free
    parts in q and their roots in (0, 1), against SymPy."""
    import sympy

    from symbolic_noise.solvers.storage.codec import decode_point

    P, Q = sympy.symbols("p q")
    f = (P - Q) * (2 * P - 1) + P**2 - Q / 3  # scaled to integers below
    g = 3 * P**2 - Q
    fi, gi = sympy.Poly(3 * f, P, Q), sympy.Poly(g, P, Q)
    # the worker's input: the coefficients in p, each a list of integer coefficients in q
    rows = lambda poly: p_rows(CTX.from_dict({m: int(c) for m, c in poly.terms()}))  # noqa: E731
    for kind, want in (("res", sympy.resultant(3 * f, g, P)), ("disc", sympy.discriminant(3 * f, P))):
        data = phasesweep.event_roots(kind, rows(fi), rows(gi) if kind == "res" else None)
        prod = sympy.Integer(1)
        for coeffs, _ in data:
            prod *= sympy.Poly(list(reversed(coeffs)), Q).as_expr()
        # the square-free parts multiply to the square-free part of the resultant (up to a constant)
        sqf = sympy.Poly(sympy.sqf_part(want), Q)
        assert sympy.Poly(prod, Q).monic() == sqf.monic()
        # the roots in (0, 1), compared exactly with SymPy's (CRootOf)
        roots = sorted_exact_by([decode_point(r) for _, rs in data for r in rs], lambda x: x)
        expected = [RealAlgebraic.from_sympy(r) for r in sympy.Poly(sqf, Q).real_roots() if 0 < r < 1]
        assert expected and len(roots) == len(expected)
        assert all(x.compare(y) == 0 for x, y in zip(roots, expected))


def test_cli_jobs_gives_the_serial_diagram(capsys):
    out = []
    for extra in ([], ["--jobs", "2"]):
        assert main(["phase", "nim", "5", "--format", "json", *extra]) == 0
        out.append(json.loads(capsys.readouterr().out))
    assert out[0] == out[1]
    assert main(["phase", "nim", "4", "--jobs", "2", "--method", "cad"]) == 2
    assert "--method sweep" in capsys.readouterr().err


def test_cli_interval_is_refused(capsys):
    assert main(["phase", "nim", "3", "--interval", "0,1/2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--interval" in err
