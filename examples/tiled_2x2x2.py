# A 2 x 2 x 2 tiling of m16n8k16 in one warp (D[32, 16] = A[32, 32] @ B[32, 16]),
# written as TVM's test_gemm_mma_m16n8k_.py writes it (_build_tiled_numeric
# with Mt = Nt = Kt = 2, k16): each operand's layout is the single-tile
# fragment tile_to the whole shape, and the staging loops run over T.grid in
# the registers' physical order, A = [Mt, Kt, kHi, rM, kp].
# Expected verdict: proved
# Expected instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (8 mma)
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid

D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8])
B_FRAG = B_FRAG_K8.tile_to([16, 8], [8, 8])
Dl = D_FRAG.tile_to([32, 16], [16, 8])
Al = A_FRAG.tile_to([32, 32], [16, 16])
Bl = B_FRAG.tile_to([32, 16], [16, 8])


@T.prim_func
def gemm(A_ptr: T.handle, B_ptr: T.handle, D_ptr: T.handle):
    A_g = T.match_buffer(A_ptr, (32, 32), "float16")
    B_g = T.match_buffer(B_ptr, (32, 16), "float16")
    D_g = T.match_buffer(D_ptr, (32, 16), "float32")
    T.device_entry()
    _cta = T.cta_id([1])
    _warp = T.warp_id([1])
    lane = T.lane_id([32])
    A_f = T.alloc_buffer((32, 32), "float16", scope="local", layout=Al)
    B_f = T.alloc_buffer((32, 16), "float16", scope="local", layout=Bl)
    D_f = T.alloc_buffer((32, 16), "float32", scope="local", layout=Dl)
    A_reg = A_f.local(2, 2, 2, 2, 2)
    for mt, kt, kHi, rM, kp in T.grid(2, 2, 2, 2, 2):
        A_reg[mt, kt, kHi, rM, kp] = A_g[
            mt * 16 + lane // 4 + 8 * rM,
            kt * 16 + kHi * 8 + 2 * (lane % 4) + kp,
        ]
    B_reg = B_f.local(2, 2, 2, 2)
    for kt, nt, kHi, kp in T.grid(2, 2, 2, 2):
        B_reg[kt, nt, kHi, kp] = B_g[
            kt * 16 + kHi * 8 + 2 * (lane % 4) + kp,
            nt * 8 + lane // 4,
        ]
    Tx.warp.gemm(D_f, A_f, B_f, D_f, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
    D_reg = D_f.local(2, 2, 2, 2)
    for mt, nt, rM, rN in T.grid(2, 2, 2, 2):
        D_g[mt * 16 + lane // 4 + 8 * rM, nt * 8 + 2 * (lane % 4) + rN] = D_reg[mt, nt, rM, rN]
