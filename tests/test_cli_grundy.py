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
