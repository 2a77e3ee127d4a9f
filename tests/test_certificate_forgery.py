"""Certificates against forgers: every change to a valid certificate is either
rejected, or what it then claims is true of the game it names (checked by an
independent solve); hostile documents end in a one-line VerificationError,
never another exception.  Property-based (hypothesis)."""

import copy
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
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
@example(junk=None, field="labels")
@example(junk=None, field="point_labels")
@example(junk=[[], []], field="labels")  # well formed, false: no optimal move on either piece
def test_hostile_values_end_in_one_line_errors(junk, field):
    doc = json.loads(TEXT["nim"])
    row = doc["values"][-1]
    if field == "position":
        row[0] = junk
    elif field == "row":
        doc["values"][-1] = junk
    else:
        row[1][field] = junk
    if field in ("labels", "point_labels") and junk is None:
        # the optimal-move labels are optional hints: without them the Bellman
        # check finds the optimal moves itself, and the verdicts are the same
        assert verify_document(doc) == verify_document(json.loads(TEXT["nim"]))
        return
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


def test_the_size_caps_of_stored_values_are_exact(monkeypatch):
    """The caps on a stored value are read at their bounds (lowered here, so
    that the check stays fast): a formula of degree MAX_DEGREE and a
    breakpoint polynomial of degree MAX_DEGREE pass the caps (and are then
    refused for what they are: not the game's value, or not a root), one more
    is refused by the cap; as many pieces as MAX_PIECES pass, one more is
    refused; no pieces, and points that are not one more than pieces, are
    refused by name."""
    from symbolic_noise.analysis import certificates as C

    monkeypatch.setattr(C, "MAX_DEGREE", 6)

    def attempt(change):
        doc = json.loads(TEXT["nim"])
        change(doc["values"][-1][1])
        with pytest.raises(VerificationError) as info:
            verify_document(doc)
        return str(info.value)

    top = ["0"] * 6 + ["1"]  # p^6: MAX_DEGREE + 1 coefficients
    assert "degree at most" not in attempt(lambda v: v["formulas"][0].__setitem__(0, top))
    assert "degree at most" in attempt(lambda v: v["formulas"][0].__setitem__(0, top + ["1"]))
    root = {"poly": ["-1"] + ["0"] * 5 + ["2"], "lo": "0", "hi": "1"}  # 2p^6 - 1
    assert "degree is too high" not in attempt(lambda v: v["points"].__setitem__(1, root))
    assert "degree is too high" in attempt(lambda v: v["points"].__setitem__(1, {**root, "poly": root["poly"] + ["1"]}))
    assert "has no pieces" in attempt(lambda v: (v.__setitem__("formulas", []), v.__setitem__("points", ["0"])))
    assert "one more point than pieces" in attempt(lambda v: v["points"].append("1"))
    assert "not an encoded piecewise function" in attempt(lambda v: v.__setitem__("points", "0"))
    pieces = len(json.loads(TEXT["nim"])["values"][-1][1]["formulas"])
    monkeypatch.setattr(C, "MAX_PIECES", pieces)
    assert verify_document(json.loads(TEXT["nim"]))
    monkeypatch.setattr(C, "MAX_PIECES", pieces - 1)
    assert "more than" in attempt(lambda v: None)


def test_claim_summaries_name_each_comparison():
    """The summary of an 'optimal 0' claim on Nim 4 compares move 0 with each
    other move (1, 2, 3) on each piece, needing N(0) - N(m) >= 0; the pieces
    cover [0, 1/2] from end to end."""
    claim = DOCS["nim"]["claims"][1]
    assert claim["statement"] == "optimal 0 on [0, 1/2]" and claim["verdict"] == "holds"
    pieces = claim["pieces"]
    assert pieces[0]["lo"]["exact"] == "0" and pieces[-1]["hi"]["exact"] == "1/2"
    assert all(a["hi"] == b["lo"] for a, b in zip(pieces, pieces[1:]))
    for piece in pieces:
        assert sorted(c["against"] for c in piece["claims"]) == ["1", "2", "3"]
        assert all(c["kind"] in ("sign", "identical") and c.get("need", "nonneg") == "nonneg" for c in piece["claims"])


