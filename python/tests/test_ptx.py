"""mmacheck.ptx without Triton or TileLang: committed PTX and its launch file as text (prove_ptx),
the report the command line's, and the launch values the front ends share (docs/ptx.md)."""

import json
import subprocess

import mmacheck
import pytest
from mmacheck import ptx
from mmacheck.ptx_launch import dtype_name, gemm_roles, tensor_entry, tensor_spec

NVCC = ("tests", "data", "ptx", "nvcc")


def read(repo, name):
    folder = repo.joinpath(*NVCC)
    return (folder / f"{name}.ptx").read_text(), (folder / f"{name}.launch.json").read_text()


def test_committed_ptx_is_proved(repo):
    r = ptx.prove_ptx(*read(repo, "shared"), file="shared.ptx")
    assert r.verdict == "proved" and r.proved
    assert r.ptx["kernel"] == "gemm_shared" and (r.ptx["m"], r.ptx["n"], r.ptx["k"]) == (64, 16, 64)
    assert list(r.json()) == ["file", "verdict", "ptx", "unchecked", "notes"]
    assert r.file == "shared.ptx" and r.unchecked == [] and "line" not in r.ptx


def test_a_planted_mistake_is_refuted_at_its_line(repo):
    text, launch = read(repo, "shared_b_from_a")
    r = ptx.prove_ptx(text, launch, file="shared_b_from_a.ptx")
    assert r.verdict == "refuted"
    assert "not of an element of A and one of B" in r.ptx["message"]
    assert text.splitlines()[r.ptx["line"] - 1].strip().startswith("mma.sync")
    assert f"shared_b_from_a.ptx:{r.ptx['line']}:{r.ptx['column']}: CTA" in str(r)


def test_errors_name_the_file_and_the_launch_file(repo):
    text, launch = read(repo, "shared")
    with pytest.raises(mmacheck.Error, match=r"^k\.launch\.json:\d+:\d+: error: "):
        ptx.prove_ptx(text, launch.replace('float16', 'float17', 1), file="k.ptx")
    with pytest.raises(mmacheck.Error, match=r"^mine\.json:\d+:\d+: error: .*unknown key"):
        ptx.prove_ptx(text, launch.replace('"grid"', '"gird"'), file="k.ptx", launch_file="mine.json")
    with pytest.raises(mmacheck.Error, match=r"^k\.ptx:\d+:\d+: error: "):
        ptx.prove_ptx(text.replace("mma.sync", "mma.snyc", 1), launch, file="k.ptx")


def test_the_report_is_the_command_lines_json(repo):
    binary = repo / "build" / "bin" / "mmacheck"
    if not binary.exists():
        pytest.skip("no build/bin/mmacheck (scripts/build.sh)")
    for name in ("shared", "global_skip_k"):
        path = repo.joinpath(*NVCC, f"{name}.ptx")
        cli = json.loads(subprocess.run([str(binary), "prove", str(path), "--json"], capture_output=True,
                                        text=True).stdout)
        assert ptx.prove_ptx(*read(repo, name), file=str(path)).json() == cli


def test_tensor_values_are_read_as_the_launch_file_writes_them():
    assert tensor_entry("a", mmacheck.TensorSpec("fp16", (64, 32))) == {
        "tensor": "a", "dtype": "float16", "shape": [64, 32]}
    assert tensor_entry("b", mmacheck.TensorSpec("bfloat16", (32, 16), (1, 32)))["strides"] == [1, 32]
    np = pytest.importorskip("numpy")
    spec = tensor_spec(np.zeros((8, 4), dtype=np.float32).T)
    assert (spec.dtype, spec.shape, spec.strides) == ("float32", (4, 8), (1, 4))
    assert dtype_name(np.float16) == "float16"
    with pytest.raises(mmacheck.Error, match="element type 'complex64'"):
        dtype_name("complex64")


def test_the_gemm_roles():
    assert gemm_roles("k", ["a", "b", "c"], None) == {"A": "a", "B": "b", "D": "c"}
    assert gemm_roles("k", ["x", "y", "z", "w"], {"A": "y", "B": "z", "D": "x", "C": "w"})["C"] == "w"
    with pytest.raises(mmacheck.Error, match=r"k has 4 tensor arguments \(x, y, z, w\); say which are A, B and D"):
        gemm_roles("k", ["x", "y", "z", "w"], None)
    with pytest.raises(mmacheck.Error, match="gives B as 'q', which is not a tensor argument of k"):
        gemm_roles("k", ["a", "b", "c"], {"A": "a", "B": "q", "D": "c"})


def test_importing_mmacheck_imports_neither_triton_nor_tilelang():
    import sys

    code = "import mmacheck, sys; print(sorted(m for m in sys.modules if m.split('.')[0] in ('triton', 'tilelang')))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"
