# ok_first_apply_unstaged: seed_corrected with the apply moved before the staging loops and a second apply (C = 0) after them.
# Why: The first apply reads unwritten registers, but the second restarts from C = 0 with A and B staged.
# Base: examples/tirx_seed_corrected.py
# Expected verdict: proved
# Class: apply
# Made by: /work/venv-tvm/bin/python scripts/tirx-oracle/compositions.py --out tests/data/program/tirx
from __future__ import annotations

# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main(A: T.Tensor((16, 16), T.float16), B: T.Tensor((8, 16), T.float16), D: T.Tensor((16, 8), T.float32)):
        with T.device_entry(1, 1, 1, 32, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            lane: T.let[T.int32] = T.cuda.lane_id()
            a = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 1, "m"), T.Iter(8, 4, "laneid"), T.Iter(2, 2, "m"), T.Iter(4, 1, "laneid"), T.Iter(1, 1, "m")], replica=[]))])
            b = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 8, 8), T.uint32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), T.Iter(2, 1, "m"), T.Iter(4, 1, "laneid")], replica=[]))])
            d = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(2, 2, "m"), T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid"), T.Iter(2, 1, "m")], replica=[]))])
            a_h = T.decl_tensor(a.data, ty_args=[T.Tensor((8,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(8, 1, "m")], replica=[]))])
            b_h = T.decl_tensor(b.data, ty_args=[T.Tensor((4,), T.float16, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), T.float32, scope="local", layout=T.TileLayout.from_iters(shard=[T.Iter(4, 1, "m")], replica=[]))])
            T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (d[0, 0, 0:16, 0:8], a[0, 0, 0:16, 0:8], b[0, 0, 0:8, 0:8], T.float32(0.0)), (), scope=T.ThreadScope("cuda.warp"))
            for s in T.unroll(0, 8):
                a_h[s] = A[lane // 4 + 8 * (s // 2 % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
            for s_1 in T.unroll(0, 4):
                b_h[s_1] = B[lane // 4, 2 * (lane % 4) + s_1 % 2 + 8 * (s_1 // 2)]
            T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", (d[0, 0, 0:16, 0:8], a[0, 0, 0:16, 0:8], b[0, 0, 0:8, 0:8], T.float32(0.0)), (), scope=T.ThreadScope("cuda.warp"))
            for s_2 in T.unroll(0, 4):
                D[lane // 4 + 8 * (s_2 // 2), 2 * (lane % 4) + s_2 % 2] = d_r[s_2]
