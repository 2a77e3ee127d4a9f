"""Classical (noise-free) Sprague–Grundy analysis: mex, nim-sums, nim-sequences
and their periodicity, Bouton's rule, and Lemma 7 of the paper.

The vocabulary is theory.md section 4's: the nim-value ``G(v)`` is the mex of
the followers' nim-values, ``G(v) = 0`` exactly at P-positions, the nim-value
of a sum is the nim-sum (XOR) of the parts, and a heap game's nim-sequence is
``G(0), G(1), ...`` for one heap.  These functions work on every game of the
package (the :class:`~symbolic_noise.games.Game` protocol) and are the
classical check of the noisy solver: through the ``identity`` channel,
``N_v = 1`` exactly where ``G(v) != 0``.

Examples
--------
>>> from symbolic_noise.games.heapgames import MultiNim
>>> nim_sum(3, 4, 5), bouton_moves((3, 4, 5))
(2, ((3, 1),))
>>> nim_value(MultiNim((1, 2, 3)))
0
>>> nim_sequence("kayles", 11)
(0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6)
>>> find_period(nim_sequence("0.137", 300), max_removal=3)
Periodicity(preperiod=52, period=34, proven=True, checked_to=300, needed=174)
"""

from __future__ import annotations

import weakref
from array import array
from dataclasses import dataclass
from typing import Iterable

from ..errors import GameParameterError
from .rulesets import Game, topological_order
from .heapgames import HeapRules, heap_rules_from_spec, heaps_position

