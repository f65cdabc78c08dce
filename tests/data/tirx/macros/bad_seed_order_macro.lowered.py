# /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/macros/bad_macro_tensor_swapped.py tests/data/tirx/macros/bad_seed_order_macro.py tests/data/tirx/macros/bad_store_macro_first.py tests/data/tirx/macros/ok_macro_staging.py tests/data/tirx/macros/ok_nested_macro.py tests/data/tirx/macros/refused_macro_kernel_name.py --out tests/data/tirx/macros
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
                a_h[s] = A[lane // 4 + 8 * (s // 4), 2 * (lane % 4) + s % 2 + 8 * (s // 2 % 2)]
            for s_1 in T.unroll(0, 4):
                b_h[s_1] = B[lane // 4, 2 * (lane % 4) + s_1 % 2 + 8 * (s_1 // 2)]
            tile_D = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_A = T.decl_tensor(a.data, ty_args=[T.Tensor((4,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_B = T.decl_tensor(b.data, ty_args=[T.Tensor((2,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m")], replica=[]))])
            for repeat_0 in T.unroll(0, 1):
                for repeat_1 in T.unroll(0, 1):
                    for repeat_2 in T.unroll(0, 1):
                        T.ptx.mma(tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3], tile_A[T.cuda.thread_idx("x") % 32 // 32], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 1], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 2], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 3], tile_B[0], tile_B[1], T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3]), "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32", "")
            for s_2 in T.unroll(0, 4):
                D[lane // 4 + 8 * (s_2 // 2), 2 * (lane % 4) + s_2 % 2] = d_r[s_2]
