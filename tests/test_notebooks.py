"""The notebooks run from scratch, without error, each within its time budget.

Every notebook asserts its own claims, so a notebook that runs is a notebook
whose statements still hold.  They are stored without outputs; this test
executes a fresh copy in a new ``python3`` kernel with ``notebooks/`` as the
working directory (the notebooks read ``../results`` and ``../tests/data``).
"""

import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
EXPECTED = [
    "01_reproducing_the_paper.ipynb", "02_conjectures.ipynb", "03_chomp.ipynb", "04_informed_play.ipynb",
    "05_phase_diagrams.ipynb", "06_research_at_scale.ipynb",
]
CELL_TIMEOUT = 120  # seconds, per cell
BUDGET = 120  # seconds, per notebook


def test_every_notebook_is_tested():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_is_stored_without_outputs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_runs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    seconds = time.perf_counter() - start
    assert seconds < BUDGET, f"{name} took {seconds:.0f} s (budget {BUDGET} s)"
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
