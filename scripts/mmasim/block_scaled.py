#!/usr/bin/env python3
"""sm_120's block-scaled mma.sync against MMA-Sim 2.1.1: edge-heavy vectors.

    /tmp/venv/bin/python scripts/mmasim/block_scaled.py --cases-per-kind 1 --seed 1 \
        --out tests/data/mmasim/block_scaled.sm_120.mmav
    /tmp/venv/bin/python scripts/mmasim/block_scaled.py --cases-per-kind 20 --seed 2 \
        --mmacheck build/bin/mmacheck            # compare only, nothing written

For every block-scaled instruction of mmacheck (core/gemm/mma_inst.cc:
m16n8k32 .kind::mxf8f6f4 for all 25 type pairs, m16n8k64 .kind::mxf4 2X
ue8m0, .kind::mxf4nvf4 2X ue8m0, 4X ue8m0, 4X ue4m3) draws cases of each
input kind below in turn, computes D with MMA-Sim's
`mmasim.nv_ptx.MMABlockScale("RTX Blackwell", ...)` and writes them as
.mmav cases (A, B, C, D, SA, SB and a SEL line with varied selectors;
sim/vectors/vector_file.h).  With --mmacheck it runs `mmacheck mma --vectors
FILE --arch sm_120` on them and prints the outputs compared and those that
differ (exit 1 when any does).

Input kinds (each case one kind, for A/B elements, scales and C):
  uniform    random element encodings, scales near 1, moderate C
  bits       every word random bits (NaN scales and NaN/Inf C included)
  nanscale   one or two scale factors NaN (ue8m0 0xFF; ue4m3 0x7F/0xFF)
  zeroscale  ue8m0 0x00 (2^-127) and ue4m3 zeros (0x00, 0x80) among scales
  extreme    scales at the ends of their range: overflow to Inf, underflow
  cancel     products that cancel within a 16-K group (a zero sum that is
             not a zero term) and tiny C
  subnormal  fp4/fp6/fp8 subnormal elements, ue4m3 subnormal scales
  saturate   the largest elements with large scales, C at +-max or +-Inf
  ctiny      tiny products against C of zero, -0 or subnormal (zero terms)

Needs `pip install mmasim==2.1.1` (and torch, CPU) in its own venv; the build
and the tests need none of it (tests/test_block_scaled_vectors.cc replays
the recorded file).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from mmasim.nv_ptx import MMABlockScale

TYPES = ["e4m3", "e5m2", "e3m2", "e2m3", "e2m1"]
KINDS = ["uniform", "bits", "nanscale", "zeroscale", "extreme", "cancel", "subnormal", "saturate", "ctiny"]
# Element encodings per type, in the 8-bit container (fp6 bits 5:0, fp4 bits 5:2).
WIDTH = {"e4m3": 8, "e5m2": 8, "e3m2": 6, "e2m3": 6, "e2m1": 4}
MANT = {"e4m3": 3, "e5m2": 2, "e3m2": 2, "e2m3": 3, "e2m1": 1}


def instructions():
    """(ptx, mmasim name, k, a, b, kind, scale_vec, stype)."""
    out = []
    for a in TYPES:
        for b in TYPES:
            out.append((f"mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.{a}.{b}.f32.ue8m0",
                        f"m16n8k32.kind::mxf8f6f4.block32.f32.{a}.{b}.f32.ue8m0", 32, a, b, "mxf8f6f4", 1, "ue8m0"))
    for kind, vec, st in (("mxf4", 2, "ue8m0"), ("mxf4nvf4", 2, "ue8m0"), ("mxf4nvf4", 4, "ue8m0"),
                          ("mxf4nvf4", 4, "ue4m3")):
        out.append((f"mma.sync.aligned.m16n8k64.row.col.kind::{kind}.block_scale.scale_vec::{vec}X.f32.e2m1.e2m1.f32.{st}",
                    f"m16n8k64.kind::{kind}.block{64 // vec}.f32.e2m1.e2m1.f32.{st}", 64, "e2m1", "e2m1", kind, vec, st))
    return out


def code_to_container(t, code):
    """A raw code of the type's width to its container (mmacheck's and MMA-Sim's uint8)."""
    return code << 2 if t == "e2m1" else code


