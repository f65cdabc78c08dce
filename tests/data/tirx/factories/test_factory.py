# A released-TIRx kernel built by a factory from its arguments, as TVM's own
# tests build theirs: `row_half` is the row offset of an f16 slot's second
# 8-row half (8 is right; 4 reads rows the A image does not place there),
# `dtype` the input type and its mma opcode.  The module builds two kernels at
# the top level and the parametrized test four; mmacheck reads each with its
# closure's values (docs/tirx-release.md, "Factories and tests").
# Expected: main, test_gemm[8-float16], test_gemm[8-bfloat16] proved;
# main_bad, test_gemm[4-float16], test_gemm[4-bfloat16] refuted.
import pytest

from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
A_IMG = A_FRAG.pack(2)
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


def make_kernel(row_half, dtype="float16"):
    opcode = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" if dtype == "bfloat16" else "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"

    @T.function
    def main(A: T.Tensor((16, 16), dtype), B: T.Tensor((8, 16), dtype), D: T.Tensor((16, 8), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
            lane = T.cuda.lane_id()
            a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
            b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
            d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
            a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), dtype, scope="local", layout=TileLayout(S[8:1]))])
            b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), dtype, scope="local", layout=TileLayout(S[4:1]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
            for s in T.unroll(8):
                a_h[s] = A[lane // 4 + row_half * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
            for s in T.unroll(4):
                b_h[s] = B[lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 2)]
            T.cuda.tile.apply(opcode, d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
            for s in T.unroll(4):
                D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]

    return main


main = make_kernel(8)
main_bad = make_kernel(4)


@pytest.mark.parametrize("row_half", [8, 4])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_gemm(row_half, dtype):
    kernel = make_kernel(row_half, dtype)
    assert kernel is not None
