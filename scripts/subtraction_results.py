"""The paper's open question 2: 1-pile subtraction games through the binary
channel, exactly, with analogues of Conjectures 9 and 10 certified or refuted.

  python scripts/subtraction_results.py                 # S = {1,2}, {1,2,3}, {1,3,4}, {2,3}, {1,4}; k <= 32
  python scripts/subtraction_results.py --kmax 16 --sets 1,2

Encoding (the registry's binary channel on heap games): from a heap of h the
move that takes s in S is sent as the number of chips LEFT, h - s, in binary;
every digit flips independently with probability p and the received code is
renormalised over the legal moves {h - s : s in S, s <= h}.  (The width is the
digit count of the starting heap; extra leading digits are 0 in every legal code
and cancel in the renormalisation, so N_h does not depend on the start.)  Moves
are named "h->h-s".

Statements, for every S and every k <= kmax (G the classical nim-value):

  9a  G(k) != 0  =>  N_k >= 1/2 on [0, 1/2]
  9b  G(k) != 0  =>  some classical winning move (to a heap of nim-value 0) is
      optimal at every p in [0, 1/2]          (Nim: sending 0, Conjecture 9)
  9c  G(k) == 0, k >= min S  =>  N_k <= 1/2 on [0, 1/2]   (the mirror of 9a)
  10a k a power of two  =>  N_k >= 1/2 on [0, 1]
  10b k a power of two, k >= min S  =>  taking the fewest chips (k -> k - min S)
      is optimal at every p in [1/2, 1]       (Nim: sending k - 1, Conjecture 10)
  ge  (no conjecture: the data for "which k?")  G(k) != 0  =>  N_k >= 1/2 on [0, 1];
      the k where it holds are the exact analogue of the set Conjecture 10 describes
  and, since 9a and 9b fail, their exact thresholds: t9a = min over N-positions
  k <= kmax of inf{p : N_k(p) < 1/2} in [0, 1/2], t9b = min over them of the
  largest t such that one classical winning move is optimal on all of [0, t],
  each with the k attaining it, and
  certificates (9a_below, 9b_below) of both statements on [0, r] for every such
  k, r a dyadic within 1/512 below the threshold

Each statement instance is checked with symbolic_noise.analysis.certificates.check;
those that hold keep their full certificates (re-verified here with verify,
and by `symbolic-noise verify FILE`), those that fail keep the exact
counterexample, re-evaluated by the pointwise solver when its p is rational.

Writes:
  results/subtraction/N_<S>.json          exact N_k for every k: a shared table of exact points (CRootOf
                                          text and decimals), and per k the indices of its points, the
                                          formula and optimal moves of every piece, the optimal moves and
                                          decimal value at every point
  results/subtraction/atlas.json          every optimal-move change: exact point, moves left / at / right
  results/subtraction/conjectures.json    verdict per statement, S and k, with counterexamples
  results/subtraction/atlas_<S>.png       the (p, k) atlas
  results/certificates/subtraction_<S>_<statement>.json   the certificates of each statement that holds
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from symbolic_noise import solve
from flint import fmpq

from symbolic_noise.exact.algebraic import RealAlgebraic, rational_between, real_roots, sorted_exact
from symbolic_noise.analysis.certificates import certificate_document, check, document_text, verify
from symbolic_noise.games.classical import sequence_report
from symbolic_noise.analysis.conjectures import is_power_of_two, optimal_breakpoints
from symbolic_noise.solvers.onepoint.pointwise import evaluate
from symbolic_noise.exact.formula import exact_number as as_fmpq
from symbolic_noise.games.registry import game_from_spec
from symbolic_noise.io.reports import dumps

DIGITS = 20
SETS = ["1,2", "1,2,3", "1,3,4", "2,3", "1,4"]
HERE = os.path.dirname(os.path.abspath(__file__))


def log(msg: str) -> None:
    print(msg, flush=True)


def write(path: str, data) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(dumps(data))


def tag(S: str) -> str:
    return S.replace(",", "-")


def point(x: RealAlgebraic) -> dict:
    return {"decimal": x.decimal(DIGITS), "exact": x.exact_str()}


def compact(f, table: dict) -> dict:
    """N_k with its points named by their exact text (shared by every k: the
    breakpoints are inherited from the followers), formulas as text, optimal
    moves on every piece and at every point, and the decimal value at every point."""
    names = []
    for x in f.points:
        key = x.exact_str()
        table.setdefault(key, x)
        names.append(key)
    return {
        "points": names,
        "N_at_points": [f.point_value(j).decimal(DIGITS) for j in range(len(f.points))],
        "optimal_at_points": [sorted(lab) for lab in f.point_labels],
        "pieces": [{"N": str(g), "optimal": sorted(lab)} for g, lab in zip(f.formulas, f.labels)],
    }


def renumber(per_k: list, table: dict) -> list:
    """Replace every point's exact text by its index in the sorted point list."""
    order = {x.exact_str(): i for i, x in enumerate(sorted_exact(list(table.values())))}
    for rec in per_k:
        rec["points"] = [order[key] for key in rec["points"]]
    return per_k


