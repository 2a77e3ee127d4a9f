"""A resumable store of solved positions in an embedded SQLite database.

:class:`SolutionCache` is the ``store`` that :func:`symbolic_noise.solve` takes:
every position is saved, in its own transaction, as soon as it is solved, and
positions already stored are loaded instead of solved.  A solve that is
interrupted (Ctrl-C, a crash, SIGKILL) therefore loses at most the position in
progress, and a solve of 1-pile Nim with k = 33 after k = 32 only solves the one
new position: the key is the ruleset (not the start position), the position,
the channel, the interval, the play convention and a format version.

Every entry is stored with the SHA-256 of its text, and a load recomputes
it.  The checksum detects corruption (a flipped byte, a truncated write), not
tampering: anyone who can edit the file can recompute it.  An entry whose
checksum does not match is reported through ``on_warning``, deleted and
recomputed, never trusted.  With ``verify=True`` (the command line's
``--verify-cache``) every entry served is proved instead: the Bellman check
(:func:`symbolic_noise.analysis.bellman.check_position`) against its
followers' entries and the game and channel of this cache, values and
optimal moves both, so that an entry forged with a valid checksum is found,
reported in one line and recomputed.  An entry without a checksum is
recomputed.

An entry's key is its whole provenance: the ruleset, the position, the
channel (a built-in one by name, a channel file by the SHA-256 of its
document), the interval, the play convention, the strategies (both players
optimal: the only solves stored) and a format version.  The start position
is not part of it: a position's value does not depend on where the game
started, which is what lets 1-pile Nim with k = 33 reuse k = 32.

The default location is the user cache directory (``platformdirs``), e.g.
``~/.cache/symbolic_noise/solutions.sqlite`` on Linux.

Examples
--------
>>> import tempfile, os
>>> from symbolic_noise import solve, Nim
>>> path = os.path.join(tempfile.mkdtemp(), "c.sqlite")
>>> with SolutionCache(path, Nim(5), "binary") as store:
...     first = solve(Nim(5), "binary", store=store)
>>> with SolutionCache(path, Nim(6), "binary") as store:    # heaps 1..5 are loaded, 6 is solved
...     second = solve(Nim(6), "binary", store=store)
...     store.loaded, store.saved
(5, 1)
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
import warnings
from typing import Callable

from . import codec
from ...games.channels import Channel, get_channel
from ...errors import CacheError
from ...games.rulesets import Game
from ...exact.formula import exact_number


#: bump when the stored format or the meaning of a stored value changes
FORMAT_VERSION = 2


class CacheWarning(UserWarning):
    """A cache entry was unusable and has been recomputed."""


def default_cache_path() -> str:
    """``<user cache dir>/symbolic_noise/solutions.sqlite`` (``SYMBOLIC_NOISE_CACHE``
    overrides it)."""
    env = os.environ.get("SYMBOLIC_NOISE_CACHE")
    if env:
        return env
    import platformdirs

    return os.path.join(platformdirs.user_cache_dir("symbolic_noise"), "solutions.sqlite")


def _position_key(v) -> str:
    def plain(x):
        return [plain(e) for e in x] if isinstance(x, tuple) else x

    return json.dumps(plain(v), separators=(",", ":"))


def max_degree(value) -> int:
    """The largest degree of a value's formulas."""
    return max((g.degree for g in value.formulas), default=0)


def _channel_key(channel: Channel) -> str | None:
    """The channel's part of the key: its name, the full SHA-256 of its
    document (a channel file), or ``None`` when it cannot be named."""
    from ...games.provenance import channel_spec

    spec = channel_spec(channel)
    if spec is None:
        key = channel.key()
        return None if key is None else key
    return spec["name"] if "name" in spec else "custom:" + spec["sha256"]


