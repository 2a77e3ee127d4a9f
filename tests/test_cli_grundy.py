"""``symbolic-noise grundy --until-proven``: the periods it proves, its JSON,
its progress lines and its one-line errors (exit status 2)."""

import json

import pytest

from symbolic_noise.io.cli import main


def test_until_proven_dawsons_chess_json(capsys):
    assert main(["grundy", "dawson-chess", "--until-proven", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["game"], data["preperiod"], data["period"], data["proven"]) == ("octal:0.137", 52, 34, True)
    assert data["needed"] == 174 and data["heaps"] == 175 and len(data["sha256"]) == 64


def test_until_proven_kayles_text(capsys):
    assert main(["grundy", "0.77", "--until-proven"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("octal:0.77: period 12 from n = 71, proven by the periodicity theorem (values checked through n = 167)")


def test_progress_lines_on_stderr(capsys, monkeypatch):
    from symbolic_noise.io import cli_grundy

    monkeypatch.setattr(cli_grundy.time, "monotonic", iter(range(0, 10**6, 10)).__next__)
    assert main(["grundy", "0.56", "--until-proven"]) == 0
    captured = capsys.readouterr()
    assert "period 144 from n = 326640" in captured.out
    lines = captured.err.splitlines()
    assert lines and all(line.startswith("grundy octal:0.56: heap ") for line in lines)
    assert "candidate period 144 from 326,640" in lines[-1]


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["grundy", "lasker", "--until-proven"], "octal games and Grundy's game"),
        (["grundy", "grundy", "--until-proven"], "no periodicity theorem covers Grundy's game"),
        (["grundy", "0.6", "--until-proven", "--max-heap", "3000"], "no period of octal:0.6 proved through heap 3,000"),
        (["grundy", "0.16", "--until-proven", "--upto", "9"], "leave out --upto"),
        (["grundy", "0.16", "--until-proven", "--max-heap", "0"], "--max-heap must be between"),
        (["grundy", "0.9", "--until-proven"], "not an octal digit"),
    ],
)
def test_one_line_errors(capsys, argv, needle):
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        rc = exc.code
    assert rc == 2
    err = capsys.readouterr().err
    assert needle in err and err.strip().splitlines()[-1].count(needle) == 1 and "Traceback" not in err


def test_checkpoint_saved_at_the_cap_and_resumed(capsys, tmp_path):
    ck = str(tmp_path / "ck.bin")
    assert main(["grundy", "0.56", "--until-proven", "--max-heap", "200000", "--checkpoint", ck, "--quiet"]) == 2
    assert "through heap 200,000" in capsys.readouterr().err
    from symbolic_noise.io.cli_grundy import load_checkpoint

    saved = load_checkpoint(ck, "octal:0.56")
    assert saved.shape[0] == 200001
    assert main(["grundy", "0.56", "--until-proven", "--checkpoint", ck, "--format", "json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert (data["preperiod"], data["period"], data["heaps"]) == (326640, 144, 653570)
    assert "resumed at heap 200,001" in captured.err
    assert main(["grundy", "0.56", "--until-proven", "--checkpoint", ck, "--quiet", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["sha256"] == data["sha256"]


def test_checkpoint_of_another_game_or_damaged_is_refused(capsys, tmp_path):
    from symbolic_noise.io.cli_grundy import save_checkpoint

    ck = tmp_path / "ck.bin"
    save_checkpoint(str(ck), "octal:0.16", list(range(5)))
    assert main(["grundy", "0.56", "--until-proven", "--checkpoint", str(ck)]) == 2
    assert "is of 'octal:0.16', not of octal:0.56" in capsys.readouterr().err
    raw = bytearray(ck.read_bytes())
    raw[-2] ^= 1
    ck.write_bytes(bytes(raw))
    assert main(["grundy", "0.16", "--until-proven", "--checkpoint", str(ck)]) == 2
    assert "damaged" in capsys.readouterr().err
    ck.write_bytes(b"not a checkpoint\n")
    assert main(["grundy", "0.16", "--until-proven", "--checkpoint", str(ck)]) == 2
    assert "the checkpoint header is not valid JSON" in capsys.readouterr().err
    ck.write_bytes(b'{"format": "something else"}\n')
    assert main(["grundy", "0.16", "--until-proven", "--checkpoint", str(ck)]) == 2
    assert "is not a nim-sequence checkpoint" in capsys.readouterr().err


def test_an_interrupted_run_keeps_its_checkpoint(capsys, tmp_path, monkeypatch):
    from symbolic_noise.io import cli_grundy

    def interrupting(game, quiet):
        def progress(heap, rare, candidate):
            if heap >= 1 << 18:
                raise KeyboardInterrupt
        return progress

    monkeypatch.setattr(cli_grundy, "_progress_writer", interrupting)
    ck = str(tmp_path / "ck.bin")
    assert main(["grundy", "0.16", "--until-proven", "--checkpoint", ck]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert cli_grundy.load_checkpoint(ck, "octal:0.16").shape[0] >= 1 << 18


def test_grundy_upto_reports_progress_along_the_way():
    """Both engines of ``--upto`` call back with the heaps done (the rare/common
    split with its rare count too), and the values are those without a callback."""
    from symbolic_noise.games.classical import nim_sequence, sequence_report
    from symbolic_noise.games.rarevalue import rare_sequence

    calls = []
    values = rare_sequence("0.137", 5000, progress=lambda *a: calls.append(a), chunk=1000)
    assert values == nim_sequence("0.137", 5000, method="fast", cache=False)
    assert [c[0] for c in calls] == [999, 1999, 2999, 3999, 4999, 5000] and all(len(c) == 2 for c in calls)
    calls.clear()
    rep = sequence_report("lasker", 9000, period=False, progress=lambda *a: calls.append(a))
    assert [c[0] for c in calls] == [4096, 8192] and rep.values == nim_sequence("lasker", 9000)


def test_grundy_upto_progress_lines_are_quiet_when_asked(capsys):
    from symbolic_noise.io.cli_grundy import _upto_writer

    _upto_writer("0.137", 10, True, every=0)(5)
    _upto_writer("0.137", 10, False, every=0)(5)
    assert capsys.readouterr().err == "grundy 0.137: heap 5 of 10\n"
