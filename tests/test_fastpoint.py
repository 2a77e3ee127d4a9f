"""The fast engine at one p against two independent methods: the slow pointwise
reference (`pointwise.evaluate`) and the piecewise solution, on random games,
random channels and random rational p; its ball mode against its exact mode;
constant channels through `solve`."""

from fractions import Fraction
from functools import lru_cache

import pytest
from flint import fmpq, fmpz_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic_noise import reports
from symbolic_noise.games.channels import CustomChannel, get_channel
from symbolic_noise.solvers.onepoint.fastpoint import ball_bounds, is_constant_channel, point_solve, value_at
from symbolic_noise.games.rulesets import Chomp, ExplicitGame, Nim
from symbolic_noise.solvers.onepoint.pointwise import evaluate
from symbolic_noise.exact.ratfunc import RationalFunction
from symbolic_noise.solvers.piecewise import solve, solve_positions

rationals = st.fractions(min_value=0, max_value=1, max_denominator=60).map(lambda x: fmpq(x.numerator, x.denominator))

GAMES = {
    **{f"nim{k}": (lambda k=k: Nim(k)) for k in range(0, 9)},
    "chomp2x2": lambda: Chomp(2, 2),
    "chomp2x3": lambda: Chomp(2, 3),
    "chomp3x3": lambda: Chomp(3, 3),
}
CHANNELS = {"nim": ["binary", "uniform", "identity"], "chomp": ["king", "rook", "all", "uniform", "identity"]}


@lru_cache(maxsize=None)
def piecewise(name, channel, misere):
    return solve(GAMES[name](), channel, misere=misere)


def _same(fast, ref):
    assert fast.value == ref.value
    assert fast.optimal == ref.optimal
    assert fast.move_values == ref.move_values


@st.composite
def game_and_channel(draw):
    name = draw(st.sampled_from(sorted(GAMES)))
    channel = draw(st.sampled_from(CHANNELS["nim" if name.startswith("nim") else "chomp"]))
    return name, channel


@given(game_and_channel(), rationals, st.booleans())
def test_equals_pointwise_and_piecewise(gc, p, misere):
    name, channel = gc
    game = GAMES[name]()
    fast = point_solve(game, channel, p, misere=misere)
    _same(fast, evaluate(game, channel, p, misere=misere)[game.start()])
    at = piecewise(name, channel, misere).at(p)
    assert fast.value == at.value and fast.optimal == at.optimal


@st.composite
def random_game_and_channel(draw):
    """A random acyclic game (edges only to smaller numbers) and a random channel
    ``psi(w, .) = (1 - p) alpha_w + p beta_w`` with random rational distributions."""
    n = draw(st.integers(2, 7))
    graph = {v: sorted(draw(st.sets(st.integers(0, v - 1), min_size=1 if v == n - 1 else 0, max_size=v))) for v in range(1, n)}
    game = ExplicitGame(graph, n - 1)

    def dist(m):
        w = draw(st.lists(st.integers(0, 5), min_size=m, max_size=m).filter(any))
        return [Fraction(x, sum(w)) for x in w]

    psi = {}
    for v, fs in graph.items():
        if not fs:
            continue
        psi[v] = {}
        for w in fs:
            alpha, beta = dist(len(fs)), dist(len(fs))
            psi[v][w] = {
                u: RationalFunction(fmpz_poly([a.numerator * b.denominator, b.numerator * a.denominator - a.numerator * b.denominator]),
                                    a.denominator * b.denominator)
                for u, a, b in zip(fs, alpha, beta)
            }
    return game, CustomChannel(psi)


@settings(max_examples=40)
@given(random_game_and_channel(), rationals, st.booleans())
def test_random_games_and_channels(gc, p, misere):
    game, channel = gc
    fast = point_solve(game, channel, p, misere=misere)
    _same(fast, evaluate(game, channel, p, misere=misere)[game.start()])
    at = solve(game, channel, misere=misere).at(p)
    assert fast.value == at.value and fast.optimal == at.optimal
    ball = point_solve(game, channel, p, misere=misere, method="ball")
    lo, hi = ball_bounds(ball.value)
    assert lo <= fast.value <= hi and ball.optimal in (None, fast.optimal)


