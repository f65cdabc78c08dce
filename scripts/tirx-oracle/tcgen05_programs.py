"""Record real TIRx tcgen05.mma programs and what TVM 0.1.0a4
(apache-tvm-tirx) lowers them to, for mmacheck's tests
(tests/test_tcgen05_tirx_program.cc).  CPU only, outside the build (CI
installs no TVM):

    pip install apache-tvm-tirx==0.1.0a4
    python3 scripts/tirx-oracle/tcgen05_programs.py --out tests/data/tirx

For every program below: NAME.py is the program as TVM prints it
(`mod.script()`: a `T.cuda.tile.apply("tcgen05.mma...", D, A, B, ...)` on
shared-memory buffers and a TMEM buffer with layouts), NAME.lowered.py the
module after TileDispatch with a CUDA sm_100a target bound (the
`T.ptx.tcgen05(...)` calls with the instruction descriptor and each
shared-memory descriptor base TIRx's pattern folded), NAME.cu the kernel of
`tvm_tirx.tirx._compile.compile`'s CUDA source (from its first
`extern "C"`; the helpers before it are TVM's and left out).  Each file's
first line is the command.  mmacheck reads NAME.py beside NAME.lowered.py
for the flags the dump folds into its idesc (neg_a, neg_b, sat_d) and
accum (docs/tcgen05.md).
"""

import argparse
import os

import tvm_tirx as tvm
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes, TMEM axes and patterns)
from tvm_tirx.script import tirx as T
from tvm_tirx.tirx import _compile
from tvm_tirx.tirx.layout import Axis, ComposeLayout, S, TileLayout

TARGET = {"kind": "cuda", "arch": "sm_100a"}
COMMAND = "python3 scripts/tirx-oracle/tcgen05_programs.py --out tests/data/tirx"
TLane, TCol = Axis.get("TLane"), Axis.get("TCol")


def program(opcode, a, b, d, shape, **params):
    """One tcgen05.mma over buffers a, b (shared) and d (TMEM): each is
    (shape, dtype, layout); shapes are (repeat, repeat, rows, columns)."""

    @T.function
    def main():
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[128])):
            sa = T.alloc_shared(a[0], a[1], layout=a[2], align=1024)
            sb = T.alloc_shared(b[0], b[1], layout=b[2], align=1024)
            td = T.tmem(d[0], d[1], allocated_addr=0, layout=d[2])
            T.cuda.tile.apply(opcode, td[:, :, :, :], sa[:, :, :, :], sb[:, :, :, :], instruction_shape=shape,
                              scope="thread", **params)

    return main


def k_major(rows, k_repeat, k, swizzle_len, atom_len=3):
    """(1, k_repeat, rows, k) K-major: a row of k_repeat * k elements, swizzled."""
    return ComposeLayout(3, swizzle_len, atom_len, TileLayout(S[(1, k_repeat, rows, k) : (0, k, k * k_repeat, 1)]))


def d_tmem(rows, n, col=1):
    """D over TMEM; TCol counts elements, so a 16-bit D (one a 32-bit column,
    in its low half: TIRx's tmem_mma_operand_layout) steps col=2."""
    if rows == 64:  # M = 64: the ISA's data path F, half of each subpartition's 32 lanes
        return TileLayout(S[(1, 1, 4, 16, n) : (col @ TCol, col @ TCol, 32 @ TLane, 1 @ TLane, col @ TCol)])
    return TileLayout(S[(1, 1, rows, n) : (col @ TCol, col @ TCol, 1 @ TLane, col @ TCol)])


