"""Hybrid certificates (format hybrid/2) against forgers: every change to a
valid certificate of each kind is either rejected with a one-line
VerificationError, or what it then claims is true of the game it names
(checked by an independent exact computation: the exact piecewise solve, or
the exact pointwise engine at rational points); hostile files through the
command line end in one-line errors in bounded time.  Property-based
(hypothesis)."""

import copy
import json
import os
import time

import pytest
from flint import fmpq
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from symbolic_noise import Nim, solve
from symbolic_noise.analysis.certificates import check
from symbolic_noise.analysis.hybrid.fairness import shared_certificate
from symbolic_noise.analysis.hybrid.take_all import certify as certify9
from symbolic_noise.analysis.hybrid.power_of_two import certify as certify10
from symbolic_noise.analysis.hybrid.certificates import claim_of, counterexample_certificate, fairness_certificate, q_parse, verify_hybrid
from symbolic_noise.analysis.hybrid.fileformat import CAPS, CertificateFormatError
from symbolic_noise.errors import SymbolicNoiseError, VerificationError
from symbolic_noise.io.cli import main
from symbolic_noise.solvers.onepoint.fastpoint import point_solve

from json_paths import get_leaf, leaf_paths, set_leaf

CERTS = {
    "counterexample": counterexample_certificate(5, fmpq(9, 10), 4, 3),
    "fairness": fairness_certificate(10, tol=fmpq(1, 2**8)),
    "fairness_none": fairness_certificate(6),
    "conjecture9": certify9(6, fmpq(3, 8), fmpq(1, 2)),
    "conjecture10": certify10(8, fmpq(5, 8), delta=fmpq(1, 64), delta_half=fmpq(1, 64), width=fmpq(1, 64),
                              tm_width=fmpq(1, 32)),
    "fairness_shared": shared_certificate(10, 12, tol=fmpq(1, 2**8)),
}
TEXT = {name: json.dumps(c) for name, c in CERTS.items()}
_SOLVED: dict = {}


def _sol(k):
    if k not in _SOLVED:
        _SOLVED[k] = solve(Nim(k), "binary")
    return _SOLVED[k]


def _fair_p0_holds(k, eps, lo, hi) -> bool:
    """p0(k) in [lo, hi]: the condition fails at lo and holds on [hi, 1] (exact)."""
    if not (0 <= lo <= hi <= 1):
        return False
    if abs(2 * point_solve(Nim(k), "binary", lo).value - 1) < eps:
        return False
    return check(_sol(k), f"|2N-1| < {eps} on [{hi}, 1]").holds


def _truth(c) -> bool:
    """The statement of an accepted certificate is true of Nim through the
    binary channel: decided by the exact piecewise solve (every k here is <= 12)."""
    kind, K = c["kind"], c["position"]
    assert c["game"] == {"family": "nim", "param": str(K)} and c["channel"] == {"name": "binary"} and not c["misere"]
    assert claim_of(kind, K, c)[0] == c["statement"]
    if kind == "counterexample":
        p = c["p"]
        return not check(_sol(K), f"optimal {c['claimed']} on [{p}, {p}]").holds
    if kind == "conjecture9":
        a, b = c["interval"]
        return all(check(_sol(k), f"N >= 1/2 on [{a}, {b}]").holds and check(_sol(k), f"optimal 0 on [{a}, {b}]").holds
                   for k in range(2, K + 1))
    if kind == "conjecture10":
        a, b = c["interval"]
        return check(_sol(K), f"N >= 1/2 on [{a}, {b}]").holds and check(_sol(K), f"optimal {K - 1} on [{a}, {b}]").holds
    eps = q_parse(c["eps"])
    heaps = [c] if kind == "fairness" else c["heaps"]
    for h in heaps:
        k = h["k"] if kind == "fairness_shared" else K
        one = abs(2 * point_solve(Nim(k), "binary", 1).value - 1)
        if not h["exists"]:
            if one < eps:
                return False
            continue
        if not _fair_p0_holds(k, eps, *(q_parse(x) for x in h["p0"])):
            return False
    return True


