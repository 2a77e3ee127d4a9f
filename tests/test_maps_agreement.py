"""Maps agree with the exact piecewise solver on every case it reaches.

The exact solve (``symbolic_noise.solve``) gives the start's optimal set on
every open piece and at every breakpoint, and N exactly.  A map of the same
game over [a, b] (:func:`~symbolic_noise.solvers.maps.build_map`) must then
satisfy (:func:`agreement_problems`):

* its intervals cover [a, b] in order, each nonempty, consecutive ones sharing
  an end;
* every exact change of the optimal set in [a, b] lies in exactly one change
  interval (or in an undecided one), whose sets are the exact ones on either side (on the whole
  interval, not only next to the change) and at the point, and whose named
  point, if any, is the exact one;
* every change interval holds exactly one exact change and is at most the
  map's width wide;
* on every proved interval the exact set is the map's, at every exact piece
  and breakpoint overlapping it;
* every value enclosure (of the intervals and of the finer band) holds the
  exact N at rational points: the ends, the midpoint, an off-centre point;
* every proof record (``Map.proofs``) says what the exact solution says on
  its box;
* every undecided interval is explained (:func:`unexplained`): it meets an
  exact piece where two moves of different proved tie classes are optimal
  together (equal values no proof here can show), or it lies near an exact
  tie point c where the winning class is ahead of another class tied at c
  only from the second order of p - c on (so the gap grows like (p - c)^2
  or slower and the boxes beside c need the anchored Taylor coefficients),
  or where a row denominator vanishes (no series at c).

Heavier cases (Nim up to 64, Chomp 5 x 5) are in ``benchmarks/maps_agreement.py``.
"""

from __future__ import annotations

import functools

import pytest
from flint import fmpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symbolic_noise as sn
from symbolic_noise.errors import ChannelNotApplicableError
from symbolic_noise.games.channels import get_channel
from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.games.rulesets import Nim
from symbolic_noise.solvers.maps import build_map, simplest_between
from symbolic_noise.solvers.maps.series import ORDER, first_nonzero, side_series
from symbolic_noise.solvers.maps.structure import Layout
from symbolic_noise.solvers.onepoint.fastpoint import point_solve

@functools.lru_cache(maxsize=None)
def exact(name, arg, channel, misere=False):
    """The exact value of the start, as a PiecewiseFunction on [0, 1]."""
    return sn.solve(game_from_spec(name, arg), channel, misere=misere).value()


def _in(x, lo, hi) -> bool:
    return x.compare(lo) >= 0 and x.compare(hi) <= 0


def exact_changes(f, a, b):
    """(point, set left, set at, set right) for every point of [a, b] where the
    exact optimal set changes within [a, b] (a side outside it is None)."""
    out = []
    for j, x in enumerate(f.points):
        if not _in(x, a, b):
            continue
        left = f.labels[j - 1] if j > 0 and x.compare(a) > 0 else None
        right = f.labels[j] if j < len(f.points) - 1 and x.compare(b) < 0 else None
        if any(s is not None and s != f.point_labels[j] for s in (left, right)):
            out.append((x, left, f.point_labels[j], right))
    return out


def sets_in(f, lo, hi, closed_lo=True, closed_hi=True) -> set:
    """Every exact optimal set on the interval from lo to hi (exact numbers,
    lo < hi), each end included if asked: of the pieces meeting it, of the
    breakpoints inside and of the ends."""
    pts = f.points
    out = {lab for i, lab in enumerate(f.labels) if pts[i].compare(hi) < 0 and pts[i + 1].compare(lo) > 0}
    out |= {f.point_labels[j] for j, x in enumerate(pts) if x.compare(lo) > 0 and x.compare(hi) < 0}
    if closed_lo:
        out.add(f.label_at(lo))
    if closed_hi:
        out.add(f.label_at(hi))
    return out


