# python3 scripts/tirx-oracle/tcgen05_programs.py --out tests/data/tirx  (apache-tvm-tirx 0.1.0a4)
# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main():
        with T.device_entry(1, 1, 1, 128, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            sa = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 128, 16), T.float16, scope="shared", data_alignment=1024, layout=T.ComposeLayout(3, 1, 3, T.TileLayout.from_iters(shard=[T.Iter(1, 0, "m"), T.Iter(1, 16, "m"), T.Iter(128, 16, "m"), T.Iter(16, 1, "m")], replica=[])))])
            sb = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 64, 16), T.float16, scope="shared", data_alignment=1024, layout=T.ComposeLayout(3, 1, 3, T.TileLayout.from_iters(shard=[T.Iter(1, 0, "m"), T.Iter(1, 16, "m"), T.Iter(64, 16, "m"), T.Iter(16, 1, "m")], replica=[])))])
            td = T.alloc_tensor((0,), ty_args=[T.Tensor((1, 1, 128, 64), T.float16, scope="tmem", layout=T.TileLayout.from_iters(shard=[T.Iter(1, 2, "TCol"), T.Iter(1, 2, "TCol"), T.Iter(128, 1, "TLane"), T.Iter(64, 2, "TCol")], replica=[]))])
            T.cuda.tile.apply("tcgen05.mma.cta_group::1.kind::f16", (td[0, 0, 0:128, 0:64], sa[0, 0, 0:128, 0:16], sb[0, 0, 0:64, 0:16]), (("instruction_shape", (128, 64, 16)),), scope=T.ThreadScope("cuda.thread"))