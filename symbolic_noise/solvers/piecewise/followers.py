"""The position being solved and its followers' values, as a sweep reads them.

:class:`_Position` holds one position's moves, its channel rows ``psi_v(w, .)``
over their denominators ``Q_w`` and, for channels affine in p, the data of the
batched path; :class:`_Follower` walks one follower's piecewise value piece by
piece as the sweep advances along p.
"""

from __future__ import annotations

from flint import arb_mat, fmpq

from ...exact import polys
from ...exact.algebraic import RealAlgebraic
from ...exact.piecewise import PiecewiseFunction
from ...exact.polys import sign
from ...games.channels import Channel, Rows
from ...games.rulesets import Game
from ..storage import packing
from . import batchscreen
from .cells import _pick_point

class _Follower:
    """A follower's value as the sweep follows it piece by piece.

    ``rf`` and ``neg`` name the current piece's formula: ``num / den`` is
    ``rf`` with ``den > 0`` on the piece (both negated when ``neg``).  The
    caches of slope bounds, models and enclosures hold and compare that name
    (:attr:`key`), not the polynomials, so that a value packed past
    :data:`packing.VALUES_BUDGET` (:meth:`RationalFunction.pack`) frees its memory;
    ``num`` and ``den`` are made on the first use on each piece (unpacked then)."""

    __slots__ = ("position", "value", "index", "rf", "neg", "num", "den", "_unpacked")

    def __init__(self, position, value: PiecewiseFunction, unpacked: "packing.Unpacked | None" = None):
        self.position, self.value, self.index = position, value, 0
        self.rf = self.neg = None
        self._unpacked = unpacked  # where packed formulas are unpacked (kept a while), or None

    def enter(self, i: int, norm: dict) -> None:
        """Move to piece ``i``.  ``norm`` caches the pieces' signs by the
        identity of the piece's formula and start (held, so that the names stay
        theirs): a range worker's pieces are renumbered when its range
        moves, and the names, with the slope bounds and enclosures cached by
        them, must survive that."""
        self.index = i
        self.take(self.pair(i, norm))

    def take(self, pair: tuple) -> None:
        """Make ``pair`` (a :meth:`pair`: ``(rf, neg)``) the current piece's
        formula.  ``num`` and ``den`` are set at once when they are ``rf``'s
        own; a packed or negated formula's are left unset, for
        :meth:`__getattr__` to make on the first use (most pieces a sweep
        passes are not used on most positions)."""
        rf, neg = self.rf, self.neg = pair
        if neg or rf.packed:
            for name in ("num", "den"):
                try:
                    delattr(self, name)
                except AttributeError:
                    pass
        else:
            self.num, self.den = rf.num, rf.den

    def __getattr__(self, name: str):
        # (called only for an unset slot: ``num`` or ``den`` left to the first use by take)
        if name not in ("num", "den") or self.rf is None:
            raise AttributeError(name)
        rf = self.rf
        if rf.packed and self._unpacked is not None:
            self.num, self.den = self._unpacked.get(rf, self.neg)
        else:
            n, d = rf.num, rf.den
            self.num, self.den = (-n, -d) if self.neg else (n, d)
        return getattr(self, name)

    def pairs(self, norm: dict) -> list:
        """Every piece's :meth:`pair` (kept in ``norm`` by the value's identity)."""
        key = ("pairs", id(self.value))
        got = norm.get(key)
        if got is None or got[0] is not self.value:
            got = norm[key] = (self.value, [self.pair(i, norm) for i in range(len(self.value.formulas))])
        return got[1]

    def pair(self, i: int, norm: dict) -> tuple:
        """Piece ``i``'s formula and whether it is negated to make ``den > 0``
        on the piece: ``(rf, neg)``."""
        f, start = self.value.formulas[i], self.value.points[i]
        key = (id(f), id(start))
        got = norm.get(key)
        if got is None or got[0] is not f or got[1] is not start:
            den = f.den
            if den.degree() == 0:  # (a constant: every Chomp value is a polynomial)
                positive = den[0] > 0
            else:
                end = self.value.points[i + 1]
                # any point inside will do (den has no root there): the middle of
                # the gap between the end points' intervals, else a simple rational
                lo, hi = start.hi, end.lo
                t = (lo + hi) / 2 if lo < hi else _pick_point(start, end)
                # (a ball evaluation decides the sign: exact values at long points cost far more)
                positive = polys.sign_at(den, t) > 0
            got = norm[key] = (f, start, (f, not positive))
        return got[2]

    @property
    def end(self) -> RealAlgebraic:
        return self.value.points[self.index + 1]

    @property
    def key(self) -> tuple:
        """The name of the current piece in the slope-bound and enclosure
        caches (which hold ``rf`` and check its identity and ``neg``): it
        survives a renumbering."""
        return (self.position, id(self.rf), self.neg)