def agreement_problems(m, f) -> list:
    """What in the map ``m`` disagrees with the exact value ``f`` (module docstring)."""
    a, b = m.interval
    problems = []
    ivs = m.intervals
    if not ivs or ivs[0].lo != a or ivs[-1].hi != b:
        problems.append("the map does not cover its interval")
    problems += [f"{u.claims()} and {v.claims()} do not meet" for u, v in zip(ivs, ivs[1:]) if u.hi != v.lo]
    problems += [f"{iv.claims()} is empty" for iv in ivs if not iv.lo < iv.hi]
    changes = exact_changes(f, a, b)
    boxes = m.kinds("change")
    for x, left, at, right in changes:
        hits = [iv for iv in boxes if _in(x, iv.lo, iv.hi)]
        if not hits and any(_in(x, iv.lo, iv.hi) for iv in m.kinds("undecided")):
            continue  # nothing claimed there (whether that is explained: see unexplained)
        if len(hits) != 1:
            problems.append(f"the exact change at {x} lies in {len(hits)} change intervals")
            continue
        iv = hits[0]
        if iv.at != at or iv.left not in (None, left) or iv.right not in (None, right):
            problems.append(f"at {x}: exact {left} -> {at} -> {right}, map {iv.claims()}")
        if iv.point is not None and x.compare(iv.point) != 0:
            problems.append(f"{iv.claims()}, but the exact change is at {x}")
        if iv.left is not None and x.compare(iv.lo) > 0 and sets_in(f, iv.lo, x, True, False) != {iv.left}:
            problems.append(f"{iv.claims()}: exact sets {sets_in(f, iv.lo, x, True, False)} left of the change")
        if iv.right is not None and x.compare(iv.hi) < 0 and sets_in(f, x, iv.hi, False, True) != {iv.right}:
            problems.append(f"{iv.claims()}: exact sets {sets_in(f, x, iv.hi, False, True)} right of the change")
    for iv in boxes:
        inside = [x for x, *_ in changes if _in(x, iv.lo, iv.hi)]
        if len(inside) != 1:
            problems.append(f"{iv.claims()} holds {len(inside)} exact changes")
        if iv.width > m.width:
            problems.append(f"{iv.claims()} is wider than {m.width}")
    for iv in m.kinds("proved"):
        sets = sets_in(f, iv.lo, iv.hi)
        if sets != {iv.optimal}:
            problems.append(f"{iv.claims()}, but the exact sets there are {sets}")
    for iv in ivs:
        if iv.kind != "undecided":
            problems += _outside(f, iv.lo, iv.hi, *iv.value, iv.claims())
    for lo, hi, vlo, vhi in m.band:
        problems += _outside(f, lo, hi, vlo, vhi, "a box of the band")
    problems += proof_problems(m, f)
    return problems


def _outside(f, lo, hi, vlo, vhi, what) -> list:
    out = []
    for p in (lo, hi, (lo + hi) / 2, lo + (hi - lo) / 7):
        v = f(p)
        if not vlo <= v <= vhi:
            out.append(f"N({p}) = {v} is outside [{vlo}, {vhi}] ({what})")
    return out


def proof_problems(m, f) -> list:
    """Each proof record of the map against the exact sets on its box."""
    out = []
    for rec in m.proofs:
        kind, a, b = rec[:3]
        if kind == "class":
            sets = sets_in(f, a, b)
            if sets != {rec[3]}:
                out.append(f"class proof on [{a}, {b}] says {rec[3]}, exact {sets}")
        elif kind == "crossing":
            L, R, lo, hi, point = rec[3:]
            inside = [x for x, *_ in exact_changes(f, a, b) if x.compare(a) > 0 and x.compare(b) < 0]
            if len(inside) != 1 or not _in(inside[0], lo, hi):
                where = [str(x) for x in inside]
                out.append(f"crossing proof on [{a}, {b}]: exact changes at {where}, claimed in [{lo}, {hi}]")
                continue
            x = inside[0]
            left, right = sets_in(f, a, x, True, False), sets_in(f, x, b, False, True)
            if left != {L} or right != {R} or f.label_at(x) != L | R:
                out.append(f"crossing proof on [{a}, {b}]: {L} -> {R}, exact {left} -> {f.label_at(x)} -> {right}")
            if point is not None and x.compare(point) != 0:
                out.append(f"crossing proof on [{a}, {b}] names {point}, exact {x}")
        elif kind == "onesided":
            c, side, R, S = rec[3:]
            rest = sets_in(f, a, b, side == "right", side == "left")
            if f.label_at(c) != S or rest != {R}:
                out.append(f"one-sided proof on [{a}, {b}] at {c}: {S} then {R}, exact {f.label_at(c)} then {rest}")
        else:
            out.append(f"unknown proof record {rec[0]!r}")
    return out


