# /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/regions/bad_crossed_regions.py tests/data/tirx/regions/bad_k_split_restart.py tests/data/tirx/regions/bad_missing_tile.py tests/data/tirx/regions/bad_one_region.py tests/data/tirx/regions/bad_same_region_twice.py tests/data/tirx/regions/declined_atom_region.py tests/data/tirx/regions/declined_region_exceeds.py tests/data/tirx/regions/declined_repeats_disagree.py tests/data/tirx/regions/ok_index_form.py tests/data/tirx/regions/ok_k_split.py tests/data/tirx/regions/ok_m_split.py tests/data/tirx/regions/ok_m_split_scalar_c.py tests/data/tirx/regions/ok_mk_split.py tests/data/tirx/regions/ok_n_split.py tests/data/tirx/regions/ok_short_form.py --out tests/data/tirx/regions
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((32, 32), T.float16), B: T.Tensor((16, 32), T.float16), D: T.Tensor((32, 16), T.float32)):
        with T.device_scope(1, 1, 1, 32, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            lane: T.let[T.int32] = T.cuda.thread_idx("x") % 32
            a = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 16, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 8, "m"), T.Iter(2, 4, "m"), T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 2, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            b = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 8, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 4, "m"), T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            d = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 8, "m"), T.Iter(2, 4, "m"), T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((32,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(32, 1, "m")], replica=[]))])
            b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((16,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((16,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            for s in T.unroll(0, 32):
                a_h[s] = A[16 * (s // 16) + lane // 4 + 8 * (s // 2 % 2), 16 * (s // 8 % 2) + 2 * (lane % 4) + s % 2 + 8 * (s // 4 % 2)]
            for s_1 in T.unroll(0, 16):
                b_h[s_1] = B[8 * (s_1 // 8) + lane // 4, 16 * (s_1 // 4 % 2) + 2 * (lane % 4) + s_1 % 2 + 8 * (s_1 // 2 % 2)]
            tile_D = T.decl_tensor(d.data, ty_args=[T.Tensor((16,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            tile_A = T.decl_tensor(a.data, ty_args=[T.Tensor((16,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            tile_B = T.decl_tensor(b.data, ty_args=[T.Tensor((8,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[]))])
            for repeat_0 in T.unroll(0, 1):
                for repeat_1 in T.unroll(0, 2):
                    for repeat_2 in T.unroll(0, 2):
                        T.ptx.mma(tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2], tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 1], tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 2], tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 3], tile_A[repeat_2 * 4 + T.cuda.thread_idx("x") % 32 // 32], tile_A[repeat_2 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 1], tile_A[repeat_2 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 2], tile_A[repeat_2 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 3], tile_B[repeat_1 * 4 + repeat_2 * 2], tile_B[repeat_1 * 4 + repeat_2 * 2 + 1], T.if_then_else(repeat_2 == 0, T.float32(1.5), tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2]), T.if_then_else(repeat_2 == 0, T.float32(1.5), tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 1]), T.if_then_else(repeat_2 == 0, T.float32(1.5), tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 2]), T.if_then_else(repeat_2 == 0, T.float32(1.5), tile_D[repeat_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 3]), "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32", "")
            tile_D_1 = T.decl_tensor(d.data, ty_args=[T.Tensor((16,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            tile_A_1 = T.decl_tensor(a.data, ty_args=[T.Tensor((16,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            tile_B_1 = T.decl_tensor(b.data, ty_args=[T.Tensor((8,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[]))])
            for repeat_0_1 in T.unroll(0, 1):
                for repeat_1_1 in T.unroll(0, 2):
                    for repeat_2_1 in T.unroll(0, 2):
                        T.ptx.mma(tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 8], tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 9], tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 10], tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 11], tile_A_1[repeat_2_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 8], tile_A_1[repeat_2_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 9], tile_A_1[repeat_2_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 10], tile_A_1[repeat_2_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 + 11], tile_B_1[repeat_1_1 * 4 + repeat_2_1 * 2], tile_B_1[repeat_1_1 * 4 + repeat_2_1 * 2 + 1], T.if_then_else(repeat_2_1 == 0, T.float32(1.5), tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 8]), T.if_then_else(repeat_2_1 == 0, T.float32(1.5), tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 9]), T.if_then_else(repeat_2_1 == 0, T.float32(1.5), tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 10]), T.if_then_else(repeat_2_1 == 0, T.float32(1.5), tile_D_1[repeat_1_1 * 4 + T.cuda.thread_idx("x") % 32 // 32 * 2 + 11]), "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32", "")
            for s_2 in T.unroll(0, 16):
                D[16 * (s_2 // 8) + lane // 4 + 8 * (s_2 // 2 % 2), 8 * (s_2 // 4 % 2) + 2 * (lane % 4) + s_2 % 2] = d_r[s_2]