def test_positions_and_move_names_at_their_bounds():
    """A position nested 64 lists deep is read, 65 deep is refused; a move
    name of up to 12 characters of digits is a whole number, a longer one
    stays text; an optimal set's moves are split at top-level commas only."""
    from symbolic_noise.analysis.certificates import Statement, _position_from_json

    def nest(n):
        x = 0
        for _ in range(n):
            x = [x]
        return x

    deep = _position_from_json(nest(64))
    for _ in range(64):
        (deep,) = deep
    assert deep == 0
    with pytest.raises(VerificationError, match="nests too deeply"):
        _position_from_json(nest(65))
    assert Statement.parse("optimal 123456789012 on [0, 1]").value == 123456789012
    assert Statement.parse("optimal -12345678901 on [0, 1]").value == -12345678901
    assert Statement.parse("optimal 1234567890123 on [0, 1]").value == "1234567890123"
    assert Statement.parse("optimal-set {((1,2), 3), 4} on [0, 1]").value == frozenset({"((1,2), 3)", 4})


def test_each_refusal_of_a_document_says_what_is_wrong():
    """Every check of a document's frame refuses with its own one-line reason;
    an interval end of 200 characters is read, one of 201 is refused; an
    interval of one point is inside [0, 1] (the claims then lie outside it)."""
    def refusal(change):
        doc = json.loads(TEXT["nim"])
        doc = change(doc) or doc
        with pytest.raises(VerificationError) as info:
            verify_document(doc)
        return str(info.value)

    assert refusal(lambda d: [d]) == "a certificate is a JSON object"
    assert refusal(lambda d: d.update(format="x/9")) == "not a certificate of format symbolic-noise.certificate/2 (found 'x/9')"
    assert refusal(lambda d: d.update(format="y" * 80)) == f"not a certificate of format symbolic-noise.certificate/2 (found {'y' * 60!r})"
    assert refusal(lambda d: d.pop("values") and None) == 'the certificate has no "values"'
    assert refusal(lambda d: d.update(misere=0)) == '"misere" is true or false'
    assert refusal(lambda d: d.update(strategies={"first": "optimal", "second": "random"})) == (
        "only certificates of optimal play by both players can be verified")
    frame = '"interval" is a pair of exact rationals written as text'
    assert refusal(lambda d: d.update(interval=[0, "1"])) == frame
    assert refusal(lambda d: d.update(interval=["0", "1" * 201])) == frame
    long_one = "0" * 198 + "1" + "/1"  # 201 characters
    assert refusal(lambda d: d.update(interval=["0", long_one])) == frame
    long_one = "0" * 197 + "1" + "/1"  # 200 characters: read, and it is 1
    assert verify_document({**json.loads(TEXT["nim"]), "interval": ["0", long_one]})
    assert "outside the certificate's interval" in refusal(lambda d: d.update(interval=["1/2", "1/2"]))


def test_document_text_is_the_compact_json_with_a_line_per_claim_and_value():
    """document_text is the compact JSON of the document (no spaces after
    separators), broken before each claim and each value: the claims and the
    values appear once."""
    from symbolic_noise.analysis.certificates import document_text

    doc = json.loads(TEXT["chomp"])
    text = document_text(doc)
    flat = text.replace("\n", "")
    assert flat == json.dumps(doc, separators=(",", ":"))
    assert flat.count('"claims":[{"position"') == 1 and flat.count('"values":[[') == 1
    assert len(text.splitlines()) == len(doc["claims"]) + len(doc["values"]) + 3


def test_claim_summaries_made_in_the_test_and_in_memory_documents():
    """A summary made here (not at import) keeps each piece's ends and, per
    comparison, its kind, the move compared against and the need; a document
    verifies as the dict to_json returns (positions as lists), not only after
    a JSON round trip."""
    game = game_from_spec("chomp", "2x2")
    sol = solve(game, "king", (0, 1))
    cert = check(sol, "optimal (2,2) on [1/3, 1]")
    claim = cert.claim_json()
    assert claim["position"] == [[2, 2]] or claim["position"] == [2, 2]
    assert len(claim["pieces"]) == len(cert.pieces)
    for summary, piece in zip(claim["pieces"], cert.pieces):
        assert summary["lo"] == piece["lo"] and summary["hi"] == piece["hi"]
        assert [{k: c[k] for k in ("kind", "against", "need") if k in c} for c in piece["claims"]] == summary["claims"]
        assert all(set(c) == {"kind", "against", "need"} or c["kind"] == "identical" for c in summary["claims"])
    assert verify(cert.to_json()) is True
