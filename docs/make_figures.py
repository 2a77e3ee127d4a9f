"""The figures shown in the README and on the documentation site, regenerated
by every docs build (``docs/conf.py``) or by ``python docs/make_figures.py``.

>>> import tempfile
>>> sorted(make_all(tempfile.mkdtemp(), quick=True))
['atlas_chomp.png', 'atlas_nim.png', 'nim10.png']
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_all(out_dir: str, quick: bool = False) -> list[str]:
    """Draw every figure into ``out_dir``; returns the file names."""
    from symbolic_noise import Nim, solve
    from symbolic_noise.io.atlas import atlas, family_values
    from symbolic_noise.io.plots import plot_value, save

    os.makedirs(out_dir, exist_ok=True)
    kmax = 8 if quick else 24
    figures = {
        "nim10.png": plot_value(solve(Nim(10), "binary"), moves=True),
        "atlas_nim.png": atlas(family_values("nim", range(1, kmax + 1)),
                               title=f"1-pile Nim, binary channel, normal play: optimal moves for k = 1..{kmax}"),
        "atlas_chomp.png": atlas(family_values("chomp", range(1, 4 if quick else 7), param="2"),
                                 title="Chomp, 2 x k bars, king channel, normal play"),
    }
    for name, fig in figures.items():
        save(fig, os.path.join(out_dir, name), dpi=110)
    return list(figures)


if __name__ == "__main__":
    print(make_all(os.path.join(os.path.dirname(os.path.abspath(__file__)), "figures")))


def results_markdown(root: str) -> str:
    """Markdown tables from ``results/summary.json`` (written by
    ``scripts/paper_results.py``), for the results page."""
    import json

    with open(os.path.join(root, "results", "summary.json"), encoding="utf-8") as fh:
        s = json.load(fh)
    c9, c10 = s["conjecture9"], s["conjecture10"]
    lines = [
        f"* Conjecture 9, k = {c9['checked']}: "
        + ("holds for every k." if not c9["fails_for"] else f"fails for k = {c9['fails_for']}."),
        f"* Conjecture 10, k = {', '.join(map(str, c10['checked']))}: "
        + ("holds for every k." if not c10["fails_for"] else f"fails for k = {c10['fails_for']}."),
        f"* Solving every heap k <= {s['kmax']} took {s['solve_seconds']} s.",
        "",
        "## Fairness threshold p0 (|2N_k - 1| < 1/100 on (p0, 1])",
        "",
        "| k | p0 | optimal moves somewhere on (1/2, 1] |",
        "|---|---|---|",
    ]
    for k, p0 in s["fairness"].items():
        moves = ", ".join(map(str, s["optimal_moves_above_half"].get(k, [])))
        lines.append(f"| {k} | {p0 if p0 is not None else 'none'} | {moves} |")
    lines += ["", "## Chomp", "", "| board | channel | positions | pieces | optimal-move breakpoints | seconds |",
              "|---|---|---|---|---|---|"]
    for row in s["chomp"]:
        lines.append(f"| {row['board']} | {row['channel']} | {row['positions']} | {row['pieces']} | "
                     f"{row['optimal_breakpoints']} | {row['seconds']} |")
    return "\n".join(lines) + "\n"
