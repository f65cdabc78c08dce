# The helper's body names the kernel's `lane`, which is not its parameter: Python
# looks it up in the module and TVM 0.1.0a4 raises NameError: name 'lane' is not defined.
# Expected: a located error at the helper's lane
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
A_IMG = A_FRAG.pack(2)                                          # (16, 8) words
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])  # (8, 8) words, B given N x K
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


def a_row(s):
    return lane // 4 + 8 * (s // 2 % 2)


@T.function
def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        lane = T.cuda.lane_id()
        a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))])
        b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), "float16", scope="local", layout=TileLayout(S[4:1]))])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for s in T.unroll(8):
            a_h[s] = A[a_row(s), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
        for s in T.unroll(4):
            b_h[s] = B[lane // 4, 2 * (lane % 4) + s % 2 + 8 * (s // 2)]
        for s in T.unroll(4):
            d_r[s] = T.float32(0)
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], d[:, :, :, :], scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
