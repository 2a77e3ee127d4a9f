"""What a position's sweep computes once per cell: the followers' enclosures,
the common denominator and the moves' numerators over it, and Taylor models.

:class:`CellData` is the part of :class:`~.position._PositionSolver` that makes
(or takes from the cell, where an earlier position made it) the data every
later step on a cell reads: ``1 - N_u`` enclosed over the cell, the common
denominator ``B = lcm(d_u)`` with the followers' numerators over it, each sent
move's numerator ``A_w``, and the Taylor models of new formulas.
"""

from __future__ import annotations

from flint import arb, arb_mat, ctx, fmpz_poly

from ...exact.polys import ONE
from ...exact.ratfunc import RationalFunction
from . import spread as spread_module
from .cells import _SCREEN_PREC, _Cell, _Common, _lcm_step, _point_data
from .followers import _Follower, _Position
from .pairtest import follower_bounds, pair_row

#: a follower enclosure not made (:meth:`_PositionSolver._enclosure`)
_NO_ENCLOSURE = (None, None)
#: an inherited slope bound is replaced by the cell's own when the spread it
#: gives is more than this many times the median follower's: a parent cell's
#: bound can be loose by orders of magnitude on a small part of it (nim 48 on
#: [27/32, 1]: a spread of 4.8e5 beside 3e-4, every move survived the screen)
_OUTLIER = 16


