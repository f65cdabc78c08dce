"""Write the released-TIRx programs of tests/data/tirx/ldmatrix_warps: blocks
of several warps, each warp running the mma pattern on its own slice of D,
staging A and B from shared memory by the ldmatrix pattern, each warp's slice
of the shared tensor picked by a region whose start is its warp id
(`A_w[warp:warp + 1, :, :, :]`).  Correct kernels (ok_*), planted mistakes
(bad_*, each one change) and kernels TVM's pattern refuses (refuse_*).  Then
record TVM 0.1.0a4's decision on each with gen.py:

    python3 scripts/tirx-oracle/ldmatrix_warps.py tests/data/tirx/ldmatrix_warps
    /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/ldmatrix_warps/*.py \\
        --out tests/data/tirx/ldmatrix_warps --prints
"""
import os
import sys

HEAD = '''# {comment}
# Expected verdict: {verdict}
from tvm_tirx.script import tirx as T
import tvm_tirx.backend.cuda  # noqa: F401
from tvm_tirx.tirx.layout import S, Axis, TileLayout

laneid = Axis.get("laneid")

A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])
A_IMG = A_FRAG.pack(2)
B_IMG = TileLayout(S[(8, 2, 4) : (4 @ laneid, 1, 1 @ laneid)])
D_IMG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
LD_REGS4 = TileLayout(S[(1, 4, 8, 4) : (4, 1, 4 @ laneid, 1 @ laneid)])
LD_REGS2 = TileLayout(S[(1, 2, 8, 4) : (2, 1, 4 @ laneid, 1 @ laneid)])
'''

# M split: warp w computes D rows 16w..16w+15 from A_s rows 16w.. (A_w's slice w); B is every warp's.
M_SPLIT = '''A_ROWS = TileLayout(S[({warps}, 2, 2, 8, 4) : (128, 4, 64, 8, 1)])
B_ROWS = TileLayout(S[(1, 2, 8, 4) : (64, 4, 8, 1)])


@T.function
def main(A: T.Tensor(({m}, 16), "float16"), B: T.Tensor((8, 16), "float16"), D: T.Tensor(({m}, 8), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[{threads}])):
        lane = T.cuda.lane_id()
        warp = T.cuda.warp_id()
        tid = T.cuda.thread_idx("x")
        A_s = T.alloc_shared(({m}, 16), "float16")
        B_s = T.alloc_shared((8, 16), "float16")
        a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        A_w = T.decl_tensor(A_s.data, ty_args=[T.Tensor(({warps}, 4, 8, 4), "uint32", scope="shared", layout=A_ROWS)])
        B_w = T.decl_tensor(B_s.data, ty_args=[T.Tensor((1, 2, 8, 4), "uint32", scope="shared", layout=B_ROWS)])
        a_ld = T.decl_tensor(a.data, ty_args=[T.Tensor((1, 4, 8, 4), "uint32", scope="local", layout=LD_REGS4)])
        b_ld = T.decl_tensor(b.data, ty_args=[T.Tensor((1, 2, 8, 4), "uint32", scope="local", layout=LD_REGS2)])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for i in T.serial({a_iters}):
            A_s[{a_copy}] = A[{a_copy}]
        for i in T.serial({b_iters}):
            B_s[{b_copy}] = B[{b_copy}]
{sync}        T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", a_ld[:, :, :, :], A_w[{a_region}, :, :, :], scope="warp")
        T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x2.shared.b16", b_ld[:, :, :, :], B_w[0:1, :, :, :], scope="warp")
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[{d_row} + lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = d_r[s]
'''

