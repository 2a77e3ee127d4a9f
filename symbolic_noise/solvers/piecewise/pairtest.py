"""A cheap certified test that two moves' values do not cross on a cell, and
the Taylor model of a move's value made from its followers'.

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

The same rows give the Taylor model of a move's value from its followers'
(:meth:`PairTest.second_bound`, a bound of ``V_w''`` on the cell): the
solver keeps it with every formula it makes, and the next positions take
that follower's slope bound from it instead of an exact Taylor shift of a
dyadic block (:mod:`symbolic_noise.solvers.spread`).
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
        self._abs: dict = {}  # move -> _abs_rows

    def _row(self, w: int):
        """``(R, Q)``: the (deg + 1) x k matrix of the coefficients of ``P_wv``
        (v across) and ``Q_w`` as an arb_poly."""
        got = self._rows.get(w)
        if got is None:
            got = self._rows[w] = (_coefficients(self._P[w]), arb_poly(self._Q[w]))
        return got

    def _abs_rows(self, w: int):
        """``(A, A1, A2, Q1, Q2, B1, B2)``: the (deg + 1) x k matrices of the
        absolute values of the coefficients of ``P_wv``, ``P_wv'`` and
        ``P_wv''`` (v across); ``Q_w'`` and ``Q_w''``; and the polynomials of
        the absolute values of their coefficients (upper bounds of their
        absolute values by evaluation at ``|s|``)."""
        got = self._abs.get(w)
        if got is None:
            row = self._P[w]
            firsts = [n.derivative() for n in row]
            Q1 = self._Q[w].derivative()
            Q2 = Q1.derivative()
            absolute = lambda n: arb_poly([abs(int(c)) for c in n.coeffs()])  # noqa: E731
            A = _coefficients(row, True)
            size = A.nrows()  # the derivatives' matrices padded to the row's: one vector of powers for all
            got = self._abs[w] = (
                A, _coefficients(firsts, True, size), _coefficients([n.derivative() for n in firsts], True, size),
                arb_poly(Q1), arb_poly(Q2), absolute(Q1), absolute(Q2),
            )
        return got

    def second_bound(self, w: int, bounds: list, lo: fmpq, hi: fmpq):
        """An upper bound (arb) of ``|V_w''|`` on [lo, hi], ``V_w = sum_v psi_wv
        (1 - N_v)`` the value of sending ``w``, from the followers' rows
        ``[e_v, g_v, L2_v, rho0_v, rho1_v]`` there (:func:`follower_bounds`);
        None unless ``Q_w > 0`` is shown there.  With ``1 - N_v = e_v + d0_v``,
        ``N_v' = g_v + d1_v`` (``|d0_v| <= rho0_v``, ``|d1_v| <= rho1_v``) and
        ``|N_v''| <= L2_v``,

            V'' = (E/Q)'' - 2 (G/Q)' - sum_v psi N_v'' + sum_v psi'' d0_v - 2 sum_v psi' d1_v,

        ``E = sum_v P_wv e_v``, ``G = sum_v P_wv g_v``: the first two are
        evaluated as rational functions on the cell's ball (tight: no
        cancellation is lost), the rest bounded term by term (``psi >= 0``;
        ``|psi'|``, ``|psi''|`` through the absolute values of the rows'
        coefficients at ``|s| <= hi``, loose, but against the small ``rho``)."""
        if len(self._P[w]) != len(bounds):
            return None
        R, Q = self._row(w)
        A, A1, A2, Qp, Qpp, Q1, Q2 = self._abs_rows(w)
        with ctx.workprec(PREC):
            X = arb(lo).union(arb(hi))
            q = Q(X)
            if not q > 0:
                return None
            U = arb_mat(bounds)  # k x 5
            W = R * U
            n = W.nrows()
            E, G, L = (arb_poly([W[i, j] for i in range(n)]) for j in range(3))
            q1, q2 = Qp(X), Qpp(X)
            Ep = E.derivative()
            e, e1, e2 = E(X), Ep(X), Ep.derivative()(X)
            g, g1 = G(X), G.derivative()(X)
            signed = abs((e2 - (2 * e1 * q1 + e * q2) / q + 2 * e * q1 * q1 / (q * q)) / q) + 2 * abs((g1 - g * q1 / q) / q) + abs(L(X) / q)
            h = arb(hi)
            powers = [arb(1)]
            for _ in range(A.nrows() - 1):
                powers.append(powers[-1] * h)
            x = arb_mat([powers])
            s0, s1, s2 = (x * A * U), (x * A1 * U), (x * A2 * U)  # sum_v |P^(i)_wv(s)| U_v, bounded
            ql, a1, a2 = arb(q.lower()), Q1(h), Q2(h)
            loose = (s2[0, 3] + (2 * s1[0, 3] * a1 + s0[0, 3] * a2) / ql + 2 * s0[0, 3] * a1 * a1 / (ql * ql)) / ql
            loose += 2 * (s1[0, 4] + s0[0, 4] * a1 / ql) / ql
            bound = signed + loose
            return bound.abs_upper() if bound.is_finite() else None

    def cell(self, rows: list, lo: fmpq, hi: fmpq) -> "_CellPairs":
        """The pair tests on [lo, hi] from the followers' rows
        (:func:`pair_row` of each follower's Taylor model, in the channel rows' order)."""
        return _CellPairs(self, rows, lo, hi)


def _coefficients(polys: list, absolute: bool = False, size: int | None = None) -> arb_mat:
    """The ``size`` x len(polys) matrix (``size`` at least the largest degree
    + 1, that by default) whose row j holds coefficient j of every polynomial
    (their absolute values if ``absolute``)."""
    if size is None:
        size = max(max((n.degree() for n in polys), default=0), 0) + 1
    rows = [[0] * len(polys) for _ in range(size)]
    for i, n in enumerate(polys):
        for j, c in enumerate(n.coeffs()):
            rows[j][i] = abs(int(c)) if absolute else c
    return arb_mat(rows)


def pair_row(model: tuple, lo: fmpq, hi: fmpq) -> list:
    """A follower's Taylor model ``(c_v, e_v, g_v, L2_v)`` on [lo, hi] as its row
    ``[a_v, g_v, r_v]`` of the pair test (``a_v = e_v + c_v g_v``, ``r_v`` the
    largest remainder ``L2_v (s - c_v)^2 / 2`` there)."""
    cv, e, g, L2 = model
    reach = max(abs(lo - cv), abs(hi - cv))
    with ctx.workprec(PREC):
        return [e + g * arb(cv), g, L2 * arb(reach * reach) / 2]


def follower_bounds(model: tuple, lo: fmpq, hi: fmpq) -> list:
    """``[e, g, L2, rho0, rho1]`` for :meth:`PairTest.second_bound` from a
    Taylor model ``(c, e, g, L2)`` that holds on [lo, hi]: with ``R = max |s - c|``
    there, ``1 - N(s) - e`` is at most ``rho0 = |g| R + L2 R^2 / 2`` and
    ``N'(s) - g`` at most ``rho1 = L2 R`` (the mean value theorem) in absolute value."""
    c, e, g, L2 = model
    with ctx.workprec(PREC):
        R = arb(max(abs(lo - c), abs(hi - c)))
        return [e, g, L2, (abs(g) * R + L2 * R * R / 2).abs_upper(), (L2 * R).abs_upper()]


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


__all__ = ["PairTest", "follower_bounds", "pair_row"]
