"""The file format of hybrid certificates (``symbolic-noise.hybrid/2``): what a
file names, the shape every key must have, and the caps on every size.

A hybrid certificate speaks of one game and says so (theory.md, section 7):

* ``game``: the canonical spec (:mod:`symbolic_noise.games.provenance`),
  ``{"family": "nim", "param": "K"}``: 1-pile Nim with K chips;
* ``position``: the heap the statement is about (K: the start; the kinds that
  speak of every heap k <= K name them in the statement);
* ``channel``: ``{"name": "binary"}``: the binary channel, the only one the
  hybrid engine encloses;
* ``misere``: ``false`` (the engine encloses normal play only);
* ``strategies``: what the enclosures compute (:func:`strategies`): optimal play
  by both players, except Conjecture 9, whose values are those of
  the fixed strategy "every lower heap sends 0";
* ``interval``: the range of p the statement speaks of;
* ``statement``: the statement in words, derived again by the verifier from the
  kind's data and compared;
* ``software``, ``method`` ("hybrid"), ``kind``, ``verdict``.

The verifier rebuilds the game and the channel from the specs, refuses any
game, channel or play the engine does not support, and computes every
enclosure and exact point from the rebuilt game; from the kind's own keys it
takes only the boxes, bounds and points it must check.  :func:`check_shape`
checks, before any work, that every key has its type and every size is under
its cap (:data:`CAPS`); a failure there is a :class:`CertificateFormatError`
(malformed input), a failed proof a plain :class:`VerificationError`.

Examples
--------
>>> strategies("conjecture9")["computed"]
'F_k(s): heap k sends s and every lower heap sends 0'
>>> check_shape({"format": "symbolic-noise.hybrid/1"})
Traceback (most recent call last):
...
symbolic_noise.analysis.hybrid.fileformat.CertificateFormatError: this hybrid certificate has the old format symbolic-noise.hybrid/1, which names neither the game nor the channel; re-issue it with: python scripts/hybrid_reissue.py FILE
"""

from __future__ import annotations

from ...errors import VerificationError

FORMAT = "symbolic-noise.hybrid/2"
OLD_FORMATS = ("symbolic-noise.hybrid/1",)
REISSUE = "python scripts/hybrid_reissue.py FILE"
KINDS = ("counterexample", "fairness", "fairness_shared", "conjecture9", "conjecture10")

#: every size a hybrid file may have, checked before any work (docs/hybrid.md, "caps")
CAPS = {
    "bytes": 16 * 2**20,  # largest hybrid file (the largest in results/ is 1.0 MB)
    "K": 512,  # heaps: a box's enclosure costs about K^2 log K; K = 384 is the largest proved
    "boxes": 32_768,  # entries of one list of cuts or bounds (results/: at most 6,610)
    "all_boxes": 200_000,  # boxes of one file, every list together (results/: about 28,000)
    "prec": 1024,  # bits of arb precision
    "order": 12,  # order of a Taylor model
    "rational": 200,  # characters of a box end, bound or point ("p/q")
    "value": 60_000,  # characters of an exact value (N_256(99/100) has 7,200)
    "text": 400,  # characters of a statement or a note
    "entries": 1_024,  # entries of a mapping (leading orders, second coefficients, undecided heaps)
    "seconds": 20.0,  # estimated CPU seconds of the check (:func:`estimate_seconds`), unless the caller allows more
}


class CertificateFormatError(VerificationError, ValueError):
    """A hybrid certificate that cannot be read as one: a key missing, a wrong
    type, a size over its cap, an old format (exit status 2 at the command line)."""


def _bad(msg: str):
    raise CertificateFormatError(msg)


def strategies(kind: str) -> dict:
    """What the enclosures of a certificate of ``kind`` compute."""
    if kind == "conjecture9":
        return {"first": "optimal", "second": "optimal",
                "computed": "F_k(s): heap k sends s and every lower heap sends 0",
                "why": "the statement for every k <= K makes sending 0 optimal, so F_k = N_k (docs/hybrid.md)"}
    if kind == "counterexample":
        return {"first": "optimal", "second": "optimal",
                "computed": "N_K(s): heap K sends s, both players optimal afterwards (exact rationals)"}
    return {"first": "optimal", "second": "optimal",
            "computed": "N_k: every heap's optimal value, enclosed whatever the lower heaps' optimal moves are"}


