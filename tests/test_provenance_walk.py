"""Every command in every output format says what its result is.

The walk runs each command of the command line in each of its formats and
asserts the provenance the format can carry: machine formats (JSON, CSV,
LaTeX, image files, certificates) the whole record (game spec, position,
channel and what its p means, misère, strategies, interval, method, version),
text the title line (game, channel, misère play).  A command or format added
without provenance fails here.
"""

import json

import pytest

from symbolic_noise import __version__
from symbolic_noise.io.cli import main

SOFTWARE = f"symbolic_noise {__version__}"
RECORD_KEYS = {"game", "position", "channel", "misere", "strategies", "interval", "method", "software"}


def out_of(capsys, argv):
    assert main(argv) in (0, 1)  # 1: a statement that fails, a game that is not a chance game
    return capsys.readouterr().out


def check_meta(meta, family, misere=False):
    assert RECORD_KEYS <= set(meta), set(meta)
    assert meta["software"] == SOFTWARE
    assert meta["game"]["family"] == family and meta["game"]["description"]
    assert meta["channel"]["name"] and meta["channel"]["p"]
    assert meta["misere"] is misere
    assert meta["method"]


def check_comments(text, prefix, family):
    comments = [line[len(prefix):] for line in text.splitlines() if line.startswith(prefix)]
    keys = {line.split(":", 1)[0] for line in comments}
    assert {"game", "position", "channel", "misere", "strategies", "interval", "method", "software"} <= keys, keys
    assert f"software: {SOFTWARE}" in comments
    assert any(line.startswith("game: ") and f"({family} " in line for line in comments)


#: (command line, format kind, game family, misère)
JSON_CASES = [
    ("solve nim 5 --misere --format json", "nim", True),
    ("solve chomp 2x3 --at 1/3 --format json", "chomp", False),
    ("solve chomp 2x3 --at 1/3 --method pointwise --format json", "chomp", False),
    ("solve nim 4 --series b1 --format json", "nim", False),
    ("table nim 4 --step 1/2 --format json", "nim", False),
    ("table chomp 2x3 --step 1/2 --method pointwise --format json --misere", "chomp", True),
    ("compare nim 4 --format json", "nim", False),
    ("chance nim 4 --format json", "nim", False),
    ("nimsum 3 5 6 --format json", "nim", False),
    ("nimsum 3 5 --misere --format json", "nim", True),
    ("grundy 0.137 --upto 30 --format json", "octal:0.137", False),
    ("grundy 4.3 --until-proven --format json --quiet", "octal:4.3", False),
    ("phase nim 3 --format json", "nim", False),
    ("phase nim 3 --locate 1/4,1/3 --format json", "nim", False),
    ("map nim 3 --width 2^-20 --format json", "nim", False),
    ("map chomp 2x2 --misere --width 2^-20 --format json", "chomp", True),
]


