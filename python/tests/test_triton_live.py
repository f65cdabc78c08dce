"""mmacheck.prove on live Triton layouts (triton from PyPI, CPU only):
Gluon's NVMMA v2 accumulator and dot-operand layouts, linear layouts.
Skips when triton is absent."""

import json
import re
import subprocess
import sys

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


def docs_example(repo, section):
    """The ```python block of docs/python.md's SECTION, as written."""
    text = (repo / "docs" / "python.md").read_text()
    return re.search(rf"^## {section}\n.*?```python\n(.*?)```", text, re.S | re.M).group(1)


def test_the_documented_example_proves_each_operand_of_the_dot(repo):
    names = {}
    exec(docs_example(repo, "Triton layouts"), names)
    assert [(r.name, r.verdict) for r in names["reports"]] == [("dot acc", "proved"), ("dot a", "proved"),
                                                               ("dot b", "proved")]
    assert mmacheck.prove(names["linear_layout"], dtype="f32", operand="acc", warps_per_cta=[1, 1]).verdict == "proved"


def test_unnamed_operands_of_one_role_are_told_apart_and_named_ones_keep_their_names():
    entries = [mmacheck.triton.operand(mma([1, 1]), dtype="f32", shape=[16, 8]) for _ in range(3)]
    entries.append(mmacheck.triton.operand(mma([1, 1]), dtype="f32", shape=[16, 8], name="acc #2"))
    assert [r.name for r in mmacheck.prove_triton(entries)] == ["acc", "acc #3", "acc #4", "acc #2"]


def test_two_operands_given_one_name_are_an_error_that_names_both():
    entries = [mmacheck.triton.operand(mma([1, 1]), dtype="f32", shape=[16, 8], name="x"),
               mmacheck.triton.operand(mma([1, 1]), dtype="f32", shape=[16, 8]),
               mmacheck.triton.operand(mma([1, 1]), dtype="f32", shape=[16, 8], name="x")]
    with pytest.raises(mmacheck.Error, match=r"operands\[0\] and operands\[2\] are both named 'x'"):
        mmacheck.prove_triton(entries)


LEAK_REPORT = re.compile(r"nanobind: leaked (\d+) (instances|types|functions)")


def leak_counts(script):
    """{kind: count} of the nanobind leak report a Python process prints at exit."""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "mmacheck" not in "".join(line for line in run.stderr.splitlines() if "leaked" in line), run.stderr
    return {kind: int(n) for n, kind in LEAK_REPORT.findall(run.stderr)}


GLUON_ACC = "gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])"


def test_a_gluon_call_leaks_nothing_of_mmacheck():
    """Triton's own to_linear_layout leaves nanobind objects alive at exit (libtriton's
    layoutToGluon keeps the Gluon layout classes in a C++ static): mmacheck adds none."""
    triton_alone = leak_counts(f"""
import triton.experimental.gluon.language as gl
from triton._C.libtriton import gluon_ir, ir
ctx = ir.context()
ir.load_dialects(ctx)
builder = gluon_ir.GluonOpBuilder(ctx)
builder.to_linear_layout({GLUON_ACC}._to_ir(builder), [64, 64])
""")
    with_mmacheck = leak_counts(f"""
import mmacheck
import triton.experimental.gluon.language as gl
assert mmacheck.prove({GLUON_ACC}, dtype="f32", shape=[64, 64]).proved
""")
    assert with_mmacheck == triton_alone
    assert leak_counts("import mmacheck, triton") == {}