def random_codes(rng, t, shape, kind):
    w = WIDTH[t]
    codes = rng.integers(0, 1 << w, shape)
    e_bits = w - 1 - MANT[t]
    if kind == "subnormal":  # exponent field zero, random sign and fraction
        frac = rng.integers(0, 1 << MANT[t], shape)
        sign = rng.integers(0, 2, shape) << (w - 1)
        codes = np.where(rng.random(shape) < 0.7, sign | frac, codes)
    elif kind == "saturate":  # the largest finite magnitudes (e4m3: 0x7E, e5m2: 0x7B)
        top = {"e4m3": 0x7E, "e5m2": 0x7B}.get(t, (1 << (w - 1)) - 1)
        sign = rng.integers(0, 2, shape) << (w - 1)
        codes = np.where(rng.random(shape) < 0.7, sign | top, codes)
    elif kind == "ctiny":  # small magnitudes: low exponent fields
        lim = 1 << (MANT[t] + 1)
        codes = rng.integers(0, lim, shape) | (rng.integers(0, 2, shape) << (w - 1))
    elif kind in ("uniform", "nanscale", "zeroscale", "extreme"):
        if t in ("e4m3", "e5m2"):  # keep NaN/Inf rare so most outputs are finite
            nanlike = (codes & 0x7F) >= (0x7F if t == "e4m3" else 0x7C)
            codes = np.where(nanlike, codes & 0xF0, codes)
    del e_bits
    return codes


def scales(rng, st, shape, kind):
    if st == "ue8m0":
        s = rng.integers(120, 135, shape)
        if kind == "bits":
            s = rng.integers(0, 256, shape)
        elif kind == "zeroscale":
            s = np.where(rng.random(shape) < 0.4, 0, s)
        elif kind == "extreme":
            s = np.where(rng.random(shape) < 0.5, rng.integers(0, 6, shape), rng.integers(248, 255, shape))
        elif kind == "saturate":
            s = rng.integers(200, 255, shape)
        elif kind == "ctiny":
            s = rng.integers(0, 40, shape)
    else:  # ue4m3: bit 7 ignored; 0x7F NaN
        s = rng.integers(0x30, 0x48, shape) | (rng.integers(0, 2, shape) << 7) * (rng.random(shape) < 0.1)
        if kind == "bits":
            s = rng.integers(0, 256, shape)
        elif kind == "zeroscale":
            s = np.where(rng.random(shape) < 0.4, rng.choice([0x00, 0x80], shape), s)
        elif kind in ("extreme", "saturate"):
            s = np.where(rng.random(shape) < 0.5, rng.integers(0x70, 0x7F, shape), rng.integers(0x00, 0x08, shape))
        elif kind == "subnormal":
            s = np.where(rng.random(shape) < 0.6, rng.integers(0x01, 0x08, shape), s)
        elif kind == "ctiny":
            s = rng.integers(0x00, 0x10, shape)
    if kind == "nanscale":
        nan = 0xFF if st == "ue8m0" else rng.choice([0x7F, 0xFF])
        flat = s.reshape(-1)
        for _ in range(rng.integers(1, 3)):
            flat[rng.integers(0, flat.size)] = nan
    return s.astype(np.int64)


def c_words(rng, shape, kind):
    if kind == "bits":
        return rng.integers(0, 1 << 32, shape)
    vals = rng.standard_normal(shape).astype(np.float32) * np.float32(4.0)
    words = vals.view(np.uint32).astype(np.int64)
    if kind in ("cancel", "ctiny"):
        choice = rng.choice([0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x33800000], shape)
        words = np.where(rng.random(shape) < 0.8, choice, words)
    elif kind == "saturate":
        choice = rng.choice([0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000], shape)
        words = np.where(rng.random(shape) < 0.5, choice, words)
    elif kind in ("nanscale", "zeroscale"):
        words = np.where(rng.random(shape) < 0.3, 0, words)
    return words


