# m1n1k3_k8_bf16: 1 x 1 x 3 m16n8k8, bfloat16
# Expected verdict: proved
# Made by scripts/tirx-oracle/printouts.py (TVM 0.1.0a4 prints it as NAME.script.py, NAME.lowered.py).
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_IMG = TileLayout(S[(1, 3, 2, 8, 1, 4) : (6, 2, 1, 4 @ laneid, 2, 1 @ laneid)])
B_IMG = TileLayout(S[(1, 3, 8, 1, 4) : (3, 1, 4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(1, 1, 2, 8, 4, 2) : (4, 4, 2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(A: T.Tensor((16, 24), "bfloat16"), B: T.Tensor((8, 24), "bfloat16"), D: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((1, 3, 16, 4), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 3, 8, 4), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((12,), "bfloat16", scope="local", layout=TileLayout(S[12:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((6,), "bfloat16", scope="local", layout=TileLayout(S[6:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for s in T.unroll(12):
            a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 8 * (s // 4 % 3) + 2 * (lane % 4) + s % 2]
        for s in T.unroll(6):
            b_h[s] = B[lane // 4, 8 * (s // 2 % 3) + 2 * (lane % 4) + s % 2]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2] = d_r[s]
