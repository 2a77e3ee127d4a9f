"""Hostile and malformed command-line inputs: each gives one line on standard
error and exit status 2 (or a correct answer), fast; one test per case found
by review."""

import json
import os
import sqlite3
import time

import pytest

from symbolic_noise.errors import CacheError, GameParameterError, InvalidChannelError
from symbolic_noise.io.cli import main


def run(capsys, *argv, limit=20.0):
    """``main(argv)``: exit status, standard output, standard error; checks
    the error contract (one line, exit 2) and the time."""
    start = time.monotonic()
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as exc:  # (argparse's own errors)
        rc = exc.code
    elapsed = time.monotonic() - start
    out, err = capsys.readouterr()
    assert elapsed < limit, f"{argv} took {elapsed:.1f} s"
    assert "Traceback" not in err
    if rc == 2:
        assert err.startswith("symbolic-noise: error: ") and err.count("\n") == 1, err
    return rc, out, err


def refused(capsys, *argv, match="", limit=20.0):
    rc, out, err = run(capsys, *argv, limit=limit)
    assert rc == 2, (rc, out[:200], err)
    assert match in err, err
    return err


def channel_file(tmp_path, data, name="ch.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


# ----------------------------------------------------------------- caps that were skipped


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_channel_file_linked_to_a_device(capsys, tmp_path, device):
    link = tmp_path / "ch.json"
    link.symlink_to(device)
    refused(capsys, "solve", "nim", "3", "--channel", link, "--no-cache", match="not a regular file", limit=5)


def test_strategy_file_linked_to_dev_zero(capsys, tmp_path):
    link = tmp_path / "s.json"
    link.symlink_to("/dev/zero")
    refused(capsys, "solve", "nim", "3", "--strategy", link, "--no-cache", match="not a regular file", limit=5)


def test_channel_file_that_is_a_fifo(capsys, tmp_path):
    fifo = tmp_path / "ch.json"
    os.mkfifo(fifo)
    refused(capsys, "solve", "nim", "3", "--channel", fifo, "--no-cache", match="a FIFO", limit=5)


def test_position_unreachable_from_the_start_is_refused_at_once(capsys):
    refused(capsys, "solve", "kayles", "3", "--position", "2000,2000", "--no-cache", match="cannot be reached", limit=5)
    refused(capsys, "solve", "nim", "2,3", "--position", "4", "--no-cache", match="cannot be reached", limit=5)
    refused(capsys, "solve", "nim", "3", "--position", "99999999999999999999", "--no-cache", limit=5)


def test_a_sum_of_bounded_powers_is_refused_fast(capsys, tmp_path):
    entry = "+".join(["(3+p)^999"] * 19_000)  # 190,000 characters, each power within the caps
    path = channel_file(tmp_path, {"rows": [{"position": 2, "sent": 0, "received": [[0, entry], [1, "p"]]}]})
    err = refused(capsys, "solve", "nim", "2", "--channel", path, "--no-cache", limit=20)
    assert "work" in err
    few = "+".join(["(3+p)^999"] * 600)  # 600 terms, 0.3 s: within every cap (a file shares one budget)
    rows = [{"position": v, "sent": s, "received": [[0, few], [1, "p"]]} for v in (2, 3) for s in range(v)]
    path = channel_file(tmp_path, {"rows": rows})
    refused(capsys, "solve", "nim", "3", "--channel", path, "--no-cache", match="whole input", limit=20)


def test_grundy_upto_is_capped(capsys):
    refused(capsys, "grundy", "kayles", "--upto", "100000000000", match="between 0 and 10000000", limit=5)


# ----------------------------------------------------------------- tracebacks that were


@pytest.mark.parametrize("data, match", [
    ('{"rows": [], "x": ' + "1" * 5000 + "}", "5000 digits"),
    ({"rows": None}, '"rows" list'),
    ({"rows": {}}, '"rows" list'),
    ({"rows": [{"position": {"a": 1}, "sent": 0, "received": [[0, "1"]]}]}, "not an object"),
    ({"rows": [{"position": 2, "sent": {}, "received": [[0, "1"]]}]}, "not an object"),
    ({"rows": [{"position": 2, "sent": 0, "received": {"0": "1"}}]}, "[move, expression] pairs"),
    ({"rows": [], "default": 5}, '"default" names a built-in channel'),
    ({"rows": [], "default": ""}, '"default" names a built-in channel'),
    ({"rows": [], "default": ["uniform"]}, '"default" names a built-in channel'),
    ('{"rows": [{"position": ' + "[" * 300 + "]" * 300 + ', "sent": 0, "received": []}]}', "deeper than 64 levels"),
])
def test_wrong_json_in_a_channel_file(capsys, tmp_path, data, match):
    refused(capsys, "solve", "nim", "3", "--channel", channel_file(tmp_path, data), "--no-cache", match=match)


def test_digits_above_python_int_str_limit(capsys):
    rc, out, err = run(capsys, "table", "nim", "2", "--step", "1/2", "--digits", "5000", "--no-cache")
    rows = [line for line in out.splitlines() if not line.startswith("# ")]
    assert rc == 0 and len(rows[1]) > 5000


@pytest.mark.parametrize("target", ["directory", "missing folder", "/dev/full"])
@pytest.mark.parametrize("option", ["-o", "--out"])
def test_unwritable_output(capsys, tmp_path, target, option):
    path = {"directory": tmp_path, "missing folder": tmp_path / "no" / "x.txt", "/dev/full": "/dev/full"}[target]
    argv = (["check", "nim", "2", "N >= 0 on [0, 1]", "--no-cache", option, path] if option == "--out"
            else ["solve", "nim", "2", "--no-cache", option, path])
    refused(capsys, *argv, match="cannot write")


def test_unwritable_plot_and_table_output(capsys, tmp_path):
    refused(capsys, "plot", "nim", "2", "--no-cache", "-o", tmp_path / "no" / "x.png", match="cannot write")
    refused(capsys, "table", "nim", "2", "--no-cache", "-o", "/dev/full", match="cannot write")
    refused(capsys, "phase", "nim", "1", "--no-cache", "--plot", "/dev/full", match="cannot write")
    refused(capsys, "phase", "nim", "1", "--no-cache", "--plot", tmp_path / "x.unknown", match="cannot write")


def test_codec_decode_of_hostile_rows():
    from symbolic_noise.solvers.storage import codec

    nested = 0
    for _ in range(100_000):
        nested = [nested]
    good = {"points": ["0", "1"], "formulas": [[["1"], ["1"]]], "labels": [[0]], "point_labels": [[0], [0]]}
    for bad in (
        {**good, "labels": [[nested]]},
        {**good, "formulas": [[["0"] * 200_000 + ["1"], ["1"]]]},
        {**good, "formulas": [[["1" * 5000], ["1"]]]},
        {**good, "formulas": [[["\u0663"], ["1"]]]},
        {**good, "points": "01"},
        [1, 2],
    ):
        for trusted in (False, True):
            with pytest.raises(CacheError):
                codec.decode(bad, trusted=trusted)


def test_malformed_dask_address(capsys):
    refused(capsys, "solve", "nim", "3", "--dask", "tcp://:x", "--no-cache", match="not a scheduler address", limit=5)


def test_unreachable_dask_address_answers_within_seconds(capsys):
    pytest.importorskip("distributed")
    refused(capsys, "solve", "nim", "3", "--dask", "tcp://127.0.0.1:1", "--no-cache", match="within 5 s", limit=25)


def test_cache_in_a_missing_folder_or_of_other_columns(capsys, tmp_path):
    refused(capsys, "solve", "nim", "2", "--cache", tmp_path / "missing" / "c.db", match="does not exist")
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE solutions (a, b)")
    refused(capsys, "solve", "nim", "2", "--cache", db, match="not a symbolic-noise cache")
    refused(capsys, "solve", "nim", "2", "--cache", tmp_path, match="cache")


# ----------------------------------------------------------------- silent surprises that were


def test_a_channel_spec_with_two_at_signs(capsys):
    refused(capsys, "solve", "nim", "3", "--channel", "binary@1/2@1/3", "--no-cache", match="one @")


@pytest.mark.parametrize("option", ["--channel", "--opponent-channel"])
def test_an_empty_channel_name(capsys, option):
    refused(capsys, "solve", "nim", "3", option, "", "--no-cache", match="empty word")
    refused(capsys, "solve", "nim", "3", "--channel", "binary", option + "=", "--no-cache", match="empty word")
    refused(capsys, "solve", "nim", "3", option, "  ", "--no-cache", match="empty word")


def test_channel_rows_for_positions_the_game_does_not_have(capsys, tmp_path):
    rows = [{"position": 9, "sent": 0, "received": [[0, "1"]]}]
    path = channel_file(tmp_path, {"rows": rows, "default": "binary"})
    refused(capsys, "solve", "nim", "3", "--channel", path, "--no-cache", match="not a position of 1-pile Nim")
    rows = [{"position": [5, 5], "sent": 0, "received": []}]
    path = channel_file(tmp_path, {"rows": rows, "default": "uniform"})
    refused(capsys, "solve", "kayles", "2,3", "--channel", path, "--no-cache", match="cannot be reached")


def test_channel_rows_are_matched_in_canonical_form():
    from symbolic_noise.games.channels import custom_channel_from_json
    from symbolic_noise.games.heapgames import OctalGame

    game = OctalGame("0.77", (1, 2))
    ch = custom_channel_from_json({"rows": [{"position": [2, 1], "sent": "2->0", "received": [["2->0", "1"]]}],
                                   "default": "uniform"})
    ch.check_positions(game)
    i = [game.move_label((1, 2), w) for w in game.followers((1, 2))].index("2->0")
    assert ch.matrix(game, (1, 2))[i][i].text() == "1"


@pytest.mark.parametrize("option", ["--interval", "--cache", "-o", "--dask", "--position", "--at"])
def test_an_empty_option_is_an_error_not_the_default(capsys, option):
    refused(capsys, "solve", "nim", "2", f"{option}=", match="needs a value, not an empty word", limit=5)
    refused(capsys, "solve", "", "2", match="game needs a value")


def test_a_duplicated_json_key(capsys, tmp_path):
    refused(capsys, "solve", "nim", "3", "--channel", channel_file(tmp_path, '{"rows": [], "rows": []}'), match="given twice")


@pytest.mark.parametrize("game, param, text", [
    ("nim", "2,3", "[["), ("nim", "2,3", ""), ("kayles", "3", "x"), ("chomp", "2x2", "[[2,2]]"), ("chomp", "2x2", ""),
    ("nim", "3", "٣"), ("nim", "2,3", "1_0"), ("chomp", "2x2", "２,1"),
])
def test_a_malformed_position_is_an_error(capsys, game, param, text):
    refused(capsys, "solve", game, param, "--position", text, "--no-cache")


def test_underscores_in_heaps(capsys):
    refused(capsys, "solve", "nim", "1_0,2", "--no-cache", match="1_0,2")
    refused(capsys, "solve", "kayles", "1_0", "--no-cache")
    refused(capsys, "grundy", "subtraction:1_0,2")


@pytest.mark.parametrize("argv", [
    ["solve", "nim", "3", "--at", "٠.٥", "--no-cache"],
    ["solve", "nim", "3", "--at", "１/２", "--no-cache"],
    ["solve", "nim", "3", "--interval", "0,٠.٥", "--no-cache"],
    ["solve", "nim", "3", "--digits", "١٥", "--no-cache"],
    ["solve", "nim", "3", "--position", "٢", "--no-cache"],
    ["solve", "nim", "٣", "--no-cache"],
    ["solve", "٠.٧٧", "3", "--no-cache"],
    ["table", "nim", "2", "--step", "٠.٥", "--no-cache"],
    ["grundy", "kayles", "--upto", "١٠"],
    ["check", "conjecture9", "--k", "١..٣", "--no-cache"],
    ["phase", "nim", "2", "--locate", "١/٢,1/2", "--no-cache"],
])
def test_non_ascii_digits_are_refused(capsys, argv):
    refused(capsys, *argv)


def test_certificate_coefficients_are_read_in_ascii_digits():
    from symbolic_noise.errors import ExpressionError
    from symbolic_noise.exact.formula import exact_number as as_fmpq

    with pytest.raises(ExpressionError):
        as_fmpq("١/٢")
    with pytest.raises(ExpressionError):
        as_fmpq("1_0")


def test_a_file_name_with_a_newline_stays_in_the_latex_comment(capsys, tmp_path):
    from symbolic_noise.io.latexcheck import structural_errors

    rows = [{"position": 2, "sent": 0, "received": [[0, "1 - p"], [1, "p"]]}]
    name = "a\n\\end{document} %$#&_^~{}.json"
    path = channel_file(tmp_path, {"rows": rows, "default": "binary"}, name=name)
    rc, out, err = run(capsys, "solve", "nim", "2", "--channel", path, "--format", "latex", "--no-cache")
    assert rc == 0
    comments = [line for line in out.splitlines() if line.startswith("% ")]
    rest = out.splitlines()[len(comments):]  # the comment lines come first: title and provenance
    assert "end{document}" in comments[0] and all("\n" not in line for line in comments)
    assert "end{document}" not in "\n".join(rest)
    assert structural_errors("\\[" + "\n".join(rest) + "\\]") == []


def test_every_error_is_one_line(capsys, tmp_path):
    formula = "1 -\n p +\n ("
    refused(capsys, "solve", "nim", "2", "--at", formula, "--no-cache")
    refused(capsys, "solve", "nim", "2", "--channel", str(tmp_path / "a\nb.json"), "--no-cache")
    refused(capsys, "solve", "nim\nx", "2", "--no-cache")


def test_library_checks_positions_and_reachability():
    from symbolic_noise.games.heapgames import LaskersNim, MultiNim
    from symbolic_noise.games.rulesets import Chomp

    assert MultiNim((2, 5)).parse_position("1,5") == (1, 5)
    with pytest.raises(GameParameterError):
        MultiNim((2, 5)).parse_position("3,3")
    assert LaskersNim(4).parse_position("1,1,2") == (1, 1, 2)
    with pytest.raises(GameParameterError):
        LaskersNim(4).parse_position("5")
    with pytest.raises(GameParameterError):
        Chomp(2, 2).parse_position("3")
    with pytest.raises(GameParameterError):
        Chomp(2, 2).check_position(("2", "1"))


def test_channel_file_errors_are_invalid_channel_errors(tmp_path):
    from symbolic_noise.io.cli import _channel_from_spec

    with pytest.raises(InvalidChannelError):
        _channel_from_spec(channel_file(tmp_path, {"rows": [{"position": True, "sent": 0, "received": []}]}))
