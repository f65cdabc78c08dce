# The gemm reads a region of a larger register buffer: A_big holds two k16
# tiles side by side (A_FRAG tile_to [16, 32]) and the gemm takes the second,
# A_big[0:16, 16:32].  Only B and D are staged here, so the report checks
# their staging and says A's was not given.
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


@T.prim_func
def gemm(B_ptr: T.handle, D_ptr: T.handle):
    B_g = T.match_buffer(B_ptr, (16, 8), "float16")
    D_g = T.match_buffer(D_ptr, (16, 8), "float32")
    T.device_entry()
    T.cta_id([1])
    T.warp_id([1])
    lane = T.lane_id([32])
    A_big = T.alloc_buffer((16, 32), "float16", scope="local", layout=A_FRAG.tile_to([16, 32], [16, 16]))
    B_f = T.alloc_buffer((16, 8), "float16", scope="local", layout=B_FRAG)
    D_f = T.alloc_buffer((16, 8), "float32", scope="local", layout=D_FRAG)
    B_reg = B_f.local(4)
    for s in T.unroll(4):
        B_reg[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // 4]
    Tx.warp.gemm(D_f, A_big[0:16, 16:32], B_f, D_f, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
    D_reg = D_f.local(4)
    for s in T.unroll(4):
        D_g[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = D_reg[s]
