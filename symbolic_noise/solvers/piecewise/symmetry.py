"""Positions solved as mirror images of positions already solved.

A symmetry of a game is an involution ``t`` of its positions and of its move
labels that maps every move ``v -> w`` (label ``l``) to the move ``t(v) ->
t(w)`` (label ``t(l)``): the transposition of a square Chomp board, which maps
a Young diagram to its conjugate and the square ``(i, j)`` to ``(j, i)``.
When the channel respects it at a position ``v``,

    psi_v(w, u) = psi_t(v)(t(w), t(u))      for every sent w and delivered u,

and at every position below (by induction: the followers of ``t(v)`` are the
mirror images of ``v``'s), the two positions have the same value as a
function of p, and the optimal moves of ``t(v)`` are the mirror images of
``v``'s.  So ``t(v)``'s value is ``v``'s with every optimal-move label
mapped: the same breakpoints and formulas, no solve.

Nothing is taken on trust.  Every time a position ``v`` is mirrored,
:func:`respects` checks that the labels and followers of ``v`` and ``t(v)``
correspond and compares their channel rows exactly (``num_v[w][u]
den_t[t(w)] == num_t[t(w)][t(u)] den_v[w]``, integer polynomials), and
:func:`mirrored` checks that every follower ``u`` of ``v`` has the same
value as ``t(u)`` (the same breakpoints and formulas: shared objects when
one was mirrored from the other, else compared exactly).  Those two facts
make ``v``'s value equal ``t(v)``'s whatever the channel does elsewhere;
where either fails, ``v`` is solved as usual.

A position that is its own image (a self-conjugate diagram) is solved, but
over one move of each pair ``{w, t(w)}`` only (:func:`representatives`: the
two are worth the same everywhere, by the same two checks), and its optimal
sets are closed under ``t`` after (:func:`close_labels`).  The split by
positions (:mod:`symbolic_noise.solvers.schedules.positionsplit`) has the worker that
solves a position mirror it at once, when the driver knows every follower
to be a twin (mirrored from its image, or its own image); then only the
rows are compared there (:func:`mirror_checked`).

On an n x n Chomp board all but the 2^n - 1 self-conjugate positions come in
pairs: 7 x 7 has 3,431 positions, of which 1,779 are solved.

>>> from symbolic_noise import Chomp, solve
>>> from symbolic_noise.games.channels import get_channel
>>> game = Chomp(3, 3)
>>> t = game.symmetry()
>>> t.position((3, 1)), t.move((1, 2))
((2, 1, 1), (2, 1))
>>> respects(game, get_channel("king"), (3, 1), (2, 1, 1), t)
True
>>> sol = solve(game, "king")
>>> sol.value((2, 1, 1)).labels == mirror(sol.value((3, 1)), t).labels
True
"""

from __future__ import annotations

from ...exact.piecewise import PiecewiseFunction
from ...games.channels import Channel
from ...games.rulesets import Game


def respects(game: Game, channel: Channel, v, tv, t, rows=None, trows=None) -> bool:
    """Whether the move labels, the followers and the channel rows of ``v`` and
    ``tv = t.position(v)`` correspond under the symmetry ``t`` (exactly);
    ``rows`` and ``trows``: the rows of ``v`` and ``tv``, if made already."""
    fv, ft = game.followers(v), game.followers(tv)
    if len(fv) != len(ft):
        return False
    where = {game.move_label(tv, w): k for k, w in enumerate(ft)}
    if len(where) != len(ft):
        return False
    perm = [where.get(t.move(game.move_label(v, w))) for w in fv]
    if None in perm or len(set(perm)) != len(perm):
        return False
    if any(ft[k] != t.position(w) for k, w in zip(perm, fv)):
        return False
    rv = rows if rows is not None else channel.rows(game, v)
    rt = rv if tv == v else trows if trows is not None else channel.rows(game, tv)
    if len(rv.den) != len(fv) or len(rt.den) != len(ft):
        return False
    for w, tw in enumerate(perm):
        qv, qt, row, trow = rv.den[w], rt.den[tw], rv.num[w], rt.num[tw]
        for u, tu in enumerate(perm):
            if row[u] * qt != trow[tu] * qv:
                return False
    return True


def mirror(value: PiecewiseFunction, t, interner=None) -> PiecewiseFunction:
    """``value`` with every optimal-move label mapped by ``t`` (the same
    breakpoints and formulas: the objects are shared)."""

    def mapped(sets):
        if sets is None:
            return None
        out = [frozenset(t.move(label) for label in s) for s in sets]
        return interner.labels(out) if interner is not None else out

    labels, point_labels = mapped(value.labels), mapped(value.point_labels)
    return PiecewiseFunction.build(list(value.points), list(value.formulas), labels, point_labels)


