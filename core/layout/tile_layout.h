// Layer core/layout: the TileLayout algebra (axes, iters, canonicalize, group, tile,
// slice, scope, printing, owner labels, the Z3 encoding). Uses core/base only;
// knows nothing of programs or gemm.
//
// TileLayout — TVM TIRx's layout: where each element of a logical tensor
// lives, as a set of (axis -> coordinate) owners.
//
// A layout is a shard list S, a replica list R and an offset O:
//
//     L(x) = { D(x) + r + O  |  r in R }
//
// D is the shard map: flatten the logical coordinate row-major over the
// tensor's shape, split the flat index across the shard extents row-major
// (last iter fastest), and sum c_k * s_k on each iter's axis.  The replica
// iters enumerate extra copies (broadcast); the offset adds one integer per
// axis.  Shapes are static (all extents and strides are integers).
//
// Example, the m16n8 accumulator fragment (TIRx syntax):
//
//     S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]
//
// puts D[r][c] of a 16x8 tile in lane 4*(r%8) + c/2 at register slot
// 2*(r/8) + c%2: apply({9, 3}, {16, 8}) == {{laneid: 5, m: 3}}.
//
// Operations follow TVM (src/tirx/ir/layout/): canonicalize, group, tile,
// tile_to, slice, storage, permute_by_groups.  An operation canonicalizes
// only where TVM's does.  Operations that cannot be carried out throw Error
// (without a source location; the caller adds it) naming the operation and
// its operands, e.g. "layout S[16 : 1] can not be grouped by shape [3, 5]".
//
// Extents, strides and offsets are any int64 (as TVM holds them, up to
// 2^63 - 1).  A value an operation computes that leaves int64 (a product,
// a span, an owner's coordinate) is an Error naming it, where TVM's folding
// leaves the unfolded expression: S[(2, 2) : (2^63 - 1, 1)].span() throws
// "the span of layout ... is 9223372036854775809, which overflows int64".
// Sums are exact: terms of opposite signs cancel before the result is checked.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/layout/axis.h"

namespace mmacheck {

using Shape = std::vector<std::int64_t>;
// Half-open [begin, end) per dimension.
using Region = std::vector<std::pair<std::int64_t, std::int64_t>>;
// One owner of an element: axis -> coordinate.  apply() lists every axis the
// layout names (in its shard, replica or offset), zeros included; owners from
// other sources may leave zero axes out, so read them with owner_coord().
using Owner = std::map<Axis, std::int64_t>;
// owner[axis], or 0 when the axis is absent.
inline std::int64_t owner_coord(const Owner& owner, const Axis& axis) {
  const auto it = owner.find(axis);
  return it == owner.end() ? 0 : it->second;
}
// A layout's offset: axis -> integer.
using Offset = std::map<Axis, std::int64_t>;

// (extent, stride, axis): `extent` consecutive index values, `stride` apart on `axis`.
struct Iter {
  std::int64_t extent;
  std::int64_t stride;
  Axis axis;
  bool operator==(const Iter&) const = default;
};

// What canonicalize may assume about the target.  TVM fuses thread axes
// (warpid*32 + laneid -> tx, ...) only under a CUDA target; the `layout`
// command uses none, the gemm dispatch uses cuda as TVM's lowering does.
enum class Target { none, cuda };

class GroupedLayout;

class TileLayout {
 public:
  // Throws Error unless every extent (shard and replica) is positive and the
  // shard size fits in int64.  Strides may be any integer (0: broadcast).
  TileLayout(std::vector<Iter> shard, std::vector<Iter> replica = {}, Offset offset = {});
  // TVM's DefaultLayout: row-major S[shape] on `m`.
  static TileLayout row_major(const Shape& shape);

  const std::vector<Iter>& shard() const { return shard_; }
  const std::vector<Iter>& replica() const { return replica_; }
  const Offset& offset() const { return offset_; }

  // Product of the shard extents (on `axis` only, when given).
  std::int64_t size(std::optional<Axis> axis = std::nullopt) const;
  // 1 + sum (e-1)*s over shard and replica iters on `axis`, plus its offset;
  // with no axis, over all memory axes (then an unregistered axis throws, as
  // in TVM).  S[(8, 6) : (8, 1)].span() == 62.  Throws when it leaves int64.
  std::int64_t span(std::optional<Axis> axis = std::nullopt) const;
  // The least and the greatest coordinate on `axis` of any owner (over every
  // element and replica); throws when one leaves int64, as apply() would
  // there.  S[(2, 2) : (4, -1)] + 3 has (2, 7) on m.
  std::pair<std::int64_t, std::int64_t> owner_range(const Axis& axis) const;
  Shape shard_shape() const;

  // The owners of the element at `coord` of a tensor of `shape` (replicas
  // expanded row-major, last replica iter fastest; one owner without
  // replicas).  Throws when the shape's element count is not the layout's
  // size or coord is out of range, or an owner's coordinate leaves int64.
  std::vector<Owner> apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const;
  // D(index) + O for flat index `index` (no replicas); throws unless
  // 0 <= index < size().
  Owner apply_flat(std::int64_t index) const;

