"""Packaging: one version everywhere, the command and ``python -m``, the
citation, the changelog, py.typed, and mypy on the typed public modules."""

import hashlib
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import symbolic_noise
from symbolic_noise._version import VERSION
from symbolic_noise.io.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_version_has_one_source():
    assert symbolic_noise.__version__ == VERSION
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in meta["project"] and "version" in meta["project"]["dynamic"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "symbolic_noise._version.VERSION"}
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+|rc\d+)?", VERSION)


def test_version_option(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"symbolic-noise {VERSION}\n"


def test_python_dash_m_runs_the_command():
    out = subprocess.run([sys.executable, "-m", "symbolic_noise", "--version"], capture_output=True, text=True,
                         env=_env(), cwd=ROOT)
    assert out.returncode == 0 and out.stdout == f"symbolic-noise {VERSION}\n"
    bad = subprocess.run([sys.executable, "-m", "symbolic_noise", "solve", "chess", "8"], capture_output=True,
                         text=True, env=_env(), cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.startswith("symbolic-noise: error: unknown game 'chess'")


def test_citation_cites_the_paper():
    text = (ROOT / "CITATION.cff").read_text()
    assert text.startswith("# ") and "cff-version: 1.2.0" in text
    pref = text[text.index("preferred-citation:"):]
    assert 'title: "Playing through a noisy channel (and knowing it)"' in pref
    assert "family-names: Capitelli" in pref and "family-names: Privitelli" in pref
    assert "arXiv" in pref
    assert f"version: {VERSION}" in text


def test_changelog_has_the_current_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    # Keep a Changelog: a development version is described under [Unreleased]
    current = f"## [{VERSION}]" in text or ("## [Unreleased]" in text and VERSION in text)
    assert text.startswith("# Changelog") and current and "## [0.1.0]" in text


def test_py_typed_is_shipped():
    assert (ROOT / "symbolic_noise" / "py.typed").exists()
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["symbolic_noise"]


def test_mypy_passes_on_the_typed_public_modules():
    pytest.importorskip("mypy")
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    files = meta["tool"]["mypy"]["files"]
    assert len(files) >= 10
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                          "symbolic-noise-mypy-" + hashlib.sha256(str(ROOT).encode()).hexdigest()[:12])], capture_output=True, text=True, cwd=ROOT, env=_env())
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found" in out.stdout
