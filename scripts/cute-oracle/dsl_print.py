#!/usr/bin/env python3
"""Record what the CuTe DSL prints for its warp MMA ops, atoms and TiledMMAs,
exactly as `print(op)`, `print(mma_atom)` and `print(tiled_mma)` show it, for
`mmacheck cute` to read as printed (tests/test_cute_dsl_print.cc).

Run outside the build, in a venv with `pip install nvidia-cutlass-dsl` (4.8.x;
CPU only: the atoms are built while tracing a @cute.jit function):

    /work/venvs/cute/bin/python scripts/cute-oracle/dsl_print.py > tests/data/cute/dsl_print.txt

The DSL's print of an atom names no element types, so each atom and TiledMMA
is printed after its op (whose print gives the A/B and accumulator types);
the atoms and TiledMMAs are those of dsl_atoms.py (f16/bf16, tf32, fp8; the
DSL has no int8 warp atoms).

With --warpgroup (CUTE_DSL_ARCH sm_90a) it prints the sm_90 wgmma ops, atoms
and TiledMMAs instead (dsl_atoms.py's WARPGROUP atoms, and TiledMMAs of them
over warpgroups along M and N, with and without a permutation):

    /work/venv-cute/bin/python scripts/cute-oracle/dsl_print.py --warpgroup > tests/data/cute/dsl_print_warpgroup.txt
"""
import os
import sys

if sys.argv[1:] == ["--warpgroup"]:
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
from dsl_atoms import ATOMS, TILED, WARPGROUP  # noqa: E402

# (warpgroup atom, atom layout MNK, permutation MNK or None)
WARPGROUP_TILED = [
    ("SM90_64x128x16_F32F16F16_RS", (2, 1, 1), None),
    ("SM90_64x256x16_F32BF16BF16_SS", (1, 2, 1), None),
    ("SM90_64x64x32_F32E4M3E5M2_SS_TN", (2, 2, 1), (128, 128, 32)),
    ("SM90_64x24x32_S32S8U8_RS_TN", (1, 1, 1), None),
]


def warpgroup_main():
    ops = dict(WARPGROUP)
    printed = []

    @cute.jit
    def build():
        for name, make in WARPGROUP:
            printed.append(f"# {name}\n{make()}\n{cute.make_mma_atom(make())}")
        for name, layout, perm in WARPGROUP_TILED:
            kw = {"permutation_mnk": perm} if perm else {}
            tiled = cute.make_tiled_mma(ops[name](), layout, **kw)
            printed.append(f"# make_tiled_mma({name}, {layout}, {perm})\n{ops[name]()}\n{tiled}")

    build()
    print("# CuTe DSL " + cutlass.__version__)
    print("# made by: python scripts/cute-oracle/dsl_print.py --warpgroup > tests/data/cute/dsl_print_warpgroup.txt")
    print("\n".join(printed))


def main():
    if sys.argv[1:] == ["--warpgroup"]:
        return warpgroup_main()
    ops = dict(ATOMS)
    printed = []

    def mode(p):
        return p if isinstance(p, int) else cute.make_layout(p[0], stride=p[1])

    @cute.jit
    def build():
        for name, make in ATOMS:
            printed.append(f"# {name}\n{make()}\n{cute.make_mma_atom(make())}")
        for name, layout, perm in TILED:
            kw = {"permutation_mnk": tuple(mode(p) for p in perm)} if perm else {}
            tiled = cute.make_tiled_mma(ops[name](), layout, **kw)
            printed.append(f"# make_tiled_mma({name}, {layout}, {perm})\n{ops[name]()}\n{tiled}")

    build()
    print("# CuTe DSL " + cutlass.__version__)
    print("# made by: python scripts/cute-oracle/dsl_print.py > tests/data/cute/dsl_print.txt")
    print("\n".join(printed))


if __name__ == "__main__":
    sys.exit(main())