class _Position:
    """A non-terminal position's channel data, normalised for the solver: rows
    with ``Q_w > 0`` on [a, b], and the coefficient matrices of the screening.

    ``moves``: the indices of the sent moves to keep (default: all), each
    row still over every follower: the moves of a self-symmetric position
    that stand for their mirror images (:func:`symmetry.representatives`);
    ``rows``: the channel's rows at ``v``, when they were made and validated
    on [a, b] already."""

    def __init__(self, game: Game, channel: Channel, v, a: fmpq, b: fmpq, moves=None, rows=None):
        self.position = v
        self.followers = game.followers(v)
        self.labels = tuple(game.move_label(v, w) for w in self.followers)
        if rows is None:
            rows = channel.rows(game, v)
            channel.check(game, v, rows, (a, b))
        if moves is not None:
            rows = Rows(tuple(rows.den[w] for w in moves), tuple(rows.num[w] for w in moves))
            self.labels = tuple(self.labels[w] for w in moves)
        mid = (a + b) / 2
        self.Q, self.P = [], []
        for q, row in zip(rows.den, rows.num):
            if sign(q(mid)) < 0:
                q, row = -q, tuple(-n for n in row)
            self.Q.append(q)
            self.P.append(row)
        m = len(self.Q)
        d = self.degree = max(max(q.degree() for q in self.Q), max(max(n.degree() for n in row) for row in self.P), 0)

        # followers (indices) grouped by equal weight P_wu (binary rows have
        # few distinct ones), with the indices each row weighs; ``groups``
        # names the followers by position
        def padded(poly):
            c = [int(x) for x in poly.coeffs()]
            return c + [0] * (d + 1 - len(c))

        # each distinct weight object once (channels often reuse one object
        # for equal weights): its coefficients, which also name it
        seen: dict = {}  # id(P_wu) -> (P_wu, its padded coefficients)

        def coefficients(n):
            got = seen.get(id(n))
            if got is None:
                got = seen[id(n)] = (n, padded(n))  # (holds n: its id is not reused)
            return got[1]

        self.rows, self.groups = [], []
        P = []  # P[w][u]: coefficient list of P_wu
        for row in self.P:
            by_weight: dict = {}
            coeffs = [coefficients(n) for n in row]
            for j, (n, c) in enumerate(zip(row, coeffs)):
                if not n.is_zero():
                    by_weight.setdefault(tuple(c), (n, []))[1].append(j)
            groups = list(by_weight.values())
            self.rows.append((groups, frozenset(j for _, members in groups for j in members)))
            self.groups.append([(n, [self.followers[j] for j in members], self._complement(members))
                                for n, members in groups])
            P.append(coeffs)

        # row j*m + w holds coefficient j of P_wu, u across
        T = [list(zip(*row)) for row in P]  # T[w][j]: coefficient j of P_wu, u across
        self.Pmat = arb_mat([list(T[w][j]) for j in range(d + 1) for w in range(m)])
        Q = [padded(q) for q in self.Q]
        self.Qmat = arb_mat([[c[j] for c in Q] for j in range(d + 1)])
        # the moves whose Q_w has positive Bernstein coefficients (degree d) on
        # [a, b]: they have on every [lo, hi] inside it too (subdivision takes
        # convex combinations of them), so the screen need not look
        self.span = (a, b)
        self.unsure = frozenset(
            w for w, q in enumerate(self.Q) if not all(c > 0 for c in polys._scaled_bernstein(q, a, b, d))
        )
        # rows affine in p (Chomp's channels): every base cell is screened at
        # once (:mod:`symbolic_noise.solvers.batchscreen`)
        self.affine = batchscreen.affine_rows(self.P, self.Q)

    def _complement(self, members: list) -> list | None:
        """The followers (by position) outside ``members`` (indices), when they
        are so few that a row's sum over ``members`` is cheaper as the sum over
        every follower less theirs (Chomp's all-neighbour channel weighs all
        but the target square alike: ``m - 2`` additions per row become one
        subtraction, the sum over every follower made once per cell)."""
        inside = set(members)
        rest = [u for j, u in enumerate(self.followers) if j not in inside]
        return rest if len(rest) + 2 < len(members) else None