def unexplained(m, f, layout, budget) -> list:
    """The undecided intervals of ``m`` that no known limit explains (module
    docstring); ``layout`` gives the proved tie classes and the series,
    ``budget`` is the map's box budget."""
    class_of = {layout.names[i]: k for k, c in enumerate(layout.classes) for i in c}
    ties = _tie_points(f)
    out = []
    for iv in m.kinds("undecided"):
        if any(len({class_of[w] for w in s}) > 1 for s in sets_in(f, iv.lo, iv.hi)):
            continue  # equal moves of different classes: no proof here names their set
        at = [c for c in ties if c in (iv.lo, iv.hi)]
        if at:
            if all(_high_order_tie(layout, class_of, c, 1 if c == iv.lo else -1, m.misere) for c in at):
                continue
        elif _close_classes(m, class_of, iv, budget):
            continue
        out.append(iv.claims())
    return out


def _tie_points(f):
    return [x.rational_value for x, *_ in exact_changes(f, *f.interval) if x.rational_value is not None]


def _high_order_tie(layout, class_of, c, sgn, misere) -> bool:
    """Whether the class optimal just beside c (side sgn) is ahead of some
    other class tied at c only from order 2 on, or not within the orders
    kept, or the series at c cannot be formed."""
    try:
        ser = side_series(layout, c, sgn, misere)
    except ZeroDivisionError:
        return True  # no series at c: the one-sided proof cannot start there
    win = {class_of[layout.names[i]] for i in ser.best[-1]}
    if len(win) != 1:
        return True  # two classes agree to the order kept
    r = ser.best[-1][0]
    tied = [i for i in ser.tie[-1] if class_of[layout.names[i]] not in win]
    return any((first_nonzero(ser.moves[r], ser.moves[k])[0] or ORDER + 1) >= 2 for k in tied)


#: an undecided box away from tie points is explained when, at its midpoint,
#: the best move is ahead of every other class by less than this times its width
CLOSE = 64


def _close_classes(m, class_of, iv, budget) -> bool:
    """Whether the budget was spent (or the box is as narrow as boxes get) and
    two classes are closer at the box's midpoint than its width allows to
    tell apart (exactly, by the one-point engine)."""
    # undecided boxes are at most the width wide unless the budget was spent
    scale = iv.width if m.stats["boxes"] >= budget else min(iv.width, m.width)
    p = (iv.lo + iv.hi) / 2
    ans = point_solve(m.game, m.channel, p, start=m.start, misere=m.misere)
    vals = ans.move_values
    best = max(vals.values())
    top = {class_of[w] for w in ans.optimal}
    others = [v for w, v in vals.items() if class_of[w] not in top]
    return bool(others) and best - max(others) < CLOSE * scale


def check(name, arg, channel, misere=False, interval=(0, 1), width="2^-40", budget=20000, complete=True):
    game = game_from_spec(name, arg)
    m = build_map(game, channel, misere=misere, interval=interval, width=width, budget=budget)
    f = exact(name, arg, channel, misere)
    a, b = m.interval
    if (a, b) != (0, 1):
        f = f.restrict(a, b)
    assert agreement_problems(m, f) == []
    layout = Layout(game, get_channel(channel), game.start(), m.interval)
    assert unexplained(m, f, layout, budget) == []
    if complete:
        assert m.complete, [iv.claims() for iv in m.kinds("undecided")]
    return m, f


# ---------------------------------------------------------------------------------------- whole range