# N split: warp w computes D columns 8w..8w+7 from B_s rows 8w.. (B_w's slice w); A is every warp's.
N_SPLIT = '''A_ROWS = TileLayout(S[(1, 2, 2, 8, 4) : (128, 4, 64, 8, 1)])
B_ROWS = TileLayout(S[({warps}, 2, 8, 4) : (64, 4, 8, 1)])


@T.function
def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor(({n}, 16), "float16"), D: T.Tensor((16, {n}), "float32")):
    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[{threads}])):
        lane = T.cuda.lane_id()
        warp = T.cuda.warp_id()
        tid = T.cuda.thread_idx("x")
        A_s = T.alloc_shared((16, 16), "float16")
        B_s = T.alloc_shared(({n}, 16), "float16")
        a = T.alloc_local((1, 1, 16, 8), "uint32", layout=A_IMG)
        b = T.alloc_local((1, 1, 8, 8), "uint32", layout=B_IMG)
        d = T.alloc_local((1, 1, 16, 8), "float32", layout=D_IMG)
        A_w = T.decl_tensor(A_s.data, ty_args=[T.Tensor((1, 4, 8, 4), "uint32", scope="shared", layout=A_ROWS)])
        B_w = T.decl_tensor(B_s.data, ty_args=[T.Tensor(({warps}, 2, 8, 4), "uint32", scope="shared", layout=B_ROWS)])
        a_ld = T.decl_tensor(a.data, ty_args=[T.Tensor((1, 4, 8, 4), "uint32", scope="local", layout=LD_REGS4)])
        b_ld = T.decl_tensor(b.data, ty_args=[T.Tensor((1, 2, 8, 4), "uint32", scope="local", layout=LD_REGS2)])
        d_r = T.decl_tensor(d.data, ty_args=[T.Tensor((4,), "float32", scope="local", layout=TileLayout(S[4:1]))])
        for i in T.serial({a_iters}):
            A_s[{a_copy}] = A[{a_copy}]
        for i in T.serial({b_iters}):
            B_s[{b_copy}] = B[{b_copy}]
        T.cuda.cta_sync()
        T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", a_ld[:, :, :, :], A_w[0:1, :, :, :], scope="warp")
        T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x2.shared.b16", b_ld[:, :, :, :], B_w[{b_region}, :, :, :], scope="warp")
        T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], T.float32(0), scope="warp")
        for s in T.unroll(4):
            D[lane // 4 + 8 * (s // 2), {d_col} + 2 * (lane % 4) + s % 2] = d_r[s]
'''


def m_split(warps, **over):
    t = 32 * warps
    v = dict(warps=warps, m=16 * warps, threads=t, a_iters=16 * 16 * warps // t, b_iters=8 * 16 // t,
             a_copy=f"{t // 16} * i + tid // 16, tid % 16", b_copy=f"{t // 16} * i + tid // 16, tid % 16",
             sync="        T.cuda.cta_sync()\n", a_region="warp:warp + 1", d_row="16 * warp")
    v.update(over)
    return M_SPLIT.format(**v)


def n_split(warps, **over):
    t = 32 * warps
    v = dict(warps=warps, n=8 * warps, threads=t, a_iters=16 * 16 // t, b_iters=8 * 16 * warps // t,
             a_copy=f"{t // 16} * i + tid // 16, tid % 16", b_copy=f"{t // 16} * i + tid // 16, tid % 16",
             b_region="warp:warp + 1", d_col="8 * warp")
    v.update(over)
    return N_SPLIT.format(**v)


# Every copy loop moves its tensor exactly once: rows of 16 elements, t / 16 rows per iteration.
FILES = {
    "ok_m_split": ("Two warps split M; warp w's A rows by the region A_w[warp:warp + 1]", "proved", m_split(2)),
    "ok_m_split_four": ("Four warps split M", "proved", m_split(4)),
    "ok_n_split": ("Two warps split N; warp w's B rows by the region B_w[warp:warp + 1]", "proved", n_split(2)),
    "bad_region_fixed": ("Every warp's ldmatrix reads A_w[0:1]: warp 1 computes rows 16.. from A's rows 0..",
                         "refuted", m_split(2, a_region="0:1")),
    "bad_region_swapped": ("Warp w reads the other warp's slice A_w[1 - warp:2 - warp]", "refuted",
                           m_split(2, a_region="1 - warp:2 - warp")),
    "bad_no_sync": ("No barrier between the copies and the ldmatrix: warp 0 reads rows warp 1 copied (a race)",
                    "refuted", m_split(2, sync="")),
    "bad_copy_by_lane": ("The copy uses the lane, not the thread: both warps copy A's first rows, the others never",
                         "refuted", m_split(2, a_copy="2 * i + lane // 16, lane % 16", a_iters=8)),
    "bad_store_rows": ("The store leaves out the warp's row offset: both warps write D's first rows", "refuted",
                       m_split(2, d_row="0")),
    "bad_b_region_fixed": ("N split, every warp's ldmatrix reads B_w[0:1]", "refuted", n_split(2, b_region="0:1")),
    "refuse_region_past_end": ("Warp w's region starts at warp + 1: TVM cannot prove it in bounds", "dispatch_failed",
                               m_split(2, a_region="warp + 1:warp + 2")),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/tirx/ldmatrix_warps"
    os.makedirs(out, exist_ok=True)
    for name, (comment, verdict, body) in FILES.items():
        with open(os.path.join(out, name + ".py"), "w") as f:
            f.write(HEAD.format(comment=comment, verdict=verdict) + "\n" + body)


if __name__ == "__main__":
    main()
