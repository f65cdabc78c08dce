# python3 scripts/tirx-oracle/tcgen05_programs.py --out tests/data/tirx  (apache-tvm-tirx 0.1.0a4)
# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main():
        with T.device_entry(1, 1, 1, 128, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            sa = T.alloc_tensor(ty_args=[T.Tensor((1, 4, 128, 16), T.bfloat16, scope="shared", data_alignment=1024, layout=T.ComposeLayout(3, 3, 3, T.TileLayout.from_iters(shard=[T.Iter(1, 0, "m"), T.Iter(4, 16, "m"), T.Iter(128, 64, "m"), T.Iter(16, 1, "m")], replica=[])))])
            sb = T.alloc_tensor(ty_args=[T.Tensor((1, 4, 256, 16), T.bfloat16, scope="shared", data_alignment=1024, layout=T.ComposeLayout(3, 3, 3, T.TileLayout.from_iters(shard=[T.Iter(1, 0, "m"), T.Iter(4, 16, "m"), T.Iter(256, 64, "m"), T.Iter(16, 1, "m")], replica=[])))])
            td = T.alloc_tensor((0,), ty_args=[T.Tensor((1, 1, 128, 256), T.float32, scope="tmem", layout=T.TileLayout.from_iters(shard=[T.Iter(1, 1, "TCol"), T.Iter(1, 1, "TCol"), T.Iter(128, 1, "TLane"), T.Iter(256, 1, "TCol")], replica=[]))])
            T.cuda.tile.apply("tcgen05.mma.cta_group::1.kind::f16", (td[0, 0, 0:128, 0:256], sa[0, 0:4, 0:128, 0:16], sb[0, 0:4, 0:256, 0:16]), (("instruction_shape", (128, 256, 16)), ("neg_a", T.bool(True))), scope=T.ThreadScope("cuda.thread"))