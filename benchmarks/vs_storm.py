"""Our full exact solve of 1-pile Nim against Storm's function for one fixed strategy.

Storm (through stormpy) computes the exact winning probability of a *fixed*
strategy in a parametric Markov chain as one rational function of p.  Here the
chain is 1-pile Nim through the binary channel with both players always
sending 0 (take the whole pile): a DTMC over (heap, player to move) whose
transition probabilities are the renormalised channel rows psi_h(0, r), rational
functions of p, written out as a PRISM model.  The script

1. writes that PRISM model and has stormpy compute ``P=? [F "p1wins"]`` from
   (k, player 1) as a rational function (skipped without stormpy);
2. computes the same fixed strategy's value exactly by backward induction over
   :class:`RationalFunction` (W_0 = 0, W_h = sum_r psi_h(0, r) (1 - W_r)) and
   checks the two functions are equal (cross-multiplied integer polynomials);
3. times our full exact solve of the game (every position, the optimal moves
   and all breakpoints; no cache) and prints both times side by side, wall
   and CPU seconds (on a shared machine the CPU ratio is the steadier one);
4. with ``--end-to-end``, also times the command a user types,
   ``symbolic-noise solve nim K --format json`` (a child process: the
   interpreter's start-up, the solve, the JSON report with its exact
   breakpoints, and writing the file; its CPU from ``RUSAGE_CHILDREN``), with
   a new empty cache (``--e2e-cache fresh``, what a first run does) or none.

  python benchmarks/vs_storm.py                 # k = 64
  python benchmarks/vs_storm.py --k 32
  python benchmarks/vs_storm.py --k 64 --skip-solve    # Storm and the check only
  python benchmarks/vs_storm.py --k 64 --repeat 3      # alternate both 3 times: ratios and their median
  python benchmarks/vs_storm.py --k 64 --repeat 3 --fresh   # every timed step in a new process
  python benchmarks/vs_storm.py --k 64 --repeat 3 --fresh --end-to-end   # and the command line's JSON

``pip install ".[bench]"`` installs stormpy; without it the script prints our
times alone.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from flint import fmpz_poly

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout, not an installed copy

from symbolic_noise import Nim, solve
from symbolic_noise.games.channels import BinaryChannel
from symbolic_noise.exact.formula import parse_formula
from symbolic_noise.exact.ratfunc import RationalFunction


def peak_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def send_zero_rows(k: int) -> dict[int, list[tuple[int, RationalFunction]]]:
    """``{h: [(r, psi_h(0, r)), ...]}`` for h = 1..k: the channel's row of the sent
    move 0 (take the whole pile), exact rational functions of p."""
    game, channel = Nim(k), BinaryChannel()
    rows = {}
    for h in range(1, k + 1):
        followers = list(game.followers(h))
        w = followers.index(0)
        r = channel.rows(game, h)
        rows[h] = [(u, RationalFunction(r.num[w][j], r.den[w])) for j, u in enumerate(followers)]
    return rows


def fixed_strategy_value(k: int, rows) -> RationalFunction:
    """W_k for both players sending 0, by exact backward induction."""
    W = {0: RationalFunction.constant(0)}
    for h in range(1, k + 1):
        acc = RationalFunction.constant(0)
        for u, psi in rows[h]:
            acc = acc + psi * (1 - W[u])
        W[h] = acc
    return W[k]


def prism_poly(f: fmpz_poly) -> str:
    """An integer polynomial in p as a PRISM expression (products, no powers)."""
    terms = []
    for i, c in enumerate(f.coeffs()):
        if c == 0:
            continue
        factors = ([str(int(c))] if (c != 1 or i == 0) else []) + ["p"] * i
        terms.append("(" + "*".join(factors) + ")")
    return "+".join(terms) if terms else "0"


def prism_model(k: int, rows) -> str:
    """The DTMC over (heap h, player t to move), both players sending 0."""
    lines = ["dtmc", "", "const double p;", "", "module nim", f"  h : [0..{k}] init {k};", "  t : [1..2] init 1;"]
    for h in range(1, k + 1):
        branches = []
        for u, psi in rows[h]:
            prob = f"({prism_poly(psi.num)})/({prism_poly(psi.den)})"
            branches.append(f"{prob} : (h'={u})&(t'=3-t)")
        lines.append(f"  [] h={h} -> " + " + ".join(branches) + ";")
    lines += ["  [] h=0 -> 1 : true;", "endmodule", "", 'label "p1wins" = h=0 & t=2;', ""]
    return "\n".join(lines)


def storm_value(model_text: str):
    """Storm's exact reachability function of the model, as the text of its
    numerator and denominator, and the wall and CPU seconds it took (parse,
    build, check)."""
    import stormpy

    with tempfile.NamedTemporaryFile("w", suffix=".prism", delete=False) as fh:
        fh.write(model_text)
        path = fh.name
    try:
        t, c = time.perf_counter(), time.process_time()
        program = stormpy.parse_prism_program(path)
        props = stormpy.parse_properties('P=? [F "p1wins"]', program)
        model = stormpy.build_model[stormpy.RationalFunction](program, props)
        result = stormpy.model_checking(model, props[0])
        value = result.get_value(model.initial_states[0])
        seconds = (time.perf_counter() - t, time.process_time() - c)
    finally:
        os.unlink(path)
    rf = value.rational_function()
    return (str(rf.numerator), str(rf.denominator)), seconds


def _our_solve(k: int):
    """Our full solve of nim k, in the calling process: (wall, CPU) seconds,
    pieces, peak MB (run it through :func:`_in_fresh_process` for a new one)."""
    t, c = time.perf_counter(), time.process_time()
    sol = solve(Nim(k), "binary")
    seconds = (time.perf_counter() - t, time.process_time() - c)
    return seconds, len(sol.value().formulas), peak_mb()


def _in_fresh_process(fn, *args):
    """``fn(*args)`` in a new interpreter (spawned), so that neither side runs on
    a heap the other left behind."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


