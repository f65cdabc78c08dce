"""A kernel's PTX and its launch file, made from Python values (docs/ptx.md, "The launch file").

What the Triton and TileLang front ends (ptx_triton.py, ptx_tilelang.py)
share: the value type of a tensor argument, the reading of tensors
(torch, numpy, TensorSpec) into the launch's tensor entries, the gemm's
roles, and CompiledKernel, the PTX text with its launch, which
mmacheck.ptx.prove checks and .save() writes as `NAME.ptx` and
`NAME.launch.json` for `mmacheck prove NAME.ptx`.

    spec = TensorSpec("float16", (64, 64))            # dtype, shape, strides in elements
    tensor_entry("a_ptr", spec)                        # {"tensor": "a_ptr", "dtype": "float16", "shape": [64, 64]}
    gemm_roles("k", ["a", "b", "c"], None)             # {"A": "a", "B": "b", "D": "c"}

Errors are mmacheck.Error ("error: ..."), as the library's are.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from . import _mmacheck

# Names of element types as the launch file spells them (TVM's), by the
# spellings torch, numpy, Triton and users write.
_DTYPE_ALIASES = {
    "float16": "float16", "half": "float16", "fp16": "float16", "f16": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "float32": "float32", "float": "float32", "fp32": "float32", "f32": "float32",
    "float64": "float64", "double": "float64", "fp64": "float64", "f64": "float64",
    "int8": "int8", "i8": "int8", "s8": "int8", "uint8": "uint8", "u8": "uint8",
    "int16": "int16", "i16": "int16", "int32": "int32", "i32": "int32", "s32": "int32",
    "int64": "int64", "i64": "int64", "uint32": "uint32", "u32": "uint32",
    "float8_e4m3fn": "float8_e4m3fn", "fp8e4nv": "float8_e4m3fn", "e4m3": "float8_e4m3fn",
    "float8_e5m2": "float8_e5m2", "fp8e5": "float8_e5m2", "e5m2": "float8_e5m2",
}


def error(message: str) -> Exception:
    """mmacheck.Error in the library's form, without a location."""
    return _mmacheck.Error(f"error: {message}")


def dtype_name(dtype: Any) -> str:
    """The launch file's name of an element type given as a string, a torch or numpy dtype, or a Triton type."""
    if isinstance(dtype, str):
        text = dtype
    elif isinstance(dtype, type):  # numpy's scalar types: np.float16
        text = dtype.__name__
    else:
        text = getattr(dtype, "name", None)  # numpy dtypes; torch and Triton types print their name
    if not isinstance(text, str):
        text = str(dtype)
    text = text.removeprefix("torch.").removeprefix("tl.")
    if text not in _DTYPE_ALIASES:
        known = ", ".join(sorted(set(_DTYPE_ALIASES.values())))
        raise error(f"element type {dtype!r} is not one mmacheck reads ({known})")
    return _DTYPE_ALIASES[text]


@dataclass(frozen=True)
class TensorSpec:
    """A tensor argument as the check sees it: only its element type, shape and strides (in
    elements; None: row-major).  torch tensors and numpy arrays are read into one."""

    dtype: str
    shape: tuple
    strides: Optional[tuple] = None

    def __post_init__(self):
        object.__setattr__(self, "dtype", dtype_name(self.dtype))
        object.__setattr__(self, "shape", tuple(int(n) for n in self.shape))
        if self.strides is not None:
            object.__setattr__(self, "strides", tuple(int(s) for s in self.strides))
            if len(self.strides) != len(self.shape):
                raise error(f"a tensor of shape {list(self.shape)} has {len(self.strides)} strides")


def is_tensor(value: Any) -> bool:
    """A TensorSpec, or an array-like with a dtype and at least one dimension (torch, numpy)."""
    if isinstance(value, TensorSpec):
        return True
    shape = getattr(value, "shape", None)
    return hasattr(value, "dtype") and shape is not None and len(tuple(shape)) >= 1


