"""mmacheck.prove / mmacheck.sim on live tvm_tirx objects (apache-tvm-tirx 0.1.0a4).

Skips when tvm_tirx is not installed (scripts/python-test.sh installs it
where the network allows)."""

import pytest

pytest.importorskip("tvm_tirx")

import mmacheck  # noqa: E402
import refused_kernels  # noqa: E402
from conftest import REPO, example  # noqa: E402

SEED_MMA = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"


def test_seed_corrected_from_a_live_primfunc_is_proved():
    """examples/tirx_seed_corrected.py: the seed's program, TVM's register order."""
    report = mmacheck.prove(example("tirx_seed_corrected")["main"])
    assert report.verdict == "proved", str(report)
    assert report.proved
    assert report.instruction == SEED_MMA
    assert report.mma_count == 1
    names = [c["name"] for c in report.checks]
    for check in ("A frame", "B frame", "C frame", "D frame", "accumulation", "stage a", "stage b", "store d"):
        assert check in names
    assert all(c["result"] == "proved" for c in report.checks)
    assert report.counterexamples == []


def test_seed_erratum_from_a_live_primfunc_is_refuted_with_the_counterexample():
    """examples/tirx_seed.py: the planted mistake, the seed erratum's staging order kp, kHi, rM."""
    module = example("tirx_seed")
    report = mmacheck.prove(module["main"], layouts=module)
    assert report.verdict == "refuted"
    refuted = [c["name"] for c in report.checks if c["result"] == "refuted"]
    # The staging piece, and the program as executed (docs/soundness.md).
    assert refuted == ["stage a", "program"]
    cx, run = report.counterexamples
    assert run["check"] == "program" and "D[0][0]" in run["message"]
    assert (cx["check"], cx["lane"], cx["slot"]) == ("stage a", 0, 2)
    assert cx["expected"] == [8, 0] and cx["actual"] == [0, 8]
    assert "A_IMG" in cx["message"] and "A[0][8]" in cx["message"]
    assert "stage a" in str(report)


def test_an_irmodule_is_read_like_its_function():
    import tvm_tirx

    mod = tvm_tirx.IRModule.from_expr(example("tirx_seed")["main"])
    assert mmacheck.prove(mod).verdict == "refuted"
    reports = mmacheck.prove_all(mod)
    assert list(reports) == ["main"] and reports["main"].verdict == "refuted"


def _comparable(fields):
    """A report without the timings (ms), which differ run to run."""
    out = dict(fields)
    out["checks"] = [{k: v for k, v in c.items() if k != "ms"} for c in fields["checks"]]
    return out


