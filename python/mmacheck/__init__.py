"""mmacheck for Python: prove and simulate warp-level tensor-core GEMM layouts
on the objects at hand -- a live tvm_tirx PrimFunc or IRModule, a Triton or
TileLang kernel compiled to PTX for one launch -- or on a file, with the same
C++ library as the command line (docs/python.md).

    import mmacheck
    report = mmacheck.prove(main)         # a tvm_tirx @T.function
    report.verdict                        # "proved"
    mmacheck.prove("examples/seed.txt")   # a file, as `mmacheck prove FILE`
    mmacheck.sim(main, cases=256, seed=1) # the `sim` job: {"file": ..., "verdict": "passed", ...}
    mmacheck.prove(matmul_kernel, grid=(2, 2), args=(a, b, c, ...), BLOCK_M=32, ...)   # @triton.jit, as PTX
"""

from __future__ import annotations

import json
import os

from . import _mmacheck, cute, ptx, tirx, triton
from .ptx_launch import TensorSpec
from .report import Report

Error = _mmacheck.Error

__all__ = ["Error", "Report", "TensorSpec", "program", "prove", "prove_all", "prove_triton", "sim"]


def program(obj, file=None, layouts=None):
    """The C++ Program of `obj`: a path, a tvm_tirx Function, or an IRModule of one gemm kernel.

    layouts: {name: TileLayout} to name layouts in messages as a file would (e.g. globals())."""
    if isinstance(obj, _mmacheck.Program):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return _mmacheck.load_program(os.fspath(obj))
    if tirx.is_tirx_object(obj):
        funcs = [(n, f) for n, f in tirx.functions(obj) if tirx.has_mma(f)]
        if len(funcs) != 1:
            names = ", ".join(n for n, _ in funcs) or "none"
            raise Error(f"error: the module has {len(funcs)} gemm kernels ({names}); mmacheck.prove_all proves each")
        return tirx.program(funcs[0][1], file, layouts)
    raise TypeError(f"mmacheck reads a path, a tvm_tirx Function or IRModule; got {type(obj).__module__}.{type(obj).__name__}")


def prove(obj, *, method: str = "z3", timeout_ms: int = 10000, inst_set: str = "tvm", explain: bool = True,
          layouts=None, **triton_options) -> Report:
    """Prove one gemm: the same checks and the same report as `mmacheck prove --json`.

    A Triton @triton.jit function or a TileLang kernel is compiled to PTX
    for one launch and that launch checked, as `mmacheck prove kernel.ptx`
    checks it with its launch file: prove(kernel, grid=..., args=...,
    constexprs..., num_warps=, num_stages=, target="sm_80", gemm=)
    (mmacheck.ptx; the report's verdict is "proved", "refuted" or "unchecked").

    A CuTe DSL MmaAtom or TiledMma (inside the @cute.jit that builds it) is
    checked by the CuTe wing; the report is its `mmacheck cute --json` entry.
    A Triton layout (LinearLayout, a Gluon layout) is checked by the Triton
    wing instead: prove(layout, dtype="f16", shape=[16, 16], ...) as
    mmacheck.triton.operand takes them; the report is its `mmacheck triton --json` entry."""
    if ptx.is_kernel(obj):
        return ptx.prove(obj, **triton_options)
    if cute.is_cute_object(obj):
        reports = cute.check(obj)
        return Report(reports[-1], name=reports[-1]["atom"])  # a TiledMma's own report comes last
    if triton.is_triton_object(obj):
        (report,) = prove_triton([triton.operand(obj, **triton_options)])
        return report
    if triton_options:
        raise TypeError(f"unexpected keywords for a gemm: {', '.join(triton_options)}")
    p = program(obj, layouts=layouts)
    r = _mmacheck.prove(p, method=method, timeout_ms=timeout_ms, inst_set=inst_set, explain=explain)
    return _gemm_report(p, r)


def _gemm_report(p, r) -> Report:
    """The report in the one --json shape (cli/json_shape.h): file first, then report_json's fields (verdict ... notes)."""
    return Report({"file": p.file, **json.loads(r.json())}, name=p.file)


def prove_all(obj, layouts=None, **options) -> dict:
    """{name: Report} for every gemm kernel of a tvm_tirx IRModule (or the one of a Function),
    or of a .py test file given by its path: each kernel its tests build, named by pytest's id
    (docs/tvmscript.md, "Test files")."""
    out = {}
    if isinstance(obj, (str, os.PathLike)):
        for name, p in _mmacheck.load_kernels(os.fspath(obj)):
            out[name] = _gemm_report(p, _mmacheck.prove(p, **options))
            out[name].name = name
        return out
    for name, func in tirx.functions(obj):
        if tirx.has_mma(func):
            p = tirx.program(func, layouts=layouts)
            out[name] = _gemm_report(p, _mmacheck.prove(p, **options))
            out[name].name = name
    return out


def prove_triton(entries) -> list:
    """Check Triton layouts together (one dot: its A, B and accumulator share a group):
    entries from mmacheck.triton.operand(layout, ...); a Report per layout, named by its name=
    or else by its group and role ("dot a"). Two entries given one name= are an Error."""
    return [Report(r, name=r["name"]) for r in triton.check(list(entries))]


def sim(obj, *, layouts=None, cases: int = 64, seed: int = 1, inputs: str = "standard", arch: str = "sm_90",
        threads: int = 0, show: int = 20, inst_set: str = "tvm") -> dict:
    """Run the gemm on the warp machine over random cases (`mmacheck sim`): a dict of the counts,
    in the --json shape: file, verdict ("passed", "failed", "dispatch_failed"), the counts, notes."""
    p = program(obj, layouts=layouts)
    counts = _mmacheck.sim(p, cases=cases, seed=seed, inputs=inputs, arch=arch, threads=threads, show=show,
                           inst_set=inst_set)
    verdict = counts.pop("result")
    return {"file": p.file, "verdict": verdict, **counts, "notes": []}
