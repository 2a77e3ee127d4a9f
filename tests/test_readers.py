"""The capped reader and writer of outside files (symbolic_noise.io.readers)."""

import os
import threading
import time

import pytest

from symbolic_noise.errors import InvalidChannelError, SymbolicNoiseError
from symbolic_noise.io import readers


def test_a_regular_json_file_is_read_as_data(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"rows": [{"p": 0.1, "n": -12}]}')
    assert readers.read_json(str(path), "the file") == {"rows": [{"p": "0.1", "n": -12}]}


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_link_to_a_device_is_refused_before_reading(tmp_path, device):
    link = tmp_path / "c.json"
    link.symlink_to(device)
    start = time.monotonic()
    with pytest.raises(InvalidChannelError, match="not a regular file"):
        readers.read_json(str(link), "the channel file", InvalidChannelError)
    assert time.monotonic() - start < 2


def test_a_fifo_never_blocks(tmp_path):
    fifo = tmp_path / "c.json"
    os.mkfifo(fifo)
    done = []
    thread = threading.Thread(target=lambda: done.append(_error(readers.read_json, str(fifo), "the file")), daemon=True)
    thread.start()
    thread.join(5)
    assert done and "not a regular file (a FIFO)" in done[0]


def _error(f, *args):
    try:
        f(*args)
    except SymbolicNoiseError as exc:
        return str(exc)
    return None


def test_only_cap_plus_one_bytes_are_read(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("[" + "1," * 100 + "1]")
    with pytest.raises(SymbolicNoiseError, match="cap of 50 bytes"):
        readers.read_json(str(path), "the file", cap=50)
    assert readers.read_bytes(str(path), "the file", cap=os.path.getsize(path)) == path.read_bytes()


@pytest.mark.parametrize("text, match", [
    ('{"a": 1, "a": 2}', "given twice"),
    ('{"a": ' + "9" * 4001 + "}", "4001 digits"),
    ('{"a": NaN}', "NaN is not a number"),
    ('[Infinity]', "Infinity is not a number"),
    ("[" * 65 + "]" * 65, "deeper than 64 levels"),
    ("[" * 100_000 + "]" * 100_000, "deeper than 64 levels"),
    ('{"a": ', "not valid JSON"),
])
def test_json_is_read_strictly(text, match):
    with pytest.raises(SymbolicNoiseError, match=match):
        readers.loads(text, "the file")


def test_a_file_name_is_shown_on_one_line():
    assert readers.shown("a\nb") == "a\\nb"
    with pytest.raises(SymbolicNoiseError) as err:
        readers.read_json("/missing/a\nb.json", "the file")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("make", ["directory", "missing folder", "/dev/full", "read-only"])
def test_write_text_fails_in_one_line(tmp_path, make):
    if make == "directory":
        path = str(tmp_path)
    elif make == "missing folder":
        path = str(tmp_path / "no" / "x.txt")
    elif make == "/dev/full":
        path = "/dev/full"
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes read-only files")
        path = str(tmp_path / "ro.txt")
        open(path, "w").close()
        os.chmod(path, 0o444)
    with pytest.raises(SymbolicNoiseError, match="cannot write") as err:
        readers.write_text(path, ["a" * 10_000, "b"])
    assert "\n" not in str(err.value)