def test_every_kind_verifies_and_is_true():
    for name, c in CERTS.items():
        assert verify_hybrid(json.loads(TEXT[name])) is True, name
        assert _truth(c), name


def _rejected(c, match=None):
    with pytest.raises(VerificationError, match=match) as info:
        verify_hybrid(c)
    assert "\n" not in str(info.value)
    return info.value


def _edit(name, change):
    c = json.loads(TEXT[name])
    change(c)
    return c


def _set(path, value):
    def change(c):
        d = c
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return change


FORGERIES = [
    # the game, the position, the channel, the play
    ("counterexample", _set(("game",), {"family": "chomp", "param": "2x3"}), "1-pile Nim only"),
    ("conjecture9", _set(("game",), {"family": "chomp", "param": "2x3"}), "1-pile Nim only"),
    ("fairness", _set(("game", "param"), "11"), "heap of the game"),
    ("conjecture9", _set(("game", "param"), "7"), "heap of the game"),
    ("conjecture10", _set(("game", "param"), "16"), "heap of the game"),
    ("fairness_shared", _set(("game", "param"), "13"), "heap of the game"),
    ("counterexample", _set(("position",), 4), "position"),
    ("counterexample", _set(("channel",), {"name": "uniform"}), "binary channel only"),
    ("fairness", _set(("channel",), {"name": "binary@1/10"}), ""),
    ("conjecture9", _set(("misere",), True), "normal play"),
    ("conjecture9", _set(("strategies", "computed"), "optimal"), "strategies"),
    ("fairness", _set(("game",), {"family": "nim", "param": "10", "x": "1"}), "canonical"),
    # the statement, the interval, the verdict
    ("conjecture9", _set(("statement",), "for every k <= 6 and p in [0, 1/2]: N_k >= 1/2 and sending 0 is optimal"), "statement"),
    ("conjecture9", _set(("interval",), ["1/4", "1/2"]), "statement"),
    ("conjecture9", lambda c: c.update(interval=["1/4", "1/2"], statement=c["statement"].replace("3/8", "1/4")), "start"),
    ("conjecture10", _set(("interval",), ["1/4", "1"]), "statement"),
    ("fairness", _set(("interval",), ["1/2", "1"]), "interval"),
    ("counterexample", _set(("verdict",), "holds"), "verdict"),
    ("fairness", _set(("statement",), "p0(10) in [0, 1], where p0 = inf{p0 : |2N_10 - 1| < 1/100 on (p0, 1]}"), "statement"),
    # k, eps, boxes, gaps and margins, exact points
    ("counterexample", _set(("k",), 6), '"k"'),
    ("conjecture9", _set(("K",), 7), '"K"'),
    ("fairness", _set(("eps",), "1/1000"), ""),
    ("fairness_shared", _set(("eps",), "1/10"), ""),
    ("fairness", lambda c: c["bounds"].__setitem__(0, "1/1000000"), "stored bound"),
    ("fairness", lambda c: c["cuts"].__setitem__(-1, "255/256"), "p = 1"),
    ("fairness", _set(("p0",), ["253/256", "255/256"]), ""),
    ("fairness", _set(("fails_at",), "255/256"), ""),
    ("conjecture9", lambda c: c["gap_lower"].__setitem__(0, "1/2"), "below the stored"),
    ("conjecture9", lambda c: c["half_lower"].__setitem__(-1, "-1/1024"), "negative"),
    ("conjecture9", lambda c: c["local"].__setitem__("delta", "1/4"), ""),
    ("conjecture9", lambda c: c["local"].__setitem__("even_margin_lower", "1"), "margin"),
    ("conjecture10", lambda c: c["gap_lower"].__setitem__(3, "1/2"), "stored bounds"),
    ("conjecture10", lambda c: c["tm_half_lower"].__setitem__(0, "1/2"), "stored bounds"),
    ("conjecture10", lambda c: c["end"].__setitem__("delta", "1/32"), ""),
    ("fairness_shared", lambda c: c["bounds"].__setitem__(0, "1/67108864"), "stored bound"),
    ("fairness_shared", lambda c: c["heaps"][0].__setitem__("p0", ["0", c["heaps"][0]["p0"][1]]), ""),
    ("fairness_shared", lambda c: c["heaps"][-1].__setitem__("N_at_1", "1/3"), "N_12"),
    # the counterexample's exact values and moves
    ("counterexample", _set(("value_better",), "1/2"), "stored exact values"),
    ("counterexample", _set(("p",), "1/2"), ""),
    ("counterexample", lambda c: c.update(better=3, claimed=4), ""),
    ("counterexample", lambda c: c.update(better=9), ""),
    # keys and types
    ("conjecture9", lambda c: c.pop("local"), "no"),
    ("conjecture10", lambda c: c.pop("game"), "no"),
    ("fairness", lambda c: c.pop("statement"), "no"),
    ("conjecture9", _set(("prec",), "128"), "integer"),
    ("conjecture9", _set(("prec",), 10**6), "integer"),
    ("conjecture9", _set(("cuts",), "0"), "list"),
    ("fairness", _set(("k",), True), "integer"),
    ("fairness_shared", _set(("heaps",), [1, 2]), "object"),
    ("conjecture10", lambda c: c.__setitem__("extra", 1), "unknown key"),
    ("counterexample", _set(("format",), "symbolic-noise.hybrid/1"), "hybrid_reissue.py"),
    ("counterexample", _set(("format",), "symbolic-noise.hybrid/9"), "format"),
    ("fairness", lambda c: c["cuts"].__setitem__(0, "1" * 500), "cap"),
    ("conjecture10", lambda c: c.__setitem__("cuts", ["1/2"] * (CAPS["boxes"] + 1)), "cap"),
]