def first_drop(f, c) -> RealAlgebraic | None:
    """The infimum of {p : N(p) < c} (exact), or None if N >= c on the whole
    interval: on every piece, the stretches between the real roots of N - c are
    tested in order by the exact sign at a rational point inside each."""
    for j, g in enumerate(f.formulas):
        lo, hi = f.points[j], f.points[j + 1]
        d = g - c
        if d.is_zero:
            continue
        ends = [lo] + [r for r in real_roots(d.num, lo.lo, hi.hi) if lo < r < hi] + [hi]
        for x, y in zip(ends, ends[1:]):
            if d(rational_between(x, y)) < 0:
                return x
    return None


def first_exit(f, allowed: set) -> RealAlgebraic | None:
    """The first point from the left where the optimal set holds none of ``allowed``."""
    for j, x in enumerate(f.points):
        if not (set(f.point_labels[j]) & allowed):
            return x
        if j < len(f.formulas) and not (set(f.labels[j]) & allowed):
            return x
    return None


def thresholds(S: str, sols: dict, G, smin: int, stores: dict) -> dict:
    """Exact, within [0, 1/2]: t9a = min over N-positions k of inf{p : N_k(p) < 1/2};
    t9b = min over N-positions of the largest t such that one classical winning
    move is optimal on all of [0, t] (None: the statement holds on all of
    [0, 1/2] for every k);
    and certificates that N_k >= 1/2 and a winning move is optimal on [0, r] for
    every such k, r a short dyadic below the threshold."""
    out = {}
    for name in ("9a", "9b"):
        best, where = None, None
        for k, (sol, v) in sols.items():
            if k < smin or G[k] == 0:
                continue
            f = sol.value(v).restrict(0, fmpq(1, 2))  # the statements are about [0, 1/2]
            wins = {f"{k}->{k - int(s)}" for s in S.split(",") if int(s) <= k and G[k - int(s)] == 0}
            if name == "9a":
                t = first_drop(f, fmpq(1, 2))
            else:  # one winning move optimal from 0 on: the best single move's exit (None: never leaves)
                exits = [first_exit(f, {m}) for m in wins]
                t = None if any(x is None for x in exits) else max(exits)
            if t is not None and (best is None or t < best):
                best, where = t, k
        if best is not None and best == fmpq(1, 2):
            best, where = None, None  # only the end point: it holds on [0, 1/2]
        rec = {"threshold": None if best is None else point(best), "attained_at_k": where}
        if best is not None and best > 0:
            r = dyadic_below(best)
            rec["certified_on"] = f"[0, {r}]"
            for k, (sol, v) in sols.items():
                if k < smin or G[k] == 0:
                    continue
                wins = [f"{k}->{k - int(s)}" for s in S.split(",") if int(s) <= k and G[k - int(s)] == 0]
                texts = [f"N >= 1/2 on [0, {r}]"] if name == "9a" else [f"optimal {m} on [0, {r}]" for m in wins]
                e = run_statement(name, S, sol, v, k, texts, stores[name + "_below"], any_of=(name == "9b"))
                if not e["holds"]:
                    raise AssertionError(f"{S} {name} k = {k}: not certified below the threshold")
        out[name] = rec
    return out


