#!/usr/bin/env python3
"""Differential oracle: random TileLayouts and operation chains through the
released TVM TIRx (apache-tvm-tirx 0.1.0a4, CPU), recorded as JSON Lines for
tests/test_layout_tvm_oracle.cc.  Run outside the build:

    python3 -m venv /work/venv-tvm
    /work/venv-tvm/bin/pip install apache-tvm-tirx==0.1.0a4
    /work/venv-tvm/bin/python scripts/tvm-oracle/gen.py --cases 2400 --seed 1 \
        > tests/data/tvm/layout_oracle.jsonl

Each line is one case:
  {"id", "expr": mmacheck's layout expression (also TVM's spelling),
   "ops": the operation names, "cuda": canonicalized under a CUDA target,
   then either "error": TVM's message, or
   "shard"/"replica": [[extent, stride, axis]], "offset": {axis: v},
   "size", "span": {"": default span, axis: span}, "seps" (when the last
   operation is group), "map": [[flat index, {axis: value}]] (TVM's apply of
   the shard and offset; the C++ test expands replicas itself)}.
The first line is a header naming the generator, TVM's version and the command.
"""
import argparse
import json
import random
import sys

import tvm_tirx
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes)
from tvm_tirx.tirx.layout import R, S, Axis, TileLayout

THREAD = ["laneid", "warpid", "tx", "wgid", "tid_in_wg", "wid_in_wg", "bx"]
MEMORY = ["m", "P", "F", "Bank", "TCol", "TLane"]
EXTENTS = [1, 2, 2, 2, 3, 4, 4, 8]


class Gen:
    def __init__(self, rng):
        self.r = rng

    def axis(self, thread_bias=0.45):
        x = self.r.random()
        if x < 0.02:
            return "foo"  # not registered: TVM's canonicalize rejects it
        if x < thread_bias:
            # Mostly axes of one chain (laneid, warpid), sometimes any.
            if self.r.random() < 0.8:
                return self.r.choice(["laneid", "laneid", "warpid"])
            return self.r.choice(THREAD)
        if x < 0.9:
            return "m"
        return self.r.choice(MEMORY[1:])

    def iters(self, n, compact):
        """n iters; compact: strides make a bijection per axis (row-major)."""
        exts = [self.r.choice(EXTENTS) for _ in range(n)]
        axes = [self.axis() for _ in range(n)]
        out = []
        acc = {}
        for e, a in reversed(list(zip(exts, axes))):
            if compact:
                s = acc.get(a, 1)
                acc[a] = s * e
            else:
                s = self.r.choice([0, 1, 1, 2, 3, 4, 8, 16])
            out.append((e, s, a))
        out.reverse()
        if self.r.random() < 0.01:
            i = self.r.randrange(n)
            out[i] = (self.r.choice([0, -1]), out[i][1], out[i][2])  # TVM takes these
        return out

    def layout(self, max_iters=4):
        n = self.r.randint(1, max_iters)
        shard = [] if self.r.random() < 0.04 else self.iters(n, self.r.random() < 0.8)
        replica = []
        if self.r.random() < 0.15 or not shard:
            replica = [(self.r.choice([2, 4]), self.r.choice([1, 2, 4, 8]), self.r.choice(["laneid", "warpid", "tx", "m"]))
                       for _ in range(self.r.randint(1, 2))]
        offset = {}
        if self.r.random() < 0.15:
            for _ in range(self.r.randint(1, 2)):
                a = self.r.choice(["m", "laneid", "warpid", "m"])
                offset[a] = offset.get(a, 0) + self.r.randint(1, 8)
        return shard, replica, offset


def stride_text(s, a):
    if a == "foo":  # an unregistered axis is spelled as TVM's API spells it
        return f'{s} @ Axis.get("foo")'
    return str(s) if a == "m" else f"{s} @ {a}"


