// The methods a layout expression may call, with their arguments checked
// here (so that the messages point at the argument) and the work done by the
// TileLayout algebra (whose errors are placed at the method's name).
#include <algorithm>
#include <array>

#include "core/base/checked.h"
#include "core/layout/shape_text.h"
#include "core/program/layout_parser_values.h"

namespace mmacheck::layout_expr {

namespace {

constexpr std::array<std::string_view, 10> kMethods = {"tile_to", "tile",         "canonicalize",      "storage",
                                                       "group",   "permute_dims", "permute_by_groups", "slice",
                                                       "pack",    "unpack"};

void check_same_rank(const Shape& a, const Value& av, const Shape& b, std::string_view what) {
  if (a.size() != b.size())
    throw Error(av.loc, "shape " + list_text(a) + " has rank " + std::to_string(a.size()) + " but " +
                            std::string(what) + " " + list_text(b) + " has rank " + std::to_string(b.size()));
}

void check_covers(const TileLayout& layout, const Shape& shape, const Value& at) {
  const std::optional<std::int64_t> elements = try_product(shape);
  if (elements != layout.size())
    throw Error(at.loc, "shape " + list_text(shape) + " has " +
                            (elements ? std::to_string(*elements) : "more than 9223372036854775807") +
                            " elements but the layout covers " + std::to_string(layout.size()));
}

void check_permutation(const std::vector<int>& perm, int n, const Value& at, std::string_view of) {
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  bool ok = static_cast<int>(perm.size()) == n;
  for (int p : perm) {
    if (!ok || p < 0 || p >= n || seen[static_cast<std::size_t>(p)]) {
      ok = false;
      break;
    }
    seen[static_cast<std::size_t>(p)] = true;
  }
  if (!ok) throw Error(at.loc, "expected a permutation of 0.." + std::to_string(n - 1) + " (" + std::string(of) + ")");
}

// TVM's separators: 0 = seps[0] <= ... <= seps.back() = number of shard iters.
void check_seps(const std::vector<int>& seps, const TileLayout& layout, const Value& at) {
  const int n = static_cast<int>(layout.shard().size());
  bool ok = !seps.empty() && seps.front() == 0 && seps.back() == n;  // [0]: no groups (an empty shard)
  for (std::size_t i = 1; ok && i < seps.size(); ++i) ok = seps[i - 1] <= seps[i];
  if (!ok)
    throw Error(at.loc, "expected group separators 0 <= ... <= " + std::to_string(n) +
                            " (as .group returns them), starting at 0 and ending at " + std::to_string(n));
}

// Runs one algebra operation; its failures are placed at the method's name.
template <class F>
Value algebra(const Token& name, const SourceLoc& start, F&& f) {
  try {
    return Value{f(), start};
  } catch (const Error& e) {
    throw e.located(name.loc);
  } catch (const std::exception& e) {
    throw Error(name.loc, name.text + " failed: " + e.what());
  }
}

}  // namespace

bool is_method(std::string_view name) { return std::find(kMethods.begin(), kMethods.end(), name) != kMethods.end(); }

std::string method_names() {
  std::string out;
  for (std::string_view m : kMethods) out += (out.empty() ? "" : ", ") + std::string(m);
  return out;
}

std::vector<Value> bind_args(const std::vector<Arg>& args, const Token& callee,
                             std::initializer_list<std::string_view> params) {
  const std::vector<std::string_view> names(params);
  const auto list = [&] {
    std::string out;
    for (std::string_view p : names) out += (out.empty() ? "" : ", ") + std::string(p);
    return out.empty() ? std::string("none") : out;
  };
  std::vector<std::optional<Value>> slots(names.size());
  std::size_t positional = 0;
  for (const Arg& a : args) {
    std::size_t i = positional;
    if (a.keyword) {
      i = static_cast<std::size_t>(std::find(names.begin(), names.end(), a.keyword->text) - names.begin());
      if (i == names.size())
        throw Error(a.keyword->loc,
                    callee.text + "() has no parameter '" + a.keyword->text + "' (parameters: " + list() + ")");
    } else if (++positional > names.size()) {
      throw Error(a.value.loc, callee.text + "() takes " + std::to_string(names.size()) + " argument" +
                                   (names.size() == 1 ? "" : "s") + " (" + list() + "), got " +
                                   std::to_string(args.size()));
    }
    if (slots[i])
      throw Error(a.keyword ? a.keyword->loc : a.value.loc, "argument '" + std::string(names[i]) + "' given twice");
    slots[i] = a.value;
  }
  std::vector<Value> out;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i]) throw Error(callee.loc, callee.text + "() is missing argument '" + std::string(names[i]) + "'");
    out.push_back(*slots[i]);
  }
  return out;
}

