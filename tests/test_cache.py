"""The SQLite cache: transactional per-position writes, resumption after a kill,
checked loads that report and recompute corrupt entries."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from flint import fmpq

from symbolic_noise import Chomp, Nim, solve
from symbolic_noise.solvers.storage.cache import CacheWarning, SolutionCache
from symbolic_noise.games.channels import CustomChannel


def rows(path):
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT position, data FROM solutions").fetchall()


def test_round_trip_and_reuse(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(8), "binary") as store:
        first = solve(Nim(8), "binary", store=store)
        assert store.saved == 8 and store.loaded == 0
    with SolutionCache(path, Nim(9), "binary") as store:
        second = solve(Nim(9), "binary", store=store)
        assert (store.loaded, store.saved) == (8, 1)  # k = 9 after k = 8 solves one position
    fresh = solve(Nim(9), "binary")
    for v in range(10):
        assert second.value(v) == fresh.value(v)
    assert first.value(8) == fresh.value(8)


def test_keys_separate_channels_intervals_and_conventions(tmp_path):
    path = str(tmp_path / "c.sqlite")
    for channel, interval, misere in [("binary", (0, 1), False), ("uniform", (0, 1), False), ("binary", (0, "1/2"), False), ("binary", (0, 1), True)]:
        with SolutionCache(path, Nim(4), channel, interval, misere=misere) as store:
            sol = solve(Nim(4), channel, interval, store=store, misere=misere)
            assert store.loaded == 0  # nothing leaks between contexts
            assert sol.value() == solve(Nim(4), channel, interval, misere=misere).value()
    with SolutionCache(path, Chomp(2, 2), "king") as store:
        solve(Chomp(2, 2), "king", store=store)
        assert store.saved == 4


def test_callable_channels_are_not_cached(tmp_path):
    ch = CustomChannel(lambda v, w, u: 1 if w == u else 0)
    with SolutionCache(str(tmp_path / "c.sqlite"), Nim(3), ch) as store:
        assert not store.enabled
        solve(Nim(3), ch, store=store)
        assert store.saved == 0


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: "{not json",
        lambda d: json.dumps({**json.loads(d), "points": json.loads(d)["points"][:-1]}),  # does not reach b
        lambda d: d.replace('"1"', '"2"', 1),  # a coefficient changed: the value jumps
        lambda d: json.dumps({**json.loads(d), "labels": [[99] for _ in json.loads(d)["labels"]]}),  # illegal move
    ],
    ids=["garbage", "short", "jump", "illegal-move"],
)
def test_corrupt_entries_are_reported_and_recomputed(tmp_path, damage):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(6), "binary") as store:
        solve(Nim(6), "binary", store=store)
    with sqlite3.connect(path) as conn:
        pos, data = conn.execute("SELECT position, data FROM solutions WHERE position = '5'").fetchone()
        conn.execute("UPDATE solutions SET data = ? WHERE position = ?", (damage(data), pos))
    messages = []
    with SolutionCache(path, Nim(6), "binary", on_warning=messages.append) as store:
        sol = solve(Nim(6), "binary", store=store)
        assert store.rejected >= 1
    assert any("position 5" in m and "unusable" in m for m in messages)
    fresh = solve(Nim(6), "binary")
    assert all(sol.value(v) == fresh.value(v) for v in range(7))
    # the recomputed entry was stored again and is sound now
    with SolutionCache(path, Nim(6), "binary", on_warning=messages.append) as store:
        solve(Nim(6), "binary", store=store)
        assert store.rejected == 0


def _tamper(path, position, damage, *, fix_checksum=False):
    import hashlib

    with sqlite3.connect(path) as conn:
        data = conn.execute("SELECT data FROM solutions WHERE position = ?", (position,)).fetchone()[0]
        bad = damage(data)
        checksum = hashlib.sha256(bad.encode()).hexdigest() if fix_checksum else None
        if fix_checksum:
            conn.execute("UPDATE solutions SET data = ?, checksum = ? WHERE position = ?", (bad, checksum, position))
        else:
            conn.execute("UPDATE solutions SET data = ? WHERE position = ?", (bad, position))


def _flip_byte(text):
    i = len(text) // 2
    return text[:i] + chr(ord(text[i]) ^ 1) + text[i + 1 :]


def test_flipped_byte_is_one_line_and_recomputed(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(7), "binary") as store:
        fresh = solve(Nim(7), "binary", store=store)
    _tamper(path, "6", _flip_byte)
    messages = []
    with SolutionCache(path, Nim(7), "binary", on_warning=messages.append) as store:
        sol = solve(Nim(7), "binary", store=store)
        assert (store.rejected, store.loaded, store.saved) == (1, 6, 1)
    assert len(messages) == 1 and "\n" not in messages[0]
    assert "position 6" in messages[0] and "checksum does not match" in messages[0]
    assert all(sol.value(v) == fresh.value(v) for v in range(8))


def test_consistent_tampering_is_caught_by_verify(tmp_path):
    """An entry altered together with its checksum passes the cheap load; the
    Bellman check (``verify=True``, ``--verify-cache``) catches it."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(6), "binary") as store:
        fresh = solve(Nim(6), "binary", store=store)
    _tamper(path, "5", lambda d: d.replace('"1"', '"2"', 1), fix_checksum=True)
    messages = []
    with SolutionCache(path, Nim(6), "binary", on_warning=messages.append, verify=True) as store:
        sol = solve(Nim(6), "binary", store=store)
        assert store.rejected == 1
    assert "position 5" in messages[0] and "\n" not in messages[0]
    assert "not the game's value" in messages[0] or "isolate" in messages[0]
    assert all(sol.value(v) == fresh.value(v) for v in range(7))