def cli_json(k: int, cache: str) -> tuple[tuple[float, float], str]:
    """``symbolic-noise solve nim k --format json`` run as a child process of
    this checkout (``cache``: ``fresh``, a new empty cache file, or ``none``,
    ``--no-cache``): its (wall, CPU) seconds, CPU from ``RUSAGE_CHILDREN``
    (user + system), and the size of the JSON it wrote."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = tempfile.mkdtemp(prefix="vs_storm_")
    try:
        out = os.path.join(folder, "nim.json")
        cmd = [sys.executable, "-m", "symbolic_noise", "solve", "nim", str(k), "--format", "json", "--quiet", "-o", out]
        cmd += ["--no-cache"] if cache == "none" else ["--cache", os.path.join(folder, "cache.sqlite")]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, cwd=root, check=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        size = f"{os.path.getsize(out) / 1e6:.1f} MB"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return (wall, cpu), size


def storm_to_ours(texts) -> RationalFunction:
    """Storm's rational function (numerator and denominator text, e.g.
    ``(-8)*p^11+p^2+1``) as ours, read by the package's formula grammar."""
    numerator, denominator = texts
    return parse_formula(f"({numerator})/({denominator})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=64, help="heap size (default 64)")
    parser.add_argument("--skip-solve", action="store_true", help="do not time our full solve")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time Storm and our solve this many times each, alternating which goes "
                             "first, and print every ratio and their median (this host's speed drifts "
                             "by up to 40%% within an hour)")
    parser.add_argument("--fresh", action="store_true",
                        help="run every timed step in a new process (in one process, Storm ran up to "
                             "35%% slower after our solve than before it)")
    parser.add_argument("--end-to-end", action="store_true",
                        help="also time the command line: symbolic-noise solve nim K --format json, a child process")
    parser.add_argument("--e2e-cache", choices=("fresh", "none"), default="fresh",
                        help="the command line's cache: a new empty file (fresh, default: a first run) or --no-cache")
    args = parser.parse_args(argv)
    k = args.k

    t = time.perf_counter()
    rows = send_zero_rows(k)
    ours_fixed = fixed_strategy_value(k, rows)
    t_fixed = time.perf_counter() - t
    print(f"k = {k}: fixed strategy 'both send 0', our exact backward induction: {t_fixed:.2f} s "
          f"(degree {ours_fixed.num.degree()}/{ours_fixed.den.degree()})", flush=True)

    try:
        import stormpy  # noqa: F401
    except ImportError:
        stormpy = None
        print("stormpy is not installed (pip install '.[bench]'): Storm not timed")
    model = prism_model(k, rows)

    def time_storm():
        if args.fresh:
            value, (t_storm, c_storm) = _in_fresh_process(storm_value, model)
        else:
            value, (t_storm, c_storm) = storm_value(model)
        theirs = storm_to_ours(value)
        # equal rational functions: equal canonical forms; checked by cross-multiplication too
        same = theirs.num * ours_fixed.den == ours_fixed.num * theirs.den
        print(f"Storm (stormpy), the same fixed strategy as one rational function: {t_storm:.2f} s "
              f"(CPU {c_storm:.2f} s); equal to ours: {same}", flush=True)
        if not same:
            raise SystemExit("MISMATCH between Storm and our fixed-strategy function")
        return t_storm, c_storm

    def time_solve():
        if args.fresh:
            (t_solve, c_solve), pieces, peak = _in_fresh_process(_our_solve, k)
            where = "its own process"
        else:
            (t_solve, c_solve), pieces, peak = _our_solve(k)
            where = "this process, Storm included"
        print(f"our full exact solve of nim {k} (every position, optimal moves, {pieces} pieces): "
              f"{t_solve:.2f} s (CPU {c_solve:.2f} s), peak {peak:.0f} MB ({where})", flush=True)
        return t_solve, c_solve

    def time_cli():
        (t_cli, c_cli), size = cli_json(k, args.e2e_cache)
        print(f"symbolic-noise solve nim {k} --format json (cache: {args.e2e_cache}), end to end: {t_cli:.2f} s "
              f"(CPU {c_cli:.2f} s; {size} of JSON)", flush=True)
        return t_cli, c_cli

    steps = [time_storm] if stormpy is not None else []
    steps += [] if args.skip_solve else [time_solve]
    steps += [time_cli] if args.end_to_end else []
    names = {time_solve: "full solve", time_cli: "command line, JSON, end to end"}
    ratios: dict = {step: [] for step in names}
    for rep in range(max(1, args.repeat)):
        order = steps[rep % len(steps):] + steps[:rep % len(steps)] if steps else []
        got = {step: step() for step in order}
        if time_storm in got:
            t_storm, c_storm = got[time_storm]
            for step, name in names.items():
                if step in got:
                    t, c = got[step]
                    ratios[step].append(c / c_storm)
                    print(f"ratio {name} / Storm's one function: {t / t_storm:.2f} wall, {c / c_storm:.2f} CPU", flush=True)
        elif time_solve in got and time_cli in got:  # (no Storm: the command line against the library's solve)
            print(f"ratio command line (JSON) / library solve: {got[time_cli][1] / got[time_solve][1]:.2f} CPU", flush=True)
    for step, name in names.items():
        if len(ratios[step]) > 1:
            print(f"CPU ratios {name} / Storm over {len(ratios[step])} alternating runs: "
                  f"{', '.join(f'{r:.2f}' for r in ratios[step])}; median {statistics.median(ratios[step]):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
