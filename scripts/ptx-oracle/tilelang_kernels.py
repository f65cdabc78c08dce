"""The PTX of tests/data/ptx/tilelang/: TileLang's `T.gemm` kernel (its
README's matmul: cp.async into shared memory, a software pipeline, ldmatrix
and mma.sync) lowered for sm_80 without a GPU, its CUDA source compiled by
nvcc against TileLang's own templates, in several configurations, and
planted mistakes, each with its launch file (grid, block and dynamic shared
memory from the kernel's `thread_extent` and `dyn_shared_memory_buf`).

    /path/to/venv/bin/python scripts/ptx-oracle/tilelang_kernels.py [NVCC]   # pip install tilelang (0.1.15)

Mistakes are planted in the TileLang source (the last K tile skipped, B's
tile copied from A, the output tile stored at the other block's place) and
in the PTX (the cp.async wait before the fragment loads deleted, two A
registers of an mma exchanged, an ldmatrix row address moved).  Every .ptx
starts with a comment naming how it was made.  CI runs none of this.
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
OUT = os.path.join(ROOT, "tests", "data", "ptx", "tilelang")
NVCC = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
TL = os.path.dirname(tilelang.__file__)
DTYPE = {"float16": "float16", "bfloat16": "bfloat16"}


def matmul(M, N, K, bm, bn, bk, stages, threads, dtype, plant):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((bm, bk), dtype)
            B_shared = T.alloc_shared((bk, bn), dtype)
            C_local = T.alloc_fragment((bm, bn), "float")
            T.clear(C_local)
            tiles = T.ceildiv(K, bk) - 1 if plant == "skip_k" else T.ceildiv(K, bk)
            for k in T.Pipelined(tiles, num_stages=stages):
                T.copy(A[by * bm, k * bk], A_shared)
                if plant == "b_from_a":
                    T.copy(A[k * bk, bx * bn], B_shared)
                else:
                    T.copy(B[k * bk, bx * bn], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            if plant == "store_swapped":
                T.copy(C_local, C[bx * bm, by * bn])
            else:
                T.copy(C_local, C[by * bm, bx * bn])
    return main


def compile_ptx(func):
    target = Target({"kind": "cuda", "arch": "sm_80"})
    with target:
        art = tilelang.lower(func, target=target)
    attrs = next(iter(art.device_mod.functions.values())).attrs
    extent = attrs["thread_extent"]
    shared = int(attrs["dyn_shared_memory_buf"]) if "dyn_shared_memory_buf" in attrs else 0
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "k.cu")
        open(cu, "w").write(art.kernel_source)
        ptx = subprocess.run([NVCC, "-arch=sm_80", "-ptx", "-std=c++17", "-w", "-I" + os.path.join(TL, "src"),
                              "-I" + os.path.join(TL, "3rdparty", "cutlass", "include"), "-o", "-", cu],
                             check=True, capture_output=True, text=True).stdout
    grid = [int(extent.get("blockIdx.x", 1)), int(extent.get("blockIdx.y", 1))]
    # The tensors the kernel takes, in order (TileLang drops one it never reads).
    signature = re.search(r"main_kernel\((.*?)\)", art.kernel_source).group(1)
    names = [re.search(r"(\w+)$", p.strip()).group(1) for p in signature.split(",")]
    return ptx, grid, int(extent["threadIdx.x"]), shared, names


def launch(M, N, K, dtype, grid, block, shared, names):
    tensors = {"A": {"tensor": "A", "dtype": dtype, "shape": [M, K]},
               "B": {"tensor": "B", "dtype": dtype, "shape": [K, N]},
               "C": {"tensor": "C", "dtype": dtype, "shape": [M, N]}}
    out = {"grid": grid, "block": [block], "dynamic_shared": shared, "params": [tensors[n] for n in names]}
    unused = [t for n, t in tensors.items() if n not in names]
    if unused:
        out["tensors"] = unused
    out["gemm"] = {"D": "C", "A": "A", "B": "B"}
    return out


def drop_wait(ptx):
    return re.sub(r"\n(\s*)cp\.async\.wait_group 1;", r"\n\1// cp.async.wait_group 1 deleted", ptx, count=1)


def swap_mma_a(ptx):
    def swap(m):
        regs = [r.strip() for r in m.group(2).split(",")]
        regs[1], regs[2] = regs[2], regs[1]
        return m.group(1) + "{" + ", ".join(regs) + "}"
    return re.sub(r"(mma\.sync[^{]*\{[^}]*\},\s*)\{([^}]*)\}", swap, ptx, count=1)


def move_ldmatrix_row(ptx):
    m = re.search(r"ldmatrix\.sync\.aligned\.x4\.m8n8\.shared\.b16 \{[^}]*\}, \[(%r\d+)(\+(\d+))?\]", ptx)
    if not m:
        raise SystemExit("no ldmatrix.x4 to move")
    old = m.group(0)
    new = re.sub(r"\[(%r\d+)(\+\d+)?\]", "[%s+%d]" % (m.group(1), int(m.group(3) or 0) + 16), old)
    return ptx.replace(old, new, 1)


CONFIGS = [
    # name, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, stages, threads, dtype
    ("f16_64x64x32_s2", 128, 128, 128, 64, 64, 32, 2, 128, "float16"),
    ("f16_128x128x32_s3", 128, 128, 96, 128, 128, 32, 3, 128, "float16"),
    ("bf16_64x64x32_s2", 128, 128, 64, 64, 64, 32, 2, 128, "bfloat16"),
    ("f16_32x32x32_s1_w1", 64, 64, 64, 32, 32, 32, 1, 32, "float16"),
]
SOURCE_PLANTS = ["skip_k", "b_from_a", "store_swapped"]
PTX_PLANTS = [("no_wait", drop_wait), ("mma_swap", swap_mma_a), ("ldmatrix_row", move_ldmatrix_row)]


def write(name, ptx, how, launch_obj):
    with open(os.path.join(OUT, name + ".ptx"), "w") as f:
        f.write("// made by scripts/ptx-oracle/tilelang_kernels.py (tilelang %s, nvcc): %s\n" % (tilelang.__version__, how))
        f.write(ptx)
    with open(os.path.join(OUT, name + ".launch.json"), "w") as f:
        json.dump(launch_obj, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    for (name, M, N, K, bm, bn, bk, st, th, dt) in CONFIGS:
        how = "%s gemm %dx%dx%d, block %dx%dx%d, %d stages, %d threads, sm_80" % (dt, M, N, K, bm, bn, bk, st, th)
        ptx, grid, block, shared, names = compile_ptx(matmul(M, N, K, bm, bn, bk, st, th, dt, ""))
        write(name, ptx, how, launch(M, N, K, dt, grid, block, shared, names))
        if name != CONFIGS[0][0]:
            continue
        for plant in SOURCE_PLANTS:
            p, g, b, sh, nm = compile_ptx(matmul(M, N, K, bm, bn, bk, st, th, dt, plant))
            write(name + "_" + plant, p, how + ", plant " + plant + " in the source", launch(M, N, K, dt, g, b, sh, nm))
        for plant, edit in PTX_PLANTS:
            write(name + "_" + plant, edit(ptx), how + ", its PTX edited: " + plant,
                  launch(M, N, K, dt, grid, block, shared, names))
    print("wrote", len([f for f in os.listdir(OUT) if f.endswith(".ptx")]), "PTX files to", OUT)


if __name__ == "__main__":
    sys.exit(main())
