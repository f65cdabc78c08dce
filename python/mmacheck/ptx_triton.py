"""A Triton @triton.jit kernel compiled to PTX for one launch, without a GPU (docs/python.md, "Kernels as PTX").

    k = compile_triton(matmul_kernel, grid=(2, 2), args=(a, b, c, 64, 64, 64, 64, 1, 64, 1, 64, 1),
                       BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, num_warps=4, num_stages=2)
    k.ptx, k.launch      # Triton's PTX for sm_80, the launch file's object

Arguments are bound as a launch `kernel[grid](*args, **kwargs)` binds them:
`args` positionally in the function's parameter order (or a dict by
parameter name), keywords by name, a constexpr's default where none is
given.  A tensor (torch, numpy, mmacheck.TensorSpec: only its dtype, shape
and strides are read) is a pointer parameter (`*fp16`); an int is `i32`
(`i64` past 32 bits), a float `fp32`.  The kernel is compiled as
scripts/ptx-oracle/triton_kernels.py compiles it: `triton.compile(ASTSource(fn,
signature, constexprs), target=GPUTarget("cuda", cc, 32), options={num_warps,
num_stages})`, with none of the launcher's specializations (an int equal to
1, divisibility by 16).  The launch: the grid given (ints, or a function of
the bound arguments as Triton's `grid` is), block 32·num_warps,
dynamic_shared the compiled kernel's `metadata.shared`, one entry per
parameter that is not constexpr, and `{"value": 0}` for the pointers Triton
3.x appends (global and profile scratch).

The gemm's roles: `gemm={"A": "a_ptr", "B": "b_ptr", "D": "c_ptr"}` by
parameter name; without it a kernel with exactly three tensor arguments has
A, B and D in that order, and one with more is an Error.
"""

from __future__ import annotations

import inspect
import numbers
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from .ptx_launch import CompiledKernel, dims, entry_param_count, error, gemm_roles, is_tensor, tensor_entry, tensor_spec

# The Triton pointer type of each launch element type.
_TRITON_TYPE = {
    "float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64", "int8": "i8", "uint8": "u8",
    "int16": "i16", "int32": "i32", "int64": "i64", "uint32": "u32", "float8_e4m3fn": "fp8e4nv",
    "float8_e5m2": "fp8e5",
}


def is_triton_kernel(obj: Any) -> bool:
    """A @triton.jit function (or an @autotune/@heuristics wrapper of one), known by its class, not by importing triton."""
    kind = type(obj)
    return kind.__module__ in ("triton.runtime.jit", "triton.runtime.autotuner") and kind.__name__ in (
        "JITFunction", "Autotuner", "Heuristics")


def _jit_function(obj: Any) -> Any:
    while type(obj).__name__ != "JITFunction":
        obj = obj.fn  # @autotune / @heuristics wrap the function; their configs are not applied
    return obj


def _cc(target: Union[str, int]) -> int:
    """80 for "sm_80", 90 for "sm_90" or "sm_90a", an int as it is."""
    if isinstance(target, int):
        return target
    text = target.removeprefix("sm_").removeprefix("compute_").rstrip("a")
    if not text.isdigit():
        raise error(f"target {target!r} is not an architecture (sm_80, sm_90, ...)")
    return int(text)


def bind_arguments(fn: Any, args: Union[Sequence[Any], Mapping[str, Any], None], kwargs: Mapping[str, Any]) -> dict:
    """{parameter name: value} for every parameter of the @triton.jit function `fn`, in its order."""
    names = list(fn.arg_names)
    bound: dict = {}
    if isinstance(args, Mapping):
        given = list(args.items())
    else:
        positional = list(args or [])
        if len(positional) > len(names):
            raise error(f"{fn.__name__} takes {len(names)} parameters ({', '.join(names)}); "
                        f"args= gives {len(positional)}")
        given = list(zip(names, positional))
    for name, value in given + list(kwargs.items()):
        if name not in names:
            raise error(f"{fn.__name__} has no parameter {name!r} (parameters: {', '.join(names)})")
        if name in bound:
            raise error(f"{fn.__name__}'s parameter {name!r} is given twice")
        bound[name] = value
    for p in fn.params:
        if p.name not in bound:
            default = getattr(p, "default", inspect.Parameter.empty)
            if default is inspect.Parameter.empty:
                raise error(f"{fn.__name__}'s parameter {p.name!r} is not given (args= or a keyword)")
            bound[p.name] = default
    return {name: bound[name] for name in names}


def _value(kernel: str, name: str, value: Any) -> tuple:
    """(Triton's type, the launch's value) of a parameter given a number (numpy's too)."""
    if isinstance(value, bool):
        return "i1", int(value)
    if isinstance(value, numbers.Integral):
        return ("i32" if -(2**31) <= value < 2**31 else "i64"), int(value)
    if isinstance(value, numbers.Real):
        return "fp32", float(value)
    raise error(f"{kernel}'s parameter {name!r} is given {type(value).__name__} {value!r}; a parameter that is "
                "not constexpr takes a tensor (torch, numpy, mmacheck.TensorSpec), an int or a float")


def compile_triton(fn: Any, *, grid: Union[int, Sequence[int], Callable[[dict], Sequence[int]]],
                   args: Union[Sequence[Any], Mapping[str, Any], None] = None, num_warps: int = 4,
                   num_stages: int = 3, target: Union[str, int] = "sm_80",
                   gemm: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> CompiledKernel:
    """Triton's PTX of `fn` for `target` and the launch of it with `args` (see the module's doc)."""
    fn = _jit_function(fn)
    kernel = fn.__name__
    bound = bind_arguments(fn, args, kwargs)
    constexpr = {p.name for p in fn.params if p.is_constexpr}
    signature, constexprs, params, tensors = {}, {}, [], []
    for name, value in bound.items():
        if name in constexpr:
            signature[name] = "constexpr"
            constexprs[name] = value
        elif is_tensor(value):
            spec = tensor_spec(value)
            if spec.dtype not in _TRITON_TYPE:
                raise error(f"{kernel}'s tensor {name!r} has element type {spec.dtype}, which Triton does not take")
            signature[name] = "*" + _TRITON_TYPE[spec.dtype]
            params.append(tensor_entry(name, spec))
            tensors.append(name)
        else:
            signature[name], number = _value(kernel, name, value)
            params.append({"value": number})
    roles = gemm_roles(kernel, tensors, gemm)
    grid_dims = dims(grid(dict(bound, num_warps=num_warps, num_stages=num_stages)) if callable(grid) else grid,
                     "grid")

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    compiled = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs),
                              target=GPUTarget("cuda", _cc(target), 32),
                              options={"num_warps": num_warps, "num_stages": num_stages})
    ptx = compiled.asm["ptx"]
    name = compiled.metadata.name
    extra = entry_param_count(ptx, name) - len(params)
    if extra < 0:
        raise error(f"Triton's PTX of {kernel} takes fewer parameters than the {len(params)} given")
    params += [{"value": 0}] * extra  # Triton 3.x's global and profile scratch pointers: null
    launch = {"kernel": name, "grid": grid_dims, "block": [32 * compiled.metadata.num_warps],
              "dynamic_shared": int(compiled.metadata.shared), "params": params, "gemm": roles}
    return CompiledKernel(name=name, ptx=ptx, launch=launch)
