"""A test module in the style of TVM main's tile-primitive tests (written for
mmacheck's tests, not taken from TVM): every kernel is built by a factory from
its arguments or inside a parametrized test, as TVM's own
test_gemm_mma_m16n8k_.py builds its kernels.  mmacheck checks each kernel
the tests build (docs/tvmscript.md, "Test files")."""

import numpy as np
import pytest

import tvm
import tvm.testing
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid

# The m16n8k8 fragments every other layout is derived from.
ACC = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
A_K16 = A_K8.tile_to([16, 16], [16, 8])
B_K16 = B_K8.tile_to([16, 8], [8, 8])


def swap_axes(layout, shape):
    """The same fragment over the transposed buffer."""
    grouped, seps = layout.group(shape)
    return grouped.permute_by_groups(seps, [1, 0])


A_KM = swap_axes(A_K16, [16, 16])
B_NK = swap_axes(B_K16, [16, 8])


def fragments(tm, tn, tk, k_inst):
    a_base = A_K16 if k_inst == 16 else A_K8
    b_base = B_K16 if k_inst == 16 else B_K8
    acc = ACC.tile_to([16 * tm, 8 * tn], [16, 8])
    a = a_base.tile_to([16 * tm, k_inst * tk], [16, k_inst])
    b = b_base.tile_to([k_inst * tk, 8 * tn], [k_inst, 8])
    return acc, a, b


