"""A TileLang kernel compiled to PTX for one launch, without a GPU (docs/python.md, "Kernels as PTX").

    k = compile_tilelang(main)          # a T.prim_func, tilelang.compile's JITKernel, or @tilelang.jit's
    k.ptx, k.launch                     #   factory with args= its arguments

As scripts/ptx-oracle/tilelang_kernels.py does: the PrimFunc lowered by
`tilelang.lower` for `target` (default sm_80), its CUDA source compiled to
PTX by nvcc against TileLang's own templates (`nvcc=`, else $NVCC, nvcc on
PATH, $CUDA_HOME/bin, /usr/local/cuda/bin) or, without nvcc, by NVRTC
(cuda-python, through tilelang.contrib.nvrtc); with neither, an Error.  The
launch: grid and block from the kernel's `thread_extent` (unless given),
dynamic_shared its `dyn_shared_memory_buf`, a tensor per parameter of the
CUDA kernel (shapes and dtypes from the PrimFunc's buffers, which must be
static), and under `tensors` a tensor TileLang dropped because the kernel
never reads it.  The gemm's roles: `gemm=` by buffer name, else the
PrimFunc's three tensors are A, B and D in order.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Mapping, Optional, Sequence, Union

from .ptx_launch import CompiledKernel, TensorSpec, dims, error, gemm_roles, tensor_entry


def is_tilelang_kernel(obj: Any) -> bool:
    """A TileLang JITKernel or @tilelang.jit factory, or a TVM PrimFunc while tilelang is imported
    (T.prim_func makes TileLang's TVM's PrimFunc), known without importing tilelang."""
    kind = type(obj)
    if kind.__module__.startswith("tilelang.") and kind.__name__ in ("JITKernel", "JITImpl"):
        return True
    return kind.__name__ == "PrimFunc" and kind.__module__.startswith("tvm.") and "tilelang" in sys.modules


def _prim_func(obj: Any, args: Union[Sequence[Any], Mapping[str, Any], None]) -> Any:
    kind = type(obj).__name__
    if kind == "JITImpl":
        if args is None:
            raise error("a @tilelang.jit function makes a kernel from its arguments: give them as args=")
        return obj.get_tir(**args) if isinstance(args, Mapping) else obj.get_tir(*args)
    if args is not None:
        raise error("a TileLang kernel's tensors and sizes are its PrimFunc's; args= is for a @tilelang.jit factory")
    return obj.prim_func if kind == "JITKernel" else obj


def find_nvcc(nvcc: Optional[str] = None) -> Optional[str]:
    """nvcc as given, else $NVCC, nvcc on PATH, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc; None if none is."""
    candidates = [nvcc, os.environ.get("NVCC"), shutil.which("nvcc")]
    if os.environ.get("CUDA_HOME"):
        candidates.append(os.path.join(os.environ["CUDA_HOME"], "bin", "nvcc"))
    candidates.append("/usr/local/cuda/bin/nvcc")
    return next((c for c in candidates if c and os.path.isfile(c) and os.access(c, os.X_OK)), None)


def _cuda_to_ptx(source: str, arch: str, nvcc: Optional[str]) -> str:
    import tilelang

    root = os.path.dirname(tilelang.__file__)
    includes = ["-I" + os.path.join(root, "src"), "-I" + os.path.join(root, "3rdparty", "cutlass", "include")]
    compiler = find_nvcc(nvcc)
    if compiler:
        with tempfile.TemporaryDirectory() as d:
            cu = os.path.join(d, "kernel.cu")
            with open(cu, "w") as f:
                f.write(source)
            run = subprocess.run([compiler, f"-arch={arch}", "-ptx", "-std=c++17", "-w", *includes, "-o", "-", cu],
                                 capture_output=True, text=True)
        if run.returncode != 0:
            raise error(f"nvcc ({compiler}) could not compile TileLang's CUDA source:\n{run.stderr.strip()}")
        return run.stdout
    try:
        from tilelang.contrib import nvrtc
        from tilelang.env import CUDA_HOME
        from tilelang.jit.adapter.nvrtc.include_paths import discover_cuda_include_paths
    except ImportError as e:
        raise error("compiling a TileLang kernel to PTX needs nvcc (nvcc=, $NVCC, PATH, $CUDA_HOME/bin) or "
                    f"NVRTC (cuda-python); neither is here ({e})") from None
    # TileLang's own NVRTC options (its nvrtc adapter): the CUDA headers and the compiler's major version.
    includes += ["-I" + path for path in discover_cuda_include_paths(CUDA_HOME or "/usr/local/cuda")]
    options = ["-std=c++17", *includes, f"-D__CUDACC_VER_MAJOR__={nvrtc.get_nvrtc_version()[0]}"]
    try:
        return bytes(nvrtc.compile_cuda(source, "ptx", arch=int(arch.removeprefix("sm_").rstrip("a")),
                                        options=options, verbose=True)).decode().rstrip("\0")
    except Exception as e:  # TileLang's NVRTC wrapper raises RuntimeError with the log
        log = str(e)
        raise error(f"NVRTC could not compile TileLang's CUDA source:\n{log[log.find('Compilation error'):]}") from None


def _static(value: Any, what: str) -> int:
    try:
        return int(value)
    except TypeError:
        raise error(f"{what} is {value}, not a number: mmacheck checks one launch, with static shapes") from None


def compile_tilelang(obj: Any, *, grid: Union[int, Sequence[int], None] = None,
                     block: Union[int, Sequence[int], None] = None,
                     args: Union[Sequence[Any], Mapping[str, Any], None] = None, target: str = "sm_80",
                     gemm: Optional[Mapping[str, Any]] = None, nvcc: Optional[str] = None) -> CompiledKernel:
    """TileLang's kernel lowered for `target`, its PTX and its launch (see the module's doc)."""
    import tilelang
    from tvm.target import Target

    func = _prim_func(obj, args)
    with Target({"kind": "cuda", "arch": target}) as tvm_target:
        artifact = tilelang.lower(func, target=tvm_target)
    kernels = [(str(g.name_hint), f) for g, f in artifact.device_mod.functions.items()]
    if len(kernels) != 1:
        raise error(f"TileLang made {len(kernels)} device kernels ({', '.join(n for n, _ in kernels)}); "
                    "mmacheck checks a launch of one")
    ((symbol, device),) = kernels
    attrs = device.attrs
    extent = {str(k): _static(v, f"the launch extent {k}") for k, v in attrs["thread_extent"].items()}
    shared = _static(attrs["dyn_shared_memory_buf"], "the dynamic shared memory") if (
        "dyn_shared_memory_buf" in attrs) else 0

    buffers = {}  # the PrimFunc's tensors by their data pointer's name, in parameter order
    for param in func.params:
        buf = func.buffer_map[param]
        shape = [_static(n, f"{buf.name}'s extent") for n in buf.shape]
        strides = [_static(s, f"{buf.name}'s stride") for s in buf.strides] or None
        buffers[str(buf.data.name)] = (buf.name, TensorSpec(str(buf.dtype), shape, strides))
    m = re.search(r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?" + re.escape(symbol) + r"\(([^)]*)\)",
                  artifact.kernel_source)
    if not m:
        raise error(f"TileLang's CUDA source has no kernel {symbol}")
    params, used = [], set()
    for decl in (d.strip() for d in m.group(1).split(",") if d.strip()):
        var = re.search(r"(\w+)$", decl).group(1)
        if var not in buffers:
            raise error(f"the kernel's parameter '{decl}' is not a tensor: mmacheck checks one launch, "
                        "with static shapes")
        params.append(tensor_entry(*buffers[var]))
        used.add(var)
    names = [name for name, _ in buffers.values()]
    roles = gemm_roles(symbol, names, gemm)
    launch = {"kernel": symbol,
              "grid": dims(grid, "grid") if grid is not None else [extent.get(f"blockIdx.{a}", 1) for a in "xyz"],
              "block": dims(block, "block") if block is not None else [extent.get(f"threadIdx.{a}", 1) for a in "xyz"],
              "dynamic_shared": shared, "params": params}
    unused = [tensor_entry(*buffers[v]) for v in buffers if v not in used]
    if unused:
        launch["tensors"] = unused
    launch["gemm"] = roles
    ptx = _cuda_to_ptx(artifact.kernel_source, target, nvcc)
    return CompiledKernel(name=symbol, ptx=ptx, launch=launch)
