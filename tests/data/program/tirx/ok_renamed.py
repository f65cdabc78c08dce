# ok_renamed: seed_corrected with tensors renamed (A -> X, B -> W, D -> Y), local names changed (images, views, lane, slot) and B's staging written before A's.
# Why: Only names and the order of two staging loops over disjoint registers differ from the base.
# Base: examples/tirx_seed_corrected.py
# Expected verdict: proved
# Class: rename
# Made by: /work/venv-tvm/bin/python scripts/tirx-oracle/compositions.py --out tests/data/program/tirx
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

X_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
X_IMG = X_FRAG.pack(2)                                          # (16, 8) words
W_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])  # (8, 8) words, W given N x K
Y_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


@T.function
def main(X: T.Tensor((16, 16), "float16"), W: T.Tensor((8, 16), "float16"), Y: T.Tensor((16, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):
        ln = T.cuda.lane_id()
        xr = T.alloc_local((1, 1, 16, 8), "uint32", layout=X_IMG)
        wr = T.alloc_local((1, 1, 8, 8), "uint32", layout=W_IMG)
        yreg = T.alloc_local((1, 1, 16, 8), "float32", layout=Y_IMG)
        xh = T.decl_tensor(xr.data, ty_args=[T.Tensor((8,), "float16", scope="local", layout=TileLayout(S[8:1]))])
        wh = T.decl_tensor(wr.data, ty_args=[T.Tensor((4,), "float16", scope="local", layout=TileLayout(S[4:1]))])
        yr = T.decl_tensor(yreg.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for j in T.unroll(4):
            wh[j] = W[ln // 4, 2 * (ln % 4) + j % 2 + 8 * (j // 2)]
        for j in T.unroll(8):
            xh[j] = X[ln // 4 + 8 * (j // 2 % 2), 2 * (ln % 4) + j % 2 + 8 * (j // 4)]
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", yreg[:, :, :, :], xr[:, :, :, :], wr[:, :, :, :], T.float32(0), scope="warp")
        for j in T.unroll(4):
            Y[ln // 4 + 8 * (j // 2), 2 * (ln % 4) + j % 2] = yr[j]
