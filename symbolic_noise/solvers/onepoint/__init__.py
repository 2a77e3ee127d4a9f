"""Answers at one rational p.

:mod:`.fastpoint`
    fast backward induction at one p, exact or in certified arb balls, with
    structure-aware paths (1-pile Nim through the binary channel, Chomp's
    neighbour channels); constant channels solved once for every p.
:mod:`.pointwise`
    the slow, obviously correct reference: every psi entry evaluated exactly,
    the Bellman equations applied position by position.  It shares nothing
    with the other engines but the channel, and checks them in the tests.
"""