@settings(max_examples=25)
@given(st.integers(1, 40), rationals, st.booleans())
def test_nim_binary_large_against_reference_and_balls(k, p, misere):
    fast = point_solve(Nim(k), "binary", p, misere=misere)
    _same(fast, evaluate(Nim(k), "binary", p, misere=misere)[k])
    ball = point_solve(Nim(k), "binary", p, misere=misere, method="ball")
    lo, hi = ball_bounds(ball.value)
    assert lo <= fast.value <= hi and hi - lo < fmpq(1, 2**80)
    assert ball.optimal in (None, fast.optimal)


def test_all_positions_match_reference():
    fast = point_solve(Chomp(3, 4), "king", fmpq(1, 10), all_positions=True)
    ref = evaluate(Chomp(3, 4), "king", fmpq(1, 10))
    assert set(fast) == set(ref)
    assert all(fast[v].value == ref[v].value and fast[v].optimal == ref[v].optimal for v in ref)


def test_known_values():
    # theory.md 3.1 and 3.2
    assert point_solve(Nim(3), "binary", fmpq(1, 4)).value == fmpq(13, 20)  # (1 - p + p^2)/(1 + p)
    r = point_solve(Nim(4), "binary", 1)
    assert r.value == 1 and r.optimal == {0, 3}  # the paper's erratum
    r = point_solve(Chomp(2, 2), "king", fmpq(1, 3))
    assert r.value == fmpq(1, 3) and len(r.optimal) == 3
    r = point_solve(Nim(64), "binary", fmpq(1, 2))
    assert r.value == fmpq(1, 2) and r.optimal == frozenset(range(64))


def test_ties_are_undecided_in_balls():
    assert point_solve(Nim(6), "binary", fmpq(1, 2), method="ball").optimal is None


def test_value_at_reads_the_cache(tmp_path):
    from symbolic_noise.solvers.storage.cache import SolutionCache

    with SolutionCache(str(tmp_path / "c.sqlite"), Nim(5), get_channel("binary"), (fmpq(0), fmpq(1))) as store:
        solve(Nim(5), "binary", store=store)
        cached = value_at(Nim(5), "binary", fmpq(3, 10), store=store)
    assert cached.method == "piecewise"
    fresh = value_at(Nim(5), "binary", fmpq(3, 10))
    assert fresh.method == "exact" and fresh.value == cached.value and fresh.optimal == cached.optimal


# --------------------------------------------------------------------------- constant channels


@pytest.mark.parametrize(
    "game,channel",
    [
        (Nim(6), "uniform"),
        (Nim(6), "identity"),
        (Chomp(3, 3), "uniform"),
        (Chomp(2, 3), CustomChannel({}, default="uniform")),
        (Nim(3), CustomChannel({3: {0: {0: "1/2", 1: "1/2"}, 1: {1: 1}, 2: {2: "1/3", 1: "2/3"}}}, default="identity")),
    ],
)
@pytest.mark.parametrize("interval", [(0, 1), (fmpq(1, 5), fmpq(1, 2))])
def test_constant_channels_same_solution(game, channel, interval):
    channel = get_channel(channel)
    fast = solve(game, channel, interval)
    slow = solve_positions(game, channel, interval, game.positions())
    assert reports.solution_json(fast) == reports.solution_json(slow)
    assert reports.move_values_json(fast) == reports.move_values_json(slow)
    assert len(fast.value().formulas) == 1


def test_constant_detection():
    assert is_constant_channel(Chomp(2, 2), get_channel("uniform"), (2, 2), (0, 1))
    assert not is_constant_channel(Chomp(2, 2), get_channel("king"), (2, 2), (0, 1))
    depends = CustomChannel({2: {0: {0: "1-p", 1: "p"}, 1: {1: 1}}}, default="identity")
    assert not is_constant_channel(Nim(2), depends, 2, (0, 1))


