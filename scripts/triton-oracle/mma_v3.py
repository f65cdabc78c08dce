#!/usr/bin/env python3
"""Record the linear layouts Triton gives NVIDIA MMA v3 (wgmma) accumulators.

Run outside the build, with `pip install triton` (3.x; CPU only):

    python3 scripts/triton-oracle/mma_v3.py > tests/data/triton/mma_v3.json

Each layout is Gluon's to_linear_layout() of an NVMMADistributedLayout with
version [3, 0] and instr_shape [16, N, K] (#ttg.nvidia_mma<{versionMajor = 3,
..., instrShape = [16, N, K]}> in TTGIR), written with its warps_per_cta and
instr_shape: the input of `mmacheck triton`, which proves each register
against wgmma's D frame (docs/layouts-cute-triton.md).
"""
import json
import sys

import triton
from triton._C.libtriton import gluon_ir, ir
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language._semantic import GluonSemantic

COMMAND = "python3 scripts/triton-oracle/mma_v3.py > tests/data/triton/mma_v3.json"

# (accumulator type, warps_per_cta, instr_shape, tensor shape)
CASES = [
    ("f32", [4, 1], [16, 8, 16], [64, 8]),
    ("f32", [4, 1], [16, 64, 16], [64, 64]),
    ("f32", [4, 1], [16, 256, 16], [64, 256]),
    ("f32", [4, 1], [16, 64, 16], [128, 128]),
    ("f32", [8, 1], [16, 128, 16], [128, 128]),
    ("f32", [4, 2], [16, 64, 16], [64, 128]),
    ("f32", [8, 2], [16, 32, 16], [256, 128]),
    ("f32", [4, 1], [16, 32, 8], [64, 32]),
    ("s32", [4, 1], [16, 64, 32], [64, 64]),
]


def main():
    ctx = ir.context()
    ir.load_dialects(ctx)
    sem = GluonSemantic(gluon_ir.GluonOpBuilder(ctx))
    operands = []
    for dtype, warps, instr, shape in CASES:
        layout = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=warps, instr_shape=instr)
        d = gl.to_linear_layout(layout, shape, _semantic=sem).value
        name = "%s acc %dx%d, %dx%d warps, instr %s" % (dtype, shape[0], shape[1], warps[0], warps[1],
                                                        "x".join(map(str, instr)))
        operands.append({"name": name, "operand": "acc", "dtype": dtype, "warps_per_cta": warps,
                         "instr_shape": instr,
                         "layout": {"reg_bases": d.reg_bases, "lane_bases": d.lane_bases,
                                    "warp_bases": d.warp_bases, "block_bases": d.block_bases,
                                    "shape": d.shape}})
    print('{"producer": %s, "command": %s, "operands": [' % (json.dumps(f"triton {triton.__version__}"),
                                                           json.dumps(COMMAND)))
    print(",\n".join(json.dumps(op) for op in operands))
    print("]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
