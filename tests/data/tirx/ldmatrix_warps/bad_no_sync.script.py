# /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/ldmatrix_warps/bad_b_region_fixed.py tests/data/tirx/ldmatrix_warps/bad_copy_by_lane.py tests/data/tirx/ldmatrix_warps/bad_no_sync.py tests/data/tirx/ldmatrix_warps/bad_region_fixed.py tests/data/tirx/ldmatrix_warps/bad_region_swapped.py tests/data/tirx/ldmatrix_warps/bad_store_rows.py tests/data/tirx/ldmatrix_warps/ok_m_split.py tests/data/tirx/ldmatrix_warps/ok_m_split_four.py tests/data/tirx/ldmatrix_warps/ok_n_split.py tests/data/tirx/ldmatrix_warps/refuse_region_past_end.py --out tests/data/tirx/ldmatrix_warps --prints
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((32, 16), T.float16), B: T.Tensor((8, 16), T.float16), D: T.Tensor((32, 8), T.float32)):
        T.func_attr({"backend_config": "{\"cuda\":{\"arch\":\"sm_90\",\"compiler\":\"nvrtc\",\"nvcc\":[\"--use_fast_math\"],\"nvrtc\":[\"--use_fast_math\"],\"ptxas\":[\"-v\",\"--warn-on-local-memory-usage\",\"--register-usage-level=10\"]}}", "target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32})})
        with T.device_entry(1, 1, 1, 64, 1, 1, attrs={"backend_config": "{\"cuda\":{\"arch\":\"sm_90\",\"compiler\":\"nvrtc\",\"nvcc\":[\"--use_fast_math\"],\"nvrtc\":[\"--use_fast_math\"],\"ptxas\":[\"-v\",\"--warn-on-local-memory-usage\",\"--register-usage-level=10\"]}}", "cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"], "target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32})}):
            lane: T.let[T.int32] = T.cuda.lane_id()
            warp: T.let[T.int32] = T.cuda.warp_id()
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
            T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", (a_ld[0, 0:4, 0:8, 0:4], A_w[warp, 0:4, 0:8, 0:4]), (), scope=T.ThreadScope("cuda.warp"))
            T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x2.shared.b16", (b_ld[0, 0:2, 0:8, 0:4], B_w[0, 0:2, 0:8, 0:4]), (), scope=T.ThreadScope("cuda.warp"))
            T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (d[0, 0, 0:16, 0:8], a[0, 0, 0:16, 0:8], b[0, 0, 0:8, 0:8], T.float32(0.0)), (), scope=T.ThreadScope("cuda.warp"))
            for s in T.unroll(0, 4):
                D[16 * warp + lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