def _forge_value(value):
    """N_3 = 1/2 on [0, 1] with optimal move 0: a well-formed entry of the wrong value."""
    return json.dumps({"points": ["0", "1"], "formulas": [[["1"], ["2"]]], "labels": [[0]], "point_labels": [[0], [0]]})


def _forge_label(text):
    data = json.loads(text)
    data["labels"][0] = [1]  # N_3's optimal move on [0, 1/2] is 0, not 1
    return json.dumps(data, separators=(",", ":"))


@pytest.mark.parametrize("forge", [_forge_value, _forge_label], ids=["value", "optimal-move"])
def test_forged_entries_with_valid_checksums_are_found_by_verify(tmp_path, forge):
    # the reviewer's forgery: nim 3's entry replaced, its SHA-256 recomputed
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        solve(Nim(3), "binary", store=store)
    _tamper(path, "3", forge, fix_checksum=True)
    messages = []
    with SolutionCache(path, Nim(3), "binary", on_warning=messages.append, verify=True) as store:
        sol = solve(Nim(3), "binary", store=store)
        assert store.rejected == 1 and store.saved == 1
    assert len(messages) == 1 and "position 3" in messages[0] and "\n" not in messages[0]
    assert sol.at("1/4").value == fmpq(13, 20) and sol.at("1/4").optimal == frozenset({0})
    # the forged entry was replaced by the true value: a plain load serves it now
    with SolutionCache(path, Nim(3), "binary") as store:
        assert store.load(3) == solve(Nim(3), "binary").value()


def test_entries_without_checksum_are_recomputed(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(5), "binary") as store:
        solve(Nim(5), "binary", store=store)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE solutions SET checksum = NULL")
    messages = []
    with SolutionCache(path, Nim(5), "binary", on_warning=messages.append) as store:
        solve(Nim(5), "binary", store=store)
        assert (store.loaded, store.rejected) == (0, 5)
    assert all("no checksum" in m for m in messages)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM solutions WHERE checksum IS NULL").fetchone()[0] == 0


def test_keys_hold_the_whole_provenance(tmp_path):
    """An entry never answers another question: another channel file (by its
    content), another interval, misère play, all keyed apart."""
    from symbolic_noise.games.channels import custom_channel_from_json

    path = str(tmp_path / "c.sqlite")
    doc = {"default": "binary", "rows": [{"position": 2, "sent": 0, "received": [[0, "1 - p/2"], [1, "p/2"]]}]}
    other = {"default": "binary", "rows": [{"position": 2, "sent": 0, "received": [[0, "1 - p/3"], [1, "p/3"]]}]}
    contexts = set()
    for channel, misere, interval in [
        (custom_channel_from_json(doc), False, (0, 1)),
        (custom_channel_from_json(other), False, (0, 1)),
        ("binary", False, (0, 1)),
        ("binary", True, (0, 1)),
        ("binary", False, (0, fmpq(1, 2))),
    ]:
        with SolutionCache(path, Nim(3), channel, interval, misere=misere) as store:
            contexts.add(store.context)
            got = solve(Nim(3), channel, interval, misere=misere, store=store)
            assert got.value() == solve(Nim(3), channel, interval, misere=misere).value()
    assert len(contexts) == 5


