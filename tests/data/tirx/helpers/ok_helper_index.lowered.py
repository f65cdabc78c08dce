# /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/helpers/bad_helper_seed_order.py tests/data/tirx/helpers/bad_helper_store_exchanged.py tests/data/tirx/helpers/bad_helper_swapped_args.py tests/data/tirx/helpers/ok_helper_index.py tests/data/tirx/helpers/ok_helper_nested.py tests/data/tirx/helpers/refused_helper_kernel_name.py --out tests/data/tirx/helpers
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((16, 16), T.float16), B: T.Tensor((8, 16), T.float16), D: T.Tensor((16, 8), T.float32)):
        with T.device_scope(1, 1, 1, 32, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            lane: T.let[T.int32] = T.cuda.thread_idx("x") % 32
            a = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 2, "m"), T.Iter(4, 1, "laneid"), T.Iter(1, 1, "m")], replica=[]))])
            b = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 8, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            d = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[]))])
            b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            for s in T.unroll(0, 8):
                a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
            for s_1 in T.unroll(0, 4):
                b_h[s_1] = B[lane // 4, 2 * (lane % 4) + s_1 % 2 + 8 * (s_1 // 2)]
            for s_2 in T.unroll(0, 4):
                d_r[s_2] = T.float32(0.0)
            tile_D = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_C = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_A = T.decl_tensor(a.data, ty_args=[T.Tensor((4,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_B = T.decl_tensor(b.data, ty_args=[T.Tensor((2,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m")], replica=[]))])
            for repeat_0 in T.unroll(0, 1):
                for repeat_1 in T.unroll(0, 1):
                    for repeat_2 in T.unroll(0, 1):
                        T.ptx.mma(tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3], tile_A[T.cuda.thread_idx("x") % 32 // 32], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 1], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 2], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 3], tile_B[0], tile_B[1], T.if_then_else(repeat_2 == 0, tile_C[T.cuda.thread_idx("x") % 32 // 32 * 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2]), T.if_then_else(repeat_2 == 0, tile_C[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1]), T.if_then_else(repeat_2 == 0, tile_C[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2]), T.if_then_else(repeat_2 == 0, tile_C[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3]), "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32", "")
            for s_3 in T.unroll(0, 4):
                D[lane // 4 + 8 * (s_3 // 2), 2 * (lane % 4) + s_3 % 2] = d_r[s_3]
