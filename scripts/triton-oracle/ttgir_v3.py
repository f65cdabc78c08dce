#!/usr/bin/env python3
"""Record Triton's sm_90 (Hopper, wgmma) TTGIR and its linear layouts of MMA v3 encodings.

Run outside the build with `pip install triton` (3.9; CPU only, no GPU needed):

    python scripts/triton-oracle/ttgir_v3.py tests/data/triton/ttgir_v3

writes into the folder

  conversions.jsonl  for many (warpsPerCTA, instrShape, shape): the tensor type
                 of a #ttg.nvidia_mma<{versionMajor = 3, ...}> accumulator and
                 of a #ttg.dot_op<{opIdx = 0, parent = that, kWidth}> A operand
                 (wgmma's A from registers) as Triton prints it, with the linear
                 layout Triton itself converts it to (Gluon's to_linear_layout);
  *.ttgir        whole modules: tl.dot kernels compiled by Triton's own passes
                 (make_ttir, make_ttgir) for sm_90 -- ttng.warp_group_dot over
                 #ttg.nvmma_shared operands, 4 and 8 warps, f16, bf16, fp8,
                 tf32, a pipelined K loop, device-side TensorDescriptors, and a
                 chained dot whose second A comes from registers.

tests/test_triton_ttgir_v3.cc requires mmacheck's conversion
(core/triton/triton_mma_linear.h) to give every recorded layout and
`mmacheck prove` to check every module.
"""
import json
import os
import sys
import tempfile
import textwrap
import importlib.util
import warnings

warnings.filterwarnings("ignore")

import triton  # noqa: E402
import triton.experimental.gluon.language as gl  # noqa: E402
from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.experimental.gluon.language._semantic import GluonSemantic  # noqa: E402

COMMAND = "python scripts/triton-oracle/ttgir_v3.py tests/data/triton/ttgir_v3"

KERNEL = textwrap.dedent('''
    import triton
    import triton.language as tl

    @triton.jit
    def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
        rm = tl.arange(0, M)
        rn = tl.arange(0, N)
        rk = tl.arange(0, K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
        c = tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


    @triton.jit
    def dot_bt_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
        # B stored N x K (K contiguous), transposed in registers: a K-major B.
        rm = tl.arange(0, M)
        rn = tl.arange(0, N)
        rk = tl.arange(0, K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        bt = tl.load(b_ptr + rn[:, None] * K + rk[None, :])
        c = tl.dot(a, tl.trans(bt))
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


    @triton.jit
    def desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
        pm = tl.program_id(0) * BM
        pn = tl.program_id(1) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = a_desc.load([pm, k])
            b = b_desc.load([pn, k])
            acc = tl.dot(a, b.T, acc)
        rm = pm + tl.arange(0, BM)
        rn = pn + tl.arange(0, BN)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


    @triton.jit
    def chain_kernel(a_ptr, b_ptr, v_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
        # The second dot's A is the first's result in registers (attention's P @ V).
        rm = tl.arange(0, M)
        rn = tl.arange(0, N)
        rk = tl.arange(0, K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
        v = tl.load(v_ptr + rn[:, None] * N + rn[None, :])
        p = tl.dot(a, b).to(v.dtype)
        c = tl.dot(p, v)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
''')

# (file, kernel, num_warps, constexprs, pointer types)
MODULES = [
    ("sm90_f16_64x64x32_w4", "dot_kernel", 4, dict(M=64, N=64, K=32), ("fp16", "fp16", "fp32")),
    ("sm90_bf16_128x128x64_w8", "dot_kernel", 8, dict(M=128, N=128, K=64), ("bf16", "bf16", "fp32")),
    ("sm90_f16_128x256x64_w8", "dot_kernel", 8, dict(M=128, N=256, K=64), ("fp16", "fp16", "fp32")),
    ("sm90_f16_256x128x32_w8", "dot_kernel", 8, dict(M=256, N=128, K=32), ("fp16", "fp16", "fp32")),
    ("sm90_f16_64x32x16_w4", "dot_kernel", 4, dict(M=64, N=32, K=16), ("fp16", "fp16", "fp32")),
    ("sm90_tf32_64x64x32_w4", "dot_kernel", 4, dict(M=64, N=64, K=32), ("fp32", "fp32", "fp32")),
    ("sm90_e4m3_128x128x64_w4", "dot_bt_kernel", 4, dict(M=128, N=128, K=64), ("fp8e4nv", "fp8e4nv", "fp32")),
    ("sm90_f16_bt_128x64x64_w4", "dot_bt_kernel", 4, dict(M=128, N=64, K=64), ("fp16", "fp16", "fp32")),
    ("sm90_i8_64x64x64_w4", "dot_bt_kernel", 4, dict(M=64, N=64, K=64), ("i8", "i8", "i32")),
    ("sm90_f16_loop_128x128x64_w8", "matmul_kernel", 8, dict(BM=128, BN=128, BK=64),
     ("fp16", "fp16", "fp32", "i32", "i32", "i32")),
    ("sm90_bf16_desc_128x128x64_w4", "desc_kernel", 4, dict(BM=128, BN=128, BK=64),
     ("bf16", "bf16", "fp32", "i32", "i32", "i32")),
    ("sm90_f16_chain_64x64x64_w4", "chain_kernel", 4, dict(M=64, N=64, K=64), ("fp16", "fp16", "fp16", "fp32")),
    ("sm90_f16_chain_128x128x64_w8", "chain_kernel", 8, dict(M=128, N=128, K=64), ("fp16", "fp16", "fp16", "fp32")),
]