def test_default_warning_is_a_python_warning(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        solve(Nim(3), "binary", store=store)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE solutions SET data = 'x'")
    with SolutionCache(path, Nim(3), "binary") as store, pytest.warns(CacheWarning):
        solve(Nim(3), "binary", store=store)


def cli(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "symbolic_noise.io.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_sigkill_mid_solve_then_resume(tmp_path):
    """Kill a solve with SIGKILL once some positions are stored; the next run
    completes from the cache and gives the same result as an uncached solve."""
    path = str(tmp_path / "kill.sqlite")
    args = ["solve", "nim", "28", "--format", "json", "--digits", "20", "--quiet", "--cache", path]
    proc = cli(*args)
    deadline = time.time() + 120
    stored = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if os.path.exists(path):
            try:
                stored = len(rows(path))
            except sqlite3.Error:
                continue
            if stored >= 12:
                break
    assert proc.poll() is None, "the solve finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 12 <= stored < 28
    done = cli(*args)
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    fresh = cli(*args[:-2], "--no-cache")
    expected, _ = fresh.communicate(timeout=300)
    assert json.loads(out) == json.loads(expected)
    assert len(rows(path)) == 28


def test_values_from_the_cache_share_one_object_per_breakpoint(tmp_path):
    """A breakpoint several positions share is one object after a load (the
    solver compares points by identity first; copies cost exact comparisons),
    and the values are the ones a fresh solve gives."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(16), "binary") as store:
        fresh = solve(Nim(16), "binary", store=store)
    with SolutionCache(path, Nim(16), "binary") as store:
        loaded = solve(Nim(16), "binary", store=store)
        assert store.loaded == 16
    points = [x for v in range(1, 17) for x in loaded.value(v).points if not x.is_rational]
    shared = 0
    for i, x in enumerate(points):
        for y in points[i + 1:]:
            if x is not y:
                assert x.compare(y) != 0, "two objects for one breakpoint"
            else:
                shared += 1
    assert shared > 0  # Nim's positions do share breakpoints
    for v in range(17):
        assert loaded.value(v).points == fresh.value(v).points
        assert [str(f) for f in loaded.value(v).formulas] == [str(f) for f in fresh.value(v).formulas]
    ours, theirs = loaded.move_values(), fresh.move_values()
    assert list(ours) == list(theirs)
    for move in ours:
        assert ours[move].points == theirs[move].points
        assert [str(f) for f in ours[move].formulas] == [str(f) for f in theirs[move].formulas]


def test_wire_encoding_is_the_json_encoding_with_ints():
    """codec.encode(wire=True) (values between lockstep workers) holds the same
    integers as the JSON encoding, and decodes to the same function."""
    from symbolic_noise import Nim, solve
    from symbolic_noise.solvers.storage import codec

    for f in solve(Nim(9), "binary").values().values():
        text, wire = codec.encode(f), codec.encode(f, wire=True)
        assert [[list(map(int, a)), list(map(int, b))] for a, b in text["formulas"]] == wire["formulas"]
        assert codec.decode(wire, trusted=True) == f == codec.decode(text)


def test_a_wire_stream_names_each_breakpoint_once():
    """With a memo, a stream of values sends each irrational breakpoint once
    and later names it by its number; decoded in order with one table, every
    value equals the original, and equal points come back as one object."""
    from symbolic_noise import Nim, solve
    from symbolic_noise.solvers.storage import codec

    values = list(solve(Nim(12), "binary").values().values())
    memo, table = {}, []
    stream = [codec.encode(f, wire=True, memo=memo) for f in values]
    sent = [x for data in stream for x in data["points"] if isinstance(x, dict)]
    named = [x for data in stream for x in data["points"] if type(x) is int]
    distinct = {id(x) for f in values for x in f.points if not x.is_rational}
    assert len(sent) == len(distinct) and named  # each once, the rest by number
    back = [codec.decode(data, trusted=True, table=table) for data in stream]
    assert back == values
    seen = {}
    for f, g in zip(values, back):
        for x, y in zip(f.points, g.points):
            if not x.is_rational:
                assert seen.setdefault(id(x), y) is y


def test_wire_points_carry_their_lower_sign():
    """On the wire an irrational breakpoint carries the sign of its polynomial
    at its interval's lower end; a trusted decode takes it (the refinements
    that use it then find the same root), an untrusted one computes it."""
    from flint import fmpq

    from symbolic_noise import Nim, solve
    from symbolic_noise.exact import polys as polys_module
    from symbolic_noise.solvers.storage import codec

    values = list(solve(Nim(12), "binary").values().values())
    stream = [codec.encode(f, wire=True) for f in values]
    sent = [x for data in stream for x in data["points"] if isinstance(x, dict)]
    assert sent and all(x["s"] in (-1, 1) for x in sent)
    for x in sent:
        assert x["s"] == polys_module.sign_at(codec._trusted_poly(x["poly"]), fmpq(*x["lo"]))
    assert [codec.decode(data, trusted=True) for data in stream] == values
    for f, data in zip(values, stream):
        g = codec.decode(data, trusted=True)
        for x, y in zip(f.points, g.points):
            y.refine_to(fmpq(1, 2**80))  # refined by the carried sign: still the same number
            assert x.compare(y) == 0
    # a wrong sign from outside is never used: untrusted data computes its own
    data = codec.encode(values[-1], wire=True)
    for x in data["points"]:
        if isinstance(x, dict):
            x["s"] = -x["s"]
    assert codec.decode(data) == values[-1]


def test_a_breakpoint_number_outside_the_stream_is_refused():
    from symbolic_noise import Nim, solve
    from symbolic_noise.errors import CacheError
    from symbolic_noise.solvers.storage import codec

    f = solve(Nim(5), "binary").value()
    data = codec.encode(f, wire=True, memo={})
    data["points"][2] = 3  # no such breakpoint sent before
    with pytest.raises(CacheError, match="not in the stream"):
        codec.decode(data, trusted=True, table=[])
    with pytest.raises(CacheError):  # and without a table a number is no point at all
        codec.decode(data, trusted=True)
    with pytest.raises(ValueError, match="wire form only"):
        codec.encode(f, memo={})


def test_a_float_coefficient_is_refused_not_truncated():
    from symbolic_noise.errors import CacheError
    from symbolic_noise.solvers.storage import codec

    data = {"points": ["0", "1"], "formulas": [[["1", 2.5], ["1"]]], "labels": [[0]], "point_labels": [[0], [0]]}
    with pytest.raises(CacheError, match="not float"):
        codec.decode(data)


def test_a_breakpoint_with_long_interval_ends_reads_back():
    """Exact comparisons of close breakpoints refine their isolating intervals
    far (Chomp 6 x 6 king wrote end points of 1,136 digits, which the capped
    formula grammar refused: every such entry was recomputed); the codec
    reads back what it writes, and refuses what no solve writes."""
    from flint import fmpq, fmpz_poly

    from symbolic_noise.exact.algebraic import RealAlgebraic
    from symbolic_noise.solvers.storage import codec

    x = RealAlgebraic.root(fmpz_poly([-2, 0, 1]), 1, 2)
    x.refine_to(fmpq(1, 2**4000))
    lo, hi = x.interval
    assert len(str(lo.q)) > 1000
    back = codec.decode_point(codec.encode_point(x))
    assert back.interval == (lo, hi) and back.compare(x) == 0
    for bad in ("1/0", "0x10", "1.5", "1/-3", "7" * (codec.MAX_DIGITS + 2)):
        with pytest.raises(ValueError):
            codec._rational(bad)


def test_cli_verify_cache_finds_the_forged_entry(tmp_path, capsys):
    """The reviewer's case: a forged nim 3 entry with a recomputed SHA-256 makes
    ``check ... --verify-cache`` recompute it, so the false statement fails."""
    from symbolic_noise.io.cli import main

    path = str(tmp_path / "c.sqlite")
    assert main(["solve", "nim", "3", "--cache", path, "--quiet"]) == 0
    _tamper(path, "3", _forge_value, fix_checksum=True)
    capsys.readouterr()
    assert main(["check", "nim", "3", "N == 1/2 on [0, 1]", "--cache", path, "--verify-cache", "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "FAILS" in captured.out
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "position 3" in warnings[0]


def test_verified_misere_entries_reload_as_the_misere_values(tmp_path):
    """Misère play with verify=True: a terminal follower's value is 1 (the
    player who cannot move wins), so the Bellman check of the stored entries
    passes and every entry is served; the values are backward induction in
    Fractions at rational points."""
    from fractions import Fraction

    sys.path.insert(0, os.path.dirname(__file__))
    import fraction_reference

    path = str(tmp_path / "c.sqlite")
    messages = []
    with SolutionCache(path, Nim(4), "binary", misere=True, verify=True, on_warning=messages.append) as store:
        solve(Nim(4), "binary", misere=True, store=store)
        assert store.saved == 4
    with SolutionCache(path, Nim(4), "binary", misere=True, verify=True, on_warning=messages.append) as store:
        sol = solve(Nim(4), "binary", misere=True, store=store)
        assert (store.loaded, store.rejected, store.saved) == (4, 0, 0) and not messages
    for p in (Fraction(0), Fraction(1, 3), Fraction(5, 7), Fraction(1)):
        ref = fraction_reference.nim(4, "binary", p, misere=True)
        for v in range(1, 5):
            got = sol.value(v)(fmpq(p.numerator, p.denominator))
            assert Fraction(int(got.p), int(got.q)) == ref[v][0]


def test_degrees_are_the_largest_degrees_of_the_stored_formulas(tmp_path):
    """degrees() reads, per stored position, the largest degree of its
    formulas' numerators and denominators (counted here from the values
    themselves); a stored degree that is not that is caught on load."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(5), "binary") as store:
        sol = solve(Nim(5), "binary", store=store)
        got = store.degrees()
        assert set(store.positions()) == set(got) == {str(v) for v in range(1, 6)}
    for v in range(1, 6):
        want = max(max(f.num.degree(), f.den.degree()) for f in sol.value(v).formulas)
        assert got[str(v)] == want
    assert got["1"] == 0 and got["5"] >= 2  # N_1 = 1; N_5 is no polynomial of degree 1
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE solutions SET degree = degree + 1 WHERE position = '3'")
    messages = []
    with SolutionCache(path, Nim(5), "binary", on_warning=messages.append) as store:
        solve(Nim(5), "binary", store=store)
        assert (store.loaded, store.rejected) == (4, 1) and "recorded degree" in messages[0]


