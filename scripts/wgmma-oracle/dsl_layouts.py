#!/usr/bin/env python3
"""Record the layouts CuTe's Python DSL builds for Hopper's wgmma.

Run outside the build with `pip install nvidia-cutlass-dsl` (CPU only is
enough: the layouts are built while tracing a @cute.jit function; the MMA
atoms need CUTE_DSL_ARCH=sm_90a):

    CUTE_DSL_ARCH=sm_90a python3 scripts/wgmma-oracle/dsl_layouts.py > tests/data/wgmma/dsl_layouts.txt

Writes one line per layout, read by tests/test_wgmma_dsl.cc:

    smem KIND DTYPE ROWSxCOLS LAYOUT   the shared-memory layout atom of KIND
                                       (warpgroup.make_smem_layout_atom) tiled
                                       to ROWS (M or N) x COLS (K) with
                                       tile_to_shape, M/N mode first, as the DSL
                                       prints it: S<B,M,S> o 0 o (MN,K):(...)
    tv A|C SHAPE DTYPE N LAYOUT        an MMA atom's TV layout of A (from
                                       registers) or C, thread and value -> m + 64 * (k or n)
"""
import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import OperandMajorMode, warpgroup

F16, BF16, TF32, E4M3 = cutlass.Float16, cutlass.BFloat16, cutlass.TFloat32, cutlass.Float8E4M3FN
K = warpgroup.SmemLayoutAtomKind
NAMES = {F16: "f16", BF16: "bf16", TF32: "tf32", E4M3: "e4m3"}
BYTES = {F16: 2, BF16: 2, TF32: 4, E4M3: 1}
ROW = {"INTER": 16, "SW32": 32, "SW64": 64, "SW128": 128}

# (kind, dtype, rows): K-major for every type, MN-major for the 16-bit ones.
SMEM = [(k, t, 64) for k in (K.K_INTER, K.K_SW32, K.K_SW64, K.K_SW128) for t in (F16, BF16, TF32, E4M3)]
SMEM += [(k, t, n) for k in (K.MN_INTER, K.MN_SW32, K.MN_SW64, K.MN_SW128) for t in (F16, BF16) for n in (64, 128)]


@cute.jit
def record():
    for kind, dtype, rows in SMEM:
        name = kind.name
        # K-major: the atom spans its swizzle row along K; the instruction reads
        # 32 bytes of it (the test reads each 32-byte K block).  MN-major: K = 16.
        cols = max(ROW[name.split("_")[1]] // BYTES[dtype], 32 // BYTES[dtype]) if name.startswith("K_") else 16
        atom = warpgroup.make_smem_layout_atom(kind, dtype)
        tiled = cute.tile_to_shape(atom, (rows, cols), (0, 1))
        print(f"smem {name} {NAMES[dtype]} {rows}x{cols} {tiled}")
    for dtype, shape in ((F16, (64, 32, 16)), (BF16, (64, 64, 16))):
        op = warpgroup.MmaF16BF16Op(dtype, cutlass.Float32, shape, warpgroup.OperandSource.RMEM, OperandMajorMode.K,
                                    OperandMajorMode.K)
        atom = cute.make_mma_atom(op)
        print(f"tv A m64nNk16 {NAMES[dtype]} {shape[1]} {atom.tv_layout_A}")
        print(f"tv C m64nNk16 {NAMES[dtype]} {shape[1]} {atom.tv_layout_C}")
    # The DSL has no warpgroup tf32 MMA op; fp8 (m64nNk32):
    for shape in ((64, 32, 32),):
        op = warpgroup.MmaF8Op(E4M3, E4M3, cutlass.Float32, shape, warpgroup.OperandSource.RMEM, OperandMajorMode.K,
                               OperandMajorMode.K)
        atom = cute.make_mma_atom(op)
        print(f"tv A m64nNk32 e4m3 {shape[1]} {atom.tv_layout_A}")
        print(f"tv C m64nNk32 e4m3 {shape[1]} {atom.tv_layout_C}")

print("# CuTe DSL (nvidia-cutlass-dsl 4.8.1): CUTE_DSL_ARCH=sm_90a python3 scripts/wgmma-oracle/dsl_layouts.py")
record()
