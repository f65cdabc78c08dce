# ok_n_tiles_swapped: tiled_2x2x2 with B staged with its two 8-row N tiles swapped and the D store writing the two N tiles swapped.
# Why: Image tile n holds B's N tile 1 - n, so D image tile n is (A @ B) columns of tile 1 - n, stored there.
# Base: examples/tirx_tiled_2x2x2.py
# Expected verdict: proved
# Class: index
# Made by: /work/venv-tvm/bin/python scripts/tirx-oracle/compositions.py --out tests/data/program/tirx
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((32, 32), T.float16), B: T.Tensor((16, 32), T.float16), D: T.Tensor((32, 16), T.float32)):
        with T.device_entry(1, 1, 1, 32, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            lane: T.let[T.int32] = T.cuda.lane_id()
            a = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 16, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 8, "m"), T.Iter(2, 4, "m"), T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 2, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            b = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 8, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 4, "m"), T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            d = T.alloc_tensor(ty_args=[T.Tensor((2, 2, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 8, "m"), T.Iter(2, 4, "m"), T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((32,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(32, 1, "m")], replica=[]))])
            b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((16,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((16,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(16, 1, "m")], replica=[]))])
            for s in T.unroll(0, 32):
                a_h[s] = A[16 * (s // 16) + lane // 4 + 8 * (s // 2 % 2), 16 * (s // 8 % 2) + 2 * (lane % 4) + s % 2 + 8 * (s // 4 % 2)]
            for s_1 in T.unroll(0, 16):
                b_h[s_1] = B[8 * (1 - s_1 // 8) + lane // 4, 16 * (s_1 // 4 % 2) + 2 * (lane % 4) + s_1 % 2 + 8 * (s_1 // 2 % 2)]
            T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (d[0:2, 0:2, 0:16, 0:8], a[0:2, 0:2, 0:16, 0:8], b[0:2, 0:2, 0:8, 0:8], T.float32(0.0)), (), scope=T.ThreadScope("cuda.warp"))
            for s_2 in T.unroll(0, 16):
                D[16 * (s_2 // 8) + lane // 4 + 8 * (s_2 // 2 % 2), 8 * (1 - s_2 // 4 % 2) + 2 * (lane % 4) + s_2 % 2] = d_r[s_2]