# --------------------------------------------------------------------------- the mutation run's survivors


def _reference():
    sys.path.insert(0, os.path.dirname(__file__))
    import fraction_reference

    return fraction_reference


def _agrees_with_backward_induction(sol, positions, reference_at, points=("0", "1/3", "5/7", "1")):
    """Every value of ``sol`` at rational points is backward induction in Fractions."""
    from fractions import Fraction

    for text in points:
        p = Fraction(text)
        if not sol.interval[0] <= fmpq(p.numerator, p.denominator) <= sol.interval[1]:
            continue
        ref = reference_at(p)
        for v in positions:
            got = sol.value(v)(fmpq(p.numerator, p.denominator))
            assert Fraction(int(got.p), int(got.q)) == ref[v][0], (v, text)


def _write_by_hand(path, context, entries):
    """A cache file written to FORMAT_VERSION 2 without the cache: the table,
    the context, the compact-JSON position keys and the SHA-256 checksums."""
    import hashlib

    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS solutions (context TEXT NOT NULL, position TEXT NOT NULL, data TEXT NOT NULL,"
            " created REAL NOT NULL, checksum TEXT, degree INTEGER, PRIMARY KEY (context, position))"
        )
        for key, text in entries.items():
            conn.execute(
                "INSERT INTO solutions VALUES (?, ?, ?, 0, ?, NULL)",
                (context, key, text, hashlib.sha256(text.encode("utf-8")).hexdigest()),
            )