@pytest.mark.parametrize("name,change,message", FORGERIES, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(FORGERIES)])
def test_named_forgeries_are_rejected_with_one_line(name, change, message):
    _rejected(_edit(name, change), message or None)


SKIP = {"software", "cpu_seconds", "difference_decimal", "p0_decimal", "first_order", "arithmetic", "reissued_from"}
PATHS = {name: [p for p in leaf_paths(c) if not SKIP & set(map(str, p))] for name, c in CERTS.items()}


def _mutant(leaf, how: int):
    if isinstance(leaf, bool):
        return not leaf
    if isinstance(leaf, int):
        return leaf + (1, -1, 2, -3)[how % 4]
    if leaf is None:
        return "0"
    if isinstance(leaf, str):
        if leaf.lstrip("-").isdigit():
            return str(int(leaf) + (1, -1, 7)[how % 3])
        if "/" in leaf and leaf.replace("/", "").lstrip("-").isdigit():
            p, q = leaf.split("/")
            return (f"{int(p) + 1}/{q}", f"{p}/{int(q) + 1}", f"{int(p) - 1}/{q}", f"{int(p) * 2}/{q}")[how % 4]
        swaps = [("1/2", "3/5"), ("nim", "chomp"), ("binary", "uniform"), ("holds", "fails"), ("<=", ">="),
                 ("optimal 0", "optimal 1"), ("6", "7"), ("8", "4")]
        for old, new in swaps[how % len(swaps):] + swaps[: how % len(swaps)]:
            if old in leaf:
                return leaf.replace(old, new, 1)
        return leaf + "0"
    return None


def _rejected_or_true(name, c):
    """Verify a changed certificate: rejected on one line, or its statement true (exact solve)."""
    try:
        verify_hybrid(c)
    except VerificationError as exc:
        assert "\n" not in str(exc)
        event(f"{name}: rejected")
        return
    event(f"{name}: accepted, checked true")
    assert _truth(c), (name, c["statement"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CERTS)), pick=st.integers(0, 10**6), how=st.integers(0, 60), count=st.integers(1, 3))
