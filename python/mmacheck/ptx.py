"""Kernels as PTX: a Triton or TileLang kernel compiled for one launch and checked as
`mmacheck prove kernel.ptx` checks it with its launch file (docs/ptx.md, docs/python.md).

    import mmacheck
    report = mmacheck.prove(matmul_kernel, grid=(2, 2), args=(a, b, c, 64, 64, 64, 64, 1, 64, 1, 64, 1),
                            BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, num_warps=4)
    report.verdict                      # "proved", "refuted" or "unchecked"
    report.ptx["line"]                  # a refutation's line in the PTX (k.ptx of below)

    k = mmacheck.ptx.compile_triton(matmul_kernel, grid=(2, 2), args=..., BLOCK_M=32, ...)
    k.save("out")                       # out/matmul_kernel.ptx, out/matmul_kernel.launch.json
    mmacheck.ptx.prove_ptx(k.ptx, k.launch_json(), k.file)   # the same Report

Neither triton nor tilelang is imported until a kernel of theirs is given.
"""

from __future__ import annotations

import json
from typing import Any

from . import _mmacheck
from .ptx_launch import CompiledKernel, TensorSpec
from .ptx_tilelang import compile_tilelang, is_tilelang_kernel
from .ptx_triton import autotune_configs, compile_triton, is_triton_kernel
from .report import Report

__all__ = ["CompiledKernel", "TensorSpec", "compile_kernel", "compile_tilelang", "compile_triton", "is_kernel", "prove",
           "prove_ptx"]


def is_kernel(obj: Any) -> bool:
    """A Triton @triton.jit function or a TileLang kernel (see compile_kernel)."""
    return is_triton_kernel(obj) or is_tilelang_kernel(obj)


def compile_kernel(obj: Any, **options: Any) -> CompiledKernel:
    """The PTX and launch of a Triton kernel (compile_triton's keywords) or a TileLang one (compile_tilelang's)."""
    if is_triton_kernel(obj):
        return compile_triton(obj, **options)
    if is_tilelang_kernel(obj):
        return compile_tilelang(obj, **options)
    raise TypeError(f"not a Triton or TileLang kernel: {type(obj).__module__}.{type(obj).__name__}")


def prove_ptx(ptx: str, launch: str, file: str = "<python>.ptx", launch_file: str = "") -> Report:
    """Check one launch of a PTX kernel given as text: the PTX module and its launch file's JSON
    (docs/ptx.md); the report of `mmacheck prove --json FILE.ptx`.  Errors (mmacheck.Error) name
    `file` and `launch_file` (default: FILE.launch.json) at their line and column."""
    body = json.loads(_mmacheck.prove_ptx(ptx, launch, file, launch_file))
    return Report({"file": file, **body, "notes": []}, name=body["ptx"]["kernel"])


def prove(obj: Any, **options: Any) -> Report:
    """compile_kernel(obj, **options), then its launch checked (prove_ptx).

    An autotuned Triton kernel with no config= is checked in every config (a launch may run any): the report
    is the first config's that is not proved (else the first's), its verdict proved only when every config's
    is, and "configs" lists each config's report with "config" (its index) and "kwargs" (what it sets)."""
    if isinstance(obj, CompiledKernel):
        return prove_ptx(obj.ptx, obj.launch_json(), obj.file, obj.launch_file)
    configs = autotune_configs(obj) if is_triton_kernel(obj) and options.get("config") is None else []
    if len(configs) <= 1:
        kernel = compile_kernel(obj, **options)
        return prove_ptx(kernel.ptx, kernel.launch_json(), kernel.file, kernel.launch_file)
    reports = [prove(obj, **options, config=i) for i in range(len(configs))]
    first = next((r for r in reports if not r.proved), reports[0])
    fields = first.json()
    fields["configs"] = [
        {"config": i, "kwargs": {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages}, **r.json()}
        for i, (c, r) in enumerate(zip(configs, reports))]
    return Report(fields, name=first.name)