def test_a_file_written_to_the_documented_format_is_read(tmp_path):
    """FORMAT_VERSION 2 on disk, as earlier releases wrote it: the context is
    the JSON list [2, ruleset, channel, a, b, misère, "optimal/optimal"] (a
    channel file named "custom:" + the SHA-256 of its document), a position is
    its compact JSON.  Entries written by hand to that format are served, for
    every part of the key, and the values are backward induction."""
    from symbolic_noise.games.channels import custom_channel_from_json
    from symbolic_noise.games.provenance import document_hash
    from symbolic_noise.solvers.storage import codec

    ref = _reference()
    doc = {"default": "binary", "rows": [{"position": 2, "sent": 0, "received": [[0, "1 - p/2"], [1, "p/2"]]}]}
    cases = [
        (Nim(3), "binary", ("1/4", "1"), False, "binary", lambda p: ref.nim(3, "binary", p)),
        (Nim(3), "binary", ("0", "1"), True, "binary", lambda p: ref.nim(3, "binary", p, misere=True)),
        (Nim(3), custom_channel_from_json(doc), ("0", "1"), False, "custom:" + document_hash(doc), None),
        (Chomp(2, 2), "king", ("0", "1"), False, "king", lambda p: ref.chomp((2, 2), "king", p)),
    ]
    for i, (game, channel, (a, b), misere, name, reference_at) in enumerate(cases):
        path = str(tmp_path / f"hand{i}.sqlite")
        fresh = solve(game, channel, (a, b), misere=misere)
        positions = [v for v in fresh.values() if game.followers(v)]
        context = json.dumps([2, game.key(), name, a, b, misere, "optimal/optimal"])
        keys = {json.dumps(list(v) if isinstance(v, tuple) else v, separators=(",", ":")): v for v in positions}
        _write_by_hand(path, context, {k: codec.text(fresh.value(v)) for k, v in keys.items()})
        messages = []
        with SolutionCache(path, game, channel, (a, b), misere=misere, on_warning=messages.append) as store:
            assert store.context == context
            sol = solve(game, channel, (a, b), misere=misere, store=store)
            assert (store.loaded, store.saved, store.rejected) == (len(positions), 0, 0) and not messages
            assert set(store.positions()) == set(keys) == set(store.degrees())
        if reference_at is not None:
            _agrees_with_backward_induction(sol, positions, reference_at)


