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
signature, constexprs, attrs), target=GPUTarget("cuda", cc, 32),
options={num_warps, num_stages})`, with the specializations Triton's
launcher makes (specialize=True, the default): an int argument equal to 1
is a constant, one divisible by 16 and every tensor (a device allocation:
aligned to 16 bytes) get `tt.divisibility = 16`, except where the kernel's
`do_not_specialize` / `do_not_specialize_on_alignment` say otherwise — so
the PTX checked is the one a launch with these arguments runs.
specialize=False compiles with none.

An `@triton.autotune` kernel is compiled for one of its configs: `config=`
an index into its configs or a `triton.Config` (the only one when it has
one); the config's keywords are constexprs and its num_warps and
num_stages the options, and giving one of them again is an Error, as
Triton's launch refuses it.  `@triton.heuristics` values are computed from
the bound arguments as Triton computes them at the launch.  (A config's
pre_hook is not run: it acts on the device's tensors.)  mmacheck.prove
checks every config of an autotuned kernel.

The launch: the grid given (ints, or a function of
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


def _layers(obj: Any) -> list:
    """The @autotune / @heuristics wrappers of a @triton.jit function, outermost first, and the function last."""
    layers = [obj]
    while type(layers[-1]).__name__ != "JITFunction":
        layers.append(layers[-1].fn)
    return layers


def autotune_configs(obj: Any) -> list:
    """The configs of the kernel's @autotune wrapper ([] without one)."""
    for layer in _layers(obj):
        if type(layer).__name__ == "Autotuner":
            return list(layer.configs)
    return []


def _chosen_config(tuner: Any, config: Any) -> Any:
    configs = list(tuner.configs)
    name = _layers(tuner)[-1].__name__
    if config is None:
        if len(configs) != 1:
            raise error(f"{name} is autotuned over {len(configs)} configs: choose one with config= (an index or a "
                        "triton.Config); mmacheck.prove checks every one")
        return configs[0]
    if isinstance(config, numbers.Integral) and not isinstance(config, bool):
        if not 0 <= config < len(configs):
            raise error(f"{name} has {len(configs)} autotune configs; config={config} is not one of them")
        return configs[int(config)]
    if type(config).__name__ == "Config":
        return config
    raise error(f"config= takes an index into {name}'s autotune configs or a triton.Config, not "
                f"{type(config).__name__}")


def _apply_wrappers(obj: Any, args: Union[Sequence[Any], Mapping[str, Any], None], kwargs: dict, options: dict,
                    config: Any) -> Any:
    """The @triton.jit function under `obj`'s wrappers, with `kwargs` and `options` (num_warps, num_stages) given
    what an @autotune config and @heuristics values add at the launch, outermost wrapper first."""
    layers = _layers(obj)
    fn = layers[-1]
    if config is not None and not any(type(layer).__name__ == "Autotuner" for layer in layers):
        raise error(f"config= chooses an autotune config; {fn.__name__} is not autotuned")
    for layer in layers[:-1]:
        if type(layer).__name__ == "Autotuner":
            chosen = _chosen_config(layer, config)
            for key, value in list(chosen.kwargs.items()) + [("num_warps", chosen.num_warps),
                                                             ("num_stages", chosen.num_stages)]:
                given = options if key in ("num_warps", "num_stages") else kwargs
                if key in given or (isinstance(args, Mapping) and key in args):
                    raise error(f"{fn.__name__}'s autotune config sets {key}, which is also given: conflicting "
                                "meta-parameters (as Triton's launch says)")
                if value is not None:
                    given[key] = value
        else:  # Heuristics: each value from the arguments as bound so far
            named = dict(args) if isinstance(args, Mapping) else dict(zip(fn.arg_names, args or []))
            for key, heuristic in layer.values.items():
                kwargs[key] = heuristic({**named, **kwargs})
    return fn


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
                   args: Union[Sequence[Any], Mapping[str, Any], None] = None, num_warps: Optional[int] = None,
                   num_stages: Optional[int] = None, target: Union[str, int] = "sm_80",
                   gemm: Optional[Mapping[str, Any]] = None, config: Any = None, specialize: bool = True,
                   **kwargs: Any) -> CompiledKernel:
    """Triton's PTX of `fn` for `target` and the launch of it with `args` (see the module's doc)."""
    options = {k: v for k, v in (("num_warps", num_warps), ("num_stages", num_stages)) if v is not None}
    kwargs = dict(kwargs)
    fn = _apply_wrappers(fn, args, kwargs, options, config)
    num_warps, num_stages = options.get("num_warps", 4), options.get("num_stages", 3)
    kernel = fn.__name__
    bound = bind_arguments(fn, args, kwargs)
    constexpr = {p.name for p in fn.params if p.is_constexpr}
    param_of = {p.name: p for p in fn.params}
    signature, constexprs, attrs, params, tensors = {}, {}, {}, [], []
    for index, (name, value) in enumerate(bound.items()):
        p = param_of[name]
        may_specialize = specialize and not getattr(p, "do_not_specialize", False)
        aligned = may_specialize and not getattr(p, "do_not_specialize_on_alignment", False)
        if name in constexpr:
            signature[name] = "constexpr"
            constexprs[name] = value
        elif is_tensor(value):
            spec = tensor_spec(value)
            if spec.dtype not in _TRITON_TYPE:
                raise error(f"{kernel}'s tensor {name!r} has element type {spec.dtype}, which Triton does not take")
            signature[name] = "*" + _TRITON_TYPE[spec.dtype]
            if aligned:
                attrs[(index,)] = [["tt.divisibility", 16]]
            params.append(tensor_entry(name, spec))
            tensors.append(name)
        else:
            signature[name], number = _value(kernel, name, value)
            integer = isinstance(value, numbers.Integral) and not isinstance(value, bool)
            if may_specialize and integer and number == 1:  # the launcher's constant 1
                signature[name] = "constexpr"
                constexprs[name] = 1
                continue
            if aligned and integer and number % 16 == 0:
                attrs[(index,)] = [["tt.divisibility", 16]]
            params.append({"value": number})
    roles = gemm_roles(kernel, tensors, gemm)
    grid_dims = dims(grid(dict(bound, num_warps=num_warps, num_stages=num_stages)) if callable(grid) else grid,
                     "grid")

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    compiled = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs),
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
