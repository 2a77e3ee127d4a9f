"""The documentation site builds with warnings as errors, its CLI reference is
generated from argparse (every subcommand appears), its API reference comes
from the docstrings, and the notebooks are in the gallery.

The build here renders the notebooks without executing them
(``-D nb_execution_mode=off``): tests/test_notebooks.py executes each one
already.  The published build (README) executes them.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")
pytest.importorskip("sphinxarg")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["SYMBOLIC_NOISE_FIGURES_DIR"] = str(out / "quick-figures")  # not the committed docs/figures
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
         "-D", "nb_execution_mode=off", "-d", str(out / ".doctrees"), str(ROOT / "docs"), str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=500,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stderr.strip() == "", run.stderr[-3000:]
    return out


def test_pages_exist(site):
    for page in ("index", "getting-started", "theory", "cli", "api", "gallery", "results",
                 "gallery/01_reproducing_the_paper", "gallery/02_conjectures", "gallery/03_chomp",
                 *(f"api/{page}" for page in USER_PAGES), *(f"api/internals/{page}" for page in INTERNAL_PAGES)):
        assert (site / f"{page}.html").exists(), page


def test_cli_reference_is_generated_from_argparse(site):
    from symbolic_noise.io.cli import build_parser

    text = (site / "cli.html").read_text()
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"symbolic-noise {name}" in text or f">{name}<" in text, name
    assert "--no-shade" in text and "--version" in text  # options of the newest commands
    assert "|2N-1| &lt; eps" in text  # help text with bars, escaped rather than a broken substitution


USER_PAGES = ("solve", "games", "channels", "statements", "points", "phase", "classical", "exact", "output", "errors")
INTERNAL_PAGES = ("piecewise", "points-and-boxes", "schedules", "storage", "exact", "analysis", "io")


def test_api_reference_comes_from_docstrings(site):
    """The user's API on its own pages, in the reader's order, the internals on
    theirs, listed after it; each page from the docstrings."""
    where = {"symbolic_noise.solvers.piecewise.solve": "api/solve",
             "symbolic_noise.solvers.solution.Solution": "api/solve",
             "symbolic_noise.analysis.certificates.check": "api/statements",
             "symbolic_noise.solvers.onepoint.fastpoint.value_at": "api/points",
             "symbolic_noise.analysis.phase.phase": "api/phase",
             "symbolic_noise.games.classical.mex": "api/classical",
             "symbolic_noise.exact.formula.parse_formula": "api/exact",
             "symbolic_noise.exact.algebraic.RealAlgebraic": "api/exact",
             "symbolic_noise.io.plots.plot_value": "api/output",
             "symbolic_noise.io.atlas.atlas": "api/output",
             "symbolic_noise.solvers.piecewise.induction.solve_positions": "api/internals/piecewise",
             "symbolic_noise.solvers.storage.codec.dumps": "api/internals/storage"}
    for name, page in where.items():
        assert f'id="{name}"' in (site / f"{page}.html").read_text(), name
    assert "plays the misère convention: the player who makes the last" in (site / "api/solve.html").read_text()  # a docstring's prose
    index = (site / "api.html").read_text()
    links = [index.index(f'href="api/{page}.html"') for page in USER_PAGES]
    assert links == sorted(links)
    internals = [index.index(f'href="api/internals/{page}.html"') for page in INTERNAL_PAGES]
    assert max(links) < min(internals)
    # the engines' modules are documented only on the internals pages
    assert 'id="symbolic_noise.solvers.piecewise.induction' not in "".join(
        (site / f"api/{page}.html").read_text() for page in USER_PAGES)
    assert len(index) < 200_000 and max((site / f"api/{p}.html").stat().st_size for p in USER_PAGES) < 600_000


def test_results_and_figures_are_generated(site):
    text = (site / "results.html").read_text()
    assert "0.99465908939315425627" in text and "2x3" in text
    for name in ("nim10.png", "atlas_nim.png", "atlas_chomp.png"):
        assert (ROOT / "docs" / "figures" / name).stat().st_size > 10_000
        assert (site / "quick-figures" / name).stat().st_size > 5_000  # the build drew them
    assert "atlas_nim.png" in (site / "index.html").read_text()


def test_mathematics_renders_without_a_network(site):
    """Pages with mathematics load MathJax from the site itself, never from a CDN."""
    script = site / "_static" / "mathjax" / "tex-chtml.js"
    assert script.exists() and script.stat().st_size > 100_000
    pages = {p: p.read_text() for p in site.rglob("*.html")}
    with_math = [p for p, text in pages.items() if 'class="math' in text]  # Sphinx's math nodes
    assert len(with_math) >= 3  # the theory, the results, the guide at least
    for page in with_math:
        assert "_static/mathjax/tex-chtml.js" in pages[page], page
    for page, text in pages.items():
        assert "cdn.jsdelivr.net" not in text and "cdnjs.cloudflare.com" not in text, page


def _text(page: Path) -> str:
    """A built page's text, as a reader sees it (tags dropped, entities read)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))


def test_bars_are_shown_as_written(site):
    """The escape that keeps ``|x|`` from being a substitution stays out of code,
    literal blocks and doctests, where its backslash would be printed."""
    pages = [site / "cli.html", *site.glob("api/*.html"), *site.glob("api/internals/*.html")]
    assert len(pages) > 15
    shown = {str(page.relative_to(site)): _text(page) for page in pages}
    assert [name for name, text in shown.items() if "\\|" in text] == []
    assert [name for name, text in shown.items() if "Bases: object" in text] == []  # a line that says nothing
    assert "Bases: Game" in shown["api/games.html"]
    assert '|2N-1| < 1/100 on [3/10, 1]' in shown["api/statements.html"]  # a doctest
    assert '("+" | "-")' in shown["api/exact.html"]  # the formula grammar, a literal block


def _browser():
    import shutil

    return next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium")
def test_mathematics_is_typeset_by_a_browser_offline(site):
    """A real headless browser, with every host unreachable, typesets the theory
    page's mathematics: MathJax elements, and no raw TeX delimiters left."""
    run = subprocess.run(
        [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--virtual-time-budget=8000",
         "--dump-dom", (site / "theory.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    dom = run.stdout
    assert "Theory" in dom, run.stderr[-2000:]
    assert dom.count("<mjx-container") >= 30
    assert "\\(" not in dom and "\\[" not in dom
