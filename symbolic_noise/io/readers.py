"""Reading and writing the files the command line is given, with caps: its one job.

Every file from outside (a channel, a strategy, a certificate) is read by
:func:`read_json` (or :func:`read_bytes`), and every file the command line
writes goes through :func:`write_text`:

* a file is opened without blocking (``O_NONBLOCK``: a FIFO never waits for a
  writer), and the *open* descriptor must be a regular file (a symbolic link to
  ``/dev/zero``, a FIFO, a directory or a device is refused by name);
* at most ``cap + 1`` bytes are read, and more than ``cap`` is refused: the
  size the file system reports is never trusted (``/dev/zero`` reports 0);
* JSON is read as data: a key given twice is refused, an integer of more than
  :data:`MAX_INT_DIGITS` digits is refused before it is converted, numbers with
  a point are kept as their text (``0.1`` means exactly 1/10), ``NaN`` and
  ``Infinity`` are refused, and nesting deeper than :data:`MAX_DEPTH` is
  refused;
* every failure is one line naming the file, raised as the caller's error class.

Examples
--------
>>> loads('{"rows": [], "p": 0.1}', "the file")
{'rows': [], 'p': '0.1'}
>>> loads('{"a": 1, "a": 2}', "the file")
Traceback (most recent call last):
...
symbolic_noise.errors.SymbolicNoiseError: the file is not valid JSON: the key 'a' is given twice
>>> read_json("/dev/zero", "the channel file")
Traceback (most recent call last):
...
symbolic_noise.errors.SymbolicNoiseError: cannot read the channel file /dev/zero: it is not a regular file (a character device)
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any, Iterable

from ..errors import SymbolicNoiseError

#: largest file read from the command line (channel files, strategies, certificates)
MAX_FILE_BYTES = 64 * 2**20
#: most digits of one JSON integer (below Python's own limit of 4,300 for int(str))
MAX_INT_DIGITS = 4_000
#: deepest nesting of JSON arrays and objects
MAX_DEPTH = 64

_KINDS = (
    (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
)


def shown(path) -> str:
    """A path as one line of a message: line breaks and other control characters escaped.

    >>> shown("a\\nb.json")
    'a\\\\nb.json'
    """
    text = str(path)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def read_bytes(path: str, what: str, error=SymbolicNoiseError, cap: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``cap`` of them."""
    name = shown(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot read {what} {name}: {exc.strerror}") from None
    except (ValueError, TypeError):  # e.g. a NUL character in the path
        raise error(f"cannot read {what} {name}: not a valid path") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((k for test, k in _KINDS if test(mode)), "a special file")
            raise error(f"cannot read {what} {name}: it is not a regular file ({kind})")
        chunks, got = [], 0
        while got <= cap:
            chunk = os.read(fd, min(cap + 1 - got, 2**20))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > cap:
            raise error(f"{what} {name} has more than the cap of {cap} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"cannot read {what} {name}: {exc.strerror}") from None
    finally:
        os.close(fd)


def _depth(data) -> int:
    """The nesting depth of parsed JSON data (iteratively: no recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, dict):
            x = x.values()
        elif not isinstance(x, list):
            continue
        deepest = max(deepest, d)
        stack.extend((e, d + 1) for e in x if isinstance(e, (list, dict)))
    return deepest


def loads(text: str, what: str, error=SymbolicNoiseError, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text read as data (see the module docstring for the rules)."""

    def pairs(items):
        out = {}
        for key, value in items:
            if key in out:
                raise error(f"{what} is not valid JSON: the key {shown(key)[:40]!r} is given twice")
            out[key] = value
        return out

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{what} holds an integer of {len(digits.lstrip('-'))} digits, more than {MAX_INT_DIGITS} (the cap)")
        return int(digits)

    def constant(name: str):
        raise error(f"{what} is not valid JSON: {name} is not a number")

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_int=whole, parse_float=str, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise error(f"{what} nests too deeply (deeper than {max_depth} levels, the cap)") from None
    if _depth(data) > max_depth:
        raise error(f"{what} nests too deeply (deeper than {max_depth} levels, the cap)")
    return data


def read_json(path: str, what: str, error=SymbolicNoiseError, cap: int = MAX_FILE_BYTES) -> Any:
    """The JSON document in the file at ``path``, read as data with every cap."""
    raw = read_bytes(path, what, error, cap)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{what} {shown(path)} is not UTF-8 text") from None
    return loads(text, f"{what} {shown(path)}", error)


def write_text(path: str, chunks: str | Iterable[str], what: str = "") -> None:
    """Write ``chunks`` (a string, or strings written one by one) to the file at
    ``path``; a failure to open, write or close it (a directory, a missing
    folder, no permission, a full device) is one line naming the file."""
    _write(path, [chunks] if isinstance(chunks, str) else chunks, what, "w")


def write_bytes(path: str, data: bytes, what: str = "") -> None:
    """:func:`write_text` for bytes (an image made in memory)."""
    _write(path, [data], what, "wb")


def _write(path: str, chunks: Iterable, what: str, mode: str) -> None:
    name = shown(path)
    label = f"{what} " if what else ""
    try:
        fh = open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"}))
    except OSError as exc:
        raise SymbolicNoiseError(f"cannot write {label}{name}: {exc.strerror or exc}") from None
    except (ValueError, TypeError):
        raise SymbolicNoiseError(f"cannot write {label}{name}: not a valid path") from None
    try:
        try:
            for chunk in chunks:
                fh.write(chunk)
        finally:
            fh.close()
    except OSError as exc:
        raise SymbolicNoiseError(f"cannot write {label}{name}: {exc.strerror or exc}") from None


def check_writable(path: str, what: str = "") -> None:
    """Refuse at once an output path that cannot be written (a directory, or
    a folder that does not exist), before the work whose result it would hold."""
    name = shown(path)
    label = f"{what} " if what else ""
    try:
        if os.path.isdir(path):
            raise SymbolicNoiseError(f"cannot write {label}{name}: it is a directory")
        folder = os.path.dirname(os.path.abspath(path))
    except (ValueError, TypeError):
        raise SymbolicNoiseError(f"cannot write {label}{name}: not a valid path") from None
    if not os.path.isdir(folder):
        raise SymbolicNoiseError(f"cannot write {label}{name}: the folder {shown(folder)} does not exist")
