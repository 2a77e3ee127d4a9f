"""Map certificates against forgers: every change to a valid certificate is
either rejected with a one-line VerificationError, or what it then claims is
true of the game it names (checked by the exact piecewise solve); hostile
documents end in one-line errors.  Named forgeries (a changed end, move set,
game, channel or position, swapped sides of a crossing, a gap, a unit past
p = 1) are each refused by the re-proof itself, with the provenance record
changed to match.  Property-based (hypothesis)."""

import copy
import json

import pytest
from flint import fmpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic_noise import solve
from symbolic_noise.analysis.certificates import check
from symbolic_noise.analysis.mapcert import map_check, verify_map_document
from symbolic_noise.errors import SymbolicNoiseError, VerificationError
from symbolic_noise.games.provenance import channel_from_canonical, game_from_canonical
from symbolic_noise.games.registry import game_from_spec

from json_paths import get_leaf, leaf_paths, set_leaf


def _doc(family, param, channel, statement, misere=False):
    cert = map_check(game_from_spec(family, param), channel, statement, misere=misere)
    assert cert.verdict is not None
    return cert.to_json()


DOCS = {
    "nim": _doc("nim", "8", "binary", "optimal 0 on [0, 1/2]"),  # class units and a one-sided unit at 1/2
    "chomp": _doc("chomp", "3x3", "king", "N >= 1/4 on [0, 1]"),  # class, crossing and value units
    "fails": _doc("nim", "5", "binary", "optimal 3 on [3/5, 4/5]"),
}
TEXT = {name: json.dumps(doc) for name, doc in DOCS.items()}


def _fresh(name):
    return json.loads(TEXT[name])


def _refused(doc, match=None):
    with pytest.raises(VerificationError, match=match) as info:
        verify_map_document(doc)
    assert "\n" not in str(info.value)
    return str(info.value)


def test_the_documents_verify():
    for name in DOCS:
        assert verify_map_document(_fresh(name))


def test_a_changed_end_is_refused():
    doc = _fresh("nim")
    doc["units"][3]["hi"] = "3/10"  # overlaps the next unit, or leaves a gap
    _refused(doc)
    doc = _fresh("chomp")
    k = next(i for i, u in enumerate(doc["units"]) if u["kind"] == "crossing")
    lo, hi = doc["units"][k]["change"]
    doc["units"][k]["change"] = [hi, hi]  # the change is not certainly right of hi
    _refused(doc, "change")


def test_a_changed_move_set_is_refused():
    doc = _fresh("nim")
    doc["units"][2]["set"] = [1]
    _refused(doc, "unit 2")
    doc = _fresh("nim")
    doc["units"][-1]["tie"] = [0, 1]
    _refused(doc, "optimal set at p = 1/2")


def test_swapped_sides_of_a_crossing_are_refused():
    doc = _fresh("chomp")
    u = next(u for u in doc["units"] if u["kind"] == "crossing")
    u["left"], u["right"] = u["right"], u["left"]
    _refused(doc, "crossing")


def test_a_gap_is_refused():
    doc = _fresh("nim")
    del doc["units"][4]
    _refused(doc, "uncovered")


def test_a_unit_past_one_is_refused():
    doc = _fresh("chomp")
    doc["units"][-1]["hi"] = "11/10"
    _refused(doc, "outside")


@pytest.mark.parametrize("what, change", [
    ("game", lambda d: (d["game"].update(param="9"), d["meta"]["game"].update(param="9"), d.update(position=9),
                        d["meta"].update(position="9"))),
    ("channel", lambda d: (d["channel"].update(name="z"), d["meta"]["channel"].update(name="z"))),
    ("position", lambda d: (d.update(position=7), d["meta"].update(position="7"))),
    ("misere", lambda d: (d.update(misere=True), d["meta"].update(misere=True))),
])
def test_a_changed_game_channel_position_or_play_is_refused(what, change):
    doc = _fresh("nim")
    change(doc)
    _refused(doc, "unit")  # by a unit's re-proof, not by the provenance record


def test_the_provenance_record_must_match():
    doc = _fresh("nim")
    doc["meta"]["game"]["param"] = "9"
    _refused(doc, "provenance")
    doc = _fresh("nim")
    doc["channel"]["name"] = "binary-gray"  # the claim is true through binary-gray too: the record must follow
    _refused(doc, "provenance")


def test_a_moved_counterexample_is_refused():
    doc = _fresh("fails")
    doc["claims"][0]["counterexample"]["p"] = "3/5"
    _refused(doc, "does not fail")
    doc = _fresh("fails")
    doc["claims"][0]["verdict"] = "holds"
    _refused(doc)


def _truth(doc) -> bool:
    """The claim of a document that verified is true of the game it names (exact solve)."""
    game = game_from_canonical(doc["game"])
    channel = channel_from_canonical(doc["channel"])
    v = doc["position"]
    v = game.check_position(tuple(v) if isinstance(v, list) else v)
    claim = doc["claims"][0]
    sol = solve(game, channel, start=v, misere=doc["misere"])
    return check(sol, claim["statement"], v).holds == (claim["verdict"] == "holds")


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
        swaps = [("1/2", "3/5"), (">=", "<="), ("optimal 0", "optimal 1"), ("holds", "fails"), ("left", "right"),
                 ("class", "value"), ("8", "9"), ("king", "rook"), ("3x3", "3x4")]
        for old, new in swaps[how % len(swaps):] + swaps[: how % len(swaps)]:
            if old in leaf:
                return leaf.replace(old, new, 1)
        return leaf + "0"
    return None


