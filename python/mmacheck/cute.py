"""Read live CuTe DSL atoms for the CuTe wing (core/cute/, docs/layouts-cute-triton.md).

Takes what a CuTe DSL (nvidia-cutlass-dsl) user builds while a @cute.jit
function is traced: an MmaAtom (cute.make_mma_atom) or a TiledMma
(cute.make_tiled_mma) of the warp MMA ops (warp.MmaF16BF16Op,
warp.MmaTF32Op, warp.MmaFP8Op) or of the sm_90 warpgroup (wgmma) ops
(warpgroup.MmaF16BF16Op, MmaF8Op, MmaI8Op: named as CUTLASS's GMMA atoms,
SM90_64x128x16_F32F16F16_SS, and checked against wgmma's frames; the tiling
of a warpgroup TiledMma is reported unchecked, its atom checked on its own).  Their layouts are read from the live
objects -- thr_id, shape_mnk and tv_layout_A/B/C (a TiledMma's
thr_layout_vmnk, tile sizes and tiled TV layouts): the static shapes and
strides, as integers -- and the atom is named as CUTLASS's C++ atom for the
op's instruction (SM80_16x8x16_F32F16F16F32_TN), from the op's types and
shape.

The integers travel to the library in the wing's own input (an atom list
entry, CuTe's shape:stride notation, docs/layouts-cute-triton.md), read by the same strict
reader as a file; a dynamic (traced) value or an op mmacheck does not name
is mmacheck.Error, never a verdict.
"""

from __future__ import annotations

import json

from . import _mmacheck

_TYPES = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32", "TFloat32": "TF32",
          "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2", "Int8": "S8", "Uint8": "U8", "Int32": "S32"}

# The DSL's warpgroup (sm_90 wgmma) ops -> whether CUTLASS's GMMA atom name
# ends in _TN (the types whose wgmma has no transpose: K-major operands only).
_WARPGROUP_OPS = {"MmaF16BF16Op": False, "MmaF8Op": True, "MmaI8Op": True}
# warpgroup.OperandSource -> the GMMA atom name's operand sources.
_SOURCES = {"SMEM": "SS", "RMEM": "RS"}


def is_cute_object(obj) -> bool:
    return (type(obj).__module__ or "").startswith("cutlass")


def _error(message):
    return _mmacheck.Error(f"error: {message}")


def _type(t):
    name = getattr(t, "__name__", None) or type(t).__name__
    if name not in _TYPES:
        raise _error(f"element type {name} is not one mmacheck names ({', '.join(_TYPES)})")
    return _TYPES[name]


def _is_warpgroup(op) -> bool:
    return ".warpgroup" in (type(op).__module__ or "")


def _warpgroup_atom_name(op) -> str:
    """CUTLASS's GMMA atom name (SM90_64x128x16_F32F16F16_SS) for a DSL warpgroup op.

    Read from the op's own fields (nvidia-cutlass-dsl 4.8: a_dtype, b_dtype,
    acc_dtype, shape_mnk, a_src, a_major_mode, b_major_mode); the major modes
    pick the shared-memory layout the descriptor describes, not a register
    layout, so they are not part of the name."""
    kind = type(op).__name__
    if kind not in _WARPGROUP_OPS:
        raise _error(f"mmacheck checks the warpgroup MMA ops ({', '.join(_WARPGROUP_OPS)}), got {kind}")
    m, n, k = (int(v) for v in op.shape_mnk)
    source = getattr(op.a_src, "name", str(op.a_src))
    if source not in _SOURCES:
        raise _error(f"{kind}: A source {op.a_src!r} is not one mmacheck names (SMEM, RMEM)")
    acc, a, b = _type(op.acc_dtype), _type(op.a_dtype), _type(op.b_dtype)
    return f"SM90_{m}x{n}x{k}_{acc}{a}{b}_{_SOURCES[source]}" + ("_TN" if _WARPGROUP_OPS[kind] else "")


def atom_name(op) -> str:
    """CUTLASS's C++ atom name for a DSL warp or warpgroup MMA op."""
    if _is_warpgroup(op):
        return _warpgroup_atom_name(op)
    kind = type(op).__name__
    m, n, k = (int(v) for v in op.shape_mnk)
    if kind == "MmaF16BF16Op":
        ab, acc, arch = _type(op.ab_dtype), _type(op.acc_dtype), "SM80"
    elif kind == "MmaTF32Op":
        ab, acc, arch = "TF32", "F32", "SM80"
    elif kind == "MmaFP8Op":
        ab, acc, arch = _type(op.ab_dtype), _type(op.acc_dtype), "SM89"
    else:
        raise _error(f"mmacheck checks the warp MMA ops (MmaF16BF16Op, MmaTF32Op, MmaFP8Op), got {kind}")
    return f"{arch}_{m}x{n}x{k}_{acc}{ab}{ab}{acc}_TN"


def _tuple(v, what):
    if isinstance(v, bool):
        raise _error(f"{what}: expected integers, got {v!r}")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "(" + ",".join(_tuple(x, what) for x in v) + ")"
    raise _error(f"{what}: {v!r} is not a static integer (mmacheck reads static layouts)")


def _layout(layout, what):
    return _tuple(layout.shape, what) + ":" + _tuple(layout.stride, what)


def _atom_entry(atom, name):
    shape = "Shape<" + ",".join("_" + _tuple(v, name + " shape_mnk") for v in atom.shape_mnk) + ">"
    fields = [("ThrID", _layout(atom.thr_id, name + " ThrID")), ("Shape_MNK", shape),
              ("A", _layout(atom.tv_layout_A, name + " A")), ("B", _layout(atom.tv_layout_B, name + " B")),
              ("C", _layout(atom.tv_layout_C, name + " C"))]
    return f"{name}:\n    " + ",\n    ".join(f"{k} = {v}" for k, v in fields)


def entries(obj) -> str:
    """The atom list entries (text) of a live MmaAtom or TiledMma."""
    kind = type(obj).__name__
    if kind == "MmaAtom":
        return _atom_entry(obj, atom_name(obj.op))
    if kind in ("TiledMma", "TiledMMA"):
        name = atom_name(obj.op)
        atom = obj  # a TiledMma carries its atom's fields too
        tile = "(" + ",".join(_tuple(obj.get_tile_size(i), name + " tile") for i in range(3)) + ")"
        fields = [("ThrLayoutVMNK", _layout(obj.thr_layout_vmnk, name + " ThrLayoutVMNK")), ("Tile", tile),
                  ("A", _layout(obj.tv_layout_A_tiled, name + " A")), ("B", _layout(obj.tv_layout_B_tiled, name + " B")),
                  ("C", _layout(obj.tv_layout_C_tiled, name + " C"))]
        return _atom_entry(atom, name) + f"\ntiled {name}:\n    " + ",\n    ".join(f"{k} = {v}" for k, v in fields)
    raise TypeError(f"not a CuTe DSL MmaAtom or TiledMma: {type(obj).__module__}.{kind}")


def check(obj) -> list:
    """The wing's reports (the dicts of `mmacheck cute --json`) for a live atom: one; a TiledMma: its atom's, then its own."""
    return json.loads(_mmacheck.cute_check(entries(obj) + "\n", "<cute atom>"))
