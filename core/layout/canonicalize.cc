// TVM's Canonicalize (src/tirx/ir/layout/tile_canonicalize.cc): the same
// steps in the same order, so that structural comparisons with TVM's
// results hold.
#include <algorithm>
#include <string_view>
#include <tuple>

#include "core/base/checked.h"
#include "core/layout/detail.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

namespace {

using L = ExecLevel;

// TVM's CUDA axis fusers (src/tirx/ir/layout/axis_registry.cc): under a
// layout whose innermost subscope is `sub` and outermost scope `sup`, an
// iter on `axis` moves to `to` with its stride times `factor` — the axis that
// counts the same units within the outer scope.
struct Fuser {
  std::string_view axis;
  L sub, sup;
  std::string_view to;
  std::int64_t factor;
};
constexpr Fuser kFusers[] = {
    {"warpid", L::thread, L::cta, "tx", 32},    {"laneid", L::thread, L::warpgroup, "tid_in_wg", 1},
    {"laneid", L::thread, L::cta, "tx", 1},     {"wgid", L::thread, L::cta, "tx", 128},
    {"wgid", L::warp, L::cta, "wgid", 4},  // as TVM registers it (warps of a CTA would be warpid)
    {"tid_in_wg", L::thread, L::cta, "tx", 1},  {"wid_in_wg", L::thread, L::warpgroup, "tid_in_wg", 32},
    {"wid_in_wg", L::thread, L::cta, "tx", 32}, {"wid_in_wg", L::warp, L::cta, "warpid", 1},
};

// nullopt: the axis stays as it is.
std::optional<Iter> fuse_to_scope(const Iter& it, L sub, L sup) {
  for (const Fuser& f : kFusers)
    if (f.axis == it.axis.name() && f.sub == sub && f.sup == sup)
      return Iter{
          it.extent,
          layout_detail::mul(it.stride, f.factor, "canonicalize: " + it.axis.name() + " -> " + std::string(f.to)),
          Axis(f.to)};
  return std::nullopt;
}

TileLayout remove_unit_iters(const TileLayout& layout) {
  std::vector<Iter> shard;
  std::copy_if(layout.shard().begin(), layout.shard().end(), std::back_inserter(shard),
               [](const Iter& it) { return it.extent != 1; });
  if (shard.empty() && !layout.shard().empty()) shard.push_back(Iter{1, 1, layout.shard().front().axis});
  return TileLayout(std::move(shard), layout.replica(), layout.offset());
}

TileLayout remove_zero_offsets(const TileLayout& layout) {
  Offset offset;
  for (const auto& [axis, value] : layout.offset())
    if (value != 0) offset.emplace(axis, value);
  return TileLayout(layout.shard(), layout.replica(), std::move(offset));
}

TileLayout fuse_axes_by_scope(const TileLayout& layout) {
  const auto scope = layout.scope();
  if (!scope) return layout;
  const auto fuse = [&](const Iter& it) { return fuse_to_scope(it, scope->first, scope->second).value_or(it); };
  std::vector<Iter> shard, replica;
  std::transform(layout.shard().begin(), layout.shard().end(), std::back_inserter(shard), fuse);
  std::transform(layout.replica().begin(), layout.replica().end(), std::back_inserter(replica), fuse);
  // An offset is a unit iter whose stride is the value.  Two offsets that
  // land on one axis (laneid and warpid -> tx) are added; TVM keeps one.
  Offset offset;
  for (const auto& [axis, value] : layout.offset()) {
    const Iter moved = fuse(Iter{1, value, axis});
    offset[moved.axis] = layout_detail::add(offset[moved.axis], moved.stride, "canonicalize");
  }
  return TileLayout(std::move(shard), std::move(replica), std::move(offset));
}

TileLayout fuse_contiguous_shard_iters(const TileLayout& layout) {
  const std::vector<Iter>& in = layout.shard();
  std::vector<Iter> out;
  for (std::size_t cur = 0; cur < in.size();) {
    std::int64_t extent = in[cur].extent;
    std::size_t next = cur + 1;
    // A product past int64 is not the int64 stride it is compared with:
    // such iters stay apart, as in TVM.
    while (next < in.size() && in[next].axis == in[cur].axis &&
           try_mul(in[next].extent, in[next].stride) == in[next - 1].stride) {
      extent *= in[next].extent;  // a sub-product of the shard size
      ++next;
    }
    out.push_back(Iter{extent, in[next - 1].stride, in[cur].axis});
    cur = next;
  }
  return TileLayout(std::move(out), layout.replica(), layout.offset());
}

// TVM orders replicas by structural hash; any fixed order serves, as long
// as equal replica sets come out equal.
TileLayout sort_replica_iters(const TileLayout& layout) {
  std::vector<Iter> replica = layout.replica();
  std::sort(replica.begin(), replica.end(), [](const Iter& a, const Iter& b) {
    return std::tie(a.axis, a.stride, a.extent) < std::tie(b.axis, b.stride, b.extent);
  });
  return TileLayout(layout.shard(), std::move(replica), layout.offset());
}

}  // namespace

TileLayout TileLayout::canonicalize(Target target) const {
  TileLayout res = remove_zero_offsets(remove_unit_iters(*this));
  res.check_well_formed();  // after the unit iters go, as in TVM
  if (target == Target::cuda) res = fuse_axes_by_scope(res);
  return sort_replica_iters(fuse_contiguous_shard_iters(res));
}

// TVM's canonicalize (and ComposeLayout's constructor) classify every axis
// (thread or memory) and check the scope chain with or without a target.
void TileLayout::check_well_formed() const {
  const auto registered = [&](const Axis& axis) {
    if (!axis.is_registered())
      throw Error("axis '" + axis.name() + "' of layout " + str() +
                  " is not registered (TVM: it has no thread classification)");
  };
  for (const Iter& it : shard_) registered(it.axis);
  for (const Iter& it : replica_) registered(it.axis);
  for (const auto& [axis, value] : offset_) registered(axis);
  (void)scope();  // throws on conflicting scopes or a disconnected chain
}

}  // namespace mmacheck