# --------------------------------------------------------------------------- shapes


def _int(x, what, lo=0, hi=None):
    if type(x) is not int or x < lo or (hi is not None and x > hi):
        _bad(f"{what} is not an integer in [{lo}, {hi}]" if hi is not None else f"{what} is not an integer >= {lo}")
    return x


def _text(x, what, cap):
    if not isinstance(x, str):
        _bad(f"{what} is not text")
    if len(x) > cap:
        _bad(f"{what} has {len(x)} characters, more than {cap} (the cap)")
    return x


def _rat(x, what, cap=None):
    """A rational written as text ('p/q', 'n'), at most ``cap`` characters, with digits only."""
    cap = cap or CAPS["rational"]
    _text(x, what, cap)
    body = x[1:] if x.startswith("-") else x
    parts = body.split("/")
    if not (1 <= len(parts) <= 2 and all(p.isdigit() and p.isascii() for p in parts)) or (len(parts) == 2 and int(parts[1]) == 0):
        _bad(f"{what} is not an exact rational written as text ('p/q')")
    return x


def _rat_or_none(x, what):
    return None if x is None else _rat(x, what)


def _list(x, what, cap=None, item=None):
    cap = cap or CAPS["boxes"]
    if not isinstance(x, list):
        _bad(f"{what} is not a list")
    if len(x) > cap:
        _bad(f"{what} has {len(x)} entries, more than {cap} (the cap)")
    if item is not None:
        for i, e in enumerate(x):
            item(e, f"{what}[{i}]")
    return x


def _dict(x, what, required, optional=()):
    if not isinstance(x, dict):
        _bad(f"{what} is not an object")
    missing = [k for k in required if k not in x]
    if missing:
        _bad(f'{what} has no "{missing[0]}"')
    extra = [k for k in x if k not in required and k not in optional]
    if extra:
        _bad(f"{what} has an unknown key {str(extra[0])[:40]!r}")
    return x


def _mapping(x, what, key, value):
    if not isinstance(x, dict):
        _bad(f"{what} is not an object")
    if len(x) > CAPS["entries"]:
        _bad(f"{what} has {len(x)} entries, more than {CAPS['entries']} (the cap)")
    for k, v in x.items():
        key(k, f"a key of {what}")
        value(v, f"{what}[{str(k)[:20]}]")
    return x


def _digits(x, what):
    if not (isinstance(x, str) and x.isdigit() and x.isascii() and len(x) <= 8):
        _bad(f"{what} is not a heap written as text")


def _pair(x, what):
    _list(x, what, 2, _rat)
    if len(x) != 2:
        _bad(f"{what} is not a pair")
    return x


ENVELOPE = ("format", "kind", "method", "software", "game", "position", "channel", "misere", "strategies",
            "interval", "statement", "verdict")
NOTES = ("cpu_seconds", "difference_decimal", "p0_decimal", "conjecture", "arithmetic", "reissued_from")


def _boxes(c, *keys, what=""):
    for k in keys:
        _list(c[k], f'"{k}"{what}', item=_rat)
    return sum(len(c[k]) for k in keys)


