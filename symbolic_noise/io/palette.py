"""The look of a move in every figure: one colour per move, the same in the
value plot, its ribbon, the atlas and the phase diagram, and a hatching (or,
for a curve, a dash pattern) once the colours run out.

A move's look is a function of the move alone (:func:`move_style`), never of
the order in which a figure meets it, so move 0 of 1-pile Nim is orange in
every figure.  The move is first given an index (:func:`move_index`):

* an integer move (1-pile Nim: the heap left) is its own index;
* a heap move ``h->h'`` that leaves one heap, or its atlas name ``take s``,
  has index ``s - 1`` (the same look for the same take at every heap size);
* a Chomp square ``(i, j)`` is numbered along the anti-diagonals
  ``(1,1), (1,2), (2,1), (1,3), (2,2), (3,1), ...``, which does not depend on
  the board's size;
* any other move (a Kayles split ``5->2+2``, a move of several heaps) gets
  one of the sixteen colours from a checksum of its name.

Index ``i`` has the colour ``PALETTE[i % 16]`` and the hatching
``HATCHES[i // 16]``: 16 colours times 8 hatchings are 128 distinct looks.  A
set of several tied moves has the colour of its first move and a cross
hatching of its own.  Within one figure, :class:`MoveColours` guarantees that
no two optimal-move sets look the same (a collision, beyond 128 looks or
between checksums, keeps the move's colour with the next free hatching), so a
reader can always tell two regions apart; legends list the sets in move order
(:func:`set_order`).

* :data:`PALETTE` is Okabe and Ito's eight colours (*Color Universal Design*,
  2002) without black, followed by Paul Tol's "muted" scheme (2021): both are
  designed to stay distinct under the common colour-vision deficiencies.

Examples
--------
>>> move_style(0), move_style(16)
(Style(face='#E69F00', hatch=''), Style(face='#E69F00', hatch='////'))
>>> move_style("take 1") == move_style("7->6") == move_style(0)
True
>>> sorted([10, 2, 0, "take 3", (1, 2)], key=move_order)
[0, 2, 10, 'take 3', (1, 2)]
"""

from __future__ import annotations

import re
import zlib
from typing import Any, Iterable, NamedTuple, Sequence

#: Okabe–Ito (orange, sky blue, bluish green, yellow, blue, vermillion, reddish
#: purple), then Tol's muted (indigo, cyan, teal, green, olive, sand, rose, wine, purple)
PALETTE = (
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7",
    "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499",
)
#: the colour of "no move" (a terminal position)
OTHER = "#BBBBBB"
#: hatchings of single moves, by ``index // len(PALETTE)`` (dense, since atlas rows are thin)
HATCHES = ("", "////", "\\\\\\\\", "....", "----", "||||", "oo", "**")
#: hatchings of a set of tied moves (on the colour of its first move), tried in turn
TIE_HATCHES = ("xxxx", "++++", "xx", "++", "x..", "+..", "xxxx..", "++++..")
#: dash patterns of a move's curve, by ``index // len(PALETTE)`` (a curve cannot be hatched)
DASHES: tuple[Any, ...] = ("-", "--", ":", "-.", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 3)), (0, (8, 3)), (0, (3, 1, 1, 1)))
#: how many looks single moves cycle through before repeating
LOOKS = len(PALETTE) * len(HATCHES)

_HEAP_MOVE = re.compile(r"^(\d+)->(\d+)$")
_TAKE = re.compile(r"^take (\d+)$")


class Style(NamedTuple):
    """How a region of a move (or a set of moves) is drawn: face colour and hatching."""

    face: str
    """The fill colour, the move's own (a hex string)."""
    hatch: str
    """The matplotlib hatch pattern, empty while colours last."""

    @property
    def hatch_colour(self) -> str:
        """Black on light faces, white on dark ones, so the hatching shows on both."""
        return hatch_colour(self.face)


def hatch_colour(face: str) -> str:
    """``"black"`` or ``"white"``, whichever shows better on ``face``.

    >>> hatch_colour("#F0E442"), hatch_colour("#332288")
    ('black', 'white')
    """
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(face)
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "white"


def _take(move) -> int | None:
    """The number taken by a move that leaves one heap (``"5->3"``, ``"take 2"``), else ``None``."""
    if not isinstance(move, str):
        return None
    m = _HEAP_MOVE.match(move.strip())
    if m:
        return int(m.group(1)) - int(m.group(2))
    m = _TAKE.match(move.strip())
    return int(m.group(1)) if m else None


def move_index(move) -> int:
    """The move's place in the palette (see the module docstring).

    >>> move_index(5), move_index("take 2"), move_index("9->7"), move_index((1, 1)), move_index((2, 2))
    (5, 1, 1, 0, 4)
    """
    if isinstance(move, bool):
        return int(move)
    if isinstance(move, int) and move >= 0:
        return move
    s = _take(move)
    if s is not None and s >= 1:
        return s - 1
    if isinstance(move, tuple) and len(move) == 2 and all(isinstance(x, int) and x >= 1 for x in move):
        i, j = move
        d = i + j - 2
        return d * (d + 1) // 2 + (i - 1)
    return zlib.crc32(repr(move).encode()) % len(PALETTE)  # (a colour without hatching)


