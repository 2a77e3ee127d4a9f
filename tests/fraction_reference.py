"""An independent slow method: theory.md sections 1-3 in plain Fractions.

Nothing here imports ``symbolic_noise``: the games (1-pile Nim, Chomp), the
channels (binary Hamming, king/rook/all neighbours, uniform, identity) and
the backward induction of section 2 are written again from their
definitions, so a test comparing an engine with these functions compares
two implementations that share no code.  Slow on purpose: every psi entry is
a Fraction computed from its formula, every max decided by Fraction
comparison.

Moves are numbered in the order the package lists followers: for Nim the
chips left (0, 1, ..., k-1); for Chomp the squares bottom row first, left to
right, without the poisoned (1, 1).
"""

from fractions import Fraction


# --------------------------------------------------------------------------- games


def nim_followers(k: int) -> list:
    """A heap of k chips: the heaps 0, ..., k-1 (the chips left)."""
    return list(range(k))


def chomp_squares(v: tuple) -> list:
    """Every square of the Young diagram ``v`` but the poisoned (1, 1)."""
    return [(i + 1, j + 1) for i, row in enumerate(v) for j in range(row) if (i, j) != (0, 0)]


def chomp_bite(v: tuple, square) -> tuple:
    """Remove every square up and right of ``square`` (inclusive)."""
    i, j = square
    rows = [row if r + 1 < i else min(row, j - 1) for r, row in enumerate(v)]
    return tuple(row for row in rows if row > 0)


def chomp_followers(v: tuple) -> list:
    return [chomp_bite(v, t) for t in chomp_squares(v)]


# --------------------------------------------------------------------------- channels


def hamming(s: int, r: int) -> int:
    return bin(s ^ r).count("1")


def binary_psi(codes, width: int, p: Fraction) -> list:
    """theory.md 3.1: q(s, r) = p^d (1-p)^(n-d), renormalised over the legal
    codes; at p = 1 the limit: evenly over the legal codes farthest from s."""
    rows = []
    for s in codes:
        if p == 1:
            far = max(hamming(s, r) for r in codes)
            hit = [r for r in codes if hamming(s, r) == far]
            rows.append([Fraction(1, len(hit)) if r in hit else Fraction(0) for r in codes])
            continue
        q = [p ** hamming(s, r) * (1 - p) ** (width - hamming(s, r)) for r in codes]
        rows.append([x / sum(q) for x in q])
    return rows


def neighbour_psi(squares, kind: str, p: Fraction) -> list:
    """theory.md 3.2: the target with probability p, else one of its legal
    neighbours evenly (king: edge or corner, rook: edge, all: any other
    square); a target without a legal neighbour is hit surely."""

    def near(a, b):
        di, dj = abs(a[0] - b[0]), abs(a[1] - b[1])
        if kind == "king":
            return max(di, dj) == 1
        if kind == "rook":
            return di + dj == 1
        return a != b

    rows = []
    for t in squares:
        nb = [u for u in squares if near(t, u)]
        if not nb:
            rows.append([Fraction(u == t) for u in squares])
        else:
            rows.append([p if u == t else (1 - p) / len(nb) if u in nb else Fraction(0) for u in squares])
    return rows


def uniform_psi(m: int) -> list:
    return [[Fraction(1, m)] * m for _ in range(m)]


def identity_psi(m: int) -> list:
    return [[Fraction(i == j) for j in range(m)] for i in range(m)]


# --------------------------------------------------------------------------- backward induction


def backward_induction(root, followers, psi, misere: bool = False) -> dict:
    """``{v: (N_v, optimal move indices, per-move values)}`` for every position
    reachable from ``root``: N = 0 at a terminal position (1 in misère play),
    N_v(w) = sum_u psi_v(w, u) (1 - N_u), N_v = max_w N_v(w)."""
    out: dict = {}

    def value(v):
        if v in out:
            return out[v][0]
        fs = followers(v)
        if not fs:
            out[v] = (Fraction(int(misere)), frozenset(), [])
            return out[v][0]
        lose = [1 - value(u) for u in fs]
        moves = [sum(x * y for x, y in zip(row, lose)) for row in psi(v, fs)]
        top = max(moves)
        out[v] = (top, frozenset(i for i, x in enumerate(moves) if x == top), moves)
        return top

    value(root)
    return out


def nim(k: int, channel: str, p: Fraction, misere: bool = False) -> dict:
    """1-pile Nim from a heap of k through ``binary``, ``uniform`` or ``identity``."""
    p = Fraction(p)

    def psi(v, fs):
        if channel == "binary":
            return binary_psi(fs, v.bit_length(), p)
        return uniform_psi(len(fs)) if channel == "uniform" else identity_psi(len(fs))

    return backward_induction(k, nim_followers, psi, misere)


def chomp(v: tuple, channel: str, p: Fraction, misere: bool = False) -> dict:
    """Chomp from the diagram ``v`` through ``king``, ``rook``, ``all``, ``uniform`` or ``identity``."""
    p = Fraction(p)

    def psi(u, fs):
        if channel in ("king", "rook", "all"):
            return neighbour_psi(chomp_squares(u), channel, p)
        return uniform_psi(len(fs)) if channel == "uniform" else identity_psi(len(fs))

    return backward_induction(tuple(v), chomp_followers, psi, misere)


def nim_binary_move_values(k: int, p) -> list:
    """N_k(send s) for s = 0..k-1 through the binary channel at 0 < p < 1, in
    whatever number type ``p`` has (Fraction, or mpmath.mpf to find a
    breakpoint with findroot)."""
    values = [0 * p]
    for v in range(1, k + 1):
        n = v.bit_length()
        moves = []
        for s in range(v):
            q = [p ** hamming(s, r) * (1 - p) ** (n - hamming(s, r)) for r in range(v)]
            moves.append(sum((1 - values[r]) * q[r] for r in range(v)) / sum(q))
        values.append(max(moves))
    return moves


def nim5_breakpoint(dps: int = 50):
    """The point of (1/2, 1) where Nim 5 through the binary channel switches
    from sending 3 to sending 4 (theory.md 3.1: "3 for 1/2 < p < ~0.76 and 4
    above ~0.77"): the root of N_5(send 3) - N_5(send 4) near 0.76, found by
    mpmath.findroot at ``dps`` digits from the backward induction above."""
    import mpmath

    with mpmath.workdps(dps + 10):
        root = mpmath.findroot(lambda p: (lambda m: m[3] - m[4])(nim_binary_move_values(5, p)), mpmath.mpf("0.76"))
        return +root
