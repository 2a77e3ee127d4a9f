"""Every exception symbolic_noise raises on purpose, in one place.

Each class is named for what went wrong.  All derive from
:class:`SymbolicNoiseError`, which the command line turns into a one-line message
and exit status 2.  Those that describe bad input also derive from ``ValueError``.

Examples
--------
>>> from symbolic_noise.errors import GameParameterError, SymbolicNoiseError
>>> issubclass(GameParameterError, SymbolicNoiseError)
True
"""

from __future__ import annotations


class SymbolicNoiseError(Exception):
    """Base class of every error raised by symbolic_noise on purpose."""


class CyclicGameError(SymbolicNoiseError, ValueError):
    """The game graph has a cycle: it is not progressively bounded.

    ``cycle`` holds the positions of one cycle found, in order.
    """

    def __init__(self, cycle):
        self.cycle = tuple(cycle)
        shown = " -> ".join(repr(v) for v in self.cycle[:8])
        if len(self.cycle) > 8:
            shown += " -> ..."
        super().__init__(f"the game graph has a cycle ({shown}); games must be finite and acyclic")


class UnknownGameError(SymbolicNoiseError, ValueError):
    """A game name or code that symbolic_noise does not know."""


class GameParameterError(SymbolicNoiseError, ValueError):
    """A game parameter (heap size, board, position) is out of range or malformed."""


class UnknownChannelError(SymbolicNoiseError, ValueError):
    """A channel name that symbolic_noise does not know."""


class InvalidChannelError(SymbolicNoiseError, ValueError):
    """A move error distribution that is not a probability distribution.

    The attributes ``position``, ``sent``, ``received`` and ``p`` locate the
    violation (any of them may be ``None`` when it does not apply).  ``p`` is an
    exact number (a rational, or a breakpoint-like algebraic number) at which the
    violation is witnessed.
    """

    def __init__(self, message, *, position=None, sent=None, received=None, p=None):
        self.position = position
        self.sent = sent
        self.received = received
        self.p = p
        super().__init__(message)


class ChannelNotApplicableError(InvalidChannelError):
    """A channel that is not defined for the given game (e.g. Chomp's king channel on Nim)."""


class ExpressionError(SymbolicNoiseError, ValueError):
    """An expression that is not a rational function of the single symbol p."""


class IntervalError(SymbolicNoiseError, ValueError):
    """A parameter value or interval outside [0, 1], empty, or not exact."""


class VerificationError(SymbolicNoiseError):
    """A certificate whose claims do not hold, or that cannot be read as one."""


class CacheError(SymbolicNoiseError):
    """A cache entry that cannot be used (reported, then recomputed)."""


class Interrupted(SymbolicNoiseError):
    """A long computation stopped on request (Ctrl-C or a progress callback)."""


class InvalidStrategyError(SymbolicNoiseError, ValueError):
    """A fixed strategy that is not one: an unknown name, a move that is not
    legal, a position that is not covered, weights that are not a distribution."""


class PhaseTooLargeError(SymbolicNoiseError, ValueError):
    """A phase diagram that would exceed the size limits (positions, boundary polynomials)."""


class MapTooLargeError(SymbolicNoiseError, ValueError):
    """A map whose table of psi's rows would exceed its size limit."""


class WorkerLostError(SymbolicNoiseError, RuntimeError):
    """A parallel worker that no longer holds its part of a solve (it was
    restarted, or the task reached another process), or a worker process
    that died (killed, or out of memory)."""


class HeapCapError(SymbolicNoiseError):
    """A nim-sequence that reached its cap on heap sizes before the periodicity
    theorem proved a period."""


def did_you_mean(word: str, choices) -> str:
    """`` (did you mean 'nim'?)`` for the closest of ``choices`` to a misspelt
    ``word``, or ``""`` when none is close (an error message's aside).

    >>> did_you_mean("nimm", ["nim", "chomp"]), did_you_mean("xyz", ["nim"])
    (" (did you mean 'nim'?)", '')
    """
    import difflib

    close = difflib.get_close_matches(str(word).strip().lower(), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