# --------------------------------------------------------------------------- mex and nim-sum


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least non-negative integer not in ``values``.

    >>> mex([0, 1, 3]), mex([]), mex({1, 2})
    (2, 0, 0)
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def _natural(value, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__") or value.__index__() < 0:
        raise GameParameterError(f"{what} must be a non-negative integer, not {value!r}")
    return int(value.__index__())


def nim_sum(*values: int) -> int:
    """The nim-sum (bitwise XOR) of nim-values: the nim-value of a sum of games.

    >>> nim_sum(7, 2, 5, 3), nim_sum(4, 5, 6), nim_sum()
    (3, 7, 0)
    """
    out = 0
    for v in values:
        out ^= _natural(v, "a nim-value")
    return out


# --------------------------------------------------------------------------- any game

# per game object (weakly held): {(kind, misere): {position: value}}
_TABLES: "weakref.WeakKeyDictionary[Game, dict]" = weakref.WeakKeyDictionary()


def _root(game: Game, v):
    return game.start() if v is None else game.check_position(v)


def _table(game: Game, root, kind: str, misere: bool) -> dict:
    """Values of every position reachable from ``root``, in topological order
    (iterative: deep games do not reach the recursion limit); memoised."""
    memo = _TABLES.setdefault(game, {}).setdefault((kind, misere), {})
    if root in memo:
        return memo
    order = topological_order(lambda u: () if u in memo else game.followers(u), root)
    for u in order:
        if u in memo:
            continue
        fs = game.followers(u)
        if kind == "grundy":
            # misère: a player without a move wins, so the terminal value is 1
            memo[u] = mex(memo[w] for w in fs) if fs else int(misere)
        else:  # "win": does the player to move win?
            memo[u] = any(not memo[w] for w in fs) if fs else misere
    return memo


def nim_value(game: Game, v=None, *, misere: bool = False) -> int:
    """The nim-value (Grundy value) of position ``v`` (default: the start).

    With ``misere=True`` this is the *misère Grundy value* (Conway): 1 at a
    terminal position, the mex of the followers' elsewhere.  It is 0 exactly at
    misère P-positions, but it does **not** add by nim-sum: there is no XOR
    rule for misère sums (use :func:`outcome` with ``misere=True``).

    >>> from symbolic_noise.games.rulesets import Nim, Chomp
    >>> nim_value(Nim(5)), nim_value(Chomp(2, 2)), nim_value(Nim(1), misere=True)
    (5, 2, 0)
    """
    root = _root(game, v)
    return _table(game, root, "grundy", misere)[root]


def outcome(game: Game, v=None, *, misere: bool = False) -> str:
    """``'P'`` if the player to move at ``v`` loses with best play, else ``'N'``.

    Normal play: ``'P'`` iff the nim-value is 0.  Misère play (the last mover
    loses): plain win/loss backward induction, independent of nim-values.

    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> outcome(MultiNim((1, 1))), outcome(MultiNim((1, 1)), misere=True)
    ('P', 'N')
    """
    root = _root(game, v)
    if not misere:
        return "P" if nim_value(game, root) == 0 else "N"
    return "N" if _table(game, root, "win", True)[root] else "P"


def winning_moves(game: Game, v=None, *, misere: bool = False) -> tuple:
    """The followers of ``v`` that are P-positions: the moves that win.

    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> g = MultiNim((3, 4, 5))
    >>> [g.move_label(g.start(), w) for w in winning_moves(g)]
    ['3->1']
    """
    root = _root(game, v)
    return tuple(w for w in game.followers(root) if outcome(game, w, misere=misere) == "P")


# --------------------------------------------------------------------------- Nim by rule


def nim_outcome(heaps, *, misere: bool = False) -> str:
    """Outcome of multi-pile Nim by Bouton's rule: ``'N'`` iff the nim-sum is not 0.

    Misère: the same, except when every heap has at most one chip; then the
    mover wins iff the number of 1-heaps is even.

    >>> nim_outcome((1, 2, 3)), nim_outcome((1, 1, 1), misere=True), nim_outcome((), misere=True)
    ('P', 'P', 'N')
    """
    hs = [_natural(h, "a heap") for h in heaps]
    if misere and all(h <= 1 for h in hs):
        return "N" if sum(hs) % 2 == 0 else "P"
    return "N" if nim_sum(*hs) else "P"


def bouton_moves(heaps, *, misere: bool = False) -> tuple:
    """The winning moves of multi-pile Nim as ``(heap, left)`` pairs, in heap order.

    Normal play (Bouton): move a heap ``h`` to ``h XOR s`` (``s`` the nim-sum)
    wherever that is smaller.  Misère: the same while two or more heaps have
    2 chips or more; with exactly one such heap, reduce it to 0 or 1 so that
    an odd number of 1-heaps is left; with none, take a 1-heap if their number
    is even.

    >>> bouton_moves((7, 2, 5, 3))
    ((7, 4), (2, 1), (3, 0))
    >>> bouton_moves((4, 5, 6)), bouton_moves((1, 2, 3))   # 4->3 and two more
    (((4, 3), (5, 2), (6, 1)), ())
    >>> bouton_moves((1, 1, 5), misere=True), bouton_moves((1, 5)), bouton_moves((1, 1, 1, 1), misere=True)
    (((5, 1),), ((5, 1),), ((1, 0),))
    """
    hs = [_natural(h, "a heap") for h in heaps]
    big = [h for h in hs if h >= 2]
    if misere and len(big) <= 1:
        ones = hs.count(1)
        if big:
            return ((big[0], 0 if ones % 2 else 1),)
        return ((1, 0),) if ones and ones % 2 == 0 else ()
    s = nim_sum(*hs)
    out = []
    for h in hs:
        if h ^ s < h and (h, h ^ s) not in out:
            out.append((h, h ^ s))
    return tuple(out)


# --------------------------------------------------------------------------- nim-sequences

_SEQUENCES: dict = {}  # rules key -> the longest nim-sequence computed so far (a list)


def _rules(game_or_rules) -> HeapRules:
    return heap_rules_from_spec(game_or_rules)


def nim_sequence(game_or_rules, n: int, *, method: str = "fast", cache: bool = True, progress=None) -> tuple:
    """``G(0), ..., G(n)``: the nim-values of single heaps of a heap game.

    ``game_or_rules`` is a :class:`~symbolic_noise.games.heapgames.HeapRules`, a heap
    game, 1-pile :class:`~symbolic_noise.games.Nim`, or a name such as
    ``"0.137"`` or ``"lasker"`` (:func:`~symbolic_noise.games.heapgames.heap_rules_from_spec`).
    ``method="fast"`` vectorises the mex over two-heap splits with numpy (the
    XOR of ``G[a]`` with ``G[s - a]`` for all ``a`` at once, the excluded
    values as a bitmask) and memoises the sequence per ruleset (``cache=False``
    computes it afresh); ``method="slow"`` is the plain mex over every
    remainder, kept as the independent reference.  Without numpy, ``"fast"``
    falls back to ``"slow"``.  Both take time quadratic in ``n``.
    ``method="rare"`` (octal games and Grundy's game) is the rare/common split of
    :mod:`~symbolic_noise.games.rarevalue`, in time about ``n`` times the number
    of rare values; it shares the memo with ``"fast"`` (the values are the same).
    ``progress(heaps done)`` (or ``(heaps done, rare count)`` for ``"rare"``)
    is called now and then along a long computation.

    >>> nim_sequence("0.137", 19)
    (0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3)
    >>> nim_sequence("lasker", 8), nim_sequence("4.3", 8, method="slow")
    ((0, 1, 2, 4, 3, 5, 6, 8, 7), (0, 1, 2, 0, 2, 0, 2, 0, 2))
    """
    rules = _rules(game_or_rules)
    n = _natural(n, "the largest heap")
    if method == "slow":
        return tuple(_sequence_slow(rules, n))
    if method not in ("fast", "rare"):
        raise GameParameterError(f"method must be 'fast', 'rare' or 'slow', not {method!r}")
    known = _SEQUENCES.get(rules.key(), []) if cache else []
    if len(known) <= n:
        if method == "rare":
            from .rarevalue import rare_sequence

            known = list(rare_sequence(rules, n, progress=progress))
        else:
            try:
                known = _sequence_fast(rules, known, n, progress)
            except ImportError:  # no numpy
                known = _sequence_slow(rules, n)
        if cache:
            _SEQUENCES[rules.key()] = known
    return tuple(known[: n + 1])


def heaps_nim_value(game_or_rules, heaps) -> int:
    """The nim-value of several heaps: the nim-sum of their single-heap values
    (the Sprague–Grundy theorem).

    >>> heaps_nim_value("kayles", (3, 4, 5)), heaps_nim_value("nim", (7, 2, 5, 3))
    (6, 3)
    """
    hs = heaps_position(heaps)
    seq = nim_sequence(game_or_rules, max(hs, default=0))
    return nim_sum(*(seq[h] for h in hs))


def _sequence_slow(rules: HeapRules, n: int) -> list:
    G: list = []
    for m in range(n + 1):
        values = set()
        for r in rules.iter_remainders(m):
            x = 0
            for h in r:
                x ^= G[h]
            values.add(x)
        G.append(mex(values))
    return G


def _mask_of(np, x, bits: int) -> int:
    """The set of the values in the array ``x`` (all below ``2**bits``) as an int bitmask."""
    if x.size == 0:
        return 0
    if bits <= 6:
        return int(np.bitwise_or.reduce(np.left_shift(np.uint64(1), x)))
    present = np.zeros(1 << bits, dtype=bool)
    present[x] = True
    return int.from_bytes(np.packbits(present, bitorder="little").tobytes(), "little")


#: heaps of the vectorised mex between two calls of a progress callback
_PROGRESS_EVERY = 4096


def _sequence_fast(rules: HeapRules, known: list, n: int, progress=None) -> list:
    """Extend ``known`` (a prefix of the sequence) to ``G(0..n)``.

    ``R`` holds the values reversed (``R[n - m] = G[m]``), so that the partners
    ``G[s - a]`` of ``a = 1, 2, ...`` are a contiguous forward slice.  Every
    excluded-value set is an int bitmask; the mex is its lowest zero bit.
    """
    import numpy as np

    G = np.zeros(n + 1, dtype=np.uint32)
    R = np.zeros(n + 1, dtype=np.uint32)
    G[: len(known)] = known
    R[n - len(known) + 1:] = known[::-1]
    gmax = max(known, default=0)
    pairs: list = []  # for three-heap moves: pairs[s] = mask of G(a) ^ G(s - a)
    for m in range(len(known), n + 1):
        o = rules.options(m)
        bits = gmax.bit_length()
        mask = 1 if o.empty else 0
        if isinstance(o.one, range):
            mask |= _mask_of(np, G[o.one.start:o.one.stop], bits)
        else:
            for r in o.one:
                mask |= 1 << int(G[r])
        for s in o.two:
            h = (s - 1) // 2 if o.two_unequal else s // 2
            mask |= _mask_of(np, G[1:h + 1] ^ R[n - s + 1:n - s + h + 1], bits)
        if o.three:
            while len(pairs) < m:
                s = len(pairs)
                pairs.append(_mask_of(np, G[1:s // 2 + 1] ^ R[n - s + 1:n - s + s // 2 + 1], bits))
            for s in o.three:
                mask |= _triples_mask(G, pairs, s)
        g = (~mask & (mask + 1)).bit_length() - 1
        G[m] = g
        R[n - m] = g
        gmax = max(gmax, g)
        if progress is not None and m and m % _PROGRESS_EVERY == 0:
            progress(m)
    return G.tolist()


def _triples_mask(G, pairs: list, s: int) -> int:
    """Values ``G(a) ^ G(b) ^ G(c)`` over ``a + b + c = s``, all parts positive."""
    by_value: dict = {}
    for a in range(1, s - 1):
        g = int(G[a])
        by_value[g] = by_value.get(g, 0) | pairs[s - a]
    mask = 0
    for g, ys in by_value.items():
        while ys:
            low = ys & -ys
            mask |= 1 << (g ^ (low.bit_length() - 1))
            ys ^= low
    return mask


# --------------------------------------------------------------------------- periodicity


@dataclass(frozen=True)
class Periodicity:
    """``G(n + period) = G(n)`` for every ``n >= preperiod`` among the values
    given (``checked_to`` is the last index used), and for all ``n`` when
    ``proven``.  ``needed`` is the index up to which the periodicity theorem
    needs the values (``None`` when no theorem applies)."""

    preperiod: int  #: the first index from which the values repeat
    period: int  #: the period
    proven: bool  #: whether the periodicity theorem proves it for every ``n``
    checked_to: int  #: the last index of the values checked
    needed: int | None  #: the index up to which the theorem needs the values (``None`` if no theorem applies)


def _last_mismatch(data: bytes, length: int, period: int) -> int:
    """The largest ``n`` with ``G(n) != G(n + period)``, or -1.

    ``data`` holds the values as 8-byte words, so a run of comparisons is one
    bytes comparison: blocks from the end, doubling, then bisection.
    """

    def same(lo, hi):
        return data[8 * lo:8 * hi] == data[8 * (lo + period):8 * (hi + period)]

    hi, size = length - period, 64
    while hi > 0:
        lo = max(0, hi - size)
        if not same(lo, hi):
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if same(mid, hi):
                    hi = mid
                else:
                    lo = mid
            return lo
        hi, size = lo, 2 * size
    return -1


def theorem_end(preperiod: int, period: int, max_removal: int, max_heaps: int = 2) -> int:
    """The last index of the values that the periodicity theorem needs.

    Octal games (Winning Ways, chapter 4; theory.md section 4): with largest
    removal ``t``, if ``G(n + P) = G(n)`` for ``i <= n < 2i + P + t``, then for
    every ``n >= i``.  The proof: for ``n >= 2i + P + t`` a one-heap option
    ``n + P - k`` of ``n + P`` pairs with ``n - k >= i``, and of two heaps
    ``a + b = n + P - k`` the larger has ``b >= i + P``, so ``(a, b - P)`` is an
    option of ``n`` with the same value (and conversely).  That needs
    ``b - P >= 1``, so for games that split heaps ``i`` is taken ``>= 1``
    (``0.04`` has ``G(0..3) = 0`` yet ``G(4) = 1``).  Moves leaving three heaps
    (hexadecimal digit 8): the largest of ``a + b + c = n + P - k`` is at least
    ``i + P`` once ``n >= 3i + 2P + t``, so the range becomes
    ``i <= n < 3i + 2P + t`` (derived here by the same argument; Winning Ways
    states only the octal case).

    >>> theorem_end(71, 12, 2)          # Kayles: G(0..167) proves the period
    167
    >>> theorem_end(0, 2, 1, max_heaps=1), theorem_end(0, 2, 1)
    (4, 6)
    """
    if max_heaps >= 2:
        preperiod = max(preperiod, 1)
    if max_heaps >= 3:
        return 3 * preperiod + 3 * period + max_removal - 1
    return 2 * preperiod + 2 * period + max_removal - 1


def find_period(
    values,
    *,
    max_removal: int | None = None,
    max_heaps: int = 2,
    max_period: int | None = None,
    min_cycles: int = 3,
) -> Periodicity | None:
    """The least period of a nim-sequence and its preperiod, proven if possible.

    Periods ``P = 1, 2, ...`` are tried in turn; the preperiod of ``P`` is the
    least ``i`` with ``G(n + P) = G(n)`` for all ``i <= n`` in the data.  With
    ``max_removal`` (a finite octal game's ``t``; ``max_heaps``: 1 if no move
    splits a heap, 2 for octal, 3 for hexadecimal games) the first ``P`` that
    the periodicity theorem proves (:func:`theorem_end`) is returned with
    ``proven=True``.  Otherwise (or if nothing is proven) the least ``P`` whose
    periodic stretch holds ``min_cycles`` periods and a quarter of the values
    is returned with ``proven=False``: a guess from the data, never a proof.
    ``None`` if there is neither.

    >>> find_period(nim_sequence("kayles", 200), max_removal=2)
    Periodicity(preperiod=71, period=12, proven=True, checked_to=200, needed=167)
    >>> find_period(nim_sequence("kayles", 120), max_removal=2)
    Periodicity(preperiod=71, period=12, proven=False, checked_to=120, needed=167)
    >>> find_period(nim_sequence("subtraction:1,2,3", 20), max_removal=3, max_heaps=1)
    Periodicity(preperiod=0, period=4, proven=True, checked_to=20, needed=10)
    """
    values = [_natural(g, "a nim-value") for g in values]
    data = array("Q", values).tobytes()
    last = len(values) - 1
    top = len(values) // 2 if max_period is None else min(max_period, len(values) - 1)
    guess = None
    for period in range(1, top + 1):
        i = _last_mismatch(data, len(values), period) + 1
        needed = None if max_removal is None else theorem_end(i, period, max_removal, max_heaps)
        if needed is not None and needed <= last:
            return Periodicity(i, period, True, last, needed)
        stretch = len(values) - i
        if guess is None and stretch >= min_cycles * period and 4 * stretch >= len(values):
            guess = Periodicity(i, period, False, last, needed)
            if max_removal is None:
                break
    return guess


def periodicity(game_or_rules, n: int) -> Periodicity | None:
    """:func:`find_period` of ``G(0..n)`` with the ruleset's own ``t`` and splits
    (no theorem for rulesets without a bound on the chips taken).

    >>> periodicity("0.07", 300)
    Periodicity(preperiod=53, period=34, proven=True, checked_to=300, needed=175)
    """
    rules = _rules(game_or_rules)
    return find_period(nim_sequence(rules, n), max_removal=rules.max_removal, max_heaps=rules.max_heaps)


@dataclass(frozen=True)
class SequenceReport:
    """A ruleset's nim-sequence with its periodicity (the ``grundy`` command)."""

    game: str  #: the ruleset's canonical key, e.g. ``octal:0.137``
    values: tuple  #: the nim-values ``G(0), G(1), ...`` computed
    periodicity: Periodicity | None  #: the period found in them, or ``None``

    def as_json(self) -> dict:
        """``{"game", "values", "preperiod", "period", "proven"}`` as plain data."""
        per = self.periodicity
        return {
            "game": self.game,
            "values": list(self.values),
            "preperiod": per.preperiod if per else None,
            "period": per.period if per else None,
            "proven": bool(per and per.proven),
        }

    def __repr__(self) -> str:
        from ..io.display import sequence_report_repr

        return sequence_report_repr(self)

    def _repr_html_(self) -> str:
        from ..io.display import sequence_report_html

        return sequence_report_html(self)


def sequence_report(game_or_rules, upto: int, *, period: bool = True, progress=None) -> SequenceReport:
    """``G(0..upto)`` of a ruleset and (if ``period``) its periodicity (the values
    of octal games by the rare/common split); ``progress(heaps done, ...)`` is
    called along the way (:func:`nim_sequence`).

    >>> sequence_report("4.3", 12).as_json()
    {'game': 'octal:4.3', 'values': [0, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2], 'preperiod': 2, 'period': 2, 'proven': True}
    """
    from .rarevalue import supports

    rules = _rules(game_or_rules)
    values = nim_sequence(rules, upto, method="rare" if supports(rules) else "fast", progress=progress)
    per = periodicity(rules, upto) if period else None
    return SequenceReport(rules.key(), values, per)


# --------------------------------------------------------------------------- Lemma 7


def position_classes(solution, p) -> dict:
    """``{position: 'P' | 'N' | 'O'}`` for every solved position at the exact ``p``
    (N = 0, N = 1, or strictly between).  Through the uniform channel ``N`` does
    not depend on p, so any p gives the classes.

    >>> from symbolic_noise import solve
    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> position_classes(solve(MultiNim((1, 2)), "uniform"), "1/2")
    {(): 'P', (1,): 'N', (2,): 'O', (1, 1): 'P', (1, 2): 'O'}
    """
    out = {}
    for v in solution.positions():
        value = solution.at(p, v).value
        out[v] = "P" if value == 0 else ("N" if value == 1 else "O")
    return out


def lemma7_violations(game: Game, classes: dict) -> tuple:
    """The O-positions where Lemma 7's hypothesis fails: ``(v, #P-followers,
    #N-followers)`` with unequal counts.  Empty means the hypothesis holds on
    ``classes``, so (uniform channel) ``N_v = 1/2`` at every O-position.

    >>> from symbolic_noise import solve
    >>> from symbolic_noise.games.heapgames import MultiNim
    >>> g = MultiNim((2, 2))
    >>> lemma7_violations(g, position_classes(solve(g, "uniform"), 0))
    ()
    """
    out = []
    for v, cls in classes.items():
        if cls != "O":
            continue
        fs = [classes[w] for w in game.followers(v)]
        if fs.count("P") != fs.count("N"):
            out.append((v, fs.count("P"), fs.count("N")))
    return tuple(out)