CASES = (
    [("nim", str(k), "binary", False) for k in (10, 11, 13, 15, 20)]
    + [("nim", str(k), "binary", True) for k in (9, 13)]
    + [
        ("nim", "3,4", "binary", False),
        ("nim", "8", "binary-gray", False),
        ("nim", "8", "tremble", False),
        ("nim", "8", "z", False),
        ("nim", "8", "uniform", False),
        ("nim", "8", "binary@1/3", False),
        ("chomp", "2x4", "king", False),
        ("chomp", "3x4", "rook", False),
        ("chomp", "3x4", "chebyshev", False),
        ("chomp", "4x4", "rook", False),
        ("chomp", "4x4", "chebyshev", False),
        ("chomp", "3x3", "tremble", False),
        ("chomp", "3x3", "rook", True),
        ("chomp", "3x4", "all", True),
        ("kayles", "5", "binary", False),
        ("kayles", "7", "binary", False),
        ("kayles", "7", "binary", True),
        ("kayles", "6", "tremble", False),
        ("kayles", "6", "binary-gray", False),
        ("dawson-kayles", "6", "binary", False),
        ("0.137", "9", "binary", True),
        ("subtraction:1,2,3", "6", "binary", False),
        ("subtraction:1,2,3", "8", "binary", False),
        ("subtraction:1,2,3", "8", "tremble", False),
        ("subtraction:2,5,7", "9", "binary", False),
    ]
)


@pytest.mark.parametrize("name,arg,channel,misere", CASES)
def test_the_map_agrees_with_the_exact_solver_everywhere(name, arg, channel, misere):
    check(name, arg, channel, misere)


#: cases with undecided intervals: each must be explained, the rest must agree
LIMITS = [
    ("dawson-kayles", "7", "binary", False),  # order-2 contact at p = 0 (see unexplained)
    ("0.137", "6", "binary", False),
    ("0.07", "9", "binary", False),
    ("subtraction:1,3", "7", "binary", False),  # every move equal for every p
    ("subtraction:1,2,3", "9", "binary", False),  # order-4 contact at p = 1
    ("subtraction:2,5,7", "12", "binary", False),
    ("grundy", "7", "binary", False),
    ("kayles", "8", "z", False),
]


@pytest.mark.parametrize("name,arg,channel,misere", LIMITS)
def test_undecided_intervals_are_known_limits_and_the_rest_agrees(name, arg, channel, misere):
    check(name, arg, channel, misere, budget=600, complete=False)


def test_a_set_of_equal_moves_of_two_classes_is_never_claimed():
    """Dawson's Kayles from 8: on (1/2, 1] the exact optimal set is two moves
    with equal values that no proof here can show equal; the map leaves that
    part undecided (and claims nothing false anywhere)."""
    m, f = check("dawson-kayles", "8", "binary", budget=600, complete=False)
    assert f.label_at(fmpq(3, 4)) == {"8->6", "8->2+4"}
    assert all(iv.kind == "undecided" for iv in m.interval_at(fmpq(3, 4)))


# ---------------------------------------------------------------------------------------- sub-intervals

SUB = [
    ("nim", "9", "binary", False, ("1/3", "1/2")),  # ends on the change at 1/2
    ("nim", "9", "binary", False, ("1/2", "1")),
    ("nim", "12", "binary", False, ("355/1000003", "999999/1000000")),
    ("nim", "12", "binary", False, ("7/10", "3/4")),  # irrational changes inside
    ("nim", "7", "binary", True, ("1/7", "22/31")),
    ("chomp", "2x2", "king", False, ("1/3", "1/2")),  # starts on the change at 1/3
    ("chomp", "2x2", "king", False, ("0", "1/3")),  # ends on it
    ("chomp", "3x3", "king", False, ("1/10", "9/10")),
    ("chomp", "4x4", "all", False, ("2/9", "7/9")),
    ("kayles", "7", "binary", False, ("1/1024", "1023/1024")),
    ("lasker", "5", "binary", False, ("104773/500482", "3/4")),
    ("subtraction:1,2,3", "8", "binary", False, ("0", "1/2")),
]


@pytest.mark.parametrize("name,arg,channel,misere,interval", SUB)
def test_the_map_of_a_sub_interval_agrees(name, arg, channel, misere, interval):
    m, _ = check(name, arg, channel, misere, interval=interval)
    assert (m.intervals[0].lo, m.intervals[-1].hi) == tuple(fmpq(*map(int, x.split("/"))) if "/" in x else fmpq(int(x))
                                                            for x in interval)


