"""Canonical specs of games and channels, and the games and channels they rebuild.

A certificate or a cache entry names the game and the channel it speaks of by
these specs, and a checker rebuilds both from them, never from anything else
in a file (theory.md, section 7).  A game is ``{"family", "param"}``, the
words of the command line in one canonical spelling; a channel is
``{"name"}`` for a built-in one (with its fixed parameter, e.g.
``binary@1/10``) or ``{"custom": DOCUMENT, "sha256": HEX}`` for a channel file,
given in full with the SHA-256 of its canonical JSON.

Examples
--------
>>> from symbolic_noise.games.registry import game_from_spec
>>> game_spec(game_from_spec("kayles", "2+3")), game_spec(game_from_spec("chomp", "2x3"))
({'family': 'octal:0.77', 'param': '2,3'}, {'family': 'chomp', 'param': '2x3'})
>>> game_from_canonical({"family": "nim", "param": "5"})
<Nim 1-pile Nim, k = 5>
>>> channel_spec(channel_from_canonical({"name": "binary@1/10"}))
{'name': 'binary@1/10'}
"""

from __future__ import annotations

import hashlib
import json

from ..errors import GameParameterError, InvalidChannelError, SymbolicNoiseError
from .channels import Channel, custom_channel_from_json, get_channel
from .heapgames import HeapGame, MultiNim
from .registry import game_from_spec
from .rulesets import Chomp, Game, Nim

#: longest family or parameter text of a game spec
MAX_SPEC = 200


def game_spec(game: Game) -> dict | None:
    """The canonical words that rebuild ``game`` with :func:`game_from_spec`
    (``{"family": ..., "param": ...}``), or ``None`` for a game that has no
    name (an :class:`~symbolic_noise.games.rulesets.ExplicitGame`)."""
    if isinstance(game, Nim):
        return {"family": "nim", "param": str(game.k)}
    if isinstance(game, MultiNim):
        return {"family": "nim", "param": ",".join(map(str, game.heaps))}
    if isinstance(game, Chomp):
        return {"family": "chomp", "param": f"{game.rows}x{game.cols}"}
    if isinstance(game, HeapGame):
        return {"family": game.rules.key(), "param": ",".join(map(str, game.heaps))}
    return None


def game_from_canonical(spec) -> Game:
    """The game of a canonical spec, refusing anything that is not exactly what
    :func:`game_spec` gives for the game it names."""
    if not isinstance(spec, dict) or set(spec) != {"family", "param"} or not all(
        isinstance(spec[k], str) and 0 < len(spec[k]) <= MAX_SPEC for k in ("family", "param")
    ):
        raise GameParameterError('a game is named by {"family": TEXT, "param": TEXT}')
    game = game_from_spec(spec["family"], spec["param"])
    if game_spec(game) != spec:
        raise GameParameterError(f"the game spec {spec} is not canonical (write {game_spec(game)})")
    return game