def check_shape(c) -> None:
    """Every key of a hybrid certificate present with its type, every size under its cap."""
    if not isinstance(c, dict):
        _bad("a hybrid certificate is a JSON object")
    fmt = c.get("format")
    if fmt in OLD_FORMATS:
        _bad(f"this hybrid certificate has the old format {fmt}, which names neither the game nor the channel;"
             f" re-issue it with: {REISSUE}")
    if fmt != FORMAT:
        _bad(f"not a hybrid certificate of format {FORMAT} (found {str(fmt)[:60]!r})")
    kind = c.get("kind")
    if kind not in KINDS:
        _bad(f"unknown hybrid certificate kind {str(kind)[:40]!r}")
    own = {
        "counterexample": (("k", "p", "better", "claimed", "value_better", "value_claimed"), ()),
        "fairness": (("k", "eps", "N_at_1", "prec", "exists", "p0", "fails_at"), ("cuts", "bounds", "boxes")),
        "fairness_shared": (("ks", "eps", "cuts", "bounds", "heaps", "undecided"), ()),
        "conjecture9": (("K", "order", "prec", "cuts", "half_lower", "gap_lower", "local"), ()),
        "conjecture10": (("k", "half", "tm_cuts", "tm_gap_lower", "tm_half_lower", "cuts", "gap_lower",
                          "half_lower", "end"), ()),
    }[kind]
    _dict(c, "the certificate", ENVELOPE + own[0], own[1] + NOTES)
    for k in NOTES:
        if k not in c:
            continue
        x = c[k]
        if isinstance(x, list):
            _list(x, f'"{k}"', 2, lambda e, w: _text(e, w, 40))
        elif isinstance(x, str):
            _text(x, f'"{k}"', CAPS["text"])
        elif type(x) not in (int, float):
            _bad(f'"{k}" is not a short note')
    if c["method"] != "hybrid":
        _bad('"method" is "hybrid"')
    _text(c["software"], '"software"', 80)
    _text(c["statement"], '"statement"', CAPS["text"])
    if c["verdict"] not in ("holds", "fails"):
        _bad('"verdict" is "holds" or "fails"')
    if type(c["misere"]) is not bool:
        _bad('"misere" is true or false')
    _pair(c["interval"], '"interval"')
    _int(c["position"], '"position"', 0, CAPS["K"])
    if not isinstance(c["strategies"], dict):
        _bad('"strategies" is not an object')
    for key in ("game", "channel"):
        if not isinstance(c[key], dict) or len(c[key]) > 2:
            _bad(f'"{key}" is not a canonical spec')
    K = _int(c.get("K", c.get("k", c["position"])), "the heap", 1, CAPS["K"])
    total = 0
    if kind == "counterexample":
        _rat(c["p"], '"p"')
        _int(c["better"], '"better"', 0, K)
        _int(c["claimed"], '"claimed"', 0, K)
        _rat(c["value_better"], '"value_better"', CAPS["value"])
        _rat(c["value_claimed"], '"value_claimed"', CAPS["value"])
    elif kind == "fairness":
        _rat(c["eps"], '"eps"')
        _rat(c["N_at_1"], '"N_at_1"', CAPS["value"])
        _int(c["prec"], '"prec"', 16, CAPS["prec"])
        if type(c["exists"]) is not bool:
            _bad('"exists" is true or false')
        _rat_or_none(c["fails_at"], '"fails_at"')
        if c["exists"]:
            _pair(c["p0"], '"p0"')
            for k in ("cuts", "bounds"):
                if k not in c:
                    _bad(f'the certificate has no "{k}"')
            total += _boxes(c, "cuts", "bounds")
        elif c["p0"] is not None:
            _bad('"p0" is null when the threshold does not exist')
        if "boxes" in c:
            _list(c["boxes"], '"boxes"', 0)
    elif kind == "fairness_shared":
        _list(c["ks"], '"ks"', 2, lambda x, w: _int(x, w, 1, CAPS["K"]))
        if len(c["ks"]) != 2 or c["ks"][0] > c["ks"][1]:
            _bad('"ks" is a pair k1 <= k2')
        _rat(c["eps"], '"eps"')
        total += _boxes(c, "cuts", "bounds")
        _list(c["heaps"], '"heaps"', CAPS["K"])
        for i, h in enumerate(c["heaps"]):
            what = f"heap entry {i}"
            _dict(h, what, ("k", "N_at_1", "exists"), ("p0", "p0_decimal", "fails_at", "shared_from", "local_cuts",
                                                       "local_bounds"))
            _int(h["k"], f"{what}: k", 1, CAPS["K"])
            _rat(h["N_at_1"], f"{what}: N_at_1", CAPS["value"])
            if type(h["exists"]) is not bool:
                _bad(f'{what}: "exists" is true or false')
            if h["exists"]:
                _dict(h, what, ("k", "N_at_1", "exists", "p0", "fails_at", "shared_from", "local_cuts", "local_bounds"),
                      ("p0_decimal",))
                _pair(h["p0"], f"{what}: p0")
                _rat(h["fails_at"], f"{what}: fails_at")
                _int(h["shared_from"], f"{what}: shared_from", 0, CAPS["boxes"])
                total += _boxes(h, "local_cuts", "local_bounds", what=f" of {what}")
            if "p0_decimal" in h:
                _list(h["p0_decimal"], f"{what}: p0_decimal", 2, lambda x, w: _text(x, w, 40))
        _mapping(c["undecided"], '"undecided"', _digits, lambda x, w: _text(x, w, CAPS["text"]))
    elif kind == "conjecture9":
        _int(c["order"], '"order"', 1, CAPS["order"])
        _int(c["prec"], '"prec"', 16, CAPS["prec"])
        total += _boxes(c, "cuts", "half_lower", "gap_lower")
        loc = c["local"]
        if loc is not None:
            _dict(loc, '"local"', ("at", "side", "delta", "order", "prec", "half_margin_lower", "odd_margin_lower",
                                   "even_margin_lower", "second_coefficient_lower"), ("first_order",))
            if loc["at"] != "1/2" or loc["side"] != "left":
                _bad('the local argument is "at": "1/2", "side": "left"')
            _rat(loc["delta"], "the local delta")
            _int(loc["order"], "the local order", 3, CAPS["order"])
            _int(loc["prec"], "the local prec", 16, CAPS["prec"])
            for k in ("half_margin_lower", "odd_margin_lower", "even_margin_lower"):
                _rat_or_none(loc[k], f'"{k}"')
            _mapping(loc["second_coefficient_lower"], "the second coefficients", _digits, _rat)
            if "first_order" in loc:
                _text(loc["first_order"], "the first-order note", CAPS["text"])
    else:  # conjecture10
        total += _boxes(c, "tm_cuts", "tm_gap_lower", "tm_half_lower", "cuts", "gap_lower", "half_lower")
        for key, opt in (("half", True), ("end", False)):
            piece = c[key]
            if piece is None and opt:
                continue
            extra = ("tm_order",) if key == "half" else ()
            _dict(piece, f'"{key}"', ("delta", "order", "leading_order") + extra, ("value_at_centre",))
            _rat(piece["delta"], f"the {key} piece's delta")
            _int(piece["order"], f"the {key} piece's order", 1, CAPS["order"])
            if key == "half":
                _int(piece["tm_order"], "the Taylor-model order", 1, CAPS["order"])
            _mapping(piece["leading_order"], f"the {key} piece's leading orders", _digits,
                     lambda x, w: _int(x, w, 0, CAPS["order"]))
            if "value_at_centre" in piece:
                _rat(piece["value_at_centre"], f"the {key} piece's value at its centre")
    if total > CAPS["all_boxes"]:
        _bad(f"the certificate has {total} boxes and bounds, more than {CAPS['all_boxes']} (the cap)")


