"""The PTX of tests/data/ptx/triton/: Triton's matmul (the tutorial's kernel,
without its grouped ordering) compiled for sm_80 without a GPU, in several
configurations, and planted mistakes, each with its launch file; and of
tests/data/ptx/triton_sm90/: the same kernel compiled for sm_90 (wgmma with
shared-memory descriptors, pointer loads, no TMA), its PTX version pinned
to 8.8 (Triton 3.9 writes 9.4 for sm_90, newer than CUDA 13's ptxas takes).

    /path/to/venv/bin/python scripts/ptx-oracle/triton_kernels.py [sm80|sm90|sm90_tma|sm90_ws]   # pip install triton (3.9)

sm90_tma writes tests/data/ptx/triton_sm90_tma/: the matmul given host
TensorDescriptors (TMA: cp.async.bulk.tensor into shared memory, mbarriers),
with tensor maps in its launch files.  sm90_ws writes
tests/data/ptx/triton_sm90_ws/: the same with tl.range(...,
warp_specialize=True) (setmaxnreg, named barriers, a 12-warp CTA).

Mistakes are planted two ways: in the Triton source (a skipped K tile, B
loaded from A's pointers, a wrong epilogue column, A and B swapped in the
dot) and in the PTX Triton wrote (the barrier before the fragment loads
deleted, two A registers of an mma swapped, an ldmatrix row address moved),
since a compiler bug shows up in its output.  Every .ptx starts with a
comment naming how it was made.  CI runs none of this.
"""

import json
import os
import re
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "ptx", "triton")


def make_kernel(plant):
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, PLANT: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
        if PLANT == "b_from_a":
            b_ptrs = a_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        tiles = tl.cdiv(K, BLOCK_K)
        if PLANT == "skip_k":
            tiles = tiles - 1
        for k in range(0, tiles):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
            if PLANT == "dot_swapped":
                acc = tl.dot(b, a, acc)
            else:
                acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        c = acc.to(c_ptr.dtype.element_ty)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        if PLANT == "epilogue":
            offs_cn = pid_n * BLOCK_N + (tl.arange(0, BLOCK_N) ^ 1)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, c, mask=c_mask)

    return matmul_kernel


def compile_ptx(dtype, out_dtype, bm, bn, bk, warps, stages, plant="", arch=80):
    t = {"float16": "*fp16", "bfloat16": "*bf16", "float32": "*fp32"}
    sig = {"a_ptr": t[dtype], "b_ptr": t[dtype], "c_ptr": t[out_dtype]}
    for name in ["M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn"]:
        sig[name] = "i32"
    for name in ["BLOCK_M", "BLOCK_N", "BLOCK_K", "PLANT"]:
        sig[name] = "constexpr"
    src = ASTSource(fn=make_kernel(plant), signature=sig,
                    constexprs={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "PLANT": plant})
    options = {"num_warps": warps, "num_stages": stages}
    if arch == 90:
        options["ptx_version"] = 88
    k = triton.compile(src, target=GPUTarget("cuda", arch, 32), options=options)
    return k.asm["ptx"], k.metadata.shared, k.metadata.num_warps


