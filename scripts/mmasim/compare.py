#!/usr/bin/env python3
"""mmacheck against MMA-Sim 2.1.1, architecture by architecture.

    /work/venv-numerics/bin/python scripts/mmasim/compare.py \
        [--arch sm_90 ...] [--variant m16n8k4.tf32 ...] [--outputs 1000000] \
        [--seed 1] [--mmacheck build/bin/mmacheck] [--shrink 3] [--record tests/data/mmasim]

For each architecture row of mmacheck (`--arch`, default all) and each
instruction both model there, draws edge-heavy random tiles
(scripts/mmasim/edge_cases.py, every kind in turn), computes D with
MMA-Sim (`mmasim.nv_ptx.MMA(family, shape)`), writes the cases as .mmav and
runs `mmacheck mma --vectors FILE --arch ARCH` on them.  Prints, per
variant, the outputs compared and those that differ, and shrinks up to
--shrink differing outputs to a minimal case (one output; elements zeroed
and fractions cut while the two still differ).  --record DIR writes, per
architecture, DIR/ARCH.mmav: --record-per-kind cases (1) of each kind per variant, labelled
with MMA-Sim's D (tests/test_mmasim_vectors.cc replays them).

    compare.py --check-vectors FILE.mmav --arch sm_90
compares MMA-Sim with the D recorded in a vector file (an H200 capture).

m8n8k4 with f16 inputs (sm_70, and sm_75 with Volta's settings) computes
four independent products per warp, one per quad pair: each case draws four
products of one kind, MMA-Sim computes each on its own, and the .mmav case
holds them stacked along the rows as mmacheck's tiles do (A 32x4, B 16x8, C
and D 32x8; core/gemm/ptx_frame.h); zeroterm aims at Volta's zero terms.

Needs `pip install mmasim==2.1.1` (and CPU torch) in its own venv; the
build needs none of it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
from mmasim.nv_ptx import MMA
from mmasim.nv_ptx.isa_mma import mma_shape_and_type

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import edge_cases as ec  # noqa: E402

FAMILY = {"sm_70": "Volta", "sm_75": "Turing", "sm_80": "Ampere", "sm_86": "Ampere", "sm_87": "Ampere", "sm_89": "Ada Lovelace",
          "sm_90": "Hopper", "sm_100": "Blackwell", "sm_120": "RTX Blackwell"}
# tag: (shape, d, a, b, c)
VARIANTS = {
    "m16n8k16.f16": ("m16n8k16", "f32", "f16", "f16", "f32"),
    "m16n8k8.f16": ("m16n8k8", "f32", "f16", "f16", "f32"),
    "m16n8k16.f16.f16acc": ("m16n8k16", "f16", "f16", "f16", "f16"),
    "m16n8k8.f16.f16acc": ("m16n8k8", "f16", "f16", "f16", "f16"),
    "m16n8k16.bf16": ("m16n8k16", "f32", "bf16", "bf16", "f32"),
    "m16n8k8.bf16": ("m16n8k8", "f32", "bf16", "bf16", "f32"),
    "m16n8k8.tf32": ("m16n8k8", "f32", "tf32", "tf32", "f32"),
    "m16n8k4.tf32": ("m16n8k4", "f32", "tf32", "tf32", "f32"),
    "m16n8k32.e4m3": ("m16n8k32", "f32", "e4m3", "e4m3", "f32"),
    "m16n8k32.e5m2": ("m16n8k32", "f32", "e5m2", "e5m2", "f32"),
    "m8n8k4.f64": ("m8n8k4", "f64", "f64", "f64", "f64"),
    "m16n8k4.f64": ("m16n8k4", "f64", "f64", "f64", "f64"),
    "m16n8k8.f64": ("m16n8k8", "f64", "f64", "f64", "f64"),
    "m16n8k16.f64": ("m16n8k16", "f64", "f64", "f64", "f64"),
}
# fp8 with mixed types, f16 accumulators and k16 (mmacheck's tags, core/gemm/mma_inst.cc).
for _k in (32, 16):
    for _d in ("f32", "f16"):
        for _a in ("e4m3", "e5m2"):
            for _b in ("e4m3", "e5m2"):
                _tag = f"m16n8k{_k}.{_a}" + ("" if _a == _b else f".{_b}") + (".f16acc" if _d == "f16" else "")
                VARIANTS.setdefault(_tag, (f"m16n8k{_k}", _d, _a, _b, _d))
# sm_120's kind::f8f6f4: the kind goes after the shape in both names.
KIND = {}
for _d in ("f32", "f16"):
    for _a in ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1"):
        for _b in ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1"):
            _tag = f"m16n8k32.f8f6f4.{_a}.{_b}" + (".f16acc" if _d == "f16" else "")
            VARIANTS[_tag] = ("m16n8k32", _d, _a, _b, _d)
            KIND[_tag] = "f8f6f4"
# m8n8k4 with f16 inputs (sm_70; sm_75 runs it with Volta's settings): both
# layouts of A and B, the three type forms MMA-Sim has.  A warp computes four
# independent products (one per quad pair); mmacheck's tiles stack them along
# the rows (core/gemm/ptx_frame.h), MMA-Sim computes each on its own.
LAYOUT = {}
PRODUCTS = {}
for _form, (_d, _c) in {"": ("f32", "f32"), ".f16acc": ("f16", "f16"), ".f16c": ("f32", "f16")}.items():
    for _al in ("row", "col"):
        for _bl in ("row", "col"):
            _tag = f"m8n8k4.f16{_form}.{_al}.{_bl}"
            VARIANTS[_tag] = ("m8n8k4", _d, "f16", "f16", _c)
            LAYOUT[_tag] = (_al, _bl)
            PRODUCTS[_tag] = 4
# Volta's zero terms (MMA-Sim's e_zero), where zeroterm aims for these.
VOLTA_ZERO = {"f16": (-19, -20), "f32": (-131, -132)}
# MMA-Sim models fp8 only where it is native (Ada Lovelace, RTX Blackwell), so
# its family lists decide; the sm_90 emulation is checked against the H200.
NO_MODEL = set()
TORCH = {"f16": (torch.int16, torch.float16), "bf16": (torch.int16, torch.bfloat16),
         "tf32": (torch.int32, torch.float32), "f32": (torch.int32, torch.float32),
         "e4m3": (torch.uint8, torch.float8_e4m3fn), "e5m2": (torch.uint8, torch.float8_e5m2),
         "f64": (torch.int64, torch.float64),
         "e3m2": (torch.uint8, torch.uint8), "e2m3": (torch.uint8, torch.uint8), "e2m1": (torch.uint8, torch.uint8)}
MISMATCH = re.compile(r"case (\d+) \((\w*)\) D\[(\d+)\]\[(\d+)\]: expected (0x[0-9a-f]+).*got (0x[0-9a-f]+)")


def kind(tag):
    return f".kind::{KIND[tag]}" if tag in KIND else ""


def ptx_name(tag):
    shape, d, a, b, c = VARIANTS[tag]
    al, bl = LAYOUT.get(tag, ("row", "col"))
    return f"mma.sync.aligned.{shape}.{al}.{bl}{kind(tag)}.{d}.{a}.{b}.{c}"


def products(tag):
    return PRODUCTS.get(tag, 1)


def stack(tag, x):
    """Per-product tiles [cases * P, r, c] as mmacheck's stacked tiles [cases, P * r, c]."""
    p = products(tag)
    return x.reshape(x.shape[0] // p, p * x.shape[1], x.shape[2])


def unstack(tag, x):
    p = products(tag)
    return x.reshape(x.shape[0] * p, x.shape[1] // p, x.shape[2])


def mmasim_name(tag):
    shape, d, a, b, c = VARIANTS[tag]
    return f"{shape}{kind(tag)}.{d}.{a}.{b}.{c}"


def mnk(tag):
    m, rest = VARIANTS[tag][0][1:].split("n")
    n, k = rest.split("k")
    return int(m), int(n), int(k)


def to_torch(bits, fmt):
    store, dtype = TORCH[fmt]
    width = {torch.int16: np.int16, torch.int32: np.int32, torch.uint8: np.uint8, torch.int64: np.int64}[store]
    return torch.from_numpy(bits.astype(np.uint64).astype(width)).view(dtype)


def mmasim_d(arch, tag, a, b, c):
    shape, d, ta, tb, tc = VARIANTS[tag]
    op = MMA(FAMILY[arch], mmasim_name(tag))
    at, bt, ct = to_torch(a, ta), to_torch(b, tb), to_torch(c, tc)
    n, m, k = at.shape
    nn = bt.shape[2]
    av = at[:, :, None, :].expand(n, m, nn, k)
    bv = bt.transpose(1, 2)[:, None, :, :].expand(n, m, nn, k)
    out = op.dpa(av, bv, ct)
    if d == "f64":
        return out.view(torch.int64).numpy().astype(np.int64)
    mask = 0xFFFF if d == "f16" else 0xFFFFFFFF
    store = torch.int16 if d == "f16" else torch.int32
    return out.view(store).numpy().astype(np.int64) & mask


def multi_nan_cases(tag, A, B, C):
    """f64 cases in which some output's fma chain meets two or more NaN
    operands: which payload survives is x86's choice in MMA-Sim (its CPU
    fma), not a tensor core's, so these are left to the H200 captures."""
    fmt = ec.Fmt("f64")
    nan = lambda w: (w & np.int64(0x7FFFFFFFFFFFFFFF)) > np.int64(0x7FF0000000000000)
    na = nan(A).sum(axis=2)[:, :, None]   # per row of A
    nb = nan(B).sum(axis=1)[:, None, :]   # per column of B
    return ((na + nb + nan(C)) >= 2).any(axis=(1, 2))


def digits(tag):
    _, d, a, b, c = VARIANTS[tag]
    return tuple(ec.Fmt(t).digits for t in (a, b, c, d))


def run_mmacheck(exe, arch, text):
    with tempfile.NamedTemporaryFile("w", suffix=".mmav", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([exe, "mma", "--vectors", path, "--arch", arch, "--show", "100000000"],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode not in (0, 1):
        raise SystemExit(f"mmacheck failed ({r.returncode}): {r.stderr.strip()}")
    return [(int(m[1]), int(m[3]), int(m[4]), int(m[5], 16), int(m[6], 16)) for m in MISMATCH.finditer(r.stdout)]


def draw(rng, tag, n):
    """n cases, the kinds in turn: (kinds, A, B, C), A..C per product (n * products(tag))."""
    m, nn, k = mnk(tag)
    _, d, ta, tb, tc = VARIANTS[tag]
    fa, fb, fc = ec.Fmt(ta), ec.Fmt(tb), ec.Fmt(tc)
    p = products(tag)
    zero = VOLTA_ZERO[d] if p > 1 else None
    per = [n // len(ec.KINDS) + (i < n % len(ec.KINDS)) for i in range(len(ec.KINDS))]
    parts = [ec.batch(rng, kind, cnt * p, m, nn, k, fa, fb, fc, zero) for kind, cnt in zip(ec.KINDS, per) if cnt]
    kinds = [kind for kind, cnt in zip(ec.KINDS, per) for _ in range(cnt)]
    A, B, C = (np.concatenate([p[i] for p in parts]) for i in range(3))
    if ta == "f64":
        keep = ~multi_nan_cases(tag, A, B, C)
        kinds = [kd for kd, kp in zip(kinds, keep) if kp]
        A, B, C = A[keep], B[keep], C[keep]
    return kinds, A, B, C


def shrink(exe, arch, tag, a_row, b_col, c):
    """A minimal single-output case on which MMA-Sim and mmacheck differ."""
    m, nn, k = mnk(tag)
    _, d, ta, tb, tc = VARIANTS[tag]
    fmts = [ec.Fmt(ta)] * k + [ec.Fmt(tb)] * k + [ec.Fmt(tc)]
    cur = np.concatenate([a_row, b_col, [c]]).astype(np.int64)

    p = products(tag)

    def tiles(vectors):  # per product; case i's is product i * p, the others zero
        n = len(vectors) * p
        A = np.zeros((n, m, k), np.int64)
        B = np.zeros((n, k, nn), np.int64)
        C = np.zeros((n, m, nn), np.int64)
        for i, v in enumerate(vectors):
            A[i * p, 0, :], B[i * p, :, 0], C[i * p, 0, 0] = v[:k], v[k:2 * k], v[2 * k]
        return A, B, C

    def failing(vectors):
        A, B, C = tiles(vectors)
        D = mmasim_d(arch, tag, A, B, C)
        text = ec.mmav_text(ptx_name(tag), ["shrink"] * len(vectors), *(stack(tag, x) for x in (A, B, C, D)),
                            digits(tag))
        bad = {cid for cid, r, col, _, _ in run_mmacheck(exe, arch, text) if r == 0 and col == 0}
        return bad, D

    while True:
        cands = []
        for i, w in enumerate(cur):
            if w == 0:
                continue
            z = cur.copy()
            z[i] = 0
            cands.append(z)
            f = fmts[i]
            low = (1 << (f.m + f.low)) - 1
            if w & low & ~(1 << (f.m + f.low - 1)):
                t = cur.copy()
                t[i] = w & ~low | (w & (1 << (f.m + f.low - 1)))  # keep only the top fraction bit
                cands.append(t)
        bad, _ = failing(cands) if cands else (set(), None)
        if not bad:
            break
        cur = cands[min(bad)]
    bad, D = failing([cur])
    A, B, C = tiles([cur])
    got = run_mmacheck(exe, arch, ec.mmav_text(ptx_name(tag), ["x"], *(stack(tag, x) for x in (A, B, C, D)),
                                               digits(tag)))
    terms = [(j, int(cur[j]), int(cur[k + j])) for j in range(k) if cur[j] or cur[k + j]]
    return terms, int(cur[2 * k]), int(D[0, 0, 0]), (got[0][4] if got else None)


def compare(args, arch, tag, rng, record):
    m, nn, k = mnk(tag)
    p = products(tag)
    per_case = p * m * nn
    cases = -(-args.outputs // per_case)
    chunk = max(1, 262144 // (per_case * k // 4))
    total = differ = 0
    shrunk = []
    t0 = time.time()
    for start in range(0, cases, chunk):
        n = min(chunk, cases - start)
        kinds, A, B, C = draw(rng, tag, n)
        D = mmasim_d(arch, tag, A, B, C)
        text = ec.mmav_text(ptx_name(tag), kinds, *(stack(tag, x) for x in (A, B, C, D)), digits(tag), first_id=0)
        bad = run_mmacheck(args.mmacheck, arch, text)
        total += n * per_case
        differ += len(bad)
        for cid, r, col, want, got in bad:
            if len(shrunk) < args.shrink:
                q, r = cid * p + r // m, r % m  # the product and its row
                terms, c, dm, dg = shrink(args.mmacheck, arch, tag, A[q, r, :], B[q, :, col], C[q, r, col])
                shrunk.append((kinds[cid], terms, c, dm, dg))
        if start == 0 and record is not None:
            keep = [i for kind in ec.KINDS for i in [j for j, kk in enumerate(kinds) if kk == kind][:args.record_per_kind]]
            rows = [i * p + j for i in keep for j in range(p)]
            record.append(ec.mmav_text(ptx_name(tag), [kinds[i] for i in keep],
                                       *(stack(tag, x[rows]) for x in (A, B, C, D)), digits(tag),
                                       first_id=len(record) * 100))
    print(f"{arch} {tag}: {total} outputs, {differ} differ ({time.time() - t0:.0f} s)", flush=True)
    for kind, terms, c, dm, dg in shrunk:
        t = ", ".join(f"k{j}: a={a:#x} b={b:#x}" for j, a, b in terms)
        print(f"  minimal ({kind}): {t}; c={c:#x} -> MMA-Sim {dm:#x}, mmacheck {dg if dg is None else hex(dg)}")
    return total, differ


def check_vectors(args):
    """MMA-Sim against the D of recorded vector files."""
    text = open(args.check_vectors).read()
    blocks = re.split(r"^instr ", text, flags=re.M)[1:]
    for arch in args.arch:
        for block in blocks:
            ptx = block.split("\n", 1)[0].strip()
            tag = next(t for t in VARIANTS if ptx_name(t) == ptx)
            m, nn, k = mnk(tag)
            rows = re.findall(r"^A (.*)\nB (.*)\nC (.*)\nD (.*)$", block, flags=re.M)
            parse = lambda s: np.array([int(w, 16) for w in s.split()], np.int64)
            p = products(tag)
            A = unstack(tag, np.stack([parse(r[0]).reshape(p * m, k) for r in rows]))
            B = unstack(tag, np.stack([parse(r[1]).reshape(p * k, nn) for r in rows]))
            C = unstack(tag, np.stack([parse(r[2]).reshape(p * m, nn) for r in rows]))
            D = unstack(tag, np.stack([parse(r[3]).reshape(p * m, nn) for r in rows]))
            got = mmasim_d(arch, tag, A, B, C)
            print(f"{args.check_vectors} {ptx} on {arch}: {D.size} outputs, {(got != D).sum()} differ from MMA-Sim")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--arch", nargs="+", default=list(FAMILY))
    p.add_argument("--variant", nargs="+", default=list(VARIANTS))
    p.add_argument("--outputs", type=int, default=1_000_000, help="outputs per variant and architecture")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mmacheck", default="build/bin/mmacheck")
    p.add_argument("--shrink", type=int, default=3, help="differing outputs to shrink per variant")
    p.add_argument("--record", help="folder for ARCH.mmav subsets labelled by MMA-Sim")
    p.add_argument("--record-per-kind", type=int, default=1, help="recorded cases of each kind per variant")
    p.add_argument("--check-vectors", help="compare MMA-Sim with this vector file's D instead")
    args = p.parse_args()
    torch.set_num_threads(1)
    if args.check_vectors:
        return check_vectors(args)
    grand = {}
    for arch in args.arch:
        record = [] if args.record else None
        rng = np.random.default_rng([args.seed, int(arch[3:])])
        for tag in args.variant:
            if mmasim_name(tag) not in mma_shape_and_type[FAMILY[arch]] or (tag, arch) in NO_MODEL:
                continue
            grand[(arch, tag)] = compare(args, arch, tag, rng, record)
        if record:
            os.makedirs(args.record, exist_ok=True)
            cmd = "scripts/mmasim/compare.py " + " ".join(sys.argv[1:])
            header = (f"# mmacheck test vectors, format mmav-1, D from MMA-Sim 2.1.1 ({FAMILY[arch]}), not hardware\n"
                      f"# inputs: scripts/mmasim/edge_cases.py, {args.record_per_kind} case(s) of each kind per variant; "
                      f"made by: {cmd}\n")
            with open(os.path.join(args.record, f"{arch}.mmav"), "w") as f:
                f.write(header + "".join(record))
    print("summary:")
    for (arch, tag), (total, differ) in grand.items():
        print(f"  {arch:7s} {tag:26s} {total:9d} outputs {differ:7d} differ")


if __name__ == "__main__":
    main()
