"""Time exact phase diagrams (issue 11): Nim k with player-specific binary
channels, Chomp 2 x 2 and 2 x 3 with player-specific king channels, and the
largest Nim k whose diagram is done within the time limit.

Each case runs in a child process with a wall-clock limit (default 600 s) and
reports wall-clock and CPU seconds (the machine is shared: CPU time is the
steadier figure), the output cells and critical values, and the proved
decomposition's size before merging.  With ``--largest`` the Nim search goes on
past the listed k until a case fails to finish within the limit.

  python benchmarks/phase_timing.py                     # Nim k = 3..8, Chomp 2x2, 2x3
  python benchmarks/phase_timing.py --largest           # ... then Nim 9, 10, ... until one times out
  python benchmarks/phase_timing.py --save              # ... and store the diagrams in results/phase/
  python benchmarks/phase_timing.py --nim 3 4 5 --chomp --time-limit 120
  python benchmarks/phase_timing.py --nim 5 6 --method sweep cad   # the sweep (default) and the global decomposition
  python benchmarks/phase_timing.py --nim 7 8 --jobs 1 2   # serial, then the events in 2 worker processes

With ``--jobs N`` (N > 1) the sweep's discriminants and resultants run in a
process pool of N workers (``phase(..., executor=...)``, the CLI's ``--jobs``);
the CPU column is then the main process's and the workers' together.

With ``--base COMMIT`` every case runs under that commit's package (exported
with ``git archive`` into a temporary directory) and under this checkout,
alternately, ``--reps`` times: on a shared machine only such same-run pairs
compare (as in ``benchmarks/ab_commits.py``).

  python benchmarks/phase_timing.py --base b56b8ca --nim 7 8 --chomp --jobs 1 2 --reps 2
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _children_cpu() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _run(spec, channel, opponent, out, save, method="sweep", jobs=1):
    os.setpgrp()  # a process group of its own: a timeout stops the case's pool workers too
    from symbolic_noise.errors import PhaseTooLargeError
    from symbolic_noise.analysis.phase import phase
    from symbolic_noise.games.registry import game_from_spec

    pool = None
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(jobs)
    t, c, cc = time.perf_counter(), time.process_time(), _children_cpu()
    try:
        d = phase(game_from_spec(*spec), channel, opponent, method=method, executor=pool)
    except PhaseTooLargeError as exc:
        out.put(("refused", time.perf_counter() - t, time.process_time() - c, str(exc)))
        return
    finally:
        if pool is not None:
            pool.shutdown()  # the workers are reaped: their CPU time is counted below
    wall, cpu = time.perf_counter() - t, time.process_time() - c + _children_cpu() - cc
    out.put(("done", wall, cpu, d.stats()))
    if save:  # after the timing: the stored diagram of scripts/phase_results.py
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
        from phase_results import store

        store(f"{spec[0]}{spec[1]}", d, wall, cpu)


def timed(spec, channel, opponent, limit, save=False, method="sweep", jobs=1):
    q = mp.Queue()
    proc = mp.Process(target=_run, args=(spec, channel, opponent, q, save, method, jobs))
    start = time.perf_counter()
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        if not q.empty():  # done, still storing the diagram
            proc.join()
            return q.get()
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the case and its workers (terminate() orphaned the workers)
        except ProcessLookupError:
            pass
        proc.join()
        return ("timeout", time.perf_counter() - start, None, None)
    return q.get()


def _line(spec, channel, status, wall, cpu, info, method="sweep", jobs=1):
    cpu_s = f"{cpu:8.2f}" if cpu is not None else f"{'-':>8}"
    if isinstance(info, dict):
        info = (f"cells {info['cells']:>5}  critical {info['critical_values']:>4}  polynomials {info['polynomials']:>4}"
                f"  (proved decomposition: {info['cad_cells']} cells, {info['cad_critical_values']} critical values)")
    return f"{' '.join(spec):>10} {channel:>10} {method:>6} {jobs:>4} {status:>8} {wall:9.2f} {cpu_s}  {info or ''}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nim", nargs="*", type=int, default=list(range(3, 9)))
    ap.add_argument("--chomp", nargs="*", default=["2x2", "2x3"])
    ap.add_argument("--asymmetric", nargs="*", type=int, default=[], help="Nim k with the two-parameter asymmetric channel")
    ap.add_argument("--largest", action="store_true", help="go on with Nim k+1, k+2, ... until one does not finish")
    ap.add_argument("--time-limit", type=float, default=600)
    ap.add_argument("--method", nargs="+", choices=["sweep", "cad"], default=["sweep"],
                    help="the algorithm(s) of phase(); several: each case with each, one after the other")
    ap.add_argument("--jobs", nargs="+", type=int, default=[1],
                    help="worker processes for the sweep's events; several: each case with each, one after the other")
    ap.add_argument("--save", action="store_true", help="also store each diagram in results/phase/ (scripts/phase_results.py)")
    ap.add_argument("--base", help="a git commit: each case under it and under this checkout, alternately")
    ap.add_argument("--reps", type=int, default=1, help="with --base: pairs of runs per case")
    args = ap.parse_args(argv)
    if args.base:
        return ab(args)
    cases = [(("chomp", b), "king", "king@q") for b in args.chomp]
    cases += [(("nim", str(k)), "binary", "binary@q") for k in args.nim]
    cases += [(("nim", str(k)), "asymmetric", None) for k in args.asymmetric]
    largest = None
    print(f"{'game':>10} {'channel':>10} {'method':>6} {'jobs':>4} {'status':>8} {'wall s':>9} {'CPU s':>8}  stats", flush=True)
    for spec, ch, opp in cases:
        for method in args.method:
            for jobs in args.jobs if method == "sweep" else [1]:
                save = args.save and opp is not None and jobs == args.jobs[0]
                status, wall, cpu, info = timed(spec, ch, opp, args.time_limit, save, method, jobs)
                print(_line(spec, ch, status, wall, cpu, info, method, jobs), flush=True)
                if (spec[0] == "nim" and ch == "binary" and status == "done" and method == args.method[0]
                        and jobs == args.jobs[-1]):
                    largest = max(largest or 0, int(spec[1]))
    if args.largest:
        k = (largest or 2) + 1
        while True:
            status, wall, cpu, info = timed(("nim", str(k)), "binary", "binary@q", args.time_limit, method=args.method[0],
                                            jobs=args.jobs[-1])
            print(_line(("nim", str(k)), "binary", status, wall, cpu, info, args.method[0], args.jobs[-1]), flush=True)
            if status != "done":
                break
            largest, k = k, k + 1
    print(f"largest Nim k done within {args.time_limit:.0f} s (wall clock, --jobs {args.jobs[-1]}): {largest}")


def ab(args) -> None:
    """Each (case, jobs) under ``args.base`` and under this checkout, alternately, in
    fresh interpreters (this script on one case, the package from PYTHONPATH)."""
    cases = [["--chomp", b, "--nim"] for b in args.chomp] + [["--chomp", "--nim", str(k)] for k in args.nim]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", ROOT, "archive", args.base, "symbolic_noise"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        print(f"{'game':>10} {'channel':>10} {'method':>6} {'jobs':>4} {'status':>8} {'wall s':>9} {'CPU s':>8}  version", flush=True)
        for case in cases:
            for jobs in args.jobs:
                for _ in range(args.reps):
                    for label, path in ((f"base {args.base}", tmp), ("this checkout", ROOT)):
                        cmd = [sys.executable, os.path.abspath(__file__), *case, "--jobs", str(jobs),
                               "--method", args.method[0], "--time-limit", str(args.time_limit)]
                        env = dict(os.environ, PYTHONPATH=path)
                        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
                        line = out.splitlines()[1]  # the header, the case, the summary
                        print(f"{line.split('  cells')[0]}  {label}", flush=True)


if __name__ == "__main__":
    main()
