// kernel_from_values(): Python values -> ReleaseKernel (kernel_values.h).
#include "python/src/kernel_values.h"

#include <nanobind/stl/string.h>

#include <array>
#include <cmath>
#include <limits>

namespace nb = nanobind;

namespace mmacheck::python {

namespace {

constexpr int kMaxExprDepth = 200;

// The value at `key` of a dict; an Error naming the path when absent.
nb::handle field(nb::handle dict, const char* key, const std::string& where) {
  if (!nb::isinstance<nb::dict>(dict)) throw Error(where + ": expected a dict");
  const nb::dict d = nb::borrow<nb::dict>(dict);
  if (!d.contains(key)) throw Error(where + ": missing '" + key + "'");
  return d[key];
}

nb::dict dict_at(nb::handle dict, const char* key, const std::string& where) {
  const nb::handle v = field(dict, key, where);
  if (!nb::isinstance<nb::dict>(v)) throw Error(where + "." + key + ": expected a dict");
  return nb::borrow<nb::dict>(v);
}

nb::list list_at(nb::handle dict, const char* key, const std::string& where) {
  const nb::handle v = field(dict, key, where);
  if (!nb::isinstance<nb::list>(v)) throw Error(where + "." + key + ": expected a list");
  return nb::borrow<nb::list>(v);
}

template <class T>
T as(nb::handle value, const std::string& where, const char* what) {
  T out;
  if (!nb::try_cast(value, out)) throw Error(where + ": expected " + what);
  return out;
}

std::string text(nb::handle dict, const char* key, const std::string& where) {
  return as<std::string>(field(dict, key, where), where + "." + key, "a string");
}

std::int64_t integer(nb::handle value, const std::string& where) {
  if (nb::isinstance<nb::bool_>(value) || !nb::isinstance<nb::int_>(value))
    throw Error(where + ": expected an integer");
  return as<std::int64_t>(value, where, "an integer in int64");
}

SourceLoc loc_of(nb::handle dict, const std::string& where) {
  if (!nb::isinstance<nb::dict>(dict)) throw Error(where + ": expected a dict");
  const nb::dict d = nb::borrow<nb::dict>(dict);
  if (!d.contains("loc") || d["loc"].is_none()) return {};
  const nb::handle l = d["loc"];
  if (!nb::isinstance<nb::tuple>(l) || nb::len(l) != 3) throw Error(where + ".loc: expected (file, line, col)");
  return SourceLoc{as<std::string>(l[0], where + ".loc", "a file name"),
                   static_cast<int>(integer(l[1], where + ".loc")), static_cast<int>(integer(l[2], where + ".loc"))};
}

Shape shape_of(nb::handle value, const std::string& where) {
  if (!nb::isinstance<nb::list>(value) && !nb::isinstance<nb::tuple>(value))
    throw Error(where + ": expected a list of integers");
  Shape out;
  for (nb::handle d : value) {
    const std::int64_t v = integer(d, where);
    if (v <= 0) throw Error(where + ": a dimension must be positive, got " + std::to_string(v));
    out.push_back(v);
  }
  if (out.empty() || out.size() > 8) throw Error(where + ": expected 1 to 8 dimensions");
  return out;
}

std::vector<Iter> iters_of(nb::handle list, const std::string& where) {
  std::vector<Iter> out;
  std::size_t i = 0;
  for (nb::handle it : list) {
    const std::string at = where + "[" + std::to_string(i++) + "]";
    if (!nb::isinstance<nb::tuple>(it) || nb::len(it) != 3) throw Error(at + ": expected (extent, stride, axis)");
    const Axis axis(as<std::string>(it[2], at, "an axis name"));
    if (!axis.is_registered()) throw Error(at + ": unknown axis '" + axis.name() + "'");
    out.push_back(Iter{integer(it[0], at), integer(it[1], at), axis});
  }
  return out;
}

TileLayout layout_of(nb::handle dict, const std::string& where, const SourceLoc& loc) {
  Offset offset;
  for (auto [axis, value] : dict_at(dict, "offset", where))
    offset.emplace(Axis(as<std::string>(axis, where + ".offset", "an axis name")), integer(value, where + ".offset"));
  try {
    return TileLayout(iters_of(list_at(dict, "shard", where), where + ".shard"),
                      iters_of(list_at(dict, "replica", where), where + ".replica"), offset);
  } catch (const Error& e) {
    throw e.located(loc);
  }
}

ReleaseImage image_of(nb::handle dict, const std::string& where) {
  const SourceLoc loc = loc_of(dict, where);
  const std::string dtype = text(dict, "dtype", where);
  const std::optional<int> bits = release_dtype_bits(dtype);
  if (!bits) throw Error(loc, where + ": unknown dtype '" + dtype + "'");
  const std::string scope = text(dict, "scope", where);
  const MemScope mem = scope == "local" ? MemScope::local : scope == "shared" ? MemScope::shared : MemScope::global;
  if (scope != "local" && scope != "shared" && scope != "global")
    throw Error(loc, where + ": scope '" + scope + "' is not read (local, shared, global)");
  ReleaseImage image{text(dict, "name", where),
                     shape_of(field(dict, "shape", where), where + ".shape"),
                     dtype,
                     *bits,
                     mem,
                     layout_of(field(dict, "layout", where), where + ".layout", loc),
                     loc};
  check_release_image(image);
  return image;
}

IndexExpr expr(nb::handle value, const std::string& where, const SourceLoc& loc, int depth) {
  if (depth > kMaxExprDepth)
    throw Error(loc, where + ": the expression nests deeper than " + std::to_string(kMaxExprDepth));
  using K = IndexExpr::Kind;
  if (nb::isinstance<nb::int_>(value) && !nb::isinstance<nb::bool_>(value))
    return IndexExpr::literal(integer(value, where), loc);
  if (nb::isinstance<nb::str>(value)) {
    static constexpr std::array<std::pair<std::string_view, K>, 4> vars{
        {{"lane", K::lane}, {"tid", K::tid}, {"warp", K::warp}, {"s", K::slot}}};
    const std::string name = nb::cast<std::string>(value);
    for (const auto& [n, k] : vars)
      if (name == n) return IndexExpr::variable(k, loc);
    throw Error(loc, where + ": unknown variable '" + name + "' (lane, tid, warp, s)");
  }
  if (!nb::isinstance<nb::tuple>(value) || nb::len(value) < 2)
    throw Error(loc, where + ": expected an index expression");
  const std::string op = as<std::string>(value[0], where, "an operator name");
  if (op == "neg" && nb::len(value) == 2) return IndexExpr::unary(K::neg, expr(value[1], where, loc, depth + 1), loc);
  static constexpr std::array<std::pair<std::string_view, K>, 5> ops{
      {{"+", K::add}, {"-", K::sub}, {"*", K::mul}, {"//", K::floordiv}, {"%", K::floormod}}};
  for (const auto& [o, k] : ops)
    if (op == o && nb::len(value) == 3)
      return IndexExpr::binary(k, expr(value[1], where, loc, depth + 1), expr(value[2], where, loc, depth + 1), loc);
  throw Error(loc, where + ": unknown operator '" + op + "' (+ - * // % neg)");
}

}  // namespace

IndexExpr index_from_value(nb::handle value, const std::string& where, const SourceLoc& loc) {
  return expr(value, where, loc, 0);
}

ReleaseKernel kernel_from_values(nb::handle kernel) {
  ReleaseKernel k;
  k.file = text(kernel, "file", "kernel");
  const nb::handle mmas = field(kernel, "mma", "kernel");
  const bool several = nb::isinstance<nb::list>(mmas);
  if (several && nb::len(mmas) == 0) throw Error(SourceLoc{}, "kernel.mma: an empty list of applies");
  const std::size_t count = several ? nb::len(mmas) : 1;
  for (std::size_t i = 0; i < count; ++i) {
    const nb::handle mma = several ? nb::handle(mmas[i]) : mmas;
    const std::string at = several ? "mma[" + std::to_string(i) + "]" : "mma";
    ReleaseMma apply;
    apply.opcode = text(mma, "opcode", at);
    apply.loc = loc_of(mma, at);
    apply.d = image_of(field(mma, "d", at), at + ".d");
    apply.a = image_of(field(mma, "a", at), at + ".a");
    apply.b = image_of(field(mma, "b", at), at + ".b");
    if (const nb::handle c = field(mma, "c", at); !c.is_none()) apply.c = image_of(c, at + ".c");
    if (nb::isinstance<nb::dict>(mma) && nb::cast<nb::dict>(mma).contains("scalar")) {
      // C a scalar as TVM typed it: [value, dtype] (the dispatch declines all but float32, in TVM's words).
      const nb::handle s = field(mma, "scalar", at);
      if (apply.c || !nb::isinstance<nb::list>(s) || nb::len(s) != 2)
        throw Error(apply.loc, at + ".scalar: expected [value, dtype] where c is None");
      const auto value = as<double>(nb::handle(s[0]), at + ".scalar[0]", "a float");
      if (!std::isfinite(value) || std::abs(value) > std::numeric_limits<float>::max())
        throw Error(apply.loc, at + ".scalar: " + std::to_string(value) + " is not a finite float32");
      apply.statements.push_back(ReleaseMmaStatement{apply.loc, ReleaseMmaStatement::C::scalar,
                                                     static_cast<float>(value),
                                                     as<std::string>(nb::handle(s[1]), at + ".scalar[1]", "a dtype")});
    }
    if (i == 0) k.mma = std::move(apply);
    else append_apply(k.mma, apply);
  }
  for (auto [name, layout] : dict_at(kernel, "layouts", "kernel")) {
    const std::string n = as<std::string>(name, "kernel.layouts", "a layout name");
    k.layouts.emplace(n, layout_of(layout, "layouts." + n, {}));
  }
  for (auto [name, view] : dict_at(kernel, "views", "kernel")) {
    const std::string n = as<std::string>(name, "kernel.views", "a view name"), at = "views." + n;
    const SourceLoc loc = loc_of(view, at);
    const std::string dtype = text(view, "dtype", at);
    const std::optional<int> bits = release_dtype_bits(dtype);
    if (!bits) throw Error(loc, at + ": unknown dtype '" + dtype + "'");
    const TileLayout layout = layout_of(field(view, "layout", at), at + ".layout", loc);
    check_release_view(n, shape_of(field(view, "shape", at), at + ".shape"), layout, loc);
    k.views.emplace(n, ReleaseView{text(view, "alloc", at), dtype, *bits, layout.size(), loc});
  }
  for (auto [name, global] : dict_at(kernel, "globals", "kernel")) {
    const std::string n = as<std::string>(name, "kernel.globals", "a tensor name"), at = "globals." + n;
    k.globals.emplace(n, ReleaseGlobal{shape_of(field(global, "shape", at), at + ".shape"), text(global, "dtype", at),
                                       loc_of(global, at)});
  }
  if (nb::isinstance<nb::dict>(kernel) && nb::cast<nb::dict>(kernel).contains("threads")) {
    const auto threads = as<std::int64_t>(field(kernel, "threads", "kernel"), "kernel.threads", "an int");
    if (threads < 1 || threads > 1024 || (threads > 32 && threads % 32 != 0))
      throw Error(SourceLoc{}, "kernel.threads: a block of 1..32 threads or of whole warps (at most 1024), got " +
                                   std::to_string(threads));
    k.threads = static_cast<int>(threads);
  }
  std::size_t i = 0;
  for (nb::handle t : list_at(kernel, "transfers", "kernel")) {
    const std::string at = "transfers[" + std::to_string(i++) + "]";
    const SourceLoc loc = loc_of(t, at);
    k.transfers.push_back(ReleaseTransfer{as<bool>(field(t, "store", at), at + ".store", "a bool"), text(t, "view", at),
                                          text(t, "global", at),
                                          index_from_value(field(t, "row", at), at + ".row", loc),
                                          index_from_value(field(t, "col", at), at + ".col", loc), loc});
    if (nb::isinstance<nb::dict>(t) && nb::cast<nb::dict>(t).contains("zero"))
      if (as<bool>(field(t, "zero", at), at + ".zero", "a bool")) k.transfers.back().constant = 0.0f;
    if (nb::isinstance<nb::dict>(t) && nb::cast<nb::dict>(t).contains("constant")) {
      const auto value = as<double>(field(t, "constant", at), at + ".constant", "a float");
      if (!std::isfinite(value) || std::abs(value) > std::numeric_limits<float>::max())
        throw Error(loc, at + ".constant: " + std::to_string(value) + " is not a finite float32");
      k.transfers.back().constant = static_cast<float>(value);
    }
  }
  return k;
}

}  // namespace mmacheck::python
