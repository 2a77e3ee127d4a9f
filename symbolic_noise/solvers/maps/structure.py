"""The game's positions and psi, laid out once for box after box.

A map encloses the same recursion over thousands of boxes of p, so everything
that does not depend on the box is computed once here: the positions below the
start (followers first), each position's followers as indices, and psi as a
common denominator per row over numerators, every polynomial stored once
(:class:`Layout`).  Over a box, :mod:`~symbolic_noise.solvers.maps.enclose` evaluates each distinct
polynomial once and gathers the matrices from these indices.

It also finds the start's **proved tie classes**: moves whose values are equal
as functions of p, which no subdivision can separate.  Two moves tie when their
psi rows are equal as rational functions (the uniform channel makes every row
the same), or when a symmetry of the game maps one to the other and the channel
respects it at every position below (:func:`~symbolic_noise.solvers.piecewise.symmetry.respects`,
checked exactly): then ``V_w = sum_u psi(w, u) (1 - N_u) = V_t(w)``.  Every
other pair of moves is treated as possibly different, whatever the boxes say.

>>> from symbolic_noise.games.rulesets import Chomp
>>> from symbolic_noise.games.channels import get_channel
>>> lay = Layout(Chomp(3, 3), get_channel("king"), (3, 3, 3))
>>> [sorted(lay.names[i] for i in c) for c in lay.classes if len(c) > 1]
[[(1, 2), (2, 1)], [(1, 3), (3, 1)], [(2, 3), (3, 2)]]
"""

from __future__ import annotations

import random

from flint import arb_poly, fmpq

from ...errors import MapTooLargeError
from ...games.channels import Channel
from ...games.rulesets import Game
from ..piecewise.symmetry import respects
from .series import ORDER


#: the most entries (moves times followers, summed over the positions) a layout holds:
#: about 1 GB of row tables (Chomp 9 x 9 has 82 million, 1-pile Nim k = 512 45 million)
MAX_ENTRIES = 100_000_000


def check_size(game, root, max_entries: int = MAX_ENTRIES) -> None:
    """Raise :class:`~symbolic_noise.errors.MapTooLargeError` when a map of
    ``root`` would need more than ``max_entries`` entries (before any work:
    the atlas checks its largest row first)."""
    _check_size(game, tuple(game.positions(root)), max_entries)


def _check_size(game, order, max_entries: int) -> None:
    """Refuse a layout of more than ``max_entries`` entries before any row is made."""
    total = 0
    for v in order:
        total += len(game.followers(v)) ** 2
        if total > max_entries:
            raise MapTooLargeError(
                f"a map of {game.describe()} needs psi's rows at {len(order)} positions, more than "
                f"{max_entries} entries in all (the cap)")


