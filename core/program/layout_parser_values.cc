#include "core/program/layout_parser_values.h"

#include <algorithm>
#include <climits>

#include "core/base/checked.h"
#include "core/program/index_expr.h"

namespace mmacheck::layout_expr {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

[[noreturn]] void expected(const Value& v, std::string_view what) {
  throw Error(v.loc, "expected " + std::string(what) + ", got " + kind_name(v));
}

Axis to_axis(const Value& v) {
  if (const Axis* a = v.get<Axis>()) return *a;
  if (const Str* s = v.get<Str>()) {
    if (s->text.empty()) throw Error(v.loc, "axis name must not be empty");
    return Axis(s->text);
  }
  expected(v, "an axis (laneid, Axis.laneid or \"laneid\")");
}

Iter to_iter(std::int64_t extent, const Value& s) {
  if (const auto* n = s.get<std::int64_t>()) return Iter{extent, *n, Axis::m()};
  if (const auto* on = s.get<OnAxis>()) return Iter{extent, on->value, on->axis};
  if (s.get<Axis>() || s.get<Str>()) return Iter{extent, 1, to_axis(s)};
  if (const auto* seq = s.get<Seq>(); seq && !seq->list && seq->items.size() == 2)
    return Iter{extent, to_int(seq->items[0], "a stride"), to_axis(seq->items[1])};
  if (s.get<Offset>()) throw Error(s.loc, "a stride is one value on one axis (n@axis), not a sum");
  expected(s, "a stride (n, n@axis, \"axis\" or (n, \"axis\"))");
}

// TVM's default strides are Python integers, which it refuses past int64
// (S[(2, 2^62, 2)]: "Expected `ir.PrimExpr` but got `ffi.BigInt`").
std::int64_t stride_mul(std::int64_t a, std::int64_t b, const SourceLoc& loc) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw Error(loc, "the row-major stride " + std::to_string(a) + " * " + std::to_string(b) + " overflows int64");
  return r;
}

bool is_offset_like(const Value& v) { return v.get<std::int64_t>() || v.get<OnAxis>() || v.get<Offset>(); }

Offset to_offset(const Value& v) {
  if (const auto* n = v.get<std::int64_t>()) return Offset{{Axis::m(), *n}};
  if (const auto* on = v.get<OnAxis>()) return Offset{{on->axis, on->value}};
  return *v.get<Offset>();
}

Offset merge(Offset a, const Offset& b, const SourceLoc& loc) {
  for (const auto& [axis, value] : b) {
    auto [it, fresh] = a.emplace(axis, value);
    if (!fresh) it->second = IndexExpr::apply(IndexExpr::Kind::add, it->second, value, loc);
  }
  return a;
}

Spec to_spec(const Value& v) {
  if (const Spec* s = v.get<Spec>()) return *s;
  if (is_offset_like(v)) return Spec{{}, {}, to_offset(v)};
  const TileLayout layout = to_layout(v);
  Spec spec{layout.shard(), {}, layout.offset()};
  if (!layout.replica().empty()) spec.replica = layout.replica();
  return spec;
}

}  // namespace

std::string kind_name(const Value& value) {
  return std::visit(Overloaded{
                        [](std::int64_t) -> std::string { return "an integer"; },
                        [](const Str& s) -> std::string { return "string '" + s.text + "'"; },
                        [](const Axis& a) -> std::string { return "axis '" + a.name() + "'"; },
                        [](const OnAxis&) -> std::string { return "an axis-bound value (n@axis)"; },
                        [](const Offset&) -> std::string { return "an offset sum"; },
                        [](const Spec&) -> std::string { return "a layout spec"; },
                        [](const TileLayout&) -> std::string { return "a layout"; },
                        [](const GroupedLayout&) -> std::string { return "a grouped layout"; },
                        [](const Seq& s) -> std::string { return s.list ? "a list" : "a tuple"; },
                        [](const Builder& b) -> std::string { return b.replica ? "'R'" : "'S'"; },
                        [](const Wrapper&) -> std::string { return "'TileLayout'"; },
                        [](const Namespace& n) -> std::string { return n.axes ? "'Axis'" : "'T'"; },
                        [](const Callable& c) -> std::string {
                          switch (c.kind) {
                            case Callable::Kind::iter: return "'Iter'";
                            case Callable::Kind::from_iters: return "'from_iters'";
                            case Callable::Kind::axis_get: return "'Axis.get'";
                            case Callable::Kind::compose: return "'ComposeLayout'";
                            case Callable::Kind::swizzle: return "'SwizzleLayout'";
                            case Callable::Kind::prim: return "'T." + std::string(c.prim) + "'";
                            case Callable::Kind::builtin: return "'" + std::string(c.prim) + "'";
                          }
                          return "a callable";
                        },
                        [](const Iter&) -> std::string { return "an iter"; },
                        [](const ComposeLayout&) -> std::string { return "a ComposeLayout"; },
                        [](const Swizzle&) -> std::string { return "a swizzle (SwizzleLayout)"; },
                    },
                    value.v);
}

