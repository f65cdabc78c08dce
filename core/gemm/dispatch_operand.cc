// Per-operand preparation of the gemm dispatch: slicing, grouping, splitting
// into dims and aligning followers to anchors (TVM's _slice_group, _split,
// _canon_perm, _canon, _align, _region_totals).
#include <algorithm>
#include <set>

#include "core/gemm/dispatch_detail.h"
#include "core/layout/shape_text.h"

namespace mmacheck::dispatch_detail {

namespace {

// Python's str() of a list of names: "['laneid', 'warpid']".
template <typename T, typename F>
std::string list_str(const T& items, F item_str) {
  std::string s = "[";
  bool first = true;
  for (const auto& item : items) {
    s += (first ? "" : ", ") + item_str(item);
    first = false;
  }
  return s + "]";
}

}  // namespace

void decline(std::string reason) { throw Declined{std::move(reason)}; }

SplitOperand slice_and_split(const BufferDecl& buffer, const Region& region, const Shape& shape2d,
                             std::string_view name) {
  const std::string prefix = "gemm mma: " + std::string(name);
  const std::string not_tileable = prefix + " layout not tileable as " + tuple_text(shape2d) + ": ";
  // TVM lowers under its CUDA target: slice and canonicalize fuse thread axes
  // (warpid * 32 + laneid -> tx) before anything is grouped.
  std::optional<TileLayout> canonical;
  try {
    if (auto sliced = buffer.layout.slice(buffer.shape, region, Target::cuda))
      canonical = sliced->canonicalize(Target::cuda);
  } catch (const Error& e) {
    decline(not_tileable + e.message());
  }
  if (!canonical) decline("gemm mma: cannot slice " + std::string(name) + " layout to its region");

  // _frag_group checks only thread-or-memory, not which thread axis, so two
  // thread axes would carve ambiguously.
  std::set<std::string> thread_axes;
  for (const Iter& it : canonical->shard())
    if (it.axis.is_thread()) thread_axes.insert(it.axis.name());
  if (thread_axes.size() > 1)
    decline(prefix + " has >1 thread axis " +
            list_str(thread_axes, [](const std::string& a) { return "'" + a + "'"; }) + ", only one supported");

  std::optional<GroupedLayout> grouped;
  try {
    grouped = canonical->group(shape2d);
  } catch (const Error& e) {
    decline(not_tileable + e.message());
  }
  SplitOperand out{{}, grouped->layout().offset()};
  for (int g = 0; g < grouped->groups(); ++g) {
    const std::span<const Iter> iters = grouped->group(g);
    out.dims.emplace_back(std::vector<Iter>(iters.begin(), iters.end()));
  }
  return out;
}

std::vector<int> canon_perm(std::span<const Iter> iters) {
  std::vector<int> thread, memory;
  for (int i = 0; i < static_cast<int>(iters.size()); ++i) (iters[i].axis.is_thread() ? thread : memory).push_back(i);
  const auto by_stride_desc = [&](int x, int y) { return iters[x].stride > iters[y].stride; };
  std::stable_sort(thread.begin(), thread.end(), by_stride_desc);
  std::stable_sort(memory.begin(), memory.end(), by_stride_desc);
  thread.insert(thread.end(), memory.begin(), memory.end());
  return thread;
}

TileLayout canon(const TileLayout& dim) { return dim.permute_dims(canon_perm(dim.shard())); }

TileLayout align(const TileLayout& anchor, const TileLayout& follower, std::string_view name) {
  const Shape extents = anchor.shard_shape();
  std::optional<GroupedLayout> grouped;
  try {
    grouped = follower.group(extents);
  } catch (const Error& e) {
    decline("gemm mma: " + std::string(name) + " not alignable to anchor extents " + list_text(extents) + ": " +
            e.message());
  }
  return grouped->permute_by_groups(canon_perm(anchor.shard()));
}

RegionTotals region_totals(const TileLayout& anchor) {
  RegionTotals totals;
  for (const Iter& it : anchor.shard()) (it.axis.is_thread() ? totals.thread : totals.mem) *= it.extent;
  return totals;
}

AlignedDims align_dims(const SplitOperand& d, const SplitOperand& a, const SplitOperand& b, const SplitOperand& c,
                       bool transpose_a, bool transpose_b) {
  const TileLayout& dm = d.dims[0];
  const TileLayout& dn = d.dims[1];
  const TileLayout& ak = a.dims[transpose_a ? 0 : 1];
  TileLayout am = align(dm, a.dims[transpose_a ? 1 : 0], "A.M");
  TileLayout cm = align(dm, c.dims[0], "C.M");
  TileLayout bn = align(dn, b.dims[transpose_b ? 0 : 1], "B.N");
  TileLayout cn = align(dn, c.dims[1], "C.N");
  TileLayout bk = align(ak, b.dims[transpose_b ? 1 : 0], "B.K");
  AlignedDims dims{
      canon(dm), canon(dn), std::move(cm), std::move(cn), std::move(am), canon(ak), std::move(bk), std::move(bn), {},
      {},        {}};
  dims.m = region_totals(dims.dm);
  dims.n = region_totals(dims.dn);
  dims.k = region_totals(dims.ak);
  return dims;
}

}  // namespace mmacheck::dispatch_detail