PATHS = {name: [p for p in leaf_paths(doc) if p[0] != "meta"] for name, doc in DOCS.items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(DOCS)), pick=st.integers(0, 10**6), how=st.integers(0, 50), count=st.integers(1, 2))
def test_a_changed_certificate_is_rejected_or_still_true(name, pick, how, count):
    doc = _fresh(name)
    paths = PATHS[name]
    for i in range(count):
        path = paths[(pick + 7919 * i) % len(paths)]
        set_leaf(doc, path, _mutant(get_leaf(doc, path), how + i))
        if path[0] in ("game", "position", "misere", "interval"):  # the record follows, so the re-proof must refuse
            meta = doc["meta"]
            meta["game"].update(doc["game"]) if isinstance(doc["game"], dict) else None
            meta.update(misere=doc["misere"], interval=doc["interval"])
            try:
                g = game_from_canonical(doc["game"])
                meta["position"] = g.position_label(g.check_position(doc["position"]))
            except (SymbolicNoiseError, TypeError):
                pass
    try:
        verify_map_document(doc)
    except VerificationError as exc:
        assert "\n" not in str(exc)
        return
    assert _truth(doc), f"a changed certificate verified a false claim: {doc['claims']}"


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=120, deadline=None)
@given(junk=JSONISH, where=st.sampled_from(["game", "channel", "position", "interval", "claims", "units", "misere",
                                            "prec", "meta", "format", "unit", None]))
def test_hostile_documents_end_in_one_line_errors(junk, where):
    doc = _fresh("nim")
    if where is None:
        doc = junk
    elif where == "unit":
        doc["units"][1] = junk
    else:
        doc[where] = junk
    try:
        verify_map_document(doc)
    except SymbolicNoiseError as exc:
        assert isinstance(exc, VerificationError) and "\n" not in str(exc)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["units"][0].__setitem__("lo", "1/" + "9" * 500), "exact rational"),
    (lambda d: d.__setitem__("prec", 10**6), "prec"),
    (lambda d: d.__setitem__("units", [d["units"][0]] * 200_001), "at most"),
    (lambda d: d["units"][0].__setitem__("set", [[[[0]]]] * 3), "move"),
    (lambda d: d["units"][0].__setitem__("set", json.loads("[" * 500 + "]" * 500)), "nests"),
    (lambda d: d.__setitem__("interval", ["0", "2"]), ""),
    (lambda d: d["claims"][0].__setitem__("statement", "N >= 1/2 on [0, 1/3]"), "interval"),
])
def test_named_hostile_inputs(change, message):
    doc = _fresh("nim")
    change(doc)
    _refused(doc, message or None)


def test_verify_on_the_command_line_refuses_a_forged_crossing(tmp_path, capsys):
    from symbolic_noise.io.cli import main

    doc = copy.deepcopy(DOCS["chomp"])
    u = next(u for u in doc["units"] if u["kind"] == "crossing")
    u["left"], u["right"] = u["right"], u["left"]
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("REJECTED") and out.count("\n") == 1


def test_a_channel_file_is_bound_by_its_content(tmp_path, capsys):
    from symbolic_noise.games.provenance import document_hash
    from symbolic_noise.io.cli import main

    channel = {"default": "binary", "rows": [{"position": 3, "sent": 0, "received": [[0, "1 - p"], [1, "p/2"], [2, "p/2"]]}]}
    (tmp_path / "ch.json").write_text(json.dumps(channel))
    path = tmp_path / "c.json"
    argv = ["check", "nim", "3", "optimal 0 on [0, 1/4]", "--method", "map", "--channel", str(tmp_path / "ch.json")]
    assert main(argv + ["--out", str(path)]) == 0
    doc = json.loads(path.read_text())
    assert doc["channel"]["custom"] == channel and doc["channel"]["sha256"] == doc["meta"]["channel"]["sha256"]
    assert verify_map_document(copy.deepcopy(doc))
    forged = copy.deepcopy(doc)
    forged["channel"]["custom"]["rows"][0]["received"][0][1] = "1 - p/2"
    _refused(forged, "SHA-256")
    # the same change with its hash and record made to match: the channel now sends 1 with probability
    # p/2 only when 0 is sent and its row no longer sums to 1, or the units fail: refused either way
    forged["channel"]["sha256"] = forged["meta"]["channel"]["sha256"] = document_hash(forged["channel"]["custom"])
    _refused(forged)
    # a channel where move 0 is sent but 2 is mostly received: "optimal 0" is false, the units are refused
    swapped = copy.deepcopy(doc)
    swapped["channel"]["custom"]["rows"][0]["received"] = [[0, "p/2"], [1, "p/2"], [2, "1 - p"]]
    swapped["channel"]["sha256"] = swapped["meta"]["channel"]["sha256"] = document_hash(swapped["channel"]["custom"])
    assert not check(solve(game_from_spec("nim", "3"), channel_from_canonical(swapped["channel"]), (0, fmpq(1, 4))),
                     "optimal 0 on [0, 1/4]").holds
    _refused(swapped, "unit")


def test_verify_runs_no_search(monkeypatch):
    import symbolic_noise.solvers.maps as maps
    import symbolic_noise.solvers.maps.build as build

    def refuse(*args, **kwargs):
        raise AssertionError("verify must re-prove the units, not search")

    monkeypatch.setattr(maps, "build_map", refuse)
    monkeypatch.setattr(build, "build_map", refuse)
    monkeypatch.setattr(build, "_Engine", refuse)
    for name in DOCS:
        assert verify_map_document(_fresh(name))
