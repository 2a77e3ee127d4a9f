"""Maps as text, JSON and HTML, each with the provenance of every output.

A map (:class:`~symbolic_noise.solvers.maps.result.Map`) is rendered as a table
of its intervals in order: the kind, the ends, the optimal moves (for a change
interval, the set on its left, at the change point and on its right) and the
enclosure of N.  Ends are exact rationals; the text shows a short one exactly
and any other as a 15-digit decimal rounded outward (the lower end down, the
upper end up), so each printed interval contains the exact one.  The JSON
gives every number exactly.

>>> from symbolic_noise import Nim
>>> from symbolic_noise.solvers.maps import build_map
>>> m = build_map(Nim(2), "binary", width="2^-20")
>>> print(map_text(m, header=False))
Map of the optimal moves: N(p) for 1-pile Nim, k = 2, binary channel, p in [0, 1]
proved   [0, 0.499999880790708]                   optimal: 0  N in [0.5, 1]
change   [0.499999880790707, 0.500000119209293]   0 -> 0, 1 -> 1 at p = 1/2  N in [0.499999, 0.500001]
proved   [0.500000119209292, 1]                   optimal: 1  N in [0.5, 1]
3 intervals: 2 proved, 1 change, 0 undecided; change intervals at most 2^-20 wide
"""

from __future__ import annotations

import html


from flint import fmpq

from .reports import comment_header, move_json, moves_text, provenance, title

FORMAT = "symbolic-noise.map/1"


def _short(q: fmpq) -> bool:
    return int(q.q) <= 10**6


def _dec(q: fmpq, up: bool, digits: int = 15) -> str:
    """q as a decimal rounded outward (down, or up with ``up``)."""
    if _short(q):
        return str(q)
    scale = 10**digits
    n = q * scale
    k = int(n.ceil()) if up else int(n.floor())
    s = f"{abs(k) // scale}.{abs(k) % scale:0{digits}d}".rstrip("0").rstrip(".")
    return ("-" if k < 0 else "") + s


def _value(v, digits: int = 6) -> str:
    if v is None:
        return ""
    lo, hi = v
    return f"N in [{_dec(lo, False, digits) if not _short(lo) else lo}, {_dec(hi, True, digits) if not _short(hi) else hi}]"


def _width_text(w: fmpq) -> str:
    if w.p == 1 and w.q & (w.q - 1) == 0:
        return f"2^-{int(w.q).bit_length() - 1}"
    return str(w)


def _sets(iv) -> str:
    if iv.kind == "proved":
        return f"optimal: {moves_text(iv.optimal)}"
    if iv.kind == "change":
        side = [moves_text(s) if s is not None else "-" for s in (iv.left, iv.at, iv.right)]
        where = f"at p = {iv.point}" if iv.point is not None else "at one point inside"
        return f"{side[0]} -> {side[1]} -> {side[2]} {where}"
    return "nothing claimed (budget)"


def map_text(m, *, header: bool = True) -> str:
    """The map as text: a provenance header (``header``), a title, one line per
    interval, and a count."""
    rows = [(iv.kind, f"[{_dec(iv.lo, False)}, {_dec(iv.hi, True)}]", _sets(iv), _value(iv.value)) for iv in m.intervals]
    widths = [max(len(r[i]) for r in rows) for i in range(3)] if rows else [0, 0, 0]
    lines = [f"Map of the optimal moves: {title(m)}"]
    for r in rows:
        lines.append("   ".join(x.ljust(w) for x, w in zip(r[:3], widths)).rstrip() + "  " + r[3])
        lines[-1] = lines[-1].rstrip()
    counts = {k: len(m.kinds(k)) for k in ("proved", "change", "undecided")}
    lines.append(f"{len(m.intervals)} intervals: {counts['proved']} proved, {counts['change']} change, "
                 f"{counts['undecided']} undecided; change intervals at most {_width_text(m.width)} wide")
    body = "\n".join(lines)
    return (comment_header(provenance(m, method="map")) + body) if header else body


def _moves(s):
    return None if s is None else [move_json(x) for x in sorted(s)]


def map_json(m) -> dict:
    """The map as plain data (every number exact, as a string ``p/q``)."""
    game = m.game
    pos = move_json(m.start) if isinstance(m.start, tuple) else m.start
    out = []
    for iv in m.intervals:
        d = {"kind": iv.kind, "lo": str(iv.lo), "hi": str(iv.hi),
             "lo_decimal": _dec(iv.lo, False), "hi_decimal": _dec(iv.hi, True)}
        if iv.kind == "proved":
            d["optimal"] = _moves(iv.optimal)
        elif iv.kind == "change":
            d.update(left=_moves(iv.left), at=_moves(iv.at), right=_moves(iv.right),
                     point=None if iv.point is None else str(iv.point))
        if iv.value is not None:
            d["value"] = [str(iv.value[0]), str(iv.value[1])]
        out.append(d)
    return {
        "format": FORMAT,
        "meta": provenance(m, method="map"),
        "game": {"name": game.name, "description": game.describe(), "position": pos},
        "channel": m.channel.name,
        "width": str(m.width),
        "complete": m.complete,
        "stats": dict(m.stats),
        "intervals": out,
    }


def map_html(m) -> str:
    """The map as an HTML table (Jupyter)."""
    rows = "".join(
        f"<tr><td>{iv.kind}</td><td>[{_dec(iv.lo, False)}, {_dec(iv.hi, True)}]</td>"
        f"<td>{html.escape(_sets(iv))}</td><td>{html.escape(_value(iv.value))}</td></tr>"
        for iv in m.intervals
    )
    return (f"<p>Map of the optimal moves: {html.escape(title(m))}</p>"
            f"<table><tr><th>kind</th><th>interval</th><th>moves</th><th>value</th></tr>{rows}</table>")


def map_repr(m) -> str:
    """A one-line repr."""
    counts = ", ".join(f"{len(m.kinds(k))} {k}" for k in ("proved", "change", "undecided"))
    return f"<Map: {title(m)}; {counts}>"


__all__ = ["FORMAT", "map_html", "map_json", "map_repr", "map_text"]

