#!/usr/bin/env python3
"""Record the linear layouts Triton gives NVIDIA MMA v2 accumulators and dot operands.

Run outside the build, in a venv with `pip install triton` (3.x; CPU only):

    /work/venv-cute/bin/python scripts/triton-oracle/mma_layouts.py > tests/data/triton/mma_v2.json
    /work/venv-cute/bin/python scripts/triton-oracle/mma_layouts.py --chained-int8 > tests/data/triton/chained_int8.json

Each layout comes from Gluon's to_linear_layout() of an NVMMADistributedLayout
(version [2, 0], instr_shape [16, 8]) or a DotOperandLayout over it.  The file
is the input of `mmacheck triton` (docs/layouts-cute-triton.md): accumulators
are written as Gluon's fields (JSON), dot operands as LinearLayout::toString()
prints them, so both readers are exercised.

--dots writes whole dots instead: the accumulator, A and B of one
tl.dot in one group (so that `mmacheck triton` checks D's rows against A's
and its columns against B's), over several warps_per_cta, shapes and types.

--chained-int8 writes the situation of Triton issue #3580 instead: the s32
accumulator layout of a first dot (16x32) fed unchanged as operand A of a
second, int8 dot (kWidth 4), next to the dot-operand layout such an A needs.
"""
import json
import sys

import triton
from triton._C.libtriton import gluon_ir, ir
from triton._C.libtriton import linear_layout as ll
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language._semantic import GluonSemantic

COMMAND = "python scripts/triton-oracle/mma_layouts.py > tests/data/triton/mma_v2.json"
DOTS = "python scripts/triton-oracle/mma_layouts.py --dots > tests/data/triton/dots.json"
CHAINED = "python scripts/triton-oracle/mma_layouts.py --chained-int8 > tests/data/triton/chained_int8.json"