@example(name="conjecture10", pick=20901, how=49, count=3)  # a Taylor-model box moved past p = 1
def test_a_changed_certificate_is_rejected_or_still_true(name, pick, how, count):
    c = json.loads(TEXT[name])
    paths = PATHS[name]
    for i in range(count):
        path = paths[(pick * (i + 7) + how * i) % len(paths)]
        set_leaf(c, path, _mutant(get_leaf(c, path), how + i))
    _rejected_or_true(name, c)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(max_size=30)
    | st.sampled_from(["1/2", "0", "1", "-1/3", "1/0", "x/y", "99999999999/1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CERTS)), junk=JSONISH, where=st.integers(0, 10**6))
def test_junk_anywhere_ends_in_one_line_verification_errors(name, junk, where):
    c = json.loads(TEXT[name])
    paths = [()] + PATHS[name]
    path = paths[where % len(paths)]
    if path:
        set_leaf(c, path, junk)
    else:
        c = junk
    try:
        verify_hybrid(c)
    except SymbolicNoiseError as exc:
        assert isinstance(exc, VerificationError) and "\n" not in str(exc)
        event("rejected")
        return
    event("accepted, checked true")
    assert _truth(c)


# --------------------------------------------------------------------------- the command line


def _cli(path, capsys):
    t = time.perf_counter()
    rc = main(["verify", str(path)])
    out = capsys.readouterr()
    return rc, out.out + out.err, time.perf_counter() - t


def test_every_kind_verifies_through_the_command_line(tmp_path, capsys):
    for name in CERTS:
        f = tmp_path / f"{name}.json"
        f.write_text(TEXT[name])
        rc, text, _ = _cli(f, capsys)
        assert rc == 0 and text.startswith("verified "), text


def test_a_forged_file_is_rejected_on_one_line_with_status_1(tmp_path, capsys):
    f = tmp_path / "forged.json"
    f.write_text(json.dumps(_edit("conjecture9", lambda c: c["gap_lower"].__setitem__(0, "1/2"))))
    rc, text, _ = _cli(f, capsys)
    assert rc == 1 and text.startswith(f"REJECTED {f}: ") and text.count("\n") == 1


def _hostile(tmp_path):
    base = json.loads(TEXT["fairness"])
    yield "old format", json.dumps({**base, "format": "symbolic-noise.hybrid/1"}), "hybrid_reissue.py"
    yield "huge int", json.dumps({**base, "prec": "HUGE"}).replace('"HUGE"', "9" * 5000), "digits"
    yield "deep nesting", json.dumps({**base, "p0": "DEEP"}).replace('"DEEP"', "[" * 5000 + "]" * 5000), "nests"
    yield "huge heap", json.dumps({**base, "game": {"family": "nim", "param": "1000000"}, "k": 10**6, "position": 10**6}), ""
    yield "huge prec", json.dumps({**base, "prec": 10**9}), "integer"
    yield "long rational", json.dumps({**base, "eps": "1/" + "3" * 3000}), "cap"
    yield "many cuts", json.dumps({**base, "cuts": ["1/2"] * 40_000}), "cap"
    yield "chomp", json.dumps({**base, "game": {"family": "chomp", "param": "3x3"}}), "1-pile Nim only"
    yield "wrong type", json.dumps({**base, "cuts": {"a": 1}}), "list"
    yield "not an object", "[1, 2, 3]", "object"
    c9 = json.loads(TEXT["conjecture9"])
    big = {**c9, "game": {"family": "nim", "param": "500"}, "position": 500, "K": 500,
           "cuts": [f"{i}/4096" for i in range(1536, 2048)], "half_lower": ["0"] * 511, "gap_lower": ["0"] * 511}
    yield "costly proof", json.dumps(big), "CPU seconds"
    ce = json.loads(TEXT["counterexample"])
    p = f"{10**90 - 1}/{10**90}"
    costly_point = {**ce, "game": {"family": "nim", "param": "512"}, "position": 512, "k": 512, "p": p, "interval": [p, p],
                    "statement": f"optimal 3 on [{p}, {p}]"}
    yield "costly exact point", json.dumps(costly_point), "CPU seconds"


def test_hostile_files_end_in_one_line_errors_quickly(tmp_path, capsys):
    for what, text, message in _hostile(tmp_path):
        f = tmp_path / "hostile.json"
        f.write_text(text)
        rc, out, secs = _cli(f, capsys)
        assert rc == 2 and out.count("\n") == 1 and "Traceback" not in out, (what, out)
        assert message in out, (what, out)
        assert secs < 10, (what, secs)


def test_non_regular_files_are_refused(tmp_path, capsys):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path, "/dev/zero"):
        rc, out, secs = _cli(path, capsys)
        assert rc == 2 and "not a regular file" in out and out.count("\n") == 1 and secs < 5, out


def test_max_seconds_allows_a_longer_check(tmp_path, capsys):
    c = json.loads(TEXT["conjecture10"])
    with pytest.raises(CertificateFormatError, match="--max-seconds"):
        verify_hybrid(c, max_seconds=0.01)
    f = tmp_path / "c10.json"
    f.write_text(TEXT["conjecture10"])
    assert main(["verify", str(f), "--max-seconds", "60"]) == 0
    with pytest.raises(SystemExit) as info:
        main(["verify", str(f), "--max-seconds", "0"])
    assert info.value.code == 2
    assert "--max-seconds must be between 1 and 86400" in capsys.readouterr().err


def test_the_old_format_is_refused_with_the_reissue_command(tmp_path, capsys):
    old = copy.deepcopy(CERTS["counterexample"])
    old["format"] = "symbolic-noise.hybrid/1"
    with pytest.raises(CertificateFormatError, match="re-issue it with: python scripts/hybrid_reissue.py"):
        verify_hybrid(old)


def test_the_hybrid_reader_caps_bytes_and_refuses_special_files(tmp_path, monkeypatch, capsys):
    from symbolic_noise.analysis.hybrid import fileformat as hybridfile

    f = tmp_path / "c.json"
    f.write_text(TEXT["counterexample"])
    assert hybridfile.read_hybrid(str(f))["kind"] == "counterexample"
    monkeypatch.setitem(hybridfile.CAPS, "bytes", 100)
    for path, message in ((str(f), "cap of 100 bytes"), ("/dev/zero", "not a regular file")):
        with pytest.raises(CertificateFormatError, match=message) as info:
            hybridfile.read_hybrid(path)
        assert "\n" not in str(info.value)
    rc, out, _ = _cli(f, capsys)
    assert rc == 2 and "more than the cap of 100 bytes" in out and out.count("\n") == 1


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["fairness", "conjecture9", "conjecture10", "counterexample"]),
       shift=st.integers(-8, 8), end=st.integers(0, 1), drop=st.integers(0, 2))
