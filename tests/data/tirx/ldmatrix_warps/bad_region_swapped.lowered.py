# /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/ldmatrix_warps/bad_b_region_fixed.py tests/data/tirx/ldmatrix_warps/bad_copy_by_lane.py tests/data/tirx/ldmatrix_warps/bad_no_sync.py tests/data/tirx/ldmatrix_warps/bad_region_fixed.py tests/data/tirx/ldmatrix_warps/bad_region_swapped.py tests/data/tirx/ldmatrix_warps/bad_store_rows.py tests/data/tirx/ldmatrix_warps/ok_m_split.py tests/data/tirx/ldmatrix_warps/ok_m_split_four.py tests/data/tirx/ldmatrix_warps/ok_n_split.py tests/data/tirx/ldmatrix_warps/refuse_region_past_end.py --out tests/data/tirx/ldmatrix_warps --prints
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((32, 16), T.float16), B: T.Tensor((8, 16), T.float16), D: T.Tensor((32, 8), T.float32)):
        with T.device_scope(1, 1, 1, 64, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            warp_id_in_cta: T.let[T.int32] = T.gpu_warp_shuffle(T.uint32(4294967295), T.cuda.thread_idx("x") // 32, 0, 32, 32)
            lane: T.let[T.int32] = T.cuda.thread_idx("x") % 32
            warp: T.let[T.int32] = warp_id_in_cta
            tid: T.let[T.int32] = T.cuda.thread_idx("x")
            A_s = T.alloc_tensor(ty_args=[T.Tensor((32, 16), T.float16, scope="shared")])
            B_s = T.alloc_tensor(ty_args=[T.Tensor((8, 16), T.float16, scope="shared")])
            a = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 2, "m"), T.Iter(4, 1, "laneid"), T.Iter(1, 1, "m")], replica=[]))])
            b = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 8, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            d = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            A_w = T.decl_tensor(A_s.data, ty_args=[T.Tensor((2, 4, 8, 4), T.uint32, scope="shared", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 128, "m"), T.Iter(2, 4, "m"), T.Iter(2, 64, "m"), T.Iter(8, 8, "m"), T.Iter(4, 1, "m")], replica=[]))])
            B_w = T.decl_tensor(B_s.data, ty_args=[T.Tensor((1, 2, 8, 4), T.uint32, scope="shared", layout=T.TileLayout.from_iters(shard=[T.Iter(1, 64, "m"), T.Iter(2, 4, "m"), T.Iter(8, 8, "m"), T.Iter(4, 1, "m")], replica=[]))])
            a_ld = T.decl_tensor(a.data, ty_args=[T.Tensor((1, 4, 8, 4), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(1, 4, "m"), T.Iter(4, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid")], replica=[]))])
            b_ld = T.decl_tensor(b.data, ty_args=[T.Tensor((1, 2, 8, 4), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(1, 2, "m"), T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid")], replica=[]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            for i in range(8):
                A_s[4 * i + tid // 16, tid % 16] = A[4 * i + tid // 16, tid % 16]
            for i_1 in range(2):
                B_s[4 * i_1 + tid // 16, tid % 16] = B[4 * i_1 + tid // 16, tid % 16]
            T.cuda.cta_sync()
            tile_dst = T.decl_tensor(a_ld.data, ty_args=[T.Tensor((4,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            for repeat_0 in T.unroll(0, 1):
                T.ptx.ldmatrix(tile_dst[0], tile_dst[1], tile_dst[2], tile_dst[3], T.cuda.cvta_generic_to_shared(T.address_of(A_w[1 - T.cuda.thread_idx("x") // 32, T.cuda.thread_idx("x") % 32 % 32 // 8, T.cuda.thread_idx("x") % 32 % 8, 0])), "sync", "aligned", "m8n8", "x4", "", "shared", "b16", "")
            tile_dst_1 = T.decl_tensor(b_ld.data, ty_args=[T.Tensor((2,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m")], replica=[]))])
            for repeat_0_1 in T.unroll(0, 1):
                T.ptx.ldmatrix(tile_dst_1[0], tile_dst_1[1], T.cuda.cvta_generic_to_shared(T.address_of(B_w[0, T.cuda.thread_idx("x") % 32 % 16 // 8, T.cuda.thread_idx("x") % 32 % 8, 0])), "sync", "aligned", "m8n8", "x2", "", "shared", "b16", "")
            tile_D = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_A = T.decl_tensor(a.data, ty_args=[T.Tensor((4,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            tile_B = T.decl_tensor(b.data, ty_args=[T.Tensor((2,), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m")], replica=[]))])
            for repeat_0_2 in T.unroll(0, 1):
                for repeat_1 in T.unroll(0, 1):
                    for repeat_2 in T.unroll(0, 1):
                        T.ptx.mma(tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2], tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3], tile_A[T.cuda.thread_idx("x") % 32 // 32], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 1], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 2], tile_A[T.cuda.thread_idx("x") % 32 // 32 + 3], tile_B[0], tile_B[1], T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 1]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 2]), T.if_then_else(repeat_2 == 0, T.float32(0.0), tile_D[T.cuda.thread_idx("x") % 32 // 32 * 2 + 3]), "sync", "aligned", "m16n8k16", "row", "col", "f32", "f16", "f16", "f32", "")
            for s in T.unroll(0, 4):
                D[16 * warp + lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