def layout_text(shard, replica, offset):
    def part(name, its):
        if len(its) == 1:
            e, s, a = its[0]
            return f"{name}[{e} : {stride_text(s, a)}]"
        return f"{name}[({', '.join(str(e) for e, _, _ in its)}) : ({', '.join(stride_text(s, a) for _, s, a in its)})]"
    terms = []
    if shard:
        terms.append(part("S", shard))
    if replica:
        terms.append(part("R", replica))
    for a, v in offset.items():
        terms.append(stride_text(v, a))
    return "TileLayout(" + " + ".join(terms) + ")"


def from_iters_text(shard, replica, offset):
    """The layout as TVM prints it: T.TileLayout.from_iters(...)."""
    its = lambda xs: "[" + ", ".join(f'T.Iter({e}, {s}, "{a}")' for e, s, a in xs) + "]"
    text = f"T.TileLayout.from_iters(shard={its(shard)}, replica={its(replica)}"
    if offset:
        text += ", offset={" + ", ".join(f'"{a}": {v}' for a, v in offset.items()) + "}"
    return text + ")"


# The examples, recorded first: (expression, cuda).
FIXED = [
    ("TileLayout(S[(4, 8) : (1 @ bx, 1 @ laneid)]).canonicalize()", False),
    ("TileLayout(S[(4, 8) : (1 @ tx, 1 @ laneid)]).canonicalize()", False),
    ("TileLayout(S[(4, 8) : (1 @ tx, 1 @ laneid)]).tile_to([8, 8], [4, 8])", False),
    ("TileLayout(S[(4, 8) : (1 @ tx, 1 @ laneid)]).tile(TileLayout(S[2 : 1]), [2, 1], [4, 8])", False),
    ("TileLayout(R[4 : 1 @ laneid])", False),
    ("TileLayout(R[4 : 1 @ laneid]).canonicalize()", False),
    ('TileLayout(S[(2, 8, 4, 2) : (2, 4 @ Axis.get("laneid"), 1 @ Axis.get("laneid"), 1)])', False),
    ('TileLayout(S[8 : 1 @ Axis.get("foo")]).canonicalize()', False),
    ('T.TileLayout.from_iters(shard=[T.Iter(2, 2, "m"), T.Iter(32, 1, "laneid"), T.Iter(2, 1, "m")], replica=[])', False),
    ("TileLayout(S[(4, 2) : (1 @ laneid, 1)]).unpack(2)", False),
    ("TileLayout(S[(4, 2) : (1 @ laneid, 1)]).unpack(2).pack(2)", False),
    ("TileLayout(S[(4, 2) : (2, 1)]).pack(2)", False),
    ("TileLayout(S[(4, 2) : (3, 1)]).pack(2)", False),
    ("TileLayout(S[(8, 4) : (4 @ laneid, 1 @ warpid)] + 3 @ laneid + 1 @ warpid).canonicalize()", True),
    ("TileLayout(S[(8, 4) : (4 @ laneid, 1 @ warpid)] + 1 @ warpid + 3 @ laneid).canonicalize()", True),
    ("TileLayout(S[(8, 4) : (4 @ laneid, 1 @ warpid)] + 3 @ laneid + 1 @ warpid).canonicalize()", False),
    ("TileLayout(S[(0, 4) : (4 @ laneid, 1 @ warpid)])", False),
    ("TileLayout(S[(2, 4) : (4 @ laneid, 1 @ warpid)]).tile_to([3, 4], [2, 4])", False),
    ("TileLayout(S[(2, 4) : (4 @ laneid, 1 @ warpid)]).permute_dims([0, 0])", False),
]