def dyadic_below(x: RealAlgebraic) -> fmpq:
    """A dyadic rational r < x with x - r < 1/1024 (x > 0)."""
    x.refine_to(fmpq(1, 4096))
    r = fmpq((x.lo * 1024).floor() - 1, 1024)
    return max(r, fmpq(0))


def solutions(S: str, kmax: int):
    """``{k: (solution, position)}`` for k = 0..kmax: one solve of the largest
    heap, and a solve of its own for a heap it does not reach."""
    game = game_from_spec(f"subtraction:{S}", str(kmax))
    main = solve(game, "binary")
    out = {}
    for k in range(kmax + 1):
        v = game.parse_position(str(k))
        try:
            main.value(v)
            out[k] = (main, v)
        except KeyError:
            out[k] = (solve(game, "binary", start=v, known=main.values()), v)
    return game, out


def confirm(sol, v, cert) -> dict:
    """The counterexample, re-evaluated by the pointwise solver at a rational p."""
    ce = dict(cert.counterexample)
    try:
        p = as_fmpq(ce["p"])
    except Exception:  # an algebraic point: the exact value above is the evidence
        ce["pointwise"] = None
        return ce
    point_sol = evaluate(sol.game, "binary", p, start=v)[v]
    ce["pointwise"] = {"N": str(point_sol.value), "optimal": sorted(str(m) for m in point_sol.optimal)}
    return ce