std::int64_t to_int(const Value& value, std::string_view what) {
  if (const auto* n = value.get<std::int64_t>()) return *n;
  expected(value, what);
}

Axis axis_of(const Value& value) { return to_axis(value); }

namespace {

// TVM's printed integer expressions, each evaluated at once: a layout's
// values are constants.  int32 values must fit it, as TVM requires.
struct PrimOp {
  std::string_view name;
  std::string_view first, second;  // the parameters' names; second empty for one
  std::int64_t (*eval)(const std::vector<Value>& args, const SourceLoc& loc);
};

std::int64_t int32_checked(std::int64_t v, const SourceLoc& loc) {
  if (v < INT32_MIN || v > INT32_MAX) throw Error(loc, std::to_string(v) + " does not fit int32");
  return v;
}
std::int64_t arg(const std::vector<Value>& a, std::size_t i) { return to_int(a[i], "an integer"); }
std::int64_t binary(const std::vector<Value>& a, const SourceLoc& loc,
                    bool (*op)(std::int64_t, std::int64_t, std::int64_t*)) {
  std::int64_t r = 0;
  if (op(arg(a, 0), arg(a, 1), &r)) throw Error(loc, "the expression overflows int64");
  return r;
}
std::int64_t divisor(const std::vector<Value>& a, const SourceLoc& loc) {
  if (arg(a, 1) == 0) throw Error(a[1].loc, "division by zero");
  if (arg(a, 0) == INT64_MIN && arg(a, 1) == -1) throw Error(loc, "the expression overflows int64");
  return arg(a, 1);
}

const std::vector<PrimOp>& prim_ops() {
  static const std::vector<PrimOp> ops = {
      {"int64", "value", "", [](const std::vector<Value>& a, const SourceLoc&) { return arg(a, 0); }},
      {"int32", "value", "",
       [](const std::vector<Value>& a, const SourceLoc& l) { return int32_checked(arg(a, 0), l); }},
      {"Cast", "dtype", "value",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         const Str* dtype = a[0].get<Str>();
         if (!dtype || (dtype->text != "int64" && dtype->text != "int32"))
           throw Error(a[0].loc, "T.Cast of a layout value takes \"int64\" or \"int32\"");
         return dtype->text == "int32" ? int32_checked(arg(a, 1), l) : arg(a, 1);
       }},
      {"Add", "a", "b",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         return binary(a, l,
                       [](std::int64_t x, std::int64_t y, std::int64_t* r) { return __builtin_add_overflow(x, y, r); });
       }},
      {"Sub", "a", "b",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         return binary(a, l,
                       [](std::int64_t x, std::int64_t y, std::int64_t* r) { return __builtin_sub_overflow(x, y, r); });
       }},
      {"Mul", "a", "b",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         return binary(a, l,
                       [](std::int64_t x, std::int64_t y, std::int64_t* r) { return __builtin_mul_overflow(x, y, r); });
       }},
      {"FloorDiv", "a", "b",
       [](const std::vector<Value>& a, const SourceLoc& l) { return floor_div(arg(a, 0), divisor(a, l)); }},
      {"FloorMod", "a", "b",
       [](const std::vector<Value>& a, const SourceLoc& l) { return floor_mod(arg(a, 0), divisor(a, l)); }},
  };
  return ops;
}

const PrimOp* find_prim_op(std::string_view name) {
  for (const PrimOp& op : prim_ops())
    if (op.name == name) return &op;
  return nullptr;
}

// Python's builtins on integers and tuples, as module-level layout code uses
// them (`list(seps)`, `len(shape)`, `range(4)`); range is bounded, so that
// no file can make the reader hold more than kMaxRange integers.
constexpr std::int64_t kMaxRange = std::int64_t{1} << 16;

