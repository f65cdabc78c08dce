#!/usr/bin/env python3
"""Record Triton's TTGIR text and its linear layouts of NVIDIA MMA v2 encodings.

Run outside the build with `pip install triton` (3.9; CPU only, no GPU needed):

    python scripts/triton-oracle/ttgir.py tests/data/triton/ttgir

writes into the folder

  conversions.jsonl  for many (warpsPerCTA, CGALayout, shape, opIdx, kWidth,
                 element type): the tensor type as Triton prints it
                 (`tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent =
                 #ttg.nvidia_mma<{...}>, kWidth = 2}>>`) and the linear
                 layout Triton itself converts that encoding to (Gluon's
                 to_linear_layout), as Gluon's fields;
  signatures.mlir  lines of `tensor<A> * tensor<B> -> tensor<D>` and bare
                 tensor types, each type printed by Triton;
  *.ttgir        whole modules: small tl.dot kernels compiled by Triton's
                 own passes (make_ttir, make_ttgir) for sm_80 and sm_90,
                 printed as Triton prints them.

tests/test_triton_ttgir.cc requires mmacheck's own conversion
(core/triton/triton_mma_linear.h) to give every recorded layout, and
`mmacheck triton` to read and check every recorded module.
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

COMMAND = "python scripts/triton-oracle/ttgir.py tests/data/triton/ttgir"

# A tl.dot kernel; @triton.jit needs its source in a file.
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
        c = tl.dot(a, b, input_precision=PRECISION)
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
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
''')

# A K loop (scf.for, the software pipeliner's ops): (file, capability, num_warps, BM, BN, BK, operand type)
LOOPS = [
    ("sm80_f16_loop_128x64x32_w4", 80, 4, 128, 64, 32, "fp16"),
    ("sm80_bf16_loop_64x128x64_w8", 80, 8, 64, 128, 64, "bf16"),
]

# (file, capability, num_warps, num_ctas, M, N, K, operand type, result type, input precision)
MODULES = [
    ("sm80_f16_64x64x32_w4", 80, 4, 1, 64, 64, 32, "fp16", "fp32", "tf32"),
    ("sm80_bf16_128x128x64_w8", 80, 8, 1, 128, 128, 64, "bf16", "fp32", "tf32"),
    ("sm80_i8_64x64x64_w4", 80, 4, 1, 64, 64, 64, "i8", "i32", "tf32"),
    ("sm80_tf32_32x32x32_w4", 80, 4, 1, 32, 32, 32, "fp32", "fp32", "tf32"),
    ("sm80_f16_16x16x16_w1", 80, 1, 1, 16, 16, 16, "fp16", "fp32", "tf32"),
    ("sm80_f16_32x64x16_w2", 80, 2, 1, 32, 64, 16, "fp16", "fp16", "tf32"),
    ("sm90_f16_128x128x32_w2_cta2", 90, 2, 2, 128, 128, 32, "fp16", "fp32", "tf32"),
    ("sm90_f16_64x64x32_w4_wgmma", 90, 4, 1, 64, 64, 32, "fp16", "fp32", "tf32"),
]


def compile_ttgir(fn, cap, warps, ctas, m, n, k, dtype, acc, precision):
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.compiler import ASTSource
    src = ASTSource(fn=fn, signature={"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*" + acc},
                    constexprs={"M": m, "N": n, "K": k})
    target = GPUTarget("cuda", cap, 32)
    backend = CUDABackend(target)
    options = backend.parse_options({"num_warps": warps, "num_ctas": ctas})
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


def compile_loop(fn, cap, warps, bm, bn, bk, dtype):
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.compiler import ASTSource
    src = ASTSource(fn=fn, signature={"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*fp32", "M": "i32",
                                      "N": "i32", "K": "i32"}, constexprs={"BM": bm, "BN": bn, "BK": bk})
    target = GPUTarget("cuda", cap, 32)
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


def kernel(precision):
    path = os.path.join(tempfile.mkdtemp(), "dot_kernel_%s.py" % precision)
    with open(path, "w") as f:
        f.write(KERNEL.replace("PRECISION", repr(precision)))
    spec = importlib.util.spec_from_file_location("dot_kernel_%s" % precision, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cases():
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    sem = GluonSemantic(builder)
    element = {"f16": builder.get_half_ty(), "bf16": builder.get_bf16_ty(), "f32": builder.get_float_ty(),
               "i8": builder.get_int8_ty(), "i32": builder.get_int32_ty()}

    def record(out, layout, shape, dtype):
        d = gl.to_linear_layout(layout, list(shape), _semantic=sem).value
        type_text = str(builder.get_distributed_ty(element[dtype], list(shape), layout._to_ir(builder)))
        out.append({"type": type_text, "layout": {"reg_bases": d.reg_bases, "lane_bases": d.lane_bases,
                                                  "warp_bases": d.warp_bases, "block_bases": d.block_bases,
                                                  "shape": d.shape}})

    out = []
    warps_list = [[1, 1], [2, 1], [1, 2], [2, 2], [4, 1], [1, 4], [4, 2], [2, 4], [8, 1]]
    cga_list = [[], [[1, 0]], [[0, 1]], [[1, 0], [0, 1]], [[0, 1], [1, 0]], [[0, 0]]]
    for warps in warps_list:
        for cga in cga_list:
            if cga and warps not in ([2, 2], [4, 1], [1, 1]):
                continue
            mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=warps, instr_shape=[16, 8], cga_layout=cga)
            for m in (16, 32, 64, 128, 256):
                for n in (8, 16, 32, 64, 128):
                    if cga and (m, n) not in ((64, 64), (128, 32), (16, 8), (32, 128)):
                        continue
                    for acc in ("f32", "i32", "f16"):
                        if acc != "f32" and (m, n) != (64, 32):
                            continue
                        record(out, mma, (m, n), acc)
            for k_width, dtype in ((1, "f32"), (2, "f16"), (2, "bf16"), (4, "i8"), (4, "f16"), (8, "f16"), (8, "i8"),
                                   (16, "i8")):
                for op_idx in (0, 1):
                    dot = gl.DotOperandLayout(operand_index=op_idx, parent=mma, k_width=k_width)
                    for mn in (16, 64, 128):
                        for k in (8, 16, 32, 64, 128):
                            if cga and (mn, k) not in ((64, 64), (128, 16)):
                                continue
                            record(out, dot, (mn, k) if op_idx == 0 else (k, mn), dtype)
    return out


def signatures():
    """Lines of dot signatures and bare tensor types, every type as Triton prints it."""
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    sem = GluonSemantic(builder)
    element = {"f16": builder.get_half_ty(), "bf16": builder.get_bf16_ty(), "f32": builder.get_float_ty(),
               "i8": builder.get_int8_ty(), "i32": builder.get_int32_ty()}

    def ty(dtype, shape, layout):
        return str(builder.get_distributed_ty(element[dtype], list(shape), layout._to_ir(builder)))

    lines = ["// " + COMMAND + " (triton " + triton.__version__ + ")"]
    for dtype, acc, k_width, warps, cga, (m, n, k) in (
            ("f16", "f32", 2, [2, 2], [], (64, 64, 32)),
            ("bf16", "f32", 2, [4, 1], [], (128, 32, 16)),
            ("i8", "i32", 4, [1, 2], [], (32, 64, 64)),
            ("f32", "f32", 1, [2, 2], [], (64, 64, 32)),
            ("f16", "f32", 8, [1, 1], [], (16, 8, 64)),
            ("f16", "f16", 4, [2, 2], [], (64, 64, 64)),
            ("f16", "f32", 2, [2, 1], [[0, 1]], (64, 128, 32)),
            ("f16", "f32", 2, [1, 2], [[1, 0], [0, 1]], (128, 128, 32)),
    ):
        mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=warps, instr_shape=[16, 8], cga_layout=cga)
        a = gl.DotOperandLayout(operand_index=0, parent=mma, k_width=k_width)
        b = gl.DotOperandLayout(operand_index=1, parent=mma, k_width=k_width)
        lines.append("%s * %s -> %s" % (ty(dtype, (m, k), a), ty(dtype, (k, n), b), ty(acc, (m, n), mma)))
    mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    lines.append(ty("f32", (64, 32), mma))
    lines.append(ty("f16", (64, 16), gl.DotOperandLayout(operand_index=0, parent=mma, k_width=2)))
    # The accumulator as the linear layout Triton converts it to, printed as #ttg.linear.
    linear = gl.to_linear_layout(mma, [64, 32], _semantic=sem).value
    a = gl.DotOperandLayout(operand_index=0, parent=mma, k_width=2)
    b = gl.DotOperandLayout(operand_index=1, parent=mma, k_width=2)
    lines.append("%s * %s -> %s" % (ty("f16", (64, 16), a), ty("f16", (16, 32), b), ty("f32", (64, 32), linear)))
    return lines


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    recorded = cases()
    # JSON Lines, so that `mmacheck triton` over the folder takes the modules only.
    with open(os.path.join(folder, "conversions.jsonl"), "w") as f:
        f.write(json.dumps({"producer": "triton " + triton.__version__, "command": COMMAND}) + "\n")
        f.write("".join(json.dumps(c) + "\n" for c in recorded))
    with open(os.path.join(folder, "signatures.mlir"), "w") as f:
        f.write("\n".join(signatures()) + "\n")
    kernels = {}
    for name, cap, warps, ctas, m, n, k, dtype, acc, precision in MODULES:
        fn = kernels.setdefault(precision, kernel(precision)).dot_kernel
        text = compile_ttgir(fn, cap, warps, ctas, m, n, k, dtype, acc, precision)
        # The kernel's temporary path is no part of what is checked.
        text = text.replace(os.path.dirname(fn.fn.__code__.co_filename), "<kernel>")
        with open(os.path.join(folder, name + ".ttgir"), "w") as f:
            f.write(text)
    for name, cap, warps, bm, bn, bk, dtype in LOOPS:
        fn = kernels.setdefault("tf32", kernel("tf32")).matmul_kernel
        text = compile_loop(fn, cap, warps, bm, bn, bk, dtype)
        text = text.replace(os.path.dirname(fn.fn.__code__.co_filename), "<kernel>")
        with open(os.path.join(folder, name + ".ttgir"), "w") as f:
            f.write(text)
    print("%d cases, %d modules (triton %s)" % (len(recorded), len(MODULES) + len(LOOPS), triton.__version__), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
