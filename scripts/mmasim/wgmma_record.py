#!/usr/bin/env python3
"""mmacheck's wgmma arithmetic against MMA-Sim 2.1.1's Hopper WGMMA.

    /work/venv-numerics/bin/python scripts/mmasim/wgmma_record.py \
        [--outputs 200000] [--seed 1] [--mmacheck build/bin/mmacheck] \
        [--record tests/data/mmasim/wgmma.sm_90.mmav]

For every wgmma type row MMA-Sim models (f32.f16.f16, f16.f16.f16,
f32.bf16.bf16, f32.tf32.tf32, {f32,f16} x {e4m3,e5m2}^2), draws edge-heavy
random tiles (scripts/mmasim/edge_cases.py, every kind in turn) at N = 8, 16,
24 and 64, computes D with `mmasim.nv_ptx.WGMMA("Hopper", shape)`, writes the
cases as wgmma vectors and runs `mmacheck wgmma-sim --vectors FILE` on them
(the whole simulated wgmma: shared memory, descriptors, frames).  Prints,
per row, the outputs compared and those that differ.  --record FILE writes
one case of each kind per row at N = 8 and three zeroterm cases at N = 24 (the data
tests/test_wgmma_sim.cc replays).

Needs `pip install mmasim==2.1.1` (and CPU torch); the build needs none of it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
from mmasim.nv_ptx import WGMMA

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import edge_cases as ec  # noqa: E402
from compare import to_torch  # noqa: E402

K = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32}
ROWS = [("f32", "f16", "f16"), ("f16", "f16", "f16"), ("f32", "bf16", "bf16"), ("f32", "tf32", "tf32")] + [
    (d, a, b) for d in ("f32", "f16") for a in ("e4m3", "e5m2") for b in ("e4m3", "e5m2")]
RESULT = re.compile(r"(\d+) passed, (\d+) failed \((\d+) outputs, (\d+) differ\)")


def ptx(n, d, a, b):
    return f"wgmma.mma_async.sync.aligned.m64n{n}k{K[a]}.{d}.{a}.{b}"


def mmasim_d(n, d, a, b, A, B, C):
    op = WGMMA("Hopper", f"m64n{n}k{K[a]}.{d}.{a}.{b}")
    at, bt, ct = to_torch(A, a), to_torch(B, b), to_torch(C, d)
    cases, m, k = at.shape
    av = at[:, :, None, :].expand(cases, m, n, k)
    bv = bt.transpose(1, 2)[:, None, :, :].expand(cases, m, n, k)
    out = op.dpa(av, bv, ct)
    store, mask = (torch.int16, 0xFFFF) if d == "f16" else (torch.int32, 0xFFFFFFFF)
    return out.view(store).numpy().astype(np.int64) & mask


def draw(rng, n, d, a, b, count, only=None):
    fa, fb, fc = ec.Fmt(a), ec.Fmt(b), ec.Fmt(d)
    names = only or ec.KINDS
    per = [count // len(names) + (i < count % len(names)) for i in range(len(names))]
    parts = [ec.batch(rng, kind, c, 64, n, K[a], fa, fb, fc) for kind, c in zip(names, per) if c]
    kinds = [kind for kind, c in zip(names, per) for _ in range(c)]
    A, B, C = (np.concatenate([p[i] for p in parts]) for i in range(3))
    return kinds, A, B, C, mmasim_d(n, d, a, b, A, B, C)


def text(n, row, kinds, A, B, C, D, first_id=0, comments=()):
    d, a, b = row
    digits = tuple(ec.Fmt(t).digits for t in (a, b, d, d))
    return ec.mmav_text(ptx(n, *row), kinds, A, B, C, D, digits, comments, first_id)


def run_mmacheck(exe, body):
    with tempfile.NamedTemporaryFile("w", suffix=".mmav", delete=False) as f:
        f.write(body)
        path = f.name
    try:
        out = subprocess.run([exe, "wgmma-sim", "--vectors", path, "--show", "5"], capture_output=True, text=True)
    finally:
        os.unlink(path)
    m = RESULT.search(out.stdout)
    if not m:
        sys.exit(f"mmacheck wgmma-sim: {out.stdout}{out.stderr}")
    return out.stdout, [int(x) for x in m.groups()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--outputs", type=int, default=200000, help="D elements per type row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mmacheck", default="build/bin/mmacheck")
    ap.add_argument("--record")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    total = [0, 0]
    recorded = []
    for row in ROWS:
        compared = differ = 0
        for n in (8, 16, 24, 64):
            count = max(len(ec.KINDS), args.outputs // 4 // (64 * n))
            kinds, A, B, C, D = draw(rng, n, *row, count)
            out, (_, _, outputs, wrong) = run_mmacheck(args.mmacheck, text(n, row, kinds, A, B, C, D))
            compared += outputs
            differ += wrong
            if wrong:
                print(out, end="")
        total[0] += compared
        total[1] += differ
        print(f"{ptx('N', *row)}: {compared} outputs, {differ} differ")
        if args.record:
            for n, count, only in ((8, len(ec.KINDS), None), (24, 3, ["zeroterm"])):
                kinds, A, B, C, D = draw(rng, n, *row, count, only)
                recorded.append(text(n, row, kinds, A, B, C, D, first_id=len(recorded) * 100))
    print(f"all rows: {total[0]} outputs, {total[1]} differ")
    if args.record:
        head = ("# mmacheck wgmma vectors, D from MMA-Sim 2.1.1 (Hopper WGMMA), not hardware\n"
                "# inputs: scripts/mmasim/edge_cases.py, 1 case of each kind per row at N = 8, 3 zeroterm at N = 24; made by: "
                f"scripts/mmasim/wgmma_record.py --outputs {args.outputs} --seed {args.seed} --record {args.record}\n")
        with open(args.record, "w") as f:
            f.write(head + "".join(recorded))
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
