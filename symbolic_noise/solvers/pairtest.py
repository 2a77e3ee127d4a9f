"""A cheap certified test that two moves' values do not cross on a cell.

The solver's exact test of a pair of moves ``b`` (the leader) and ``c`` on a
cell is a Bernstein/Descartes test of ``D = A_b Q_c - A_c Q_b``, a polynomial
of the followers' degree (150 to 300 at Nim k = 48 to 64) with coefficients of
thousands of bits on the cell: at nim 56, 10,849 of its 13,052 runs found no
root and took 23 % of the solve.  The screening that runs before it bounds
every move's value by ``value at the middle +- spread``, and the spreads of
the two moves add up, so moves whose values stay close but apart survive it.

Here the difference itself is bounded, to second order.  Every follower ``v``
has a Taylor model on the cell (:meth:`SlopeBounds.taylor`): balls ``e_v``,
``g_v``, ``L2_v`` with

    1 - N_v(s)  in  e_v - g_v (s - c_v)  +-  L2_v (s - c_v)^2 / 2     (s in [lo, hi]),

so with ``psi_wv = P_wv / Q_w`` (the channel's probabilities, ``P_wv >= 0``
and ``Q_w > 0`` on the cell) and ``a_v = e_v + c_v g_v``,

    (V_b - V_c)(s) Q_b Q_c  in  Main(s) +- Rem(s),
    Main = Q_c sum_v P_bv a_v - Q_b sum_v P_cv a_v - s (Q_c sum_v P_bv g_v - Q_b sum_v P_cv g_v),
    Rem  = Q_c sum_v P_bv r_v + Q_b sum_v P_cv r_v,      r_v = L2_v max (s - c_v)^2 / 2.

``Main`` and ``Rem`` have the channel's degree (about 13 for the binary
channel), so their bounds over the cell are a few ball operations: ``Main``
in the centred form around the cell's middle (``|Main(m + h) - Main(m)| <=
sum_i |main_i| r^i`` with the Taylor coefficients ``main_i`` at ``m``).  When
``|Main(m)|`` exceeds that plus the largest ``Rem``, the difference of the
two values keeps one sign on the whole closed cell: ``D`` has no root there
and is not 0 at its start.  Ball arithmetic rounds outward, so the answer
``True`` is certain; ``False`` only means "not shown" (the exact test runs).
"""

from __future__ import annotations

from flint import arb, arb_mat, arb_poly, ctx, fmpq

#: working precision (bits); the followers' data are 64-bit balls
PREC = 128


class PairTest:
    """Per-position matrices of the channel rows; :meth:`cell` takes the
    followers' models on one cell, :meth:`apart` tests a pair there."""

    def __init__(self, P: list, Q: list):
        self._P, self._Q = P, Q
        self._rows: dict = {}  # move -> (arb_mat (deg + 1) x k of P_wv's coefficients, arb_poly Q_w)

    def _row(self, w: int):
        got = self._rows.get(w)
        if got is None:
            row = self._P[w]
            d = max(max((n.degree() for n in row), default=0), 0)
            coeffs = [n.coeffs() + [0] * (d + 1 - len(n.coeffs())) for n in row]
            got = self._rows[w] = (arb_mat([[c[j] for c in coeffs] for j in range(d + 1)]), arb_poly(self._Q[w]))
        return got

    def cell(self, rows: list, lo: fmpq, hi: fmpq) -> "_CellPairs":
        """The pair tests on [lo, hi] from the followers' rows
        (:func:`pair_row` of each follower's Taylor model, in the channel rows' order)."""
        return _CellPairs(self, rows, lo, hi)


def pair_row(model: tuple, lo: fmpq, hi: fmpq) -> list:
    """A follower's Taylor model ``(c_v, e_v, g_v, L2_v)`` on [lo, hi] as its row
    ``[a_v, g_v, r_v]`` of the pair test (``a_v = e_v + c_v g_v``, ``r_v`` the
    largest remainder ``L2_v (s - c_v)^2 / 2`` there)."""
    cv, e, g, L2 = model
    reach = max(abs(lo - cv), abs(hi - cv))
    with ctx.workprec(PREC):
        return [e + g * arb(cv), g, L2 * arb(reach * reach) / 2]


class _CellPairs:
    """The followers' rows on one cell as a k x 3 ball matrix (``a_v``,
    ``g_v``, ``r_v``), and each move's sums ``sum_v P_wv (a_v, g_v, r_v)``."""

    def __init__(self, rows: PairTest, followers: list, lo: fmpq, hi: fmpq):
        self.rows, self.k = rows, len(followers)
        self.mid, self.r = (lo + hi) / 2, (hi - lo) / 2
        with ctx.workprec(PREC):
            self.V = arb_mat(followers)
            self.X = arb(lo).union(arb(hi))
        self._sums: dict = {}  # move -> (Q_w, its three sums as arb_polys) or None

    def _sums_of(self, w: int):
        got = self._sums.get(w, False)
        if got is False:
            got = None
            if len(self.rows._P[w]) == self.k:
                R, Q = self.rows._row(w)
                if Q(self.X) > 0:
                    W = R * self.V
                    n = W.nrows()
                    got = (Q, [arb_poly([W[i, j] for i in range(n)]) for j in range(3)])
            self._sums[w] = got
        return got

    def apart(self, b: int, c: int) -> bool:
        """Whether the values of moves ``b`` and ``c`` differ at every point of
        the cell (then neither crosses the other there); ``False`` when not shown."""
        with ctx.workprec(PREC):
            one, other = self._sums_of(b), self._sums_of(c)
            if one is None or other is None:
                return False
            (Qb, (ab, gb, rb)), (Qc, (ac, gc, rc)) = one, other
            main = Qc * ab - Qb * ac - arb_poly([0, 1]) * (Qc * gb - Qb * gc)
            rem = (Qc * rb + Qb * rc)(self.X)
            centred = main(arb_poly([self.mid, 1])).coeffs()  # main(mid + h)
            if not centred:
                return False
            spread = arb(0)
            step = power = arb(self.r)
            for coeff in centred[1:]:
                spread += abs(coeff) * power
                power *= step
            margin = spread + abs(rem)
            value = centred[0]
            return bool(value - margin > 0 or value + margin < 0)


__all__ = ["PairTest", "pair_row"]
