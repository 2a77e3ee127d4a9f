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

import importlib as _importlib
import importlib.abc as _importlib_abc
import importlib.util as _importlib_util
import sys as _sys

# Until version 0.2 the package was flat; its modules now live in layer
# subpackages (exact, games, solve, analysis, io).  The old module paths keep
# working, as aliases of the same module objects (so patching either name
# patches both).  ``symbolic_noise.games`` is now the games subpackage, which
# re-exports everything the old ``games`` module defined.
_MOVED = {
    **{m: "exact." + m for m in "algebraic bivariate formula piecewise polys ratfunc rounding".split()},
    **{m: "games." + m for m in "channels classical extra_channels heapgames registry".split()},
    **{m: "solvers.storage." + m for m in "cache codec".split()},
    **{m: "solvers.onepoint." + m for m in "fastpoint pointwise".split()},
    **{m: "solvers.twoplayer." + m for m in "players strategies".split()},
    "solution": "solvers.solution",
    "solver": "solvers.piecewise",
    **{m: "analysis." + m for m in "certificates chance conjectures knowing phase series".split()},
    **{m: "io." + m for m in "atlas cli cli_chance cli_informed display figlayout latex latexcheck "
       "phase_render plots pointgrid reports".split()},
    # 0.2: the solvers layer became sub-packages by kind, the piecewise engine
    # one of rooms by idea; the superseded lockstep and fixed sub-interval
    # schedules were removed (``solvers.lockstep`` names the range worker's room)
    "solvers.solver": "solvers.piecewise",
    **{"solvers." + m: "solvers.piecewise." + m
       for m in "batchscreen collector difftest pairtest spread symmetry".split()},
    **{"solvers." + m: "solvers.storage." + m for m in "cache codec packing stored".split()},
    **{"solvers." + m: "solvers.onepoint." + m for m in "fastpoint pointwise".split()},
    **{"solvers." + m: "solvers.boxes." + m for m in "floatbox hybrid taylormodel".split()},
    **{"solvers." + m: "solvers.twoplayer." + m for m in "players strategies".split()},
    **{"solvers." + m: "solvers.schedules." + m for m in "positionsplit stealing".split()},
    "solvers.lockstep": "solvers.schedules.ranges",
    "games.channel2": "games.twoparameter",
    "analysis.hybrid9": "analysis.hybrid.take_all",
    "analysis.hybrid10": "analysis.hybrid.power_of_two",
    "analysis.fairshared": "analysis.hybrid.fairness",
    "analysis.hybridcert": "analysis.hybrid.certificates",
}


class _AliasLoader(_importlib_abc.Loader):
    """Loads an old flat module path as the module at its new path."""

    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return _importlib.import_module(self.target)

    def exec_module(self, module) -> None:
        pass


class _MovedModuleFinder(_importlib_abc.MetaPathFinder):
    """Finds ``symbolic_noise.<old module>`` for the modules listed in ``_MOVED``."""

    def find_spec(self, fullname, path=None, target=None):
        head, _, name = fullname.partition(".")
        if head != __name__ or name not in _MOVED:
            return None
        return _importlib_util.spec_from_loader(fullname, _AliasLoader(f"{__name__}.{_MOVED[name]}"))


if not any(isinstance(f, _MovedModuleFinder) for f in _sys.meta_path):
    _sys.meta_path.append(_MovedModuleFinder())


def __getattr__(name: str):
    """``symbolic_noise.solver`` and the other old module names, as attributes."""
    if name in _MOVED:
        return _importlib.import_module(f"{__name__}.{_MOVED[name]}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from .exact.algebraic import RealAlgebraic, real_roots  # noqa: E402
from .games.channels import (  # noqa: E402
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
from .games import extra_channels  # noqa: E402,F401  (registers tremble, binary-gray, z)
from .games.classical import bouton_moves, find_period, mex, nim_sequence, nim_sum, nim_value, outcome  # noqa: E402
from .games.rulesets import Chomp, ExplicitGame, Game, Nim  # noqa: E402
from .games.heapgames import GrundysGame, HeapGame, LaskersNim, MultiNim, OctalGame, SubtractionGame  # noqa: E402
from .exact.piecewise import PiecewiseFunction, PointValue  # noqa: E402
from .solvers.onepoint.pointwise import evaluate  # noqa: E402
from .exact.ratfunc import RationalFunction  # noqa: E402
from .games.registry import game_from_spec  # noqa: E402
from .solvers.piecewise import solve  # noqa: E402
from .solvers.solution import Solution  # noqa: E402
from .solvers.twoplayer.players import PlayersSolution, solve_players  # noqa: E402
from .analysis.knowing import value_of_knowing  # noqa: E402

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
