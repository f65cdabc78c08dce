#!/usr/bin/env python3
"""mmacheck's tcgen05.mma arithmetic against MMA-Sim 2.1.1's Blackwell TCGen05MMA.

The held set (tests/data/mmasim/tcgen05.sm_100.mmav) was made by:

    /tmp/venv-mmasim/bin/python scripts/mmasim/tcgen05_record.py --outputs 100000 --seed 1 \
        --record tests/data/mmasim/tcgen05.sm_100.mmav

For every cta_group::1 tcgen05.mma type row that both MMA-Sim and mmacheck
model (kind::f16 f32.f16.f16, f16.f16.f16, f32.bf16.bf16; kind::tf32
f32.tf32.tf32; kind::f8f6f4 f32 x {e4m3, e5m2, e3m2, e2m3, e2m1}^2), draws
edge-heavy random tiles (scripts/mmasim/edge_cases.py, every kind in turn)
at M = 64 and 128 and N = 8, 24 and 64, computes D with
`mmasim.nv_ptx.TCGen05MMA("Blackwell", shape)`, writes the cases as tcgen05
vectors and runs `mmacheck tcgen05-sim --vectors FILE` on them (the whole
simulated tcgen05.mma: shared-memory descriptors, TMEM, the sm_100 row).
Prints, per row, the outputs compared and those that differ.  MMA-Sim also
models an f16 D for kind::f8f6f4; mmacheck follows the ISA's Table 42 (F32
only) and leaves those rows out.

--record FILE writes the held set tests/test_tcgen05_sim.cc replays, kept
under about 1 MB: one case of each edge kind per kind::f16/tf32 row at
M = 64, N = 8; one case per f8f6f4 pair (the edge kinds in turn) at M = 64,
N = 8; one zeroterm case at M = 128, N = 8 of f32.f16.f16 and f32.e4m3.e2m1.

Needs `pip install mmasim==2.1.1 numpy` and CPU torch; the build needs none of it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
from mmasim.nv_ptx import TCGen05MMA

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import edge_cases as ec  # noqa: E402
from compare import to_torch  # noqa: E402

F8F6F4 = ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1")
# (kind, d, a, b)
ROWS = [("f16", "f32", "f16", "f16"), ("f16", "f16", "f16", "f16"), ("f16", "f32", "bf16", "bf16"),
        ("tf32", "f32", "tf32", "tf32")] + [("f8f6f4", "f32", a, b) for a in F8F6F4 for b in F8F6F4]
K = {"f16": 16, "tf32": 8, "f8f6f4": 32}
RESULT = re.compile(r"(\d+) passed, (\d+) failed \((\d+) outputs, (\d+) differ\)")


def shape(m, n, row):
    kind, d, a, b = row
    return f"m{m}n{n}k{K[kind]}.kind::{kind}.{d}.{a}.{b}"


def name(m, n, row):
    kind, d, a, b = row
    return f"tcgen05.mma.cta_group::1.kind::{kind}.m{m}n{n}k{K[kind]}.{d}.{a}.{b}"


def mmasim_d(m, n, row, A, B, C):
    kind, d, a, b = row
    op = TCGen05MMA("Blackwell", shape(m, n, row))
    at, bt, ct = to_torch(A, a), to_torch(B, b), to_torch(C, d)
    cases, _, k = at.shape
    av = at[:, :, None, :].expand(cases, m, n, k)
    bv = bt.transpose(1, 2)[:, None, :, :].expand(cases, m, n, k)
    out = op.dpa(av, bv, ct)
    store, mask = (torch.int16, 0xFFFF) if d == "f16" else (torch.int32, 0xFFFFFFFF)
    return out.view(store).numpy().astype(np.int64) & mask


def draw(rng, m, n, row, count, only=None):
    kind, d, a, b = row
    fa, fb, fc = ec.Fmt(a), ec.Fmt(b), ec.Fmt(d)
    names = only or ec.KINDS
    per = [count // len(names) + (i < count % len(names)) for i in range(len(names))]
    parts = [ec.batch(rng, kd, c, m, n, K[kind], fa, fb, fc) for kd, c in zip(names, per) if c]
    kinds = [kd for kd, c in zip(names, per) for _ in range(c)]
    A, B, C = (np.concatenate([p[i] for p in parts]) for i in range(3))
    return kinds, A, B, C, mmasim_d(m, n, row, A, B, C)


def text(m, n, row, kinds, A, B, C, D, first_id=0):
    _, d, a, b = row
    digits = tuple(ec.Fmt(t).digits for t in (a, b, d, d))
    return ec.mmav_text(name(m, n, row), kinds, A, B, C, D, digits, (), first_id)


def run_mmacheck(exe, body):
    with tempfile.NamedTemporaryFile("w", suffix=".mmav", delete=False) as f:
        f.write(body)
        path = f.name
    try:
        out = subprocess.run([exe, "tcgen05-sim", "--vectors", path, "--show", "5"], capture_output=True, text=True)
    finally:
        os.unlink(path)
    m = RESULT.search(out.stdout)
    if not m:
        sys.exit(f"mmacheck tcgen05-sim: {out.stdout}{out.stderr}")
    return out.stdout, [int(x) for x in m.groups()]


def held_cases(index, row):
    """The recorded cases of row `index`: (m, n, kinds or None, count) each."""
    if row[0] != "f8f6f4":
        plan = [(64, 8, None, len(ec.KINDS))]
    else:
        plan = [(64, 8, [ec.KINDS[index % len(ec.KINDS)]], 1)]
    if row[1:] in (("f32", "f16", "f16"), ("f32", "e4m3", "e2m1")):
        plan.append((128, 8, ["zeroterm"], 1))
    return plan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--outputs", type=int, default=100000, help="D elements per type row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mmacheck", default="build/bin/mmacheck")
    ap.add_argument("--record")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    total = [0, 0]
    recorded = []
    next_id = 0
    shapes = [(m, n) for m in (64, 128) for n in (8, 24, 64)]
    for index, row in enumerate(ROWS):
        compared = differ = 0
        for m, n in shapes:
            count = max(len(ec.KINDS), args.outputs // len(shapes) // (m * n))
            kinds, A, B, C, D = draw(rng, m, n, row, count)
            out, (_, _, outputs, wrong) = run_mmacheck(args.mmacheck, text(m, n, row, kinds, A, B, C, D))
            compared += outputs
            differ += wrong
            if wrong:
                print(out, end="")
        total[0] += compared
        total[1] += differ
        print(f"{name('M', 'N', row)}: {compared} outputs, {differ} differ")
        if args.record:
            for m, n, only, count in held_cases(index, row):
                kinds, A, B, C, D = draw(rng, m, n, row, count, only)
                recorded.append(text(m, n, row, kinds, A, B, C, D, first_id=next_id))
                next_id += count
    print(f"all rows: {total[0]} outputs, {total[1]} differ")
    if args.record:
        head = ("# mmacheck tcgen05 vectors, D from MMA-Sim 2.1.1 (Blackwell TCGen05MMA), not hardware\n"
                "# inputs: scripts/mmasim/edge_cases.py; made by: scripts/mmasim/tcgen05_record.py "
                f"--outputs {args.outputs} --seed {args.seed} --record {args.record}\n")
        with open(args.record, "w") as f:
            f.write(head + "".join(recorded))
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