START = [("chomp", "4x4", "king", (4, 4, 4, 3)), ("chomp", "4x4", "rook", (4, 1, 1, 1)),
         ("nim", "3,5", "binary", (3, 4)), ("kayles", "9", "binary", (4, 4))]


@pytest.mark.parametrize("name,arg,channel,start", START)
def test_the_map_of_another_position_agrees(name, arg, channel, start):
    """``start=``: the map of a position below the start against the exact
    solve of that position."""
    game = game_from_spec(name, arg)
    m = build_map(game, channel, start=start)
    f = sn.solve(game, channel, start=start).value()
    assert m.start == start and agreement_problems(m, f) == []
    assert unexplained(m, f, Layout(game, get_channel(channel), start), 20000) == []


# ---------------------------------------------------------------------------------------- widths

@pytest.mark.parametrize("width", ["2^-120", "2^-200"])
def test_change_intervals_narrower_than_the_precision_are_narrowed_anyway(width):
    """Below about 2^-115 the arb balls at the default 128 bits are as wide as
    the change interval; the narrowing raises the precision instead of
    handing back a change interval wider than the width asked for."""
    m, _ = check("kayles", "6", "binary", width=width)
    assert all(iv.width <= m.width for iv in m.kinds("change"))


def test_a_width_beyond_the_highest_precision_leaves_the_crossing_undecided():
    """At 2^-5000 no precision used narrows a crossing: the map says nothing
    there rather than claim a change interval wider than asked; the tie
    points 1/2 and 1 are still exact."""
    m, _ = check("nim", "5", "binary", width="2^-5000", complete=False)
    assert len(m.kinds("undecided")) == 1 and [iv.point for iv in m.kinds("change")] == [fmpq(1, 2), fmpq(1)]


def test_a_width_near_the_highest_precision_is_met():
    """2^-4000: the change intervals are narrowed at up to 4096 bits, and the
    simplest rational of so narrow an interval is found without recursion."""
    m, _ = check("nim", "5", "binary", width="2^-4000")
    assert len(m.kinds("change")) == 3 and all(iv.width <= m.width for iv in m.kinds("change"))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 10**6), st.integers(1, 10**4))
def test_simplest_between_has_the_smallest_denominator(n, d, w):
    x = fmpq(n % d, d)
    y = x + fmpq(w, 10**9)
    r = simplest_between(x, y)
    assert x <= r <= y
    assert all((x * k).ceil() > (y * k).floor() for k in range(1, int(r.q)))
    lo = x + fmpq(1, 3**3000)  # a continued fraction thousands of terms long
    hi = lo + fmpq(1, 2**5000)
    assert lo <= simplest_between(lo, hi) <= hi


# ---------------------------------------------------------------------------------------- per-player channels

def test_a_two_parameter_channel_is_refused_with_a_clear_error():
    """Maps have one parameter p, shared by both players; a channel with one
    parameter per player is refused, never mapped along some diagonal."""
    with pytest.raises(ChannelNotApplicableError, match="two parameters"):
        build_map(Nim(3), "asymmetric")


def test_the_command_line_refuses_a_two_parameter_channel_in_one_line(capsys):
    from symbolic_noise.io.cli import main

    assert main(["map", "nim", "3", "--channel", "asymmetric"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "two parameters" in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------- properties

FAMILY = [("nim", str(k), "binary", s) for k in range(2, 11) for s in (False, True)] + [
    ("chomp", b, ch, False) for b in ("2x2", "2x3", "3x3") for ch in ("king", "rook", "all")
] + [("kayles", str(h), "binary", False) for h in range(3, 7)] + [("subtraction:1,2,3", "7", "binary", False)]

_MAPS: dict = {}


def _map(case, width="2^-30"):
    if (case, width) not in _MAPS:
        name, arg, channel, misere = case
        _MAPS[case, width] = build_map(game_from_spec(name, arg), channel, misere=misere, width=width)
    return _MAPS[case, width]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FAMILY), st.data())