def tensor_spec(value: Any) -> TensorSpec:
    """The TensorSpec of a torch tensor (strides in elements), a numpy array (strides in bytes) or a TensorSpec."""
    if isinstance(value, TensorSpec):
        return value
    shape = tuple(int(n) for n in value.shape)
    stride = getattr(value, "stride", None)
    if callable(stride):  # torch: elements
        strides = tuple(int(s) for s in stride())
    elif hasattr(value, "strides") and hasattr(value, "itemsize"):  # numpy: bytes
        strides = tuple(int(s) // int(value.itemsize) for s in value.strides)
    else:
        strides = None
    return TensorSpec(value.dtype, shape, strides)


def row_major(shape: Sequence[int]) -> tuple:
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def tensor_entry(name: str, spec: TensorSpec) -> dict:
    """A tensor parameter of the launch file (strides only where they are not row-major)."""
    entry = {"tensor": name, "dtype": spec.dtype, "shape": list(spec.shape)}
    if spec.strides is not None and spec.strides != row_major(spec.shape):
        entry["strides"] = list(spec.strides)
    return entry


def gemm_roles(kernel: str, tensors: Sequence[str], gemm: Optional[Mapping[str, Any]]) -> dict:
    """The launch's "gemm": `gemm` as given ({"A": name, "B": name, "D": name[, "C": name or number]}),
    every name one of `tensors`; or, with exactly three tensors and no `gemm`, A, B, D in their order."""
    if gemm is None:
        if len(tensors) != 3:
            raise error(f"{kernel} has {len(tensors)} tensor arguments ({', '.join(tensors) or 'none'}); say which "
                        "are A, B and D: gemm={'A': ..., 'B': ..., 'D': ...} (D = A·B)")
        return {"A": tensors[0], "B": tensors[1], "D": tensors[2]}
    roles = dict(gemm)
    for role, name in roles.items():
        if role not in ("A", "B", "C", "D"):
            raise error(f"gemm= names the roles A, B, D and C; got {role!r}")
        if role == "C" and isinstance(name, (int, float)):
            continue
        if name not in tensors:
            raise error(f"gemm= gives {role} as {name!r}, which is not a tensor argument of {kernel} "
                        f"({', '.join(tensors) or 'none'})")
    for role in ("A", "B", "D"):
        if role not in roles:
            raise error(f"gemm= must name A, B and D; {role} is missing")
    return roles


def dims(value: Any, what: str) -> list:
    """One to three positive extents from an int or a sequence of ints."""
    extents = [value] if isinstance(value, int) else list(value)
    if not 1 <= len(extents) <= 3 or not all(isinstance(n, int) and n > 0 for n in extents):
        raise error(f"{what} is one to three positive integers; got {value!r}")
    return extents


def entry_param_count(ptx: str, kernel: str) -> int:
    """How many .params the PTX's `.entry kernel` takes."""
    m = re.search(r"\.entry\s+" + re.escape(kernel) + r"\s*\(([^)]*)\)", ptx)
    if not m:
        raise error(f"the PTX has no .entry {kernel}")
    return len(re.findall(r"\.param\s+\.", m.group(1)))


@dataclass
class CompiledKernel:
    """A kernel's PTX and one launch of it (the launch file's object, docs/ptx.md).

    `file` names the PTX in reports and errors (`NAME.ptx`; the launch is
    `NAME.launch.json`), as the files save() writes, so that
    `mmacheck prove NAME.ptx` on them answers as mmacheck.prove did."""

    name: str
    ptx: str
    launch: dict = field(default_factory=dict)

    @property
    def file(self) -> str:
        return f"{self.name}.ptx"

    @property
    def launch_file(self) -> str:
        return f"{self.name}.launch.json"

    def launch_json(self) -> str:
        """The launch file's text (one value per line, so that an error's line names it)."""
        return json.dumps(self.launch, indent=1) + "\n"

    def save(self, folder: str | os.PathLike = ".") -> str:
        """Write NAME.ptx and NAME.launch.json into `folder`; the path of the .ptx."""
        os.makedirs(folder, exist_ok=True)
        ptx_path = os.path.join(folder, self.file)
        with open(ptx_path, "w") as f:
            f.write(self.ptx)
        with open(os.path.join(folder, self.launch_file), "w") as f:
            f.write(self.launch_json())
        return ptx_path
