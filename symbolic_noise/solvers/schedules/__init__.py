"""One solve shared between workers (``--jobs N``, ``--dask ADDRESS``).

Results are always the serial solve's: where work is cut only balances it.

:mod:`.stealing`
    ``--split p``: every worker owns a p-range and solves every position on
    it; a worker that is done steals part of the busiest range.
:mod:`.positionsplit`
    ``--split positions``: workers solve whole positions as soon as their
    followers are solved (wide games such as Chomp).
:mod:`.ranges`
    the range worker both use: a solve's state for one p-range, kept in a
    worker process between tasks.
:mod:`.cuts`
    cutting [a, b] by a probe's breakpoints, and joining ranges exactly.
:mod:`.offload`
    after a solve, a report's minimal polynomials and point values computed
    on the workers.
"""
