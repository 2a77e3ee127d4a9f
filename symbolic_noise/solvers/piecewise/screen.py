"""The screen: certified enclosures of every sent move's value over a whole cell.

A move whose enclosure lies below the leader's floor is strictly worse on the
whole cell and needs no exact test.  Enclosures come from the followers'
enclosures (:mod:`.celldata`) and the channel's rows in ball arithmetic
(Bernstein ratios of the rows' small-degree rational functions); floats only
propose the leader, whose floor is then bounded in balls.
"""

from __future__ import annotations

from flint import arb, arb_mat, ctx

from .celldata import _OUTLIER
from .cells import _SCREEN_PREC, _all_negative_but, _Cell, _OWN

#: moves whose floors the screening computes (the best few by their values at the cell's ends)
_LEADERS = 3


class Screen:
    """The screen of one position's sweep (a part of :class:`~.position._PositionSolver`)."""

    def _screen(self, cell: _Cell) -> list:
        """The moves not shown strictly worse than the leader on the whole cell.

        With ``|1 - N_u(s) - e_u| <= s_u`` on the cell (:meth:`_follower_data`),
        every move's value lies in ``F_w(s) +- G_w(s)`` where
        ``F_w = sum_u psi(w, u) e_u`` and ``G_w = sum_u psi(w, u) s_u`` are
        rational functions of the channel's degree; Bernstein ratios bound them
        over the cell.  Ball arithmetic; comparisons are certain or not made.
        """
        pos = self.pos
        m = len(pos.Q)
        if m == 1:
            return [0]
        enc = cell.enc  # (one look-up per follower: most are known)
        data = [enc.get(f.position) or self._follower_data(cell, f) for f in self.foll]
        if any(s is None for _, s in data):
            return list(range(m))
        survivors = self._screen_with(cell, data)
        # inherited bounds arrive only when a cell is made (a follower new to it
        # gets its own): one look per cell, at its first screen that leaves
        # more than one move
        if len(survivors) > 1 and not cell.checked:
            cell.checked = True
            if self._refresh_outliers(cell, data):
                survivors = self._screen_with(cell, data)
        return survivors


    def _screen_with(self, cell: _Cell, data: list) -> list:
        """The screen of :meth:`_screen` with the followers' enclosures ``data``."""
        pos = self.pos
        m = len(pos.Q)
        d = pos.degree
        with ctx.workprec(_SCREEN_PREC):
            F, G = self._screen_coeffs(cell, data)
            M = cell.bernstein_matrix(d)
            BF, BG, BQ = M * F, M * G, M * pos.Qmat
            # (d + 1) x m, row-major: Bernstein coefficient i of move w at i * m + w
            low, high, q = (BF - BG).entries(), BF + BG, BQ.entries()
            # a move whose Q has a Bernstein coefficient not shown positive cannot be bounded: it survives
            a, b = pos.span
            unsure = pos.unsure if a <= cell.lo and cell.hi <= b else range(m)
            free = {w for w in unsure if not all(q[i * m + w] > 0 for i in range(d + 1))}
            bounded = [w for w in range(m) if w not in free]
            if not bounded:
                return list(range(m))
            # the leader: numbers only propose it (the largest lower ends at the
            # cell's two end points, whose Bernstein coefficients are the values
            # there); its floor, min_i low_i / q_i, is then computed in balls
            ends = lambda w: float((low[w] / q[w]).mid()) + float((low[d * m + w] / q[d * m + w]).mid())  # noqa: E731
            floor = None
            leaders = sorted(bounded, key=ends, reverse=True)[:_LEADERS]
            for w in leaders:
                lo_w = min(((low[i * m + w] / q[i * m + w]).lower() for i in range(d + 1)))
                if floor is None or lo_w > floor:
                    floor = lo_w
            # w is strictly worse than the floor on the whole cell when every
            # (F + G - floor Q) Bernstein coefficient is negative (Q's are positive):
            # max_i (F + G)_i / Q_i < floor by the mediant inequality
            gap = high - BQ * floor
            rows = range(d + 1)
            if len(free) + len(leaders) < m and _all_negative_but(gap, free.union(leaders), BQ):
                return [w for w in range(m) if w in free or (w in leaders and not all(gap[i, w] < 0 for i in rows))]
            gap = gap.entries()
            return [w for w in range(m) if w in free or not all(gap[i * m + w] < 0 for i in rows)]


    def _screen_coeffs(self, cell: _Cell, data: list) -> tuple[arb_mat, arb_mat]:
        """``F`` and ``G``: (d + 1) x m ball matrices, entry (j, w) coefficient
        j of ``F_w = sum_u P_wu e_u`` and of ``G_w = sum_u P_wu s_u`` (``data``
        the enclosures ``(e_u, s_u)``).  Call inside the screen's precision.

        The product with every follower costs (d + 1) m k ball products.  When
        the last screen of this cell was the previous position's, whose
        followers ours extend by one, on the same enclosures (1-pile Nim: 87 %
        of the screens of nim 48, 90 % of nim 64), the coefficients of the
        moves whose rows extend the old ones by one entry are carried over
        and the newest follower's terms added; only the other moves' rows
        (through the binary channel: the new move and one old move) are
        full products.  Ball arithmetic encloses the same exact sums either
        way."""
        pos = self.pos
        got = cell.screen
        if got is not None:
            key, old, before, F, G = got
            n = len(old)
            if before is pos and n == len(data) and all(a is b for a, b in zip(old, data)):
                return F, G
            if n + 1 == len(data) and before is not pos and key == self.key[:-1] and all(a is b for a, b in zip(old, data)):
                carry = self._carry(before)
                if carry is not None:
                    column, fresh, Pfresh = carry
                    e, s = data[-1]
                    new = (Pfresh * arb_mat([[e, s] for e, s in data])).entries()  # row j * r + i: move fresh[i]
                    m0, r = len(before.P), len(fresh)
                    Fe, Ge = F.entries(), G.entries()
                    Fr, Gr = [], []
                    for j in range(pos.degree + 1):
                        f, g = Fe[j * m0 : (j + 1) * m0], Ge[j * m0 : (j + 1) * m0]
                        f.append(None)
                        g.append(None)
                        for i, w in enumerate(fresh):
                            f[w], g[w] = new[2 * (j * r + i)], new[2 * (j * r + i) + 1]
                        Fr.append(f)
                        Gr.append(g)
                    F = arb_mat(Fr) + column * arb(e)
                    G = arb_mat(Gr) + column * arb(s)
                    cell.screen = (self.key, tuple(data), pos, F, G)
                    return F, G
        m, d = len(pos.Q), pos.degree
        # row j * m + w of the product holds coefficient j of F_w and of G_w
        EG = (pos.Pmat * arb_mat([[e, s] for e, s in data])).entries()
        Fc, Gc = EG[0::2], EG[1::2]
        F = arb_mat([Fc[j * m : (j + 1) * m] for j in range(d + 1)])
        G = arb_mat([Gc[j * m : (j + 1) * m] for j in range(d + 1)])
        cell.screen = (self.key, tuple(data), pos, F, G)
        return F, G


    def _refresh_outliers(self, cell: _Cell, data: list) -> bool:
        """Replace, in ``data``, the enclosures from inherited slope bounds whose
        spread is an outlier (:data:`_OUTLIER`) by ones from the cell's own;
        whether any was replaced."""
        inherited = [i for i, f in enumerate(self.foll) if not cell.slope.get(f.position, _OWN)[3]]
        if not inherited:
            return False
        spreads = sorted(s for _, s in data)
        limit = spreads[len(spreads) // 2] * _OUTLIER
        replaced = False
        for i in inherited:
            f, old = self.foll[i], data[i]
            if old[1] > limit:
                data[i] = self._follower_data(cell, f, own=True)
                if data[i][1] is None:  # no bound of its own: keep the inherited one
                    cell.enc[f.position] = data[i] = old
                else:
                    replaced = True
        return replaced
