"""The exact piecewise engine: N_v(p) for every p, with exact breakpoints.

For every position ``v`` the solver computes ``N_v`` on [a, b] as a continuous
piecewise-rational function with exact algebraic breakpoints, the optimal-move
set on every open piece and at every breakpoint (theory.md, section 2).

Positions are solved one at a time, followers first, so a solve can be stored
and resumed position by position.  A position is solved by a sweep over p across
the *cells* between its followers' breakpoints: on a cell every follower has
one formula ``N_u = n_u / d_u``, so every sent move's value is a rational function

    N_v(w) = sum_u (1 - N_u) psi_v(w, u) = A_w / (B Q_w),   B = lcm(d_u).

On each cell:

1. *Screening* (certified and cheap).  An enclosure of each follower's value
   over the cell (a ball holding its value at the middle of the cell's dyadic
   interval and the mean-value bound in ball arithmetic on cached dyadic blocks,
   :mod:`symbolic_noise.solvers.spread`; or, for formulas of low degree and
   where that fails, the range of its Bernstein coefficients) gives every move
   an enclosure over the whole cell:
   ``sum_u psi(w, u)(s) e_u``, ``e_u`` the centre of the follower's, is a rational function of the channel's
   small degree whose range follows from Bernstein ratios (the mediant
   inequality), computed in arb ball arithmetic and read off as exact rational
   bounds.  A move whose enclosure lies below the leader's is strictly worse on
   the whole cell.
2. *Exact decision* among the survivors.  The best survivor ``b`` at ``t`` is
   found in balls when one lies certainly above the others, else by exact
   evaluation; for every other survivor ``c`` the numerator
   ``D = A_b Q_c - A_c Q_b`` of ``N_v(b) - N_v(c)`` is shown positive on the
   cell (:func:`polys.bernstein_test`: its expansion at the cell's start, then
   its Bernstein coefficients), or, when Descartes' bound there is 1, its one
   root is placed against the cell's ends by exact signs
   (:func:`single_root_between`), else its roots in the cell are isolated
   exactly (Vincent–Collins–Akritas).  The first root ends the piece (a
   breakpoint); a root left of ``t`` means ``b`` was not best right after the
   cell's start and the step is redone on the shorter cell.  ``D = 0``
   identically puts ``c`` in the optimal set, ``D(x) = 0`` in the set at ``x``.
   Where ``D`` has high degree, the pair test of :mod:`pairtest` runs first:
   the followers' second-order Taylor models on the cell bound
   ``N_v(b) - N_v(c)`` in balls, and when it keeps one sign on the closed
   cell ``c`` is settled without ``D`` (nim 64: a third of those tests).

Every formula made on a cell also gets its Taylor model there from its
followers' models (:meth:`_PositionSolver._make_model`); the next positions
take that follower's slope bound on their cells from it, where it is within
3/2 of the derivative at the middle, instead of making blocks.

Channels whose rows are affine in p over constant ``Q_w`` (Chomp's king, rook
and all-neighbour channels, ``tremble``) take a batched path
(:meth:`_PositionSolver._run_batched`): the position's base cells, between its
followers' breakpoints, are ordered once and screened all at once by
:mod:`symbolic_noise.solvers.batchscreen` (a few ball-matrix products); a
base cell left with one move takes that move's formula over its row's
followers alone (or the last cell's formula when none of them changed), and
only the others go through the per-cell steps above.

Every decision is an exact sign or a certified ball bound; no float decides
(floats only propose the screening's leader, whose floor is then bounded in
balls, and the best survivor at ``t``, which a ball comparison then confirms).
Work on a cell is shared between positions through a per-solve cache (the
followers' enclosures, the common denominator, the followers' numerators over
it and the moves' numerators it used, which the next position carries over as
``f A_w + c_last P_w,last`` when its followers extend ours by one): consecutive
positions of 1-pile Nim have almost the same cells and followers, which is what
makes large heaps affordable.  A cell split by a new breakpoint starts with its
parent's slope bounds (and, when it lies inside it exactly, its common data),
and the Bernstein ranges of low-degree formulas are kept per dyadic interval
for every position that meets them there.

Rooms
-----
:mod:`.induction`
    backward induction over the positions, followers first: :func:`solve`,
    :func:`solve_positions`, :func:`move_formulas`.
:mod:`.position`
    one position: the sweep over p across its cells (:class:`_PositionSolver`).
:mod:`.cells`
    the cells of a sweep and the data positions share on them.
:mod:`.followers`
    the position being solved, its channel rows, and its followers' values.
:mod:`.celldata`
    what a sweep makes once per cell: enclosures, common denominator, numerators, Taylor models.
:mod:`.screen`
    certified enclosures of every move over a cell; drops the moves that cannot be best.
:mod:`.decide`
    exact decisions on a cell: where the optimal move is decided and where it changes.
:mod:`.batched`
    the batched sweep for channels affine in p (Chomp's king, rook, all; ``tremble``).
:mod:`.batchscreen`, :mod:`.spread`, :mod:`.pairtest`, :mod:`.difftest`
    the bounds the screen and the decisions use: batched ball screening, slope
    bounds of followers, second-order pair tests, difference numerators.
:mod:`.symmetry`
    square Chomp boards: transposed positions and mirror pairs of moves.
:mod:`.collector`
    the garbage collector paused during a solve.
"""

from .induction import SolveProgress, exact_interval, move_formulas, solve, solve_positions

__all__ = ["SolveProgress", "exact_interval", "move_formulas", "solve", "solve_positions"]
