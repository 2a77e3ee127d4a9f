"""Enclosures of 1-pile Nim's values over boxes of p: the hybrid method's first layer.

:mod:`.hybrid`
    every position's and every sent move's value enclosed over a box of p in
    arb balls (docs/hybrid.md).
:mod:`.floatbox`
    the same enclosures in IEEE binary64 interval arithmetic with outward
    rounding, vectorised over many boxes at once.
:mod:`.taylormodel`
    Taylor models around one point, with exact coefficients where moves tie
    (p = 1/2, p = 1) and a certified remainder.
"""
