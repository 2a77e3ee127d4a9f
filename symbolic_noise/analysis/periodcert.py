"""Periodicity certificates of octal games, and their independent checker.

A certificate (``symbolic-noise.periodicity/1``) claims that the nim-sequence of
an octal game is periodic with least period ``P`` from the least preperiod
``i``.  It carries the game's code, the rule read from it, the rare mask the
engine ended with, ``i``, ``P``, the last heap ``N`` the periodicity theorem
needs, the values ``G(i..i+P-1)`` (the proof window's period), and the SHA-256
of ``G(0..N)`` as little-endian 32-bit words.

:func:`verify_periodicity` trusts none of it but the code: it rebuilds the
moves from the code, recomputes ``G(0..N)`` in one streaming pass of its own
(below), and decides from those values: the hash, the window,
``G(x + P) = G(x)`` for ``i <= x <= N - P``, ``N`` against the theorem
(Winning Ways ch. 4: ``N >= 2 max(i, 1) + 2P + t - 1`` for games that split
heaps, ``2i + 2P + t - 1`` otherwise), ``G(i - 1) != G(i - 1 + P)``, and for
every proper divisor ``d`` of ``P`` a mismatch in ``[i, i + P)``.

The recomputation uses the certificate's mask only as a hint, fixed for the
whole pass; the values do not depend on it.  For any linear form ``f`` (a
parity of masked bits, XOR the heap's parity when every split takes chips of
one parity ``q``), ``f(G(a) ^ G(b)) = f(a) ^ f(b) ^ f_n`` over the splits
``a + b = n - k``, so a value that would make heap ``n`` *common* comes only
from a split with a heap on which ``f`` is 0 (a rare heap).  Marking every
option through the rare heaps therefore finds all common options; the mex is
the least unmarked value once no rare value below the least unmarked common
one is left unmarked, and the splits are scanned (stopping as soon as none is
left) only while one is.  The code is separate from
:mod:`symbolic_noise.games.rarevalue` (no mask choice, no resumable state).

Examples
--------
>>> cert = periodicity_certificate("0.137")
>>> cert["preperiod"], cert["period"], cert["needed"]
(52, 34, 174)
>>> verify_periodicity(cert)
'octal:0.137 has period 34 from n = 52 (G(0..174) recomputed)'
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..errors import VerificationError
from ..games.heapgames import OctalRules

try:
    from numba import njit as _njit

    def _compiled(fn):
        return _njit(cache=True, nogil=True)(fn)

except ImportError:  # pragma: no cover - numba is a dependency

    def _compiled(fn):
        return fn


FORMAT = "symbolic-noise.periodicity/1"


def periodicity_certificate(game_or_run, **engine_options) -> dict:
    """The certificate of a period proved by :func:`~symbolic_noise.games.rarevalue.prove_period`
    (pass a code, or the :class:`~symbolic_noise.games.rarevalue.RareRun` itself)."""
    from ..games.rarevalue import RareRun, moves_of, prove_period

    run = game_or_run if isinstance(game_or_run, RareRun) else prove_period(game_or_run, **engine_options)
    per = run.periodicity
    m = moves_of(run.game)
    values = run.values[: per.needed + 1]
    return {
        "format": FORMAT,
        "game": run.game,
        "rule": {"whole": list(m.whole), "take": list(m.take), "split": list(m.split), "equal_ok": m.equal_ok},
        "mask": run.mask,
        "position_bit": run.position_bit,
        "preperiod": per.preperiod,
        "period": per.period,
        "needed": per.needed,
        "window": values[per.preperiod : per.preperiod + per.period].tolist(),
        "sha256": run.sha256(per.needed),
    }


@_compiled
def _recompute(N, whole, take, split, mask, use_pos, q):
    """``G(0..N)`` with the fixed linear form of ``mask`` (see the module's docstring)."""
    G = np.zeros(N + 1, dtype=np.uint32)
    size = 1 << 21
    stamp = np.full(size, -1, dtype=np.int64)
    rare = np.zeros(1024, dtype=np.int64)
    nrare = 0
    top = 1  # every value so far is below top, a power of two
    for n in range(N + 1):
        fn = use_pos & ((n ^ q) & 1)  # a value v is rare at heap n iff parity(v & mask) == fn
        # (this pass repeats the engine's step on purpose: the checker shares no code with it)
        for k in whole:
            if k == n:
                stamp[0] = n
        for k in take:
            if k < n:
                stamp[G[n - k]] = n
        for k in split:
            for j in range(nrare):
                a = rare[j]
                if a >= 1 and a + k < n:
                    stamp[G[a] ^ G[n - k - a]] = n
        c = 0  # the least unmarked common value (it may be top)
        while c < top:
            x = c & mask
            par = 0
            while x:
                par ^= 1
                x &= x - 1
            if stamp[c] != n and par != fn:
                break
            c += 1
        open_rare = 0
        for v in range(c):
            x = v & mask
            par = 0
            while x:
                par ^= 1
                x &= x - 1
            if stamp[v] != n and par == fn:
                open_rare += 1
        for k in split:
            a = 1
            while open_rare > 0 and 2 * a + k <= n:
                v = G[a] ^ G[n - k - a]
                if v < c and stamp[v] != n:
                    stamp[v] = n
                    open_rare -= 1  # only rare values below c are unmarked there
                a += 1
        g = 0
        while g < c and stamp[g] == n:
            g += 1
        if g >= size - 1:
            return G[:0]
        G[n] = g
        while g >= top:
            top *= 2
        x = g & mask
        par = use_pos & ((n ^ q) & 1)
        while x:
            par ^= 1
            x &= x - 1
        if par == 0:  # heap n is rare
            if nrare == rare.shape[0]:
                bigger = np.zeros(2 * nrare, dtype=np.int64)
                bigger[:nrare] = rare
                rare = bigger
            rare[nrare] = n
            nrare += 1
    return G


def _fail(msg: str):
    raise VerificationError(msg)


def verify_periodicity(data: dict, max_heap: int = 1 << 28) -> str:
    """Check a periodicity certificate from the game's code alone; the claim as
    one line, or :class:`~symbolic_noise.errors.VerificationError`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        _fail(f"not a {FORMAT} certificate")
    game = data.get("game")
    if not isinstance(game, str) or not game.startswith("octal:"):
        _fail(f"the game must be named octal:CODE, not {game!r}")
    rules = OctalRules(game.partition(":")[2])
    if rules.max_heaps > 2:
        _fail(f"{game}: moves leaving three heaps are not covered")
    ds = rules.digits
    whole = [k for k, d in enumerate(ds) if d & 1]
    take = [k for k, d in enumerate(ds) if d & 2]
    split = [k for k, d in enumerate(ds) if d & 4]
    rule = {"whole": whole, "take": take, "split": split, "equal_ok": True}
    if data.get("rule") != rule:
        _fail(f"the rule {data.get('rule')!r} is not the rule of {game}: {rule!r}")
    fields = {}
    for name in ("mask", "preperiod", "period", "needed"):
        v = data.get(name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            _fail(f"{name} must be a non-negative integer, not {v!r}")
        fields[name] = v
    i, P, N, mask = fields["preperiod"], fields["period"], fields["needed"], fields["mask"]
    if P < 1 or N > max_heap or mask >= 1 << 20:
        _fail(f"period {P}, needed heap {N:,} or mask {mask} out of range (heap cap {max_heap:,})")
    t = max(whole + take + split, default=0)
    theorem = (2 * max(i, 1) + 2 * P + t - 1) if split else (2 * i + 2 * P + t - 1)
    if N < theorem:
        _fail(f"the periodicity theorem needs G up to {theorem}, the certificate stops at {N}")
    parities = {k & 1 for k in split}
    use_pos = bool(data.get("position_bit")) and len(parities) == 1
    q = parities.pop() if len(parities) == 1 else 0
    G = _recompute(
        N, np.array(whole, dtype=np.int64), np.array(take, dtype=np.int64), np.array(split, dtype=np.int64),
        mask, int(use_pos), q,
    )
    if G.shape[0] != N + 1:
        _fail("nim-values beyond 2^21: out of the checker's range")
    digest = hashlib.sha256()
    for j in range(0, N + 1, 1 << 20):  # a block at a time: no second copy of the values
        digest.update(G[j : j + (1 << 20)].astype("<u4").tobytes())
    if digest.hexdigest() != data.get("sha256"):
        _fail(f"the SHA-256 of G(0..{N}) is not the certificate's")
    if data.get("window") != G[i : i + P].tolist():
        _fail(f"the window G({i}..{i + P - 1}) is not the certificate's")
    if not np.array_equal(G[i : N + 1 - P], G[i + P : N + 1]):
        _fail(f"G(x + {P}) != G(x) for some x in [{i}, {N - P}]")
    if i > 0 and G[i - 1] == G[i - 1 + P]:
        _fail(f"the preperiod is not least: G({i - 1}) = G({i - 1 + P})")
    for d in range(1, P):
        if P % d == 0 and np.array_equal(G[i : i + P], G[i + d : i + P + d]):
            _fail(f"the period is not least: {d} is one too")
    return f"{game} has period {P} from n = {i} (G(0..{N}) recomputed)"
