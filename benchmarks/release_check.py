"""Release check: the largest cases the README advertises, in every output format.

    python benchmarks/release_check.py                 # everything (about 25 minutes: nim 64 and Chomp 6 x 6 with each channel)
    python benchmarks/release_check.py --quick         # nim 16, chomp 3x4, 0.137 to 1000, phase nim 6

For each case it solves once (into a fresh cache) and then renders through the
command line exactly as a user would: text, JSON (with --moves), LaTeX, the CSV
table, the --at answer, PNG plots (with and without --moves), a certificate
(check --out) and its independent verification (verify); and it solves again
with --jobs 2 into a cache of its own, then reloads that cache with
--verify-cache, both JSON outputs identical to the serial one.  It then checks that
the formats agree with each other and with the exact solution: every JSON
formula reads back (by our own parser) to the solution's formula, every
breakpoint's decimal in the JSON is in the text, the LaTeX has one case per
piece, every table row is the correctly rounded exact value at its p, the
--at answer equals the table row and the exact value.  The octal game 0.137 is
run to 10^5 with its period proven, text and JSON agreeing.  The phase diagram
of Nim 8 (binary at p against binary at q; Nim 6 with --quick) is drawn in
text, JSON serially and with --jobs 2 (identical), a PNG plot and --locate at
a rational point in text and JSON, checked against the two-player solver with
both channels fixed at that point.

It exits with status 1 on any exception or disagreement and prints a timing
table (the README's performance table quotes it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
import traceback
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from symbolic_noise.io.cli import main as cli  # noqa: E402
from symbolic_noise.exact.formula import parse_formula  # noqa: E402
from symbolic_noise.exact.polys import to_fraction  # noqa: E402
from symbolic_noise.games.registry import game_from_spec  # noqa: E402
from symbolic_noise.exact.rounding import fixed  # noqa: E402
from symbolic_noise.solvers.piecewise import solve# noqa: E402
from symbolic_noise.solvers.storage.cache import SolutionCache  # noqa: E402


class Disagreement(Exception):
    pass


def run(args: list[str]) -> tuple[str, float]:
    """Run the command line in-process; its standard output and the seconds it took."""
    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli(args)
    seconds = time.perf_counter() - t0
    if status != 0:
        raise Disagreement(f"`symbolic-noise {' '.join(args)}` exited {status}: {err.getvalue().strip()}")
    return out.getvalue(), seconds


def check_case(spec: list[str], channel: str, cache: str, work: str, timings: list) -> None:
    name = " ".join(spec) + f" ({channel})"
    common = ["--channel", channel, "--cache", cache, "--quiet"]
    text, t = run(["solve", *spec, *common])
    timings.append((name, "solve (text)", t))
    game = game_from_spec(spec[0], spec[1])
    with SolutionCache(cache, game, channel) as store:
        sol = solve(game, channel, store=store)
    f = sol.value()

    data_text, t = run(["solve", *spec, *common, "--format", "json", "--moves"])
    timings.append((name, "json --moves", t))
    data = json.loads(data_text)
    if len(data["pieces"]) != len(f.formulas) or data["stats"]["pieces"] != len(f.formulas):
        raise Disagreement(f"{name}: JSON has {len(data['pieces'])} pieces, the solution {len(f.formulas)}")
    for piece, formula in zip(data["pieces"], f.formulas):
        if parse_formula(piece["value"]) != formula:
            raise Disagreement(f"{name}: the JSON formula {piece['value'][:60]}... does not read back")
    for bp in data["breakpoints"]:
        shown = bp["decimal"] if bp["polynomial"] else f"p = {bp['exact']} "  # rationals print exactly
        if shown not in text:
            raise Disagreement(f"{name}: breakpoint {shown} of the JSON is not in the text output")
    if len(data["moves"]) != len(game.followers(game.start())):
        raise Disagreement(f"{name}: --moves lists {len(data['moves'])} moves")

    # --jobs 2 into a cache of its own (Chomp: split by positions, Nim: by p), then
    # a serial reload of that cache with every entry's mathematics re-checked
    jobs_cache = os.path.join(work, f"{'_'.join(spec)}_{channel}_jobs.sqlite")
    if os.path.exists(jobs_cache):
        os.remove(jobs_cache)
    jobs_common = ["--channel", channel, "--cache", jobs_cache, "--quiet", "--format", "json", "--moves"]
    par, t = run(["solve", *spec, *jobs_common, "--jobs", "2"])
    timings.append((name, "json --jobs 2 (cold)", t))
    if json.loads(par) != data:
        raise Disagreement(f"{name}: the JSON with --jobs 2 differs from the serial JSON")
    again, t = run(["solve", *spec, *jobs_common, "--verify-cache"])
    timings.append((name, "json, --jobs 2 cache verified", t))
    if json.loads(again) != data:
        raise Disagreement(f"{name}: the JSON from the --jobs 2 cache differs from the serial JSON")

    latex, t = run(["solve", *spec, *common, "--format", "latex"])
    timings.append((name, "latex", t))
    cases = latex.split("\\begin{cases}")[1].split("\\end{cases}")[0].strip().split("\\\\\n")
    if len(cases) != len(f.formulas) or not all(" p \\le " in c for c in cases):
        raise Disagreement(f"{name}: LaTeX has {len(cases)} cases for {len(f.formulas)} pieces")

    table, t = run(["table", *spec, *common, "--step", "0.01"])
    timings.append((name, "table --step 0.01", t))
    lines = table.strip().splitlines()
    comments = [line for line in lines if line.startswith("# ")]
    if not any(line.startswith("# game: ") for line in comments) or not any(line.startswith("# software: ") for line in comments):
        raise Disagreement(f"{name}: the table does not open with its provenance")
    rows = lines[len(comments) + 1:]  # the provenance, the column names, then the rows
    if len(rows) != 101:
        raise Disagreement(f"{name}: the table has {len(rows)} rows")
    for row in rows:
        cells = row.split(",")
        p = Fraction(cells[1])
        exact = to_fraction(sol.at(p).value)
        if cells[2] != fixed(exact, 15):
            raise Disagreement(f"{name}: table row p = {cells[1]} says {cells[2]}, the exact value is {fixed(exact, 15)}")

    at, t = run(["solve", *spec, *common, "--at", "3/10", "--format", "json"])
    timings.append((name, "--at 3/10", t))
    at = json.loads(at)
    if at.get("meta", {}).get("game", {}).get("description") != sol.game.describe():
        raise Disagreement(f"{name}: --at's JSON does not name its game")
    if Fraction(at["value"]) != to_fraction(sol.at(Fraction(3, 10)).value) or at["value_decimal"][:17] != rows[30].split(",")[2][:17]:
        raise Disagreement(f"{name}: --at 3/10 gives {at['value_decimal']}, the table {rows[30]}")

    for extra, label in (([], "plot png"), (["--moves"], "plot png --moves")):
        png = os.path.join(work, f"{'_'.join(spec)}_{channel}{'_moves' if extra else ''}.png")
        _, t = run(["plot", *spec, *common, "-o", png, *extra])
        timings.append((name, label, t))
        with open(png, "rb") as fh:
            if fh.read(8) != b"\x89PNG\r\n\x1a\n":
                raise Disagreement(f"{name}: {png} is not a PNG")

    cert = os.path.join(work, f"{'_'.join(spec)}_{channel}_cert.json")
    _, t = run(["check", *spec, "N >= 0 on [0, 1]", *common, "--out", cert])
    timings.append((name, "check --out", t))
    verified, t = run(["verify", cert])
    timings.append((name, "verify", t))
    if not verified.startswith("verified"):
        raise Disagreement(f"{name}: verify said {verified!r}")


def check_octal(n: int, timings: list) -> None:
    text, t = run(["grundy", "0.137", "--upto", str(n), "--period"])
    timings.append((f"0.137 to {n}", "grundy text", t))
    data, t = run(["grundy", "0.137", "--upto", str(n), "--period", "--format", "json"])
    timings.append((f"0.137 to {n}", "grundy json", t))
    data = json.loads(data)
    if (data["preperiod"], data["period"], data["proven"]) != (52, 34, True) or len(data["values"]) != n + 1:
        raise Disagreement(f"0.137: preperiod {data['preperiod']}, period {data['period']}, proven {data['proven']}")
    if "52" not in text or "34" not in text:
        raise Disagreement("0.137: the text output does not state the preperiod 52 and period 34")


def check_phase(k: int, work: str, timings: list) -> None:
    from flint import fmpq

    from symbolic_noise.games.rulesets import Nim
    from symbolic_noise.solvers.twoplayer.players import solve_players

    name = f"phase nim {k}"
    base = ["phase", "nim", str(k), "--channel", "binary", "--opponent-channel", "binary@q"]
    data, t = run(base + ["--format", "json", "--jobs", "2"])
    timings.append((name, "json --jobs 2", t))
    serial, t = run(base + ["--format", "json"])
    timings.append((name, "json", t))
    if data != serial:
        raise Disagreement(f"{name}: the JSON with --jobs 2 differs from the serial JSON")
    stats = json.loads(data)["stats"]
    text, t = run(base + ["--jobs", "2"])
    timings.append((name, "text --jobs 2", t))
    if f"{stats['cells']} cells" not in text:
        raise Disagreement(f"{name}: the text does not give the JSON's {stats['cells']} cells")
    png = os.path.join(work, f"phase_nim{k}.png")
    _, t = run(base + ["--jobs", "2", "--plot", png, "--locate", "1/3,2/5"])
    timings.append((name, "plot png --jobs 2", t))
    with open(png, "rb") as fh:
        if fh.read(8) != b"\x89PNG\r\n\x1a\n":
            raise Disagreement(f"{name}: {png} is not a PNG")
    p, q = fmpq(7, 10), fmpq(3, 7)
    located, t = run(base + ["--jobs", "2", "--locate", f"{p},{q}", "--format", "json"])
    timings.append((name, "--locate json --jobs 2", t))
    located = json.loads(located)
    ref = solve_players(Nim(k), f"binary@{p}", opponent_channel=f"binary@{q}").at(0)
    if located["value"] != str(ref.value) or set(located["optimal"]) != set(ref.optimal):
        raise Disagreement(f"{name}: locate {located['value']} {located['optimal']} at ({p}, {q}),"
                           f" the two-player solver {ref.value} {sorted(ref.optimal)}")


class _Timings(list):
    """The timing rows, each also printed (flushed) to standard error as it
    comes, so that a run stopped early still shows how far it got."""

    def append(self, row) -> None:
        super().append(row)
        case, step, t = row
        print(f"  done: {case}  {step}  {t:.2f} s", file=sys.stderr, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small cases (a minute), to test this script")
    ap.add_argument("--work", metavar="DIR", help="working directory (its cache.sqlite is reused: solves are then warm)")
    ap.add_argument("--only", metavar="WORD", help="only the cases whose name contains WORD (e.g. nim, chomp, 0.137)")
    args = ap.parse_args()
    if args.quick:
        cases = [(["nim", "16"], "binary"), (["chomp", "3x4"], "king"), (["chomp", "3x4"], "rook"), (["chomp", "3x4"], "all")]
        octal, phase_k = 1000, 6
    else:
        cases = [(["nim", "64"], "binary"), (["chomp", "6x6"], "king"), (["chomp", "6x6"], "rook"), (["chomp", "6x6"], "all")]
        octal, phase_k = 100_000, 8
    work = args.work or tempfile.mkdtemp(prefix="release_check_")
    os.makedirs(work, exist_ok=True)
    cache = os.path.join(work, "cache.sqlite")
    if os.path.exists(cache):
        print(f"reusing the cache {cache}: 'solve' times below are warm, not cold")
    wanted = (lambda name: args.only in name) if args.only else (lambda name: True)
    cases = [c for c in cases if wanted(" ".join(c[0]))]
    timings: list = _Timings()
    failed = False
    for spec, channel in cases:
        try:
            check_case(spec, channel, cache, work, timings)
        except Exception as exc:  # noqa: BLE001 - the point is to report anything
            failed = True
            print(f"FAILED {' '.join(spec)} ({channel}): {exc}")
            if not isinstance(exc, Disagreement):
                traceback.print_exc()
    try:
        if wanted(f"0.137 {octal}"):
            check_octal(octal, timings)
    except Exception as exc:  # noqa: BLE001
        failed = True
        print(f"FAILED 0.137: {exc}")
    try:
        if wanted(f"phase nim {phase_k}"):
            check_phase(phase_k, work, timings)
    except Exception as exc:  # noqa: BLE001
        failed = True
        print(f"FAILED phase nim {phase_k}: {exc}")
        if not isinstance(exc, Disagreement):
            traceback.print_exc()
    width = max(len(c) for c, _, _ in timings) if timings else 10
    for case, step, seconds in timings:
        print(f"{case:<{width}}  {step:<26} {seconds:8.2f} s")
    print("release check:", "FAILED" if failed else "every case and every format agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