  // TVM's Canonicalize, in its order: drop extent-1 shard iters (keeping
  // one 1:1 iter on the first iter's axis if all are unit), drop zero
  // offsets; (Target::cuda only) fuse thread axes to the layout's outermost
  // scope as TVM's CUDA fusers do (warpid -> tx stride*32, laneid -> tx or
  // tid_in_wg, wid_in_wg -> tx/tid_in_wg stride*32 or warpid, wgid -> tx
  // stride*128, tid_in_wg -> tx; offsets that land on one axis add, where
  // TVM keeps one of them); fuse neighbouring shard iters on the same axis
  // when next.extent * next.stride == prev.stride; sort replicas by (axis
  // name, stride, extent).  Under Target::cuda it throws on an ill-formed
  // scope chain, as TVM does.
  TileLayout canonicalize(Target target = Target::none) const;
  // Memory part only: thread-axis iters and offsets removed (no canonicalize).
  TileLayout storage() const;
  // TVM's Group: split iters so that cumulative extents hit every prefix
  // product of `shape`; throws "layout L can not be grouped by shape [..]"
  // when some prefix falls inside an iter it does not divide.  Does not
  // canonicalize.  S[16 : 1].group({4, 4}) has shard (4, 4, m), (4, 1, m).
  GroupedLayout group(const Shape& shape) const;
  // Reorder shard iters: new shard[i] = shard[perm[i]].  Throws unless perm
  // is a permutation of 0..shard().size()-1.
  TileLayout permute_dims(std::span<const int> perm) const;
  // `this` is the inner layout (as in TVM): both layouts are canonicalized
  // and grouped by their shapes; outer shard strides on axes the inner
  // layout's shard uses are scaled by the inner span on that axis; per
  // logical dim the outer iters come before the inner ones; replicas are
  // inner then outer; offsets add; the result is canonicalized.  `target`
  // is the canonicalization target of all three canonicalize steps.
  TileLayout tile(const TileLayout& outer, const Shape& outer_shape, const Shape& inner_shape,
                  Target target = Target::none) const;
  // tile() with the row-major outer layout S[to_shape / current_shape]
  // (each to_shape[i] must be a multiple of current_shape[i]).
  TileLayout tile_to(const Shape& to_shape, const Shape& current_shape, Target target = Target::none) const;
  // TVM's Slice: canonicalize, group by `shape`, and cut each group to its
  // [begin, end) range, moving the start into the offset (added to any
  // existing offset).  nullopt when TVM's slice cannot express the region
  // as iters; throws when the layout cannot be grouped by `shape` or the
  // region is empty or out of range.  The result is not canonicalized.
  std::optional<TileLayout> slice(const Shape& shape, const Region& region, Target target = Target::none) const;

  // TVM's unpack(num, axis): each element on `axis` becomes `num`
  // contiguous ones (strides and offsets on the axis times num, a new
  // innermost iter (num, 1, axis)).  pack is the inverse and throws unless
  // the innermost iter is (k*num, 1, axis) and num divides every other
  // stride and offset on the axis.  Neither canonicalizes.
  //   S[(4, 2) : (1@laneid, 1)].unpack(2) == S[(4, 2, 2) : (1@laneid, 2, 1)]
  TileLayout unpack(std::int64_t num, const Axis& axis = Axis::m()) const;
  TileLayout pack(std::int64_t num, const Axis& axis = Axis::m()) const;

  // Some shard iter is on a thread axis (replicas and offsets not counted).
  bool has_thread_axis() const;
  // TVM's VerifyWellFormed: false when the layout has shard thread axes that
  // do not form one connected scope chain (TVM raises there instead).
  bool verify_well_formed() const;
  // TVM's check_well_formed: throws unless every axis is registered and the
  // thread axes form one connected scope chain without conflicts.
  void check_well_formed() const;
  // (innermost subscope, outermost scope) of the thread axes in shard,
  // replica and offset; nullopt when no shard iter is on a thread axis.
  // Throws on conflicting scopes or a disconnected chain.
  std::optional<std::pair<ExecLevel, ExecLevel>> scope() const;

  // TIRx text (the body of TVM's `T.TileLayout(...)`), canonical so that
  // the layout parser reads back the same layout:
  //   S[(2, 8) : (4@laneid, 1)] + R[2 : 1@warpid] + 3@laneid + 64
  // - `S[e : s]` for one iter, `S[(e0, e1) : (s0, s1)]` for more, strides
  //   as `s@axis` with `@m` elided; no spaces around `@`;
  // - ` + R[...]` only when there are replica iters, same form;
  // - offsets as ` + v@axis` terms sorted by axis name (byte order, so
  //   upper-case names come first), `@m` elided, zero terms kept;
  // - negative numbers are printed with a leading `-` (`+ -3`, `-2@laneid`);
  // - an empty shard prints as `R[...]` when there are replicas (TVM's
  //   replica-only layout: one element, its owners the replicas), else as
  //   `S[() : ()]` (TVM prints a from_iters call).
  std::string str() const;

  bool operator==(const TileLayout&) const = default;

 private:
  std::vector<Iter> shard_;
  std::vector<Iter> replica_;
  Offset offset_;
};

// A layout whose shard is split into consecutive groups, one per logical
// dimension of the shape it was grouped by: group d is
// shard[seps[d], seps[d+1]).  Remembers the separators so that
// permute_by_groups can follow, as in `L.group([16, 16]).permute_by_groups([1, 0])`.
class GroupedLayout {
 public:
  // Throws unless seps starts at 0, never decreases and ends at the shard size.
  GroupedLayout(TileLayout layout, std::vector<int> seps);
  const TileLayout& layout() const { return layout_; }
  const std::vector<int>& seps() const { return seps_; }
  int groups() const { return static_cast<int>(seps_.size()) - 1; }
  // The iters of group g.
  std::span<const Iter> group(int g) const;
  // Groups reordered: new group i = old group perm[i].  Throws unless perm
  // is a permutation of 0..groups()-1.
  TileLayout permute_by_groups(std::span<const int> perm) const;

 private:
  TileLayout layout_;
  std::vector<int> seps_;
};

}  // namespace mmacheck