def test_uniform_chomp_one_piece_every_move_ties():
    game = Chomp(2, 16)
    sol = solve(game, "uniform")
    f = sol.value()
    assert len(f.formulas) == 1
    assert sol.at(fmpq(1, 3)).optimal == frozenset(game.move_label((16, 16), w) for w in game.followers((16, 16)))
    assert f(fmpq(1, 3)) == evaluate(game, "uniform", 0)[(16, 16)].value


def test_solution_at_an_unsolved_position():
    sol = solve(Nim(9), "binary", start=3)  # only heaps 0..3 are solved
    r = sol.at(fmpq(1, 4), 9)
    ref = evaluate(Nim(9), "binary", fmpq(1, 4))[9]
    assert r.value == ref.value and r.optimal == ref.optimal
    assert sol.at(fmpq(1, 4), 3).value == fmpq(13, 20)


def test_custom_channel_checked_at_p():
    from symbolic_noise.errors import InvalidChannelError

    bad = CustomChannel({2: {0: {0: "1 - 2*p", 1: "2*p"}, 1: {1: 1}}}, default="identity")
    assert point_solve(Nim(2), bad, fmpq(1, 4)).value == fmpq(1, 2)  # a distribution at p = 1/4
    with pytest.raises(InvalidChannelError, match="not a probability distribution at p = 3/4"):
        point_solve(Nim(2), bad, fmpq(3, 4))


# --------------------------------------------------------------------------- against plain Fraction backward induction

import fraction_reference as ref  # noqa: E402  (tests/fraction_reference.py: no symbolic_noise code)

fractions_01 = st.fractions(min_value=0, max_value=1, max_denominator=40)


def _agrees(fast, want, names):
    value, best, moves = want
    assert fast.value == fmpq(value.numerator, value.denominator)
    assert fast.optimal == frozenset(names[i] for i in best)


@settings(max_examples=30)
@given(st.integers(1, 12), fractions_01, st.booleans(), st.sampled_from(["binary", "uniform", "identity"]))
def test_nim_agrees_with_fraction_backward_induction(k, p, misere, channel):
    """1-pile Nim, every heap up to k, normal and misère, p in [0, 1] (the
    ends are the channel's limits), against tests/fraction_reference.py."""
    fast = point_solve(Nim(k), channel, fmpq(p.numerator, p.denominator), misere=misere, all_positions=True)
    want = ref.nim(k, channel, p, misere)
    assert set(fast) == set(want)
    for v in want:
        _agrees(fast[v], want[v], list(range(v)))
    moves = want[k][2]
    assert fast[k].move_values == {m: fmpq(x.numerator, x.denominator) for m, x in enumerate(moves)}


@settings(max_examples=30)
@given(st.sampled_from([(2, 2), (3, 2), (3, 3), (3, 2, 1), (4, 4), (2, 2, 2)]), fractions_01, st.booleans(),
       st.sampled_from(["king", "rook", "all", "uniform", "identity"]))
def test_chomp_agrees_with_fraction_backward_induction(board, p, misere, channel):
    """Chomp diagrams through every neighbour channel, normal and misère."""
    game = Chomp(len(board), board[0])
    fast = point_solve(game, channel, fmpq(p.numerator, p.denominator), start=board, misere=misere, all_positions=True)
    want = ref.chomp(board, channel, p, misere)
    assert set(fast) == set(want)
    for v in want:
        _agrees(fast[v], want[v], ref.chomp_squares(v))


@settings(max_examples=20)
@given(st.integers(1, 12), fractions_01, st.booleans())
def test_ball_mode_holds_the_fraction_value(k, p, misere):
    """Ball mode: every ball holds the exact value, and an optimal set is
    reported only when it is the exact one."""
    fast = point_solve(Nim(k), "binary", fmpq(p.numerator, p.denominator), misere=misere, method="ball")
    value, best, _ = ref.nim(k, "binary", p, misere)[k]
    lo, hi = ball_bounds(fast.value)
    assert lo <= fmpq(value.numerator, value.denominator) <= hi
    assert fast.optimal in (None, frozenset(best))


