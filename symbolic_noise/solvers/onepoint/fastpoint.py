"""Fast backward induction at one rational p, exact or in certified balls.

:func:`symbolic_noise.solvers.onepoint.pointwise.evaluate` is the slow reference: it builds every
psi matrix as rational functions and multiplies entry by entry.  This module
answers the same question ("N_v at this p, every sent move's value, the exact
optimal set") at a cost that follows the game's structure:

* **1-pile Nim, binary channel.**  With ``p = a/b`` and ``c = b - a`` the channel's
  weights, times ``b^n``, are the integers ``w(d) = a^d c^(n-d)`` of the Hamming
  distance ``d``.  For every code ``s`` of width ``n`` two running sums are kept,
  ``G[s] = sum_{r<k} w(d(s, r))`` and ``A[s] = sum_{r<k} w(d(s, r)) X_r`` where
  ``X_r = (1 - N_r) D`` over one common denominator ``D``, so that
  ``N_k(send s) = A[s] / (D G[s])``.  Going from heap k to k + 1 adds one term
  to every sum (a vector update done by FLINT on an ``fmpz_mat`` column), and
  widening the codes from n to n + 1 digits maps ``A`` to ``[c A; a A]``.  The
  cost per heap is linear in the number of codes instead of quadratic.
* **Chomp, neighbour channels.**  The king and rook channels are sparse:
  ``N_v(t) = p x_t + (1 - p)/|nb(t)| sum_{u in nb(t)} x_u`` with ``x = 1 - N``
  at the followers, and the ``all`` channel uses the sum over every move.
* **Constant channels.**  ``uniform`` makes every move equal (the mean of the
  followers' ``1 - N``), ``identity`` is the classical game.
* **Anything else**: the channel's exact psi at p times the followers' vector, as
  an ``fmpq_mat`` product.

Every comparison in ``exact`` mode is exact.  In ``ball`` mode the same
induction runs in arb ball arithmetic: each value is a ball certified to contain
the exact value (the max of balls is a ball holding the max), and the root's
optimal set is reported only when no two moves' balls can be confused; the
caller falls back to the exact mode otherwise (see :mod:`symbolic_noise.io.pointgrid`).

Examples
--------
>>> from symbolic_noise.games.rulesets import Nim
>>> r = point_solve(Nim(3), "binary", "1/2")
>>> r.value, sorted(r.optimal)
(1/2, [0, 1, 2])
>>> point_solve(Nim(3), "binary", "1/4").value      # (1 - p + p^2)/(1 + p)
13/20
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce

from flint import arb, arb_mat, ctx, fmpq, fmpq_mat, fmpz, fmpz_mat

from ...games.channels import BinaryChannel, Channel, IdentityChannel, NeighbourChannel, UniformChannel, get_channel
from ...errors import IntervalError, InvalidChannelError
from ...games.rulesets import Chomp, Game, Nim
from ...exact.formula import exact_number



@dataclass(frozen=True)
class PointAnswer:
    """The answer at one p for one position.

    ``value`` is an ``fmpq`` (exact mode) or an ``arb`` ball holding the exact
    value (ball mode); ``optimal`` is the set of optimal moves by name, or
    ``None`` in ball mode when the balls could not separate the moves;
    ``move_values`` maps every sent move's name to its value (root only, empty
    for other positions)."""

    p: fmpq  #: the exact p of the answer
    value: object  #: ``N_v(p)`` as an ``fmpq``, or an ``arb`` ball holding it in ball mode
    optimal: frozenset | None  #: the optimal moves by name (``None`` if the balls could not separate them)
    move_values: dict  #: every sent move's name to its value (the root only; empty elsewhere)
    method: str = "exact"  #: how it was computed, ``"exact"``, ``"ball"`` or ``"piecewise"`` (read from a stored solution)

    def _repr_html_(self) -> str:
        from ...io.display import point_answer_html

        return point_answer_html(self)


def check_p(p) -> fmpq:
    """``p`` as an exact rational in [0, 1] (:class:`IntervalError` otherwise).

    >>> check_p("3/10")
    3/10
    """
    p = exact_number(p)
    if not 0 <= p <= 1:
        raise IntervalError(f"p = {p} is outside [0, 1]")
    return p


def point_solve(game: Game, channel: Channel | str, p, *, start=None, misere: bool = False,
                method: str = "exact", prec: int = 128, all_positions: bool = False):
    """N at ``start`` (default: the game's start) for one exact ``p``, fast.

    ``method`` is ``"exact"`` (fmpq values, exact optimal sets) or ``"ball"``
    (arb balls at ``prec`` bits; ``optimal`` is ``None`` where balls overlap).
    With ``all_positions=True`` the answer is ``{position: PointAnswer}`` for
    every position reachable from the start (``move_values`` kept at the start
    only).

    >>> from symbolic_noise.games.rulesets import Chomp
    >>> r = point_solve(Chomp(2, 2), "king", "1/3")        # N = max{p, (1-p)/2}
    >>> r.value, sorted(r.optimal)
    (1/3, [(1, 2), (2, 1), (2, 2)])
    """
    channel = get_channel(channel)
    p = check_p(p)
    if method not in ("exact", "ball"):
        raise ValueError(f"method must be 'exact' or 'ball', not {method!r}")
    root = game.start() if start is None else game.check_position(start)
    old = ctx.prec
    ctx.prec = max(prec, 53)
    try:
        ar = _Exact() if method == "exact" else _Ball()
        nim = isinstance(game, Nim) and type(channel) is BinaryChannel and channel.key() == "binary"
        if nim and p < 1:
            raw = _nim_binary(root, p, misere, ar, all_positions)
        elif nim:
            raw, method = _nim_binary_at_one(root, misere, all_positions), "exact"
        elif ar.exact and type(channel) is NeighbourChannel and isinstance(game, Chomp):
            raw = _chomp_exact(root, channel.kind, p, misere, all_positions)
        else:
            raw = _generic(game, channel, root, p, misere, ar, all_positions)
    finally:
        ctx.prec = old
    out = {}
    for v, (value, best, moves) in raw.items():
        names = _move_names(game, v)
        opt = None if best is None else frozenset(names[i] for i in best)
        mv = {names[i]: x for i, x in enumerate(moves)} if v == root and moves is not None else {}
        out[v] = PointAnswer(p, value, opt, mv, method)
    return out if all_positions else out[root]


def _move_names(game, v):
    """The names of the moves at ``v``, in follower order."""
    if isinstance(game, Nim):
        return range(v)
    if isinstance(game, Chomp):
        return _chomp_squares(v)  # a Chomp move is named by its square, in follower order
    return [game.move_label(v, w) for w in game.followers(v)]


def _chomp_squares(v):
    return [(i, j) for i in range(1, len(v) + 1) for j in range(2 if i == 1 else 1, v[i - 1] + 1)]


def _chomp_followers(v):
    """``Chomp.followers(v)``, inlined: the bite at (i, j) keeps rows below i and
    cuts the others to j - 1 squares."""
    return [v[: i - 1] if j == 1 else v[: i - 1] + tuple([r if r < j else j - 1 for r in v[i - 1 :]])
            for i, j in _chomp_squares(v)]


# --------------------------------------------------------------------------- arithmetic


class _Exact:
    """Exact rationals: the max and the set attaining it, decided exactly."""

    exact = True

    def num(self, q):
        return fmpq(q) if not isinstance(q, fmpq) else q

    def best(self, values):
        top = max(values)
        return top, [i for i, x in enumerate(values) if x == top]


class _Ball:
    """arb balls: the max is a ball holding the max; the argmax only when certain."""

    exact = False

    def num(self, q):
        return arb(q)

    def best(self, values):
        top = reduce(lambda x, y: x.max(y), values)
        floor = max((x.lower() for x in values), key=BallKey)
        cands = [i for i, x in enumerate(values) if not (x.upper() < floor)]
        return top, (cands if len(cands) == 1 else None)


class BallKey:
    """Sort key for arb balls whose ends are exact (their lower or upper ends,
    or their midpoints): ``max(balls, key=BallKey)``."""

    __slots__ = {"x": "The ball (or exact number) compared."}

    def __init__(self, x):
        self.x = x

    def __lt__(self, other):
        return bool(self.x < other.x)


# --------------------------------------------------------------------------- 1-pile Nim, binary channel


def _popcounts(n):
    return [bin(s).count("1") for s in range(1 << n)]


def _nim_binary(K, p, misere, ar, keep_all):
    """``{k: (N_k, optimal indices, per-move values or None)}`` for k <= K, 0 < p < 1."""
    a, b = int(p.p), int(p.q)
    c = b - a
    x0 = 0 if misere else 1
    out = {0: (ar.num(1 - x0), [], [])}
    if K == 0:
        return out
    exact = ar.exact
    n = 1
    pc = _popcounts(n)
    weights = [a**d * c ** (n - d) for d in range(n + 1)]
    # sums over r < 1 = {0}
    G = [weights[pc[s]] for s in range(2)]
    if exact:
        D = fmpz(1)
        A = fmpz_mat(2, 1, [g * x0 for g in G])
    else:
        A = arb_mat(2, 1, [arb(g * x0) for g in G])
    for k in range(1, K + 1):
        # the codes have the width of k here: the end of the last step widened them
        As = A.entries()[:k]
        Gs = G[:k]
        if exact:
            best, ab, gb = _argmax_ratio(As, Gs)
            value = fmpq(ab, D * gb)
            moves = [fmpq(As[s], D * Gs[s]) for s in range(k)] if k == K else None
            top = value
        else:
            vals = [As[s] / Gs[s] for s in range(k)]
            top, best = ar.best(vals)
            moves = vals if k == K else None
        if keep_all or k == K:
            out[k] = (top, best, moves)
        if k == K:
            break
        # add the heap r = k to every running sum (codes of width of k + 1)
        width = (k + 1).bit_length()
        if width > n:
            A, G, n = _widen(A, G, a, c, exact), [c * g for g in G] + [a * g for g in G], width
            pc, weights = _popcounts(n), [a**d * c ** (n - d) for d in range(n + 1)]
        w = [weights[pc[s ^ k]] for s in range(1 << n)]
        if exact:
            num, den = value.p, value.q
            g = D.gcd(den)
            scale = den // g  # D' = lcm(D, den) = D * scale
            D = D * scale
            X = (den - num) * (D // den)
            A = A * scale + fmpz_mat(1 << n, 1, w) * X if scale != 1 else A + fmpz_mat(1 << n, 1, w) * X
        else:
            A = A + arb_mat(1 << n, 1, w) * (1 - top)
        G = [x + y for x, y in zip(G, w)]
    return out


def _nim_binary_at_one(K, misere, keep_all):
    """Nim through the binary channel at p = 1, exactly: the limit of the channel
    spreads the received move evenly over the legal codes farthest from the sent
    one (theory.md 3.1).  For every code ``s`` the farthest distance so far, the
    sum of ``1 - N`` over the farthest codes and their number are kept."""
    x0 = fmpq(0 if misere else 1)
    out = {0: (1 - x0, [], [])}
    if K == 0:
        return out
    far, tot, cnt = [0, 1], [x0, x0], [1, 1]  # width 1, codes {0, 1}, r = 0 added
    n = 1
    for k in range(1, K + 1):
        # the codes have the width of k here: the end of the last step widened them
        moves = [tot[s] / cnt[s] for s in range(k)]
        top = max(moves)
        if keep_all or k == K:
            out[k] = (top, [s for s, x in enumerate(moves) if x == top], moves if k == K else None)
        if k == K:
            break
        if (k + 1).bit_length() > n:  # a leading digit: every distance to s + 2^n grows by one
            far, tot, cnt, n = far + [d + 1 for d in far], tot * 2, cnt * 2, n + 1
        x = 1 - top
        for s in range(1 << n):
            d = bin(s ^ k).count("1")
            if d > far[s]:
                far[s], tot[s], cnt[s] = d, x, 1
            elif d == far[s]:
                tot[s] += x
                cnt[s] += 1
    return out


def _widen(A, G, a, c, exact):
    """Codes gain a leading digit: rows with a 0 there scale by c, with a 1 by a."""
    e = A.entries()
    m = len(e)
    if exact:
        return fmpz_mat(2 * m, 1, [x * c for x in e] + [x * a for x in e])
    return arb_mat(2 * m, 1, [x * c for x in e] + [x * a for x in e])


def _argmax_ratio(As, Gs):
    """Indices maximising ``As[s] / Gs[s]`` (all ``Gs > 0``), exactly."""
    ab, gb, best = As[0], Gs[0], [0]
    for s in range(1, len(As)):
        lhs, rhs = As[s] * gb, ab * Gs[s]
        if lhs > rhs:
            ab, gb, best = As[s], Gs[s], [s]
        elif lhs == rhs:
            best.append(s)
    return best, ab, gb


# --------------------------------------------------------------------------- every other game


def _positions(game, root):
    if isinstance(game, Chomp):
        return _young_diagrams(root)
    return game.positions(root)


def _young_diagrams(root):
    """Every Chomp position inside ``root`` (followers before positions)."""
    out = []

    def rec(prefix, limit, i):
        if i == len(root) or limit == 0:
            out.append(tuple(prefix))
            return
        for r in range(0, min(limit, root[i]) + 1):
            if r == 0:
                out.append(tuple(prefix))
            else:
                prefix.append(r)
                rec(prefix, r, i + 1)
                prefix.pop()

    for r in range(1, root[0] + 1):
        rec([r], r, 1)
    out.sort(key=sum)
    return out


def _chomp_exact(root, kind, p, misere, keep_all):
    """Chomp through a neighbour channel, exactly, on integers.

    At each position the followers' ``1 - N`` are put over their least common
    denominator ``L`` on a padded grid of the board; the king/rook sums over
    legal neighbours come from row and column sliding sums.  With ``p = a/b``,
    ``c = b - a`` and ``cnt`` legal neighbours, the move to square t is worth
    ``(a cnt X_t + c S_t) / (b cnt L)``, so ``key_t = (a cnt X_t + c S_t) 840/cnt``
    (840 = lcm(1..8)) ranks the moves with integer comparisons only and
    ``N(t) = key_t / (840 b L)``."""
    a, b = int(p.p), int(p.q)
    c = b - a
    x_of = {}  # position -> (numerator, denominator) of 1 - N, in lowest terms
    out = {}
    for v in _young_diagrams(root):
        if v == (1,):
            n0 = 1 if misere else 0
            x_of[v] = (1 - n0, 1)
            if keep_all or v == root:
                out[v] = (fmpq(n0), [], [])
            continue
        rows, width = len(v), v[0]
        squares = _chomp_squares(v)
        fx = [x_of[w] for w in _chomp_followers(v)]
        L = math.lcm(*(d for _, d in fx))
        xs = [n * (L // d) for n, d in fx]
        m = len(xs)
        if kind == "all":
            M = m - 1
            if M == 0:
                keys, D = xs, L
            else:
                total = sum(xs)
                keys, D = [a * M * x + c * (total - x) for x in xs], b * M * L
        else:
            X = [[0] * (width + 2) for _ in range(rows + 2)]
            legal = [[0] * (width + 2) for _ in range(rows + 2)]
            for (i, j), x in zip(squares, xs):
                X[i][j] = x
                legal[i][j] = 1
            if kind == "king":
                HX = [[r[j - 1] + r[j] + r[j + 1] for j in range(width + 1)] + [0] for r in X]
                HL = [[r[j - 1] + r[j] + r[j + 1] for j in range(width + 1)] + [0] for r in legal]
                nb = [(HX[i - 1][j] + HX[i][j] + HX[i + 1][j] - X[i][j], HL[i - 1][j] + HL[i][j] + HL[i + 1][j] - 1)
                      for i, j in squares]
            else:
                nb = [(X[i - 1][j] + X[i + 1][j] + X[i][j - 1] + X[i][j + 1],
                       legal[i - 1][j] + legal[i + 1][j] + legal[i][j - 1] + legal[i][j + 1]) for i, j in squares]
            keys = [(a * k * x + c * S) * (840 // k) if k else x * b * 840 for x, (S, k) in zip(xs, nb)]
            D = 840 * b * L
        top = max(keys)
        g = math.gcd(top, D)
        n, d = top // g, D // g
        x_of[v] = (d - n, d)
        if keep_all or v == root:
            best = [t for t, k in enumerate(keys) if k == top]
            out[v] = (fmpq(n, d), best, [fmpq(k, D) for k in keys] if v == root else None)
    return out


def _generic(game, channel, root, p, misere, ar, keep_all):
    terminal = ar.num(1 if misere else 0)
    one = ar.num(1)
    x_of = {}  # position -> 1 - N
    out = {}
    kind = _kind(game, channel)
    ball_p = ar.num(p)
    chomp = isinstance(game, Chomp)
    for v in _positions(game, root):
        fs = _chomp_followers(v) if chomp else game.followers(v)
        if not fs:
            value, best, moves = terminal, [], []
        else:
            xs = [x_of[u] for u in fs]
            if kind is _uniform:  # every move is worth the mean: all of them are optimal
                moves = _uniform(game, v, fs, xs, ball_p, p, ar)
                value, best = moves[0], range(len(xs))
            else:
                moves = kind(game, v, fs, xs, ball_p, p, ar)
                value, best = ar.best(moves)
        x_of[v] = one - value
        if keep_all or v == root:
            out[v] = (value, best, moves if v == root else None)
    return out


def _kind(game, channel):
    if type(channel) is UniformChannel:
        return _uniform
    if type(channel) is IdentityChannel:
        return lambda game, v, fs, xs, bp, p, ar: list(xs)
    if type(channel) is NeighbourChannel and isinstance(game, Chomp):
        return _neighbour(channel.kind)
    return _matrix(channel)


def _uniform(game, v, fs, xs, bp, p, ar):
    mean = sum(xs[1:], xs[0]) / len(xs)
    return [mean] * len(xs)


def _neighbour(kind):
    steps = {
        "king": [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0)],
        "rook": [(-1, 0), (1, 0), (0, -1), (0, 1)],
    }.get(kind)

    def moves(game, v, fs, xs, bp, p, ar):
        squares = game.squares(v)
        q = 1 - bp
        if steps is None:  # every other legal move
            m = len(xs)
            if m == 1:
                return list(xs)
            total = sum(xs[1:], xs[0])
            return [bp * x + q * (total - x) / (m - 1) for x in xs]
        at = {sq: x for sq, x in zip(squares, xs)}
        out = []
        for (i, j), x in zip(squares, xs):
            nb = [at[t] for t in ((i + di, j + dj) for di, dj in steps) if t in at]
            if not nb:
                out.append(x)
            else:
                out.append(bp * x + q * sum(nb[1:], nb[0]) / len(nb))
        return out

    return moves


def _matrix(channel):
    def moves(game, v, fs, xs, bp, p, ar):
        try:
            psi = channel.rows(game, v).at(p)
        except ZeroDivisionError:
            raise InvalidChannelError(f"psi at position {game.position_label(v)} has a pole at p = {p}", position=v, p=p) from None
        m = len(fs)
        if not channel.trusted:  # a user's psi must be a distribution at this p
            for w, row in zip(fs, psi):
                if any(e < 0 for e in row) or sum(row, fmpq(0)) != 1:
                    raise InvalidChannelError(
                        f"psi at position {game.position_label(v)}, sent {game.move_label(v, w)!r} is not a probability"
                        f" distribution at p = {p}", position=v, sent=game.move_label(v, w), p=p,
                    )
        if ar.exact:
            prod = fmpq_mat(m, m, [e for row in psi for e in row]) * fmpq_mat(m, 1, xs)
            return prod.entries()
        prod = arb_mat(m, m, [arb(e) for row in psi for e in row]) * arb_mat(m, 1, xs)
        return prod.entries()

    return moves


# --------------------------------------------------------------------------- constant channels


def is_constant_channel(game: Game, channel: Channel, root, interval) -> bool:
    """True if no psi entry at any position below ``root`` depends on p.

    ``uniform`` and ``identity`` are constant by construction, the built-in
    binary and neighbour channels are not; any other channel (a custom one, or
    a parametric one fixed at a value) is inspected position by position, and
    validated on ``interval`` as the piecewise solver would.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> is_constant_channel(Nim(4), get_channel("uniform"), 4, (0, 1))
    True
    >>> is_constant_channel(Nim(4), get_channel("binary"), 4, (0, 1))
    False
    """
    if type(channel) in (UniformChannel, IdentityChannel):
        return True
    if type(channel) in (BinaryChannel, NeighbourChannel):
        return False
    rows_seen = []
    for v in game.positions(root):
        if not game.followers(v):
            continue
        rows = channel.rows(game, v)
        if any(q.degree() > 0 for q in rows.den) or any(n.degree() > 0 for row in rows.num for n in row):
            return False
        rows_seen.append((v, rows))
    for v, rows in rows_seen:
        channel.check(game, v, rows, interval)
    return True


def solve_constant(game: Game, channel: Channel, interval, root, *, misere: bool = False):
    """The one-piece :class:`~symbolic_noise.solvers.solution.Solution` of a game through a
    constant channel (one exact evaluation), or ``None`` if the channel depends on p.

    >>> from symbolic_noise.games.rulesets import Chomp
    >>> sol = solve_constant(Chomp(2, 2), get_channel("uniform"), (fmpq(0), fmpq(1)), (2, 2))
    >>> sol.value().formulas[0], sorted(sol.at("1/3").optimal)
    (parse_formula('1/3'), [(1, 2), (2, 1), (2, 2)])
    """
    from ...exact.piecewise import PiecewiseFunction
    from ..solution import Solution

    a, b = interval
    if not is_constant_channel(game, channel, root, (a, b)):
        return None
    answers = point_solve(game, channel, a, start=root, misere=misere, all_positions=True)
    values = {}
    for v in _positions(game, root):
        ans = answers[v]
        values[v] = PiecewiseFunction.constant(ans.value, a, b, ans.optimal, ans.optimal)
    return Solution(game, channel, (a, b), values, root, misere)


def ball_bounds(x) -> tuple[fmpq, fmpq]:
    """Exact rational ends ``(lo, hi)`` of an arb ball (an fmpq passes as itself).

    >>> lo, hi = ball_bounds(arb(1) / 3)
    >>> lo < fmpq(1, 3) < hi
    True
    """
    if isinstance(x, fmpq):
        return x, x
    if not x.is_finite():
        raise ValueError("the ball is not finite")
    m, e = x.mid().man_exp()
    r, f = x.rad().man_exp()
    mid = fmpq(int(m)) * _pow2(int(e))
    rad = fmpq(int(r)) * _pow2(int(f))
    return mid - rad, mid + rad


def _pow2(e: int) -> fmpq:
    return fmpq(2**e) if e >= 0 else fmpq(1, 2 ** (-e))


def value_at(game: Game, channel: Channel | str, p, *, start=None, misere: bool = False, store=None) -> PointAnswer:
    """N at one exact ``p``: read off the piecewise solution when ``store`` (a
    :class:`~symbolic_noise.solvers.storage.cache.SolutionCache`) already holds it, else computed
    by :func:`point_solve` (exact), without solving for every p.

    >>> from symbolic_noise.games.rulesets import Nim
    >>> r = value_at(Nim(2), "binary", "1/4")
    >>> r.value, r.optimal, r.move_values
    (3/4, frozenset({0}), {0: 3/4, 1: 1/4})
    """
    channel = get_channel(channel)
    p = check_p(p)
    root = game.start() if start is None else game.check_position(start)
    if store is not None and game.followers(root):
        f = store.load(root)
        if f is not None and f.points[0].compare(p) <= 0 <= f.points[-1].compare(p):
            return PointAnswer(p, f(p), f.label_at(p), {}, "piecewise")
    return point_solve(game, channel, p, start=root, misere=misere)