def _checksum(text: str) -> str:
    """SHA-256 of an entry's text (its canonical JSON encoding)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SolutionCache:
    """Stored solutions of one ruleset through one channel on one interval.

    ``on_warning(message)`` receives the report of an unusable entry (default:
    a :class:`CacheWarning`).  ``enabled`` is False when the channel has no
    stable key (a custom channel given as a Python function): nothing is then
    read or written.  ``verify=True`` re-checks the mathematics of every entry
    loaded, not only its checksum.
    """

    def __init__(
        self,
        path: str,
        game: Game,
        channel: Channel | str,
        interval=(0, 1),
        *,
        misere: bool = False,
        on_warning: Callable[[str], None] | None = None,
        verify: bool = False,
    ):
        channel = get_channel(channel)
        a, b = (exact_number(x) for x in interval)
        self.game = game
        self.interval = (a, b)
        self.on_warning = on_warning or (lambda msg: warnings.warn(msg, CacheWarning, stacklevel=3))
        self.verify = verify
        self.loaded = 0
        self.saved = 0
        self.rejected = 0
        channel_key = _channel_key(channel)
        self.enabled = channel_key is not None
        self.context = json.dumps(
            [FORMAT_VERSION, game.key(), channel_key, str(a), str(b), bool(misere), "optimal/optimal"]
        )
        self.channel, self.misere = channel, bool(misere)
        self._proved: dict = {}  # (verify) the values served or saved so far, proved or computed
        self.path = path
        self._conn = None
        if self.enabled:
            directory = os.path.dirname(os.path.abspath(path))
            os.makedirs(directory, exist_ok=True)
            self._conn = sqlite3.connect(path, timeout=60, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS solutions ("
                " context TEXT NOT NULL, position TEXT NOT NULL, data TEXT NOT NULL, created REAL NOT NULL,"
                " PRIMARY KEY (context, position))"
            )
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(solutions)")}
            ours = {"context", "position", "data", "created"}
            if not ours <= columns or columns - ours - {"checksum", "degree"}:
                self.close()
                raise CacheError(
                    f"{path} is not a symbolic-noise cache: its table solutions has the columns"
                    f" {', '.join(sorted(str(c)[:40] for c in columns))[:300]}, not {', '.join(sorted(ours | {'checksum', 'degree'}))}"
                )
            if "checksum" not in columns:  # a cache written before checksums: its entries get a full check
                self._conn.execute("ALTER TABLE solutions ADD COLUMN checksum TEXT")
            if "degree" not in columns:  # (entries written before it have none: NULL)
                self._conn.execute("ALTER TABLE solutions ADD COLUMN degree INTEGER")

    # the store protocol of solve() ---------------------------------------------

    def load(self, v):
        """The stored value of ``v`` if there is a sound one, else ``None``."""
        if not self.enabled:
            return None
        row = self._conn.execute(
            "SELECT data, checksum, degree FROM solutions WHERE context = ? AND position = ?",
            (self.context, _position_key(v)),
        ).fetchone()
        if row is None:
            return None
        text, checksum, degree = row
        try:
            if checksum is None:
                raise CacheError("it has no checksum (every entry of this format has one)")
            if _checksum(text) != checksum:
                raise CacheError("its checksum does not match: the stored entry was altered")
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise CacheError(f"not valid JSON ({exc.msg})") from None
            except (ValueError, RecursionError):  # an integer past int()'s digit limit, or nesting
                raise CacheError("not JSON this cache writes (a number too long, or nesting too deep)") from None
            value = codec.decode(data, trusted=not self.verify)
            moves = [self.game.move_label(v, w) for w in self.game.followers(v)]
            if not value.labels or {m for s in value.labels for m in s} - set(moves):
                raise CacheError("its optimal moves are not legal moves of the position")
            if degree is not None and degree != max_degree(value):
                raise CacheError(f"its recorded degree {degree} is not its formulas' largest degree")
            if self.verify:
                self._prove(v, value)
        except CacheError as exc:
            self.rejected += 1
            self.on_warning(
                f"cache entry for position {self.game.position_label(v)} in {self.path} is unusable ({exc}); recomputing it"
            )
            self._delete(v)
            return None
        self.loaded += 1
        if self.verify:
            self._proved[v] = value
        return value

    def _prove(self, v, value) -> None:
        """The Bellman check of ``v``'s entry, values and optimal moves, against
        its followers' values (proved entries, or values solved in this run)."""
        from ...analysis.bellman import check_position
        from ...errors import VerificationError
        from ...exact.piecewise import PiecewiseFunction

        values = {v: value}
        for x in self.game.followers(v):
            got = self._proved.get(x)
            if got is None and not self.game.followers(x):
                got = PiecewiseFunction.constant(1 if self.misere else 0, *self.interval, frozenset(), frozenset())
            if got is None:
                got = self.load(x)
            if got is None:
                raise CacheError(f"its follower {self.game.position_label(x)} has no sound entry to check it against")
            values[x] = got
        try:
            check_position(self.game, self.channel, values, self.interval, v, misere=self.misere, labels=True)
        except VerificationError as exc:
            raise CacheError(f"it is not the game's value: {exc}") from None

    def save(self, v, value) -> None:
        """Store ``v``'s value in one transaction."""
        if self.enabled:
            self.save_text(v, codec.text(value), max_degree(value))
            if self.verify:
                self._proved[v] = value

    def save_text(self, v, text: str, degree: int | None = None) -> None:
        """Store ``v``'s value given as :func:`codec.text` made it (a parallel
        solve's workers make the text, the driver only stores it); ``degree``,
        the largest degree of its formulas, if known (:meth:`degrees`)."""
        if not self.enabled:
            return
        self._store(v, text, degree)
        self.saved += 1

    def _store(self, v, text: str, degree: int | None) -> None:
        with self._transaction():
            self._conn.execute(
                "INSERT OR REPLACE INTO solutions (context, position, data, created, checksum, degree)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (self.context, _position_key(v), text, time.time(), _checksum(text), degree),
            )

    def degrees(self) -> dict:
        """``{position key: the largest degree of its formulas}`` for the
        stored positions of this context, ``None`` for an entry written
        before degrees were recorded.  Read without loading any value (a
        report's statistics need the largest degree of every position; Chomp
        7 x 7 king's entries are 4 GB of text); each is checked against the
        value when the value itself is loaded (:meth:`load`)."""
        if not self.enabled:
            return {}
        rows = self._conn.execute("SELECT position, degree FROM solutions WHERE context = ?", (self.context,))
        return {key: (degree if type(degree) is int and degree >= 0 else None) for key, degree in rows}

    # housekeeping --------------------------------------------------------------

    def _transaction(self):
        conn = self._conn

        class _Tx:
            def __enter__(self_):
                conn.execute("BEGIN IMMEDIATE")

            def __exit__(self_, kind, exc, tb):
                conn.execute("ROLLBACK" if kind else "COMMIT")
                return False

        return _Tx()

    def _delete(self, v) -> None:
        with self._transaction():
            self._conn.execute(
                "DELETE FROM solutions WHERE context = ? AND position = ?", (self.context, _position_key(v))
            )

    def positions(self) -> list[str]:
        """The stored positions of this context (as their JSON keys)."""
        if not self.enabled:
            return []
        return [r[0] for r in self._conn.execute("SELECT position FROM solutions WHERE context = ?", (self.context,))]

    def close(self) -> None:
        """Close the database (also done on leaving a ``with`` block)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
