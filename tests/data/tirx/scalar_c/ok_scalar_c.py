# The scalar C T.float32(1.5) in the apply: TVM's pattern passes it as the mma's C
# at the first K step, so every element of D is A·B + 1.5.
# Expected verdict: proved
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
A_IMG = A_FRAG.pack(2)                                          # (16, 8) words
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])  # (8, 8) words, B given N x K
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), "float16", scope="local", layout=TileLayout(S[4:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for s in T.unroll(8):
            a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
        for s in T.unroll(4):
            b_h[s] = B[lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 2)]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(1.5), scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