def launch(dtype, out_dtype, m, n, k, bm, bn, shared, warps, nparams):
    params = [
        {"tensor": "A", "dtype": dtype, "shape": [m, k]},
        {"tensor": "B", "dtype": dtype, "shape": [k, n]},
        {"tensor": "D", "dtype": out_dtype, "shape": [m, n]},
        {"value": m}, {"value": n}, {"value": k},
        {"value": k}, {"value": 1}, {"value": n}, {"value": 1}, {"value": n}, {"value": 1},
    ]
    # Triton 3.x appends its global and profile scratch pointers: null here.
    params += [{"value": 0}] * (nparams - len(params))
    return {"grid": [m // bm, n // bn], "block": [32 * warps], "dynamic_shared": max(shared, 1), "params": params}


def nparams_of(ptx):
    return len(re.findall(r"\.param \.", ptx.split(")")[0]))


# A PTX mistake: (name, what it does, function of the text).
def drop_first_barrier(ptx):
    return ptx.replace("bar.sync \t0;", "// bar.sync 0 deleted", 1) if "bar.sync \t0;" in ptx else re.sub(
        r"\n\s*bar\.sync\s+0;", "\n\t// bar.sync 0 deleted", ptx, count=1)


def swap_mma_a(ptx):
    def swap(m):
        regs = [r.strip() for r in m.group(2).split(",")]
        regs[1], regs[2] = regs[2], regs[1]
        return m.group(1) + "{" + ", ".join(regs) + "}"
    return re.sub(r"(mma\.sync[^{]*\{[^}]*\},\s*)\{([^}]*)\}", swap, ptx, count=1)


def move_ldmatrix_row(ptx):
    m = re.search(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16 \{[^}]*\}, \[(%r\d+)( \+ (\d+))?\]", ptx)
    if not m:
        raise SystemExit("no ldmatrix.x4 to move")
    old = m.group(0)
    off = int(m.group(3) or 0) + 16
    new = re.sub(r"\[(%r\d+)( \+ \d+)?\]", "[%s + %d]" % (m.group(1), off), old)
    return ptx.replace(old, new, 1)


CONFIGS = [
    # name, dtype, out dtype, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, M, N, K
    ("f16_32x32x32_w4", "float16", "float16", 32, 32, 32, 4, 2, 64, 64, 64),
    ("f16_64x64x32_w4_s3", "float16", "float16", 64, 64, 32, 4, 3, 128, 128, 128),
    ("f16_64x32x64_w2", "float16", "float32", 64, 32, 64, 2, 2, 64, 64, 128),
    ("bf16_32x32x32_w4", "bfloat16", "bfloat16", 32, 32, 32, 4, 2, 64, 64, 96),
    ("f16_16x16x16_w1", "float16", "float32", 16, 16, 16, 1, 1, 32, 32, 48),
]

SOURCE_PLANTS = ["skip_k", "b_from_a", "epilogue", "dot_swapped"]
PTX_PLANTS = [("no_barrier", drop_first_barrier), ("mma_swap", swap_mma_a), ("ldmatrix_row", move_ldmatrix_row)]


ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def write(name, ptx, how, launch_obj, out=OUT):
    if out != OUT:  # the sources .file names: in the repository, relative to it
        ptx = ptx.replace('"' + ROOT + "/", '"')
    with open(os.path.join(out, name + ".ptx"), "w") as f:
        f.write("// made by scripts/ptx-oracle/triton_kernels.py (triton %s): %s\n" % (triton.__version__, how))
        f.write(ptx)
    with open(os.path.join(out, name + ".launch.json"), "w") as f:
        json.dump(launch_obj, f, indent=1)
        f.write("\n")


def main():
    if sys.argv[1:] == ["sm90"]:
        return main_sm90()
    if sys.argv[1:] == ["sm90_tma"]:
        return main_sm90_tma()
    if sys.argv[1:] == ["sm90_ws"]:
        return main_sm90_ws()
    os.makedirs(OUT, exist_ok=True)
    for (name, dt, odt, bm, bn, bk, w, s, m, n, k) in CONFIGS:
        how = "%s x %s -> %s, BLOCK %dx%dx%d, num_warps %d, num_stages %d, sm_80" % (dt, dt, odt, bm, bn, bk, w, s)
        ptx, shared, warps = compile_ptx(dt, odt, bm, bn, bk, w, s)
        write(name, ptx, how, launch(dt, odt, m, n, k, bm, bn, shared, warps, nparams_of(ptx)))
    # Planted mistakes on the first two configurations.
    for (name, dt, odt, bm, bn, bk, w, s, m, n, k) in CONFIGS[:2]:
        for plant in SOURCE_PLANTS:
            if plant == "dot_swapped" and not bm == bn == bk:
                continue  # B·A needs square blocks
            how = "%s with PLANT=%s in the source" % (name, plant)
            ptx, shared, warps = compile_ptx(dt, odt, bm, bn, bk, w, s, plant)
            write(name + "_" + plant, ptx, how, launch(dt, odt, m, n, k, bm, bn, shared, warps, nparams_of(ptx)))
        ptx, shared, warps = compile_ptx(dt, odt, bm, bn, bk, w, s)
        for plant, edit in PTX_PLANTS:
            how = "%s with its PTX edited: %s" % (name, plant)
            write(name + "_" + plant, edit(ptx), how, launch(dt, odt, m, n, k, bm, bn, shared, warps, nparams_of(ptx)))
    print("wrote", len([f for f in os.listdir(OUT) if f.endswith(".ptx")]), "PTX files to", os.path.normpath(OUT))
    if sys.argv[1:] != ["sm80"]:
        main_sm90()


# ---- sm_90: wgmma -------------------------------------------------------------

OUT90 = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "ptx", "triton_sm90")

CONFIGS90 = [
    # name, dtype, out dtype, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, M, N, K
    ("f16_64x64x32_w4", "float16", "float16", 64, 64, 32, 4, 3, 128, 128, 128),
    ("bf16_64x128x64_w4", "bfloat16", "float32", 64, 128, 64, 4, 2, 64, 128, 192),
    ("f16_128x64x64_w8", "float16", "float32", 128, 64, 64, 8, 3, 128, 128, 128),
]

SOURCE_PLANTS90 = ["skip_k", "b_from_a", "epilogue"]


def drop_wgmma_wait(ptx):
    if "wgmma.wait_group.sync.aligned 0;" not in ptx:
        raise SystemExit("no wgmma.wait_group 0 to delete")
    return ptx.replace("wgmma.wait_group.sync.aligned 0;", "// wgmma.wait_group 0 deleted", 1)


def weaken_wgmma_wait(ptx):
    if "wgmma.wait_group.sync.aligned 0;" not in ptx:
        raise SystemExit("no wgmma.wait_group 0 to weaken")
    return ptx.replace("wgmma.wait_group.sync.aligned 0;", "wgmma.wait_group.sync.aligned 1;", 1)


def halve_descriptor_sbo(ptx):
    """The first descriptor constant (an or.b64 with the swizzle bits 62-63
    set) with its stride byte offset (bits 32-45, in 16-byte units) halved."""
    for m in re.finditer(r"or\.b64\s+(%rd\d+), (%rd\d+), (-?\d+);", ptx):
        bits = int(m.group(3)) & (2 ** 64 - 1)
        sbo = (bits >> 32) & 0x3FFF
        if bits >> 62 == 0 or sbo < 2:
            continue
        new = (bits & ~(0x3FFF << 32)) | ((sbo // 2) << 32)
        if new >= 2 ** 63:
            new -= 2 ** 64
        text = m.group(0).replace(m.group(3), str(new))
        return ptx[:m.start()] + text + ptx[m.end():]
    raise SystemExit("no descriptor constant to edit")


def drop_proxy_fence(ptx):
    if "fence.proxy.async.shared::cta;" not in ptx:
        raise SystemExit("no fence.proxy.async to delete")
    return ptx.replace("fence.proxy.async.shared::cta;", "// fence.proxy.async deleted", 1)


PTX_PLANTS90 = [("weak_wait", weaken_wgmma_wait), ("descriptor_sbo", halve_descriptor_sbo),
                ("no_proxy_fence", drop_proxy_fence)]


def main_sm90():
    os.makedirs(OUT90, exist_ok=True)
    for (name, dt, odt, bm, bn, bk, w, s, m, n, k) in CONFIGS90:
        how = "%s x %s -> %s, BLOCK %dx%dx%d, num_warps %d, num_stages %d, sm_90, ptx_version 88" % (
            dt, dt, odt, bm, bn, bk, w, s)
        ptx, shared, warps = compile_ptx(dt, odt, bm, bn, bk, w, s, arch=90)
        write(name, ptx, how, launch(dt, odt, m, n, k, bm, bn, shared, warps, nparams_of(ptx)), OUT90)
    # Planted mistakes on the first and the last (two warpgroups) configuration.
    for (name, dt, odt, bm, bn, bk, w, s, m, n, k) in [CONFIGS90[0], CONFIGS90[-1]]:
        for plant in SOURCE_PLANTS90:
            how = "%s with PLANT=%s in the source" % (name, plant)
            ptx, shared, warps = compile_ptx(dt, odt, bm, bn, bk, w, s, plant, arch=90)
            write(name + "_" + plant, ptx, how, launch(dt, odt, m, n, k, bm, bn, shared, warps, nparams_of(ptx)),
                  OUT90)
        ptx, shared, warps = compile_ptx(dt, odt, bm, bn, bk, w, s, arch=90)
        for plant, edit in PTX_PLANTS90:
            how = "%s with its PTX edited: %s" % (name, plant)
            write(name + "_" + plant, edit(ptx), how,
                  launch(dt, odt, m, n, k, bm, bn, shared, warps, nparams_of(ptx)), OUT90)
        # The wait deleted, K one tile: the epilogue reads the accumulators in flight.
        how = "%s with its PTX edited: no_wait (wgmma.wait_group deleted), K = BLOCK_K" % name
        write(name + "_no_wait", drop_wgmma_wait(ptx), how,
              launch(dt, odt, m, n, bk, bm, bn, shared, warps, nparams_of(ptx)), OUT90)
    print("wrote", len([f for f in os.listdir(OUT90) if f.endswith(".ptx")]), "PTX files to",
          os.path.normpath(OUT90))


# ---- sm_90: TMA from host TensorDescriptors ----------------------------------

OUT90TMA = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "ptx", "triton_sm90_tma")


def make_tma_kernel(plant):
    @triton.jit
    def matmul_tma_kernel(a_desc, b_desc, c_ptr, M, N, K, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr, PLANT: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        tiles = tl.cdiv(K, BLOCK_K)
        if PLANT == "skip_k":
            tiles = tiles - 1
        for k in range(0, tiles):
            a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
            b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        c = acc.to(c_ptr.dtype.element_ty)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        tl.store(c_ptr + stride_cm * offs_cm[:, None] + offs_cn[None, :], c)

    return matmul_tma_kernel


def compile_tma_ptx(dtype, out_dtype, bm, bn, bk, warps, stages, plant=""):
    """Triton's launcher passes a host TensorDescriptor as the CUtensorMap (by
    value, `.param .align 64 .b8 [128]`), then its shape (i32) and strides (i64)."""
    t = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}
    sig = {"a_desc": "tensordesc<%s[%d, %d]>" % (t[dtype], bm, bk), "b_desc": "tensordesc<%s[%d, %d]>" % (t[dtype], bk, bn),
           "c_ptr": "*" + t[out_dtype], "M": "i32", "N": "i32", "K": "i32", "stride_cm": "i32"}
    for name in ["BLOCK_M", "BLOCK_N", "BLOCK_K", "PLANT"]:
        sig[name] = "constexpr"
    src = ASTSource(fn=make_tma_kernel(plant), signature=sig,
                    constexprs={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "PLANT": plant})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": warps, "num_stages": stages, "ptx_version": 88})
    return k.asm["ptx"], k.metadata.shared


def swizzle_of(ptx, which):
    """The swizzle of the wgmma descriptor constants (bits 62-63: 1 = 128B, 2 =
    64B, 3 = 32B), A's the first or.b64 constant, B's the second: the tensor map
    must write what the descriptor reads."""
    consts = [int(c) & (2 ** 64 - 1) for c in re.findall(r"or\.b64\s+%rd\d+, %rd\d+, (-?\d+);", ptx)]
    return {0: "none", 1: "128B", 2: "64B", 3: "32B"}[consts[which] >> 62]


def tma_launch(dtype, out_dtype, m, n, k, bm, bn, bk, shared, ptx, a_swizzle, b_swizzle, b_tensor="B"):
    def desc(tensor, rows, cols, box, swizzle):
        # The map, then the descriptor's shape (i32) and strides (i64), as Triton's launcher passes them.
        return [{"tensor_map": {"tensor": tensor, "box": box, "swizzle": swizzle}},
                {"value": rows}, {"value": cols}, {"value": cols}, {"value": 1}]
    params = desc("A", m, k, [bk, bm], a_swizzle) + desc(b_tensor, k, n, [bn, bk], b_swizzle)
    params += [{"tensor": "D", "dtype": out_dtype, "shape": [m, n]}, {"value": m}, {"value": n}, {"value": k},
               {"value": n}]
    params += [{"value": 0}] * (nparams_of(ptx) - len(params))
    return {"grid": [m // bm, n // bn], "block": [32 * nwarps_of(ptx)], "dynamic_shared": max(shared, 1),
            "params": params,
            "tensors": [{"tensor": "A", "dtype": dtype, "shape": [m, k]}, {"tensor": "B", "dtype": dtype, "shape": [k, n]}]}


def nwarps_of(ptx):
    return int(re.search(r"\.reqntid (\d+)", ptx).group(1)) // 32


TRY_WAIT = re.compile(r"\n([ \t]*)(waitLoop:\s*(?:\.loc[^\n]*\n\s*)?)(mbarrier\.try_wait\.parity[^;]*), (%r\d+);\n"
                      r"(\s*@!complete bra\.uni waitLoop;)")


def drop_mbarrier_wait(ptx):
    """The try_wait loop deleted: the wgmma reads the stage the TMA is still writing."""
    if not TRY_WAIT.search(ptx):
        raise SystemExit("no try_wait loop to delete")
    return TRY_WAIT.sub(lambda m: "\n%s// mbarrier.try_wait loop deleted" % m.group(1), ptx, count=1)


def flip_wait_parity(ptx):
    """The try_wait waits on the other parity: the parity register flipped
    around the loop (and back after it)."""
    if not TRY_WAIT.search(ptx):
        raise SystemExit("no try_wait loop to edit")
    return TRY_WAIT.sub(lambda m: "\n%sxor.b32 %s, %s, 1;\n%s%s%s, %s;\n%s\n%sxor.b32 %s, %s, 1;\n" % (
        m.group(1), m.group(4), m.group(4), m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(1),
        m.group(4), m.group(4)), ptx, count=1)


CONFIGS90TMA = [
    # name, dtype, out dtype, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, M, N, K
    ("f16_64x64x32_w4", "float16", "float16", 64, 64, 32, 4, 3, 128, 128, 128),
    ("f16_128x64x64_w8", "float16", "float32", 128, 64, 64, 8, 3, 128, 128, 256),
]


def main_sm90_tma():
    os.makedirs(OUT90TMA, exist_ok=True)
    for (name, dt, odt, bm, bn, bk, w, s, m, n, k) in CONFIGS90TMA:
        base = "%s x %s -> %s, BLOCK %dx%dx%d, num_warps %d, num_stages %d, sm_90, ptx_version 88, host TensorDescriptors" % (
            dt, dt, odt, bm, bn, bk, w, s)
        ptx, shared = compile_tma_ptx(dt, odt, bm, bn, bk, w, s)
        sa, sb = swizzle_of(ptx, 0), swizzle_of(ptx, 1)
        launch_of = lambda p, **kw: tma_launch(dt, odt, m, n, k, bm, bn, bk, shared, p, sa, sb, **kw)
        write(name, ptx, base, launch_of(ptx), OUT90TMA)
        # Planted mistakes: in the source, the PTX and the launch file.
        sptx, sshared = compile_tma_ptx(dt, odt, bm, bn, bk, w, s, "skip_k")
        write(name + "_skip_k", sptx, base + ", PLANT=skip_k in the source",
              tma_launch(dt, odt, m, n, k, bm, bn, bk, sshared, sptx, sa, sb), OUT90TMA)
        write(name + "_no_mbarrier_wait", drop_mbarrier_wait(ptx), base + ", its PTX edited: the try_wait loop deleted",
              launch_of(ptx), OUT90TMA)
        write(name + "_wrong_parity", flip_wait_parity(ptx), base + ", its PTX edited: try_wait on the other parity",
              launch_of(ptx), OUT90TMA)
        write(name + "_b_map_of_a", ptx, base + ", its launch edited: B's tensor map names A",
              launch_of(ptx, b_tensor="A"), OUT90TMA)
        wrong = tma_launch(dt, odt, m, n, k, bm, bn, bk, shared, ptx, "none", sb)
        write(name + "_swizzle_none", ptx, base + ", its launch edited: A's tensor map without swizzle (the wgmma "
              "descriptor's is %s)" % sa, wrong, OUT90TMA)
    print("wrote", len([f for f in os.listdir(OUT90TMA) if f.endswith(".ptx")]), "PTX files to",
          os.path.normpath(OUT90TMA))



# ---- sm_90: warp specialisation (tl.range(..., warp_specialize=True)) ------

OUT90WS = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "ptx", "triton_sm90_ws")


def make_ws_kernel():
    @triton.jit
    def matmul_ws_kernel(a_desc, b_desc, c_ptr, M, N, K, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr, PLANT: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=True):
            a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
            b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
            acc = tl.dot(a, b, acc)
        c = acc.to(c_ptr.dtype.element_ty)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        tl.store(c_ptr + stride_cm * offs_cm[:, None] + offs_cn[None, :], c)

    return matmul_ws_kernel


def compile_ws_ptx(dtype, out_dtype, bm, bn, bk, warps, stages):
    t = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}
    sig = {"a_desc": "tensordesc<%s[%d, %d]>" % (t[dtype], bm, bk), "b_desc": "tensordesc<%s[%d, %d]>" % (t[dtype], bk, bn),
           "c_ptr": "*" + t[out_dtype], "M": "i32", "N": "i32", "K": "i32", "stride_cm": "i32"}
    for name in ["BLOCK_M", "BLOCK_N", "BLOCK_K", "PLANT"]:
        sig[name] = "constexpr"
    src = ASTSource(fn=make_ws_kernel(), signature=sig,
                    constexprs={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "PLANT": ""})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": warps, "num_stages": stages, "ptx_version": 88})
    return k.asm["ptx"], k.metadata.shared


def named_barrier_count(ptx, barrier, count):
    """The first `bar.sync BARRIER, 128` of the MMA partition waits for COUNT threads."""
    old = "bar.sync \t%d, 128;" % barrier
    if old not in ptx:
        raise SystemExit("no %r to edit" % old)
    return ptx.replace(old, "bar.sync \t%d, %d;" % (barrier, count), 1)


def drop_ws_wgmma_wait(ptx):
    """The MMA partition's first wgmma.wait_group deleted (the stage is released with the wgmma in flight)."""
    m = re.search(r"\n(\s*)wgmma\.wait_group\.sync\.aligned 0;", ptx)
    return ptx.replace(m.group(0), "\n%s// wgmma.wait_group deleted" % m.group(1), 1)


def one_epilogue(ptx):
    """The first MMA partition's stores of D commented out (from its named
    barrier 3 to the next barrier of the whole CTA): the other partition's
    epilogue alone stores D — the check that each partition computes all of D."""
    start = ptx.index("bar.sync \t3, 128;")
    end = ptx.index("barrier.sync \t1;", start)
    body = re.sub(r"\n(\s*)st\.global\.", r"\n\1// st.global.", ptx[start:end])
    return ptx[:start] + body + ptx[end:]


# Triton 3.9 warp-specialises the sm_90 loop only where its partitioner
# succeeds: BLOCK 64x64x32 with 4 warps does (a 12-warp CTA: the default
# partition's 4 warps, a load partition and an MMA partition, setmaxnreg,
# named barriers); 128x64x64 and 128x128x64 with 8 warps compile without
# partitions (no setmaxnreg), and 128x128x64 with 4 warps fails in Triton
# ("descriptor block and tensor must have the same number of elements").
CONFIGS90WS = [
    # name, dtype, out dtype, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, M, N, K
    ("f16_64x64x32_w4_s3", "float16", "float16", 64, 64, 32, 4, 3, 128, 128, 128),
    ("bf16_64x64x32_w4_s2", "bfloat16", "float32", 64, 64, 32, 4, 2, 128, 128, 160),
]


def main_sm90_ws():
    os.makedirs(OUT90WS, exist_ok=True)
    for (name, dt, odt, bm, bn, bk, w, s, m, n, k) in CONFIGS90WS:
        base = ("%s x %s -> %s, BLOCK %dx%dx%d, num_warps %d, num_stages %d, sm_90, ptx_version 88, host "
                "TensorDescriptors, tl.range(warp_specialize=True)" % (dt, dt, odt, bm, bn, bk, w, s))
        ptx, shared = compile_ws_ptx(dt, odt, bm, bn, bk, w, s)
        if "setmaxnreg" not in ptx:
            raise SystemExit(name + ": Triton did not warp-specialise the loop")
        sa, sb = swizzle_of(ptx, 0), swizzle_of(ptx, 1)
        launch = tma_launch(dt, odt, m, n, k, bm, bn, bk, shared, ptx, sa, sb)
        write(name, ptx, base, launch, OUT90WS)
        if name != CONFIGS90WS[0][0]:
            continue
        write(name + "_bar_count", named_barrier_count(ptx, 3, 256), base + ", its PTX edited: the MMA partition's "
              "named barrier 3 waits for 256 threads, not its 128", launch, OUT90WS)
        write(name + "_no_wgmma_wait", drop_ws_wgmma_wait(ptx), base + ", its PTX edited: the MMA partition's "
              "wgmma.wait_group deleted", launch, OUT90WS)
        write(name + "_one_epilogue", one_epilogue(ptx), base + ", its PTX edited: the stores of D of the partition "
              "of warps 8-11 commented out", launch, OUT90WS)
    print("wrote", len([f for f in os.listdir(OUT90WS) if f.endswith(".ptx")]), "PTX files to",
          os.path.normpath(OUT90WS))


if __name__ == "__main__":
    sys.exit(main())