@pytest.mark.parametrize("line, family, misere", JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_every_json_output_carries_the_record(capsys, line, family, misere):
    argv = line.split()
    if argv[0] in ("solve", "table", "compare"):
        argv.append("--no-cache")
    data = json.loads(out_of(capsys, argv))
    assert data["format"].startswith("symbolic-noise.")
    check_meta(data["meta"], family, misere)


@pytest.mark.parametrize("line, prefix, family", [
    ("table nim 4 --step 1/2", "# ", "nim"),
    ("table chomp 2x3 --step 1/2 --method pointwise", "# ", "chomp"),
    ("table nim 4 --step 1/2 --format latex", "% ", "nim"),
    ("solve nim 4 --format latex", "% ", "nim"),
    ("map nim 4 --width 2^-20", "# ", "nim"),
])
def test_every_commented_format_carries_the_record(capsys, line, prefix, family):
    argv = line.split() + ([] if line.startswith("map ") else ["--no-cache"])  # a map uses no cache
    check_comments(out_of(capsys, argv), prefix, family)


@pytest.mark.parametrize("line, title", [
    ("solve nim 5 --misere", "1-pile Nim, k = 5, binary channel, misère play"),
    ("solve nim 5 --format summary", "1-pile Nim, k = 5, binary channel"),
    ("solve chomp 2x3 --at 1/3", "Chomp, 2 x 3 bar, king channel"),
    ("table nim 4 --step 1/2 --format text", "1-pile Nim, k = 4, binary channel"),
    ("table chomp 2x3 --step 1/2 --method pointwise --format text", "Chomp, 2 x 3 bar, king channel"),
    ("check nim 3 N>=1/2_on_[0,1/2]", "1-pile Nim, k = 3, binary channel"),
    ("check nim 3 N>=1/2_on_[0,1/2] --method map", "1-pile Nim, k = 3, binary channel"),
    ("compare nim 4", "1-pile Nim, k = 4, binary channel"),
    ("chance nim 4", "1-pile Nim, k = 4, binary channel"),
    ("phase nim 3", "1-pile Nim, k = 3: first player binary at p, second binary at q"),
    ("nimsum 3 5 --misere", "misère play"),
    ("grundy 0.137 --upto 30", "octal:0.137"),
])
def test_every_text_output_names_its_game_and_channel(capsys, line, title):
    argv = [w.replace("_", " ") for w in line.split()]
    if argv[0] in ("solve", "table", "compare", "check"):
        argv.append("--no-cache")
    assert title in out_of(capsys, argv).splitlines()[0]


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
@pytest.mark.parametrize("line", ["plot nim 4 --misere", "plot chomp 2x3 --method pointwise --step 1/4"])
def test_every_figure_carries_the_record_in_its_metadata(tmp_path, line, suffix):
    path = tmp_path / f"f.{suffix}"
    assert main(line.split() + ["-o", str(path), "--no-cache"]) == 0
    data = path.read_bytes()
    if suffix == "png":
        from PIL import Image

        text = Image.open(path).text
        assert text["Software"] == SOFTWARE and "method: " in text["Description"]
    else:
        assert SOFTWARE.encode() in data and b"method: " in data


def test_certificates_are_bound_to_what_they_speak_of(tmp_path, capsys):
    path = tmp_path / "c.json"
    out_of(capsys, ["check", "nim", "3", "N >= 1/2 on [0, 1/2]", "--out", str(path), "--no-cache"])
    cert = json.loads(path.read_text())
    assert cert["software"] == SOFTWARE and cert["game"] == {"family": "nim", "param": "3"}
    assert cert["channel"] == {"name": "binary"} and cert["misere"] is False
    assert {"strategies", "interval", "claims"} <= set(cert)
    assert "nim 3" in out_of(capsys, ["verify", str(path)])


def test_map_certificates_carry_the_record_and_are_bound(tmp_path, capsys):
    path = tmp_path / "m.json"
    out_of(capsys, ["check", "chomp", "2x3", "N >= 1/4 on [0, 1]", "--method", "map", "--misere", "--out", str(path)])
    cert = json.loads(path.read_text())
    assert cert["format"] == "symbolic-noise.map-certificate/1"
    check_meta(cert["meta"], "chomp", misere=True)
    assert cert["meta"]["method"] == "map" and cert["meta"]["interval"] == ["0", "1"]
    assert cert["game"] == {"family": "chomp", "param": "2x3"} and cert["channel"] == {"name": "king"}
    assert cert["misere"] is True and cert["position"] == [3, 3]
    assert "chomp 2x3" in out_of(capsys, ["verify", str(path)])


def test_a_strategy_file_is_named_by_its_content(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text('{"default": "classical", "moves": [[3, 0]]}')
    meta = json.loads(out_of(capsys, ["solve", "nim", "3", "--strategy", str(path), "--format", "json", "--no-cache"]))["meta"]
    first, second = meta["strategy_sha256"]
    assert len(first) == 64 and second is None
    path.write_text('{"default": "classical", "moves": [[3, 1]]}')
    again = json.loads(out_of(capsys, ["solve", "nim", "3", "--strategy", str(path), "--format", "json", "--no-cache"]))["meta"]
    assert again["strategies"] == meta["strategies"] and again["strategy_sha256"][0] != first


@pytest.mark.parametrize("suffix", ["png", "svg"])
@pytest.mark.parametrize("argv", [
    ["atlas", "subtraction:1,2,3", "--k", "1..4", "--no-cache", "--quiet", "-o"],
    ["atlas", "nim", "--k", "1..4", "--method", "map", "--quiet", "-o"],
    ["phase", "nim", "3", "--plot"],
])
def test_atlas_and_phase_figures_carry_the_record(tmp_path, capsys, argv, suffix):
    path = tmp_path / f"f.{suffix}"
    assert main(argv + [str(path)]) == 0
    if suffix == "png":
        from PIL import Image

        text = Image.open(path).text
        assert text["Software"] == SOFTWARE and "method: " in text["Description"] and "game: " in text["Description"]
    else:
        assert SOFTWARE in path.read_text() and "method: " in path.read_text()