def draw(rng, inst, kind):
    _, _, k, ta, tb, _, vec, st = inst
    m, n = 16, 8
    a = random_codes(rng, ta, (m, k), kind)
    b = random_codes(rng, tb, (k, n), kind)
    if kind == "cancel":  # the second half of each 16-K group negates the first (same B)
        half = 8
        for g in range(k // 16):
            lo, hi = 16 * g, 16 * g + half
            sign = 1 << (WIDTH[ta] - 1)
            a[:, hi:hi + half] = a[:, lo:lo + half] ^ sign
            b[hi:hi + half, :] = b[lo:lo + half, :]
    sa = scales(rng, st, (m, vec), kind)
    sb = scales(rng, st, (vec, n), kind)
    c = c_words(rng, (m, n), kind)
    return a, b, c, sa, sb


def to_torch_elems(t, codes):
    cont = torch.from_numpy(np.vectorize(lambda x: code_to_container(t, int(x)))(codes).astype(np.uint8))
    if t == "e4m3":
        return cont.view(torch.float8_e4m3fn)
    if t == "e5m2":
        return cont.view(torch.float8_e5m2)
    return cont


def pack_fp4(codes, axis):
    """e2m1 codes along K into MMA-Sim's uint8 pairs: element 2i in the high nibble."""
    codes = np.moveaxis(codes, axis, -1)
    packed = (codes[..., 0::2] << 4) | codes[..., 1::2]
    return torch.from_numpy(np.moveaxis(packed, -1, axis).astype(np.uint8))


def mmasim_d(inst, a, b, c, sa, sb):
    _, name, k, ta, tb, _, _, st = inst
    op = MMABlockScale("RTX Blackwell", name)
    if k == 64:
        A, B = pack_fp4(a, 1), pack_fp4(b, 0)
    else:
        A, B = to_torch_elems(ta, a), to_torch_elems(tb, b)
    C = torch.from_numpy(c.astype(np.uint32).view(np.int32)).view(torch.float32)
    sdt = torch.float8_e8m0fnu if st == "ue8m0" else torch.float8_e4m3fn
    alpha = torch.from_numpy(sa.astype(np.uint8)).view(sdt)
    beta = torch.from_numpy(sb.astype(np.uint8)).view(sdt)
    D = op(A, B, C, alpha, beta)
    return D.contiguous().view(torch.int32).numpy().astype(np.int64) & 0xFFFFFFFF


def words(x, digits):
    return " ".join(f"{int(v):0{digits}x}" for v in np.asarray(x).reshape(-1))


def case_text(inst, cid, kind, a, b, c, d, sa, sb, sel):
    _, _, k, ta, tb, _, _, _ = inst
    da = 1 if k == 64 else 2
    to_cont = np.vectorize(lambda x, t: code_to_container(t, int(x)))
    av = a if k == 64 else to_cont(a, ta)
    bv = b if k == 64 else to_cont(b, tb)
    return (f"case {cid} {kind}\nA {words(av, da)}\nB {words(bv, da)}\nC {words(c, 8)}\nD {words(d, 8)}\n"
            f"SA {words(sa, 2)}\nSB {words(sb, 2)}\nSEL {sel[0]} {sel[1]} {sel[2]} {sel[3]}\n")


def selectors(rng, vec):
    byte_ids = {1: [0, 1, 2, 3], 2: [0, 2], 4: [0]}[vec]
    return (int(rng.choice(byte_ids)), int(rng.integers(0, 2)), int(rng.choice(byte_ids)), int(rng.integers(0, 4)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases-per-kind", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the vectors here")
    ap.add_argument("--mmacheck", help="replay them with this mmacheck binary")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    made_by = " ".join(["scripts/mmasim/block_scaled.py"] + sys.argv[1:])
    text = ["# mmacheck test vectors, format mmav-1, D from MMA-Sim 2.1.1 (RTX Blackwell, MMABlockScale), not hardware\n",
            f"# sm_120 block-scaled mma.sync; made by: {made_by}\n"]
    outputs = 0
    for inst in instructions():
        text.append(f"instr {inst[0]}\n")
        cid = 0
        for kind in KINDS:
            for _ in range(args.cases_per_kind):
                a, b, c, sa, sb = draw(rng, inst, kind)
                d = mmasim_d(inst, a, b, c, sa, sb)
                text.append(case_text(inst, cid, kind, a, b, c, d, sa, sb, selectors(rng, inst[6])))
                cid += 1
                outputs += d.size
    body = "".join(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(body)
    print(f"{len(instructions())} instructions, {outputs} outputs")
    if args.mmacheck:
        with tempfile.NamedTemporaryFile("w", suffix=".mmav", delete=False) as f:
            f.write(body)
            path = f.name
        try:
            r = subprocess.run([args.mmacheck, "mma", "--vectors", path, "--arch", "sm_120"], capture_output=True,
                               text=True)
        finally:
            os.unlink(path)
        print(r.stdout.strip()[-2000:])
        if r.returncode not in (0, 1):
            raise SystemExit(f"mmacheck failed ({r.returncode}): {r.stderr.strip()}")
        return r.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
