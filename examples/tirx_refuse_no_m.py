# A refusal that is TVM's own failure: m16n8k8's B has one register per lane,
# and a B image written without an m iter, S[(8, 4) : (4@laneid, 1@laneid)],
# gives the pattern no 'm' coordinate: TVM 0.1.0a4 stops with KeyError 'm'
# (tirx_k8_unit_m.py keeps unit iters on m, S[(1, 1, 8, 4) : (1, 1, ...)], and
# is accepted: TVM's layouts keep extent-1 iters).
# TVM 0.1.0a4: refused ("'m'").  mmacheck: dispatch_failed, naming B.
# Expected verdict: dispatch_failed
# Expected reason: declined — 'm' (B: the layout names no m (no m iter, not even of extent 1), so the pattern finds no register; TVM 0.1.0a4 fails with KeyError 'm')
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_IMG = A_FRAG.pack(2)                                          # (16, 4) words
B_IMG = TileLayout(S[(8, 4) : (4 @ laneid, 1 @ laneid)])  # (8, 4) words, B given N x K
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(A: T.Tensor((16, 8), "float16"), B: T.Tensor((8, 8), "float16"), D: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((1, 1, 16, 4), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 4), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((4,), "float16", scope="local", layout=TileLayout(S[4:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((2,), "float16", scope="local", layout=TileLayout(S[2:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for s in T.unroll(4):
            a_h[s] = A[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2]
        for s in T.unroll(2):
            b_h[s] = B[lane // 4, 2 * (lane % 4) + s]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
