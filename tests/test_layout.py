"""The package layout: layers import downward only, the exact core reads no text
and has no import circle, modules stay small, and old module paths still work."""

import ast
import importlib
from pathlib import Path

import pytest

import symbolic_noise

PKG = Path(symbolic_noise.__file__).parent
ORDER = ["exact", "games", "solvers", "analysis", "io"]


def _module_name(path: Path) -> list[str]:
    """``symbolic_noise/solvers/piecewise/cells.py`` -> ``["solvers", "piecewise", "cells"]``."""
    parts = list(path.relative_to(PKG).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path, *, lazy: bool = False):
    """Modules (as lists of names below the package) that the file imports: at
    module level, or anywhere (inside functions too) with ``lazy``; one entry per
    imported name, so ``from . import a, b`` gives both modules."""
    tree = ast.parse(path.read_text())
    package = _module_name(path)[:-1] if path.name != "__init__.py" else _module_name(path)
    nodes = ast.walk(tree) if lazy else tree.body
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level >= 1:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else list(package)
                target = base + ((node.module or "").split(".") if node.module else [])
            elif (node.module or "").startswith("symbolic_noise."):
                target = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:
                candidate = target + [alias.name]
                yield candidate if (PKG.joinpath(*candidate).with_suffix(".py").exists()
                                    or PKG.joinpath(*candidate).is_dir()) else target


def _package_files():
    return sorted(p for p in PKG.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("layer", ORDER)
def test_imports_point_downward(layer):
    """A module imports, at module level, only from its own layer or the layers below."""
    bad = []
    for path in sorted((PKG / layer).rglob("*.py")):
        for used in _imports(path):
            if used and used[0] in ORDER and ORDER.index(used[0]) > ORDER.index(layer):
                bad.append(f"{path.relative_to(PKG)} imports {'.'.join(used)}")
    assert not bad, bad


def test_the_exact_core_has_no_import_circle_and_reads_no_text():
    """Within ``exact/``, imports (lazy ones too) form no circle, and the modules
    the formula grammar builds on (polys, ratfunc) never import it: the exact
    core reads no text."""
    graph = {}
    for path in sorted((PKG / "exact").glob("*.py")):
        name = _module_name(path)[-1] if path.name != "__init__.py" else None
        if name is None:
            continue
        graph[name] = {u[1] for u in _imports(path, lazy=True) if len(u) > 1 and u[0] == "exact"} - {name}
    below = set()
    stack = ["formula"]
    while stack:
        for dep in graph[stack.pop()]:
            if dep not in below:
                below.add(dep)
                stack.append(dep)
    assert "formula" not in below, "the formula grammar imports itself through its dependencies"
    assert {"polys", "ratfunc"} <= below
    state: dict = {}

    def visit(node, trail):
        if state.get(node) == "done":
            return
        assert state.get(node) != "open", "import circle: " + " -> ".join(trail + [node])
        state[node] = "open"
        for dep in sorted(graph[node]):
            visit(dep, trail + [node])
        state[node] = "done"

    for node in sorted(graph):
        visit(node, [])


def test_no_module_is_too_long():
    """No module of the package over 900 lines; the piecewise engine's under 800."""
    long = {}
    for path in _package_files():
        lines = len(path.read_text().splitlines())
        limit = 800 if "piecewise" in path.parts and "solvers" in path.parts else 900
        if lines > limit:
            long[str(path.relative_to(PKG))] = lines
    assert not long, long


def test_every_module_is_in_a_layer():
    """Only the package's entry points and its errors live at the top."""
    top = sorted(p.name for p in PKG.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "_version.py", "errors.py"]


@pytest.mark.parametrize("old, new", sorted(symbolic_noise._MOVED.items()))
def test_old_flat_module_paths_are_the_same_modules(old, new):
    """``import symbolic_noise.solver`` (the 0.1 layout) or
    ``symbolic_noise.solvers.solver`` (before the rooms of 0.2) gives the module itself."""
    alias = importlib.import_module(f"symbolic_noise.{old}")
    assert alias is importlib.import_module(f"symbolic_noise.{new}")
    if "." not in old:
        assert getattr(symbolic_noise, old) is alias


def test_old_import_forms_still_work():
    from symbolic_noise.games import Chomp, Nim
    from symbolic_noise.solver import solve as solve_old

    assert solve_old is symbolic_noise.solve
    N2 = symbolic_noise.solve(Nim(2), "binary").value()
    assert [pc.formula.text() for pc in N2.pieces()] == ["1 - p", "p"]
    assert Chomp(2, 2).start() == symbolic_noise.Chomp(2, 2).start()


ARCHIVES = (".whl", ".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".egg", ".jar", ".rar", ".so", ".pyd", ".dll", ".exe")


def test_the_repository_tracks_no_binary_archives():
    """No wheels, tarballs or compiled objects under version control (figures
    and data files are fine); checked on git's own list of tracked files."""
    import shutil
    import subprocess

    root = PKG.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    names = [n for n in tracked.decode().split("\0") if n]
    assert names, "git lists no files"
    archives = [n for n in names if n.lower().endswith(ARCHIVES)]
    assert not archives, archives