def read_hybrid(path: str):
    """The JSON of a hybrid certificate file, read with every cap of
    :func:`symbolic_noise.io.readers.read_json` (a regular file, at most
    ``CAPS["bytes"]`` bytes read from the open file); one-line
    :class:`CertificateFormatError` otherwise."""
    from ...io import readers

    return readers.read_json(path, "the hybrid certificate", CertificateFormatError, CAPS["bytes"])


def bind(c: dict):
    """The game, channel and heap K a (well-shaped) certificate names, rebuilt
    from its specs; anything the hybrid engine does not enclose is refused."""
    from ...errors import SymbolicNoiseError
    from ...games.provenance import channel_from_canonical, game_from_canonical
    from ...games.rulesets import Nim

    try:
        game = game_from_canonical(c["game"])
        channel = channel_from_canonical(c["channel"])
    except SymbolicNoiseError as exc:
        _bad(f"the certificate names no game and channel that can be rebuilt: {' '.join(str(exc).split())[:200]}")
    if type(game) is not Nim:
        _bad(f"the hybrid engine encloses 1-pile Nim only, not {game.describe()[:80]}")
    if channel.key() != "binary":
        _bad(f"the hybrid engine encloses the binary channel only, not {str(channel.key())[:60]}")
    if c["misere"]:
        _bad("the hybrid engine encloses normal play only (misere is false)")
    K = game.k
    if not 1 <= K <= CAPS["K"]:
        _bad(f"the heap {K} is outside [1, {CAPS['K']}] (the cap)")
    if c["position"] != K:
        _bad(f"the position is the heap of the game ({K} chips), not {c['position']}")
    if c["strategies"] != strategies(c["kind"]):
        _bad(f"the strategies of a {c['kind']} certificate are {strategies(c['kind'])}")
    own = {"counterexample": "k", "fairness": "k", "conjecture10": "k", "conjecture9": "K"}.get(c["kind"])
    if own is not None and c[own] != K:
        raise VerificationError(f'"{own}" = {c[own]} is not the heap of the game named ({K})')
    if c["kind"] == "fairness_shared" and c["ks"][1] != K:
        raise VerificationError(f"the batch ends at k = {c['ks'][1]}, not at the heap of the game named ({K})")
    return game, channel, K