struct Builtin {
  std::string_view name;
  Value (*call)(const std::vector<Value>& args, const SourceLoc& loc);
};

const std::vector<Value>& one_sequence(const std::vector<Value>& args, const SourceLoc& loc, std::string_view name) {
  if (args.size() != 1) throw Error(loc, std::string(name) + "() takes one argument here");
  return to_seq(args[0], "a tuple or list");
}

const std::vector<Builtin>& builtins() {
  static const std::vector<Builtin> table = {
      {"list",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         if (a.empty()) return Value{Seq{{}, true}, l};
         return Value{Seq{one_sequence(a, l, "list"), true}, l};
       }},
      {"tuple",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         if (a.empty()) return Value{Seq{{}, false}, l};
         return Value{Seq{one_sequence(a, l, "tuple"), false}, l};
       }},
      {"len",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         return Value{static_cast<std::int64_t>(one_sequence(a, l, "len").size()), l};
       }},
      {"int",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         if (a.size() != 1) throw Error(l, "int() takes one integer here");
         return Value{to_int(a[0], "an integer"), l};
       }},
      {"range",
       [](const std::vector<Value>& a, const SourceLoc& l) {
         if (a.empty() || a.size() > 3) throw Error(l, "range() takes 1 to 3 integers");
         const std::int64_t start = a.size() == 1 ? 0 : to_int(a[0], "an integer");
         const std::int64_t stop = to_int(a[a.size() == 1 ? 0 : 1], "an integer");
         const std::int64_t step = a.size() == 3 ? to_int(a[2], "an integer") : 1;
         if (step == 0) throw Error(a[2].loc, "range() step must not be zero");
         Seq seq{{}, false};
         for (std::int64_t v = start; step > 0 ? v < stop : v > stop; v += step) {
           if (static_cast<std::int64_t>(seq.items.size()) == kMaxRange)
             throw Error(l, "range() of more than " + std::to_string(kMaxRange) + " integers");
           seq.items.push_back(Value{v, l});
           if ((step > 0 && v > INT64_MAX - step) || (step < 0 && v < INT64_MIN - step)) break;
         }
         return Value{std::move(seq), l};
       }},
  };
  return table;
}

}  // namespace

std::string_view prim_op(std::string_view name) {
  const PrimOp* op = find_prim_op(name);
  return op ? op->name : std::string_view{};
}

std::string_view python_builtin(std::string_view name) {
  for (const Builtin& b : builtins())
    if (b.name == name) return b.name;
  return {};
}

Value call_callable(const Callable& callee, const Token& name, const std::vector<Arg>& args, const SourceLoc& loc) {
  using K = Callable::Kind;
  if (callee.kind == K::builtin) {
    std::vector<Value> values;
    for (const Arg& a : args) {
      if (a.keyword) throw Error(a.keyword->loc, std::string(callee.prim) + "() takes no keyword arguments here");
      values.push_back(a.value);
    }
    for (const Builtin& b : builtins())
      if (b.name == callee.prim) return b.call(values, loc);
  }
  if (callee.kind == K::prim) {
    const PrimOp& op = *find_prim_op(callee.prim);
    const std::vector<Value> bound =
        op.second.empty() ? bind_args(args, name, {op.first}) : bind_args(args, name, {op.first, op.second});
    return Value{op.eval(bound, loc), loc};
  }
  if (callee.kind == K::compose || callee.kind == K::swizzle) return call_compose(callee, name, args, loc);
  if (callee.kind == K::axis_get) {
    const std::vector<Value> a = bind_args(args, name, {"name"});
    if (!a[0].get<Str>()) expected(a[0], "an axis name (Axis.get(\"laneid\"))");
    return Value{to_axis(a[0]), loc};
  }
  if (callee.kind == K::iter) {
    const std::vector<Value> a = bind_args(args, name, {"extent", "stride", "axis"});
    const std::int64_t extent = to_int(a[0], "an extent");
    const std::int64_t stride = to_int(a[1], "a stride");
    if (extent <= 0) throw Error(a[0].loc, "extent must be positive, got " + std::to_string(extent));
    return Value{Iter{extent, stride, to_axis(a[2])}, loc};
  }
  // from_iters(shard=(), replica=(), offset=None)
  std::vector<Arg> given = args;
  const std::vector<std::string_view> params = {"shard", "replica", "offset"};
  std::vector<Value> slots(3, Value{Seq{{}, true}, loc});
  slots[2] = Value{Offset{}, loc};
  std::size_t positional = 0;
  std::vector<bool> seen(3, false);
  for (const Arg& a : given) {
    std::size_t i = positional;
    if (a.keyword) {
      i = static_cast<std::size_t>(std::find(params.begin(), params.end(), a.keyword->text) - params.begin());
      if (i == params.size())
        throw Error(a.keyword->loc, "from_iters() has no parameter '" + a.keyword->text + "' (shard, replica, offset)");
    } else if (++positional > params.size()) {
      throw Error(a.value.loc, "from_iters() takes 3 arguments (shard, replica, offset)");
    }
    if (seen[i]) throw Error(a.value.loc, "argument '" + std::string(params[i]) + "' given twice");
    seen[i] = true;
    slots[i] = a.value;
  }
  const auto iters = [&](const Value& v) {
    std::vector<Iter> out;
    for (const Value& item : to_seq(v, "a list of T.Iter(extent, stride, axis)")) {
      const Iter* it = item.get<Iter>();
      if (!it) expected(item, "T.Iter(extent, stride, axis)");
      out.push_back(*it);
    }
    return out;
  };
  Offset offset;
  if (const auto* o = slots[2].get<Offset>()) offset = *o;
  else expected(slots[2], "an offset {axis: value}");
  Spec spec;
  spec.shard = iters(slots[0]);
  spec.replica = iters(slots[1]);
  spec.offset = offset;
  return Value{to_layout(Value{spec, loc}), loc};
}

