# Copied from tests/data/tirx/tcgen05_i8_sat_d.py: the program of tcgen05_sat_d_bit_clear.lowered.py.
# python3 scripts/tirx-oracle/tcgen05_programs.py --out tests/data/tirx  (apache-tvm-tirx 0.1.0a4)
# from tvm_tirx.script import tirx as T

@T.ir_module
class Module:
    @T.function
    def main():
        with T.device_entry(1, 1, 1, 128, 1, 1, attrs={"cuda.kernel_attrs": {}, "cuda.launch_fields": ["grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z"]}):
            sa = T.alloc_tensor(ty_args=[T.Tensor((1, 2, 128, 32), T.int8, scope="shared", data_alignment=1024, layout=T.ComposeLayout(4, 2, 3, T.TileLayout.from_iters(shard=[T.Iter(1, 0, "m"), T.Iter(2, 32, "m"), T.Iter(128, 64, "m"), T.Iter(32, 1, "m")], replica=[])))])
            sb = T.alloc_tensor(ty_args=[T.Tensor((1, 2, 128, 32), T.int8, scope="shared", data_alignment=1024, layout=T.ComposeLayout(4, 2, 3, T.TileLayout.from_iters(shard=[T.Iter(1, 0, "m"), T.Iter(2, 32, "m"), T.Iter(128, 64, "m"), T.Iter(32, 1, "m")], replica=[])))])
            td = T.alloc_tensor((0,), ty_args=[T.Tensor((1, 1, 128, 128), T.int32, scope="tmem", layout=T.TileLayout.from_iters(shard=[T.Iter(1, 1, "TCol"), T.Iter(1, 1, "TCol"), T.Iter(128, 1, "TLane"), T.Iter(128, 1, "TCol")], replica=[]))])
            T.cuda.tile.apply("tcgen05.mma.cta_group::1.kind::i8", (td[0, 0, 0:128, 0:128], sa[0, 0:2, 0:128, 0:32], sb[0, 0:2, 0:128, 0:32]), (("instruction_shape", (128, 128, 32)), ("sat_d", T.bool(True))), scope=T.ThreadScope("cuda.thread"))