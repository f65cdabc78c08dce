# Four warps of a CTA share one gemm (Tx.cta.gemm, T.warp_id([4])): A and D
# are split over warpid along M, B is the plain fragment that every warp
# holds.  The staging uses the warp index that T.warp_id binds.
# Expected verdict: proved
# Expected instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (1 mma)
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid, warpid

D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
B_FRAG = B_FRAG_K8.tile_to([16, 8], [8, 8])
A_CTA = TileLayout(S[(4, 2, 8, 2, 4, 2) : (1 @ warpid, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
D_CTA = TileLayout(S[(4, 2, 8, 4, 2) : (1 @ warpid, 2, 4 @ laneid, 1 @ laneid, 1)])


@T.prim_func
def gemm(A_ptr: T.handle, B_ptr: T.handle, D_ptr: T.handle):
    A_g = T.match_buffer(A_ptr, (64, 16), "float16")
    B_g = T.match_buffer(B_ptr, (16, 8), "float16")
    D_g = T.match_buffer(D_ptr, (64, 8), "float32")
    T.device_entry()
    T.cta_id([1])
    warp = T.warp_id([4])
    lane = T.lane_id([32])
    A_f = T.alloc_buffer((64, 16), "float16", scope="local", layout=A_CTA)
    B_f = T.alloc_buffer((16, 8), "float16", scope="local", layout=B_FRAG)
    D_f = T.alloc_buffer((64, 8), "float32", scope="local", layout=D_CTA)
    A_reg = A_f.local(8)
    for s in T.unroll(8):
        kp, rM, kHi = s % 2, (s // 2) % 2, s // 4
        A_reg[s] = A_g[16 * warp + lane // 4 + 8 * rM, 2 * (lane % 4) + kp + 8 * kHi]
    B_reg = B_f.local(4)
    for s in T.unroll(4):
        B_reg[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // 4]
    Tx.cta.gemm(D_f, A_f, B_f, D_f, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
    D_reg = D_f.local(4)
    for s in T.unroll(4):
        D_g[16 * warp + lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = D_reg[s]
