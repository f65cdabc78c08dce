"""Read live Triton layouts for the Triton wing (core/triton/, docs/layouts-cute-triton.md).

Takes the objects a Triton or Gluon user has:

    triton._C.libtriton.linear_layout.LinearLayout      its bases and out dims
    gluon DistributedLinearLayout                        its fields
    gluon NVMMADistributedLayout (version [2, 0])        an accumulator; with shape=
    gluon DotOperandLayout over one                      a dot operand; with shape=

The two Gluon encodings are turned into linear layouts by Triton itself
(Gluon's to_linear_layout, on the CPU), never by mmacheck.  What a layout
does not say is asked for: the element type (dtype=), and for a plain linear
layout its role (operand="acc" | "a" | "b", k_width=, warps_per_cta=).
An entry without name= is named by check() from its group and role
("dot a"), since the layout's class names every dot operand alike.

The bases travel to the library as numbers in the wing's own input document
(the `mmacheck triton` JSON, Gluon's fields), read by the same strict reader
as a file; a layout it refuses is mmacheck.Error, never a verdict.
"""

from __future__ import annotations

import json

from . import _mmacheck

_OUT_DIMS = ("dim0", "dim1", "dim2", "dim3")


def is_triton_object(obj) -> bool:
    mod = type(obj).__module__ or ""
    return mod.startswith("triton")


def _error(message):
    return _mmacheck.Error(f"error: {message}")


def _gluon_linear(layout, shape):
    from triton._C.libtriton import gluon_ir, ir
    import triton.experimental.gluon.language as gl
    from triton.experimental.gluon.language._semantic import GluonSemantic

    ctx = ir.context()
    ir.load_dialects(ctx)
    sem = GluonSemantic(gluon_ir.GluonOpBuilder(ctx))
    return gl.to_linear_layout(layout, list(shape), _semantic=sem).value


def _fields(layout):
    """Gluon's fields of a linear layout object."""
    kind = type(layout).__name__
    if kind == "DistributedLinearLayout":
        return {"reg_bases": [list(b) for b in layout.reg_bases], "lane_bases": [list(b) for b in layout.lane_bases],
                "warp_bases": [list(b) for b in layout.warp_bases], "block_bases": [list(b) for b in layout.block_bases],
                "shape": list(layout.shape)}
    if kind == "LinearLayout":
        out_names = [name for name, _ in layout.out_dims]
        if tuple(out_names) != _OUT_DIMS[: len(out_names)]:
            raise _error(f"the linear layout's out dims are {out_names}; mmacheck reads dim0, dim1, ...")
        keys = {"register": "reg_bases", "lane": "lane_bases", "warp": "warp_bases", "block": "block_bases"}
        out = {"reg_bases": [], "lane_bases": [], "warp_bases": [], "block_bases": []}
        for name, bases in layout.bases:
            if name not in keys:
                raise _error(f"input dimension '{name}' is not read (register, lane, warp, block)")
            out[keys[name]] = [list(b) for b in bases]
        out["shape"] = [size for _, size in layout.out_dims]
        return out
    raise TypeError(f"not a Triton linear layout: {type(layout).__module__}.{kind}")


def operand(layout, *, dtype, shape=None, operand=None, k_width=None, warps_per_cta=None, name=None, group=None):
    """One entry of the wing's document for a live layout (see the module's doc)."""
    kind = type(layout).__name__
    entry = {} if name is None else {"name": name}
    entry["dtype"] = dtype
    if kind in ("NVMMADistributedLayout", "DotOperandLayout"):
        mma = layout if kind == "NVMMADistributedLayout" else layout.parent
        if type(mma).__name__ != "NVMMADistributedLayout" or list(mma.version)[0] != 2:
            raise _error(f"mmacheck checks NVIDIA MMA v2 layouts (NVMMADistributedLayout version [2, 0]), got {mma}")
        if shape is None:
            raise _error(f"a {kind} needs the tensor's shape= to become a linear layout")
        entry["operand"] = "acc" if kind == "NVMMADistributedLayout" else ("a", "b")[layout.operand_index]
        if kind == "DotOperandLayout":
            entry["k_width"] = int(layout.k_width)
        entry["warps_per_cta"] = [int(w) for w in mma.warps_per_cta]
        entry["layout"] = _fields(_gluon_linear(layout, shape))
    else:
        if operand is None:
            raise _error(f"a {kind} does not say what it is for: give operand=\"acc\", \"a\" or \"b\"")
        entry["operand"] = operand
        if k_width is not None:
            entry["k_width"] = int(k_width)
        if warps_per_cta is not None:
            entry["warps_per_cta"] = [int(w) for w in warps_per_cta]
        entry["layout"] = _fields(layout)
    if group is not None:
        entry["group"] = group
    return entry


def _named(entries):
    """The entries, each with a name: its own name=, or "GROUP ROLE" ("dot b"), with " #2", " #3" ...
    after a name already taken, so that several dots of one list need no names."""
    explicit = {}
    for i, entry in enumerate(entries):
        if "name" in entry:
            if entry["name"] in explicit:
                raise _error(f"operands[{explicit[entry['name']]}] and operands[{i}] are both named "
                             f"'{entry['name']}': give each its own name=, or none for one from its group and role")
            explicit[entry["name"]] = i
    taken = set(explicit)
    out = []
    for entry in entries:
        if "name" not in entry:
            base = " ".join(str(part) for part in (entry.get("group"), entry.get("operand")) if part is not None)
            name, n = base, 1
            while name in taken:
                n += 1
                name = f"{base} #{n}"
            entry = {"name": name, **entry}
            taken.add(name)
        out.append(entry)
    return out


def check(entries):
    """The wing's reports (the dicts of `mmacheck triton --json`) for document entries."""
    document = json.dumps({"operands": _named(entries)}, indent=1)
    return json.loads(_mmacheck.triton_check(document, "<triton layouts>"))
