import pathlib
import runpy

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
pytest_plugins = ["pytester"]


@pytest.fixture
def repo():
    return REPO


def example(name):
    """The globals of examples/NAME.py, run: its @T.function `main` is a live tvm_tirx PrimFunc."""
    return runpy.run_path(str(REPO / "examples" / f"{name}.py"))
