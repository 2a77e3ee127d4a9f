"""Games by name: the words the command line (and scripts) use for games.

=====================  ==========================================================
``nim K``              1-pile Nim of K chips (moves named by the chips left)
``nim K1,K2,...``      multi-pile Nim (a comma, or ``+``, makes it multi-pile)
``chomp RxC``          Chomp on an R x C bar
``kayles H``           Kayles (octal 0.77) on heaps H (``6`` or ``2,3`` or ``2+3``)
``dawson-kayles H``    octal 0.07
``dawson-chess H``     octal 0.137
``lasker H``           Lasker's Nim
``grundy H``           Grundy's game
``octal:CODE H``       any octal code, e.g. ``octal:0.137`` or ``octal:4.3``
``CODE H``             a bare code: ``0.137 6``
``hex:CODE H``         a hexadecimal code (also ``0xCODE``)
``subtraction:S H``    the subtraction game with set S, e.g. ``subtraction:1,2,3``
=====================  ==========================================================

Examples
--------
>>> game_from_spec("nim", "5"), game_from_spec("nim", "2,3")
(<Nim 1-pile Nim, k = 5>, <MultiNim multi-pile Nim, heaps 2+3>)
>>> game_from_spec("chomp", "2x3").describe()
'Chomp, 2 x 3 bar'
>>> game_from_spec("octal:0.137", "6").describe()
"Dawson's Chess (octal 0.137), heaps 6"
>>> game_from_spec("chess", "8")
Traceback (most recent call last):
...
symbolic_noise.errors.UnknownGameError: unknown game 'chess' (known: nim, chomp, kayles, dawson-kayles, dawson-chess, lasker, grundy, octal:CODE, hex:CODE, subtraction:S, or a bare code like 0.137)
"""

from __future__ import annotations

import math

from ..errors import GameParameterError, UnknownGameError, did_you_mean
from .rulesets import Chomp, Game, Nim
from .heapgames import HeapGame, MultiNim, NimRules, heap_rules_from_spec, parse_heaps

#: name -> what its parameter is (for help texts)
FAMILIES = {
    "nim": "K (1-pile Nim) or K1,K2,... (multi-pile Nim)",
    "chomp": "ROWSxCOLS (e.g. 2x3)",
    "kayles": "heaps (octal 0.77)",
    "dawson-kayles": "heaps (octal 0.07)",
    "dawson-chess": "heaps (octal 0.137)",
    "lasker": "heaps (Lasker's Nim)",
    "grundy": "heaps (Grundy's game)",
    "octal:CODE": "heaps (CODE like 0.137 or 4.3)",
    "hex:CODE": "heaps (hexadecimal CODE, also written 0xCODE)",
    "subtraction:S": "heaps (S like 1,2,3)",
}


#: largest heap the command line accepts (1-pile Nim has k + 1 positions and k^2 channel entries)
MAX_HEAP = 16_384
#: most positions a game named on the command line may have (binomial(rows + cols, rows)
#: for Chomp, the product of (h + 1) for heaps that do not split)
MAX_POSITIONS = 5_000_000


def _whole(text: str) -> int | None:
    """A whole number written in ASCII digits, or ``None``; long ones are read as
    just beyond every cap (they are refused by the caller's range check)."""
    text = text.strip()
    if not text.isdigit() or not text.isascii():
        return None
    return int(text) if len(text) <= 12 else 10**12


def parse_board(text: str) -> tuple[int, int]:
    """``"2x3"`` -> ``(2, 3)``; anything else is a GameParameterError.

    >>> parse_board("13x13")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.GameParameterError: a 13 x 13 Chomp board has more than 5000000 positions (the cap)
    """
    parts = text.lower().replace("×", "x").split("x")
    sides = [_whole(x) for x in parts]
    if len(sides) != 2 or sides[0] is None or sides[1] is None:
        raise GameParameterError(f"a Chomp board is written ROWSxCOLS (e.g. 2x3), not {text!r}")
    rows, cols = sides[0], sides[1]
    if rows < 1 or cols < 1:
        raise GameParameterError(f"a Chomp board needs at least one row and one column, not {text!r}")
    if max(rows, cols) > MAX_POSITIONS or math.comb(rows + cols, min(rows, cols)) > MAX_POSITIONS:
        raise GameParameterError(
            f"a {parts[0].strip()} x {parts[1].strip()} Chomp board has more than {MAX_POSITIONS} positions (the cap)"
        )
    return rows, cols


def parse_heap(text: str) -> int:
    """``"5"`` -> ``5``: one heap of chips (at most :data:`MAX_HEAP`)."""
    text = text.strip()
    if text.startswith("-") and text[1:].strip().isdigit():
        raise GameParameterError(f"a Nim heap cannot be negative ({text})")
    k = _whole(text)
    if k is None:
        raise GameParameterError(f"a Nim heap is a whole number of chips, not {text!r}")
    if k > MAX_HEAP:
        raise GameParameterError(f"a heap of {text[:20]}{'...' if len(text) > 20 else ''} is larger than the cap of {MAX_HEAP}")
    return k


def _check_heap(k: int) -> int:
    if k > MAX_HEAP:
        raise GameParameterError(f"a heap of {k} is larger than the cap of {MAX_HEAP}")
    return k


def _check_heaps(heaps: tuple) -> tuple:
    for h in heaps:
        _check_heap(h)
    if math.prod(h + 1 for h in heaps) > MAX_POSITIONS:
        raise GameParameterError(f"the heaps {heaps} have more than {MAX_POSITIONS} positions (the cap)")
    return heaps


def game_from_spec(name: str, arg: str | None) -> Game:
    """The game named by the words ``name`` and ``arg`` (see the module docstring)."""
    word = name.strip()
    family = word.lower()
    if family == "chomp":
        if arg is None:
            raise GameParameterError("chomp needs a board, e.g. chomp 2x3")
        return Chomp(*parse_board(arg))
    try:
        rules = heap_rules_from_spec(word)
    except UnknownGameError:
        hint = did_you_mean(word, [n for n in FAMILIES if ":" not in n])
        raise UnknownGameError(
            f"unknown game {name!r}{hint} (known: {', '.join(n for n in FAMILIES)}, or a bare code like 0.137)"
        ) from None
    if arg is None:
        raise GameParameterError(f"{name} needs heaps, e.g. {name} 5 or {name} 2,3")
    if isinstance(rules, NimRules):
        if "," not in arg and "+" not in arg:
            return Nim(parse_heap(arg))
        return MultiNim(_check_heaps(parse_heaps(arg)))
    return HeapGame(rules, _check_heaps(parse_heaps(arg)))


def default_channel_name(game: Game) -> str:
    """The channel used when none is named: the paper's king channel for Chomp,
    its binary channel for Nim and for every other heap game (octal,
    hexadecimal, subtraction, Lasker, Grundy: the move sent as the heaps it
    leaves, written in binary, docs/games.md), uniform for anything else.

    The binary channel is the default for heap games because the first thing a
    user sees then depends on p: through the uniform channel a game's value
    is one constant (``solve kayles 5`` was a single piece, and Lemma 7 makes
    many positions worth exactly 1/2).

    >>> from symbolic_noise.games.registry import game_from_spec
    >>> [default_channel_name(game_from_spec(*g)) for g in [("nim", "5"), ("chomp", "2x3"), ("kayles", "5")]]
    ['binary', 'king', 'binary']
    """
    if game.name == "chomp":
        return "king"
    if game.name in ("nim", "multinim") or isinstance(game, HeapGame):
        return "binary"
    return "uniform"