class CellData:
    """The per-cell data of one position's sweep (a part of :class:`~.position._PositionSolver`)."""

    def _follower_data(self, cell: _Cell, f: _Follower, own: bool = False):
        """An enclosure of ``1 - N_u`` over the cell: ``(e, s)`` with
        ``|1 - N_u(x) - e| <= s`` for x in [lo, hi] (``s`` None when none is proved).

        Formulas of high degree: ``e`` an arb ball holding ``1 - N_u`` at the
        middle of [lo, hi] (the bound holds for that exact value, which is all
        the screen's ball arithmetic needs) and the mean-value bound around it
        (a slope bound inherited from the cell this one was split from, else
        one from cached blocks).  Low degree, or if that fails: the centre
        and radius of the exact Bernstein range.  ``own``: do not use a bound
        inherited from a parent cell."""
        u = f.position
        got = None if own else cell.enc.get(u)
        if got is None:
            bound = None
            if max(f.num.degree(), f.den.degree()) >= spread_module.MIN_DEGREE:
                slope = cell.slope.get(u)
                at_mid = None  # 1 - N_u(mid), when a model's centring computed it
                if slope is None or slope[0] is not f.rf or slope[1] is not f.neg or (own and not slope[3]):
                    model = cell.taylor.get(u)
                    if (model is not None and model[2] is not None and model[0] is f.rf and model[1] is f.neg
                            and model[3].get("slope", True)):
                        # the Taylor model made with the formula, centred here
                        # (its bound of |N''| holds on the hull it was made on,
                        # which holds this one): |N'| <= |g| + L2 |s - mid|
                        c, e, g, L2 = model[2]
                        if c != cell.mid:
                            e, g = _point_data(f.num, f.den, cell.mid)
                            cell.taylor[u] = (f.rf, f.neg, (cell.mid, e, g, L2), {})
                        with ctx.workprec(spread_module.PREC):
                            ag, rest = abs(g), L2 * arb((cell.hi - cell.lo) / 2)
                            # |g| is at most max |N'| on the cell: the bound is
                            # then within 3/2 of the best one (a block's is
                            # within 2, SLACK); a looser one gives way to the
                            # blocks (L2 made with the formula gathers the
                            # looseness of the followers' L2: without this
                            # check, nim 48 made 22,000 pair tests instead of
                            # 3,000 and took twice as long)
                            usable = bool(rest <= ag / 2)
                        if usable:
                            at_mid = e
                            slope = cell.slope[u] = (f.rf, f.neg, ag + rest, True)
                        else:
                            cell.taylor[u][3]["slope"] = False
                    if at_mid is None:
                        L = self.cells.slopes.slope(f.key, f.num, f.den, cell.lo, cell.hi, f.rf)
                        slope = cell.slope[u] = (f.rf, f.neg, L, True)
                        if model is None or model[0] is not f.rf or model[1] is not f.neg or not model[3].get("slope", True):
                            # (its blocks are at hand now: later they would be made
                            # again; and their model is tighter than one made with the formula)
                            model = self.cells.slopes.taylor(f.key, f.num, f.den, cell.lo, cell.hi, cell.mid, f.rf)
                            if model is not None:
                                cell.taylor[u] = (f.rf, f.neg, model, {})
                # around the middle of [lo, hi]: half its width at most (the
                # cell's own point t lies near its start)
                bound = spread_module.mean_value_bound(slope[2], cell.lo, cell.hi, cell.mid)
                if bound is not None:
                    # 1 - N_u(mid) as a ball: the screen computes in balls, and a
                    # ball holding the exact value serves it as well (an exact
                    # value costs three to four times as much)
                    if at_mid is not None:
                        e = at_mid
                    else:
                        with ctx.workprec(_SCREEN_PREC + max(f.num.height_bits(), f.den.height_bits())):
                            x = arb(cell.mid)
                            e = 1 - f.num(x) / f.den(x)
            if bound is None:
                pair = self.cells.enclosure(f, cell.lo, cell.hi, cell.hull)
                # without an enclosure the screening keeps every move; e is then only a value
                e, bound = pair if pair is not None else (1 - f.num(cell.t) / f.den(cell.t), None)
            got = cell.enc[u] = (e, bound)
        return got


    def _common(self, cell: _Cell) -> "_Common":
        """``B`` (> 0 on the cell) with the followers' numerators over it and the
        moves' numerators, extending the previous position's when its
        followers are a prefix of ours (as in 1-pile Nim).  Common data without
        the followers' numerators (past the cells' budget) make them on the
        visit only: the ones the last call returned are dropped when the sweep
        moves to other common data (see :class:`_Common`)."""
        data = self._common_data(cell)
        if data is not self._making:
            if self._making is not None:
                self._making.made = None
            self._making = data if data.cs is None else None
        return data


    def _common_data(self, cell: _Cell) -> "_Common":
        """:meth:`_common`'s data, found on the cell or made."""
        data = cell.common.get(self.key)
        if data is not None:
            return data
        t = cell.t
        prefix = cell.common.pop(self.key[:-1], None) if len(self.key) > 1 else None
        if prefix is not None:
            last = self.foll[-1]
            B, f = _lcm_step(prefix.B, last.den, t)
            c_last = (B // last.den) * (last.den - last.num)
            if prefix.cs is None or not self.cells.keep_followers:  # (past the cells' budget: see _Common)
                data = _Common(B, None, B, [])
            else:
                data = _Common(B, prefix.cs, prefix.scale, prefix.late + [(last.position, c_last, B)])
            # a move's numerator carries over when its row did not change on
            # the old followers: A_w' = f A_w + c_last P_w,last
            P = self.pos.P
            for w, (A, row, idle) in prefix.nums.items():
                # only what the last position used: a move's numerator left
                # unused for one position is almost never used again (nim 48:
                # 250 of 27,800 uses), and carrying those took over half the carries
                if not idle and w < len(P) and self._extends(row, w):
                    if not f.is_one():
                        A = A * f
                    weight = P[w][-1]
                    data.nums[w] = (A if weight.is_zero() else A + c_last * weight, P[w], True)
        else:
            B = ONE
            for g in self.foll:
                if not (B % g.den).is_zero():
                    B, _ = _lcm_step(B, g.den, t)
            data = self._fresh_common(B)
        if len(cell.common) > 8:  # followers are not prefixes of each other: do not hoard
            cell.common.clear()
        cell.common[self.key] = data
        return data


    def _fresh_common(self, B: fmpz_poly) -> "_Common":
        """The followers' numerators over ``B``: those of the last cell made
        here whose follower is on the same piece and whose ``B`` is equal are
        taken over (Chomp 5 x 5 all: the same ``B`` in 88 % of the cells after
        the first, and 57 % of their followers unchanged), and so is the sum
        over every follower, less and plus the ones that changed."""
        last = self._last
        foll = self.foll
        if last is None or last[0].B != B:
            data = _Common(B, {g.position: (B // g.den) * (g.den - g.num) for g in foll}, B, [])
        else:
            before, formulas = last
            old, cs, changed = before.cs, {}, []
            for g in foll:
                u = g.position
                got = formulas.get(u)
                if got is not None and got[0] is g.rf and got[1] is g.neg:
                    cs[u] = old[u]
                else:
                    cs[u] = (B // g.den) * (g.den - g.num)
                    changed.append(u)
            data = _Common(B, cs, B, [])
            every = before._total
            if every is not None and every[0] is old and 2 * len(changed) < len(cs):
                total = every[1]
                for u in changed:
                    total = total - old[u] + cs[u]
                data._total = (cs, total)
        self._last = (data, {g.position: (g.rf, g.neg) for g in foll})
        return data


    def _extends(self, row: tuple, w: int) -> bool:
        """Whether row ``w`` of this position is ``row`` (the previous position's
        row ``w``) with one entry appended (memoised: rows are shared by cells)."""
        key = (id(row), w)
        got = self._rows.get(key)
        if got is None:
            mine = self.pos.P[w]
            got = self._rows[key] = (len(mine) == len(row) + 1 and mine[:-1] == row, row)
        return got[0]


    def _numerator(self, common: "_Common", w: int) -> fmpz_poly:
        """``A_w = sum_u c_u P_wu`` over ``common.B``, one product per distinct
        weight ``P_wu`` (kept on the cell for the next position).

        A kept numerator is used only for the row it was made with: positions
        of a general game can share their followers (the key of ``common``)
        and differ in their channel rows (explicit games with channel tables)."""
        got = common.nums.get(w)
        row = self.pos.P[w]
        if got is not None and (got[1] is row or got[1] == row):
            if got[2]:
                common.nums[w] = (got[0], row, False)
            return got[0]
        acc = common.numerator(self.pos.groups[w], self._by_position)
        common.nums[w] = (acc, row, False)
        return acc


    def _carry(self, before: "_Position"):
        """What carrying a screen over from ``before`` (the position whose
        followers ours extend by one) takes, or ``None`` when it does not
        extend it by one move (the last) of the same degree:
        ``(column, fresh, Pfresh)``, the (d + 1) x m matrix of the newest
        follower's coefficients in the rows that extend ``before``'s (zero
        elsewhere), the moves whose rows do not (the last among them), and
        the matrix of their rows (row j * len(fresh) + i: coefficient j of
        ``P_{fresh[i], u}``, u across).  Memoised per ``before``."""
        got = self._rows.get(("carry", id(before)))
        if got is None or got[1] is not before:
            pos, carry = self.pos, None
            P, old, d = pos.P, before.P, pos.degree
            if before.degree == d and len(P) == len(old) + 1:
                keep = [len(P[w]) == len(row) + 1 and P[w][:-1] == row for w, row in enumerate(old)] + [False]
                fresh = [w for w, k in enumerate(keep) if not k]
                pad = lambda n: n.coeffs() + [0] * (d + 1 - len(n.coeffs()))  # noqa: E731
                col = [pad(P[w][-1]) if k else [0] * (d + 1) for w, k in enumerate(keep)]
                rows = {w: [pad(n) for n in P[w]] for w in fresh}
                carry = (
                    arb_mat([[c[j] for c in col] for j in range(d + 1)]),
                    fresh,
                    arb_mat([[c[j] for c in rows[w]] for j in range(d + 1) for w in fresh]),
                )
            got = self._rows[("carry", id(before))] = (carry, before)
        return got[0]


    def _models(self, cell: _Cell) -> list | None:
        """Every follower's Taylor model on the cell (``cell.taylor``, made
        where missing) as the pair test's row (:func:`pairtest.pair_row`,
        kept with it), in the channel rows' order; None when one is not shown."""
        out = []
        mid = cell.mid
        for f in self.foll:
            got = self._model(cell, f, True)
            if got is None:
                return None
            row = got[3].get("row")
            if row is None:
                model = got[2]
                if model[0] != mid:
                    # inherited from a wider cell: its bound of |N''| holds here, but
                    # around its own centre the remainder would grow with the
                    # distance to it; centre it here (a ball evaluation at the middle)
                    model = (mid, *_point_data(f.num, f.den, mid), model[3])
                    got = cell.taylor[f.position] = (f.rf, f.neg, model, {})
                row = got[3]["row"] = pair_row(model, cell.lo, cell.hi)
            out.append(row)
        return out


    def _model(self, cell: _Cell, f: "_Follower", blocks: bool):
        """The follower's entry in ``cell.taylor`` (made from blocks where
        missing, if ``blocks`` or its degree is low), or None when it has no model."""
        got = cell.taylor.get(f.position)
        if got is None or got[0] is not f.rf or got[1] is not f.neg:
            if not blocks and max(f.num.degree(), f.den.degree()) >= spread_module.MIN_DEGREE:
                return None
            model = self.cells.slopes.taylor(f.key, f.num, f.den, cell.lo, cell.hi, cell.mid, f.rf)
            got = cell.taylor[f.position] = (f.rf, f.neg, model, {})
        return got if got[2] is not None else None


    def _make_model(self, cell: _Cell, best: int, formula: RationalFunction) -> None:
        """Keep, in ``cell.taylor`` under this position, the Taylor model of the
        formula just made (the value of ``best`` on the cell's hull) that its
        followers' models give: ``e`` and ``g`` by a ball evaluation at the
        middle, ``L2`` by :meth:`PairTest.second_bound`.  The next positions
        take their slope bound and model of this follower from it instead of
        making blocks.  Nothing is kept when a follower has no model (a block
        would cost more than it saves) or ``Q_best > 0`` is not shown."""
        bounds = []
        lo, hi, taylor = cell.lo, cell.hi, cell.taylor
        for f in self.foll:
            got = taylor.get(f.position)  # (the common case inline: a model of the current formula)
            if got is None or got[0] is not f.rf or got[1] is not f.neg or got[2] is None:
                got = self._model(cell, f, False)
                if got is None:
                    return
            u = got[3].get("u")
            if u is None:
                u = got[3]["u"] = follower_bounds(got[2], lo, hi)
            bounds.append(u)
        L2 = self._pairs().second_bound(best, bounds, lo, hi)
        if L2 is None:
            return
        e, g = _point_data(formula.num, formula.den, cell.mid)
        # (under the name the next positions give this piece: its formula, not negated)
        cell.taylor[self.pos.position] = (formula, False, (cell.mid, e, g, L2), {})


    def _enclosure(self, cell: _Cell, j: int, make: bool = False) -> tuple:
        """Follower ``j``'s enclosure ``(e, s)`` on the cell when the screen
        made it, or ``make`` (:meth:`_follower_data`); else ``(None, None)``."""
        f = self.foll[j]
        got = cell.enc.get(f.position)
        if got is None:
            got = self._follower_data(cell, f) if make else _NO_ENCLOSURE
        return got
