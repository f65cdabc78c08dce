# Four warps split M
# Expected verdict: proved
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
A_IMG = A_FRAG.pack(2)
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
LD_REGS4 = TileLayout(S[(1, 4, 8, 4) : (4, 1, 4 @ laneid, 1 @ laneid)])
LD_REGS2 = TileLayout(S[(1, 2, 8, 4) : (2, 1, 4 @ laneid, 1 @ laneid)])

A_ROWS = TileLayout(S[(4, 2, 2, 8, 4) : (128, 4, 64, 8, 1)])
B_ROWS = TileLayout(S[(1, 2, 8, 4) : (64, 4, 8, 1)])


@T.function
def main(A: T.Tensor((64, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor((64, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[128])):
        lane = T.cuda.lane_id()
        warp = T.cuda.warp_id()
        tid = T.cuda.thread_idx("x")
        A_s = T.alloc_shared((64, 16), "float16")
        B_s = T.alloc_shared((8, 16), "float16")
        a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        A_w = T.decl_tensor(A_s.data, ty_args=[T.Tensor((4, 4, 8, 4), "uint32", scope="shared", layout=A_ROWS)])
        B_w = T.decl_tensor(B_s.data, ty_args=[T.Tensor((1, 2, 8, 4), "uint32", scope="shared", layout=B_ROWS)])
        a_ld = T.decl_tensor(a.data, ty_args=[T.Tensor((1, 4, 8, 4), "uint32", scope="local", layout=LD_REGS4)])
        b_ld = T.decl_tensor(b.data, ty_args=[T.Tensor((1, 2, 8, 4), "uint32", scope="local", layout=LD_REGS2)])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for i in T.serial(8):
            A_s[8 * i + tid // 16, tid % 16] = A[8 * i + tid // 16, tid % 16]
        for i in T.serial(1):
            B_s[8 * i + tid // 16, tid % 16] = B[8 * i + tid // 16, tid % 16]
        T.cuda.cta_sync()
        T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", a_ld[:, :, :, :], A_w[warp:warp + 1, :, :, :], scope="warp")
        T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x2.shared.b16", b_ld[:, :, :, :], B_w[0:1, :, :, :], scope="warp")
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[16 * warp + lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