class Layout:
    """Positions, followers and psi of every position below ``root``, indexed.

    ``order``: the positions, followers first (``index[v]`` its place);
    ``follow[k]``: the follower indices of ``order[k]``; ``den[k]`` and
    ``num[k]``: polynomial indices (``-1`` for a zero numerator) of its rows;
    ``polys``: the distinct polynomials as ``(arb_poly, its derivatives up to
    series.ORDER)``, ``exact_polys`` the same as ``fmpz_poly``;
    ``names``: the start's move names; ``classes``: its proved tie classes
    (tuples of move indices, every move in exactly one)."""

    def __init__(self, game: Game, channel: Channel, root, interval=(0, 1), max_entries: int = MAX_ENTRIES):
        self.game, self.channel, self.root = game, channel, root
        self.order = tuple(game.positions(root))
        self.index = {v: k for k, v in enumerate(self.order)}
        _check_size(game, self.order, max_entries)
        #: psi's distinct polynomials, as tuples of integer coefficients
        self.polys: list = []
        #: the same polynomials as ``fmpz_poly``
        self.exact_polys: list = []
        self._seen: dict = {}
        self.follow, self.den, self.num = [], [], []
        self._rows = {}
        for v in self.order:
            fs = game.followers(v)
            self.follow.append([self.index[u] for u in fs])
            if not fs:
                self.den.append([])
                self.num.append([])
                continue
            rows = channel.rows(game, v)
            channel.check(game, v, rows, interval)
            self._rows[v] = rows
            self.den.append([self._poly(q) for q in rows.den])
            self.num.append([[self._poly(e) if not e.is_zero() else -1 for e in row] for row in rows.num])
        self.names = [game.move_label(root, w) for w in game.followers(root)]
        self.classes = self._tie_classes()

    @property
    def row_one(self) -> list:
        """Per position, per row, whether psi's row sums to 1 exactly (its
        numerators add up to its denominator as polynomials), computed once:
        where it does, ``sum_u n_u' = D'`` and the derivative sums may be
        centred (:mod:`~symbolic_noise.solvers.maps.floatkernel`)."""
        cached = getattr(self, "_row_one", None)
        if cached is None:
            P = self.exact_polys
            cached = self._row_one = [
                [sum((P[q] for q in row if q >= 0), 0 * P[d]) == P[d] for row, d in zip(num, den)]
                for num, den in zip(self.num, self.den)]
        return cached

    def _poly(self, q) -> int:
        key = id(q)
        hit = self._seen.get(key)
        if hit is not None and hit[1] is q:
            return hit[0]
        coeffs = tuple(q.coeffs())  # (fmpz coefficients hash and compare by value)
        hit2 = self._seen.get(coeffs)
        if hit2 is None:
            ds = [arb_poly(list(coeffs))]
            for _ in range(ORDER):
                ds.append(ds[-1].derivative())
            self.polys.append(tuple(ds))
            self.exact_polys.append(q)
            hit2 = self._seen[coeffs] = (len(self.polys) - 1, q)
        self._seen[key] = (hit2[0], q)
        return hit2[0]

    def _tie_classes(self):
        m = len(self.names)
        parent = list(range(m))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        def union(i, j):
            i, j = find(i), find(j)
            if i != j:
                parent[max(i, j)] = min(i, j)

        if m:
            for i, j in _equal_rows(self._rows[self.root]):
                union(i, j)
            t = _respected_symmetry(self.game, self.channel, self.order, self._rows)
            if t is not None and t.position(self.root) == self.root:
                where = {name: k for k, name in enumerate(self.names)}
                for k, name in enumerate(self.names):
                    union(k, where[t.move(name)])
        groups: dict = {}
        for i in range(m):
            groups.setdefault(find(i), []).append(i)
        return [tuple(g) for g in groups.values()]


def _equal_rows(rows):
    """Pairs ``(i, j)`` of rows equal as rational functions (exactly):
    fingerprinted at a random rational first, then compared exactly."""
    m = len(rows.den)
    p = fmpq(random.Random(m).randrange(1, 10**6), 10**6 + 3)
    groups: dict = {}
    for i in range(m):
        d = rows.den[i](p)
        groups.setdefault(tuple(n(p) / d for n in rows.num[i]), []).append(i)
    out = []
    for g in groups.values():
        i = g[0]
        for j in g[1:]:
            qi, qj = rows.den[i], rows.den[j]
            if all(a * qj == b * qi for a, b in zip(rows.num[i], rows.num[j])):
                out.append((i, j))
    return out


def _respected_symmetry(game, channel, order, rows):
    """The game's symmetry if the channel respects it at every position of
    ``order`` (exactly), else None."""
    t = game.symmetry() if hasattr(game, "symmetry") else None
    if t is None:
        return None
    present, checked = set(order), set()
    for v in order:
        tv = t.position(v)
        if tv not in present:
            return None
        if v in rows and tv not in checked:  # (the test is symmetric in v and t(v): t is an involution)
            if not respects(game, channel, v, tv, t, rows[v], rows.get(tv)):
                return None
            checked.add(v)
    return t


__all__ = ["Layout"]