def run_fixed(case_id, text, cuda):
    env = {"S": S, "R": R, "TileLayout": TileLayout, "Axis": Axis, "T": tvm_tirx.tirx.layout}
    env["T"] = type("T", (), {"TileLayout": TileLayout, "Iter": __import__("tvm_tirx.tirx.layout", fromlist=["Iter"]).Iter})
    for a in THREAD + ["m"]:
        env[a] = Axis.get(a)
    base, ops = text, []
    for name in OPS:
        if f".{name}(" in text:
            ops.append(name)
    try:
        if cuda:
            with tvm_tirx.target.Target("cuda"):
                layout = eval(text, env)  # noqa: S307  (our own fixed expressions)
        else:
            layout = eval(text, env)  # noqa: S307
        res = record(layout)
    except Exception as e:  # noqa: BLE001
        msg = str(e).strip().splitlines()
        res = {"error": (msg[-1] if msg else type(e).__name__)[:300]}
    return {"id": case_id, "expr": base, "ops": ops, "cuda": cuda, **res}


def build(shard, replica, offset):
    """The TVM layout; iters through from_iters so that any extent is taken."""
    from tvm_tirx.tirx.layout import Iter
    mk = lambda its: [Iter(e, s, a) for e, s, a in its]
    return TileLayout.from_iters(shard=mk(shard), replica=mk(replica), offset=dict(offset) or None)


def shard_shape(layout):
    return [int(it.extent) for it in layout.shard]


def size_of(layout):
    n = 1
    for it in layout.shard:
        n *= int(it.extent)
    return n


def factor_shape(r, exts):
    """A logical shape grouping consecutive shard extents."""
    shape, cur = [], 1
    for i, e in enumerate(exts):
        cur *= e
        if r.random() < 0.5 or i == len(exts) - 1:
            shape.append(cur)
            cur = 1
    return shape or [1]


def record(layout):
    out = {
        "shard": [[int(i.extent), int(i.stride), str(i.axis.name)] for i in layout.shard],
        "replica": [[int(i.extent), int(i.stride), str(i.axis.name)] for i in layout.replica],
        "offset": {str(k.name if hasattr(k, "name") else k): int(v) for k, v in layout.offset.items()},
        "size": int(layout.size()),
    }
    axes = {a for _, _, a in out["shard"] + out["replica"]} | set(out["offset"])
    try:
        span = {"": int(layout.span())}
        for a in sorted(axes):
            span[a] = int(layout.span(a))
        out["span"] = span
    except Exception as e:  # noqa: BLE001  (an unregistered axis)
        out["span_error"] = str(e).strip().splitlines()[-1][:300]
        return out
    n = out["size"]
    if 0 < n <= 4096:
        idx = range(n) if n <= 256 else sorted(set([0, n - 1] + [(k * 2654435761) % n for k in range(128)]))
        owners = [{k: int(v) for k, v in layout.apply(i).items()} for i in idx]
        axes = sorted({a for o in owners for a in o})
        out["map_axes"] = axes
        out["map"] = [[i] + [o.get(a, 0) for a in axes] for i, o in zip(idx, owners)]
    return out


OPS = ["canonicalize", "tile_to", "tile", "group", "permute_by_groups", "permute_dims", "pack", "unpack"]


