// kernel_from_values() — a released-TIRx kernel handed over from Python as
// plain values (dicts, lists, tuples, ints and strings: what
// python/mmacheck/tirx.py reads off a live tvm_tirx PrimFunc), turned into
// the ReleaseKernel of core/program/tirx_release/release_kernel.h.  No text
// is parsed: every layout, expression and location arrives as a value.
//
//   kernel  {"file": str, "mma": MMA | [MMA] (each apply, as written), "layouts": {name: LAYOUT},
//            "views": {name: VIEW}, "globals": {name: GLOBAL}, "transfers": [TRANSFER],
//            "threads": int (optional, default 32: the block's threads; whole warps above 32)}
//   MMA     {"opcode": str, "loc": LOC, "d": IMAGE, "a": IMAGE, "b": IMAGE, "c": IMAGE | None,
//            "scalar": [float, dtype] (optional, with c None: C that scalar as TVM typed it, "float32", "int32")}
//   IMAGE   {"name", "shape": [int], "dtype": str, "scope": "local"|..., "layout": LAYOUT, "loc"}
//   LAYOUT  {"shard": [(extent, stride, axis)], "replica": [(extent, stride, axis)], "offset": {axis: int}}
//   VIEW    {"alloc": str, "dtype": str, "shape": [int], "layout": LAYOUT, "loc"}
//   GLOBAL  {"shape": [int], "dtype": str, "loc"}
//   TRANSFER {"store": bool, "view": str, "global": str, "row": EXPR, "col": EXPR, "loc",
//             "zero": bool (optional: the view's registers set to 0, global ""),
//             "constant": float (optional: the view's registers set to it, global "")}
//   EXPR    int | "lane" | "tid" | "warp" | "s" | (op, EXPR, EXPR) with op + - * // % | ("neg", EXPR)
//   LOC     (file, line, col) | None
//
// A value of the wrong shape is an Error naming the key path
// ("mma.a.layout.shard[2]: expected (extent, stride, axis)").
#pragma once

#include <nanobind/nanobind.h>

#include "core/program/tirx_release/release_kernel.h"

namespace mmacheck::python {

ReleaseKernel kernel_from_values(nanobind::handle kernel);
// An EXPR as above; `where` names it in errors.
IndexExpr index_from_value(nanobind::handle value, const std::string& where, const SourceLoc& loc);

}  // namespace mmacheck::python