def test_the_lower_end_of_the_interval_is_part_of_the_key(tmp_path):
    """Values on [0, 1] never answer for [1/4, 1] (nor the reverse): the
    value on [1/4, 1] starts at 1/4 and is backward induction there."""
    ref = _reference()
    path = str(tmp_path / "c.sqlite")
    for interval in [(0, 1), ("1/4", 1), (0, 1)]:
        with SolutionCache(path, Nim(4), "binary", interval) as store:
            sol = solve(Nim(4), "binary", interval, store=store)
            assert store.rejected == 0
            assert store.loaded == (4 if interval == (0, 1) and store.saved == 0 else 0)
        assert sol.value(4).points[0] == exact_lower(interval)
        _agrees_with_backward_induction(sol, range(1, 5), lambda p: ref.nim(4, "binary", p))


def exact_lower(interval):
    from symbolic_noise.exact.formula import exact_number

    return exact_number(interval[0])


def test_a_file_whose_table_is_not_ours_is_refused(tmp_path):
    from symbolic_noise.errors import CacheError

    for i, columns in enumerate([
        "context TEXT, position TEXT, data TEXT, created REAL, checksum TEXT, degree INTEGER, owner TEXT",  # one more
        "context TEXT, position TEXT",  # two missing
    ]):
        path = str(tmp_path / f"other{i}.sqlite")
        with sqlite3.connect(path) as conn:
            conn.execute(f"CREATE TABLE solutions ({columns})")
        with pytest.raises(CacheError, match="not a symbolic-noise cache"):
            SolutionCache(path, Nim(3), "binary")
    # a cache written before checksums and degrees gains the two columns, and works
    path = str(tmp_path / "old.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE solutions (context TEXT NOT NULL, position TEXT NOT NULL, data TEXT NOT NULL,"
                     " created REAL NOT NULL, PRIMARY KEY (context, position))")
    with SolutionCache(path, Nim(3), "binary") as store:
        solve(Nim(3), "binary", store=store)
    with SolutionCache(path, Nim(3), "binary") as store:
        assert store.load(3) == solve(Nim(3), "binary").value() and store.loaded == 1


