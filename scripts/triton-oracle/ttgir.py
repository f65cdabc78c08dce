#!/usr/bin/env python3
"""Record Triton's TTGIR text and its linear layouts of NVIDIA MMA v2 encodings.

Run outside the build with `pip install triton` (3.9; CPU only, no GPU needed):

    python scripts/triton-oracle/ttgir.py tests/data/triton/ttgir

writes into the folder

  cases.json     for many (warpsPerCTA, CGALayout, shape, opIdx, kWidth,
                 element type): the tensor type as Triton prints it
                 (`tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent =
                 #ttg.nvidia_mma<{...}>, kWidth = 2}>>`) and the linear
                 layout Triton itself converts that encoding to (Gluon's
                 to_linear_layout), as Gluon's fields;
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
''')

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


def kernel(precision):
    path = os.path.join(tempfile.mkdtemp(), "dot_kernel_%s.py" % precision)
    with open(path, "w") as f:
        f.write(KERNEL.replace("PRECISION", repr(precision)))
    spec = importlib.util.spec_from_file_location("dot_kernel_%s" % precision, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dot_kernel


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


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    recorded = cases()
    with open(os.path.join(folder, "cases.json"), "w") as f:
        f.write('{"producer": %s, "command": %s, "cases": [\n' % (json.dumps("triton " + triton.__version__),
                                                                json.dumps(COMMAND)))
        f.write(",\n".join(json.dumps(c) for c in recorded))
        f.write("\n]}\n")
    kernels = {}
    for name, cap, warps, ctas, m, n, k, dtype, acc, precision in MODULES:
        fn = kernels.setdefault(precision, kernel(precision))
        text = compile_ttgir(fn, cap, warps, ctas, m, n, k, dtype, acc, precision)
        # The kernel's temporary path is no part of what is checked.
        text = text.replace(os.path.dirname(fn.fn.__code__.co_filename), "<kernel>")
        with open(os.path.join(folder, name + ".ttgir"), "w") as f:
            f.write(text)
    print("%d cases, %d modules (triton %s)" % (len(recorded), len(MODULES), triton.__version__), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
