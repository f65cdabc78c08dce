"""A live tvm_tirx kernel the walker refuses (built in a factory, so that
`pytest --mmacheck` does not collect it)."""

from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and the mma pattern)
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")
A_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8]).pack(2)
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])


def half_warp_block():
    """block=[48]: not whole warps (TVM refuses its warp indices); refused with the line."""

    @T.function
    def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor((16, 8), "float32")):
        with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[48])):
            a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
            b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
            d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
            T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")

    return main