Value call_method(const Value& self, const Token& name, const std::vector<Arg>& args) {
  if (const auto* compose = self.get<ComposeLayout>()) return call_compose_method(*compose, self, name, args);
  const std::string& m = name.text;
  const SourceLoc& at = self.loc;
  if (m == "permute_by_groups") {
    if (const auto* grouped = self.get<GroupedLayout>(); grouped && args.size() != 2) {
      const std::vector<Value> a = bind_args(args, name, {"perm"});
      const std::vector<int> perm = to_int_list(a[0], "a permutation of the groups ([1, 0])");
      check_permutation(perm, grouped->groups(), a[0], "one entry per group");
      return algebra(name, at, [&] { return grouped->permute_by_groups(perm); });
    }
    if (args.size() == 1 && !args.front().keyword)
      throw Error(name.loc,
                  "permute_by_groups(perm) needs a grouped layout: write .group(shape).permute_by_groups(perm)");
    const TileLayout layout = to_layout(self);
    const std::vector<Value> a = bind_args(args, name, {"seps", "perm"});
    const std::vector<int> seps = to_int_list(a[0], "group separators ([0, 2, 5])");
    check_seps(seps, layout, a[0]);
    const std::vector<int> perm = to_int_list(a[1], "a permutation of the groups ([1, 0])");
    check_permutation(perm, static_cast<int>(seps.size()) - 1, a[1], "one entry per group");
    return algebra(name, at, [&] { return GroupedLayout(layout, seps).permute_by_groups(perm); });
  }

  const TileLayout layout = to_layout(self);
  if (m == "canonicalize" || m == "storage") {
    bind_args(args, name, {});
    return algebra(name, at, [&] { return m == "storage" ? layout.storage() : layout.canonicalize(); });
  }
  if (m == "tile_to") {
    const std::vector<Value> a = bind_args(args, name, {"to_shape", "current_shape"});
    const Shape to = to_shape(a[0], "a shape ([16, 16])");
    const Shape tile = to_shape(a[1], "a shape ([16, 8])");
    check_same_rank(to, a[0], tile, "current_shape");
    check_covers(layout, tile, a[1]);
    for (std::size_t i = 0; i < to.size(); ++i)
      if (to[i] % tile[i] != 0)
        throw Error(a[0].loc, "shape " + list_text(to) + " is not a multiple of " + list_text(tile) + " (dimension " +
                                  std::to_string(i) + ")");
    return algebra(name, at, [&] { return layout.tile_to(to, tile); });
  }
  if (m == "tile") {
    const std::vector<Value> a = bind_args(args, name, {"outer", "outer_shape", "inner_shape"});
    if (!is_layout_like(a[0])) throw Error(a[0].loc, "expected an outer layout, got " + kind_name(a[0]));
    const TileLayout outer = to_layout(a[0]);
    const Shape outer_shape = to_shape(a[1], "a shape");
    const Shape inner_shape = to_shape(a[2], "a shape");
    check_same_rank(outer_shape, a[1], inner_shape, "inner_shape");
    check_covers(outer, outer_shape, a[1]);
    check_covers(layout, inner_shape, a[2]);
    return algebra(name, at, [&] { return layout.tile(outer, outer_shape, inner_shape); });
  }
  if (m == "group") {
    const std::vector<Value> a = bind_args(args, name, {"shape"});
    const Shape shape = to_shape(a[0], "a shape ([16, 16])");
    check_covers(layout, shape, a[0]);
    return algebra(name, at, [&] { return layout.group(shape); });
  }
  if (m == "pack" || m == "unpack") {  // pack(num, axis="m")
    const bool with_axis = args.size() > 1;
    const std::vector<Value> a = with_axis ? bind_args(args, name, {"num", "axis"}) : bind_args(args, name, {"num"});
    const std::int64_t num = to_int(a[0], "an element count");
    const Axis axis = with_axis ? axis_of(a[1]) : Axis::m();
    return algebra(name, at, [&] { return m == "pack" ? layout.pack(num, axis) : layout.unpack(num, axis); });
  }
  if (m == "permute_dims") {
    const std::vector<Value> a = bind_args(args, name, {"perm"});
    const std::vector<int> perm = to_int_list(a[0], "a permutation of the shard iters");
    check_permutation(perm, static_cast<int>(layout.shard().size()), a[0], "one entry per shard iter");
    return algebra(name, at, [&] { return layout.permute_dims(perm); });
  }
  // slice
  const std::vector<Value> a = bind_args(args, name, {"shape", "region"});
  const Shape shape = to_shape(a[0], "a shape ([16, 16])");
  const Region region = to_region(a[1], "a region ([(start, end), ...])");
  if (region.size() != shape.size())
    throw Error(a[1].loc, "region has " + std::to_string(region.size()) + " ranges but shape " + list_text(shape) +
                              " has rank " + std::to_string(shape.size()));
  check_covers(layout, shape, a[0]);
  const std::vector<Value>& ranges = to_seq(a[1], "a region");
  for (std::size_t i = 0; i < region.size(); ++i) {
    const auto [begin, end] = region[i];
    if (begin < 0 || begin >= end || end > shape[i])
      throw Error(ranges[i].loc, "range (" + std::to_string(begin) + ", " + std::to_string(end) +
                                     ") is not a non-empty part of 0.." + std::to_string(shape[i]) + " (dimension " +
                                     std::to_string(i) + ")");
  }
  return algebra(name, at, [&] {
    std::optional<TileLayout> sliced = layout.slice(shape, region);
    if (!sliced) {
      std::string r;
      for (const auto& [b, e] : region)
        r += (r.empty() ? "" : ", ") + std::string("(") + std::to_string(b) + ", " + std::to_string(e) + ")";
      throw Error("layout " + layout.str() + " can not be sliced to region [" + r + "] of shape " + list_text(shape));
    }
    return *sliced;
  });
}

}  // namespace mmacheck::layout_expr
