# m16n8k8: D[16, 8] = A[16, 16] @ B[16, 8] (B given N x K as B[8, 16]) in two
# K steps of m16n8k8.  A's image (1, 2, 16, 4) words (two registers per K
# step), B's (1, 2, 8, 4) (one); the first step reads C = f32(0), the second
# accumulates into D.  (A single m16n8k8's one B register needs an m iter of
# extent 1 in its image, tirx_k8_unit_m.py; without one, tirx_refuse_no_m.py.)
# TVM 0.1.0a4: accepted, 2 T.ptx.mma.  mmacheck: proved.
# Expected verdict: proved
# Expected instruction: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 (2 mma)
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_IMG = TileLayout(S[(2, 2, 8, 4) : (2, 1, 4 @ laneid, 1 @ laneid)])  # word = 2*k + rM
B_IMG = TileLayout(S[(2, 8, 4) : (1, 4 @ laneid, 1 @ laneid)])        # word = k
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((1, 2, 16, 4), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 2, 8, 4), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), "float16", scope="local", layout=TileLayout(S[4:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for s in T.unroll(8):
            a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 8 * (s // 4) + 2 * (lane % 4) + s % 2]
        for s in T.unroll(4):
            b_h[s] = B[lane // 4, 8 * (s // 2) + 2 * (lane % 4) + s % 2]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
