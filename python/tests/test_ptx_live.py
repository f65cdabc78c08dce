"""mmacheck.prove on live Triton and TileLang kernels: compiled to PTX for one launch without a GPU
and checked as `mmacheck prove kernel.ptx` checks it (docs/python.md, "Kernels as PTX").  Each test
skips where its package (triton; tilelang with nvcc or NVRTC) is not installed."""

import json
import subprocess

import mmacheck
import pytest
from mmacheck import ptx

M = N = K = 64
BLOCK = 32


def triton_matmul():
    """The Triton tutorial's matmul without its grouped ordering (scripts/ptx-oracle/triton_kernels.py),
    with PLANT choosing a mistake."""
    triton = pytest.importorskip("triton")
    tl = pytest.importorskip("triton.language")

    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, PLANT: tl.constexpr = ""):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
        if PLANT == "b_from_a":
            b_ptrs = a_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            if PLANT == "b_stride":
                b_ptrs += BLOCK_K * stride_bn
            else:
                b_ptrs += BLOCK_K * stride_bk
        c = acc.to(c_ptr.dtype.element_ty)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))

    return matmul_kernel


def tensors():
    """A, B, C as torch tensors where torch is installed, else as TensorSpecs."""
    try:
        import torch

        return [torch.empty((M, K), dtype=torch.float16), torch.empty((K, N), dtype=torch.float16),
                torch.empty((M, N), dtype=torch.float16)]
    except ImportError:
        return [mmacheck.TensorSpec("float16", (M, K)), mmacheck.TensorSpec("float16", (K, N)),
                mmacheck.TensorSpec("float16", (M, N))]


def launch_args(a, b, c):
    return (a, b, c, M, N, K, K, 1, N, 1, N, 1)


CONSTEXPRS = {"BLOCK_M": BLOCK, "BLOCK_N": BLOCK, "BLOCK_K": BLOCK}


