#!/usr/bin/env python3
"""TVM's printed layouts with integer expressions in them, for
tests/test_layout_tvm_oracle.cc: what TVM prints for int64 values (T.int64(N)
at 2^31 and above) and for values given as unfolded expressions (T.Mul,
T.Add, T.Sub, T.FloorDiv, T.FloorMod, T.Cast), with the iters TVM holds.
Run outside the build:

    /work/venv-tvm/bin/python scripts/tvm-oracle/printed.py > tests/data/tvm/printed_exprs.jsonl

Each line after the header: {"printed": str(TileLayout) as TVM prints it,
"shard": [[extent, stride, axis]], "replica": [...]} (each value TVM's,
read back with int()).
"""
import json
import sys

import tvm_tirx
from tvm_tirx import prim
from tvm_tirx.sym.analyzer import Analyzer
from tvm_tirx.tirx.layout import S, TileLayout


def i64(v):
    return prim.const(v, "int64")


def i32(v):
    return prim.const(v, "int32")


def value(e):
    """TVM's own value of an integer expression (its analyzer folds it)."""
    if isinstance(e, int):
        return e
    folded = Analyzer().simplify(e)
    return int(folded)


CASES = [
    ((4, 8), (i64(2**40), 1)),
    ((i64(2**33), 2), (1, i64(2**33))),
    ((4, 8), (prim.Mul(i64(2**20), i64(2)), 1)),
    ((4, 8), (prim.Cast("int64", i32(8)), 1)),
    ((4, 8), (prim.Add(i64(3), i64(5)), 1)),
    ((4, 8), (prim.Sub(i64(20), i64(4)), 1)),
    ((4, 8), (prim.FloorDiv(i64(64), i64(8)), 1)),
    ((4, 8), (prim.FloorMod(i64(67), i64(16)), 1)),
    ((prim.Mul(i64(2), i64(2)), 8), (8, prim.Cast("int64", i32(1)))),
    ((2, 4, 8), (prim.Mul(prim.Add(i64(1), i64(3)), i64(8)), i64(8), 1)),
    ((4, 8), (prim.FloorDiv(i64(-9), i64(4)), 1)),
    ((4, 8), (prim.FloorMod(i64(-9), i64(4)), 1)),
    ((4, 8), (prim.Sub(i64(2), i64(2**35)), 1)),
    ((i64(3), i64(5)), (i64(5), i64(1))),
]


def main():
    print(json.dumps({"generator": "scripts/tvm-oracle/printed.py", "tvm": "apache-tvm-tirx 0.1.0a4"}))
    for extents, strides in CASES:
        layout = TileLayout(S[extents:strides])
        text = str(layout)
        iters = []
        for it in layout.shard:
            iters.append([value(it.extent), value(it.stride), str(it.axis.name)])
        print(json.dumps({"printed": text, "shard": iters, "replica": []}))


if __name__ == "__main__":
    sys.exit(main())
