# A stored as [K, M] (transpose_A=True), as TVM's test_gemm_mma_m16n8k_.py
# derives it: group A_FRAG by its logical dims and exchange the two groups.
# The registers keep their physical order [kHi, rM, kp]; only the buffer's
# axes swap, so the staging reads A_g[K, M].
# Expected verdict: proved
# Expected instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (1 mma)
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid

D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8])
B_FRAG = B_FRAG_K8.tile_to([16, 8], [8, 8])
grouped, seps = A_FRAG.group([16, 16])
A_KM_FRAG = grouped.permute_by_groups(seps, [1, 0])


@T.prim_func
def gemm(A_ptr: T.handle, B_ptr: T.handle, D_ptr: T.handle):
    A_g = T.match_buffer(A_ptr, (16, 16), "float16")
    B_g = T.match_buffer(B_ptr, (16, 8), "float16")
    D_g = T.match_buffer(D_ptr, (16, 8), "float32")
    T.device_entry()
    _cta = T.cta_id([1])
    _warp = T.warp_id([1])
    lane = T.lane_id([32])
    A_f = T.alloc_buffer((16, 16), "float16", scope="local", layout=A_KM_FRAG)
    B_f = T.alloc_buffer((16, 8), "float16", scope="local", layout=B_FRAG)
    D_f = T.alloc_buffer((16, 8), "float32", scope="local", layout=D_FRAG)
    A_reg = A_f.local(2, 2, 2)
    # A_KM_FRAG: buffer is [K, M].
    for kHi, rM, kp in T.grid(2, 2, 2):
        A_reg[kHi, rM, kp] = A_g[2 * (lane % 4) + kp + 8 * kHi, lane // 4 + 8 * rM]
    B_reg = B_f.local(2, 2)
    for kHi, kp in T.grid(2, 2):
        B_reg[kHi, kp] = B_g[2 * (lane % 4) + kp + 8 * kHi, lane // 4]
    Tx.warp.gemm(
        D_f,
        A_f,
        B_f,
        D_f,
        transpose_A=True,
        transpose_B=False,
        alpha=1.0,
        beta=0.0,
    )
    D_reg = D_f.local(2, 2)
    for rM, rN in T.grid(2, 2):
        D_g[lane // 4 + 8 * rM, 2 * (lane % 4) + rN] = D_reg[rM, rN]
