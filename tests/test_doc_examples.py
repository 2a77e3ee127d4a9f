"""Every command whose output the README and the docs show is run, and its
output compared with what they show (as SymPy doctests its documentation).

Two forms are read from the Markdown files:

* a ``text`` block of shell sessions: lines ``$ COMMAND`` each followed by the
  output it prints; a command shown without output is not run (the docs show it
  as something to try), unless it only writes a file for the next one (``echo``);
* a ``sh`` block whose last line runs ``symbolic-noise ...`` (after
  ``python -m pip install . &&``, say), followed by a ``text`` block: its output.

A line ``...`` in the shown output stands for any number of lines, and `` ... ``
(with a space on each side) inside a line for any text (a CPU time, say).  Commands run
in a fresh folder with this checkout's package (``python -m symbolic_noise``),
a cache of their own; the output compared is stdout, and stderr as well when the
command fails (its one-line error is what the docs show).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\s*$")
WRITES_A_FILE = ("echo ", "printf ")


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """The fenced blocks of a Markdown text: (language, lines)."""
    blocks, lang, lines = [], None, []
    for line in text.splitlines():
        m = FENCE.match(line)
        if m and lang is None:
            lang, lines = m.group(1), []
        elif line.startswith("```") and lang is not None:
            blocks.append((lang, lines))
            lang = None
        elif lang is not None:
            lines.append(line)
    return blocks


def examples(path: str) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each example of the file: a name and its (command, shown output) steps."""
    out = []
    blocks = _blocks((ROOT / path).read_text())
    for i, (lang, lines) in enumerate(blocks):
        if lang == "text" and lines and lines[0].startswith("$ "):
            steps: list = []
            for line in lines:
                if line.startswith("$ "):
                    steps.append((line[2:], []))
                elif steps:
                    steps[-1][1].append(line)
            out.append((f"{path}:{i}", steps))
        elif lang == "sh" and lines and i + 1 < len(blocks) and blocks[i + 1][0] == "text":
            last = lines[-1].split("#")[0].strip()
            command = last.split("&&")[-1].strip()
            shown = blocks[i + 1][1]
            if command.startswith("symbolic-noise ") and shown and not shown[0].startswith("$ "):
                out.append((f"{path}:{i}", [(command, shown)]))
    return out


CASES = [case for path in FILES for case in examples(path)]


def _shell(command: str) -> str:
    """The command with every ``symbolic-noise`` program name made this checkout's."""
    me = f"{shlex.quote(sys.executable)} -m symbolic_noise"
    return re.sub(r"(^|&&\s*|\|\s*|;\s*)symbolic-noise(?=\s)", lambda m: m.group(1) + me, command)


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown`` line by line, a line ``...`` matching any
    number of lines (trailing blanks ignored)."""
    shown = [s.rstrip() for s in shown]
    printed = [s.rstrip() for s in printed]
    while shown and not shown[-1]:
        shown.pop()
    while printed and not printed[-1]:
        printed.pop()

    def same(want: str, got: str) -> bool:
        if " ... " not in want:
            return want == got
        return re.fullmatch(" .* ".join(re.escape(part) for part in want.split(" ... ")), got) is not None

    def go(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(printed)
        if shown[i] == "...":
            return any(go(i + 1, k) for k in range(j, len(printed) + 1))
        return j < len(printed) and same(shown[i], printed[j]) and go(i + 1, j + 1)

    return go(0, 0)


def test_the_docs_show_examples_to_check():
    """The files hold the examples this test runs (a parser that finds none checks nothing)."""
    names = {name.split(":")[0] for name, _ in CASES}
    assert {"README.md", "docs/getting-started.md", "docs/players.md", "docs/phase.md"} <= names
    assert sum(1 for _, steps in CASES for _, shown in steps if shown) >= 15


def test_matching_is_exact_but_for_the_ellipsis():
    assert matches(["a", "b"], ["a", "b", ""])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "b"])
    assert matches(["a", "..."], ["a", "b", "c"])
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert matches(["CPU ... s"], ["CPU 0.41 s"]) and not matches(["CPU ... s"], ["CPU 0.41 ms"])
    assert not matches(["0.4107..."], ["0.41079"])  # a decimal's own ellipsis is text


@pytest.mark.parametrize("name, steps", CASES, ids=[name for name, _ in CASES])
def test_shown_output_is_what_the_command_prints(name, steps, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SYMBOLIC_NOISE_CACHE=str(tmp_path / "cache.sqlite"), COLUMNS="200")
    ran = 0
    for command, shown in steps:
        if not shown and not command.startswith(WRITES_A_FILE):
            continue  # shown as something to try, with no output to compare
        done = subprocess.run(_shell(command), shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        # stdout; stderr too when the command fails (an error is part of what is shown),
        # not the progress lines a long run writes there
        printed = (done.stdout + (done.stderr if done.returncode else "")).splitlines()
        if shown:
            ran += 1
            assert matches(shown, printed), f"{name}: $ {command}\nshown:\n" + "\n".join(shown) + "\nprinted:\n" + "\n".join(printed)
    assert ran, f"{name}: no command with shown output"
