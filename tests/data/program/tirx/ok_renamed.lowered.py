# ok_renamed: seed_corrected with tensors renamed (A -> X, B -> W, D -> Y), local names changed (images, views, lane, slot) and B's staging written before A's.
# Why: Only names and the order of two staging loops over disjoint registers differ from the base.
# Base: examples/tirx_seed_corrected.py
# Expected verdict: proved
# Class: rename
# Made by: /work/venv-tvm/bin/python scripts/tirx-oracle/compositions.py --out tests/data/program/tirx
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(X: T.Tensor((16, 16), T.float16), W: T.Tensor((8, 16), T.float16), Y: T.Tensor((16, 8), T.float32)):
        with T.device_scope(1, 1, 1, 32, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            ln: T.let[T.int32] = T.cuda.thread_idx("x") % 32
            xr = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 2, "m"), T.Iter(4, 1, "laneid"), T.Iter(1, 1, "m")], replica=[]))])
            wr = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 8, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            yreg = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            xh = T.decl_tensor(xr.data, ty_args=[T.Tensor((8,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[]))])
            wh = T.decl_tensor(wr.data, ty_args=[T.Tensor((4,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            yr = T.decl_tensor(yreg.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            for j in T.unroll(0, 4):
                wh[j] = W[ln // 4, 2 * (ln % 4) + j % 2 + 8 * (j // 2)]
            for j_1 in T.unroll(0, 8):
                xh[j_1] = X[ln // 4 + 8 * (j_1 // 2 % 2), 2 * (ln % 4) + j_1 % 2 + 8 * (j_1 // 4)]
            tile_D = T.decl_tensor(yreg.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_A = T.decl_tensor(xr.data, ty_args=[T.Tensor((4,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_B = T.decl_tensor(wr.data, ty_args=[T.Tensor((2,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m")], replica=[]))])
            for repeat_0 in T.unroll(0, 1):
                for repeat_1 in T.unroll(0, 1):
                    for repeat_2 in T.unroll(0, 1):
                        T.ptx.mma(tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3], tile_A[T.cuda.thread_idx("x") % 32 // 32], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 1], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 2], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 3], tile_B[0], tile_B[1], T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3]), "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32", "")
            for j_2 in T.unroll(0, 4):
                Y[ln // 4 + 8 * (j_2 // 2), 2 * (ln % 4) + j_2 % 2] = yr[j_2]