def estimate_seconds(c: dict, K: int) -> float:
    """CPU seconds the check of a (well-shaped) certificate about heap K will
    take, from its sizes alone, before any work; fitted to one core of the
    reference machine (docs/hybrid.md, "caps"): a Conjecture 9 box costs about
    5.8 s at K = 256, growing as K^2.2; a binary64 box 2.2 ms at K = 128, a
    Taylor-model box 0.72 s, both as K^2; an exact point 0.12 s at K = 256 and
    p = 99/100, as K^3 and the length of p's text to the power 1.5."""
    kind = c["kind"]
    r128 = (K / 128) ** 2

    def point(k, text):  # the exact pointwise engine at p: 0.12 s for k = 256 and p = 99/100, as k^3 and len(p)^1.5
        return 0.12 * (k / 256) ** 3 * max(1.0, len(text or "") / 6) ** 1.5 + 0.01

    if kind == "counterexample":
        return point(K, c["p"])
    if kind == "fairness":
        return len(c.get("cuts") or ()) * 5e-3 * (K / 64) ** 2 * max(1.0, c["prec"] / 96) + point(K, c["fails_at"]) + point(K, "1")
    if kind == "fairness_shared":
        boxes = len(c["cuts"]) * r128 + sum(len(h.get("local_cuts") or ()) * (h["k"] / 128) ** 2 for h in c["heaps"])
        return boxes * 2.7e-3 + sum(point(h["k"], h.get("fails_at")) + point(h["k"], "1") for h in c["heaps"])
    if kind == "conjecture9":
        box = 5.8 * (K / 256) ** 2.2 * max(1.0, c["prec"] / 128)
        t = (len(c["cuts"]) - 1) * box * (c["order"] / 5) ** 2
        loc = c["local"]
        if loc is not None:
            t += 1.5 * box * (loc["order"] / 6) ** 2 * max(1.0, loc["prec"] / 256)
        return t
    half = c["half"]
    t = len(c["cuts"]) * 2.3e-3 * r128 + 0.75 * r128 * (c["end"]["order"] / 3) ** 2
    if half is not None:
        t += 2.0 * r128 * (half["order"] / 4) ** 2 + len(c["tm_cuts"]) * 0.72 * r128 * (half["tm_order"] / 4) ** 2
    return t


def check_cost(c: dict, K: int, max_seconds=None) -> float:
    """The estimate of :func:`estimate_seconds`, refused over ``max_seconds``
    (default: the cap)."""
    cap = CAPS["seconds"] if max_seconds is None else max_seconds
    t = estimate_seconds(c, K)
    if t > cap:
        _bad(f"checking this certificate would take about {t:.0f} CPU seconds, more than {cap:g} (the cap);"
             f" if its size is expected, allow it with: symbolic-noise verify FILE --max-seconds {int(t * 2) + 10}")
    return t


def envelope(kind: str, K: int, body: dict, statement: str, interval, verdict: str = "holds") -> dict:
    """A certificate of format hybrid/2: the names, then the kind's own keys."""
    from ..._version import __version__

    return {
        "format": FORMAT, "kind": kind, "method": "hybrid", "software": f"symbolic_noise {__version__}",
        "game": {"family": "nim", "param": str(K)}, "position": K, "channel": {"name": "binary"},
        "misere": False, "strategies": strategies(kind), "interval": [str(x) for x in interval],
        "statement": statement, "verdict": verdict, **body,
    }