def test_values_from_the_paper():
    """theory.md 3.1-3.2: N_3 = (1 - p + p^2)/(1 + p) sending 0 on [0, 1/2] and
    (p - p^3)/(1 - p + p^2) sending 1 on [1/2, 1]; N_2 = max(p, 1 - p); Chomp
    2x2 with the king channel max{p, (1 - p)/2}, the two whole-row moves
    optimal below 1/3 and the corner above; Nim 5 sends 3 just above 1/2 and
    4 near 1 (the breakpoint 0.7623...)."""
    for p in [Fraction(1, 10), Fraction(1, 4), Fraction(2, 5), Fraction(1, 2)]:
        r = point_solve(Nim(3), "binary", fmpq(p.numerator, p.denominator))
        assert r.value == as_q((1 - p + p * p) / (1 + p)) and 0 in r.optimal
    for p in [Fraction(3, 5), Fraction(3, 4), Fraction(9, 10)]:
        r = point_solve(Nim(3), "binary", fmpq(p.numerator, p.denominator))
        assert r.value == as_q((p - p**3) / (1 - p + p * p)) and r.optimal == {1}
        assert point_solve(Nim(2), "binary", as_q(p)).value == as_q(max(p, 1 - p))
    for p in [Fraction(1, 5), Fraction(1, 3), Fraction(1, 2), Fraction(4, 5)]:
        r = point_solve(Chomp(2, 2), "king", as_q(p))
        assert r.value == as_q(max(p, (1 - p) / 2))
        assert r.optimal == ({(1, 2), (2, 1)} if p < Fraction(1, 3) else {(2, 2)} if p > Fraction(1, 3) else {(1, 2), (2, 1), (2, 2)})
    assert point_solve(Nim(5), "binary", fmpq(3, 5)).optimal == {3}
    assert point_solve(Nim(5), "binary", fmpq(9, 10)).optimal == {4}
    assert point_solve(Nim(5), "binary", fmpq(76, 100)).optimal == {3}  # below 0.7623...
    assert point_solve(Nim(5), "binary", fmpq(77, 100)).optimal == {4}  # above it


def as_q(x):
    return fmpq(x.numerator, x.denominator)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(2, 2), (3, 2), (3, 3), (3, 2, 1), (2, 2, 2), (2,), (1, 1)]), fractions_01, st.booleans(),
       st.sampled_from(["king", "rook", "all", "uniform", "identity"]))
def test_chomp_ball_mode_holds_the_fraction_values(board, p, misere, channel):
    """Ball mode on Chomp (the neighbour channels' sparse sums in balls): at
    every position the ball holds the exact value of backward induction in
    Fractions, an optimal set is reported only when it is the exact one, and
    the root's move values hold the exact ones."""
    game = Chomp(len(board), board[0])
    q = fmpq(p.numerator, p.denominator)
    fast = point_solve(game, channel, q, start=board, misere=misere, method="ball", all_positions=True)
    want = ref.chomp(board, channel, p, misere)
    assert set(fast) == set(want)
    for v, (value, best, moves) in want.items():
        lo, hi = ball_bounds(fast[v].value)
        assert lo <= as_q(value) <= hi and hi - lo < fmpq(1, 10**20)
        names = ref.chomp_squares(v)
        assert fast[v].optimal in (None, frozenset(names[i] for i in best))
        if len(best) == len(names) == 1 or (channel == "identity" and len({*moves}) == len(moves)):
            assert fast[v].optimal == frozenset(names[i] for i in best)
    root = fast[board]
    assert set(root.move_values) == set(ref.chomp_squares(board))
    for name, x in zip(ref.chomp_squares(board), want[board][2]):
        lo, hi = ball_bounds(root.move_values[name])
        assert lo <= as_q(x) <= hi


@pytest.mark.parametrize("k", [17, 33])
def test_nim_binary_heaps_past_powers_of_two(k):
    """Heaps past several powers of two (the codes widen at 2, 4, 8, 16, 32),
    at p = 1 (the channel's limit) and inside (0, 1), every position against
    backward induction in Fractions; at p = 1 the codes stay as wide as the
    heaps need (33 chips: 6 digits; a digit more per heap would be 2^33 codes)."""
    for p in (Fraction(1), Fraction(2, 7)):
        fast = point_solve(Nim(k), "binary", as_q(p), all_positions=True)
        want = ref.nim(k, "binary", p)
        for v in want:
            _agrees(fast[v], want[v], list(range(v)))
        assert fast[k].move_values == {m: as_q(x) for m, x in enumerate(want[k][2])}


