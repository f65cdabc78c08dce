"""Record the tcgen05 descriptors TVM 0.1.0a4 (apache-tvm-tirx) encodes, for
mmacheck's tests (tests/test_tcgen05_tirx.cc).

TIRx's tcgen05.mma pattern (backend/cuda/tile/patterns/tcgen05_mma.py) folds
its instruction descriptor with backend/cuda/cpp/descriptors.py's
encode_instr_descriptor_dense_uint32 and each shared-memory descriptor with
encode_smem_descriptor_base_uint64 (the start address ORed in at run time).
This script calls both over a grid of kinds, formats, shapes, major-ness and
swizzles and writes one JSON object a line: {"what": "idesc", the inputs,
"value"} or {"what": "idesc", the inputs, "refused": message} when TIRx's
shape check refuses the shape; {"what": "smem", "ldo", "sdo" (16-byte units),
"swizzle" (TIRx's enum name), "value"}; and {"what": "tmem", "cta_group", "m",
"n", "letter", "layout"}: the TMEM layout of one CTA's (M / cta_group) x N
accumulator that backend/cuda/layout.py's tmem_mma_operand_layout gives
(printed), with the ISA's data-path letter TIRx names it by.  The first line
is the command.  Runs
outside the build (CI installs no TVM); CPU only:

    pip install apache-tvm-tirx==0.1.0a4
    python3 scripts/tirx-oracle/tcgen05_descriptors.py --out tests/data/tcgen05/tirx_descriptors.jsonl
"""

import argparse
import json

import tvm_tirx.backend.cuda  # noqa: F401  (registers the TMEM axes)
from tvm_tirx.backend.cuda.layout import _mma_datapath_letter, tmem_mma_operand_layout
from tvm_tirx.backend.cuda.cpp.descriptors import (
    encode_instr_descriptor_dense_uint32,
    encode_smem_descriptor_base_uint64,
)

# (kind, d, a, b) in TVM's dtype names and PTX's.
FORMATS = [
    ("f16", ("float32", "f32"), ("bfloat16", "bf16"), ("bfloat16", "bf16")),
    ("f16", ("float32", "f32"), ("float16", "f16"), ("float16", "f16")),
    ("f16", ("float16", "f16"), ("float16", "f16"), ("float16", "f16")),
    ("tf32", ("float32", "f32"), ("tensor_float32", "tf32"), ("tensor_float32", "tf32")),
    ("f8f6f4", ("float32", "f32"), ("float8_e4m3fn", "e4m3"), ("float8_e5m2", "e5m2")),
    ("f8f6f4", ("float32", "f32"), ("float4_e2m1fn", "e2m1"), ("float6_e3m2fn", "e3m2")),
    ("i8", ("int32", "s32"), ("int8", "s8"), ("uint8", "u8")),
]
K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32}
SHAPES = [(1, 64, 8), (1, 64, 256), (1, 128, 8), (1, 128, 16), (1, 128, 256), (2, 128, 16), (2, 128, 32),
          (2, 256, 64), (2, 256, 256)]
SWIZZLES = {0: "none", 1: "32B", 2: "64B", 3: "128B", 4: "128B_base32B"}
TRANSPOSABLE = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    out = open(ap.parse_args().out, "w")
    out.write(json.dumps({"command": "python3 scripts/tirx-oracle/tcgen05_descriptors.py --out "
                          "tests/data/tcgen05/tirx_descriptors.jsonl", "tvm": "apache-tvm-tirx 0.1.0a4"}) + "\n")
    for kind, (dt, dp), (at, ap_), (bt, bp) in FORMATS:
        for cta_group, m, n in SHAPES:
            for trans_a, trans_b in ((False, False), (True, False), (False, True)):
                if (trans_a and ap_ not in TRANSPOSABLE) or (trans_b and bp not in TRANSPOSABLE):
                    continue
                row = {"what": "idesc", "kind": kind, "cta_group": cta_group, "m": m, "n": n, "d": dp, "a": ap_,
                       "b": bp, "a_major": "MN" if trans_a else "K", "b_major": "MN" if trans_b else "K"}
                try:
                    row["value"] = encode_instr_descriptor_dense_uint32(
                        M=m, N=n, K=K[kind], d_dtype=dt, a_dtype=at, b_dtype=bt, trans_a=trans_a,
                        trans_b=trans_b, cta_group=cta_group)
                except ValueError as e:
                    row["refused"] = str(e)
                out.write(json.dumps(row) + "\n")
    for swizzle, name in SWIZZLES.items():
        for ldo, sdo in ((1, 64), (8, 16), (128, 64), (0x3FFF, 1)):
            out.write(json.dumps({"what": "smem", "ldo": ldo, "sdo": sdo, "swizzle": name,
                                  "value": encode_smem_descriptor_base_uint64(ldo, sdo, swizzle)}) + "\n")

    for cta_group, m in ((1, 128), (1, 64), (2, 256), (2, 128)):
        for n in (16, 64, 256):
            layout = tmem_mma_operand_layout("D", (m // cta_group, n), "float32", M=m, cta_group=cta_group)
            out.write(json.dumps({"what": "tmem", "cta_group": cta_group, "m": m, "n": n,
                                  "letter": _mma_datapath_letter(m, cta_group), "layout": str(layout)}) + "\n")


if __name__ == "__main__":
    main()
