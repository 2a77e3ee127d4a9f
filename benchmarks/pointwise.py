"""Issue 15's goals for answers at one p, each next to a plain Fraction backward
induction written here (what a user would write), in the same run.

  python benchmarks/pointwise.py                  # every goal, baselines where feasible
  python benchmarks/pointwise.py --goals nim64 chomp8-king --no-baseline
  python benchmarks/pointwise.py --full-solve     # also the full piecewise solve of nim 64 (~200 s)

Every goal runs in a fresh child process, so its peak memory (ru_maxrss) is its
own.  Figures: wall seconds and CPU seconds of the child; the machine is shared,
so a goal is judged on CPU seconds, and the ratio to the baseline, measured in
the same child, is the robust figure.
Every answer is checked: the exact value against the baseline's where both run,
ball-certified digits against the exact value's where the exact value is known.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

# --------------------------------------------------------------------------- the baseline a user would write


def fraction_nim_binary(k: int, p: Fraction) -> tuple[Fraction, set]:
    """1-pile Nim through the binary channel (theory.md 3.1), 0 < p < 1, in Fractions."""
    values = [Fraction(0)]
    best = set()
    for v in range(1, k + 1):
        n = v.bit_length()
        per_move = []
        for s in range(v):
            q = [p ** bin(s ^ r).count("1") * (1 - p) ** (n - bin(s ^ r).count("1")) for r in range(v)]
            per_move.append(sum((1 - values[r]) * q[r] for r in range(v)) / sum(q))
        top = max(per_move)
        values.append(top)
        best = {s for s, x in enumerate(per_move) if x == top}
    return values[k], best


def fraction_chomp(rows: int, cols: int, kind: str, p: Fraction) -> tuple[Fraction, set]:
    """Chomp through the king channel (theory.md 3.2) or the uniform one, in Fractions."""
    memo = {}

    def squares(v):
        return [(i, j) for i, r in enumerate(v, 1) for j in range(1, r + 1) if (i, j) != (1, 1)]

    def bite(v, i, j):
        out = [r if k < i - 1 else min(r, j - 1) for k, r in enumerate(v)]
        while out and out[-1] == 0:
            out.pop()
        return tuple(out)

    def moves(v):
        sq = squares(v)
        lose = {t: 1 - value(bite(v, *t)) for t in sq}
        if kind == "uniform":
            mean = sum(lose.values()) / len(sq)
            return {t: mean for t in sq}
        out = {}
        for t in sq:
            nb = [u for u in sq if max(abs(u[0] - t[0]), abs(u[1] - t[1])) == 1]
            out[t] = lose[t] if not nb else p * lose[t] + (1 - p) * sum(lose[u] for u in nb) / len(nb)
        return out

    def value(v):
        if v not in memo:
            mv = moves(v) if squares(v) else {}
            memo[v] = max(mv.values()) if mv else Fraction(0)
        return memo[v]

    sys.setrecursionlimit(100000)
    start = (cols,) * rows
    mv = moves(start)
    top = max(mv.values())
    return top, {t for t, x in mv.items() if x == top}


# --------------------------------------------------------------------------- the goals


def _exact(game, channel, p):
    from symbolic_noise.solvers.onepoint.fastpoint import value_at

    r = value_at(game, channel, p)
    return Fraction(int(r.value.p), int(r.value.q)), set(r.optimal)


def _constant(sol):
    c = sol.value().formulas[0].constant_value()
    return Fraction(int(c.p), int(c.q))


def _table(k):
    from symbolic_noise import reports
    from symbolic_noise.games.rulesets import Nim
    from symbolic_noise.io.pointgrid import grid_rows

    rows = grid_rows(Nim(k), "binary", reports.grid("0.01"), 15)
    return f"{sum(r.method == 'ball' for r in rows)} ball rows, {sum(r.method == 'exact' for r in rows)} exact", None


def _moonshot():
    from symbolic_noise.games.rulesets import Nim
    from symbolic_noise.io.pointgrid import certified_row

    r = certified_row(Nim(4096), "binary", "3/10", 30)
    return f"N = {r.decimals} ({r.method}), optimal {list(r.optimal)}", None


def _goal(name):
    from symbolic_noise.games.rulesets import Chomp, Nim
    from symbolic_noise.solvers.piecewise import solve

    p3, p1 = Fraction(3, 10), Fraction(1, 10)
    goals = {
        # name: (command, limit s, ours, baseline or None)
        "nim64": ("solve nim 64 --at 3/10", None, lambda: _exact(Nim(64), "binary", "3/10"), lambda: fraction_nim_binary(64, p3)),
        "nim256": ("solve nim 256 --at 3/10", 5, lambda: _exact(Nim(256), "binary", "3/10"), lambda: fraction_nim_binary(256, p3)),
        "nim1024": ("solve nim 1024 --at 3/10", 120, lambda: _exact(Nim(1024), "binary", "3/10"), None),
        "nim4096-30digits": ("solve nim 4096 --at 3/10 --method pointwise --digits 30", 600, _moonshot, None),
        "chomp8-king": ("solve chomp 8x8 --channel king --at 1/10", 10, lambda: _exact(Chomp(8, 8), "king", "1/10"),
                        lambda: fraction_chomp(8, 8, "king", p1)),
        "chomp10-king": ("solve chomp 10x10 --channel king --at 1/10", 300, lambda: _exact(Chomp(10, 10), "king", "1/10"), None),
        "table-nim128": ("table nim 128 --step 0.01", 30, lambda: _table(128), None),
        "table-nim256": ("table nim 256 --step 0.01", 180, lambda: _table(256), None),
        "chomp2x40-uniform": ("solve chomp 2x40 --channel uniform", 1,
                              lambda: (_constant(solve(Chomp(2, 40), "uniform")), None),
                              lambda: fraction_chomp(2, 40, "uniform", p1)),
        "chomp8-uniform": ("solve chomp 8x8 --channel uniform", 5,
                           lambda: (_constant(solve(Chomp(8, 8), "uniform")), None),
                           lambda: fraction_chomp(8, 8, "uniform", p1)),
    }
    return goals[name]


GOALS = ["nim64", "nim256", "nim1024", "nim4096-30digits", "chomp8-king", "chomp10-king", "table-nim128",
         "table-nim256", "chomp2x40-uniform", "chomp8-uniform"]


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def run_one(name: str, baseline: bool, full_solve: bool) -> dict:
    command, limit, ours, base = _goal(name)
    (value, opt), wall, cpu = _timed(ours)
    rec = {"goal": name, "command": command, "limit": limit, "wall": wall, "cpu": cpu}
    if name == "nim64":
        from symbolic_noise.games.rulesets import Nim
        from symbolic_noise.solvers.onepoint.pointwise import evaluate

        ref, rec["evaluate_wall"], rec["evaluate_cpu"] = _timed(lambda: evaluate(Nim(64), "binary", "3/10")[64])
        assert Fraction(int(ref.value.p), int(ref.value.q)) == value and set(ref.optimal) == opt
        if full_solve:
            from symbolic_noise.solvers.piecewise import solve

            sol, rec["full_wall"], rec["full_cpu"] = _timed(lambda: solve(Nim(64), "binary"))
            assert sol.at("3/10").value == ref.value
    if baseline and base is not None:
        (bv, bopt), rec["baseline_wall"], rec["baseline_cpu"] = _timed(base)
        assert bv == value, "the baseline disagrees"
        if opt is not None and name.startswith("nim"):
            assert bopt == opt
    rec["answer"] = value if isinstance(value, str) else f"{float(value):.15f}"
    rec["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return rec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--goals", nargs="+", default=GOALS, choices=GOALS)
    ap.add_argument("--no-baseline", action="store_true", help="skip the Fraction baselines")
    ap.add_argument("--full-solve", action="store_true", help="also time the full piecewise solve of nim 64")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one, not args.no_baseline, args.full_solve)))
        return

    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; 'ok' compares the goal's limit"
          " with CPU seconds (wall seconds grow with the load of the shared machine)")
    print(f"{'goal':<18} {'wall s':>8} {'cpu s':>8} {'limit':>6} {'ok':>3} {'Fraction s':>10} {'speed-up':>8} {'peak MB':>8}  command / answer")
    for name in args.goals:
        cmd = [sys.executable, __file__, "--one", name] + (["--no-baseline"] if args.no_baseline else [])
        cmd += ["--full-solve"] if args.full_solve else []
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode:
            print(f"{name:<18} FAILED: {res.stderr.strip().splitlines()[-1] if res.stderr.strip() else res.returncode}")
            continue
        r = json.loads(res.stdout.strip().splitlines()[-1])
        ok = "yes" if r["limit"] is None or r["cpu"] < r["limit"] else "NO"
        base = r.get("baseline_cpu")
        speed = f"{base / r['cpu']:.0f}x" if base else "-"
        print(f"{name:<18} {r['wall']:>8.2f} {r['cpu']:>8.2f} {r['limit'] or '-':>6} {ok:>3} "
              f"{base if base is None else round(base, 2)!s:>10} {speed:>8} {r['peak_mb']:>8.0f}  {r['command']}  ->  {r['answer']}",
              flush=True)
        if "evaluate_cpu" in r:
            print(f"{'':<18} pointwise.evaluate (the slow reference): {r['evaluate_cpu']:.2f} s cpu, "
                  f"{r['evaluate_cpu'] / r['cpu']:.0f}x slower", flush=True)
        if "full_cpu" in r:
            print(f"{'':<18} full piecewise solve of nim 64: {r['full_cpu']:.1f} s cpu, {r['full_cpu'] / r['cpu']:.0f}x slower",
                  flush=True)


if __name__ == "__main__":
    main()
