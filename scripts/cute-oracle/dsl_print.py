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
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
from dsl_atoms import ATOMS, TILED  # noqa: E402


def main():
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