def step(g, layout, shape, name, cuda):
    """Random arguments for operation `name` fitting the current layout and
    logical shape; returns (spelled, run) where run() gives (layout, shape,
    seps) or raises TVM's error."""
    r = g.r
    cur = lambda l: factor_shape(r, shard_shape(l) or [1]) if all(e > 0 for e in shard_shape(l)) else [size_of(l)]
    if name == "canonicalize":
        def run():
            if cuda:
                with tvm_tirx.target.Target("cuda"):
                    return layout.canonicalize(), shape, None
            return layout.canonicalize(), shape, None
        return ".canonicalize()", run
    if name == "tile_to":
        to = [d * r.choice([1, 1, 2, 3, 4]) for d in shape]
        if r.random() < 0.03:
            to[0] += 1  # not a multiple: TVM takes it
        return f".tile_to({to}, {shape})", lambda: (layout.tile_to(to, shape), to, None)
    if name == "tile":
        oshard, _, _ = g.layout(max_iters=2)
        oshard = oshard or [(2, 1, "m")]
        total = 1
        for e, _, _ in oshard:
            total *= e
        oshape = [1] * len(shape)
        oshape[r.randrange(len(shape))] = total
        spelled = f".tile({layout_text(oshard, [], {})}, {oshape}, {shape})"
        return spelled, lambda: (layout.tile(build(oshard, [], {}), oshape, shape),
                                 [a * b for a, b in zip(oshape, shape)], None)
    if name == "group":
        gshape = shape if r.random() < 0.7 else cur(layout)
        def run():
            grouped, seps = layout.group(gshape)
            return grouped, list(gshape), [int(x) for x in seps]
        return f".group({gshape})", run
    if name == "permute_by_groups":
        n = len(layout.shard)
        cut = sorted(set([0, n] + [r.randint(0, n) for _ in range(r.randint(0, 2))]))
        perm = list(range(len(cut) - 1))
        r.shuffle(perm)
        def run():
            out = layout.permute_by_groups(cut, perm)
            return out, cur(out), None
        return f".permute_by_groups({cut}, {perm})", run
    if name == "permute_dims":
        perm = list(range(len(layout.shard)))
        r.shuffle(perm)
        if len(perm) > 1 and r.random() < 0.03:
            perm[0] = perm[-1]  # a repeated entry: TVM takes it
        def run():
            out = layout.permute_dims(perm)
            return out, cur(out), None
        return f".permute_dims({perm})", run
    n = r.choice([2, 2, 4])
    last = layout.shard[-1] if len(layout.shard) else None
    if name == "pack" and last is not None and r.random() < 0.7:
        n = next((k for k in (4, 2) if int(last.extent) % k == 0), n)  # mostly packable
    def run():
        out = getattr(layout, name)(n)
        return out, cur(out), None
    return f".{name}({n})", run


def run_case(g, case_id):
    r = g.r
    shard, replica, offset = g.layout()
    names = [r.choice(OPS) for _ in range(r.randint(0, 6))]
    cuda = not names and r.random() < 0.3
    if cuda:
        names = ["canonicalize"]
    # One case in ten spells the layout as TVM prints it.
    text = from_iters_text(shard, replica, offset) if r.random() < 0.1 and "foo" not in str(shard + replica) \
        else layout_text(shard, replica, offset)
    done = []
    seps = None
    try:
        layout = build(shard, replica, offset)
    except Exception as e:  # noqa: BLE001
        return None  # from_iters itself refused: nothing to compare
    exts = shard_shape(layout) or [1]
    shape = factor_shape(r, exts) if all(e > 0 for e in exts) else [max(1, size_of(layout))]
    try:
        for name in names:
            spelled, run = step(g, layout, shape, name, cuda)
            text += spelled
            done.append(name)
            layout, shape, seps = run()
        res = record(layout)
        if seps is not None:
            res["seps"] = seps
    except Exception as e:  # noqa: BLE001  (TVM raises RuntimeError, ValueError, AssertionError, ...)
        msg = str(e).strip().splitlines()
        res = {"error": (msg[-1] if msg else type(e).__name__)[:300]}
    return {"id": case_id, "expr": text, "ops": done, "cuda": cuda, **res}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    g = Gen(rng)
    print(json.dumps({"generator": "scripts/tvm-oracle/gen.py", "tvm": "apache-tvm-tirx 0.1.0a4",
                      "command": f"gen.py --cases {args.cases} --seed {args.seed}"}))
    written = 0
    case_id = 0
    for text, cuda in FIXED:
        print(json.dumps(run_fixed(case_id, text, cuda), separators=(",", ":")))
        case_id += 1
        written += 1
    while written < args.cases:
        case = run_case(g, case_id)
        case_id += 1
        if case is not None:
            print(json.dumps(case, separators=(",", ":")))
            written += 1


if __name__ == "__main__":
    sys.exit(main())
