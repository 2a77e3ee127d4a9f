"""Phase diagrams (theory.md, section 6) against independent methods.

* ``locate`` at random rational (p, q) against the two-player solver run with
  both channels fixed at those exact rationals (``binary@P`` vs ``binary@Q``);
* the diagonal q = p against the one-parameter solution (breakpoints and
  optimal moves) and its values;
* the cylindrical decomposition itself: every cell is sign-invariant for every
  polynomial (random points against the cell's sample), on polynomials built
  to contain the traps (tangency, a root escaping to infinity, boundaries
  running into the sides of the square).
"""

import json
import random

import pytest
from flint import fmpq

from symbolic_noise.exact.algebraic import RealAlgebraic
from symbolic_noise.exact.bivariate import CTX, BiRational, evaluate2, irreducible_factors
from symbolic_noise.exact.cad import decompose, locate_point
from symbolic_noise.io.cli import main
from symbolic_noise.errors import PhaseTooLargeError, UnknownChannelError
from symbolic_noise.games import Chomp, Nim
from symbolic_noise.analysis.phase import phase
from symbolic_noise.solvers.twoplayer.players import solve_players
from symbolic_noise.solvers.piecewise import solve

P, Q = CTX.gens()

CASES = {
    "nim2": (Nim(2), "binary"),
    "nim3": (Nim(3), "binary"),
    "nim4": (Nim(4), "binary"),
    "chomp22": (Chomp(2, 2), "king"),
    "chomp22-rook": (Chomp(2, 2), "rook"),
}
_DIAGRAMS: dict = {}


def diagram(name):
    if name not in _DIAGRAMS:
        game, ch = CASES[name]
        _DIAGRAMS[name] = phase(game, ch, f"{ch}@q")
    return _DIAGRAMS[name]


def rand_rational(rng, den=97):
    return fmpq(rng.randint(0, den), den)


def _merged_pieces(f):
    """``[(lo, hi, optimal moves)]`` of a one-parameter solution, neighbouring
    pieces with the same optimal moves merged (what the diagonal of a phase
    diagram shows)."""
    merged = []
    for k, lab in enumerate(f.labels):
        if merged and merged[-1][2] == lab:
            merged[-1] = (merged[-1][0], f.points[k + 1], lab)
        else:
            merged.append((f.points[k], f.points[k + 1], lab))
    return merged


@pytest.mark.parametrize("name", sorted(CASES))
def test_locate_matches_fixed_channel_solve(name):
    game, ch = CASES[name]
    d = diagram(name)
    rng = random.Random(11 + len(name))
    points = [(rand_rational(rng), rand_rational(rng)) for _ in range(8)]
    points += [(fmpq(1, 2), fmpq(1, 3)), (fmpq(0), fmpq(1)), (fmpq(1), fmpq(0)), (fmpq(1, 3), fmpq(1, 3))]
    for p, q in points:
        r = d.locate(p, q)
        sol = solve_players(game, f"{ch}@{p}", opponent_channel=f"{ch}@{q}")
        ref = sol.at(0)
        assert r.value == ref.value, (p, q)
        assert r.optimal == ref.optimal, (p, q)


@pytest.mark.parametrize("name", sorted(CASES))
def test_cells_agree_with_pointwise_at_samples(name):
    d = diagram(name)
    for cell in d.cells.values():
        value, optimal = d._solver.pointwise(cell.p, cell.q)
        assert cell.value(cell.p, cell.q) == value
        assert cell.optimal == optimal
        best = max(f(cell.p, cell.q) for f in cell.moves.values())
        assert best == value


@pytest.mark.parametrize("name", sorted(CASES))
def test_diagonal_is_the_one_parameter_solution(name):
    game, ch = CASES[name]
    assert_diagonal_matches(diagram(name), game, ch)


def assert_diagonal_matches(d, game, ch):
    """The diagram's restriction to q = p is the one-parameter solution of ``game``
    through ``ch``: breakpoints, optimal moves and values."""
    f = solve(game, ch).value()
    merged = _merged_pieces(f)
    diag = d.diagonal()
    assert len(diag) == len(merged)
    for (a, b, lab), (x, y, opt) in zip(merged, diag):
        assert a.compare(x) == 0 and b.compare(y) == 0 and lab == opt
    # values on the diagonal are the one-parameter values, at breakpoints too
    for t in [fmpq(i, 13) for i in range(14)] + [x for x in f.breakpoints if x.is_rational]:
        t = t.rational_value if isinstance(t, RealAlgebraic) else t
        r = d.locate(t, t)
        assert r.value == f(t)
        assert r.optimal == f.label_at(t)