def test_one_exact_point_agrees_with_a_proved_interval(case, data):
    """A random rational p inside a proved interval: the exact one-point
    engine gives the same optimal set and a value inside the enclosure."""
    m = _map(case)
    proved = m.kinds("proved")
    assert proved
    iv = data.draw(st.sampled_from(proved))
    k = data.draw(st.integers(0, 10**6))
    p = iv.lo + (iv.hi - iv.lo) * fmpq(k, 10**6)
    name, arg, channel, misere = case
    ans = point_solve(game_from_spec(name, arg), channel, p, misere=misere)
    assert ans.optimal == iv.optimal
    assert iv.value[0] <= ans.value <= iv.value[1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FAMILY), st.data())
def test_one_exact_point_agrees_with_a_change_interval(case, data):
    """A random rational p inside a change interval: the exact set is one of
    the interval's three, and the value lies in its enclosure."""
    m = _map(case)
    changes = m.kinds("change")
    if not changes:
        return
    iv = data.draw(st.sampled_from(changes))
    p = iv.lo + iv.width * fmpq(data.draw(st.integers(0, 1000)), 1000)
    name, arg, channel, misere = case
    ans = point_solve(game_from_spec(name, arg), channel, p, misere=misere)
    assert ans.optimal in (iv.left, iv.at, iv.right)
    assert iv.value[0] <= ans.value <= iv.value[1]


WIDTHS = st.one_of(st.integers(1, 200).map(lambda k: f"2^-{k}"),
                   st.integers(2, 10**6).map(lambda n: f"1/{n}"),
                   st.tuples(st.integers(1, 999), st.integers(1000, 10**7)).map(lambda t: f"{t[0]}/{t[1]}"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FAMILY[:12] + FAMILY[18:24]), WIDTHS)
def test_every_change_interval_is_at_most_the_width_asked(case, width):
    name, arg, channel, misere = case
    m = build_map(game_from_spec(name, arg), channel, misere=misere, width=width, budget=4000)
    assert all(iv.width <= m.width for iv in m.kinds("change"))
    assert agreement_problems(m, exact(name, arg, channel, misere)) == []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FAMILY), st.integers(0, 10**6), st.integers(1, 10**6), st.integers(1, 10**6))
def test_a_random_sub_interval_agrees(case, x, y, d):
    """[a, b] with ends of large and awkward denominators."""
    a = fmpq(x, 10**6 + d)
    b = a + (1 - a) * fmpq(y, 10**6)
    name, arg, channel, misere = case
    m = build_map(game_from_spec(name, arg), channel, misere=misere, interval=(a, b), width="2^-30", budget=4000)
    assert (m.intervals[0].lo, m.intervals[-1].hi) == (a, b)
    assert agreement_problems(m, exact(name, arg, channel, misere).restrict(a, b)) == []


def test_the_checks_catch_a_forged_map():
    """The checks above are not vacuous: a proved set, a value enclosure, a
    change interval or a proof record moved off the truth fails them."""
    from dataclasses import replace

    m = build_map(Nim(5), "binary", width="2^-30")
    f = exact("nim", "5", "binary")
    assert agreement_problems(m, f) == []
    iv = m.kinds("proved")[0]
    k = m.intervals.index(iv)
    change = next(j for j, u in enumerate(m.intervals) if u.kind == "change")
    forgeries = [
        [replace(iv, optimal=frozenset({3}))],
        [replace(iv, value=(iv.value[0] + fmpq(1, 2), iv.value[1] + fmpq(1, 2)))],
    ]
    for ivs in forgeries:
        assert agreement_problems(replace(m, intervals=m.intervals[:k] + ivs + m.intervals[k + 1:]), f)
    u = m.intervals[change]
    moved = replace(u, left=u.right, right=u.left)
    assert agreement_problems(replace(m, intervals=m.intervals[:change] + [moved] + m.intervals[change + 1:]), f)
    rec = next(r for r in m.proofs if r[0] == "class")
    assert proof_problems(replace(m, proofs=[(*rec[:3], frozenset({3}))]), f)
    assert agreement_problems(replace(m, band=[(fmpq(0), fmpq(1), fmpq(0), fmpq(1, 10))]), f)
