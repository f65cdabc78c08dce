#!/usr/bin/env python3
"""Record the TV layouts CuTe's Python DSL builds for its warp MMA atoms.

Run outside the build, in a venv with `pip install nvidia-cutlass-dsl` (4.8.x;
CPU only is enough: the atoms are built while tracing a @cute.jit function):

    /work/venv-cute/bin/python scripts/cute-oracle/dsl_atoms.py > tests/data/cute/dsl_atoms.txt
    /work/venv-cute/bin/python scripts/cute-oracle/dsl_atoms.py --tiled > tests/data/cute/dsl_tiled.txt

Writes an mmacheck atom list (docs/layouts-cute-triton.md): one entry per atom, named as
CUTLASS's C++ atom for the same instruction, with ThrID, Shape_MNK and the A,
B, C layouts exactly as the DSL prints them.  The DSL offers warp MMAs for
f16/bf16, tf32 and fp8 only.

--warpgroup and --tcgen05 write sm_90 wgmma (GMMA) and sm_100 tcgen05 (UMMA)
atoms instead, named as CUTLASS's C++ atoms (tests/data/cute/dsl_warpgroup.txt,
dsl_tcgen05.txt); the script sets CUTE_DSL_ARCH to sm_90a / sm_100a for them.

--tiled writes TiledMMAs instead (make_tiled_mma with atom layouts and
permutations of M, N and K): ThrLayoutVMNK, the tile and the tiled TV layouts
of A, B and C as the DSL prints them, as `tiled NAME: ...` entries.
"""
import os
import re
import sys

# The DSL builds warpgroup and tcgen05 atoms only for their architecture.
_ARCH = {"--warpgroup": "sm_90a", "--tcgen05": "sm_100a"}
if sys.argv[1:2] and sys.argv[1] in _ARCH:
    os.environ.setdefault("CUTE_DSL_ARCH", _ARCH[sys.argv[1]])

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
from cutlass.cute.nvgpu import OperandMajorMode, tcgen05, warp, warpgroup  # noqa: E402

F16, BF16, F32 = cutlass.Float16, cutlass.BFloat16, cutlass.Float32
TF32, E4M3, E5M2 = cutlass.TFloat32, cutlass.Float8E4M3FN, cutlass.Float8E5M2

# (C++ atom name, how to build the DSL op)
ATOMS = [
    ("SM80_16x8x8_F16F16F16F16_TN", lambda: warp.MmaF16BF16Op(F16, F16, (16, 8, 8))),
    ("SM80_16x8x16_F16F16F16F16_TN", lambda: warp.MmaF16BF16Op(F16, F16, (16, 8, 16))),
    ("SM80_16x8x8_F32F16F16F32_TN", lambda: warp.MmaF16BF16Op(F16, F32, (16, 8, 8))),
    ("SM80_16x8x16_F32F16F16F32_TN", lambda: warp.MmaF16BF16Op(F16, F32, (16, 8, 16))),
    ("SM80_16x8x8_F32BF16BF16F32_TN", lambda: warp.MmaF16BF16Op(BF16, F32, (16, 8, 8))),
    ("SM80_16x8x16_F32BF16BF16F32_TN", lambda: warp.MmaF16BF16Op(BF16, F32, (16, 8, 16))),
    ("SM80_16x8x4_F32TF32TF32F32_TN", lambda: warp.MmaTF32Op((16, 8, 4))),
    ("SM80_16x8x8_F32TF32TF32F32_TN", lambda: warp.MmaTF32Op((16, 8, 8))),
    ("SM89_16x8x32_F32E4M3E4M3F32_TN", lambda: warp.MmaFP8Op(E4M3, F32, (16, 8, 32))),
    ("SM89_16x8x32_F32E5M2E5M2F32_TN", lambda: warp.MmaFP8Op(E5M2, F32, (16, 8, 32))),
]

S8, U8 = cutlass.Int8, cutlass.Uint8
K = OperandMajorMode.K
WG_SMEM, WG_RMEM = warpgroup.OperandSource.SMEM, warpgroup.OperandSource.RMEM
UM_SMEM, UM_TMEM = tcgen05.OperandSource.SMEM, tcgen05.OperandSource.TMEM
ONE, TWO = tcgen05.CtaGroup.ONE, tcgen05.CtaGroup.TWO

# sm_90 wgmma (the DSL has no tf32 warpgroup op)
WARPGROUP = [
    ("SM90_64x8x16_F16F16F16_SS", lambda: warpgroup.MmaF16BF16Op(F16, F16, (64, 8, 16), WG_SMEM, K, K)),
    ("SM90_64x128x16_F32F16F16_RS", lambda: warpgroup.MmaF16BF16Op(F16, F32, (64, 128, 16), WG_RMEM, K, K)),
    ("SM90_64x256x16_F32BF16BF16_SS", lambda: warpgroup.MmaF16BF16Op(BF16, F32, (64, 256, 16), WG_SMEM, K, K)),
    ("SM90_64x64x32_F32E4M3E5M2_SS_TN", lambda: warpgroup.MmaF8Op(E4M3, E5M2, F32, (64, 64, 32), WG_SMEM, K, K)),
    ("SM90_64x96x32_F16E5M2E5M2_RS_TN", lambda: warpgroup.MmaF8Op(E5M2, E5M2, cutlass.Float16, (64, 96, 32),
                                                                   WG_RMEM, K, K)),
    ("SM90_64x24x32_S32S8U8_RS_TN", lambda: warpgroup.MmaI8Op(S8, U8, cutlass.Int32, (64, 24, 32), WG_RMEM, K, K)),
]