const std::vector<Value>& to_seq(const Value& value, std::string_view what) {
  if (const Seq* s = value.get<Seq>()) return s->items;
  expected(value, what);
}

Shape to_shape(const Value& value, std::string_view what) {
  const std::vector<Value>& items = to_seq(value, what);
  if (items.empty()) throw Error(value.loc, "expected " + std::string(what) + ", got an empty one");
  Shape shape;
  for (const Value& item : items) {
    const std::int64_t d = to_int(item, "a shape dimension (an integer)");
    if (d <= 0) throw Error(item.loc, "shape dimension must be positive, got " + std::to_string(d));
    shape.push_back(d);
  }
  return shape;
}

std::vector<int> to_int_list(const Value& value, std::string_view what) {
  std::vector<int> out;
  for (const Value& item : to_seq(value, what)) {
    const std::int64_t n = to_int(item, "an integer");
    if (n < INT_MIN || n > INT_MAX) throw Error(item.loc, "integer " + std::to_string(n) + " is out of range here");
    out.push_back(static_cast<int>(n));
  }
  return out;
}

Region to_region(const Value& value, std::string_view what) {
  Region region;
  for (const Value& item : to_seq(value, what)) {
    const std::vector<Value>& pair = to_seq(item, "a (start, end) pair");
    if (pair.size() != 2)
      throw Error(item.loc, "expected a (start, end) pair, got " + std::to_string(pair.size()) + " values");
    region.emplace_back(to_int(pair[0], "a start (an integer)"), to_int(pair[1], "an end (an integer)"));
  }
  return region;
}

bool is_layout_like(const Value& value) {
  return value.get<Spec>() || value.get<TileLayout>() || value.get<GroupedLayout>();
}

TileLayout to_layout(const Value& value) {
  if (const auto* l = value.get<TileLayout>()) return *l;
  if (const auto* g = value.get<GroupedLayout>()) return g->layout();
  const Spec* spec = value.get<Spec>();
  if (!spec) expected(value, "a layout");
  // A replica-only layout (TVM: one element, its owners the replicas).
  if (!spec->shard && !spec->replica) throw Error(value.loc, "a layout needs a shard list S[...] or replicas R[...]");
  try {
    return TileLayout(spec->shard.value_or(std::vector<Iter>{}), spec->replica.value_or(std::vector<Iter>{}),
                      spec->offset);
  } catch (const Error& e) {
    throw e.located(value.loc);
  }
}

