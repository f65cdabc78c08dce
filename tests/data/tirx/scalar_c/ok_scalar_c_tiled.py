# M x N x K = 2 x 2 x 2 (examples/tirx_tiled_2x2x2.py) with the scalar C T.float32(-2.25):
# the first K step of each (m, n) reads it, the second accumulates: D = A·B - 2.25.
# Expected verdict: proved
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_IMG = TileLayout(S[(2, 2, 2, 8, 2, 4) : (8, 4, 1, 4 @ laneid, 2, 1 @ laneid)])
B_IMG = TileLayout(S[(2, 2, 8, 2, 4) : (4, 2, 4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(2, 2, 2, 8, 4, 2) : (8, 4, 2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(A: T.Tensor((32, 32), "float16"), B: T.Tensor((16, 32), "float16"), D: T.Tensor((32, 16), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((2, 2, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((2, 2, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((2, 2, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((32,), "float16", scope="local", layout=TileLayout(S[32:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((16,), "float16", scope="local", layout=TileLayout(S[16:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((16,), "float32", scope="local", layout=TileLayout(S[16:1]))])
        for s in T.unroll(32):
            a_h[s] = A[16 * (s // 16) + lane // 4 + 8 * (s // 2 % 2), 16 * (s // 8 % 2) + 2 * (lane % 4) + s % 2 + 8 * (s // 4 % 2)]
        for s in T.unroll(16):
            b_h[s] = B[8 * (s // 8) + lane // 4, 16 * (s // 4 % 2) + 2 * (lane % 4) + s % 2 + 8 * (s // 2 % 2)]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(-2.25), scope="warp")
        for s in T.unroll(16):
            D[16 * (s // 8) + lane // 4 + 8 * (s // 2 % 2), 8 * (s // 4 % 2) + 2 * (lane % 4) + s % 2] = d_r[s]
