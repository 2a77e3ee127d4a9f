"""Players who differ: each with a channel and a strategy of their own (theory.md, section 5).

:mod:`.players`
    the (position, player to move) solve: W_v^i for both players, piecewise in p.
:mod:`.strategies`
    optimal, classical, uniform and file-given strategies, read and validated.
"""
