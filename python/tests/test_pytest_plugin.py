"""`pytest --mmacheck`: the plugin proves the gemms a test module builds and
fails the module's item (or the test that compiled one) with the counterexample."""

import pytest

pytest.importorskip("tvm_tirx")

from conftest import REPO  # noqa: E402

HEAD = f"""
import runpy

def example(name):
    return runpy.run_path("{REPO}/examples/" + name + ".py")
"""

MODULE = HEAD + """
good = example("tirx_seed_corrected")["main"]
{extra}

def test_nothing_else():
    assert True
"""


@pytest.fixture
def project(pytester):
    return pytester


def test_a_module_level_kernel_that_proves_passes(project):
    project.makepyfile(test_k=MODULE.format(extra=""))
    result = project.runpytest("--mmacheck", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    result = project.runpytest("-p", "no:cacheprovider", "--collect-only", "-q")
    assert "mmacheck[good]" not in result.stdout.str()  # without --mmacheck nothing is added


def test_a_module_level_kernel_that_is_refuted_fails_with_the_counterexample(project):
    project.makepyfile(test_k=MODULE.format(extra='seed = example("tirx_seed")\nbad = seed["main"]\nA_IMG = seed["A_IMG"]'))
    result = project.runpytest("--mmacheck", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "test_k.py::mmacheck[bad]" in out
    assert "stage a: lane 0, slot 2" in out and "A_IMG" in out


def test_a_kernel_compiled_inside_a_test_is_proved_after_it(project):
    project.makepyfile(test_c=HEAD + """
import tvm_tirx.tirx

def test_compiles_the_erratum():
    try:
        tvm_tirx.tirx.compile(example("tirx_seed")["main"], target="cuda")
    except Exception:
        pass  # no CUDA toolchain needed: the plugin saw the module on the way in

def test_compiles_the_corrected_one():
    try:
        tvm_tirx.tirx.compile(example("tirx_seed_corrected")["main"], target="cuda")
    except Exception:
        pass
""")
    result = project.runpytest("--mmacheck", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "test_compiles_the_erratum" in out and "stage a" in out


def test_the_hooks_are_the_names_apache_tvm_tirx_gives_its_compile_function():
    import tvm_tirx
    import tvm_tirx.tirx
    from tvm_tirx.tirx import _compile

    from mmacheck.pytest_plugin import _compile_entry_points

    assert _compile_entry_points() == [(tvm_tirx.tirx, "compile"), (_compile, "compile")]
    assert not hasattr(tvm_tirx, "compile")  # docs/python.md says so


def test_a_kernel_compiled_through_the_ffi_global_is_proved_after_it(project):
    project.makepyfile(test_f=HEAD + """
import tvm_ffi

def test_compiles_the_erratum():
    try:
        tvm_ffi.get_global_func("tirx.compile")(example("tirx_seed")["main"], "cuda")
    except Exception:
        pass
""")
    result = project.runpytest("--mmacheck", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert "stage a" in result.stdout.str()