def test_the_default_warning_names_the_entry_and_the_file(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        solve(Nim(3), "binary", store=store)
    _tamper(path, "3", _flip_byte)
    with SolutionCache(path, Nim(3), "binary") as store, pytest.warns(CacheWarning) as record:
        assert store.load(3) is None
    assert len(record) == 1
    message = str(record[0].message)
    assert "position 3" in message and path in message and "checksum does not match" in message


def test_a_plain_load_is_the_default_and_needs_no_followers(tmp_path):
    """Without verify (the default) an entry is served on its checksum alone:
    N_3 with no entry for 1 and 2 is served, and is 13/20 at p = 1/4 (binary
    channel: N_3(p) = (1 - p + p^2)/(1 + p) on [0, 1/2])."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        solve(Nim(3), "binary", store=store)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM solutions WHERE position != '3'")
    with SolutionCache(path, Nim(3), "binary") as store:
        assert store.verify is False
        value = store.load(3)
        assert value is not None and (store.loaded, store.rejected) == (1, 0)
    for p in (fmpq(0), fmpq(1, 4), fmpq(1, 3), fmpq(1, 2)):
        assert value(p) == (1 - p + p * p) / (1 + p)
    with SolutionCache(path, Nim(3), "binary", verify=True, on_warning=lambda m: None) as store:
        assert store.load(3) is None and store.rejected == 1  # its followers have no entry to prove it against


def test_a_verified_load_proves_the_followers_from_their_entries(tmp_path):
    """load(5) with verify=True, nothing proved yet in this process: the
    followers' entries are loaded and proved first (loaded counts all five),
    and the values are backward induction."""
    ref = _reference()
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(5), "binary") as store:
        solve(Nim(5), "binary", store=store)
    messages = []
    with SolutionCache(path, Nim(5), "binary", verify=True, on_warning=messages.append) as store:
        value = store.load(5)
        assert value is not None and not messages and (store.loaded, store.rejected) == (5, 0)
        values = {v: store.load(v) for v in range(1, 6)}
    from fractions import Fraction

    for p in (Fraction(1, 5), Fraction(2, 3)):
        want = ref.nim(5, "binary", p)
        for v in range(1, 6):
            got = values[v](fmpq(p.numerator, p.denominator))
            assert Fraction(int(got.p), int(got.q)) == want[v][0]


def test_values_saved_in_this_run_are_the_proof_of_their_parents(tmp_path):
    """verify=True: a value saved (computed) in this run is what its parents'
    entries are proved against, without reading its entry back."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(4), "binary", verify=True) as store:
        sol = solve(Nim(4), "binary", store=store)
        assert store.saved == 4 and store.loaded == 0
        assert store.load(4) == sol.value(4)
        assert (store.loaded, store.rejected) == (1, 0)  # 1, 2, 3 came from this run


def test_verified_terminal_entries_follow_the_play_convention(tmp_path):
    """A terminal position's value is 0 in normal play and 1 in misère play
    (the player who cannot move wins): a verified load serves the right
    constant and rejects the other one."""
    from symbolic_noise.exact.piecewise import PiecewiseFunction

    for misere in (False, True):
        for c in (0, 1):
            path = str(tmp_path / f"t{int(misere)}{c}.sqlite")
            messages = []
            with SolutionCache(path, Nim(2), "binary", misere=misere, verify=True, on_warning=messages.append) as store:
                store.save(0, PiecewiseFunction.constant(c, 0, 1, frozenset(), frozenset()))
            with SolutionCache(path, Nim(2), "binary", misere=misere, verify=True, on_warning=messages.append) as store:
                got = store.load(0)
            if c == int(misere):
                assert got is not None and got(fmpq(1, 3)) == c and not messages
            else:
                assert got is None and "terminal" in messages[0]


def test_degrees_that_no_solve_writes_read_as_unknown(tmp_path):
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        sol = solve(Nim(3), "binary", store=store)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE solutions SET degree = -1 WHERE position = '1'")
        conn.execute("UPDATE solutions SET degree = 'two' WHERE position = '2'")
        conn.execute("UPDATE solutions SET degree = NULL WHERE position = '3'")
    with SolutionCache(path, Nim(3), "binary") as store:
        assert store.degrees() == {"1": None, "2": None, "3": None}
        assert store.load(3) == sol.value(3)  # an unknown degree is no reason to refuse


def test_an_illegal_optimal_move_is_refused_even_with_a_valid_checksum(tmp_path):
    """Without verify, an entry whose optimal moves are not moves of the
    position is refused (moves of Nim 3 are 0, 1, 2), checksum or not."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        solve(Nim(3), "binary", store=store)

    def illegal(text):
        data = json.loads(text)
        data["labels"][0] = [0, 3]
        return json.dumps(data, separators=(",", ":"))

    _tamper(path, "3", illegal, fix_checksum=True)
    messages = []
    with SolutionCache(path, Nim(3), "binary", on_warning=messages.append) as store:
        assert store.load(3) is None and "not legal moves" in messages[0]


def test_a_forged_breakpoint_is_refused_by_verify(tmp_path):
    """verify=True decodes untrusted: a breakpoint whose interval does not
    isolate a root of its polynomial (checksum recomputed) is refused, and
    the recomputed value is the true one."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(5), "binary") as store:
        fresh = solve(Nim(5), "binary", store=store)

    def forge(text):
        data = json.loads(text)
        for x in data["points"]:
            if isinstance(x, dict):
                x["lo"], x["hi"] = "0", "1"  # [0, 1]: not the interval the solve isolated the root in
        return json.dumps(data, separators=(",", ":"))

    with sqlite3.connect(path) as conn:
        text = conn.execute("SELECT data FROM solutions WHERE position = '5'").fetchone()[0]
    assert any(isinstance(x, dict) for x in json.loads(text)["points"])
    _tamper(path, "5", forge, fix_checksum=True)
    messages = []
    with SolutionCache(path, Nim(5), "binary", verify=True, on_warning=messages.append) as store:
        sol = solve(Nim(5), "binary", store=store)
        assert store.rejected == 1 and "position 5" in messages[0]
    assert "does not isolate one root" in messages[0]  # refused by the untrusted decoder, before any proof
    assert sol.value(5) == fresh.value(5)


def test_channels_named_by_their_key_alone_are_cached(tmp_path):
    """A channel given as Python tables (no file, not built in) is keyed by
    its own key: cached and served, equal to the uncached solve; one given as
    a Python function has no key and is not cached."""
    ref = _reference()
    table = CustomChannel({2: {0: {0: "1-p", 1: "p"}, 1: {1: 1}}}, default="identity")
    path = str(tmp_path / "c.sqlite")
    for loaded in (0, 3):
        with SolutionCache(path, Nim(3), table) as store:
            assert store.enabled and json.loads(store.context)[2] == table.key()
            sol = solve(Nim(3), table, store=store)
            assert store.loaded == loaded
    assert sol.value(3) == solve(Nim(3), table).value(3)
    # the same psi written out: at heap 2 move 0 arrives as 0 w.p. 1-p, as 1 w.p. p; move 1 arrives exactly
    from fractions import Fraction

    for p in (Fraction(1, 3), Fraction(3, 4)):
        def psi(v, fs, p=p):
            if v == 2:
                return [[1 - p, p], [Fraction(0), Fraction(1)]]
            return ref.identity_psi(len(fs))
        want = ref.backward_induction(3, ref.nim_followers, psi)
        assert sol.value(3)(fmpq(p.numerator, p.denominator)) == fmpq(want[3][0].numerator, want[3][0].denominator)


def test_an_error_inside_a_write_is_rolled_back_and_raised(tmp_path):
    """An exception while storing leaves no open transaction and reaches the
    caller; an exception inside ``with SolutionCache(...)`` is not swallowed."""
    path = str(tmp_path / "c.sqlite")
    with SolutionCache(path, Nim(3), "binary") as store:
        with pytest.raises(TypeError):
            store.save_text({1, 2}, "x")  # a set is no JSON position
        solve(Nim(3), "binary", store=store)  # the next transactions start and commit
        assert store.saved == 3
    with pytest.raises(ZeroDivisionError):
        with SolutionCache(path, Nim(3), "binary"):
            1 / 0
    assert len(rows(path)) == 3


def test_default_cache_path(monkeypatch, tmp_path):
    from symbolic_noise.solvers.storage.cache import default_cache_path

    monkeypatch.setenv("SYMBOLIC_NOISE_CACHE", str(tmp_path / "mine.sqlite"))
    assert default_cache_path() == str(tmp_path / "mine.sqlite")
    monkeypatch.setenv("SYMBOLIC_NOISE_CACHE", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):  # the docstring's ~/.cache/symbolic_noise/solutions.sqlite
        assert default_cache_path() == str(tmp_path / "xdg" / "symbolic_noise" / "solutions.sqlite")
    monkeypatch.delenv("SYMBOLIC_NOISE_CACHE")
    assert os.path.basename(default_cache_path()) == "solutions.sqlite"
    assert os.path.basename(os.path.dirname(default_cache_path())) == "symbolic_noise"
