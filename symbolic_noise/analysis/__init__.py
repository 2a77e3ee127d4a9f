"""Questions asked of solutions.

:mod:`.certificates`
    statements (N >= c, optimal M, optimal-set) decided exactly, and certificates
    bound to their game that ``verify`` re-checks.
:mod:`.bellman`
    the verifier's core: stored values proved against the game's own equations.
:mod:`.conjectures`
    the paper's conjectures and optimal-move breakpoints over families.
:mod:`.series`, :mod:`.knowing`, :mod:`.chance`
    exact series at points, the value of knowing p, chance games.
:mod:`.phase`, :mod:`.phasesweep`, :mod:`.phasecells`
    phase diagrams of the (p, q) square: the sweep over q, the global
    decomposition, and merging cells for output.
:mod:`.hybrid`
    proofs about 1-pile Nim far beyond the exact solver, with their certificates.
"""