def main():
    ctx = ir.context()
    ir.load_dialects(ctx)
    sem = GluonSemantic(gluon_ir.GluonOpBuilder(ctx))

    def linear(layout, shape):
        return gl.to_linear_layout(layout, shape, _semantic=sem).value

    def mma(warps):
        return gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=warps, instr_shape=[16, 8])

    def gluon_fields(d):
        return {"reg_bases": d.reg_bases, "lane_bases": d.lane_bases, "warp_bases": d.warp_bases,
                "block_bases": d.block_bases, "shape": d.shape}

    def to_string(d):
        bases = [("register", d.reg_bases), ("lane", d.lane_bases), ("warp", d.warp_bases), ("block", d.block_bases)]
        out = ["dim%d" % i for i in range(len(d.shape))]
        return str(ll.LinearLayout.from_bases(bases, out, list(d.shape), False)).strip("\n")

    operands = []

    def acc(name, dtype, warps, shape):
        d = linear(mma(warps), shape)
        operands.append({"name": name, "operand": "acc", "dtype": dtype, "warps_per_cta": warps,
                         "layout": gluon_fields(d)})

    def dot(name, group, dtype, k_width, warps, a_shape, b_shape):
        for op_idx, role, shape in ((0, "a", a_shape), (1, "b", b_shape)):
            d = linear(gl.DotOperandLayout(operand_index=op_idx, parent=mma(warps), k_width=k_width), shape)
            operands.append({"name": f"{name} {role.upper()} {shape[0]}x{shape[1]}", "operand": role,
                             "dtype": dtype, "k_width": k_width, "group": group, "warps_per_cta": warps,
                             "layout": to_string(d)})

    if sys.argv[1:] == ["--dots"]:
        for acc_t, dtype, k_width, warps, (m, n, k) in (
                ("f32", "f16", 2, [1, 1], (16, 8, 16)),
                ("f32", "f16", 2, [2, 2], (64, 64, 32)),
                ("f32", "f16", 2, [4, 1], (128, 32, 32)),
                ("f32", "f16", 2, [1, 4], (32, 128, 16)),
                ("f32", "bf16", 8, [2, 2], (64, 32, 64)),
                ("f32", "f16", 4, [4, 2], (128, 64, 32)),
                ("s32", "s8", 4, [2, 1], (64, 16, 64)),
                ("s32", "s8", 8, [1, 2], (32, 32, 64)),
                ("f16", "f16", 2, [2, 2], (32, 32, 32)),
                ("f32", "f16", 2, [4, 4], (32, 32, 16)),  # more warps than tiles: broadcast
                ("f32", "tf32", 1, [2, 1], (32, 16, 16)),
                ("f32", "e4m3", 4, [1, 2], (16, 32, 64)),
                ("f16", "e5m2", 8, [2, 2], (64, 32, 64)),
        ):
            group = f"{acc_t} {dtype} k{k_width} {warps[0]}x{warps[1]} warps {m}x{n}x{k}"
            d = linear(mma(warps), [m, n])
            operands.append({"name": group + " D", "operand": "acc", "dtype": acc_t, "group": group,
                             "warps_per_cta": warps, "layout": gluon_fields(d)})
            for op_idx, role, shape in ((0, "a", [m, k]), (1, "b", [k, n])):
                d = linear(gl.DotOperandLayout(operand_index=op_idx, parent=mma(warps), k_width=k_width), shape)
                operands.append({"name": f"{group} {role.upper()}", "operand": role, "dtype": dtype,
                                 "k_width": k_width, "group": group, "warps_per_cta": warps,
                                 "layout": gluon_fields(d)})
        return write(operands, DOTS)

    if sys.argv[1:] == ["--chained-int8"]:
        d = linear(mma([1, 1]), [16, 32])
        operands.append({"name": "s32 acc 16x32 reused as s8 A", "operand": "a", "dtype": "s8", "k_width": 4,
                         "layout": gluon_fields(d)})
        d = linear(gl.DotOperandLayout(operand_index=0, parent=mma([1, 1]), k_width=4), [16, 32])
        operands.append({"name": "s8 A 16x32 (kWidth 4)", "operand": "a", "dtype": "s8", "k_width": 4,
                         "layout": gluon_fields(d)})
        return write(operands, CHAINED)

    acc("f32 acc 16x8", "f32", [1, 1], [16, 8])
    acc("f32 acc 32x16", "f32", [1, 1], [32, 16])
    acc("f32 acc 64x32, 2x2 warps", "f32", [2, 2], [64, 32])
    acc("s32 acc 16x16", "s32", [1, 1], [16, 16])
    acc("f16 acc 32x8", "f16", [1, 1], [32, 8])
    dot("f16 k2", "f16 k2", "f16", 2, [1, 1], [16, 16], [16, 8])
    dot("f16 k2 large", "f16 k2 large", "f16", 2, [1, 1], [32, 32], [32, 16])
    dot("bf16 k2 2x2 warps", "bf16 k2 2x2", "bf16", 2, [2, 2], [64, 32], [32, 32])
    dot("s8 k4", "s8 k4", "s8", 4, [1, 1], [16, 32], [32, 8])
    dot("s8 k4 large", "s8 k4 large", "s8", 4, [1, 1], [32, 64], [64, 16])
    dot("f16 k4", "f16 k4", "f16", 4, [1, 1], [16, 32], [32, 8])
    dot("f16 k8", "f16 k8", "f16", 8, [1, 1], [16, 64], [64, 8])
    dot("bf16 k8 large", "bf16 k8 large", "bf16", 8, [1, 1], [32, 128], [128, 16])
    dot("s8 k8", "s8 k8", "s8", 8, [1, 1], [16, 64], [64, 8])
    dot("f16 k4 small K", "f16 k4 small K", "f16", 4, [1, 1], [16, 16], [16, 8])

    return write(operands, COMMAND)


def write(operands, command):
    # One operand per line, so that a diff of a re-run reads.
    print('{"producer": %s, "command": %s, "operands": [' % (json.dumps(f"triton {triton.__version__}"),
                                                           json.dumps(command)))
    print(",\n".join(json.dumps(op) for op in operands))
    print("]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