def compile_ttgir(fn, warps, constexprs, types):
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.compiler import ASTSource
    names = [n for n in fn.arg_names if n not in constexprs]
    sig = {n: ("*" + t if n.endswith("_ptr") else t) for n, t in zip(names, types)}
    src = ASTSource(fn=fn, signature=sig, constexprs=constexprs)
    target = GPUTarget("cuda", 90, 32)
    backend = CUDABackend(target)
    options = backend.parse_options({"num_warps": warps, "num_stages": 3})
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(), ctx)
    stages = {}
    backend.add_stages(stages, options, src.language)
    metadata = {}
    module = stages["ttir"](module, metadata)
    module = stages["ttgir"](module, metadata)
    return str(module)


def load_kernels():
    path = os.path.join(tempfile.mkdtemp(), "wgmma_kernels.py")
    with open(path, "w") as f:
        f.write(KERNEL)
    spec = importlib.util.spec_from_file_location("wgmma_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, os.path.dirname(path)


def cases():
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    sem = GluonSemantic(builder)
    element = {"f16": builder.get_half_ty(), "bf16": builder.get_bf16_ty(), "f32": builder.get_float_ty(),
               "f8": builder.get_fp8e4nv_ty(), "i8": builder.get_int8_ty(), "i32": builder.get_int32_ty()}

    def record(out, layout, shape, dtype):
        d = gl.to_linear_layout(layout, list(shape), _semantic=sem).value
        type_text = str(builder.get_distributed_ty(element[dtype], list(shape), layout._to_ir(builder)))
        out.append({"type": type_text, "layout": {"reg_bases": d.reg_bases, "lane_bases": d.lane_bases,
                                                  "warp_bases": d.warp_bases, "block_bases": d.block_bases,
                                                  "shape": d.shape}})

    out = []
    for warps in ([4, 1], [8, 1], [4, 2], [16, 1], [4, 4]):
        for cga in ([], [[1, 0]], [[0, 1]]):
            if cga and warps != [4, 1]:
                continue
            for n_instr, k_instr, acc, ops in ((8, 16, "f32", (("f16", 2), ("bf16", 2))), (64, 16, "f32", (("f16", 2),)),
                                              (128, 16, "f32", (("f16", 2),)), (256, 16, "f32", (("f16", 2),)),
                                              (32, 8, "f32", (("f32", 1),)), (64, 32, "i32", (("i8", 4), ("f8", 4))),
                                              (64, 16, "f16", ())):
                mma = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=warps,
                                                instr_shape=[16, n_instr, k_instr], cga_layout=cga)
                for m in (64, 128, 256):
                    for n in (n_instr, 2 * n_instr, 256):
                        if n > 512 or (cga and (m, n) != (128, 2 * n_instr)):
                            continue
                        record(out, mma, (m, n), acc)
                for dtype, k_width in ops:
                    a = gl.DotOperandLayout(operand_index=0, parent=mma, k_width=k_width)
                    for m in (64, 128, 256):
                        for k in (k_instr, 2 * k_instr, 128):
                            if cga and (m, k) != (128, 2 * k_instr):
                                continue
                            record(out, a, (m, k), dtype)
    return out


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    recorded = cases()
    with open(os.path.join(folder, "conversions.jsonl"), "w") as f:
        f.write(json.dumps({"producer": "triton " + triton.__version__, "command": COMMAND}) + "\n")
        f.write("".join(json.dumps(c) + "\n" for c in recorded))
    mod, tmp = load_kernels()
    for name, kern, warps, constexprs, types in MODULES:
        fn = getattr(mod, kern)
        text = compile_ttgir(fn, warps, constexprs, types)
        text = text.replace(tmp, "<kernel>")
        with open(os.path.join(folder, name + ".ttgir"), "w") as f:
            f.write(text)
    print("%d cases, %d modules (triton %s)" % (len(recorded), len(MODULES), triton.__version__), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
