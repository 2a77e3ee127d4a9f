"""Property-based fuzzing of every input the package reads from outside
(except certificates): channel files, strategy files, cache rows and cache
databases, and every command-line option.  Whatever the input, the command
line answers (exit 0 or 1 with output) or gives one line on standard error
with exit status 2: never a traceback, and within a few seconds.

The command line runs in-process (``main([...])``), with a wall-clock guard
per call as well as hypothesis' deadline.
"""

import contextlib
import json
import os
import signal
import sqlite3
import tempfile

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from symbolic_noise.errors import CacheError, SymbolicNoiseError
from symbolic_noise.io.cli import dask_address, main

#: seconds one command may take
CALL_LIMIT = 8


def fuzz(examples: int):
    """Hypothesis settings of one fuzz test: ``examples`` inputs (times
    ``SN_FUZZ_SCALE``, default 1, for a longer hunt), 10 s each at most."""
    return settings(max_examples=examples * int(os.environ.get("SN_FUZZ_SCALE", "1")), deadline=10_000,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


WORK = tempfile.mkdtemp(prefix="sn-fuzz-")
CACHE = os.path.join(WORK, "cache.sqlite")


@contextlib.contextmanager
def wall_clock(seconds: float):
    """Raise TimeoutError if the block runs longer than ``seconds``."""

    def expired(signum, frame):
        raise TimeoutError(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def cli(capsys, *argv):
    """Run the command line; assert the contract; return (status, stdout)."""
    capsys.readouterr()
    with wall_clock(CALL_LIMIT):
        try:
            rc = main([str(a) for a in argv])
        except SystemExit as exc:  # (argparse's own errors)
            rc = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert rc in (0, 1, 2), rc
    if rc == 2:
        assert err.startswith("symbolic-noise: error: "), err
        assert err.count("\n") == 1, err
    else:
        assert out or argv[-2:-1] == ("-o",) or "-o" in argv
    return rc, out


# ----------------------------------------------------------------- hostile text

HOSTILE_WORDS = [
    "", " ", "\n", "0", "-1", "1_0", "١٢", "１２", "٣", "1e999999", "9" * 5000, "0x10", "1/0", "nan", "inf",
    "-0", "+3", "3.", ".5", "1/2/3", "p", "__import__('os')", "[[", "]]", "()", "[]", "{}", "null", "2,3", "2+3",
    "3,2", "[3,2]", "(((3)))", "[" * 300, "1,1,1,1", "\x00", "a\nb", "%", "\\", "1..2", "..", "0..3", "@", "binary@",
    "@1/2", "binary@1/2@1/3", "binary@2", "tcp://", "tcp://:x", "::::", "0,1", "1,0", "0,1/2", "1/3,2/3",
]
words = st.one_of(st.sampled_from(HOSTILE_WORDS), st.text(max_size=30),
                  st.text(alphabet="0123456789٠١٢３_.,/+-e[]() x@", max_size=12))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
positions = st.one_of(json_values, st.integers(-3, 5), st.lists(st.integers(-2, 4), max_size=3), st.sampled_from(["3", "2+1", ""]))
moves = st.one_of(json_values, st.integers(-2, 4), st.lists(st.integers(-1, 3), max_size=3), st.sampled_from(["2->0", "3->1"]))
entries = st.one_of(json_values, st.sampled_from(["1", "p", "1 - p", "p/2", "(3+p)^999", "1e99999", "__import__('os')", "1/0"]))


def _write(name: str, data) -> str:
    path = os.path.join(WORK, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(data if isinstance(data, str) else json.dumps(data))
    return path


@st.composite
def channel_documents(draw):
    """A channel file: random JSON, or a channel document with hostile parts."""
    if draw(st.booleans()):
        return draw(json_values)
    rows = draw(st.lists(st.fixed_dictionaries({
        "position": positions, "sent": moves,
        "received": st.one_of(json_values, st.lists(st.tuples(moves, entries).map(list), max_size=3)),
    }), max_size=3))
    doc = {"rows": rows}
    if draw(st.booleans()):
        doc["default"] = draw(st.one_of(json_values, st.sampled_from(["uniform", "binary", "", "binary@1/2", "nope"])))
    return doc


@fuzz(30)
@given(raw=st.binary(max_size=200))
def test_channel_files_of_any_bytes(capsys, raw):
    path = os.path.join(WORK, "raw.json")
    with open(path, "wb") as fh:
        fh.write(raw)
    cli(capsys, "solve", "nim", "2", "--channel", path, "--no-cache")


@st.composite
def strategy_documents(draw):
    if draw(st.booleans()):
        return draw(json_values)
    pairs = draw(st.lists(st.one_of(
        st.tuples(positions, moves).map(list),
        st.tuples(positions, st.dictionaries(st.sampled_from(["0", "1", "2", "[1, 2]", "٢", "1_0"]), json_values, max_size=3)).map(list),
        json_values,
    ), max_size=3))
    doc = {"moves": pairs}
    if draw(st.booleans()):
        doc["default"] = draw(st.one_of(json_values, st.sampled_from(["classical", "uniform", "optimal"])))
    return doc


#: the documents and games each file option is fuzzed with
FILES = {
    "--channel": (channel_documents(), [("nim", "3"), ("kayles", "2,1"), ("chomp", "2x2")]),
    "--strategy": (strategy_documents(), [("nim", "2"), ("nim", "2,1"), ("chomp", "2x2")]),
}


@pytest.mark.parametrize("option", sorted(FILES))
@fuzz(60)
@given(data=st.data())
def test_channel_and_strategy_files(capsys, option, data):
    documents, games = FILES[option]
    path = _write("file.json", data.draw(documents, label="document"))
    cli(capsys, "solve", *data.draw(st.sampled_from(games), label="game"), option, path, "--no-cache")


# ----------------------------------------------------------------- cache rows


coefficients = st.one_of(st.integers(-10**6, 10**6), st.text(max_size=6), st.sampled_from(["1" * 5000, "١", "1_0", " 1"]),
                         json_values)


@st.composite
def encoded_functions(draw):
    if draw(st.booleans()):
        return draw(json_values)
    points = draw(st.one_of(json_values, st.lists(st.one_of(
        st.sampled_from(["0", "1", "1/2", "-1", "1/0", "a"]),
        st.fixed_dictionaries({"poly": st.lists(coefficients, max_size=4), "lo": st.sampled_from(["0", "1/2", "x"]),
                               "hi": st.sampled_from(["1", "1/2", 3])}),
        json_values), max_size=4)))
    formulas = draw(st.one_of(json_values, st.lists(st.lists(st.lists(coefficients, max_size=4), max_size=2), max_size=3)))
    labels = draw(st.one_of(st.none(), json_values, st.lists(st.lists(moves, max_size=2), max_size=3)))
    return {"points": points, "formulas": formulas, "labels": labels, "point_labels": draw(st.one_of(st.none(), json_values))}


@fuzz(100)
@given(data=encoded_functions(), trusted=st.booleans())
def test_codec_decode(data, trusted):
    from symbolic_noise.solvers.storage import codec

    with wall_clock(CALL_LIMIT):
        try:
            f = codec.decode(data, trusted=trusted)
        except CacheError as exc:
            assert "\n" not in str(exc)
            return
        try:
            codec.check(f, 0, 1)
        except CacheError:
            pass


@fuzz(25)
@given(data=encoded_functions(), columns=st.sampled_from([None, "(a, b)", "(context, position, data)", "(x TEXT)"]),
       checksum=st.booleans())
def test_cache_databases_with_hostile_rows_or_tables(capsys, data, columns, checksum):
    import hashlib

    from symbolic_noise.solvers.storage.cache import SolutionCache

    path = os.path.join(WORK, "hostile.sqlite")
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path + suffix)
    if columns is None:
        from symbolic_noise.games.rulesets import Nim

        store = SolutionCache(path, Nim(2), "binary")
        context = store.context
        store.close()
        text = json.dumps(data)
        with sqlite3.connect(path) as conn:
            conn.execute("INSERT INTO solutions (context, position, data, created, checksum) VALUES (?, ?, ?, 0, ?)",
                         (context, "2", text, hashlib.sha256(text.encode()).hexdigest() if checksum else None))
    else:
        with sqlite3.connect(path) as conn:
            conn.execute(f"CREATE TABLE solutions {columns}")
    rc, out = cli(capsys, "solve", "nim", "2", "--cache", path, "--quiet")
    assert rc in (0, 2)
    if rc == 0:
        assert "N(p)" in out


# ----------------------------------------------------------------- command-line options


def _solve(capsys, *options):
    return cli(capsys, "solve", "nim", "2", "--no-cache", *options)


@fuzz(60)
@given(text=words)
def test_option_at(capsys, text):
    from symbolic_noise.exact.formula import exact_number as as_fmpq
    from symbolic_noise.solvers.piecewise import solve
    from symbolic_noise.games.rulesets import Nim

    rc, out = _solve(capsys, f"--at={text}")
    if rc == 0:
        p = as_fmpq(text)
        assert str(solve(Nim(2), "binary").value()(p)) in out


@fuzz(40)
@given(text=words)
def test_option_interval(capsys, text):
    _solve(capsys, f"--interval={text}")


@fuzz(60)
@given(text=words, game=st.sampled_from([("nim", "3"), ("nim", "2,3"), ("kayles", "3"), ("grundy", "5"), ("chomp", "2x3"),
                                         ("subtraction:1,2", "3,1")]))
def test_option_position(capsys, text, game):
    cli(capsys, "solve", *game, f"--position={text}", "--no-cache")


@fuzz(30)
@given(text=words)
def test_option_digits(capsys, text):
    _solve(capsys, f"--digits={text}")


@fuzz(30)
@given(text=words)
def test_option_k(capsys, text):
    from symbolic_noise.io.cli import _k_range

    try:
        assume(max(_k_range(text)) <= 6)  # (a valid large range is a long solve, not a hostile input)
    except SymbolicNoiseError:
        pass
    cli(capsys, "check", "conjecture9", f"--k={text}", "--no-cache", "--quiet")


@fuzz(30)
@given(text=words)
def test_option_upto(capsys, text):
    from symbolic_noise.exact.formula import parse_whole

    with contextlib.suppress(SymbolicNoiseError):
        assume(parse_whole(text) <= 10**5)
    cli(capsys, "grundy", "kayles", f"--upto={text}")


@fuzz(30)
@given(text=words)
def test_option_step(capsys, text):
    from symbolic_noise.exact.formula import exact_number as as_fmpq

    with contextlib.suppress(SymbolicNoiseError):
        assume(as_fmpq(text) <= 0 or as_fmpq(text) >= as_fmpq("1/1000"))
    cli(capsys, "table", "nim", "2", f"--step={text}", "--no-cache")


@fuzz(40)
@given(text=words)
def test_option_channel(capsys, text):
    _solve(capsys, f"--channel={text}")


@fuzz(40)
@given(name=words, param=st.one_of(st.none(), words))
def test_game_names_and_params(capsys, name, param):
    from symbolic_noise.games.registry import game_from_spec

    with contextlib.suppress(SymbolicNoiseError):
        assume(len(game_from_spec(name, param).positions()) <= 40)
    cli(capsys, "solve", name, *([] if param is None else [param]), "--no-cache")


@fuzz(30)
@given(kind=st.sampled_from(["directory", "missing folder", "/dev/full", "odd name", "file"]), text=words)
def test_output_paths(capsys, kind, text):
    safe = "".join(c for c in text if c not in "/\x00") or "x"
    path = {"directory": WORK, "missing folder": os.path.join(WORK, "missing", safe), "/dev/full": "/dev/full",
            "odd name": os.path.join(WORK, safe[:50]), "file": os.path.join(WORK, "out.txt")}[kind]
    assume(not os.path.isdir(path) or kind == "directory")
    rc, _ = cli(capsys, "solve", "nim", "2", "--no-cache", "-o", path)
    assert rc == (0 if kind in ("odd name", "file") else 2)


@fuzz(30)
@given(text=words)
def test_option_dask(capsys, text):
    try:
        dask_address(text)
    except SymbolicNoiseError:
        pass
    else:
        assume(False)  # (a well-formed address is tried, for up to 5 s: tests/test_cli_inputs.py)
    rc, _ = _solve(capsys, f"--dask={text}")
    assert rc == 2