def test_known_values():
    d = diagram("nim2")
    # N_2 = 1 - p for p < 1/2 (send 0), p for p > 1/2 (send 1), whatever q
    assert d.locate("1/5", "9/10").value == fmpq(4, 5)
    assert d.locate("4/5", "1/10").value == fmpq(4, 5)
    c = diagram("chomp22")
    # 2 x 2 king: N = max{p, (1 - p)/2}; at p = 1/3 all three moves tie (any q)
    r = c.locate("1/3", "3/4")
    assert r.value == fmpq(1, 3) and len(r.optimal) == 3


def test_ties_on_the_line_p_one_half():
    # binary channel at p = 1/2: every sent move is the same lottery (a tie on a whole line)
    d = diagram("nim4")
    for q in ("0", "1/7", "1/2", "5/6", "1"):
        r = d.locate("1/2", q)
        assert r.optimal == frozenset(range(4))
        assert r.cell["kind"] in ("boundary", "critical-line")


def test_identically_tied_moves_uniform_channel():
    # uniform channel: every move's value is the same function, ties on an open set;
    # no switching polynomial arises and every cell has every move optimal
    d = phase(Nim(3), "uniform", "uniform@q")
    assert all(c.optimal == frozenset({0, 1, 2}) for c in d.cells.values())
    assert d.locate("1/3", "1/5").value == solve(Nim(3), "uniform").at("1/3").value
    mixed = phase(Nim(3), "binary", "uniform@q")
    rng = random.Random(5)
    for _ in range(6):
        p, q = rand_rational(rng), rand_rational(rng)
        assert mixed.locate(p, q).value == solve_players(Nim(3), f"binary@{p}", opponent_channel="uniform").at(0).value


def _sign(x):
    return (x > 0) - (x < 0)


TRAPS = {
    # tangency without crossing: res_p has a double root at q = 1/2
    "tangency": [4 * P - 2 - (2 * Q - 1) ** 2, 2 * P - 1],
    # leading coefficient vanishing at q = 1/3; the root enters through p = 1 at q = 2/3
    "escape": [(3 * Q - 1) * P - 1, P - Q],
    # boundaries running into the sides: p = q^2 meets p = 0 at q = 0 and p = 1 at q = 1
    "sides": [P - Q * Q, P + Q - 1, 3 * P * P - Q],
}


@pytest.mark.parametrize("name", sorted(TRAPS))
def test_decomposition_is_sign_invariant(name):
    polys = [h for f in TRAPS[name] for h in irreducible_factors(f)]
    cols = decompose(polys)
    rng = random.Random(len(name))
    hits = 0
    for _ in range(300):
        p, q = fmpq(rng.randint(1, 999), 1000), fmpq(rng.randint(1, 999), 1000)
        where = locate_point(cols, polys, p, q)
        if where[0] != "cell":
            continue
        hits += 1
        col = cols[where[1]]
        s = col.sectors[where[2]]
        for f in polys:
            assert _sign(evaluate2(f, p, q)) == _sign(evaluate2(f, s, col.q)), (name, p, q, str(f))
    assert hits > 250


def test_trap_critical_values():
    crit = [c.lo for c in decompose(TRAPS["tangency"])][1:]
    assert any(c.compare(RealAlgebraic.rational("1/2")) == 0 for c in crit)
    crit = [c.lo for c in decompose(TRAPS["escape"])][1:]
    for t in ("1/3", "2/3"):
        assert any(c.compare(RealAlgebraic.rational(t)) == 0 for c in crit)


def test_birational_canonical():
    f = BiRational(2 * P * Q, 4 * P)
    assert f == BiRational(Q, CTX.from_dict({(0, 0): 2}))
    assert f(fmpq(1, 3), fmpq(1, 2)) == fmpq(1, 4)


def test_limits_and_errors():
    with pytest.raises(PhaseTooLargeError):
        phase(Nim(120), "binary", "binary@q")
    with pytest.raises(UnknownChannelError):
        phase(Nim(3), "binary", "binary@p")