def make_gemm(tm, tn, tk, k_inst, *, beta=0.0, dtype="float16", store=False):
    acc_l, a_l, b_l = fragments(tm, tn, tk, k_inst)
    M, N, K = 16 * tm, 8 * tn, k_inst * tk
    if not store:

        @T.prim_func
        def gemm():
            T.device_entry()
            _cta = T.cta_id([1])
            _warp = T.warp_id([1])
            _lane = T.lane_id([32])
            A = T.alloc_buffer((M, K), dtype, scope="local", layout=a_l)
            B = T.alloc_buffer((K, N), dtype, scope="local", layout=b_l)
            C = T.alloc_buffer((M, N), "float32", scope="local", layout=acc_l)
            D = T.alloc_buffer((M, N), "float32", scope="local", layout=acc_l)
            Tx.warp.gemm(D, A, B, C, transpose_A=False, transpose_B=False, alpha=1.0, beta=beta)

        return gemm

    @T.prim_func
    def gemm_store(D_ptr: T.handle):
        D_g = T.match_buffer(D_ptr, (M, N), "float32")
        T.device_entry()
        _cta = T.cta_id([1])
        _warp = T.warp_id([1])
        lane = T.lane_id([32])
        A = T.alloc_buffer((M, K), dtype, scope="local", layout=a_l)
        B = T.alloc_buffer((K, N), dtype, scope="local", layout=b_l)
        D = T.alloc_buffer((M, N), "float32", scope="local", layout=acc_l)
        Tx.warp.gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=beta)
        D_reg = D.local(tm * tn * 4)
        for c in T.unroll(tm * tn * 4):
            rn = c % 2
            rm = (c // 2) % 2
            nt = (c // 4) % tn
            mt = c // (4 * tn)
            D_g[mt * 16 + lane // 4 + rm * 8, nt * 8 + (lane % 4) * 2 + rn] = D_reg[c]

    return gemm_store


def make_staged(tm, tn, tk, k_inst, beta, dtype):
    """A, B (and C when beta is 1) loaded register by register, D stored."""
    acc_l, a_l, b_l = fragments(tm, tn, tk, k_inst)
    M, N, K = 16 * tm, 8 * tn, k_inst * tk
    KP = 2
    k_hi = k_inst // (4 * KP)

    @T.prim_func
    def gemm(A_ptr: T.handle, B_ptr: T.handle, C_ptr: T.handle, D_ptr: T.handle):
        A_g = T.match_buffer(A_ptr, (M, K), dtype)
        B_g = T.match_buffer(B_ptr, (K, N), dtype)
        C_g = T.match_buffer(C_ptr, (M, N), "float32")
        D_g = T.match_buffer(D_ptr, (M, N), "float32")
        T.device_entry()
        _cta = T.cta_id([1])
        _warp = T.warp_id([1])
        lane = T.lane_id([32])
        A_f = T.alloc_buffer((M, K), dtype, scope="local", layout=a_l)
        B_f = T.alloc_buffer((K, N), dtype, scope="local", layout=b_l)
        C_f = T.alloc_buffer((M, N), "float32", scope="local", layout=acc_l)
        D_f = T.alloc_buffer((M, N), "float32", scope="local", layout=acc_l)
        # Views are in physical register order (TVM main since #20076).
        A_reg = A_f.local(tm, tk, k_hi, 2, KP)
        for mt, kt, kh, rm, kp in T.grid(tm, tk, k_hi, 2, KP):
            A_reg[mt, kt, kh, rm, kp] = A_g[
                mt * 16 + lane // 4 + 8 * rm,
                kt * k_inst + kh * 8 + 2 * (lane % 4) + kp,
            ]
        B_reg = B_f.local(tk, tn, k_hi, KP)
        for kt, nt, kh, kp in T.grid(tk, tn, k_hi, KP):
            B_reg[kt, nt, kh, kp] = B_g[kt * k_inst + kh * 8 + 2 * (lane % 4) + kp, nt * 8 + lane // 4]
        if beta == 1.0:
            C_reg = C_f.local(tm, tn, 2, 2)
            for mt, nt, rm, rn in T.grid(tm, tn, 2, 2):
                C_reg[mt, nt, rm, rn] = C_g[mt * 16 + lane // 4 + 8 * rm, nt * 8 + 2 * (lane % 4) + rn]
        Tx.warp.gemm(D_f, A_f, B_f, C_f, transpose_A=False, transpose_B=False, alpha=1.0, beta=beta)
        D_reg = D_f.local(tm, tn, 2, 2)
        for mt, nt, rm, rn in T.grid(tm, tn, 2, 2):
            D_g[mt * 16 + lane // 4 + 8 * rm, nt * 8 + 2 * (lane % 4) + rn] = D_reg[mt, nt, rm, rn]

    return gemm, M, N, K


def make_oriented(transpose_a, transpose_b, dtype="float16"):
    a_l = A_KM if transpose_a else A_K16
    b_l = B_NK if transpose_b else B_K16
    b_shape = (8, 16) if transpose_b else (16, 8)

    @T.prim_func
    def gemm(A_ptr: T.handle, B_ptr: T.handle, D_ptr: T.handle):
        A_g = T.match_buffer(A_ptr, (16, 16), dtype)
        B_g = T.match_buffer(B_ptr, b_shape, dtype)
        D_g = T.match_buffer(D_ptr, (16, 8), "float32")
        T.device_entry()
        _cta = T.cta_id([1])
        _warp = T.warp_id([1])
        lane = T.lane_id([32])
        A_f = T.alloc_buffer((16, 16), dtype, scope="local", layout=a_l)
        B_f = T.alloc_buffer(b_shape, dtype, scope="local", layout=b_l)
        D_f = T.alloc_buffer((16, 8), "float32", scope="local", layout=ACC)
        A_reg = A_f.local(2, 2, 2)
        if transpose_a:
            # Registers in physical order [kh, rm, kp], over a [K, M] buffer.
            for kh, rm, kp in T.grid(2, 2, 2):
                A_reg[kh, rm, kp] = A_g[2 * (lane % 4) + kp + 8 * kh, lane // 4 + 8 * rm]
        else:
            for kh, rm, kp in T.grid(2, 2, 2):
                A_reg[kh, rm, kp] = A_g[lane // 4 + 8 * rm, 2 * (lane % 4) + kp + 8 * kh]
        B_reg = B_f.local(2, 2)
        if transpose_b:
            for kh, kp in T.grid(2, 2):
                B_reg[kh, kp] = B_g[lane // 4, 2 * (lane % 4) + kp + 8 * kh]
        else:
            for kh, kp in T.grid(2, 2):
                B_reg[kh, kp] = B_g[2 * (lane % 4) + kp + 8 * kh, lane // 4]
        Tx.warp.gemm(D_f, A_f, B_f, D_f, transpose_A=transpose_a, transpose_B=transpose_b, alpha=1.0, beta=0.0)
        D_reg = D_f.local(2, 2)
        for rm, rn in T.grid(2, 2):
            D_g[lane // 4 + 8 * rm, 2 * (lane % 4) + rn] = D_reg[rm, rn]

    return gemm


def make_scaled(alpha, beta, dtype="bfloat16"):
    @T.prim_func
    def gemm():
        T.device_entry()
        _cta = T.cta_id([1])
        _tid = T.thread_id([32])
        D = T.alloc_buffer((16, 8), "float32", scope="local", layout=ACC)
        A = T.alloc_buffer((16, 16), dtype, scope="local", layout=A_K16)
        B = T.alloc_buffer((16, 8), dtype, scope="local", layout=B_K16)
        Tx.warp.gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=alpha, beta=beta)

    return gemm


def lower(func):
    with tvm.target.Target("cuda"):
        return tvm.tirx.transform.LowerTIRx()(tvm.IRModule({"main": func}))


SHAPES = [
    (1, 1, 1, 16),
    (2, 1, 1, 16),
    (1, 2, 2, 16),
    (1, 1, 1, 8),
    (2, 1, 3, 8),
]
MODES = [("float16", 0.0), ("bfloat16", 1.0)]


def test_nothing_built():
    assert len(SHAPES) == 5


@pytest.mark.parametrize("tm, tn, tk, k_inst", SHAPES)
def test_lowers(tm, tn, tk, k_inst):
    script = lower(make_gemm(tm, tn, tk, k_inst))["main"].script()
    assert f"m16n8k{k_inst}" in script


@tvm.testing.requires_cuda
@pytest.mark.parametrize("tm, tn, tk, k_inst", SHAPES[:2])
def test_store(tm, tn, tk, k_inst):
    mod = tvm.compile(tvm.IRModule({"main": make_gemm(tm, tn, tk, k_inst, store=True)}), target="cuda")
    assert mod is not None


@tvm.testing.requires_cuda
@pytest.mark.parametrize("tm, tn, tk, k_inst", SHAPES)
@pytest.mark.parametrize("dtype, beta", MODES)
def test_staged(dtype, beta, tm, tn, tk, k_inst):
    func, M, N, K = make_staged(tm, tn, tk, k_inst, beta, dtype)
    A = np.random.uniform(-1, 1, (M, K)).astype("float32")
    dev = tvm.cuda(0)
    mod = tvm.compile(tvm.IRModule({"main": func}), target="cuda")
    assert A.shape == (M, K) and dev is not None and mod is not None


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False), (False, True), (True, True)])
def test_oriented(transpose_a, transpose_b, dtype):
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")
        assert ml_dtypes
    func = make_oriented(transpose_a, transpose_b, dtype)
    assert func is not None


@pytest.mark.parametrize("alpha, beta", [(2.0, 0.0), (1.0, 0.5)], ids=["alpha2", "beta_half"])
def test_rejects_scale(alpha, beta):
    with pytest.raises(RuntimeError, match="dispatch failed"):
        lower(make_scaled(alpha, beta))


def test_accumulates():
    assert "c_local" in lower(make_scaled(1.0, 1.0))["main"].script()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_inline(dtype):
    @T.prim_func
    def gemm(A_ptr: T.handle, D_ptr: T.handle):
        A_g = T.match_buffer(A_ptr, (16, 16), dtype)
        D_g = T.match_buffer(D_ptr, (16, 8), "float32")
        T.device_entry()
        _cta = T.cta_id([1])
        _warp = T.warp_id([1])
        lane = T.lane_id([32])
        A_f = T.alloc_buffer((16, 16), dtype, scope="local", layout=A_K16)
        B_f = T.alloc_buffer((16, 8), dtype, scope="local", layout=B_K16)
        D_f = T.alloc_buffer((16, 8), "float32", scope="local", layout=ACC)
        A_reg = A_f.local(8)
        for s in T.unroll(8):
            kp = s % 2
            rm = (s // 2) % 2
            kh = s // 4
            A_reg[s] = A_g[lane // 4 + 8 * rm, 2 * (lane % 4) + kp + 8 * kh]
        Tx.warp.gemm(D_f, A_f, B_f, D_f, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
        D_reg = D_f.local(4)
        for s in T.unroll(4):
            D_g[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2] = D_reg[s]

    dev = tvm.cuda(0)
    assert tvm.compile(tvm.IRModule({"main": gemm}), target="cuda") is not None and dev is not None


from dataclasses import dataclass, field


@dataclass(frozen=True)
class Config:
    tm: int
    tn: int
    tk: int
    k_inst: int = 16
    dtype: str = "float16"

    def build(self):
        return make_gemm(self.tm, self.tn, self.tk, self.k_inst, dtype=self.dtype)


CONFIGS = [Config(1, 1, 1), Config(2, 1, 1, 8), Config(tm=1, tn=2, tk=2)]


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"{c.tm}x{c.tn}x{c.tk}k{c.k_inst}")
def test_table(cfg):
    assert cfg.build() is not None


@pytest.mark.parametrize("cfg", CONFIGS)
def test_table_direct(cfg):
    func = make_gemm(cfg.tm, cfg.tn, cfg.tk, cfg.k_inst)
    assert func is not None


if __name__ == "__main__":
    tvm.testing.main()
