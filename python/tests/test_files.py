"""mmacheck.prove / mmacheck.sim on files (no tvm_tirx needed): the package's
results are the library's, the command line's."""

import mmacheck
import pytest


def test_a_layout_file_is_proved_and_its_mistake_refuted(repo):
    assert mmacheck.prove(repo / "examples" / "seed_corrected.txt").verdict == "proved"
    report = mmacheck.prove(repo / "examples" / "seed.txt")
    assert report.verdict == "refuted"
    cx = report.counterexamples[0]
    assert (cx["check"], cx["lane"], cx["slot"]) == ("stage A", 0, 2)


def test_bad_input_is_an_error_with_its_location(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("D = buffer((16, 8), \"float32\", \"local\", NOPE)\n")
    with pytest.raises(mmacheck.Error, match=r"bad\.txt:1:\d+: error: "):
        mmacheck.prove(bad)


def test_sim_on_a_file(repo):
    r = mmacheck.sim(repo / "examples" / "seed_corrected.txt", cases=8)
    assert r["verdict"] == "passed" and r["cases"] == 8


def test_the_package_loads_no_cuda():
    """The wheel needs no CUDA at run time: importing it maps no CUDA library."""
    import subprocess
    import sys

    maps = subprocess.run([sys.executable, "-c", "import mmacheck; print(open('/proc/self/maps').read())"],
                          check=True, capture_output=True, text=True).stdout
    assert "_mmacheck" in maps
    assert "libcuda" not in maps and "libnvrtc" not in maps and "libcudart" not in maps


def test_the_report_is_the_command_lines_json(repo):
    """Where the program is built (build/bin/mmacheck), its `prove --json` and the package agree, but the ms."""
    import json
    import subprocess

    binary = repo / "build" / "bin" / "mmacheck"
    if not binary.exists():
        pytest.skip("no build/bin/mmacheck (scripts/build.sh)")
    path = repo / "examples" / "tirx_seed.py"
    cli = json.loads(subprocess.run([str(binary), "prove", str(path), "--json"], capture_output=True, text=True).stdout)
    py = mmacheck.prove(path).json()
    for report in (cli, py):
        for check in report["checks"]:
            check.pop("ms")
    assert cli == py


def test_a_test_files_kernels_are_proved_one_by_one(repo):
    """A .py test file's kernels, built by its factories and parametrized tests, named by pytest's ids."""
    reports = mmacheck.prove_all(repo / "tests" / "data" / "tvm" / "test_files" / "test_gemm_factories.py")
    assert len(reports) == 30
    assert reports["test_staged[bfloat16-1.0-2-1-3-8]"].verdict == "proved"
    verdicts = sorted({r.verdict for r in reports.values()})
    assert verdicts == ["dispatch_failed", "proved"]
    assert [n for n, r in reports.items() if r.verdict == "dispatch_failed"] == [
        "test_rejects_scale[alpha2]", "test_rejects_scale[beta_half]"]
    with pytest.raises(mmacheck.Error, match="the file builds 30 kernels"):
        mmacheck.prove(repo / "tests" / "data" / "tvm" / "test_files" / "test_gemm_factories.py")
