"""What a map is: intervals of p, each proved, a change, or undecided.

theory.md section 8 defines the three kinds; this module holds them as data
(:class:`MapInterval`, :class:`Map`) and nothing else.  Rendering (text, JSON
with provenance, HTML) lives in :mod:`symbolic_noise.io.mapreport`, imported
when a map is shown.

>>> from flint import fmpq
>>> iv = MapInterval("proved", fmpq(0), fmpq(1, 2), optimal=frozenset({0}), value=(fmpq(1, 2), fmpq(1)))
>>> iv.width, iv.claims()
(1/2, 'optimal {0} on [0, 1/2]')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flint import fmpq

KINDS = ("proved", "change", "undecided")


@dataclass(frozen=True)
class MapInterval:
    """One closed interval ``[lo, hi]`` of a map (exact rational ends).

    * ``proved``: the start's optimal-move set is ``optimal`` at every p of
      the interval;
    * ``change``: the set is ``left`` on ``[lo, c)``, ``at`` at c and
      ``right`` on ``(c, hi]`` for exactly one c in the interval (``point``:
      c itself when it is known exactly); ``left`` is None when the interval
      starts at c (the map's left end, or an undecided neighbour), ``right``
      likewise;
    * ``undecided``: nothing is claimed.

    ``value``: exact rational bounds ``(lo, hi)`` of N at the start over the
    whole interval (None where undecided)."""

    kind: str
    lo: fmpq
    hi: fmpq
    optimal: frozenset | None = None
    left: frozenset | None = None
    at: frozenset | None = None
    right: frozenset | None = None
    point: fmpq | None = None
    value: tuple | None = None

    @property
    def width(self) -> fmpq:
        return self.hi - self.lo

    def claims(self) -> str:
        """What the interval states, in one line."""
        span = f"[{self.lo}, {self.hi}]"
        if self.kind == "proved":
            return f"optimal {_set(self.optimal)} on {span}"
        if self.kind == "change":
            where = f"at p = {self.point}" if self.point is not None else f"at one point of {span}"
            return f"{_set(self.left)} -> {_set(self.at)} -> {_set(self.right)} {where}"
        return f"undecided on {span}"


def _set(s) -> str:
    if s is None:
        return "-"
    return "{" + ", ".join(str(x) for x in sorted(s)) + "}"


@dataclass
class Map:
    """A certified map of the start's optimal moves over ``interval``.

    ``intervals`` cover ``interval`` in order, consecutive ones sharing an end;
    ``stats`` counts the work (boxes enclosed, exact series computed);
    ``band``: ``(lo, hi, vlo, vhi)`` for every settled box, ``vlo <= N <= vhi``
    on ``[lo, hi]`` (finer than the merged intervals' enclosures: for plots);
    ``proofs``: what proves each settled box, in order of p, one of

    * ``("class", lo, hi, S)``: the moves that can be optimal on the box all
      lie in the proved tie class S (move names);
    * ``("crossing", a, b, L, R, lo, hi, point)``: on [a, b] only the classes
      L and R can be optimal, their difference is strictly monotone and
      changes sign, so the set is L, then ``L | R`` at one c in [lo, hi],
      then R (``point``: c when known exactly, else None);
    * ``("onesided", a, b, c, side, R, S)``: c is the ``side`` end of [a, b],
      the set at c is S and R on the rest of the box (exact series at c,
      anchored enclosures over the box).

    Undecided boxes have no entry."""

    game: object
    channel: object
    start: object
    interval: tuple
    misere: bool
    width: fmpq
    intervals: list
    stats: dict = field(default_factory=dict)
    band: list = field(default_factory=list)
    proofs: list = field(default_factory=list)

    def kinds(self, kind: str) -> list:
        """The intervals of one kind, in order."""
        return [iv for iv in self.intervals if iv.kind == kind]

    @property
    def complete(self) -> bool:
        """True when nothing is undecided."""
        return not self.kinds("undecided")

    def interval_at(self, p) -> list:
        """The intervals holding the rational ``p`` (two where p is a shared end)."""
        p = fmpq(p)
        return [iv for iv in self.intervals if iv.lo <= p <= iv.hi]

    def __repr__(self) -> str:
        from ...io.mapreport import map_repr

        return map_repr(self)

    def __str__(self) -> str:
        from ...io.mapreport import map_text

        return map_text(self)

    def to_json(self) -> dict:
        from ...io.mapreport import map_json

        return map_json(self)

    def _repr_html_(self) -> str:
        from ...io.mapreport import map_html

        return map_html(self)


__all__ = ["KINDS", "Map", "MapInterval"]
