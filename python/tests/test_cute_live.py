"""mmacheck.prove on live CuTe DSL atoms (nvidia-cutlass-dsl from PyPI, CPU
only: atoms are built while a @cute.jit function is traced).  Skips when
the DSL is absent."""

import json

import pytest

pytest.importorskip("cutlass.cute")

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
from cutlass.cute.nvgpu import warp  # noqa: E402

import mmacheck  # noqa: E402

F16, BF16, F32 = cutlass.Float16, cutlass.BFloat16, cutlass.Float32
OPS = [
    lambda: warp.MmaF16BF16Op(F16, F16, (16, 8, 8)),
    lambda: warp.MmaF16BF16Op(F16, F32, (16, 8, 16)),
    lambda: warp.MmaF16BF16Op(BF16, F32, (16, 8, 16)),
    lambda: warp.MmaTF32Op((16, 8, 8)),
    lambda: warp.MmaFP8Op(cutlass.Float8E4M3FN, F32, (16, 8, 32)),
]


def traced(body):
    """Run body() while a @cute.jit function is traced; its result."""
    out = {}

    @cute.jit
    def build():
        out["value"] = body()

    build()
    return out["value"]


def test_every_warp_atom_of_the_dsl_is_proved_as_the_file_reader_proves_it(repo):
    live = traced(lambda: [mmacheck.prove(cute.make_mma_atom(op())).json() for op in OPS])
    assert [r["result"] for r in live] == ["proved"] * len(OPS)
    document = (repo / "tests" / "data" / "cute" / "dsl_atoms.txt").read_text()
    from_file = {r["atom"]: r for r in json.loads(mmacheck._mmacheck.cute_check(document, "dsl_atoms.txt"))}
    for r in live:
        assert r == from_file[r["atom"]]


def test_a_tiled_mma_is_read_as_the_dsl_prints_it(repo):
    text = traced(lambda: mmacheck.cute.entries(cute.make_tiled_mma(OPS[1](), (2, 2, 1))))
    tiled = text[text.index("tiled "):]
    assert tiled in (repo / "tests" / "data" / "cute" / "dsl_tiled.txt").read_text()
    assert traced(lambda: mmacheck.prove(cute.make_tiled_mma(OPS[1](), (2, 2, 1))).verdict) == "proved"


def test_a_permutation_that_is_none_is_refuted_with_the_counterexample():
    """(8,4):(1,16) has size 32 but reaches N up to 55; the DSL builds it anyway."""

    def body():
        perm = (32, cute.make_layout((8, 4), stride=(1, 16)), 16)
        return mmacheck.prove(cute.make_tiled_mma(OPS[1](), (2, 2, 1), permutation_mnk=perm))

    report = traced(body)
    assert report.verdict == "refuted"
    refuted = {o["operand"]: o for o in report.operands if o["result"] == "refuted"}
    assert set(refuted) == {"B", "C"}
    assert refuted["B"]["counterexample"]["thread"] == 0 and "rep (0,1,0)" in refuted["B"]["message"]


def test_an_op_that_is_no_atom_is_a_type_error():
    with pytest.raises(TypeError, match="MmaAtom or TiledMma"):
        mmacheck.cute.entries(warp.MmaTF32Op((16, 8, 8)))
