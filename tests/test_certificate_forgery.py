"""Certificates against forgers: every change to a valid certificate is either
rejected, or what it then claims is true of the game it names (checked by an
independent solve); hostile documents end in a one-line VerificationError,
never another exception.  Property-based (hypothesis)."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic_noise import solve
from symbolic_noise.analysis.certificates import check, certificate_document, verify, verify_document
from symbolic_noise.errors import SymbolicNoiseError, VerificationError
from symbolic_noise.games.provenance import channel_from_canonical, game_from_canonical
from symbolic_noise.games.registry import game_from_spec

from json_paths import get_leaf, leaf_paths, set_leaf


def _document(family, param, channel, statements, interval=(0, 1), position=None):
    game = game_from_spec(family, param)
    sol = solve(game, channel, interval)
    v = game.start() if position is None else position
    return certificate_document([check(sol, text, v) for text in statements])


DOCS = {
    "nim": _document("nim", "4", "binary", ["N >= 1/2 on [0, 1/2]", "optimal 0 on [0, 1/2]", "optimal-set {3} on [3/4, 1]"]),
    "chomp": _document("chomp", "2x3", "king", ["optimal (2,3) on [1/2, 1]", "N >= 1/3 on [0, 1]"]),
    "kayles": _document("kayles", "4", "binary", ["N <= 1 on [0, 1]", "optimal 4->2 on [0, 1/4]"]),
}
TEXT = {name: json.dumps(doc) for name, doc in DOCS.items()}


def _truth(document) -> bool:
    """Every claim of a document that verified is true of the game it names:
    an independent solve, the statement checked on it."""
    game = game_from_canonical(document["game"])
    channel = channel_from_canonical(document["channel"])
    a, b = document["interval"]
    for claim in document["claims"]:
        v = game.check_position(tuple(claim["position"]) if isinstance(claim["position"], list) else claim["position"])
        sol = solve(game, channel, (a, b), start=v, misere=document["misere"])
        if check(sol, claim["statement"], v).holds != (claim["verdict"] == "holds"):
            return False
    return True


PATHS = {name: [p for p in leaf_paths(doc) if p[0] != "software" and "pieces" not in p] for name, doc in DOCS.items()}


def _mutant(leaf, how: int):
    if isinstance(leaf, bool):
        return not leaf
    if isinstance(leaf, int):
        return leaf + (1, -1, 2)[how % 3]
    if isinstance(leaf, str):
        if leaf.lstrip("-").isdigit():
            return str(int(leaf) + (1, -1, 7)[how % 3])
        if "/" in leaf and leaf.replace("/", "").lstrip("-").isdigit():
            p, q = leaf.split("/")
            return f"{int(p) + 1}/{q}" if how % 2 else f"{p}/{int(q) + 1}"
        swaps = [("1/2", "3/5"), (">=", "<="), ("optimal 0", "optimal 1"), ("holds", "fails"), ("nim", "kayles"),
                 ("binary", "uniform"), ("king", "rook"), ("4", "5"), ("(2,3)", "(1,3)"), ("2x3", "3x2")]
        for old, new in swaps[how % len(swaps):] + swaps[: how % len(swaps)]:
            if old in leaf:
                return leaf.replace(old, new, 1)
        return leaf + "0"
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(DOCS)), pick=st.integers(0, 10**6), how=st.integers(0, 50), count=st.integers(1, 3))
def test_a_changed_certificate_is_rejected_or_still_true(name, pick, how, count):
    doc = json.loads(TEXT[name])
    paths = PATHS[name]
    for i in range(count):
        path = paths[(pick + 7919 * i) % len(paths)]
        set_leaf(doc, path, _mutant(get_leaf(doc, path), how + i))
    try:
        verify(doc)
    except VerificationError as exc:
        assert "\n" not in str(exc)
        return
    assert _truth(doc), f"a changed certificate verified a false claim: {[c['statement'] for c in doc['claims']]}"


def test_the_reviewers_forgeries_are_rejected():
    # nim 5: "N >= 9/10 on [0, 1/2]" with N_5 replaced by 1 (a matching sign claim is no longer read)
    doc = certificate_document([check(solve(game_from_spec("nim", "5"), "binary"), "N >= 1/2 on [0, 1/2]")])
    forged = copy.deepcopy(doc)
    forged["claims"][0]["statement"] = "N >= 9/10 on [0, 1/2]"
    row = next(r for r in forged["values"] if r[0] == 5)[1]
    row.update(points=["0", "1"], formulas=[[["1"], ["1"]]], labels=[[0]], point_labels=[[0], [0]])
    with pytest.raises(VerificationError):
        verify(forged)
    moved = copy.deepcopy(doc)
    moved["claims"][0]["position"] = 6  # a position the stated game does not have
    with pytest.raises(VerificationError, match="not a position"):
        verify(moved)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(junk=JSONISH, where=st.sampled_from(["game", "channel", "interval", "claims", "values", "misere", "strategies",
                                            "format", None]))
def test_hostile_documents_end_in_one_line_errors(junk, where):
    doc = json.loads(TEXT["nim"])
    if where is None:
        doc = junk
    else:
        doc[where] = junk
    try:
        verify_document(doc)
    except SymbolicNoiseError as exc:
        assert isinstance(exc, VerificationError) and "\n" not in str(exc)


@settings(max_examples=80, deadline=None)
@given(junk=JSONISH, field=st.sampled_from(["points", "formulas", "labels", "point_labels", "position", "row"]))
def test_hostile_values_end_in_one_line_errors(junk, field):
    doc = json.loads(TEXT["nim"])
    row = doc["values"][-1]
    if field == "position":
        row[0] = junk
    elif field == "row":
        doc["values"][-1] = junk
    else:
        row[1][field] = junk
    with pytest.raises(VerificationError) as info:
        verify_document(doc)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda d: d["values"][-1][1]["formulas"][0].__setitem__(1, ["0"]), "denominator"),
        (lambda d: d["values"][-1][1]["formulas"][0].__setitem__(0, ["1"] * 30000), "degree"),
        (lambda d: d["values"][-1][1].__setitem__("points", ["0", "1/0"]), ""),
        (lambda d: d["claims"][0].__setitem__("statement", "optimal-set {} on [0, 1]"), ""),
        (lambda d: d["claims"][0].__setitem__("position", json.loads("[" * 500 + "]" * 500)), "nests"),
        (lambda d: d.__setitem__("interval", ["0", "2"]), "inside"),
        (lambda d: d["game"].__setitem__("param", "99999999"), ""),
    ],
)
def test_named_hostile_inputs(change, message):
    doc = json.loads(TEXT["nim"])
    change(doc)
    with pytest.raises(VerificationError, match=message or None) as info:
        verify_document(doc)
    assert "\n" not in str(info.value)