def document_hash(document) -> str:
    """SHA-256 of a channel document's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def channel_spec(channel: Channel) -> dict | None:
    """``{"name": ...}`` for a built-in channel, ``{"custom": ..., "sha256": ...}``
    for a channel read from a file, ``None`` for one that cannot be named (a
    Python function, or a custom encoding)."""
    document = getattr(channel, "document", None)
    if document is not None:
        return {"custom": document, "sha256": document_hash(document)}
    key = channel.key()
    if key is None or key.startswith("custom"):
        return None
    try:
        rebuilt = get_channel(key)
    except SymbolicNoiseError:
        return None
    return {"name": key} if rebuilt is not None and rebuilt.key() == key and type(rebuilt) is type(channel) else None


def channel_from_canonical(spec) -> Channel:
    """The channel of a spec (:func:`channel_spec`); a custom channel's
    document must have the stated SHA-256."""
    if isinstance(spec, dict) and set(spec) == {"name"} and isinstance(spec["name"], str) and 0 < len(spec["name"]) <= MAX_SPEC:
        channel = get_channel(spec["name"])
        if channel.key() != spec["name"]:
            raise InvalidChannelError(f"the channel name {spec['name']!r} is not canonical (write {channel.key()!r})")
        return channel
    if isinstance(spec, dict) and set(spec) == {"custom", "sha256"} and isinstance(spec["sha256"], str):
        if document_hash(spec["custom"]) != spec["sha256"]:
            raise InvalidChannelError("the custom channel's SHA-256 is not the hash of its document")
        return custom_channel_from_json(spec["custom"])
    raise InvalidChannelError('a channel is named by {"name": TEXT} or {"custom": DOCUMENT, "sha256": HEX}')


#: what p means, for each built-in channel (a fixed channel ``NAME@Q`` has no p of its own)
P_MEANS = {
    "identity": "p plays no part: the sent move is received",
    "uniform": "p plays no part: every legal move is received with the same probability",
    "binary": "each binary digit of the move's code flips with probability p",
    "binary-gray": "each digit of the move's reflected Gray code flips with probability p",
    "z": "each 1 digit of the move's code becomes 0 with probability p",
    "asymmetric": "a 0 digit becomes 1 with probability p, a 1 digit becomes 0 with probability q",
    "king": "p is the chance of hitting the intended square",
    "rook": "p is the chance of hitting the intended square",
    "all": "p is the chance of hitting the intended square",
    "chebyshev": "p is the chance of hitting the intended square",
    "tremble": "the sent move with probability 1 - p, else a uniformly random legal move",
}


def p_meaning(channel: Channel) -> str:
    """One line saying what the channel's p is.

    >>> p_meaning(get_channel("king")), p_meaning(get_channel("binary@1/10"))
    ('p is the chance of hitting the intended square', 'fixed: binary with its parameter at 1/10, whatever p is')
    """
    name = getattr(channel, "name", "")
    if "@" in name:
        base, _, q = name.partition("@")
        return f"fixed: {base} with its parameter at {q}, whatever p is"
    if getattr(channel, "document", None) is not None:
        return "as the channel file's formulas in p say"
    return P_MEANS.get(name, "as the channel's own definition says")


def record(game: Game, channel: Channel, *, position=None, misere: bool = False, interval=(0, 1),
           method: str = "piecewise", strategies=("optimal", "optimal"), opponent: Channel | None = None) -> dict:
    """The provenance of a result, as every output writes it: the game (its
    canonical spec and description) and position, the channel (spec, name and
    what its p means; the opponent's when the players differ), misère play,
    the players' strategies (names; for strategies read from a file, also
    ``strategy_sha256``, the SHA-256 of each file's canonical JSON, ``None`` for
    a named strategy), the interval of p, the method, and the version.

    >>> from symbolic_noise.games.registry import game_from_spec
    >>> r = record(game_from_spec("nim", "5"), get_channel("binary"), misere=True)
    >>> r["game"], r["channel"]["name"], r["misere"], r["method"], r["interval"]
    ({'family': 'nim', 'param': '5', 'description': '1-pile Nim, k = 5'}, 'binary', True, 'piecewise', ['0', '1'])
    """
    from .._version import __version__

    spec = game_spec(game) or {}
    out_game = {**spec, "description": game.describe()}
    v = game.start() if position is None else position

    def chan(c):
        data = {"name": getattr(c, "name", str(c)), "p": p_meaning(c)}
        cs = channel_spec(c)
        if cs is not None and "sha256" in cs:
            data["sha256"] = cs["sha256"]
        return data

    out = {
        "game": out_game,
        "position": game.position_label(v) if hasattr(game, "position_label") else repr(v),
        "channel": chan(channel),
        "misere": bool(misere),
        "strategies": [getattr(s, "name", s) for s in strategies],
        "interval": [str(interval[0]), str(interval[1])],
        "method": method,
        "software": f"symbolic_noise {__version__}",
    }
    hashes = [getattr(s, "sha256", None) for s in strategies]
    if any(hashes):
        out["strategy_sha256"] = hashes
    if opponent is not None:
        out["opponent_channel"] = chan(opponent)
    return out


def ruleset_record(family: str, description: str, *, method: str, misere: bool = False, position=None) -> dict:
    """The provenance of a classical (noise-free) result about a ruleset rather
    than one position's game, such as a nim-sequence: the same keys as
    :func:`record`, the channel ``identity`` (the game at p = 0) and no interval.

    >>> r = ruleset_record("octal:0.137", "octal game 0.137", method="nim-sequence: mex")
    >>> r["game"], r["channel"]["name"], r["interval"]
    ({'family': 'octal:0.137', 'description': 'octal game 0.137'}, 'identity', None)
    """
    from .._version import __version__

    return {
        "game": {"family": family, "description": description},
        "position": position,
        "channel": {"name": "identity", "p": P_MEANS["identity"]},
        "misere": bool(misere),
        "strategies": ["optimal", "optimal"],
        "interval": None,
        "method": method,
        "software": f"symbolic_noise {__version__}",
    }
