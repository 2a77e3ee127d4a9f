"""Time exact phase diagrams (issue 11): Nim k with player-specific binary
channels and Chomp 2 x 3 with player-specific king channels.

Each case runs in a child process with a wall-clock limit (default 600 s); a
case the library refuses (PhaseTooLargeError) is reported as such.

  python benchmarks/phase_timing.py                     # Nim k = 2..8, Chomp 2x3
  python benchmarks/phase_timing.py --nim 2 3 4 5 --time-limit 120
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time


def _run(spec, channel, out):
    from symbolic_noise.errors import PhaseTooLargeError
    from symbolic_noise.analysis.phase import phase
    from symbolic_noise.games.registry import game_from_spec

    t = time.perf_counter()
    try:
        d = phase(game_from_spec(*spec), channel, f"{channel}@q")
    except PhaseTooLargeError as exc:
        out.put(("refused", time.perf_counter() - t, str(exc)))
        return
    out.put(("done", time.perf_counter() - t, d.stats()))


def timed(spec, channel, limit):
    q = mp.Queue()
    proc = mp.Process(target=_run, args=(spec, channel, q))
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return ("timeout", limit, None)
    return q.get()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nim", nargs="*", type=int, default=list(range(2, 9)))
    ap.add_argument("--chomp", nargs="*", default=["2x2", "2x3"])
    ap.add_argument("--time-limit", type=float, default=600)
    args = ap.parse_args(argv)
    cases = [(("nim", str(k)), "binary") for k in args.nim] + [(("chomp", b), "king") for b in args.chomp]
    largest = None
    print(f"{'game':>10} {'channel':>8} {'status':>8} {'seconds':>8}  stats")
    for spec, ch in cases:
        status, seconds, info = timed(spec, ch, args.time_limit)
        print(f"{' '.join(spec):>10} {ch:>8} {status:>8} {seconds:8.2f}  {info if info is not None else ''}", flush=True)
        if spec[0] == "nim" and status == "done":
            largest = int(spec[1])
    print(f"largest Nim k done within {args.time_limit:.0f} s: {largest}")


if __name__ == "__main__":
    main()