def mirrored(game: Game, channel: Channel, v, values, interval, interner=None) -> PiecewiseFunction | None:
    """``v``'s value as the mirror image of a value in ``values`` (a mapping
    from positions), or None when the game has no symmetry, ``v`` is its own
    image, ``values`` lacks the image or a follower of either, the channel
    does not respect the symmetry at ``v`` (:func:`respects`) or a
    follower's value differs from its image's.  ``interval``: the solve's,
    on which a channel that is not trusted has its rows at ``v`` validated."""
    t = _symmetry(game)
    if t is None:
        return None
    tv = t.position(v)
    if tv == v or tv not in values or not _twin_followers(game, t, v, values):
        return None
    return mirror_checked(game, channel, tv, values[tv], interval, interner)


def mirror_checked(
    game: Game, channel: Channel, v, value: PiecewiseFunction, interval, interner=None
) -> PiecewiseFunction | None:
    """The value of ``t(v)`` as the mirror image of ``v``'s ``value``, when the
    channel respects the symmetry ``t`` at ``t(v)`` (:func:`respects`), else
    None; the caller vouches that every follower of ``v`` has its image's
    value (:func:`mirrored` checks it)."""
    t = _symmetry(game)
    tv = t.position(v)
    rows = channel.rows(game, tv)
    channel.check(game, tv, rows, interval)  # (bad rows are an error here as when solved)
    if not respects(game, channel, tv, v, t, rows):
        return None
    return mirror(value, t, interner)


def representatives(game: Game, channel: Channel, v, values, interval):
    """For a position that is its own mirror image, whose followers have their
    images' values and whose channel rows respect the symmetry: ``(moves,
    rows)``, the indices of one move of each pair ``{w, t(w)}`` (the first)
    and the position's rows (validated on ``interval``).  Such a pair is worth
    the same everywhere, ``V_w = sum_u psi(w, u) (1 - N_u) = sum_u psi(t(w),
    t(u)) (1 - N_t(u)) = V_t(w)``, so the position is solved over those moves
    alone and its optimal sets closed under ``t`` after (:func:`close_labels`).
    None otherwise (or when no move has another image)."""
    t = _symmetry(game)
    if t is None or t.position(v) != v or not _twin_followers(game, t, v, values):
        return None
    fv = game.followers(v)
    labels = [game.move_label(v, w) for w in fv]
    where = {label: k for k, label in enumerate(labels)}
    if len(where) != len(labels) or any(t.move(label) not in where for label in labels):
        return None
    keep = [k for k, label in enumerate(labels) if where[t.move(label)] >= k]
    if len(keep) == len(labels):
        return None
    rows = channel.rows(game, v)
    channel.check(game, v, rows, interval)
    if not respects(game, channel, v, v, t, rows):
        return None
    return keep, rows


def close_labels(value: PiecewiseFunction, t) -> PiecewiseFunction:
    """``value`` with every optimal-move set ``S`` replaced by ``S`` and its
    mirror image (the same breakpoints and formulas)."""

    def closed(sets):
        return None if sets is None else [frozenset(s) | frozenset(t.move(label) for label in s) for s in sets]

    return PiecewiseFunction.build(list(value.points), list(value.formulas), closed(value.labels), closed(value.point_labels))


def _twin_followers(game: Game, t, v, values) -> bool:
    """Whether ``values`` holds every follower ``u`` of ``v`` and its image
    ``t(u)``, with the same value (:func:`same_function`)."""
    for u in game.followers(v):
        tu = t.position(u)
        if u not in values or tu not in values:
            return False
        if tu != u and not same_function(values[u], values[tu]):
            return False
    return True


def _symmetry(game: Game):
    symmetry = getattr(game, "symmetry", None)
    return symmetry() if symmetry is not None else None


def same_function(f: PiecewiseFunction, g: PiecewiseFunction) -> bool:
    """Whether two piecewise functions have the same breakpoints and formulas
    (objects shared, or equal exactly)."""
    if f is g:
        return True
    if len(f.points) != len(g.points):
        return False
    if any(x is not y and x.compare(y) != 0 for x, y in zip(f.points, g.points)):
        return False
    return all(a is b or a == b for a, b in zip(f.formulas, g.formulas))


__all__ = ["close_labels", "mirror", "mirror_checked", "mirrored", "representatives", "respects", "same_function"]
