"""The PTX of tests/data/ptx/tilelang_sm90/: TileLang's `T.gemm` kernel (the
same matmul as scripts/ptx-oracle/tilelang_kernels.py) lowered for sm_90a
without a GPU, where TileLang warp-specialises it: a producer warpgroup
(`setmaxnreg.dec`) loads A and B tiles with TMA (cp.async.bulk.tensor) onto
"full" mbarriers, one or two consumer warpgroups (`setmaxnreg.inc`) wait on
them, run wgmma from the shared tiles and arrive on the "empty" mbarriers that
let the producer reuse a stage.  Its CUDA source is compiled by nvcc against
TileLang's own templates:

    /work/venv-tilelang/bin/python scripts/ptx-oracle/tilelang_sm90_kernels.py [NVCC]   # pip install tilelang (0.1.15)
    # each kernel: nvcc -arch=sm_90a -ptx -std=c++17 -w -I$TL/src -I$TL/3rdparty/cutlass/include k.cu

Tensor maps: TileLang encodes them on the host (`__tvm_tensormap_create_tiled`
in the lowered host module, cuTensorMapEncodeTiled's arguments in order); the
launch file gives the same arguments as `tensor_map`s (docs/ptx.md).

Mistakes are planted in the CUDA source TileLang wrote (a real compile of a
real edit, named in each file's first line): the consumer warpgroups' parts
of D swapped in the epilogue, the wait on the full mbarrier deleted, the
producer loading one k-block twice and skipping the next, a consumer arriving
on the empty mbarrier before its wgmma.wait_group, the stage offset of B's
descriptor computed with a 1-byte element, setmaxnreg executed by only two
warps of the producer warpgroup.  CI runs none of this.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import tilelang
import tilelang.language as T
from tvm.target import Target

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "ptx", "tilelang_sm90")
NVCC = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
TL = os.path.dirname(tilelang.__file__)
SWIZZLE = {0: "none", 1: "32B", 2: "64B", 3: "128B"}


def matmul(M, N, K, bm, bn, bk, stages, threads, dtype):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((bm, bk), dtype)
            B_shared = T.alloc_shared((bk, bn), dtype)
            C_local = T.alloc_fragment((bm, bn), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=stages):
                T.copy(A[by * bm, k * bk], A_shared)
                T.copy(B[k * bk, bx * bn], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * bm, bx * bn])
    return main


def lower(func):
    target = Target({"kind": "cuda", "arch": "sm_90a"})
    with target:
        art = tilelang.lower(func, target=target)
    attrs = next(iter(art.device_mod.functions.values())).attrs
    extent = attrs["thread_extent"]
    shared = int(attrs["dyn_shared_memory_buf"]) if "dyn_shared_memory_buf" in attrs else 0
    grid = [int(extent.get("blockIdx.x", 1)), int(extent.get("blockIdx.y", 1))]
    # The tensor maps the host encodes: __tvm_tensormap_create_tiled(desc,
    # dtype, rank, tensor, dims.., strides (bytes, rank-1).., box.., element
    # strides.., interleave, swizzle, l2 promotion, oob fill).
    maps = {}
    for m in re.finditer(r'T\.call_packed\("__tvm_tensormap_create_tiled", (\w+), (.*?)\)\n', art.host_mod.script()):
        args = [a.strip() for a in m.group(2).split(",")]
        rank = int(args[1])
        tensor = args[2]
        box = [int(x) for x in args[4 + 2 * rank - 1:4 + 3 * rank - 1]]
        estrides = [int(x) for x in args[4 + 3 * rank - 1:4 + 4 * rank - 1]]
        interleave, swizzle = int(args[4 + 4 * rank - 1]), int(args[4 + 4 * rank])
        if interleave != 0 or any(e != 1 for e in estrides):
            raise SystemExit("unexpected tensor map " + m.group(0))
        maps[m.group(1)] = {"tensor": tensor, "box": box, "swizzle": SWIZZLE[swizzle]}
    return art.kernel_source, grid, int(extent["threadIdx.x"]), shared, maps


def nvcc(cuda):
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "k.cu")
        open(cu, "w").write(cuda)
        return subprocess.run([NVCC, "-arch=sm_90a", "-ptx", "-std=c++17", "-w", "-I" + os.path.join(TL, "src"),
                               "-I" + os.path.join(TL, "3rdparty", "cutlass", "include"), "-o", "-", cu],
                              check=True, capture_output=True, text=True).stdout


def launch(M, N, K, dtype, grid, block, shared, source, maps):
    tensors = {"A": {"tensor": "A", "dtype": dtype, "shape": [M, K]},
               "B": {"tensor": "B", "dtype": dtype, "shape": [K, N]},
               "C": {"tensor": "C", "dtype": dtype, "shape": [M, N]}}
    signature = re.search(r"main_kernel\((.*?)\)", source).group(1)
    params, used = [], set()
    for p in signature.split(","):
        name = re.search(r"(\w+)$", p.strip()).group(1)
        if name in maps:
            params.append({"tensor_map": maps[name]})  # its tensor goes under "tensors"
        else:
            params.append(tensors[name])
            used.add(name)
    out = {"grid": grid, "block": [block], "dynamic_shared": shared, "params": params}
    unused = [t for n, t in tensors.items() if n not in used]
    if unused:
        out["tensors"] = unused
    out["gemm"] = {"D": "C", "A": "A", "B": "B"}
    return out


def edit(source, old, new, count=1):
    if source.count(old) < count:
        raise SystemExit("plant: %r not in the source" % old)
    return source.replace(old, new, count)


def plant_swap_consumers(src):
    # The epilogue's column of the consumer warpgroup (threadIdx.x >> 7: 1 or 2)
    # exchanged: each writes its part of D where the other's belongs.
    line = next(l for l in src.splitlines() if "*(uint1*)(C + " in l)
    return edit(src, line, line.replace("((((int)threadIdx.x) >> 7) * 64)", "((((((int)threadIdx.x) >> 7) ^ 3)) * 64)"))


def plant_no_full_wait(src):
    return re.sub(r"\n(\s*)mbarrier\[\(k_1 % (\d)\)\]\.wait\(\(k_1 / \d\)\);", r"\n\1// full-barrier wait deleted", src,
                  count=1)


def plant_producer_skips_k(src):
    # The producer loads A's k-block 0 again where k-block 1 belongs.
    return edit(src, "(k * %d), (((int)blockIdx.y)" % BK, "(((k == 1) ? 0 : k) * %d), (((int)blockIdx.y)" % BK)


def plant_early_release(src):
    # The consumer arrives on the empty barrier before its wgmma completes.
    m = re.search(r"\n(\s*)mbarrier\[\(\(k_1 % (\d)\) \+ \d\)\]\.arrive\(\);", src)
    arrive = m.group(0)
    src = src.replace(arrive, "", 1)
    return edit(src, "tl::warpgroup_commit_batch();", "tl::warpgroup_commit_batch();" + arrive)


def plant_desc_elem_size(src):
    # B's stage offset in bytes computed with a 1-byte element (half_t is 2).
    m = re.search(r"tl::increase_descriptor_offset<int>\(desc_b, \(\(k_1 % (\d)\) \* (\d+)\)\);", src)
    return edit(src, m.group(0), m.group(0).replace("* %s)" % m.group(2), "* %d)" % (int(m.group(2)) // 2)))


def plant_setmaxnreg_two_warps(src):
    m = re.search(r"tl::warpgroup_reg_dealloc<(\d+)>\(\);", src)
    return edit(src, m.group(0), "if (((int)threadIdx.x) < 64) { " + m.group(0) + " }")


BK = 64
CONFIGS = [
    # name, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, stages, consumer threads, dtype
    ("f16_128x128x64_s3_c2", 256, 256, 256, 128, 128, 64, 3, 256, "float16"),
    ("bf16_128x128x64_s3_c2", 256, 256, 256, 128, 128, 64, 3, 256, "bfloat16"),
    ("f16_64x64x64_s2_c1", 128, 128, 256, 64, 64, 64, 2, 128, "float16"),
    ("f16_64x64x64_s4_c1", 128, 128, 256, 64, 64, 64, 4, 128, "float16"),
    ("bf16_64x128x64_s2_c1", 128, 256, 192, 64, 128, 64, 2, 128, "bfloat16"),
]
PLANTS = [("swap_consumers", plant_swap_consumers), ("no_full_wait", plant_no_full_wait),
          ("producer_skips_k", plant_producer_skips_k), ("early_release", plant_early_release),
          ("desc_elem_size", plant_desc_elem_size), ("setmaxnreg_two_warps", plant_setmaxnreg_two_warps)]


def write(name, ptx, how, launch_obj):
    with open(os.path.join(OUT, name + ".ptx"), "w") as f:
        f.write("// made by scripts/ptx-oracle/tilelang_sm90_kernels.py (tilelang %s, nvcc -arch=sm_90a): %s\n"
                % (tilelang.__version__, how))
        f.write(ptx)
    with open(os.path.join(OUT, name + ".launch.json"), "w") as f:
        json.dump(launch_obj, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    for (name, M, N, K, bm, bn, bk, st, th, dt) in CONFIGS:
        how = "%s gemm %dx%dx%d, block %dx%dx%d, %d stages, %d consumer threads, sm_90a" % (dt, M, N, K, bm, bn, bk,
                                                                                          st, th)
        src, grid, block, shared, maps = lower(matmul(M, N, K, bm, bn, bk, st, th, dt))
        lj = launch(M, N, K, dt, grid, block, shared, src, maps)
        write(name, nvcc(src), how, lj)
        if name != CONFIGS[0][0]:
            continue
        for plant, fn in PLANTS:
            write(name + "_" + plant, nvcc(fn(src)), how + ", its CUDA source edited: " + plant, lj)
    print("wrote", len([f for f in os.listdir(OUT) if f.endswith(".ptx")]), "PTX files to", OUT)


if __name__ == "__main__":
    sys.exit(main())
