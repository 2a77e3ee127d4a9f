"""symbolic_noise: impartial games played through a noisy channel, solved exactly.

A player sends a move; the channel may deliver another legal move, with
probabilities that are rational functions of an error parameter p.  The
winning probability N_v(p) of every position is computed as an exact
continuous piecewise-rational function of p, with exact algebraic breakpoints
and the optimal-move sets on every piece and at every breakpoint.

>>> from symbolic_noise import solve, Nim
>>> N3 = solve(Nim(3), "binary").value()
>>> [pc.formula.text() for pc in N3.pieces()]
['(1 - p + p^2)/(1 + p)', '(p - p^3)/(1 - p + p^2)']
"""

import os as _os

# SymPy is imported lazily by the modules that need it; when it is imported
# for the first time after this package, use python-flint for its integers and
# rationals (a large speed-up for polynomial work).
_os.environ.setdefault("SYMPY_GROUND_TYPES", "flint")

from .algebraic import RealAlgebraic, real_roots  # noqa: E402
from .channels import (  # noqa: E402
    BinaryChannel,
    Channel,
    CustomChannel,
    IdentityChannel,
    NeighbourChannel,
    UniformChannel,
    get_channel,
    validate_rows,
)
from .errors import *  # noqa: E402,F401,F403
from . import extra_channels  # noqa: E402,F401  (registers tremble, binary-gray, z)
from .classical import bouton_moves, find_period, mex, nim_sequence, nim_sum, nim_value, outcome  # noqa: E402
from .games import Chomp, ExplicitGame, Game, Nim  # noqa: E402
from .heapgames import GrundysGame, HeapGame, LaskersNim, MultiNim, OctalGame, SubtractionGame  # noqa: E402
from .piecewise import PiecewiseFunction, PointValue  # noqa: E402
from .pointwise import evaluate  # noqa: E402
from .ratfunc import RationalFunction  # noqa: E402
from .registry import game_from_spec  # noqa: E402
from .solver import Solution, solve  # noqa: E402
from .players import PlayersSolution, solve_players  # noqa: E402
from .knowing import value_of_knowing  # noqa: E402

from ._version import __version__  # noqa: E402

__all__ = [
    "BinaryChannel",
    "Channel",
    "Chomp",
    "CustomChannel",
    "ExplicitGame",
    "Game",
    "IdentityChannel",
    "NeighbourChannel",
    "Nim",
    "PiecewiseFunction",
    "PointValue",
    "RationalFunction",
    "RealAlgebraic",
    "PlayersSolution",
    "Solution",
    "UniformChannel",
    "evaluate",
    "GrundysGame",
    "HeapGame",
    "LaskersNim",
    "MultiNim",
    "OctalGame",
    "SubtractionGame",
    "bouton_moves",
    "find_period",
    "game_from_spec",
    "mex",
    "nim_sequence",
    "nim_sum",
    "nim_value",
    "outcome",
    "get_channel",
    "real_roots",
    "solve",
    "solve_players",
    "value_of_knowing",
    "validate_rows",
]