def test_a_consistently_restated_certificate_is_rejected_or_true(name, shift, end, drop):
    """The forger moves what the statement speaks of (an end of the enclosure
    of p0, of the interval, the point of the counterexample) and rewrites the
    statement and interval to match: accepted only when the new statement is
    true (exact solve)."""
    c = json.loads(TEXT[name])
    step = fmpq(shift, 1024)
    if name == "fairness":
        p0 = [q_parse(x) for x in c["p0"]]
        p0[end] += step
        c["p0"] = [str(x) for x in p0]
        c["fails_at"] = c["p0"][0]
        c["cuts"] = c["cuts"][drop:] if end else c["cuts"]
        if end:
            c["cuts"][0] = c["p0"][1]
            c["bounds"] = c["bounds"][drop:]
    elif name == "counterexample":
        p = q_parse(c["p"]) + step
        c["p"] = str(p)
        c["value_better"], c["value_claimed"] = (str(v) for v in (
            point_solve(Nim(5), "binary", p).move_values[m] if 0 <= p <= 1 else fmpq(0) for m in (4, 3)))
    else:
        iv = [q_parse(x) for x in c["interval"]]
        iv[end] += step
        c["interval"] = [str(x) for x in iv]
        if end == 0:
            c["cuts"][0] = c["interval"][0]
    c["statement"], c["interval"], c["verdict"] = claim_of(c["kind"], c["position"], c)
    _rejected_or_true(name, c)
