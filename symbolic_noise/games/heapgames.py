"""Heap games: octal and hexadecimal games, subtraction games, Lasker's Nim,
Grundy's game and multi-pile Nim, as games of the package.

A *ruleset* (:class:`HeapRules`) says what a move may do to one heap; a
:class:`HeapGame` plays it on a multiset of heaps.  Positions are sorted tuples
of heap sizes; **empty heaps are dropped** (a heap of 0 chips is no heap), so
``(2, 3)``, ``(3, 2)`` and ``(0, 2, 3)`` are the same position ``(2, 3)`` and
the terminal position of every heap game is ``()``.

A move picks one heap ``h`` and replaces it by a *remainder*: nothing, one
smaller heap, or several non-empty heaps.  It is named by a string: ``"7->4"``
(heap 7 becomes 4), ``"3->0"`` (heap 3 is taken away) and ``"5->1+2"`` (heap 5
becomes heaps 1 and 2, smallest first).  Equal heaps give the same position, so
a position has one follower, and one name, per distinct move.

Take-and-break codes (Winning Ways, chapter 4): in ``"0.d1d2d3..."`` digit
``dk`` is a sum of 1 (taking ``k`` may leave no heap), 2 (may leave one smaller
heap), 4 (may leave two non-empty heaps); a whole part ``"4."`` lets a heap be
split in two without taking.  **Hexadecimal codes carry the prefix ``0x``**
(``"0x0.F"``, ``"0x4.8"``) and add the digit value 8 (may leave three
non-empty heaps); a code without the prefix is octal, and a digit 8 or 9 there
is an error.  Codes are normalised as CGSuite does: ``"04.30"`` is ``"4.3"``.

Examples
--------
>>> g = OctalGame("0.77", 4)                        # Kayles
>>> [g.move_label((4,), w) for w in g.followers((4,))]
['4->2', '4->1+1', '4->3', '4->1+2']
>>> OctalRules("04.30").code, OctalRules("0x.f").code
('4.3', '0x0.F')
>>> MultiNim((7, 2, 5, 3)).start()
(2, 3, 5, 7)
>>> OctalGame("0.77", (2, 3)).describe()
'Kayles (octal 0.77), heaps 2+3'
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

from . import rulesets as games
from ..errors import GameParameterError, UnknownGameError
from .rulesets import Game

Heaps = tuple  # a position: sorted tuple of positive heap sizes


def _size(value, what: str, minimum: int) -> int:
    """``value`` as an int >= ``minimum``, else GameParameterError."""
    if isinstance(value, bool) or not isinstance(value, int):
        if not hasattr(value, "__index__"):
            raise GameParameterError(f"{what} must be a whole number, not {value!r}")
        value = value.__index__()
    if value < minimum:
        raise GameParameterError(f"{what} must be >= {minimum}, not {value}")
    return int(value)


# --------------------------------------------------------------------------- rulesets


@dataclass(frozen=True)
class HeapOptions:
    """The moves from one heap, grouped by what they leave (for nim-values).

    ``empty``: the heap may be taken away; ``one``: sizes of the single smaller
    heap that may be left; ``two`` / ``three``: totals ``s`` such that the heap
    may be left as any two / three non-empty heaps summing to ``s``
    (``two_unequal``: only two *different* heaps, as in Grundy's game).

    >>> OctalRules("0.137").options(5)      # take 2 leaving 3; take 3 leaving 2 or 1+1
    HeapOptions(empty=False, one=(3, 2), two=(2,), two_unequal=False, three=())
    """

    empty: bool = False  #: whether the whole heap may be taken away
    one: tuple | range = ()  #: the sizes of the one smaller heap a move may leave
    two: tuple = ()  #: the totals ``s`` such that the heap may be left as two non-empty heaps summing to ``s``
    two_unequal: bool = False  #: whether the two heaps must differ (Grundy's game)
    three: tuple = ()  #: the totals ``s`` such that the heap may be left as three non-empty heaps summing to ``s``


class HeapRules(abc.ABC):
    """What a move may do to one heap (a ruleset, separate from positions)."""

    #: family name (the command line's word and :attr:`Game.name`)
    name: str = "heaps"
    #: the largest number of chips one move takes, ``None`` if unbounded
    #: (the ``t`` of the periodicity theorem)
    max_removal: int | None = None
    #: the most heaps one move can leave in place of one heap
    max_heaps: int = 1

    def __init__(self):
        self._remainders: dict[int, tuple] = {}

    def key(self) -> str:
        """A canonical string naming the ruleset with its parameters (the
        family name for a ruleset without parameters)."""
        return self.name

    @abc.abstractmethod
    def describe(self) -> str:
        """A human name, e.g. ``"Kayles (octal 0.77)"``."""

    @abc.abstractmethod
    def options(self, h: int) -> HeapOptions:
        """The moves from a heap of ``h`` chips, grouped (see :class:`HeapOptions`)."""

    @abc.abstractmethod
    def iter_remainders(self, h: int):
        """Every remainder of a heap of ``h`` chips, straight from the rules
        (uncached, in no particular order, possibly unsorted tuples)."""

    def remainders(self, h: int) -> tuple:
        """The remainders a heap of ``h`` chips can become: sorted tuples of
        positive sizes (``()`` = taken away), chips left ascending.

        >>> LaskerRules().remainders(3)
        ((), (1,), (2,), (1, 2))
        """
        out = self._remainders.get(h)
        if out is None:
            seen = dict.fromkeys(tuple(sorted(r)) for r in self.iter_remainders(h))
            out = tuple(sorted(seen, key=lambda r: (sum(r), len(r), r)))
            self._remainders[h] = out
        return out

    def __eq__(self, other):
        return isinstance(other, HeapRules) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key()}>"


class NimRules(HeapRules):
    """Nim: take any positive number of chips from one heap (octal 0.333...).

    >>> NimRules().remainders(3)
    ((), (1,), (2,))
    """

    name = "nim"

    def describe(self) -> str:
        return "Nim"

    def options(self, h: int) -> HeapOptions:
        return HeapOptions(empty=h > 0, one=range(1, h))

    def iter_remainders(self, h):
        if h > 0:
            yield ()
        for r in range(1, h):
            yield (r,)


class LaskerRules(HeapRules):
    """Lasker's Nim: take any positive number from a heap, or split a heap into
    two non-empty heaps (G(4j+3) = 4j+4, G(4j+4) = 4j+3, else G(n) = n).

    >>> LaskerRules().remainders(4)
    ((), (1,), (2,), (3,), (1, 3), (2, 2))
    """

    name = "lasker"
    max_heaps = 2

    def describe(self) -> str:
        return "Lasker's Nim"

    def options(self, h: int) -> HeapOptions:
        return HeapOptions(empty=h > 0, one=range(1, h), two=(h,) if h >= 2 else ())

    def iter_remainders(self, h):
        if h > 0:
            yield ()
        for r in range(1, h):
            yield (r,)
        for a in range(1, h // 2 + 1):
            yield (a, h - a)


class GrundyRules(HeapRules):
    """Grundy's game: split a heap into two unequal non-empty heaps (not octal).

    >>> GrundyRules().remainders(6)
    ((1, 5), (2, 4))
    """

    name = "grundy"
    max_heaps = 2

    def describe(self) -> str:
        return "Grundy's game"

    def options(self, h: int) -> HeapOptions:
        return HeapOptions(two=(h,) if h >= 3 else (), two_unequal=True)

    def iter_remainders(self, h):
        for a in range(1, (h + 1) // 2):
            yield (a, h - a)


class SubtractionRules(HeapRules):
    """The subtraction game S: take ``s`` chips from one heap, ``s`` in the finite
    set ``S`` (the octal game with digit 3 at every place of S).

    >>> SubtractionRules({3, 1, 2}).key(), SubtractionRules([1, 2, 3]).remainders(5)
    ('subtraction:1,2,3', ((2,), (3,), (4,)))
    """

    name = "subtraction"

    def __init__(self, subtraction_set):
        super().__init__()
        try:
            values = [_size(s, "an element of the subtraction set", 1) for s in subtraction_set]
        except TypeError:
            raise GameParameterError(f"a subtraction set is a set of positive integers, not {subtraction_set!r}") from None
        if not values:
            raise GameParameterError("the subtraction set must not be empty")
        self.subtraction_set = tuple(sorted(set(values)))
        self.max_removal = self.subtraction_set[-1]

    def key(self) -> str:
        return "subtraction:" + ",".join(map(str, self.subtraction_set))

    def describe(self) -> str:
        return "subtraction game S = {" + ",".join(map(str, self.subtraction_set)) + "}"

    def options(self, h: int) -> HeapOptions:
        return HeapOptions(
            empty=h in self.subtraction_set,
            one=tuple(h - s for s in reversed(self.subtraction_set) if s < h),
        )

    def iter_remainders(self, h):
        for s in self.subtraction_set:
            if s == h:
                yield ()
            elif s < h:
                yield (h - s,)


#: octal (and hexadecimal) games known by name
OCTAL_NAMES = {
    "kayles": ("0.77", "Kayles"),
    "dawson-kayles": ("0.07", "Dawson's Kayles"),
    "dawson-chess": ("0.137", "Dawson's Chess"),
}
_OCTAL_TITLES = {code: title for code, title in OCTAL_NAMES.values()}


def normalise_code(code: str) -> tuple[str, tuple[int, ...], int]:
    """The normal form of a take-and-break code, its digits ``d0, d1, ...``
    and its base (8, or 16 for a ``0x`` code).

    Leading zeros of the whole part and trailing zeros of the fraction go
    (``"04.30"`` is ``"4.3"``); the whole part ``d0`` may only be 0 or 4 (and 8
    or 12 in base 16): a heap can be split without taking, but not left alone.

    >>> normalise_code("04.30")
    ('4.3', (4, 3), 8)
    >>> normalise_code("0x0.f4")
    ('0x0.F4', (0, 15, 4), 16)
    >>> normalise_code("0.8")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.GameParameterError: '8' is not an octal digit in the code '0.8' (hexadecimal codes start with 0x, e.g. 0x0.8)
    """
    if not isinstance(code, str) or not code.strip():
        raise GameParameterError(f"an octal code is written like 0.137 or 4.3, not {code!r}")
    text = code.strip()
    base = 8
    if text[:2].lower() == "0x":
        base, text = 16, text[2:]
    kind = "octal" if base == 8 else "hexadecimal"
    whole, point, frac = text.partition(".")
    if not point or "." in frac or not (whole + frac):
        raise GameParameterError(f"{code!r} is not an {kind} code: it is written like 0.137, .77 or 4.3")
    head = whole.lstrip("0")
    if len(head) > 1:
        raise GameParameterError(f"the whole part of {code!r} must be one digit (0 or 4)")
    digits = [head or "0"] + list(frac.rstrip("0"))
    values = []
    for ch in digits:
        try:
            if not (ch.isascii() and ch.isalnum()):
                raise ValueError(ch)
            d = int(ch, base)
        except ValueError:
            hint = f" (hexadecimal codes start with 0x, e.g. 0x{text})" if base == 8 and ch.lower() in "89abcdef" else ""
            raise GameParameterError(f"{ch!r} is not an {kind} digit in the code {code!r}{hint}") from None
        values.append(d)
    if values[0] & 3:
        allowed = "0 or 4" if base == 8 else "0, 4, 8 or C"
        raise GameParameterError(
            f"the whole part of {code!r} must be {allowed}: a move must take chips or split a heap"
        )
    body = "".join("0123456789ABCDEF"[d] for d in values[1:]) or "0"
    normal = ("0x" if base == 16 else "") + "0123456789ABCDEF"[values[0]] + "." + body
    return normal, tuple(values), base


class OctalRules(HeapRules):
    """The take-and-break game of an octal or ``0x`` hexadecimal code.

    Digit ``dk`` (``k >= 1``) allows taking ``k`` chips from a heap, leaving:
    no heap (bit 1, only if the heap had exactly ``k``), one non-empty heap
    (bit 2), two non-empty heaps (bit 4), three non-empty heaps (bit 8,
    hexadecimal).  ``d0`` (the whole part) allows the same without taking.

    >>> r = OctalRules("0.137")
    >>> r.describe(), r.max_removal, r.max_heaps
    ("Dawson's Chess (octal 0.137)", 3, 2)
    >>> r.remainders(5)               # take 3 leaving 2 or 1+1, take 2 leaving 3
    ((2,), (1, 1), (3,))
    """

    name = "octal"

    def __init__(self, code: str):
        super().__init__()
        self.code, self.digits, self.base = normalise_code(code)
        nonzero = [k for k, d in enumerate(self.digits) if d]
        self.max_removal = nonzero[-1] if nonzero else 0
        self.max_heaps = max([1] + [(3 if d & 8 else 2 if d & 4 else 1) for d in self.digits])

    def key(self) -> str:
        return "octal:" + self.code

    def describe(self) -> str:
        kind = "octal" if self.base == 8 else "hexadecimal"
        title = _OCTAL_TITLES.get(self.code)
        return f"{title} ({kind} {self.code})" if title else f"{kind} game {self.code}"

    def options(self, h: int) -> HeapOptions:
        empty, one, two, three = False, [], [], []
        for k, d in enumerate(self.digits[: h + 1]):
            rest = h - k
            empty |= bool(d & 1) and rest == 0
            if d & 2 and rest >= 1:
                one.append(rest)
            if d & 4 and rest >= 2:
                two.append(rest)
            if d & 8 and rest >= 3:
                three.append(rest)
        return HeapOptions(empty, tuple(one), tuple(two), False, tuple(three))

    def iter_remainders(self, h):
        for k, d in enumerate(self.digits):
            rest = h - k
            if rest < 0:
                break
            if d & 1 and rest == 0:
                yield ()
            if d & 2 and rest >= 1:
                yield (rest,)
            if d & 4:
                yield from ((a, rest - a) for a in range(1, rest // 2 + 1))
            if d & 8:
                for a in range(1, rest // 3 + 1):
                    yield from ((a, b, rest - a - b) for b in range(a, (rest - a) // 2 + 1))


# --------------------------------------------------------------------------- positions


def heaps_position(value) -> Heaps:
    """A heap position from an int or an iterable of sizes: sorted, zeros dropped.

    >>> heaps_position([3, 0, 2]), heaps_position(5), heaps_position(0)
    ((2, 3), (5,), ())
    """
    if isinstance(value, str):
        return parse_heaps(value)
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    try:
        sizes = [_size(h, "a heap size", 0) for h in value]
    except TypeError:
        raise GameParameterError(f"a heap position is a list of heap sizes, not {value!r}") from None
    return tuple(sorted(h for h in sizes if h))


def parse_heaps(text: str) -> Heaps:
    """Heaps written ``2,3``, ``2+3``, ``[2,3]``, ``(2,3)`` or ``5``.

    >>> parse_heaps("7, 2,5,3"), parse_heaps("2+3"), parse_heaps("()")
    ((2, 3, 5, 7), (2, 3), ())
    """
    try:
        sizes = games.whole_list(text, "heaps", ",+")
    except GameParameterError:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise GameParameterError(f"heaps are written as sizes like 2,3 (or 2+3), not {shown!r}") from None
    return heaps_position(sizes)


def move_name(h: int, remainder: tuple) -> str:
    """The name of the move turning heap ``h`` into ``remainder``.

    >>> move_name(7, (4,)), move_name(3, ()), move_name(5, (1, 2))
    ('7->4', '3->0', '5->1+2')
    """
    return f"{h}->" + ("+".join(map(str, remainder)) if remainder else "0")


class HeapGame(Game):
    """A heap ruleset played on a multiset of heaps (positions: sorted tuples).

    Followers come heap size by heap size (ascending), and for one heap in the
    order of :meth:`HeapRules.remainders`.

    **Binary channel** (theory.md 3.4 leaves the encoding open; this is the
    choice made here).  A move is transmitted as the *resulting position*,
    written in the slots of the current position ``v = (h_1 <= ... <= h_k)``:
    slot ``i`` holds heap ``h_i``; the heap that moves keeps its slot for the
    largest heap it leaves (0 if it leaves none), and any further heaps it
    leaves go, largest first, into extra slots appended after slot ``k`` (as
    many as the largest remainder at ``v`` needs; unused ones hold 0).  Among
    equal heaps the one that moves is the first.  Every slot is written in
    binary with the number of digits of the largest *starting* heap, slot 1
    most significant, and the slots are concatenated.  Every digit flips
    independently with probability p, and the received code is renormalised
    over the legal followers (the :class:`~symbolic_noise.games.channels.BinaryChannel`).
    Heaps already emptied before ``v`` are not written: padding them with 0
    would add digits that every legal code shares, which leaves psi unchanged;
    so does a wider slot.  Distinct followers get distinct codes, because a code
    lists the heaps of its follower.  For one heap this is 1-pile Nim's
    encoding (chips left).  Another encoding plugs in as
    ``BinaryChannel(encoding=callable)``.

    >>> g = MultiNim((2, 3))
    >>> [g.move_label((2, 3), w) for w in g.followers((2, 3))]
    ['2->0', '2->1', '3->0', '3->1', '3->2']
    >>> g.binary_encoding((2, 3))        # codes 00 11, 01 11, 10 00, 10 01, 10 10
    (4, (3, 7, 8, 9, 10))
    """

    def __init__(self, rules: HeapRules, heaps):
        if not isinstance(rules, HeapRules):
            raise GameParameterError(f"a heap game needs a HeapRules ruleset, not {rules!r}")
        self.rules = rules
        self.name = rules.name
        self.heaps = heaps_position(heaps)
        self._moves: dict = {}

    def start(self) -> Heaps:
        return self.heaps

    def moves(self, v: Heaps) -> tuple:
        """``(follower, heap, remainder)`` for every move at ``v``, in follower order."""
        out = self._moves.get(v)
        if out is None:
            found = {}
            for i, h in enumerate(v):
                if i and v[i - 1] == h:
                    continue
                rest = v[:i] + v[i + 1:]
                for r in self.rules.remainders(h):
                    w = tuple(sorted(rest + r))
                    found.setdefault(w, (w, h, r))
            out = tuple(found.values())
            self._moves[v] = out
        return out

    def followers(self, v: Heaps) -> tuple:
        return tuple(w for w, _, _ in self.moves(v))

    def move_label(self, v: Heaps, w: Heaps) -> str:
        for u, h, r in self.moves(v):
            if u == w:
                return move_name(h, r)
        raise GameParameterError(f"{self.position_label(w)} is not a follower of {self.position_label(v)}")

    def key(self) -> str:
        return self.rules.key()

    def describe(self) -> str:
        return f"{self.rules.describe()}, heaps {self.position_label(self.heaps)}"

    def position_label(self, v) -> str:
        return "+".join(map(str, v)) if v else "0"

    def check_position(self, v) -> Heaps:
        return heaps_position(v)

    def check_reachable(self, v: Heaps) -> Heaps:
        """``v`` if it can arise from the start heaps, else GameParameterError.

        No move makes a heap larger or adds chips.  A ruleset that never splits
        a heap (Nim, subtraction games, octal codes without 4 or 8 digits) only
        shrinks heaps or removes them, so the heaps of ``v`` must fit under
        distinct start heaps (largest under largest): for Nim that test is
        exact.  A ruleset that splits needs at most the start's chips and no
        heap larger than the start's largest.

        >>> MultiNim((2, 5)).check_reachable((1, 5)), MultiNim((2, 5)).check_reachable((4,))
        ((1, 5), (4,))
        >>> MultiNim((2, 5)).check_reachable((3, 3))
        Traceback (most recent call last):
        ...
        symbolic_noise.errors.GameParameterError: heaps 3+3 cannot be reached from the start 2+5 of multi-pile Nim, heaps 2+5: no heap grows, and 3+3 does not fit under the start's heaps
        """
        start = self.heaps
        head = f"heaps {self.position_label(v)} cannot be reached from the start {self.position_label(start)} of {self.describe()}"
        if self.rules.max_heaps == 1:
            if len(v) > len(start) or any(h > s for h, s in zip(sorted(v, reverse=True), sorted(start, reverse=True))):
                raise GameParameterError(f"{head}: no heap grows, and {self.position_label(v)} does not fit under the start's heaps")
        elif sum(v) > sum(start) or max(v, default=0) > max(start, default=0):
            raise GameParameterError(f"{head}: no move adds chips or makes a heap larger than the start's largest")
        return v

    def parse_position(self, text: str) -> Heaps:
        if not isinstance(text, str) or not text.strip():
            raise GameParameterError("a heap position is written like 2,3 (0 or () for no heap), not an empty word")
        return self.check_reachable(parse_heaps(text))

    def binary_encoding(self, v: Heaps) -> tuple[int, tuple[int, ...]]:
        """Width and codes of the moves at ``v`` (see the class docstring)."""
        moves = self.moves(v)
        digits = max(max(self.heaps, default=0), max(v, default=0)).bit_length() or 1
        extra = max((len(r) - 1 for _, _, r in moves), default=0)
        slots = len(v) + max(extra, 0)
        first = {}
        for i, h in enumerate(v):
            first.setdefault(h, i)
        codes = []
        for _, h, r in moves:
            cells = list(v) + [0] * (slots - len(v))
            left = sorted(r, reverse=True)
            cells[first[h]] = left[0] if left else 0
            cells[len(v):len(v) + len(left) - 1] = left[1:]
            code = 0
            for c in cells:
                code = (code << digits) | c
            codes.append(code)
        return digits * slots, tuple(codes)


class MultiNim(HeapGame):
    """Multi-pile Nim: take any positive number of chips from one heap.

    >>> g = MultiNim((1, 2))
    >>> g.followers((1, 2)), g.describe()
    (((2,), (1,), (1, 1)), 'multi-pile Nim, heaps 1+2')
    """

    name = "multinim"

    def __init__(self, heaps):
        super().__init__(NimRules(), heaps)
        self.name = "multinim"

    def describe(self) -> str:
        return f"multi-pile Nim, heaps {self.position_label(self.heaps)}"


class OctalGame(HeapGame):
    """An octal (or ``0x`` hexadecimal) game on the given heaps.

    >>> OctalGame("0.137", 6).describe()
    "Dawson's Chess (octal 0.137), heaps 6"
    """

    def __init__(self, code: str, heaps):
        super().__init__(OctalRules(code), heaps)


class SubtractionGame(HeapGame):
    """The subtraction game with the finite set ``S`` on the given heaps.

    >>> SubtractionGame({1, 2, 3}, 10).key()
    'subtraction:1,2,3'
    """

    def __init__(self, subtraction_set, heaps):
        super().__init__(SubtractionRules(subtraction_set), heaps)


class LaskersNim(HeapGame):
    """Lasker's Nim on the given heaps.

    >>> LaskersNim(3).followers((3,))
    ((), (1,), (2,), (1, 2))
    """

    def __init__(self, heaps):
        super().__init__(LaskerRules(), heaps)


class GrundysGame(HeapGame):
    """Grundy's game on the given heaps.

    >>> GrundysGame(4).followers((4,))
    ((1, 3),)
    """

    def __init__(self, heaps):
        super().__init__(GrundyRules(), heaps)


# --------------------------------------------------------------------------- by name


def _looks_like_code(word: str) -> bool:
    return word[:1] in "0123456789." and word[:1] != ""


def heap_rules_from_spec(spec) -> HeapRules:
    """A heap ruleset from a word: ``nim``, ``kayles``, ``dawson-kayles``,
    ``dawson-chess``, ``lasker``, ``grundy``, ``subtraction:1,2,3``,
    ``octal:0.137`` or a bare code ``0.137``, ``hex:0.F`` or ``0x0.F``.

    >>> heap_rules_from_spec("dawson-chess").key(), heap_rules_from_spec("hex:4.8").key()
    ('octal:0.137', 'octal:0x4.8')
    >>> heap_rules_from_spec("chess")
    Traceback (most recent call last):
    ...
    symbolic_noise.errors.UnknownGameError: unknown heap game 'chess' (known: nim, kayles, dawson-kayles, dawson-chess, lasker, grundy, octal:CODE, hex:CODE, subtraction:S, or a code like 0.137)
    """
    if isinstance(spec, HeapRules):
        return spec
    if isinstance(spec, HeapGame):
        return spec.rules
    if isinstance(spec, games.Nim):
        return NimRules()
    if not isinstance(spec, str):
        raise UnknownGameError(f"a heap game is named by a word like kayles or 0.137, not {spec!r}")
    word = spec.strip()
    family, colon, param = word.partition(":")
    family = family.lower()
    if not colon:
        if family in OCTAL_NAMES:
            return OctalRules(OCTAL_NAMES[family][0])
        simple = {"nim": NimRules, "lasker": LaskerRules, "grundy": GrundyRules}.get(family)
        if simple is not None:
            return simple()
        if _looks_like_code(word):
            return OctalRules(word)
    elif family == "octal":
        return OctalRules(param)
    elif family == "hex":
        return OctalRules("0x" + param.strip())
    elif family == "subtraction":
        from ..exact.formula import parse_whole

        pieces = [s.strip() for s in param.strip("{} ").split(",") if s.strip()]
        try:
            return SubtractionRules(parse_whole(s, "an element of the subtraction set", None, None, GameParameterError) for s in pieces)
        except GameParameterError:
            raise GameParameterError(f"a subtraction set is written like subtraction:1,2,3, not {word!r}") from None
    raise UnknownGameError(
        f"unknown heap game {spec!r} (known: nim, kayles, dawson-kayles, dawson-chess, lasker, grundy,"
        " octal:CODE, hex:CODE, subtraction:S, or a code like 0.137)"
    )