def test_ball_mode_move_values_and_terminal_starts():
    """Ball mode keeps the root's move values (balls holding the exact ones);
    a terminal start is worth 0 (misère: 1) with no moves."""
    for k, p in [(6, Fraction(1, 3)), (9, Fraction(3, 4))]:
        fast = point_solve(Nim(k), "binary", as_q(p), method="ball")
        moves = ref.nim(k, "binary", p)[k][2]
        assert set(fast.move_values) == set(range(k))
        for m, x in enumerate(moves):
            lo, hi = ball_bounds(fast.move_values[m])
            assert lo <= as_q(x) <= hi
    for game, start in [(Chomp(2, 2), (1,)), (Nim(3), 0)]:
        for misere in (False, True):
            for channel in (["king", "rook", "all"] if isinstance(game, Chomp) else ["binary"]):
                r = point_solve(game, channel, fmpq(1, 3), start=start, misere=misere)
                assert r.value == int(misere) and r.optimal == frozenset() and r.move_values == {}


def test_value_at_reads_the_cache_on_its_interval_only(tmp_path):
    """value_at reads a stored value at every p of its interval, ends
    included, and computes (from the position asked, in the play convention
    asked) anywhere else; both agree with backward induction in Fractions."""
    from symbolic_noise.solvers.storage.cache import SolutionCache

    a, b = fmpq(1, 4), fmpq(3, 4)
    with SolutionCache(str(tmp_path / "c.sqlite"), Nim(5), "binary", (a, b)) as store:
        solve(Nim(5), "binary", (a, b), store=store)
        for p in (a, fmpq(1, 3), fmpq(1, 2), fmpq(7, 10), b, fmpq(1, 8), fmpq(7, 8)):
            inside = a <= p <= b
            for start in (5, 4):
                got = value_at(Nim(5), "binary", p, start=start, store=store)
                want = ref.nim(5, "binary", Fraction(int(p.p), int(p.q)))[start]
                assert got.p == p and got.method == ("piecewise" if inside else "exact")
                assert got.value == as_q(want[0]) and got.optimal == frozenset(want[1])
                assert got.move_values == ({} if inside else {m: as_q(x) for m, x in enumerate(want[2])})
    got = value_at(Nim(4), "binary", fmpq(1, 3), start=3, misere=True)
    want = ref.nim(3, "binary", Fraction(1, 3), misere=True)[3]
    assert got.value == as_q(want[0]) and got.optimal == frozenset(want[1])


def test_heap_games_and_encodings_against_the_slow_reference():
    """Games whose moves are named by the position (octal/subtraction games),
    and 1-pile Nim through a binary channel with its own encoding (not the
    fast Nim path), against pointwise.evaluate at rational p."""
    from symbolic_noise.games.channels import BinaryChannel
    from symbolic_noise.games.registry import game_from_spec

    def reversed_codes(game, v):  # the chips left, written with their bits reversed
        width = max(1, v.bit_length())
        return width, tuple(int(format(w, f"0{width}b")[::-1], 2) for w in game.followers(v))

    cases = [(game_from_spec("kayles", "5"), "binary"), (game_from_spec("subtraction:1,2", "7"), "binary"),
             (game_from_spec("kayles", "4"), "uniform"), (Nim(6), BinaryChannel(encoding=reversed_codes))]
    for game, channel in cases:
        for p in (fmpq(1, 3), fmpq(5, 7)):
            for method in ("exact", "ball"):
                fast = point_solve(game, channel, p, method=method)
                want = evaluate(game, channel, p)[game.start()]
                assert fast.p == p and fast.method == method
                if method == "exact":
                    _same(fast, want)
                else:
                    lo, hi = ball_bounds(fast.value)
                    assert lo <= want.value <= hi and fast.optimal in (None, want.optimal)
                    assert set(fast.move_values) == set(want.move_values)


