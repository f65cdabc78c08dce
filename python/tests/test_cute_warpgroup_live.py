"""mmacheck.prove on live CuTe DSL warpgroup (sm_90 wgmma) atoms and TiledMmas
(nvidia-cutlass-dsl, CPU only).  The DSL builds warpgroup ops only when
CUTE_DSL_ARCH is sm_90a when cutlass is first imported, so each case runs in a
fresh interpreter with it set.  Skips when the DSL is absent."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("cutlass.cute")

PRELUDE = textwrap.dedent('''
    import json
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.nvgpu import OperandMajorMode, warpgroup
    import mmacheck

    F16, BF16, F32 = cutlass.Float16, cutlass.BFloat16, cutlass.Float32
    K, MN = OperandMajorMode.K, OperandMajorMode.MN
    SMEM, RMEM = warpgroup.OperandSource.SMEM, warpgroup.OperandSource.RMEM
    out = {}

    @cute.jit
    def build():
        out["value"] = body()
''')


def run(tmp_path, body):
    """body: Python defining `body()`, run while a @cute.jit function is traced; what it returns, via JSON.
    The DSL compiles @cute.jit functions from their source, so the script is a file."""
    script = tmp_path / "warpgroup_case.py"
    script.write_text(PRELUDE.replace("@cute.jit", textwrap.dedent(body) + "\n@cute.jit") +
                      "\nbuild()\nprint(json.dumps(out['value']))\n")
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a")
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_warpgroup_ops_are_named_as_cutlass_gmma_atoms_from_their_own_fields(tmp_path):
    names = run(tmp_path, '''
        def body():
            return [mmacheck.cute.atom_name(op) for op in (
                warpgroup.MmaF16BF16Op(F16, F32, (64, 128, 16), SMEM, K, K),
                warpgroup.MmaF16BF16Op(BF16, F32, (64, 256, 16), RMEM, K, MN),
                warpgroup.MmaF8Op(cutlass.Float8E4M3FN, cutlass.Float8E5M2, F32, (64, 64, 32), SMEM, K, K),
                warpgroup.MmaI8Op(cutlass.Int8, cutlass.Uint8, cutlass.Int32, (64, 24, 32), RMEM, K, K))]
    ''')
    assert names == ["SM90_64x128x16_F32F16F16_SS", "SM90_64x256x16_F32BF16BF16_RS",
                     "SM90_64x64x32_F32E4M3E5M2_SS_TN", "SM90_64x24x32_S32S8U8_RS_TN"]


def test_a_warpgroup_atom_is_checked_against_wgmma_frames_as_the_file_reader_checks_it(repo, tmp_path):
    live = run(tmp_path, '''
        def body():
            op = warpgroup.MmaF16BF16Op(F16, F32, (64, 128, 16), RMEM, K, K)
            return mmacheck.prove(cute.make_mma_atom(op)).json()
    ''')
    operands = {o["operand"]: o["result"] for o in live["operands"]}
    # C and the register A are wgmma's frames; B sits in shared memory behind a descriptor.
    assert operands == {"A": "proved", "B": "unchecked", "C": "proved"}
    document = (repo / "tests" / "data" / "cute" / "dsl_warpgroup.txt").read_text()
    import mmacheck
    from_file = {r["atom"]: r for r in json.loads(mmacheck._mmacheck.cute_check(document, "dsl_warpgroup.txt"))}
    assert live == from_file["SM90_64x128x16_F32F16F16_RS"]


def test_a_warpgroup_tiled_mma_is_walked_its_atom_checked_its_tiling_unchecked(tmp_path):
    reports = run(tmp_path, '''
        def body():
            op = warpgroup.MmaF16BF16Op(F16, F32, (64, 128, 16), RMEM, K, K)
            tiled = cute.make_tiled_mma(op, (2, 1, 1))
            return {"entries": mmacheck.cute.entries(tiled), "reports": mmacheck.cute.check(tiled)}
    ''')
    entries = reports["entries"]
    assert entries.startswith("SM90_64x128x16_F32F16F16_RS:")
    assert "ThrLayoutVMNK = (128,2,1,1):(1,128,0,0)" in entries
    atom, tiled = reports["reports"]
    assert atom["atom"] == "SM90_64x128x16_F32F16F16_RS"
    assert {o["operand"]: o["result"] for o in atom["operands"]}["C"] == "proved"
    assert tiled["atom"] == "tiled SM90_64x128x16_F32F16F16_RS"
    assert tiled["result"] == "unchecked"
    assert all("tiling of wgmma atoms" in o["message"] for o in tiled["operands"])
