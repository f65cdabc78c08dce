"""The PTX of tests/data/ptx/tilelang_sm100/: TileLang's `T.gemm` lowered for
Blackwell (`Target cuda -arch=sm_100a`: TCGEN5MMA, tcgen05.mma kind::f16 with
A K-major and B MN-major from shared memory, D in TMEM, a commit to an
mbarrier, tcgen05.ld 32x32b) without a GPU, warp specialisation off (its
setmaxnreg and TMA producer are the Hopper wing's), its CUDA source compiled
by nvcc against TileLang's own templates, and planted mistakes, each with its
launch file.

    /work/venv-tilelang/bin/python scripts/ptx-oracle/tilelang_sm100_kernels.py [NVCC]   # pip install tilelang (0.1.15)

Mistakes are planted in the TileLang source (the last K tile skipped) and in
the PTX (the mbarrier wait for the mmas' commit before tcgen05.ld deleted,
the instruction descriptor's N halved, the first mma's B descriptor replaced
by A's).  Every .ptx starts with a comment naming how it was made.  CI runs
none of this.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import tilelang
import tilelang.language as T
import tvm
from tvm.target import Target

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "ptx", "tilelang_sm100")
NVCC = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
TL = os.path.dirname(tilelang.__file__)


def matmul(M, N, K, bm, bn, bk, dtype, plant):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            A_shared = T.alloc_shared((bm, bk), dtype)
            B_shared = T.alloc_shared((bk, bn), dtype)
            C_tmem = T.alloc_tmem([bm, bn], "float32")
            C_local = T.alloc_fragment((bm, bn), "float32")
            mbar = T.alloc_barrier(1)
            tiles = T.ceildiv(K, bk) - 1 if plant == "skip_k" else T.ceildiv(K, bk)
            for k in T.Pipelined(tiles, num_stages=1):
                T.copy(A[by * bm, k * bk], A_shared)
                T.copy(B[k * bk, bx * bn], B_shared)
                T.gemm(A_shared, B_shared, C_tmem, clear_accum=k == 0, mbar=mbar)
            T.copy(C_tmem, C_local)
            T.copy(C_local, C[by * bm, bx * bn])
    return main


def compile_ptx(func):
    target = Target({"kind": "cuda", "arch": "sm_100a"})
    with tvm.transform.PassContext(config={"tl.disable_warp_specialized": True}), target:
        art = tilelang.lower(func, target=target)
    attrs = next(iter(art.device_mod.functions.values())).attrs
    extent = attrs["thread_extent"]
    shared = int(attrs["dyn_shared_memory_buf"]) if "dyn_shared_memory_buf" in attrs else 0
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "k.cu")
        open(cu, "w").write(art.kernel_source)
        ptx = subprocess.run([NVCC, "-arch=sm_100a", "-ptx", "-std=c++17", "-w", "-I" + os.path.join(TL, "src"),
                              "-I" + os.path.join(TL, "3rdparty", "cutlass", "include"), "-o", "-", cu],
                             check=True, capture_output=True, text=True).stdout
    grid = [int(extent.get("blockIdx.x", 1)), int(extent.get("blockIdx.y", 1))]
    return ptx, grid, int(extent["threadIdx.x"]), shared


def launch(M, N, K, dtype, grid, block, shared):
    return {"kernel": "main_kernel", "grid": grid, "block": [block], "dynamic_shared": shared,
            "params": [{"tensor": "A", "dtype": dtype, "shape": [M, K]},
                       {"tensor": "B", "dtype": dtype, "shape": [K, N]},
                       {"tensor": "C", "dtype": "float32", "shape": [M, N]}],
            "gemm": {"D": "C", "A": "A", "B": "B"}}


def drop_commit_wait(ptx):
    """The mbarrier wait (TileLang's LAB_WAIT block) before the tcgen05.ld."""
    ld = ptx.index("tcgen05.ld.")
    lab = ptx.rindex("LAB_WAIT:", 0, ld)
    start = ptx.rindex("{", 0, lab)
    end = ptx.index("}", lab) + 1
    return ptx[:start] + "// the mbarrier wait for the mmas' commit deleted" + ptx[end:]


def idesc_half_n(ptx):
    consts = set(re.findall(r"mov\.b32 \t%r\d+, (\d+);\n(?:.*\n){0,12}?\s*tcgen05\.mma", ptx))
    if len(consts) != 1:
        raise SystemExit("expected one instruction descriptor constant, got %s" % consts)
    idesc = int(consts.pop())
    n = (idesc >> 17) & 0x3F
    half = (idesc & ~(0x3F << 17)) | ((n // 2) << 17)
    return ptx.replace(", %d;" % idesc, ", %d;" % half)


def b_from_a(ptx):
    return re.sub(r"(tcgen05\.mma\.[^\[]*\[%r\d+\], (%rd\d+), )%rd\d+,", r"\1\2,", ptx, count=1)


CONFIGS = [
    # name, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, dtype
    ("f16_128x128x64", 256, 256, 128, 128, 128, 64, "float16"),
    ("bf16_128x64x64", 128, 128, 192, 128, 64, 64, "bfloat16"),
]
PTX_PLANTS = [("no_commit_wait", drop_commit_wait), ("idesc_half_n", idesc_half_n), ("b_from_a", b_from_a)]


def write(name, ptx, how, launch_obj):
    with open(os.path.join(OUT, name + ".ptx"), "w") as f:
        f.write("// made by scripts/ptx-oracle/tilelang_sm100_kernels.py (tilelang %s, nvcc): %s\n"
                % (tilelang.__version__, how))
        f.write(ptx)
    with open(os.path.join(OUT, name + ".launch.json"), "w") as f:
        json.dump(launch_obj, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    for (name, M, N, K, bm, bn, bk, dt) in CONFIGS:
        how = "%s gemm %dx%dx%d, block %dx%dx%d, sm_100a" % (dt, M, N, K, bm, bn, bk)
        ptx, grid, block, shared = compile_ptx(matmul(M, N, K, bm, bn, bk, dt, ""))
        lo = launch(M, N, K, dt, grid, block, shared)
        write(name, ptx, how, lo)
        if name != CONFIGS[0][0]:
            continue
        p, g, b, sh = compile_ptx(matmul(M, N, K, bm, bn, bk, dt, "skip_k"))
        write(name + "_skip_k", p, how + ", the last K tile skipped in the source", launch(M, N, K, dt, g, b, sh))
        for plant, edit in PTX_PLANTS:
            write(name + "_" + plant, edit(ptx), how + ", PTX edited: " + plant, lo)
    print("wrote", len([f for f in os.listdir(OUT) if f.endswith(".ptx")]), "PTX files to", OUT)


if __name__ == "__main__":
    main()
