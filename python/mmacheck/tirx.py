"""Read a live tvm_tirx (apache-tvm-tirx 0.1.0a4) PrimFunc into mmacheck's values.

The walker visits the real IR objects -- no TVMScript is printed or parsed --
and hands kernel_values (python/src/kernel_values.h) to the C++ library,
which builds the same Program as the text reader builds from the file
(core/program/tirx_release/release_kernel.h, docs/tirx-release.md):

    the parameters             T.Tensor globals (the staging's matrices)
    T.device_entry             a block of one warp or of whole warps, each running the mma
                               on its own images (block (64, 1, 1), (32, 2, 1), ...)
    lane = T.cuda.lane_id()    the lane; T.cuda.warp_id() the warp; T.cuda.thread_idx("x"),
                               ("y"), ("z") the block's thread coordinates
    x = <integer expression>   a let, substituted where it is used
    T.alloc_tensor / alloc_local   a register image (shape, dtype, layout)
    T.decl_tensor(x.data, ...)     a register view of an image
    for s in T.unroll(n): view[s] = G[row, col]   (or G[row, col] = view[s])
    T.cuda.tile.apply("mma.sync...", (D, A, B, C), (), scope=warp)

Anything else raises mmacheck.Error at the statement's source line: the
walker never guesses, so what it does not understand is never a verdict.
A module TVM has already lowered (TileDispatch's T.ptx.mma calls) is not
read live (an Error says so): prove the module before lowering, or write
mod.script() to a file and prove the file, whose reader evaluates the dumped
register arguments.
"""

from __future__ import annotations

from . import _mmacheck

_BINARY = {"Add": "+", "Sub": "-", "Mul": "*", "FloorDiv": "//", "FloorMod": "%"}


def is_tirx_object(obj) -> bool:
    """True for a tvm_tirx Function (PrimFunc) or IRModule."""
    mod = type(obj).__module__ or ""
    return mod.startswith("tvm_tirx.") and type(obj).__name__ in ("Function", "PrimFunc", "IRModule")


def functions(obj):
    """(name, function) for a Function, or for every tirx Function of an IRModule."""
    if type(obj).__name__ == "IRModule":
        out = []
        for gvar, func in obj.functions.items():
            if type(func).__name__ in ("Function", "PrimFunc"):
                out.append((gvar.name_hint, func))
        return out
    return [(_name_of(obj), obj)]


def ops_of(stmt) -> set:
    """Names of the ops a statement's Evaluate calls (tile.apply, ptx.mma, ...)."""
    found = set()
    stack = [stmt]
    while stack:
        node = stack.pop()
        kind = type(node).__name__
        if kind == "SeqStmt":
            stack.extend(node.seq)
        elif kind in ("RegionStmt", "For"):
            stack.append(node.body)
        elif kind == "Evaluate" and type(node.value).__name__ == "Call":
            found.add(getattr(node.value.op, "name", ""))
    return found


def has_mma(func) -> bool:
    """True when `func` calls the mma pattern or its lowered T.ptx.mma (which the walker refuses, saying why)."""
    return bool({"tirx.cuda.tile.apply", "tirx.ptx.mma"} & ops_of(func.body))


def _name_of(func) -> str:
    """The function's global_symbol, else "main" (a @T.function outside a module has none)."""
    attrs = getattr(func, "attrs", None)
    try:
        return str(attrs["global_symbol"])
    except (KeyError, TypeError, AttributeError):
        return "main"


def _loc(node):
    loc = getattr(node, "loc", None)
    if loc is None or type(loc).__name__ != "SourceLoc":
        return None
    return (str(loc.source_name.name), int(loc.start_line), int(loc.start_column))


def _first_loc(stmt):
    """The first source location in a statement (a SeqStmt has none of its own)."""
    while stmt is not None:
        loc = _loc(stmt)
        if loc:
            return loc
        stmt = stmt.seq[0] if type(stmt).__name__ == "SeqStmt" and len(stmt.seq) else getattr(stmt, "body", None)
    return None


def _fail(node, message):
    loc = _loc(node)
    at = f"{loc[0]}:{loc[1]}:{loc[2]}: " if loc else ""
    raise _mmacheck.Error(f"{at}error: {message}")


def _int(node, what):
    if isinstance(node, int):
        return node
    if type(node).__name__ == "IntImm":
        return int(node.value)
    _fail(node, f"{what} must be an integer constant, got {node}")