def move_style(move) -> Style:
    """The look of one move, the same in every figure."""
    i = move_index(move) % LOOKS
    return Style(PALETTE[i % len(PALETTE)], HATCHES[i // len(PALETTE)])


def move_colour(move) -> str:
    """The colour of one move, the same in every figure.

    >>> move_colour(0), move_colour(7)
    ('#E69F00', '#332288')
    """
    return move_style(move).face


def move_dashes(move):
    """The dash pattern of a move's curve (solid for the first 16 indices)."""
    return DASHES[(move_index(move) % LOOKS) // len(PALETTE)]


def move_order(move) -> tuple:
    """A sort key: integer moves numerically, then takes by size, then heap
    moves, then Chomp squares by row and column, then the rest by name.

    >>> sorted(["10->2", "9->7", "take 10", "take 9"], key=move_order)
    ['take 9', 'take 10', '9->7', '10->2']
    """
    if isinstance(move, (int, bool)):
        return (0, int(move), "")
    if isinstance(move, str) and _TAKE.match(move.strip()):
        return (1, _take(move), "")
    if isinstance(move, str) and _HEAP_MOVE.match(move.strip()):
        left, right = move.strip().split("->")
        return (2, (int(left), int(right)), "")
    if isinstance(move, tuple) and all(isinstance(x, int) for x in move):
        return (3, move, "")
    return (4, (), str(move))


def set_order(moves) -> tuple:
    """A sort key for optimal-move sets: by their moves in :func:`move_order`,
    a set before the larger sets it begins; no move (``None``, empty) last.

    >>> sorted([frozenset({3}), frozenset({1, 2}), frozenset(), frozenset({1})], key=set_order)
    [frozenset({1}), frozenset({1, 2}), frozenset({3}), frozenset()]
    """
    if not moves:
        return (1, ())
    return (0, tuple(sorted((move_order(m) for m in moves))))


class MoveColours:
    """The looks of the optimal-move sets of one figure: a single move's own
    look (:func:`move_style`), a tied set its first move's colour with a cross
    hatching; never the same look for two sets of one figure.

    >>> c = MoveColours()
    >>> c.of(frozenset({3})), c.of(frozenset({4})), c.of(frozenset({3}))
    ('#F0E442', '#0072B2', '#F0E442')
    >>> c.style({0, 1}), c.style({0, 2})
    (Style(face='#E69F00', hatch='xxxx'), Style(face='#E69F00', hatch='++++'))
    >>> [sorted(m) for m, _ in c.used()]
    [[0, 1], [0, 2], [3], [4]]
    """

    def __init__(self, palette: Sequence[str] = PALETTE):
        self.palette = tuple(palette)
        self._styles: dict[Any, Style] = {}
        self._taken: set[Style] = set()

    def style(self, moves) -> Style:
        """The look of an optimal-move set in this figure (grey for no move)."""
        if moves is None or len(moves) == 0:
            return Style(OTHER, "")
        key = frozenset(moves)
        if key not in self._styles:
            self._styles[key] = self._free(key)
            self._taken.add(self._styles[key])
        return self._styles[key]

    def _free(self, key: frozenset) -> Style:
        first = min(key, key=move_order)
        n = len(self.palette)
        i = move_index(first)
        if len(key) == 1:  # its own look, else its colour with the next free hatching, else any
            own = i % LOOKS
            tries = [(own + n * t) % LOOKS for t in range(len(HATCHES))]
            tries += [(own + t) % LOOKS for t in range(LOOKS)]
            looks = [Style(self.palette[j % n], HATCHES[j // n]) for j in tries]
        else:
            looks = [Style(self.palette[(i + t) % n], h) for t in range(n) for h in TIE_HATCHES]
        for look in looks:
            if look not in self._taken:
                return look
        return looks[0]  # more sets than looks: regions carry their names (callers label them)

    def of(self, moves) -> str:
        """The face colour of an optimal-move set."""
        return self.style(moves).face

    def dashes(self, moves):
        """The dash pattern of a curve of this set (its hatching's rank among the single-move hatchings)."""
        h = self.style(moves).hatch
        return DASHES[HATCHES.index(h)] if h in HATCHES else "-"

    def used(self) -> Iterable[tuple[Any, str]]:
        """``(set, colour)`` pairs in move order (:func:`set_order`), for a legend."""
        return [(m, s.face) for m, s in self.styles()]

    def styles(self) -> list[tuple[Any, Style]]:
        """``(set, style)`` pairs in move order, for a legend."""
        return sorted(self._styles.items(), key=lambda kv: set_order(kv[0]))

    def exhausted(self) -> bool:
        """Whether two sets of this figure had to share a look."""
        return len(self._taken) < len(self._styles)


def apply_style(artist, style: Style) -> None:
    """Give a patch ``style``'s face and hatching (and the hatching its colour,
    through the edge colour on matplotlib before 3.10, which has no hatch colour)."""
    artist.set_facecolor(style.face)
    if not style.hatch:
        return
    artist.set_hatch(style.hatch)
    if hasattr(artist, "set_hatchcolor"):
        artist.set_hatchcolor(style.hatch_colour)
    else:  # pragma: no cover - matplotlib < 3.10
        artist.set_edgecolor(style.hatch_colour)
        artist.set_linewidth(0)


def legend_handles(colours: MoveColours, text) -> list:
    """One legend patch per set of ``colours``, in move order, named by ``text(set)``."""
    from matplotlib.patches import Patch

    out = []
    for moves, style in colours.styles():
        patch = Patch(label=text(moves))
        apply_style(patch, style)
        patch.set_edgecolor("0.3")
        patch.set_linewidth(0.4)
        out.append(patch)
    return out
