"""Solutions kept between runs and sent between processes.

:mod:`.codec`
    exact JSON of piecewise functions (formulas, algebraic breakpoints,
    optimal sets), checked when decoded unless the sender is trusted.
:mod:`.cache`
    the resumable SQLite cache, keyed by the full provenance of a solve, with
    its checksums (against corruption) and ``--verify-cache`` (against
    tampering: every entry served is re-proved by the game's own equations).
:mod:`.stored`
    a solution read from the cache position by position, as a report asks.
:mod:`.packing`
    finished values held packed past a memory budget during long solves.
"""