Value make_spec(const Builder& builder, const Value& extents, const Value* strides, const SourceLoc& loc) {
  const char* name = builder.replica ? "R" : "S";
  const std::vector<Value> ext_items = extents.get<Seq>() ? extents.get<Seq>()->items : std::vector{extents};
  if (ext_items.empty()) throw Error(extents.loc, std::string(name) + "[...] needs at least one extent");
  std::vector<std::int64_t> ext;
  for (const Value& e : ext_items) {
    const std::int64_t n = to_int(e, "an extent (an integer)");
    if (n <= 0) throw Error(e.loc, "extent must be positive, got " + std::to_string(n));
    ext.push_back(n);
  }
  std::vector<Iter> iters;
  if (!strides) {
    // Row-major: the last extent is fastest (TVM's _get_default_strides).
    std::vector<std::int64_t> s(ext.size());
    std::int64_t stride = 1;
    for (std::size_t i = ext.size(); i-- > 0;) {
      s[i] = stride;
      if (i > 0) stride = stride_mul(stride, ext[i], ext_items[i].loc);
    }
    for (std::size_t i = 0; i < ext.size(); ++i) iters.push_back(Iter{ext[i], s[i], Axis::m()});
  } else {
    const std::vector<Value> str_items = strides->get<Seq>() ? strides->get<Seq>()->items : std::vector{*strides};
    if (str_items.size() != ext.size())
      throw Error(strides->loc, std::to_string(ext.size()) + (ext.size() == 1 ? " extent" : " extents") + " but " +
                                    std::to_string(str_items.size()) +
                                    (str_items.size() == 1 ? " stride" : " strides"));
    for (std::size_t i = 0; i < ext.size(); ++i) iters.push_back(to_iter(ext[i], str_items[i]));
  }
  Spec spec;
  (builder.replica ? spec.replica : spec.shard) = std::move(iters);
  return Value{std::move(spec), loc};
}

Value add(const Value& a, const Value& b, const Token& op) {
  if (a.get<std::int64_t>() && b.get<std::int64_t>())
    return Value{IndexExpr::apply(IndexExpr::Kind::add, *a.get<std::int64_t>(), *b.get<std::int64_t>(), op.loc), a.loc};
  if (is_offset_like(a) && is_offset_like(b)) return Value{merge(to_offset(a), to_offset(b), op.loc), a.loc};
  const bool a_ok = is_layout_like(a) || is_offset_like(a);
  const bool b_ok = is_layout_like(b) || is_offset_like(b);
  if (!a_ok || !b_ok)
    throw Error(op.loc,
                "cannot add " + kind_name(a) + " and " + kind_name(b) + " (a layout is S[...] + R[...] + offsets)");
  Spec left = to_spec(a);
  const Spec right = to_spec(b);
  if (left.shard && right.shard) throw Error(b.loc, "second shard list S[...] (a layout has one)");
  if (left.replica && right.replica) throw Error(b.loc, "second replica list R[...] (a layout has one)");
  if (right.shard) left.shard = right.shard;
  if (right.replica) left.replica = right.replica;
  left.offset = merge(std::move(left.offset), right.offset, op.loc);
  return Value{std::move(left), a.loc};
}

Value arith(const Value& a, const Value& b, const Token& op) {
  const auto* x = a.get<std::int64_t>();
  const auto* y = b.get<std::int64_t>();
  if (!x || !y) {
    std::string message = "'" + op.text + "' needs integers, got " + kind_name(a) + " and " + kind_name(b);
    if (op.text == "-" && (is_layout_like(a) || is_offset_like(a))) message += " (layouts combine with '+' only)";
    throw Error(op.loc, message);
  }
  using K = IndexExpr::Kind;
  const K kind = op.text == "-" ? K::sub : op.text == "*" ? K::mul : op.text == "//" ? K::floordiv : K::floormod;
  return Value{IndexExpr::apply(kind, *x, *y, op.loc), a.loc};
}

Value at_axis(const Value& a, const Value& b, const Token& op) {
  const auto* n = a.get<std::int64_t>();
  if (!n) throw Error(op.loc, "'@' needs an integer on its left, got " + kind_name(a));
  return Value{OnAxis{*n, to_axis(b)}, a.loc};
}

Value negate(const Value& a, const Token& op) {
  const auto* n = a.get<std::int64_t>();
  if (!n) throw Error(op.loc, "unary '-' needs an integer, got " + kind_name(a));
  return Value{IndexExpr::apply(IndexExpr::Kind::sub, 0, *n, op.loc), op.loc};
}

}  // namespace mmacheck::layout_expr