def test_the_triton_matmul_is_proved(repo):
    kernel = triton_matmul()
    report = mmacheck.prove(kernel, grid=(M // BLOCK, N // BLOCK), args=launch_args(*tensors()), num_warps=4,
                            num_stages=2, **CONSTEXPRS)
    assert report.verdict == "proved", str(report)
    assert report.file == "matmul_kernel.ptx"
    assert (report.ptx["grid"], report.ptx["block"]) == ([2, 2, 1], [128, 1, 1])
    assert (report.ptx["m"], report.ptx["n"], report.ptx["k"]) == (M, N, K)
    # Without the launcher's specializations, the launch is the one scripts/ptx-oracle/triton_kernels.py
    # wrote for this configuration (it compiles with none).
    compiled = ptx.compile_triton(kernel, grid=(2, 2), args=launch_args(*tensors()), num_warps=4, num_stages=2,
                                  specialize=False, **CONSTEXPRS)
    oracle = json.loads((repo / "tests" / "data" / "ptx" / "triton" / "f16_32x32x32_w4.launch.json").read_text())
    assert [p.get("value") for p in compiled.launch["params"]] == [p.get("value") for p in oracle["params"]]
    for key in ("grid", "block", "dynamic_shared"):
        assert compiled.launch[key] == oracle[key]
    assert compiled.launch["gemm"] == {"A": "a_ptr", "B": "b_ptr", "D": "c_ptr"}


def test_the_launchers_specializations_are_compiled_in():
    """As Triton's launch: an int 1 is a constant (the unit strides leave the parameters), tensors and ints
    divisible by 16 get tt.divisibility (wider loads), and the PTX so compiled is the one checked."""
    kernel = triton_matmul()
    kw = dict(grid=(2, 2), args=launch_args(*tensors()), num_warps=4, num_stages=2, **CONSTEXPRS)
    plain = ptx.compile_triton(kernel, specialize=False, **kw)
    launched = ptx.compile_triton(kernel, **kw)
    values = [p["value"] for p in launched.launch["params"] if "value" in p]
    assert values[:6] == [M, N, K, K, N, N]  # M, N, K, stride_am, stride_bk, stride_cm; the 1s are constants
    assert len(launched.launch["params"]) == len(plain.launch["params"]) - 3
    assert launched.ptx != plain.ptx
    assert ".v4." in launched.ptx or ".v2." in launched.ptx  # aligned, divisible: vector loads
    assert mmacheck.prove(kernel, **kw).verdict == "proved"
    report = mmacheck.prove(kernel, **dict(kw, PLANT="b_from_a"))
    assert report.verdict == "refuted" and "not of an element of A and one of B" in report.ptx["message"]


def autotuned_matmul(configs):
    triton = pytest.importorskip("triton")
    return triton.autotune(configs=configs, key=["M", "N", "K"])(triton_matmul())


def test_every_autotune_config_is_checked():
    triton = pytest.importorskip("triton")
    good = triton.Config(dict(CONSTEXPRS), num_warps=4, num_stages=2)
    small = triton.Config({"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 32}, num_warps=1, num_stages=1)
    planted = triton.Config(dict(CONSTEXPRS, PLANT="b_from_a"), num_warps=4, num_stages=2)
    grid = lambda meta: (M // meta["BLOCK_M"], N // meta["BLOCK_N"])  # noqa: E731
    report = mmacheck.prove(autotuned_matmul([good, small]), grid=grid, args=launch_args(*tensors()))
    assert report.verdict == "proved", str(report)
    assert [(c["config"], c["verdict"], c["kwargs"]["num_warps"], c["ptx"]["grid"]) for c in report.configs] == [
        (0, "proved", 4, [2, 2, 1]), (1, "proved", 1, [4, 4, 1])]
    report = mmacheck.prove(autotuned_matmul([good, planted, small]), grid=grid, args=launch_args(*tensors()))
    assert report.verdict == "refuted"
    assert [c["verdict"] for c in report.configs] == ["proved", "refuted", "proved"]
    assert "not of an element of A and one of B" in report.ptx["message"]  # the refuted config's
    assert report.configs[1]["kwargs"]["PLANT"] == "b_from_a"
    # One config: config= an index or a triton.Config; it is the only way to compile one of several.
    tuned = autotuned_matmul([good, small])
    assert ptx.compile_triton(tuned, grid=grid, args=launch_args(*tensors()), config=1).launch["block"] == [32]
    assert ptx.compile_triton(tuned, grid=grid, args=launch_args(*tensors()), config=good).launch["block"] == [128]
    assert mmacheck.prove(tuned, grid=grid, args=launch_args(*tensors()), config=1).proved
    with pytest.raises(mmacheck.Error, match=r"autotuned over 2 configs: choose one with config="):
        ptx.compile_triton(tuned, grid=grid, args=launch_args(*tensors()))
    with pytest.raises(mmacheck.Error, match=r"has 2 autotune configs; config=2 is not one of them"):
        ptx.compile_triton(tuned, grid=grid, args=launch_args(*tensors()), config=2)
    with pytest.raises(mmacheck.Error, match=r"sets BLOCK_M, which is also given: conflicting meta-parameters"):
        mmacheck.prove(tuned, grid=grid, args=launch_args(*tensors()), BLOCK_M=32)
    with pytest.raises(mmacheck.Error, match=r"sets num_warps, which is also given"):
        mmacheck.prove(tuned, grid=grid, args=launch_args(*tensors()), num_warps=4)
    with pytest.raises(mmacheck.Error, match=r"matmul_kernel is not autotuned"):
        ptx.compile_triton(triton_matmul(), grid=(2, 2), args=launch_args(*tensors()), config=0, **CONSTEXPRS)


def test_heuristics_values_are_computed_from_the_arguments():
    triton = pytest.importorskip("triton")
    kernel = triton.heuristics({"BLOCK_K": lambda args: args["K"] // 2, "PLANT": lambda args: ""})(triton_matmul())
    kw = dict(grid=(2, 2), args=launch_args(*tensors()), num_warps=4, num_stages=2, BLOCK_M=BLOCK, BLOCK_N=BLOCK)
    compiled = ptx.compile_triton(kernel, **kw)
    direct = ptx.compile_triton(triton_matmul(), **kw, BLOCK_K=K // 2)
    assert compiled.ptx == direct.ptx
    assert mmacheck.prove(kernel, **kw).verdict == "proved"


def test_arguments_by_name_and_as_tensor_specs():
    kernel = triton_matmul()
    a, b, c = (mmacheck.TensorSpec("fp16", s) for s in ((M, K), (K, N), (M, N)))
    names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
             "stride_cm", "stride_cn"]
    args = dict(zip(names, launch_args(a, b, c)), **CONSTEXPRS)
    grid = lambda meta: (meta["M"] // meta["BLOCK_M"], meta["N"] // meta["BLOCK_N"])  # noqa: E731
    assert mmacheck.prove(kernel, grid=grid, args=args, num_warps=4, num_stages=2).verdict == "proved"


@pytest.mark.parametrize("plant, opcode, message", [
    ("b_from_a", "mma.sync", "not of an element of A and one of B"),
    ("b_stride", "mma.sync", "includes a_ptr[0][32]·b_ptr[0][32]"),  # B advanced by BLOCK_K columns: the first wrong k
])
def test_a_planted_mistake_is_refuted_at_its_line(plant, opcode, message):
    kernel = triton_matmul()
    args = dict(grid=(2, 2), args=launch_args(*tensors()), num_warps=4, num_stages=2, PLANT=plant, **CONSTEXPRS)
    compiled = ptx.compile_triton(kernel, **args)
    report = mmacheck.prove(kernel, **args)
    assert report.verdict == "refuted", str(report)
    assert message in report.ptx["message"]
    line = compiled.ptx.splitlines()[report.ptx["line"] - 1].strip()
    assert line.startswith(opcode), line
    assert report.json() == ptx.prove_ptx(compiled.ptx, compiled.launch_json(), compiled.file).json()


def test_saved_files_answer_as_the_command_line(repo, tmp_path):
    binary = repo / "build" / "bin" / "mmacheck"
    if not binary.exists():
        pytest.skip("no build/bin/mmacheck (scripts/build.sh)")
    kernel = triton_matmul()
    args = dict(grid=(2, 2), args=launch_args(*tensors()), num_warps=4, num_stages=2, PLANT="b_from_a", **CONSTEXPRS)
    path = ptx.compile_triton(kernel, **args).save(tmp_path)
    cli = json.loads(subprocess.run([str(binary), "prove", path, "--json"], capture_output=True, text=True,
                                    cwd=tmp_path).stdout)
    py = mmacheck.prove(kernel, **args).json()
    assert cli == {**py, "file": path}


def test_bad_arguments_are_errors():
    kernel = triton_matmul()
    a, b, c = tensors()
    kw = dict(grid=(2, 2), num_warps=4, **CONSTEXPRS)
    with pytest.raises(mmacheck.Error, match=r"matmul_kernel takes 16 parameters .*; args= gives 17"):
        ptx.compile_triton(kernel, grid=(2, 2), args=launch_args(a, b, c) + (32, 32, 32, "", 5))
    with pytest.raises(mmacheck.Error, match=r"parameter 'stride_cn' is not given"):
        mmacheck.prove(kernel, args=launch_args(a, b, c)[:-1], **kw)
    with pytest.raises(mmacheck.Error, match=r"has 2 tensor arguments \(a_ptr, c_ptr\); say which are A, B and D"):
        mmacheck.prove(kernel, args=(a, 7) + launch_args(a, b, c)[2:], **kw)
    with pytest.raises(mmacheck.Error, match=r"gives B as 'b_ptr', which is not a tensor argument"):
        mmacheck.prove(kernel, args=(a, 7) + launch_args(a, b, c)[2:], gemm={"A": "a_ptr", "B": "b_ptr", "D": "c_ptr"},
                       **kw)
    with pytest.raises(mmacheck.Error, match=r"parameter 'M' is given str"):
        mmacheck.prove(kernel, args=(a, b, c, "64") + launch_args(a, b, c)[4:], **kw)
    with pytest.raises(mmacheck.Error, match=r"has no parameter 'BLOCK'"):
        mmacheck.prove(kernel, args=launch_args(a, b, c), BLOCK=32, **kw)
    with pytest.raises(mmacheck.Error, match=r"grid is one to three positive integers"):
        mmacheck.prove(kernel, args=launch_args(a, b, c), **dict(kw, grid=(2, 0)))


def tilelang_matmul(plant=""):
    """TileLang's T.gemm kernel (scripts/ptx-oracle/tilelang_kernels.py's f16_32x32x32_s1_w1)."""
    pytest.importorskip("tilelang")
    import tilelang.language as T

    bm = bn = bk = BLOCK

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=32) as (bx, by):
            A_shared = T.alloc_shared((bm, bk), "float16")
            B_shared = T.alloc_shared((bk, bn), "float16")
            C_local = T.alloc_fragment((bm, bn), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=1):
                T.copy(A[by * bm, k * bk], A_shared)
                if plant == "b_from_a":
                    T.copy(A[k * bk, bx * bn], B_shared)
                else:
                    T.copy(B[k * bk, bx * bn], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * bm, bx * bn])

    return main


def needs_a_cuda_compiler():
    from mmacheck.ptx_tilelang import find_nvcc

    if find_nvcc() is None:
        try:
            from cuda.bindings import nvrtc  # noqa: F401
        except ImportError:
            pytest.skip("neither nvcc nor NVRTC (cuda-python)")


def test_the_tilelang_gemm_is_proved():
    func = tilelang_matmul()
    needs_a_cuda_compiler()
    report = mmacheck.prove(func)
    assert report.verdict == "proved", str(report)
    assert (report.ptx["grid"], report.ptx["block"]) == ([2, 2, 1], [32, 1, 1])
    compiled = ptx.compile_tilelang(func)
    assert compiled.launch["gemm"] == {"A": "A", "B": "B", "D": "C"}


def test_a_tilelang_mistake_is_refuted():
    func = tilelang_matmul("b_from_a")
    needs_a_cuda_compiler()
    report = mmacheck.prove(func)
    assert report.verdict == "refuted", str(report)
    # TileLang dropped B, which the kernel never reads: the launch names it under "tensors".
    assert [t["tensor"] for t in ptx.compile_tilelang(func).launch["tensors"]] == ["B"]