# sm_100 tcgen05, one CTA and a pair
TCGEN05 = [
    ("SM100_MMA_F16BF16_SS", lambda: tcgen05.MmaF16BF16Op(F16, F32, (128, 256, 16), ONE, UM_SMEM, K, K)),
    ("SM100_MMA_TF32_TS", lambda: tcgen05.MmaTF32Op((64, 64, 8), ONE, UM_TMEM, K, K)),
    ("SM100_MMA_F8F6F4_SS", lambda: tcgen05.MmaFP8Op(E4M3, F32, (128, 128, 32), ONE, UM_SMEM, K, K)),
    ("SM100_MMA_F16BF16_2x1SM_SS", lambda: tcgen05.MmaF16BF16Op(BF16, F32, (256, 128, 16), TWO, UM_SMEM, K, K)),
    ("SM100_MMA_S8_2x1SM_SS", lambda: tcgen05.MmaI8Op(S8, (128, 64, 32), TWO, UM_SMEM, K, K)),
]

FIELDS = {"ThrID": "ThrID", "Shape MNK": "Shape_MNK", "TV Layout A": "A", "TV Layout B": "B", "TV Layout C": "C"}


def shape_type(text):
    """(16,8,16) -> Shape<_16,_8,_16> (Shape_MNK is written as C++ spells it)."""
    return "Shape<" + ",".join("_" + v for v in re.findall(r"\d+", text)) + ">"


def entry(name, printed):
    fields = {}
    for line in printed.splitlines():
        key, _, value = line.strip().partition(":")
        if key in FIELDS:
            fields[FIELDS[key]] = value.strip()
    missing = [k for k in FIELDS.values() if k not in fields]
    if missing:
        raise SystemExit(f"{name}: the DSL printed no {missing}:\n{printed}")
    fields["Shape_MNK"] = shape_type(fields["Shape_MNK"])
    order = ["ThrID", "Shape_MNK", "A", "B", "C"]
    return f"{name}:\n    " + ",\n    ".join(f"{k} = {fields[k]}" for k in order)


# (atom, atom layout MNK, permutation MNK as (size or (shape, stride)) per mode)
TILED = [
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), None),
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, ((8, 4), (4, 1)), 16)),
    ("SM80_16x8x16_F32F16F16F32_TN", (1, 2, 1), (32, 32, 32)),
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 1, 1), (((16, 2), (2, 1)), 16, ((8, 2, 2), (1, 16, 8)))),
    ("SM80_16x8x8_F32TF32TF32F32_TN", (1, 4, 1), (32, ((4, 8), (8, 1)), 8)),
    ("SM89_16x8x32_F32E4M3E4M3F32_TN", (2, 2, 1), (64, 16, 32)),
    # Not a permutation: (8,4):(1,16) has size 32 but reaches N up to 55.  The
    # DSL builds it anyway (a stride (4,2) instead crashes it with SIGFPE).
    ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, ((8, 4), (1, 16)), 16)),
]


def tiled_main():
    ops = dict((name, make) for name, make in ATOMS)
    printed = []

    def mode(p):
        return p if isinstance(p, int) else cute.make_layout(p[0], stride=p[1])

    def notation(p):
        return str(p) if isinstance(p, int) else (str(p[0]) + ":" + str(p[1])).replace(" ", "")

    atoms = {}
    # Outside @cute.jit: the DSL stages the `if`s inside it.
    forms = []
    for _, layout, perm in TILED:
        form = f"AtomLayout = {str(layout).replace(' ', '')}"
        if perm is not None:
            form += ", Permutation = (" + ", ".join(notation(p) for p in perm) + ")"
        forms.append(form)

    @cute.jit
    def build():
        for name, layout, perm in TILED:
            atoms.setdefault(name, entry(name, str(cute.make_mma_atom(ops[name]()))))
            kw = {"permutation_mnk": tuple(mode(p) for p in perm)} if perm else {}
            t = cute.make_tiled_mma(ops[name](), layout, **kw)
            tile = f"({t.get_tile_size(0)},{t.get_tile_size(1)},{t.get_tile_size(2)})"
            fields = [f"ThrLayoutVMNK = {t.thr_layout_vmnk}", f"Tile = {tile}", f"A = {t.tv_layout_A_tiled}",
                      f"B = {t.tv_layout_B_tiled}", f"C = {t.tv_layout_C_tiled}"]
            cute_form = forms[len(printed)]
            printed.append(f"# make_tiled_mma(atom, {layout}, {perm}): as the DSL prints it, then in CuTe notation\n"
                           f"tiled {name}:\n    " + ",\n    ".join(fields) + f"\ntiled {name}: {cute_form}")

    build()
    print("# CuTe DSL " + cutlass.__version__)
    print("# made by: python scripts/cute-oracle/dsl_atoms.py --tiled > tests/data/cute/dsl_tiled.txt")
    print("\n".join(atoms.values()))
    print("\n".join(printed))


def main():
    if sys.argv[1:] == ["--tiled"]:
        return tiled_main()
    mode = sys.argv[1] if sys.argv[1:] else ""
    atoms, out = {"": (ATOMS, "dsl_atoms"), "--warpgroup": (WARPGROUP, "dsl_warpgroup"),
                  "--tcgen05": (TCGEN05, "dsl_tcgen05")}[mode]
    printed = {}

    @cute.jit
    def build():
        for name, make in atoms:
            printed[name] = str(cute.make_mma_atom(make()))

    build()
    print("# CuTe DSL " + cutlass.__version__)
    print(f"# made by: python scripts/cute-oracle/dsl_atoms.py {mode} > tests/data/cute/{out}.txt".replace("  ", " "))
    for name, _ in atoms:
        print(entry(name, printed[name]))


if __name__ == "__main__":
    sys.exit(main())
