#!/usr/bin/env python3
"""Differential oracle for TIRx's swizzle composition: random
ComposeLayout(per_element, swizzle_len, atom_len, TileLayout(...)[, inner])
expressions and chains of the operations a ComposeLayout has (canonicalize,
tile_to, tile, pack, unpack; and some it has not), through the released TVM
TIRx (apache-tvm-tirx 0.1.0a4, CPU), recorded as JSON Lines for
tests/test_layout_compose_oracle.cc.  Run outside the build:

    python3 -m venv /work/venvs/tvm && /work/venvs/tvm/bin/pip install apache-tvm-tirx==0.1.0a4
    /work/venvs/tvm/bin/python scripts/tvm-oracle/compose.py --cases 400 --seed 1 \
        > tests/data/tvm/compose_oracle.jsonl

Each line is one case:
  {"id", "expr": the expression (mmacheck's spelling is TVM's), "ops",
   then either "error": TVM's message, or
   "kind": "compose" with "swizzle": [per_element, swizzle_len, atom_len, inner],
     or "kind": "tile" (an operation that gave a TileLayout),
   "shard"/"replica": [[extent, stride, axis]], "offset": {axis: v} (the tile
   layout), "size", "span" (the default span; TVM takes no axis here), and
   "map": [[flat index, m]] (TVM's apply) or "apply_error" (TVM's apply
   refuses: the tile layout names an axis other than m)}.
The first line is a header naming the generator, TVM's version and the command.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402  (the TileLayout oracle's random layouts and spellings)
from gen import Gen, layout_text  # noqa: E402

import tvm_tirx  # noqa: E402,F401
import tvm_tirx.backend.cuda  # noqa: E402,F401
from tvm_tirx.tirx.layout import Axis, ComposeLayout, R, S, TileLayout  # noqa: E402

OPS = ["canonicalize", "tile_to", "tile", "pack", "unpack"]
ABSENT = ["group", "storage", "permute_dims"]  # TileLayout's, not ComposeLayout's: TVM raises

# The example and edge cases, recorded first.
FIXED = [
    "ComposeLayout(3, 3, 3, TileLayout(S[8 : 1]))",
    "ComposeLayout(3, 3, 3, TileLayout(S[(8, 64) : (64, 1)]))",
    "ComposeLayout(3, 3, 3, TileLayout(S[(8, 64) : (64, 1)])).canonicalize()",
    "ComposeLayout(3, 3, 3, TileLayout(S[(8, 64) : (64, 1)])).tile_to([16, 64], [8, 64])",
    "ComposeLayout(0, 2, 3, TileLayout(S[(8, 8) : (8, 1)]))",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)]), False)",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)]), swizzle_inner=False)",
    "ComposeLayout(per_element=1, swizzle_len=2, atom_len=3, tile_layout=TileLayout(S[(8, 4) : (2, 16)]))",
    "ComposeLayout(3, 4, 3, TileLayout(S[(8, 64) : (64, 1)]))",
    "ComposeLayout(-1, 2, 3, TileLayout(S[(8, 64) : (64, 1)]))",
    "ComposeLayout(0, 0, 0, TileLayout(S[(8, 64) : (64, 1)]))",
    "ComposeLayout(2, 2, 2, TileLayout(S[(8, 4) : (-2, 16)]))",
    "ComposeLayout(3, 3, 3, TileLayout(S[(8, 4) : (1 @ laneid, 1)]))",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)] + R[2 : 1 @ laneid] + 5))",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)])).pack(2)",
    "ComposeLayout(0, 2, 3, TileLayout(S[(8, 4) : (4, 1)])).pack(2)",
    "ComposeLayout(3, 2, 3, TileLayout(S[(8, 4) : (4, 1)])).pack(4)",
    "ComposeLayout(3, 2, 3, TileLayout(S[(8, 6) : (6, 1)])).pack(3)",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)])).unpack(4)",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)])).unpack(3)",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)])).tile(TileLayout(S[(2, 2) : (1 @ laneid, 1)]), [2, 2], [8, 4])",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)])).tile_to([16, 8], [8, 3])",
    "ComposeLayout(1, 2, 3, TileLayout(S[(8, 4) : (2, 16)])).storage()",
    "ComposeLayout(1, 2, 3, S[(8, 4) : (2, 16)])",
    "ComposeLayout(3, 3, 3, ComposeLayout(3, 3, 3, TileLayout(S[8 : 1])))",
    "TileLayout(S[2 : 1]).tile(ComposeLayout(3, 3, 3, TileLayout(S[(8, 64) : (64, 1)])), [2, 1], [8, 64])",
    "ComposeLayout(1, 2, 3)",
]


def env():
    e = {"S": S, "R": R, "TileLayout": TileLayout, "ComposeLayout": ComposeLayout, "Axis": Axis}
    for a in gen.THREAD + gen.MEMORY:
        e[a] = Axis.get(a)
    return e


def iters(its):
    return [[int(i.extent), int(i.stride), str(i.axis.name)] for i in its]


def record(layout):
    if isinstance(layout, ComposeLayout):
        tile = layout.tile_layout
        out = {"kind": "compose",
               "swizzle": [int(layout.per_element), int(layout.swizzle_len), int(layout.atom_len),
                           bool(layout.swizzle_inner)]}
    else:
        tile, out = layout, {"kind": "tile"}
    out["shard"] = iters(tile.shard)
    out["replica"] = iters(tile.replica)
    out["offset"] = {str(k.name if hasattr(k, "name") else k): int(v) for k, v in tile.offset.items()}
    out["size"] = int(layout.size())
    try:
        out["span"] = int(layout.span())
    except Exception as e:  # noqa: BLE001  (an unregistered axis)
        out["span_error"] = str(e).strip().splitlines()[-1][:300]
    n = out["size"]
    if isinstance(layout, ComposeLayout) and 0 < n <= 4096:
        idx = range(n) if n <= 256 else sorted(set([0, n - 1] + [(k * 2654435761) % n for k in range(128)]))
        try:
            out["map"] = [[i, int(layout.apply(i)["m"])] for i in idx]
        except Exception as e:  # noqa: BLE001
            out["apply_error"] = (str(e).strip().splitlines() or [type(e).__name__])[-1][:300]
    return out


def error_of(e):
    msg = str(e).strip().splitlines()
    return (msg[-1] if msg else type(e).__name__)[:300]


def evaluate(text):
    try:
        return record(eval(text, env()))  # noqa: S307  (our own generated expressions)
    except Exception as e:  # noqa: BLE001  (TVM raises TypeError, ValueError, AssertionError, ...)
        return {"error": error_of(e)}


class ComposeGen:
    def __init__(self, rng):
        self.r = rng
        self.g = Gen(rng)

    def base(self):
        r = self.r
        if r.random() < 0.75:  # memory-only on m: TVM's apply takes it
            n = r.randint(1, 3)
            shard = self.g.iters(n, r.random() < 0.7)
            shard = [(e, s, "m") for e, s, _ in shard]
            offset = {"m": r.randint(1, 40)} if r.random() < 0.2 else {}
            replica = [(2, r.choice([1, 4]), "m")] if r.random() < 0.05 else []
        else:
            shard, replica, offset = self.g.layout(max_iters=3)
        return shard, replica, offset

    def swizzle(self):
        r = self.r
        sl = r.choice([0, 1, 2, 2, 3, 3])
        pe = r.choice([0, 0, 1, 2, 3, 3, 4]) if r.random() > 0.02 else -1
        al = sl + r.choice([0, 0, 1, 1, 2, 3]) if r.random() > 0.02 else max(0, sl - 1)
        inner = r.choice(["", "", "", ", False", ", True", ", swizzle_inner=False"])
        return pe, sl, al, inner

    def step(self, shape, size):
        r = self.r
        name = r.choice(OPS) if r.random() > 0.05 else r.choice(ABSENT)
        if name == "canonicalize":
            return name, ".canonicalize()", shape
        if name == "tile_to":
            to = [d * r.choice([1, 2, 3, 4]) for d in shape]
            return name, f".tile_to({to}, {shape})", to
        if name == "tile":
            oshard, _, _ = self.g.layout(max_iters=2)
            oshard = oshard or [(2, 1, "m")]
            total = 1
            for e, _, _ in oshard:
                total *= e
            oshape = [1] * len(shape)
            oshape[r.randrange(len(shape))] = total
            return name, f".tile({layout_text(oshard, [], {})}, {oshape}, {shape})", [a * b for a, b in zip(oshape, shape)]
        if name in ("pack", "unpack"):
            n = r.choice([2, 2, 4, 8]) if r.random() > 0.05 else 3
            return name, f".{name}({n})", [size]
        if name == "group":
            return name, f".group({shape})", shape
        return name, f".{name}()" if name == "storage" else f".{name}([0])", shape


def case(cg, case_id):
    r = cg.r
    shard, replica, offset = cg.base()
    pe, sl, al, inner = cg.swizzle()
    text = f"ComposeLayout({pe}, {sl}, {al}, {layout_text(shard, replica, offset)}{inner})"
    try:
        layout = eval(text, env())  # noqa: S307
    except Exception:  # noqa: BLE001
        layout = None
    size = max(1, int(layout.size())) if layout is not None else 1
    exts = [e for e, _, _ in shard if e > 0] or [1]
    shape = gen.factor_shape(r, exts) if all(e > 0 for e, _, _ in shard) and shard else [size]
    ops = []
    for _ in range(r.choice([0, 1, 1, 2, 3])):
        name, spelled, shape = cg.step(shape, size)
        text += spelled
        ops.append(name)
        try:
            size = max(1, int(eval(text, env()).size()))  # noqa: S307
        except Exception:  # noqa: BLE001
            break
    return {"id": case_id, "expr": text, "ops": ops, **evaluate(text)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cg = ComposeGen(random.Random(args.seed))
    print(json.dumps({"generator": "scripts/tvm-oracle/compose.py", "tvm": "apache-tvm-tirx 0.1.0a4",
                      "command": f"compose.py --cases {args.cases} --seed {args.seed}"}))
    case_id = 0
    for text in FIXED:
        print(json.dumps({"id": case_id, "expr": text, "ops": [], **evaluate(text)}, separators=(",", ":")))
        case_id += 1
    while case_id < args.cases:
        print(json.dumps(case(cg, case_id), separators=(",", ":")))
        case_id += 1


if __name__ == "__main__":
    sys.exit(main())