EXAMPLES = ["tirx_seed_corrected", "tirx_seed", "tirx_c_tensor", "tirx_tiled_2x2x2", "tirx_k8", "tirx_bf16",
            "tirx_k8_unit_m", "tirx_refuse_lane", "tirx_refuse_f16acc", "tirx_refuse_no_m"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_live_walker_and_the_file_reader_give_the_same_report(repo, name):
    path = repo / "examples" / f"{name}.py"
    module = example(name)
    live = mmacheck.prove(module["main"], layouts=module)
    text = mmacheck.prove(path)
    assert _comparable(live.json()) == _comparable(text.json())


def test_sim_runs_the_live_kernel_on_the_warp_machine():
    good = mmacheck.sim(example("tirx_seed_corrected")["main"], cases=16, seed=3)
    assert good["verdict"] == "passed" and good["cases"] == 16 and good["failed_cases"] == 0
    assert good["instruction"] == SEED_MMA
    bad = mmacheck.sim(example("tirx_seed")["main"], cases=16, seed=3)
    assert bad["verdict"] == "failed" and bad["failed_cases"] == 16 and bad["wrong_elements"] > 0
    assert bad["failures"][0]["element"].startswith("d[")  # D's image


def test_what_the_walker_does_not_read_is_an_error_at_the_line():
    with pytest.raises(mmacheck.Error, match=r"refused_kernels\.py:\d+:\d+: error: mmacheck reads blocks of whole warps"):
        mmacheck.prove(refused_kernels.half_warp_block())


def test_a_live_kernel_of_two_warps_is_the_ctas_gemm(tmp_path):
    good = mmacheck.prove(example("tirx_two_warps")["main"])
    assert good.verdict == "proved"
    assert "D's 256 elements" in [c for c in good.checks if c["name"] == "program"][0]["note"]
    # The same kernel with the warp offset left out of A's staging.
    source = (REPO / "examples" / "tirx_two_warps.py").read_text()
    path = tmp_path / "two_warps_no_offset.py"
    path.write_text(source.replace("A[16 * warp + lane // 4", "A[lane // 4"))
    import runpy

    report = mmacheck.prove(runpy.run_path(str(path))["main"])
    assert report.verdict == "refuted"
    assert any("warp 1" in c["message"] for c in report.counterexamples)


def test_a_lowered_module_is_refused_not_misread():
    import tvm_tirx
    import tvm_tirx.backend.cuda  # noqa: F401

    mod = tvm_tirx.IRModule.from_expr(example("tirx_seed_corrected")["main"])
    with tvm_tirx.target.Target({"kind": "cuda", "arch": "sm_90"}):
        lowered = tvm_tirx.tirx.transform.TileDispatch()(mod)
    with pytest.raises(mmacheck.Error, match="lowered T.ptx.mma"):
        mmacheck.prove(lowered)


def test_other_objects_are_a_type_error():
    with pytest.raises(TypeError, match="mmacheck reads"):
        mmacheck.prove(42)


@pytest.mark.parametrize("name", ["bad_store_before_mma", "bad_stage_a_after_mma", "bad_b_from_a", "bad_c_from_d",
                                  "ok_k_reversed", "ok_overwritten_staging", "ok_renamed", "bad_accumulate_twice",
                                  "ok_first_apply_unstaged", "bad_restage_between_applies"])
def test_live_compositions_run_in_their_order(name):
    """tests/data/program/tirx (TVM-made compositions): live, the program runs as it is written, as the file does."""
    import runpy
    from conftest import REPO

    module = runpy.run_path(str(REPO / "tests" / "data" / "program" / "tirx" / f"{name}.py"))
    report = mmacheck.prove(module["main"], layouts=module)
    assert report.verdict == ("proved" if name.startswith("ok_") else "refuted"), str(report)
    run = [c for c in report.checks if c["name"] == "program"]
    assert run and run[0]["result"] == report.verdict


def test_registers_set_to_zero_then_accumulated():
    import runpy

    folder = REPO / "tests" / "data" / "tirx" / "zero_fill"
    good = mmacheck.prove(runpy.run_path(str(folder / "ok_zero_then_accumulate.py"))["main"])
    assert good.verdict == "proved"
    bad = mmacheck.prove(runpy.run_path(str(folder / "bad_zero_after_mma.py"))["main"])
    assert bad.verdict == "refuted"


SCALAR_C = sorted(p.stem for p in (REPO / "tests" / "data" / "tirx" / "scalar_c").glob("*.py")
                  if not p.name.endswith(".lowered.py"))


# The file reader reads a staging loop over part of a view (`for s in T.unroll(2): d_r[s] = ...`,
# docs/tirx-release.md); the walker reads loops over whole views only.
PARTIAL_LOOPS = {"bad_registers_c_half", "bad_registers_c_half_zero"}


@pytest.mark.parametrize("name", SCALAR_C)
def test_a_scalar_c_live_is_read_as_the_file_is(name):
    """tests/data/tirx/scalar_c: C a scalar (T.float32(1.5), a Python float) or D's registers set to a constant:
    live, D = A·B + C as the file reader reads it; a C TVM types otherwise (the int 0, float16) is
    dispatch_failed in TVM's words, as TVM refuses it (oracle.jsonl)."""
    import json
    import runpy

    path = REPO / "tests" / "data" / "tirx" / "scalar_c" / f"{name}.py"
    module = runpy.run_path(str(path))
    if name in PARTIAL_LOOPS:  # a loop over part of a view's registers: the walker's located error, not a verdict
        with pytest.raises(mmacheck.Error, match=r"error: the loop over 's' runs 2 times but 'd_r' has 4 registers"):
            mmacheck.prove(module["main"], layouts=module)
        return
    live = mmacheck.prove(module["main"], layouts=module)
    text = mmacheck.prove(path)
    assert _comparable(live.json()) == _comparable(text.json())
    records = [json.loads(line) for line in (path.parent / "oracle.jsonl").read_text().splitlines()[1:]]
    tvm = [r for r in records if r["name"] == name][0]
    expected = "dispatch_failed" if not tvm["accepted"] else "proved" if name.startswith("ok_") else "refuted"
    assert live.verdict == expected, str(live)
    if not tvm["accepted"]:
        # TVM's own line for the mma candidate: "mma: operand 'c' must have dtype float32 (from .f32), got int32".
        mma = [line.strip() for line in tvm["message"].splitlines() if line.strip().startswith("mma: mma:")]
        assert mma and mma[0][len("mma: "):] in str(live)
