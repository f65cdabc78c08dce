# A refusal: A lives in shared memory, which the mma.sync dispatch declines
# (stage it into registers with ldmatrix first), exactly as TVM's
# mma_m16n8k_ dispatch fails.
# Expected verdict: dispatch_failed
# Expected reason: declined — gemm mma requires A in register (local) scope, got shared
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid

D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
B_FRAG = B_FRAG_K8.tile_to([16, 8], [8, 8])


@T.prim_func
def gemm():
    T.device_entry()
    _cta = T.cta_id([1])
    _warp = T.warp_id([1])
    _lane = T.lane_id([32])
    A_s = T.alloc_buffer((16, 16), "float16", scope="shared")
    B = T.alloc_buffer((16, 8), "float16", scope="local", layout=B_FRAG)
    D = T.alloc_buffer((16, 8), "float32", scope="local", layout=D_FRAG)
    Tx.warp.gemm(D, A_s, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
