"""Where a long exact solve keeps its memory: 1-pile Nim through the binary channel.

Solves ``Nim(k)`` once and prints the process's peak memory, then walks what
the solve holds at its end and estimates the bytes of each part: the finished
values (every position's piecewise function), the cells' common data (the
followers' numerators ``c_u`` over each cell's common denominator, and the
moves' numerators carried to the next position), the followers' Taylor
models, enclosures and slope bounds on the cells, and the solver's other
caches.  A FLINT integer of at most 62 bits counts 8 bytes, a larger one
8 bytes plus its mpz (about 40 bytes and its limbs), a ball 48 bytes; Python
objects count ``sys.getsizeof``.  Objects shared by several parts count once, for the first
part that reaches them (values first).

The estimate misses what FLINT and malloc add (nim 128: 3,055 MB estimated
at a peak of 4,251 MB), so the script then *measures* the parts, on Linux
with glibc: it drops them one after another (the solver's workspace, the
values' breakpoints, their formulas), empties FLINT's pools and prints the
bytes malloc has in use after each step; the differences are what each part
held, as near as FLINT's pools allow (dropped in the other order, nim 64's
breakpoints seemed to hold 30 MB instead of 9.6 MB).  It also prints what
every value takes packed as the parallel solves pack them between processes
(:func:`symbolic_noise.solvers.storage.codec.encode` with ``wire=True``, each
breakpoint once in the stream, pickled) and how long packing and decoding
all of them take (the decoded values are checked to encode the same): the measure for
holding finished values packed (benchmarks/HISTORY.md, 2026-11-27
afternoon).

``--budget MB`` sets the solver's ``FOLLOWERS_BUDGET`` (how much the cells may
keep of every follower's numerator for the next position; ``inf`` never stops
keeping them, as before 2026-11-27) so that both ways can be compared:

  python benchmarks/memory_breakdown.py --k 64
  python benchmarks/memory_breakdown.py --k 64 --budget 0
  python benchmarks/memory_breakdown.py --k 64 --budget inf

``--values-budget MB`` sets ``packing.VALUES_BUDGET`` (past it the solve packs its
oldest finished values, :meth:`RationalFunction.pack`; 0 packs every one,
``inf`` none); the first lines say how many formulas were packed:

  python benchmarks/memory_breakdown.py --k 96 --budget 256 --values-budget 0
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import gc
import hashlib
import os
import pickle
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from flint import arb, arb_mat, arb_poly, ctx, fmpq, fmpq_poly, fmpz, fmpz_poly  # noqa: E402

from symbolic_noise import Nim, solve  # noqa: E402
from symbolic_noise.solvers.storage import codec
from symbolic_noise.solvers.storage import packing  # noqa: E402
from symbolic_noise.solvers.piecewise import cells as cells_module  # noqa: E402
from nim_scaling import _budget, set_values_budget  # noqa: E402


def _int_bytes(bits: int) -> int:
    return 8 if bits <= 62 else 48 + 8 * ((bits + 63) // 64)


class Walker:
    """Estimated bytes by part; each object counts once."""

    def __init__(self):
        self.seen: set = set()
        self.bytes = collections.Counter()

    def walk(self, obj, part: str, depth: int = 0) -> None:
        if depth > 8 or obj is None or isinstance(obj, (bool, int, float, str)):
            return
        if id(obj) in self.seen:
            return
        self.seen.add(id(obj))
        if isinstance(obj, fmpz_poly):
            self.bytes[part] += 48 + sum(_int_bytes(int(c).bit_length()) for c in obj.coeffs())
        elif isinstance(obj, fmpz):
            self.bytes[part] += 24 + _int_bytes(int(obj).bit_length())
        elif isinstance(obj, fmpq):
            self.bytes[part] += 32 + _int_bytes(int(obj.p).bit_length()) + _int_bytes(int(obj.q).bit_length())
        elif isinstance(obj, fmpq_poly):
            self.bytes[part] += 48 + _int_bytes(int(obj.denom()).bit_length())
            self.bytes[part] += sum(_int_bytes(int(c).bit_length()) for c in obj.numer().coeffs())
        elif isinstance(obj, arb):
            self.bytes[part] += 64
        elif isinstance(obj, arb_poly):
            self.bytes[part] += 48 + 48 * obj.length()
        elif isinstance(obj, arb_mat):
            self.bytes[part] += 48 + 48 * obj.nrows() * obj.ncols()
        elif isinstance(obj, dict):
            self.bytes[part] += sys.getsizeof(obj)
            for key, value in obj.items():
                self.walk(key, part, depth + 1)
                self.walk(value, part, depth + 1)
        elif isinstance(obj, (list, tuple, set, frozenset)):
            self.bytes[part] += sys.getsizeof(obj)
            for value in obj:
                self.walk(value, part, depth + 1)
        else:
            self.bytes[part] += sys.getsizeof(obj)
            slots = getattr(type(obj), "__slots__", None)
            if slots:
                for name in slots:
                    self.walk(getattr(obj, name, None), part, depth + 1)
            elif hasattr(obj, "__dict__"):
                for value in vars(obj).values():
                    self.walk(value, part, depth + 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=int, default=48)
    ap.add_argument("--budget", type=_budget, default=None, help="FOLLOWERS_BUDGET in MB, or inf (default: the solver's)")
    ap.add_argument("--values-budget", type=_budget, default=None,
                    help="packing.VALUES_BUDGET in MB (0: pack every value; inf: none), default the solver's, 512 MB")
    args = ap.parse_args()
    if args.budget is not None:
        cells_module.FOLLOWERS_BUDGET = args.budget * 2**20
    if args.values_budget is not None:
        set_values_budget(args.values_budget)
    start = time.perf_counter()
    cpu = time.process_time()
    sol = solve(Nim(args.k), "binary")
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cells, norm = sol._workspace
    digest = hashlib.sha256(str(sol.value()).encode()).hexdigest()[:16]
    budget = cells_module.FOLLOWERS_BUDGET
    print(f"nim {args.k}: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB; "
          f"followers' budget {budget / 2**20:.0f} MB, {'not reached' if cells.keep_followers else 'reached'}; "
          f"N_k's text SHA-256 {digest}")
    formulas = {id(f): f for value in sol.values().values() for f in value.formulas}.values()
    packed = sum(f.packed for f in formulas)
    print(f"values' budget {packing.VALUES_BUDGET / 2**20:g} MB: {packed:,} of {len(formulas):,} formulas packed, "
          f"{cells.held.bytes / 2**20:.1f} MB (estimated) not packed")
    w = Walker()
    for value in sol.values().values():
        w.walk(value, "values (every position's piecewise function)")
    parts = {
        "common": "cells: common data (B, followers' c_u, moves' numerators)",
        "taylor": "cells: followers' Taylor models",
        "enc": "cells: followers' enclosures",
        "slope": "cells: followers' slope bounds",
        "screen": "cells: carried screen coefficients",
        "bern": "cells: Bernstein matrices",
    }
    for cell in cells._cells.values():
        for name, part in parts.items():
            w.walk(getattr(cell, name), part)
    w.walk(cells.slopes, "solver: slope blocks")
    w.walk(cells._ranges, "solver: enclosure ranges")
    w.walk(cells.batch, "solver: batch screen cache")
    w.walk(norm, "solver: normalised formula pairs")
    print(f"at the end, {len(cells._cells)} cells:")
    for part, size in w.bytes.most_common():
        print(f"  {size / 2**20:9.1f} MB  {part}")
    print(f"  {sum(w.bytes.values()) / 2**20:9.1f} MB  in all (estimated)")
    del cells, norm, w
    measure(sol)
    return 0


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]


def _in_use():
    """Bytes malloc has handed out and not had back (glibc's mallinfo2), after
    emptying FLINT's pools of freed integers; None off glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):
        return None
    gc.collect()
    ctx.cleanup()
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd


def measure(sol) -> None:
    """Drop the solve's parts one after another and print what each held
    in malloc's count (see the module docstring); ``sol`` is spent after."""
    before = _in_use()
    if before is None:
        print("malloc's count is not available here (glibc's mallinfo2): no measured split")
        return
    print("measured (malloc's bytes in use, FLINT's pools emptied):")
    print(f"  {before / 2**20:9.1f} MB  in use at the end")
    sol._workspace = None
    values = sol.values()
    formulas = list({id(f): f for value in values.values() for f in value.formulas}.values())
    points = {id(x): x for value in values.values() for x in value.points}
    after = _in_use()
    print(f"  {(before - after) / 2**20:9.1f} MB  the solver's workspace (cells and caches)")
    # the values packed as the parallel solves hand them between processes
    # (positionsplit._pack: the wire encoding, each breakpoint once in the
    # stream, pickled), decoded the same way and checked equal
    start = time.perf_counter()
    memo: dict = {}
    packed = [pickle.dumps(codec.encode(value, wire=True, memo=memo), protocol=pickle.HIGHEST_PROTOCOL)
              for value in values.values()]
    encode = time.perf_counter() - start
    start = time.perf_counter()
    table: list = []
    decoded = [codec.decode(pickle.loads(blob), trusted=True, table=table) for blob in packed]
    decode = time.perf_counter() - start
    # (checked by encoding again: the same polynomials, isolating intervals and
    # labels.  Comparing the values themselves compares every breakpoint's copy
    # with its original exactly, which took over 15 minutes at k = 128)
    if any(codec.encode(got, wire=True) != codec.encode(value, wire=True) for got, value in zip(decoded, values.values())):
        raise AssertionError("a packed value does not decode to itself")
    size = sum(map(len, packed))
    del packed, memo, table, decoded
    before = _in_use()
    for x in points.values():
        x._poly = x._minpoly = None  # (the solution is spent from here on)
    after = _in_use()
    print(f"  {(before - after) / 2**20:9.1f} MB  the values' breakpoints ({len(points)} of them)")
    before = after
    for f in formulas:
        f._num = f._den = None
    after = _in_use()
    print(f"  {(before - after) / 2**20:9.1f} MB  the values' formulas ({len(formulas)} of them)")
    print(f"  {after / 2**20:9.1f} MB  left (the values' other data, the interpreter's and libraries' own)")
    print("  (in the order printed: FLINT gives freed integers back to malloc from pools of its own, so a step")
    print("  can free memory an earlier one let go of; the parts sum to the total)")
    print(f"every value packed as the parallel solves pack them (pickled wire encoding): {size / 2**20:.1f} MB; "
          f"packing all {encode:.1f} s, decoding all {decode:.1f} s (checked equal)")


if __name__ == "__main__":
    sys.exit(main())
