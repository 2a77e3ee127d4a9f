"""Solvers: the engines that compute N_v(p), and what they share.

Sub-packages, by kind (each ``__init__`` is a map of its rooms):

:mod:`.piecewise`
    the exact piecewise engine: N_v(p) for every p in [a, b] as exact
    formulas with algebraic breakpoints and optimal sets; its rooms are named
    by idea (induction over positions, the sweep of one position, cells, the
    screen, the exact decisions) beside the bounds it uses.
:mod:`.onepoint`
    answers at one rational p: the fast exact (or certified-ball) engine and
    the slow reference evaluation that checks everything else.
:mod:`.boxes`
    enclosures over boxes of p for 1-pile Nim (ball and binary64 interval
    arithmetic, Taylor models): the first layer of the hybrid proofs.
:mod:`.twoplayer`
    per-player channels and strategies: the (position, player) solve.
:mod:`.schedules`
    one solve shared by worker processes or a Dask cluster: by p-ranges that
    steal work, or by positions; cutting and joining ranges; work done on the
    workers after a solve.
:mod:`.storage`
    the exact JSON codec, the resumable SQLite cache, reports read from it
    position by position, and values packed past a memory budget.

:mod:`.solution` holds :class:`~.solution.Solution` and
:class:`~.solution.PointResult`, what every engine returns.
"""