def test_p_one_ball_ties_and_uniform_balls():
    """At p = 1 the Nim answer is exact even in ball mode; at an exact tie a
    ball answer names no optimal set or the exact one; the uniform channel's
    moves are all optimal, in balls too."""
    r = point_solve(Nim(5), "binary", 1, method="ball")
    assert r.method == "exact" and r.value == as_q(ref.nim(5, "binary", Fraction(1))[5][0])
    for game, channel, p, tied in [(Nim(3), "binary", fmpq(1, 2), {0, 1, 2}),
                                   (Chomp(2, 2), "king", fmpq(1, 3), {(1, 2), (2, 1), (2, 2)})]:
        assert point_solve(game, channel, p).optimal == tied
        assert point_solve(game, channel, p, method="ball").optimal in (None, frozenset(tied))
    for game in (Nim(4), Chomp(2, 3)):
        r = point_solve(game, "uniform", fmpq(2, 5), method="ball")
        assert r.optimal == frozenset(r.move_values) and len(r.move_values) == len(game.followers(game.start()))


def test_constant_channels_are_found_below_the_root_only():
    from symbolic_noise.errors import InvalidChannelError
    from symbolic_noise.games.channels import CustomChannel
    from symbolic_noise.solvers.onepoint.fastpoint import check_p, solve_constant

    const = CustomChannel({3: {0: {0: "1/2", 1: "1/2"}, 1: {1: 1}, 2: {2: "1/3", 1: "2/3"}}}, default="identity")
    assert is_constant_channel(Nim(5), const, 5, (0, 1))
    varying = CustomChannel({5: {0: {0: "1-p", 1: "p"}}}, default="identity")  # depends on p at heap 5 only
    assert is_constant_channel(Nim(5), varying, 3, (0, 1)) and not is_constant_channel(Nim(5), varying, 5, (0, 1))
    bad = CustomChannel({3: {0: {0: "3/2", 1: "-1/2"}}}, default="identity")  # constant, not a distribution
    with pytest.raises(InvalidChannelError, match="position 3"):
        is_constant_channel(Nim(4), bad, 4, (0, 1))
    with pytest.raises(InvalidChannelError, match=r"psi at position \(2,2\), sent \(1, 2\), received \(2, 1\) is negative"):
        bad = CustomChannel({(2, 2): {(1, 1): {(1, 1): "3/2", (2, 1): "-1/2"}}}, default="uniform")
        is_constant_channel(Chomp(2, 2), bad, (2, 2), (0, 1))
    # the one-piece solution of a constant channel, misère, read at a position it did not solve: a move
    # to w > 0 arrives, or (half the time) empties the heap, which misère play makes the worst move
    halves = CustomChannel(lambda v, w, u: 1 if w == u == 0 else (fmpq(1, 2) if w and u in (0, w) else 0))

    def psi(v, fs):
        return [[Fraction(1 if w == u == 0 else (Fraction(1, 2) if w and u in (0, w) else 0)) for u in fs] for w in fs]

    for misere in (False, True):
        sol = solve_constant(Nim(6), halves, (fmpq(0), fmpq(1)), 3, misere=misere)
        want = ref.backward_induction(6, ref.nim_followers, psi, misere)
        for v in (3, 5, 6):
            got = sol.at("1/3", v)
            assert got.value == as_q(want[v][0]) and got.optimal == frozenset(want[v][1])
    for bad_p in ("3/2", "-1/3"):
        with pytest.raises(Exception, match="outside"):
            check_p(bad_p)


def test_ball_bounds_of_large_and_exact_balls():
    from flint import arb

    for x in (arb(3) * 2**70, arb(5) / 2**80, arb(7)):
        lo, hi = ball_bounds(x)
        assert lo == hi and float(lo) == float(x)
    x = arb(2) ** 100 / 3
    lo, hi = ball_bounds(x)
    assert lo < fmpq(2**100, 3) < hi and hi - lo < 2**60  # (53 bits: a relative radius near 2^-53)
