"""mmacheck.prove on live Triton layouts (triton from PyPI, CPU only):
Gluon's NVMMA v2 accumulator and dot-operand layouts, linear layouts.
Skips when triton is absent."""

import json

import pytest

pytest.importorskip("triton.experimental.gluon.language")

import mmacheck  # noqa: E402
import triton.experimental.gluon.language as gl  # noqa: E402
from triton._C.libtriton import linear_layout as ll  # noqa: E402


def mma(warps):
    return gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=warps, instr_shape=[16, 8])


def dot(k_width, warps, m, n, k, dtype, acc_dtype, group):
    return [
        mmacheck.triton.operand(mma(warps), dtype=acc_dtype, shape=[m, n], name=group + " D", group=group),
        mmacheck.triton.operand(gl.DotOperandLayout(operand_index=0, parent=mma(warps), k_width=k_width),
                                dtype=dtype, shape=[m, k], name=group + " A", group=group),
        mmacheck.triton.operand(gl.DotOperandLayout(operand_index=1, parent=mma(warps), k_width=k_width),
                                dtype=dtype, shape=[k, n], name=group + " B", group=group),
    ]


def test_an_mma_v2_accumulator_is_proved():
    report = mmacheck.prove(mma([1, 1]), dtype="f32", shape=[16, 8])
    assert report.verdict == "proved", str(report)
    assert report.operand == "acc"


def test_a_dot_is_checked_as_a_group_and_matches_the_file_reader(repo):
    """The live Gluon layouts give the reports `mmacheck triton` gives the oracle's file."""
    cases = [(2, [2, 2], 64, 64, 32, "f16", "f32"), (8, [2, 2], 64, 32, 64, "bf16", "f32"),
             (4, [2, 1], 64, 16, 64, "s8", "s32")]
    entries = []
    for k_width, warps, m, n, k, dtype, acc in cases:
        entries += dot(k_width, warps, m, n, k, dtype, acc, f"{acc} {dtype} k{k_width} {warps[0]}x{warps[1]} warps {m}x{n}x{k}")
    live = {r.name: r.json() for r in mmacheck.prove_triton(entries)}
    assert len(live) == 9 and all(r["result"] == "proved" for r in live.values())
    document = (repo / "tests" / "data" / "triton" / "dots.json").read_text()
    from_file = {r["name"]: r for r in json.loads(mmacheck._mmacheck.triton_check(document, "dots.json"))}
    for name, r in live.items():
        assert r == from_file[name]


def test_a_planted_wrong_linear_layout_is_refuted_with_the_counterexample():
    good = mmacheck.triton.operand(mma([1, 1]), dtype="f32", shape=[16, 8])["layout"]
    lanes = [list(b) for b in good["lane_bases"]]
    lanes[0], lanes[2] = lanes[2], lanes[0]  # lane bit 0 and bit 2 swapped
    bases = [("register", good["reg_bases"]), ("lane", lanes), ("warp", good["warp_bases"]), ("block", good["block_bases"])]
    wrong = ll.LinearLayout.from_bases(bases, ["dim0", "dim1"], good["shape"], False)
    report = mmacheck.prove(wrong, dtype="f32", operand="acc", warps_per_cta=[1, 1])
    assert report.verdict == "refuted", str(report)
    cx = report.counterexample
    assert cx is not None and cx["coordinate"] != cx["ptx"]


def test_a_layout_the_reader_refuses_is_an_error_not_a_verdict():
    with pytest.raises(mmacheck.Error):
        mmacheck.prove(gl.DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[], warp_bases=[], block_bases=[],
                                                  shape=[16, 12]), dtype="f32", operand="acc")
    with pytest.raises(mmacheck.Error, match="operand="):
        mmacheck.prove(ll.LinearLayout.from_bases([("register", [[0, 1]])], ["dim0", "dim1"], [1, 2], False), dtype="f32")
