# /work/venvs/printouts/bin/python scripts/tirx-oracle/printouts.py examples/tirx_bf16.py examples/tirx_c_tensor.py examples/tirx_k8.py examples/tirx_k8_unit_m.py examples/tirx_refuse_f16acc.py examples/tirx_refuse_lane.py examples/tirx_refuse_no_m.py examples/tirx_seed.py examples/tirx_seed_corrected.py examples/tirx_tiled_2x2x2.py --out tests/data/tirx/printouts
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((32, 24), T.float16), B: T.Tensor((16, 24), T.float16), D: T.Tensor((32, 16), T.float32)):
        T.func_attr({"backend_config": "{\"cuda\":{\"arch\":\"sm_90\",\"compiler\":\"nvrtc\",\"nvcc\":[\"--use_fast_math\"],\"nvrtc\":[\"--use_fast_math\"],\"ptxas\":[\"-v\",\"--warn-on-local-memory-usage\",\"--register-usage-level=10\"]}}", "target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32})})
        with T.device_entry(1, 1, 1, 32, 1, 1, attrs={"backend_config": "{\"cuda\":{\"arch\":\"sm_90\",\"compiler\":\"nvrtc\",\"nvcc\":[\"--use_fast_math\"],\"nvrtc\":[\"--use_fast_math\"],\"ptxas\":[\"-v\",\"--warn-on-local-memory-usage\",\"--register-usage-level=10\"]}}", "cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"], "target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32})}):
            lane: T.let[T.int32] = T.cuda.lane_id()
            a = T.alloc_tensor(ty_args=[T.Tensor((2, 3, 16, 4), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 6, "m"), T.Iter(3, 2, "m"), T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(1, 2, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            b = T.alloc_tensor(ty_args=[T.Tensor((2, 3, 8, 4), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 3, "m"), T.Iter(3, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(1, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            d = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 8, "m"), T.Iter(2, 4, "m"), T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((24,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(24, 1, "m")], replica=[]))])
            b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((12,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(12, 1, "m")], replica=[]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((16,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            for s in T.unroll(0, 24):
                a_h[s] = A[16 * (s // 12 % 2) + lane // 4 + 8 * (s // 2 % 2), 8 * (s // 4 % 3) + 2 * (lane % 4) + s % 2]
            for s_1 in T.unroll(0, 12):
                b_h[s_1] = B[8 * (s_1 // 6 % 2) + lane // 4, 8 * (s_1 // 2 % 3) + 2 * (lane % 4) + s_1 % 2]
            T.cuda.tile.apply("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", (d[0:2, 0:2, 0:16, 0:8], a[0:2, 0:3, 0:16, 0:4], b[0:2, 0:3, 0:8, 0:4], T.float32(0.0)), (), scope=T.ThreadScope("cuda.warp"))
            for s_2 in T.unroll(0, 16):
                D[16 * (s_2 // 8 % 2) + lane // 4 + 8 * (s_2 // 2 % 2), 8 * (s_2 // 4 % 2) + 2 * (lane % 4) + s_2 % 2] = d_r[s_2]