def run_statement(name, S, sol, v, k, texts, store, any_of=False) -> dict:
    """Check the statements ``texts`` about heap k (all must hold; with
    ``any_of``, one of them must).  Full certificates of those that hold go to ``store``."""
    t0 = time.perf_counter()
    certs = [check(sol, t, v, DIGITS) for t in texts]
    good = [c for c in certs if c.holds]
    holds = bool(good) if any_of else len(good) == len(certs)
    entry = {"k": k, "holds": holds, "statements": [c.statement.text() for c in certs]}
    if holds:
        for c in (good[:1] if any_of else good):
            store.append(c)  # (one certificate document per statement: written and verified below)
        entry["certified"] = [c.statement.text() for c in (good[:1] if any_of else good)]
    else:
        entry["counterexamples"] = [
            {"statement": c.statement.text(), **confirm(sol, v, c)} for c in certs if not c.holds
        ]
    entry["seconds"] = round(time.perf_counter() - t0, 3)
    return entry


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kmax", type=int, default=32)
    ap.add_argument("--sets", nargs="*", default=SETS)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "results"))
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    atlas_all, verdicts, timings, limits = {}, {}, {}, {}
    for S in args.sets:
        log(f"S = {{{S}}}, k <= {args.kmax}")
        t0 = time.perf_counter()
        game, sols = solutions(S, args.kmax)
        solve_seconds = time.perf_counter() - t0
        G = sequence_report(f"subtraction:{S}", args.kmax).values
        smin = min(int(s) for s in S.split(","))
        per_k, atlas, table = [], [], {}
        for k, (sol, v) in sols.items():
            per_k.append({"k": k, "grundy": G[k], **compact(sol.value(v), table)})
            for b in optimal_breakpoints(sol.value(v)):
                atlas.append({"k": k, "p": point(b.point), "left": sorted(b.left), "at": sorted(b.at),
                              "right": sorted(b.right)})
        write(os.path.join(out, "subtraction", f"N_{tag(S)}.json"),
              {"game": f"subtraction game S = {{{S}}}", "channel": "binary", "kmax": args.kmax,
               "solve_seconds": round(solve_seconds, 2),
               "points": [dict(point(x), index=i) for i, x in enumerate(sorted_exact(list(table.values())))],
               "heaps": renumber(per_k, table)})
        atlas_all[S] = atlas
        # ---------------------------------------------------------------- statements
        stores = {name: [] for name in ("9a", "9b", "9c", "10a", "10b", "ge", "9a_below", "9b_below")}
        results = {name: [] for name in stores}
        t1 = time.perf_counter()
        for k, (sol, v) in sols.items():
            if k < smin:
                continue  # terminal
            half = "[0, 1/2]"
            if G[k] != 0:
                results["9a"].append(run_statement("9a", S, sol, v, k, [f"N >= 1/2 on {half}"], stores["9a"]))
                wins = [f"{k}->{k - int(s)}" for s in S.split(",") if int(s) <= k and G[k - int(s)] == 0]
                results["9b"].append(run_statement("9b", S, sol, v, k, [f"optimal {m} on {half}" for m in wins],
                                                   stores["9b"], any_of=True))
                results["ge"].append(run_statement("ge", S, sol, v, k, ["N >= 1/2 on [0, 1]"], stores["ge"]))
            else:
                results["9c"].append(run_statement("9c", S, sol, v, k, [f"N <= 1/2 on {half}"], stores["9c"]))
            if is_power_of_two(k):
                results["10a"].append(run_statement("10a", S, sol, v, k, ["N >= 1/2 on [0, 1]"], stores["10a"]))
                results["10b"].append(run_statement("10b", S, sol, v, k, [f"optimal {k}->{k - smin} on [1/2, 1]"],
                                                    stores["10b"]))
        limits[S] = thresholds(S, sols, G, smin, stores)
        log(f"  thresholds: {limits[S]}")
        for name, certs in stores.items():
            if certs:
                data = json.loads(json.dumps(certificate_document(certs)))
                verify(data)  # the values proved by the game's own equations, each claim re-derived
                path = os.path.join(out, "certificates", f"subtraction_{tag(S)}_{name}.json")
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(document_text(data))
        verdicts[S] = {
            name: {
                "holds_for_every_k": all(r["holds"] for r in rs),
                "k_checked": [r["k"] for r in rs],
                "k_failing": [r["k"] for r in rs if not r["holds"]],
                "entries": rs,
            }
            for name, rs in results.items()
        }
        timings[S] = {"solve_seconds": round(solve_seconds, 2), "check_seconds": round(time.perf_counter() - t1, 2)}
        log(f"  solved in {solve_seconds:.2f} s, statements in {timings[S]['check_seconds']} s: "
            + ", ".join(f"{n}: {'holds' if d['holds_for_every_k'] else 'fails at k = ' + str(d['k_failing'][:6])}"
                        for n, d in verdicts[S].items()))
        try:
            from symbolic_noise.io.atlas import atlas as draw, family_values

            fig = draw(family_values(f"subtraction:{S}", range(1, args.kmax + 1), channel="binary"),
                       title=f"subtraction S = {{{S}}}, binary channel")
            fig.savefig(os.path.join(out, "subtraction", f"atlas_{tag(S)}.png"), dpi=110)
        except Exception as exc:  # the figure is a convenience; the JSON is the result
            log(f"  no atlas figure: {exc}")
    write(os.path.join(out, "subtraction", "atlas.json"),
          {"channel": "binary", "kmax": args.kmax, "breakpoints": atlas_all})
    write(os.path.join(out, "subtraction", "conjectures.json"),
          {"kmax": args.kmax, "statements": {
              "9a": "G(k) != 0 => N_k >= 1/2 on [0, 1/2]",
              "9b": "G(k) != 0 => some classical winning move is optimal on all of [0, 1/2]",
              "9c": "G(k) == 0, k >= min S => N_k <= 1/2 on [0, 1/2]",
              "10a": "k a power of two => N_k >= 1/2 on [0, 1]",
              "10b": "k a power of two, k >= min S => sending k -> k - min S is optimal on all of [1/2, 1]",
              "ge": "G(k) != 0 => N_k >= 1/2 on [0, 1] (its k_failing and k_checked give the exact set of k)",
              "thresholds": "t9a, t9b: exact (see the script's docstring); certified_on: 9a and 9b hold there for every k"},
           "thresholds": limits, "timings": timings, "verdicts": verdicts})
    log("wrote results/subtraction and results/certificates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
