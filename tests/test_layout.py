"""The package layout: layers import downward only, and old module paths still work."""

import ast
import importlib
from pathlib import Path

import pytest

import symbolic_noise

PKG = Path(symbolic_noise.__file__).parent
ORDER = ["exact", "games", "solvers", "analysis", "io"]


def _module_level_imports(path: Path):
    """Layers imported at module level (not inside functions) by the file at path."""
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            parts = (node.module or "").split(".")
            if node.level == 1 and path.parent != PKG:
                yield path.parent.name
            elif parts[0] in ORDER:
                yield parts[0]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("symbolic_noise."):
            layer = node.module.split(".")[1]
            if layer in ORDER:
                yield layer


@pytest.mark.parametrize("layer", ORDER)
def test_imports_point_downward(layer):
    """A module imports, at module level, only from its own layer or the layers below."""
    bad = []
    for path in sorted((PKG / layer).glob("*.py")):
        for used in _module_level_imports(path):
            if ORDER.index(used) > ORDER.index(layer):
                bad.append(f"{path.relative_to(PKG)} imports {used}")
    assert not bad, bad


def test_every_module_is_in_a_layer():
    """Only the package's entry points and its errors live at the top."""
    top = sorted(p.name for p in PKG.glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "_version.py", "errors.py"]


@pytest.mark.parametrize("old, new", sorted(symbolic_noise._MOVED.items()))
def test_old_flat_module_paths_are_the_same_modules(old, new):
    """``import symbolic_noise.solver`` (the 0.1 layout) gives the module itself."""
    alias = importlib.import_module(f"symbolic_noise.{old}")
    assert alias is importlib.import_module(f"symbolic_noise.{new}")
    assert getattr(symbolic_noise, old) is alias


def test_old_import_forms_still_work():
    from symbolic_noise.games import Chomp, Nim
    from symbolic_noise.solver import solve as solve_old

    assert solve_old is symbolic_noise.solve
    N2 = symbolic_noise.solve(Nim(2), "binary").value()
    assert [pc.formula.text() for pc in N2.pieces()] == ["1 - p", "p"]
    assert Chomp(2, 2).start() == symbolic_noise.Chomp(2, 2).start()
