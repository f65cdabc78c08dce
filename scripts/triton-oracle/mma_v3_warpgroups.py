#!/usr/bin/env python3
"""Record Triton's MMA v3 (wgmma) accumulators over several warpgroups, and
the same layouts with warpgroups' row (column) blocks exchanged (issue 33).

Run outside the build, with `pip install triton` (3.x; CPU only):

    python3 scripts/triton-oracle/mma_v3_warpgroups.py > tests/data/triton/mma_v3_warpgroups.json
    python3 scripts/triton-oracle/mma_v3_warpgroups.py --planted > tests/data/triton/mma_v3_warpgroups_planted.json

The first file holds Gluon's to_linear_layout() of NVMMADistributedLayout
(version [3, 0]) for warps_per_cta with more than one warpgroup along M
and/or N: Triton's own layouts, which `mmacheck triton` must prove.  The
second takes some of them and exchanges two bases (a warp basis with a
register basis, or two warp bases), so that a warpgroup holds the rows
(columns) of another warpgroup's wgmma.  Every such layout is still a
bijection onto the tensor with rows depending on m only and columns on n
only, so only the tie to the rows each warpgroup's wgmma reads (WGMMA.cpp's
loadA / loadB, core/triton/triton_check.cc) refutes it.
"""
import json
import sys

import triton
from triton._C.libtriton import gluon_ir, ir
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language._semantic import GluonSemantic

SCRIPT = "python3 scripts/triton-oracle/mma_v3_warpgroups.py"

# (name, warps_per_cta, instr_shape, tensor shape); all f32.
CASES = [
    ("2 M warpgroups", [8, 1], [16, 64, 16], [128, 64]),
    # TileLang #2522's shape: block_M = 256, threads = 256, FullRow.
    ("2 M warpgroups, 2 wgmma each", [8, 1], [16, 128, 16], [256, 128]),
    ("4 M warpgroups", [16, 1], [16, 64, 16], [256, 64]),
    ("4 M warpgroups, 2 wgmma each", [16, 1], [16, 64, 16], [512, 64]),
    ("2 N warpgroups, 2 wgmma each", [4, 2], [16, 64, 16], [64, 256]),
    ("2x2 warpgroups, 2x2 wgmma each", [8, 2], [16, 64, 16], [256, 256]),
    # M smaller than the warpgroups along M: both compute rows 0..63.
    ("2 M warpgroups over 64 rows (broadcast)", [8, 1], [16, 64, 16], [64, 64]),
    ("2 N warpgroups over 64 columns (broadcast)", [4, 2], [16, 64, 16], [64, 64]),
]

# (case name, what is exchanged, (in dim, index), (in dim, index))
PLANTS = [
    ("2 M warpgroups, 2 wgmma each",
     "64-row blocks [64, 128) and [128, 192) exchanged: warpgroup 0 holds rows 0..127, warpgroup 1 rows 128..255"
     " (warp basis 2 and register basis 6 swapped)", ("warp", 2), ("reg", 6)),
    ("4 M warpgroups",
     "warpgroups 1 and 2 exchanged: warpgroup 1 holds rows 128..191, warpgroup 2 rows 64..127"
     " (warp bases 2 and 3 swapped)", ("warp", 2), ("warp", 3)),
    ("4 M warpgroups, 2 wgmma each",
     "128-row blocks [128, 256) (wgmma 0 of warpgroups 2, 3) and [256, 384) (wgmma 1 of warpgroups 0, 1)"
     " exchanged (warp basis 3 and register basis 5 swapped)", ("warp", 3), ("reg", 5)),
    ("2 N warpgroups, 2 wgmma each",
     "64-column blocks [64, 128) and [128, 192) exchanged: warpgroup 1 holds columns 128..255"
     " (warp basis 2 and register basis 5 swapped)", ("warp", 2), ("reg", 5)),
    ("2x2 warpgroups, 2x2 wgmma each",
     "warpgroups N-fastest (MMAv2's order), not M-fastest: warpgroup 1 holds rows 0.., columns 64.."
     " (warp bases 2 and 3 swapped)", ("warp", 2), ("warp", 3)),
]


def layouts():
    ctx = ir.context()
    ir.load_dialects(ctx)
    sem = GluonSemantic(gluon_ir.GluonOpBuilder(ctx))
    out = {}
    for name, warps, instr, shape in CASES:
        layout = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=warps, instr_shape=instr)
        d = gl.to_linear_layout(layout, shape, _semantic=sem).value
        full = "f32 acc %dx%d, %dx%d warps, instr %s: %s" % (shape[0], shape[1], warps[0], warps[1],
                                                             "x".join(map(str, instr)), name)
        out[name] = {"name": full, "operand": "acc", "dtype": "f32", "warps_per_cta": warps, "instr_shape": instr,
                     "layout": {"reg_bases": [list(b) for b in d.reg_bases],
                                "lane_bases": [list(b) for b in d.lane_bases],
                                "warp_bases": [list(b) for b in d.warp_bases],
                                "block_bases": [list(b) for b in d.block_bases], "shape": list(d.shape)}}
    return out


def main():
    planted = "--planted" in sys.argv[1:]
    ops = layouts()
    if planted:
        operands = []
        for case, what, (dx, ix), (dy, iy) in PLANTS:
            op = json.loads(json.dumps(ops[case]))
            bx, by = op["layout"][dx + "_bases"], op["layout"][dy + "_bases"]
            bx[ix], by[iy] = by[iy], bx[ix]
            op["name"] = "planted: " + op["name"] + "; " + what
            operands.append(op)
        producer = "triton %s, then two bases swapped (named in the entry)" % triton.__version__
        command = SCRIPT + " --planted > tests/data/triton/mma_v3_warpgroups_planted.json"
    else:
        operands = list(ops.values())
        producer = "triton %s" % triton.__version__
        command = SCRIPT + " > tests/data/triton/mma_v3_warpgroups.json"
    print('{"producer": %s, "command": %s, "operands": [' % (json.dumps(producer), json.dumps(command)))
    print(",\n".join(json.dumps(op) for op in operands))
    print("]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
