# One m16n8k8 atom: the k8 fragments as they are, A 4 and B 2 registers
# per lane, staged with the register map written with shifts and masks
# (g = lane >> 2, t = lane & 3), as the PTX ISA's figures are often read.
# Expected verdict: proved
# Expected instruction: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 (1 mma)
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid

D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])


@T.prim_func
def gemm(A_ptr: T.handle, B_ptr: T.handle, D_ptr: T.handle):
    """D = A @ B on one m16n8k8 tile."""
    A_g = T.match_buffer(A_ptr, (16, 8), "float16")
    B_g = T.match_buffer(B_ptr, (8, 8), "float16")
    D_g = T.match_buffer(D_ptr, (16, 8), "float32")
    T.device_entry()
    T.cta_id([1])
    T.warp_id([1])
    lane = T.lane_id([32])
    g = lane >> 2
    t = lane & 3
    A_f = T.alloc_buffer((16, 8), T.float16, scope="local", layout=A_FRAG_K8)
    B_f = T.alloc_buffer((8, 8), T.float16, scope="local", layout=B_FRAG_K8)
    D_f = T.alloc_buffer((16, 8), T.float32, scope="local", layout=D_FRAG)
    A_reg = A_f.local()
    for s in T.serial(4):
        A_reg[s] = A_g[g + 8 * (s // 2), 2 * t + s % 2]
    B_reg = B_f.local()
    for s in range(2):
        B_reg[s] = B_g[2 * t + s, g]
    Tx.warp.gemm(D_f, A_f, B_f, D_f)
    D_reg = D_f.local(2, 2)
    for rM, rN in T.grid(2, 2):
        D_g[g + 8 * rM, 2 * t + rN] = D_reg[rM, rN]
