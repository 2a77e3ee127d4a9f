"""Games and channels: rulesets with their positions and followers, heap games,
the game registry, move-error channels and the classical (noise-free)
Sprague–Grundy toolkit.

The rulesets are re-exported here, so ``from symbolic_noise.games import Nim``
works as it did when this was a single module.

>>> from symbolic_noise.games import Nim
>>> sorted(Nim(3).followers(3))
[0, 1, 2]
"""

from .rulesets import Chomp, ExplicitGame, Game, Move, Nim, Position, topological_order

__all__ = ["Chomp", "ExplicitGame", "Game", "Move", "Nim", "Position", "topological_order"]