def _layout(layout):
    if layout is None:
        return None
    shard = [(_int(i.extent, "an iter's extent"), _int(i.stride, "an iter's stride"), str(i.axis.name)) for i in layout.shard]
    replica = [(_int(i.extent, "an iter's extent"), _int(i.stride, "an iter's stride"), str(i.axis.name)) for i in layout.replica]
    offset = {str(getattr(k, "name", k)): _int(v, "an offset") for k, v in layout.offset.items()}
    return {"shard": shard, "replica": replica, "offset": offset}


def _row_major(shape):
    iters, stride = [], 1
    for extent in reversed(shape):
        iters.append((extent, stride, "m"))
        stride *= extent
    return {"shard": list(reversed(iters)), "replica": [], "offset": {}}


def _tensor(ty, node):
    if type(ty).__name__ != "TensorType":
        _fail(node, f"expected a T.Tensor type, got {ty}")
    shape = [_int(d, "a dimension") for d in ty.shape]
    layout = _layout(ty.layout)
    return {"shape": shape, "dtype": str(ty.dtype), "scope": str(ty.scope), "layout": layout or _row_major(shape)}


class _Walker:
    def __init__(self, func, file):
        self.func = func
        self.file = file
        self.images = {}  # Var -> image dict
        self.views = {}  # Var -> (name, view dict)
        self.globals = {}  # Var -> name
        self.lets = {}  # Var -> expression value
        self.names = {}  # image and view name -> node where it was defined
        self.transfers = []
        self.steps = 0  # statements visited, in order
        self.mma = []  # each T.cuda.tile.apply, in order
        self.launched = False
        self.block = (32, 1, 1)
        self.loop = None  # (Var, extent) of the enclosing loop

    def run(self):
        if "tirx.ptx.mma" in ops_of(self.func.body):
            _fail(self.func, "a lowered T.ptx.mma (TileDispatch's output) is not read from live objects: prove the "
                             "module before lowering, or write mod.script() to a file and prove the file")
        globals_ = {}
        for p in self.func.params:
            ty = getattr(p, "ty", None)
            if type(ty).__name__ != "TensorType":
                _fail(self.func, f"parameter '{p.name}' is not a T.Tensor")
            t = _tensor(ty, self.func)
            self.globals[p] = p.name
            globals_[p.name] = {"shape": t["shape"], "dtype": t["dtype"], "loc": _loc(self.func)}
        self.stmt(self.func.body)
        if not self.mma:
            _fail(self.func, "the kernel has no mma (T.cuda.tile.apply)")
        return {
            "file": self.file,
            "mma": self.mma,
            "layouts": {},
            "views": {name: v for name, v in self.views.values()},
            "globals": globals_,
            "transfers": self.transfers,
            "threads": self.block[0] * self.block[1] * self.block[2],
        }

    def define(self, var, node):
        """Images and views go to the library by name: two of one name would be one there."""
        name = var.name
        if name in self.names:
            _fail(node, f"a second register image or view named '{name}' (mmacheck names them once per kernel)")
        self.names[name] = node

    # statements
    def stmt(self, node):
        kind = type(node).__name__
        handler = getattr(self, "stmt_" + kind, None)
        if handler is None:
            _fail(node, f"a {kind} statement is not read in released TIRx (docs/tirx-release.md lists what is)")
        handler(node)

    def stmt_SeqStmt(self, node):
        for s in node.seq:
            self.stmt(s)

    def stmt_RegionStmt(self, node):
        op = node.op.name
        if op not in ("tirx.device_entry", "tirx.device_scope"):
            _fail(node, f"the region {op} is not read (T.device_entry)")
        if self.launched:
            _fail(node, "mmacheck reads one device entry per function")
        args = [_int(a, "a launch extent") for a in node.args]
        if len(args) != 6:
            _fail(node, "expected six launch extents (grid x, y, z, block x, y, z)")
        block = args[3:]
        threads = block[0] * block[1] * block[2]
        if threads < 32 or threads > 1024 or threads % 32 != 0:
            _fail(node, f"mmacheck reads blocks of whole warps (32 to 1024 threads), got {threads} threads")
        self.block = block
        self.launched = True
        self.stmt(node.body)

    def stmt_Bind(self, node):
        if not self.launched:
            _fail(node, "statements before the device entry are not read")
        var, value = node.var, node.value
        if type(value).__name__ == "Call":
            op = value.op.name if hasattr(value.op, "name") else str(value.op)
            if op == "tirx.alloc_tensor":
                self.define(var, node)
                t = _tensor(value.ty_args[0], node)
                self.images[var] = {"name": var.name, "shape": t["shape"], "dtype": t["dtype"], "scope": t["scope"],
                                    "layout": t["layout"], "loc": _loc(node)}
                return
            if op == "tirx.decl_tensor":
                self.define(var, node)
                data = value.args[0]
                if type(data).__name__ != "Call" or data.op.name != "tirx.tensor_data_ptr" or data.args[0] not in self.images:
                    _fail(node, f"a view takes X.data of a register image (T.alloc_tensor), got {data}")
                t = _tensor(value.ty_args[0], node)
                self.views[var] = (var.name, {"alloc": self.images[data.args[0]]["name"], "dtype": t["dtype"],
                                              "shape": t["shape"], "layout": t["layout"], "loc": _loc(node)})
                return
            if op in ("tirx.cuda.lane_id", "tirx.cuda.warp_id"):
                self.lets[var] = "lane" if op == "tirx.cuda.lane_id" else "warp"
                return
        self.lets[var] = self.expr(value, node)

    def stmt_For(self, node):
        if not self.launched:
            _fail(node, "a loop outside the device entry is not read")
        if self.loop is not None:
            _fail(node, "a register transfer sits in exactly one loop over the view's registers (no nested loops)")
        lo, hi, step = _int(node.begin, "a loop bound"), _int(node.end, "a loop bound"), _int(node.step, "a loop step")
        if lo != 0 or hi <= 0 or step != 1:
            _fail(node, f"a loop runs over 0..n with n > 0 in steps of 1, got {lo}..{hi} step {step}")
        self.loop = (node.var, hi)
        self.stmt(node.body)
        self.loop = None

    def stmt_TensorStore(self, node):
        if self.loop is None:
            _fail(node, "a register transfer sits in exactly one loop over the view's registers "
                        "(for s in T.unroll(n): a_h[s] = A[...])")
        dest, value = node.dest, node.value
        if dest in self.views and type(value).__name__ in ("FloatImm", "IntImm"):  # d_r[s] = T.float32(0), (1.5)
            self.slot(dest, node.indices, node)
            self.transfers.append({"store": False, "view": self.views[dest][0], "global": "", "row": 0, "col": 0,
                                   "constant": float(value.value), "loc": self.step_loc(node)})
            return
        if dest in self.views:
            if type(value).__name__ != "TensorLoad" or value.source not in self.globals:
                _fail(node, f"a register view is loaded from a tensor parameter (a_h[s] = A[row, col]), got {value}")
            view, (row, col), glob, store = dest, self.element(value.indices, node), value.source, False
            self.slot(view, node.indices, node)
        elif dest in self.globals:
            if type(value).__name__ != "TensorLoad" or value.source not in self.views:
                _fail(node, f"a tensor parameter is stored from a register view (D[row, col] = d_r[s]), got {value}")
            view, (row, col), glob, store = value.source, self.element(node.indices, node), dest, True
            self.slot(view, value.indices, node)
        else:
            _fail(node, f"'{dest}' is neither a register view (T.decl_tensor) nor a tensor parameter")
        self.transfers.append({"store": store, "view": self.views[view][0], "global": self.globals[glob],
                               "row": row, "col": col, "loc": self.step_loc(node)})

    def step_loc(self, node):
        """The statement's source location; without one (a function built in Python, not parsed), its place in
        the walk, so that the program still runs in the order its statements were visited (docs/soundness.md)."""
        self.steps += 1
        return _loc(node) or ("<" + _name_of(self.func) + ">", self.steps, 0)

    def slot(self, view, indices, node):
        name, v = self.views[view]
        var, extent = self.loop
        if len(indices) != 1 or not indices[0].same_as(var):
            _fail(node, f"a view is indexed by its loop's variable alone ({name}[{var.name}])")
        size = 1
        for d in v["shape"]:
            size *= d
        if size != extent:
            _fail(node, f"the loop over '{var.name}' runs {extent} times but '{name}' has {size} registers")

    def element(self, indices, node):
        if len(indices) != 2:
            _fail(node, f"a tensor parameter is indexed [row, col], got {len(indices)} indices")
        return self.expr(indices[0], node), self.expr(indices[1], node)

    def stmt_Evaluate(self, node):
        call = node.value
        if type(call).__name__ != "Call" or getattr(call.op, "name", "") != "tirx.cuda.tile.apply":
            _fail(node, f"the statement {call} is not read in released TIRx (T.cuda.tile.apply is)")
        if not self.launched or self.loop is not None:
            _fail(node, "T.cuda.tile.apply sits in the device entry, outside any loop")
        args = call.args
        if len(args) < 2 or type(args[0]).__name__ != "StringImm":
            _fail(node, "T.cuda.tile.apply's first argument is the opcode string")
        opcode = str(args[0].value)
        if not opcode.startswith("mma.sync."):
            _fail(node, f'mmacheck reads the mma pattern ("mma.sync.aligned...."), got "{opcode}"')
        operands = list(args[1])
        if len(operands) != 4 or (len(args) > 2 and len(args[2]) != 0):
            _fail(node, "T.cuda.tile.apply takes (D, A, B, C) and an empty parameter tuple")
        scope = getattr(call.attrs, "scope", None)
        if scope is None or str(scope.name) != "cuda.warp":
            _fail(node, 'mmacheck reads the mma pattern at scope="warp"')
        images = [self.image_operand(o, role, node) for o, role in zip(operands[:3], "DAB")]
        c, scalar = operands[3], None
        if type(c).__name__ in ("FloatImm", "IntImm"):
            # A scalar in every accumulator, as TVM typed it: T.float32(1.5) and 1.5 are float32, a Python 0
            # int32, T.float16(0) float16; the library declines all but float32 in TVM's words.
            scalar, c_image = [float(c.value), str(c.ty.dtype)], None
        else:
            c_image = self.image_operand(c, "C", node)
        # Each apply as written; the library checks that they share images (append_apply).
        self.mma.append({"opcode": opcode, "loc": self.step_loc(node), "d": images[0], "a": images[1], "b": images[2],
                         "c": c_image, **({"scalar": scalar} if scalar else {})})

    def image_operand(self, operand, role, node):
        kind = type(operand).__name__
        var = operand.source if kind == "TensorRegion" else operand
        if var not in self.images:
            _fail(node, f"{role}: '{var}' is not a register image (T.alloc_tensor) of this kernel")
        image = self.images[var]
        if kind == "TensorRegion":
            ranges = [(_int(r.begin, "a region start"), _int(r.extent, "a region extent")) for r in operand.region]
            if ranges != [(0, d) for d in image["shape"]]:
                _fail(node, f"{role}: mmacheck reads the mma on whole images, got a region of '{var.name}'")
        return image

    # expressions: int | "lane" | "tid" | "warp" | "s" | (op, lhs, rhs)
    def expr(self, e, node):
        kind = type(e).__name__
        if kind == "IntImm":
            return int(e.value)
        if kind == "Var":
            if self.loop is not None and e.same_as(self.loop[0]):
                return "s"
            if e in self.lets:
                return self.lets[e]
            _fail(node, f"'{e.name}' is not an integer the staging may use (the lane, the loop variable, a let)")
        if kind in _BINARY:
            return (_BINARY[kind], self.expr(e.a, node), self.expr(e.b, node))
        if kind == "Call" and getattr(e.op, "name", "") == "tirx.cuda.thread_idx":
            axis = e.args[0]
            if type(axis).__name__ != "StringImm" or str(axis.value) not in ("x", "y", "z"):
                _fail(node, f"mmacheck reads T.cuda.thread_idx(\"x\"), (\"y\") and (\"z\"), got {e}")
            # CUDA's linear thread id is x + bx * (y + by * z).
            bx, by = self.block[0], self.block[1]
            return {"x": ("%", "tid", bx), "y": ("%", ("//", "tid", bx), by), "z": ("//", "tid", bx * by)}[str(axis.value)]
        if kind == "Call" and getattr(e.op, "name", "") in ("tirx.cuda.lane_id", "tirx.cuda.warp_id"):
            return "lane" if e.op.name == "tirx.cuda.lane_id" else "warp"
        _fail(node, f"the index expression {e} is not read (integers, the lane, +, -, *, //, %)")


def kernel_values(func, file=None, layouts=None):
    """The values (python/src/kernel_values.h) of one tirx Function.

    layouts: {name: tvm_tirx TileLayout}, names for the messages (an image
    whose layout is one of them is called by that name, as in the file)."""
    loc = _first_loc(func.body) or _loc(func)
    kernel = _Walker(func, file or (loc[0] if loc else "<tvm_tirx>")).run()
    kernel["layouts"] = {name: _layout(l) for name, l in (layouts or {}).items() if type(l).__name__ == "TileLayout"}
    return kernel


def program(func, file=None, layouts=None):
    """The C++ Program of one tirx Function, read off the live IR."""
    return _mmacheck.release_program(kernel_values(func, file, layouts))