PROGRAMS = {
    # bf16 x bf16 -> f32, both K-major with 128B swizzle, M = 128, N = 256, four K blocks.
    "tcgen05_f16_k_sw128": program(
        "tcgen05.mma.cta_group::1.kind::f16",
        ((1, 4, 128, 16), "bfloat16", k_major(128, 4, 16, 3)),
        ((1, 4, 256, 16), "bfloat16", k_major(256, 4, 16, 3)),
        ((1, 1, 128, 256), "float32", d_tmem(128, 256)),
        (128, 256, 16)),
    # f16: A MN-major (64 M-contiguous elements a K row, 128B swizzle), B K-major 64B, M = 64, N = 64.
    "tcgen05_f16_mn_m64": program(
        "tcgen05.mma.cta_group::1.kind::f16",
        ((1, 2, 64, 16), "float16", ComposeLayout(3, 3, 3, TileLayout(S[(1, 2, 64, 16) : (0, 1024, 1, 64)]))),
        ((1, 2, 64, 16), "float16", k_major(64, 2, 16, 2)),
        ((1, 1, 64, 64), "float32", d_tmem(64, 64)),
        (64, 64, 16), a_major="mn"),
    # tf32 x tf32 -> f32, K-major with 64B swizzle, M = 128, N = 64, two K blocks of 8.
    "tcgen05_tf32_k_sw64": program(
        "tcgen05.mma.cta_group::1.kind::tf32",
        ((1, 2, 128, 8), "float32", ComposeLayout(2, 2, 3, TileLayout(S[(1, 2, 128, 8) : (0, 8, 16, 1)]))),
        ((1, 2, 64, 8), "float32", ComposeLayout(2, 2, 3, TileLayout(S[(1, 2, 64, 8) : (0, 8, 16, 1)]))),
        ((1, 1, 128, 64), "float32", d_tmem(128, 64)),
        (128, 64, 8), a_format="tf32", b_format="tf32"),
    # tf32 with A MN-major: TIRx allows a 32-bit MN-major operand only 128B with 32B atomicity
    # (swizzle mode 4, SWIZZLE_128B_BASE32B); B K-major 32B.  M = 128, N = 64, one K block.
    "tcgen05_tf32_mn_b32": program(
        "tcgen05.mma.cta_group::1.kind::tf32",
        ((1, 1, 128, 8), "float32", ComposeLayout(3, 2, 2, TileLayout(S[(1, 1, 4, 32, 8) : (0, 0, 256, 1, 32)]))),
        ((1, 1, 64, 8), "float32", ComposeLayout(2, 1, 3, TileLayout(S[(1, 1, 64, 8) : (0, 0, 8, 1)]))),
        ((1, 1, 128, 64), "float32", d_tmem(128, 64)),
        (128, 64, 8), a_major="mn", a_format="tf32", b_format="tf32"),
    # The first program with neg_a=True: D = (-A) * B; TIRx folds it into the idesc (bit 13).
    "tcgen05_neg_a": program(
        "tcgen05.mma.cta_group::1.kind::f16",
        ((1, 4, 128, 16), "bfloat16", k_major(128, 4, 16, 3)),
        ((1, 4, 256, 16), "bfloat16", k_major(256, 4, 16, 3)),
        ((1, 1, 128, 256), "float32", d_tmem(128, 256)),
        (128, 256, 16), neg_a=True),
    # s8 x s8 -> s32 with sat_d=True (idesc bit 3), K-major with 64B swizzle (a 64-byte row of
    # two 32-byte K blocks), M = 128, N = 128.
    "tcgen05_i8_sat_d": program(
        "tcgen05.mma.cta_group::1.kind::i8",
        ((1, 2, 128, 32), "int8", ComposeLayout(4, 2, 3, TileLayout(S[(1, 2, 128, 32) : (0, 32, 64, 1)]))),
        ((1, 2, 128, 32), "int8", ComposeLayout(4, 2, 3, TileLayout(S[(1, 2, 128, 32) : (0, 32, 64, 1)]))),
        ((1, 1, 128, 128), "int32", d_tmem(128, 128)),
        (128, 128, 32), sat_d=True),
    # f16 x f16 -> f16 D: a 16-bit D takes one TMEM column an element (TCol stride 2 in
    # element units; TIRx refuses the packed stride 1), K-major 32B, M = 128, N = 64.
    "tcgen05_f16_d16": program(
        "tcgen05.mma.cta_group::1.kind::f16",
        ((1, 1, 128, 16), "float16", k_major(128, 1, 16, 1)),
        ((1, 1, 64, 16), "float16", k_major(64, 1, 16, 1)),
        ((1, 1, 128, 64), "float16", d_tmem(128, 64, col=2)),
        (128, 64, 16)),
    # The same at M = 64 (data path F).
    "tcgen05_f16_d16_m64": program(
        "tcgen05.mma.cta_group::1.kind::f16",
        ((1, 1, 64, 16), "float16", k_major(64, 1, 16, 1)),
        ((1, 1, 64, 16), "float16", k_major(64, 1, 16, 1)),
        ((1, 1, 64, 64), "float16", d_tmem(64, 64, col=2)),
        (64, 64, 16)),
}


def kernel_source(exe):
    for m in [exe.mod, *exe.mod.imports]:
        try:
            src = m.inspect_source()
        except Exception:  # noqa: BLE001  (a module kind without source)
            continue
        if "__global__" in src:
            return src[src.index('extern "C"'):]
    raise RuntimeError("no CUDA source")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    for name, func in PROGRAMS.items():
        mod = tvm.IRModule({"main": func})
        with tvm.target.Target(TARGET):
            lowered = tvm.tirx.transform.TileDispatch()(mod)
            source = kernel_source(_compile.compile(mod))
        for suffix, text, comment in ((".py", mod.script(), "#"), (".lowered.py", lowered.script(), "#"),
                                      (".cu", source, "//")):
            with open(os.path.join(out, name + suffix), "w") as f:
                f.write(f"{comment} {COMMAND}  (apache-tvm-tirx 0.1.0a4)\n{text}")


if __name__ == "__main__":
    main()
