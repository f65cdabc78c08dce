#!/usr/bin/env python3
"""TVM's answers for layouts whose extents, strides and offsets lie between
2^62 and 2^63 - 1, for tests/test_layout_large.cc.  Run outside the build:

    /work/venv-tvm/bin/python scripts/tvm-oracle/large_layouts.py > tests/data/tvm/large_layouts.jsonl

Each line after the header is one case, an expression both TVM's Python and
mmacheck's layout parser read (`cuda`: its last operation, canonicalize,
runs under a CUDA target), and either "error": the last line of TVM's
exception, or TVM's layout:
  "printed": str(layout) (T.TileLayout.from_iters(...), int64 values as
  T.int64(N)), "shard"/"replica": [[extent, stride, axis]], "offset":
  {axis: value}, "seps" (group's), "size", "span": {"": the span over the memory axes, axis:
  the span on that axis}, "last": apply(size - 1) (shard and offset; TVM's
  apply does not expand replicas).
An integer is TVM's folded int64; a string is the expression TVM's folding
left unfolded because the value overflows int64 (T.int64(2) +
T.int64(9223372036854775807)): there mmacheck must give a located error.
"""
import json

import tvm_tirx
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes)
from tvm_tirx.ir.expr import IntImm
from tvm_tirx.tirx.layout import R, S, Axis, TileLayout

P62 = 4611686018427387904  # 2^62
MAX = 9223372036854775807  # 2^63 - 1

CASES = [
    # The example, and the operations on it.
    f"TileLayout(S[(2, 2) : ({P62}, 1)])",
    f"TileLayout(S[(2, 2) : ({P62}, 1)]).canonicalize()",
    f"TileLayout(S[(2, 2) : ({P62}, 1)]).tile_to([4, 2], [2, 2])",
    f"TileLayout(S[(2, 2) : ({P62}, 1)]).tile_to([8, 2], [2, 2])",  # strides fit, the span does not
    f"TileLayout(S[(2, 2, 2) : ({P62}, {P62 // 2}, 1)]).group([2, 4])",
    # 2^63 - 1 as a stride, an extent, an offset.
    f"TileLayout(S[(2, 2) : ({MAX}, 1)])",
    f"TileLayout(S[(2, 2) : ({MAX}, -1)])",
    f"TileLayout(S[{MAX}])",
    f"TileLayout(S[{MAX} : 1]).canonicalize()",
    f"TileLayout(S[4 : 1] + {MAX})",
    f"TileLayout(S[1 : 1] + {MAX - 1})",
    f"TileLayout(S[2 : {MAX}] + -{MAX})",
    # Terms of opposite signs cancel: the span and the last element are exact.
    f"TileLayout(S[(2, 2) : ({MAX}, -{MAX})])",
    f"TileLayout(S[(2, 2, 2) : (-{P62}, {P62}, {P62})])",
    f"TileLayout(S[(2, 2, 2) : ({P62}, {P62}, -{P62})])",
    f"TileLayout(S[(2, 2) : (-{P62}, 1)])",
    # Default (row-major) strides near 2^63, and past it.
    f"TileLayout(S[({P62}, 2)])",
    f"TileLayout(S[(2, {P62 // 2 - 1}, 2)])",
    f"TileLayout(S[(2, {P62}, 2)])",
    f"TileLayout(S[(2, {MAX})])",
    # Each operation whose arithmetic reaches 2^62 .. 2^63 - 1, or past it.
    f"TileLayout(S[4 : {P62 // 2}]).group([2, 2])",
    f"TileLayout(S[4 : {P62}]).group([2, 2])",
    f"TileLayout(S[(2, 2) : ({P62 // 2}, 1)]).unpack(2)",
    f"TileLayout(S[(2, 2) : ({P62}, 1)]).unpack(2)",
    f"TileLayout(S[2 : 1] + {P62}).unpack(2)",
    f"TileLayout(S[(2, 4) : ({P62}, 1)]).pack(2)",
    f"TileLayout(S[2 : 1]).tile(TileLayout(S[2 : {P62 // 2}]), [2], [2])",
    f"TileLayout(S[2 : 1]).tile(TileLayout(S[2 : {P62}]), [2], [2])",
    f"TileLayout(S[{P62 // 2} : 1]).tile_to([{P62}], [{P62 // 2}])",
    f"TileLayout(S[(2, 2) : ({P62 + 2}, {P62 // 2 + 1})]).canonicalize()",  # fused: 2 * (2^61 + 1) == 2^62 + 2
    f"TileLayout(S[(2, 3) : (1, {P62})]).canonicalize()",  # 3 * 2^62 is no int64 stride: not fused
    f"TileLayout(S[(2, 2) : ({MAX}, 1)]).canonicalize()",
    f"TileLayout(S[(2, 2) : ({MAX}, {P62})]).canonicalize()",  # TVM's analyzer takes 2^63 - 1 for infinity
    # Thread axes and replicas.
    f"TileLayout(S[(2, 32) : ({P62} @ laneid, 1 @ laneid)])",
    f"TileLayout(S[4 : 1] + R[2 : {P62} @ warpid])",
    f"TileLayout(S[(2, 32) : ({P62 // 32} @ warpid, 1 @ laneid)]).canonicalize()",
    f"TileLayout(S[(2, 32) : ({P62} @ warpid, 1 @ laneid)]).canonicalize()",
]
CUDA = {
    f"TileLayout(S[(2, 32) : ({P62 // 32} @ warpid, 1 @ laneid)]).canonicalize()",
    f"TileLayout(S[(2, 32) : ({P62} @ warpid, 1 @ laneid)]).canonicalize()",
}


def value(v):
    """TVM's folded int64, or the text of what its folding left."""
    return int(v) if isinstance(v, IntImm) else str(v)


def record(result):
    layout, seps = (result, None) if isinstance(result, TileLayout) else (result[0], result[1])  # group: (layout, seps)
    out = {
        "printed": str(layout),
        "shard": [[value(i.extent), value(i.stride), str(i.axis.name)] for i in layout.shard],
        "replica": [[value(i.extent), value(i.stride), str(i.axis.name)] for i in layout.replica],
        "offset": {str(k.name): value(v) for k, v in layout.offset.items()},
        "size": value(layout.size()),
    }
    axes = sorted({it[2] for it in out["shard"] + out["replica"]} | set(out["offset"]))
    out["span"] = {"": value(layout.span())} | {a: value(layout.span(a)) for a in axes}
    if seps is not None:
        out["seps"] = [int(s) for s in seps]
    if isinstance(out["size"], int):
        out["last"] = {str(k): value(v) for k, v in layout.apply(out["size"] - 1).items()}
    return out


def main():
    print(json.dumps({"generator": "scripts/tvm-oracle/large_layouts.py", "tvm": "apache-tvm-tirx 0.1.0a4",
                      "command": "/work/venv-tvm/bin/python scripts/tvm-oracle/large_layouts.py"}))
    env = {"S": S, "R": R, "TileLayout": TileLayout, "laneid": Axis.get("laneid"), "warpid": Axis.get("warpid")}
    for expr in CASES:
        cuda = expr in CUDA
        try:
            if cuda:
                with tvm_tirx.target.Target("cuda"):
                    res = record(eval(expr, env))  # noqa: S307  (our own fixed expressions)
            else:
                res = record(eval(expr, env))  # noqa: S307
        except Exception as e:  # noqa: BLE001
            msg = str(e).strip().splitlines()
            res = {"error": (msg[-1] if msg else type(e).__name__)[:300]}
        print(json.dumps({"expr": expr, "cuda": cuda, **res}))


if __name__ == "__main__":
    main()