def test_cli_locate_json(capsys):
    assert main(["phase", "nim", "3", "--opponent-channel", "binary@q", "--locate", "1/4,1/3", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"format", "meta", "p", "q", "value", "value_decimal", "optimal", "cell"}
    assert out["meta"]["game"] == {"family": "nim", "param": "3", "description": "1-pile Nim, k = 3"} and out["meta"]["method"].startswith("phase")
    ref = solve_players(Nim(3), "binary@1/4", opponent_channel="binary@1/3").at(0)
    assert out["value"] == str(ref.value) and out["optimal"] == sorted(ref.optimal)
    assert out["cell"]["kind"] == "cell"


def test_cli_diagram_json_and_plot(capsys, tmp_path):
    png = tmp_path / "nim3.png"
    assert main(["phase", "nim", "3", "--format", "json", "--plot", str(png)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["critical_q"][1]["exact"] == "1/2"
    assert sum(len(c["cells"]) for c in out["columns"]) == out["stats"]["cells"]
    assert png.stat().st_size > 1000


@pytest.mark.parametrize("argv", [
    ["phase", "nim", "3", "--locate", "1/2,__import__('os')"],
    ["phase", "nim", "3", "--locate", "2,1/2"],
    ["phase", "nim", "3", "--locate", "1/2"],
    ["phase", "nim", "3", "--opponent-channel", "binary@p"],
    ["phase", "nim", "120"],
])
def test_cli_errors_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("symbolic-noise: error:")


def test_nim5_diagonal_has_the_irrational_breakpoint():
    # k = 5: optimal 0, then 3 past p = 1/2, then 4 past an irrational p ~ 0.76 (theory.md, 3.1)
    d = phase(Nim(5), "binary", "binary@q")
    f = solve(Nim(5), "binary").value()
    merged = _merged_pieces(f)
    diag = d.diagonal()
    assert [sorted(o) for _, _, o in diag] == [sorted(lab) for _, _, lab in merged]
    assert all(a.compare(x) == 0 and b.compare(y) == 0 for (a, b, _), (x, y, _) in zip(merged, diag))
    assert any(not x.is_rational for _, x, _ in diag[:-1])
    rng = random.Random(55)
    for _ in range(4):
        p, q = rand_rational(rng), rand_rational(rng)
        ref = solve_players(Nim(5), f"binary@{p}", opponent_channel=f"binary@{q}").at(0)
        assert (d.locate(p, q).value, d.locate(p, q).optimal) == (ref.value, ref.optimal)


@pytest.mark.parametrize("name", ["nim4", "chomp22-rook"])
def test_proved_cells_agree_with_pointwise(name):
    # the decomposition before merging: every 2-cell's formula and optimal moves at its sample
    d = diagram(name)
    cells = list(d.cad_cells.values())
    for cell in cells[:: max(1, len(cells) // 60)]:
        value, optimal = d._solver.pointwise(cell.p, cell.q)
        assert cell.value(cell.p, cell.q) == value and cell.optimal == optimal


@pytest.mark.parametrize("name", sorted(CASES))
def test_merged_diagram_is_coarser(name):
    d = diagram(name)
    assert all(any(c.compare(x) == 0 for x in d.cad_critical) for c in d.critical)
    assert len(d.cells) <= len(d.cad_cells)
    # neighbouring merged cells of a column differ (else they would have been merged)
    for col in d.columns:
        labels = [(d.cells[(col.index, k)].value, d.cells[(col.index, k)].optimal) for k in range(len(col.sectors))]
        assert all(a != b for a, b in zip(labels, labels[1:]))


def test_locate_inside_merged_cell_on_a_proved_section():
    # Nim 4: a point on a section of the proved decomposition that is not a wall is
    # answered pointwise, and still reported in its merged cell
    d = diagram("nim4")
    rng = random.Random(4)
    seen = 0
    for _ in range(200):
        p, q = rand_rational(rng, 64), rand_rational(rng, 64)
        r = d.locate(p, q)
        ref = solve_players(Nim(4), f"binary@{p}", opponent_channel=f"binary@{q}").at(0)
        assert (r.value, r.optimal) == (ref.value, ref.optimal)
        seen += r.cell["kind"] == "cell"
    assert seen > 100
