// Layouts applied to symbolic coordinates, as Z3 bit-vector terms.
//
// Every integer is a signed bit-vector of one width per query (Bv), chosen
// from bounds on the values the query computes (so nothing wraps).  A
// layout's apply is the mixed-radix digit decomposition of the coordinate by
// the constant shard extents: grouped by the tensor's shape where the
// layout allows it (each dim decomposes on its own), else through the
// row-major flat index.  Extents are mostly powers of two, whose division and
// remainder Z3 reduces to bit extraction.
//
//     Bv bv(ctx, *bv_width(layout_bound(L, {16, 8})));
//     auto owners = apply_symbolic(L, {16, 8}, {i, j}, {Axis::laneid(), Axis::m()}, bv);
//     // owners[0][0]: the lane of element (i, j), owners[0][1]: its slot
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <z3++.h>

#include "core/layout/tile_layout.h"

namespace mmacheck {

class Bv {
 public:
  Bv(z3::context& ctx, unsigned width) : ctx_(&ctx), width_(width) {}

  z3::context& ctx() const { return *ctx_; }
  unsigned width() const { return width_; }
  z3::expr num(std::int64_t value) const;
  z3::expr var(const std::string& name) const;
  // lo <= x < hi (signed).
  z3::expr in_range(const z3::expr& x, std::int64_t lo, std::int64_t hi) const;
  // values[index] for 0 <= index < values.size(): a balanced tree of ite.
  z3::expr table(const z3::expr& index, std::span<const std::int64_t> values) const;

 private:
  z3::context* ctx_;
  unsigned width_;
};

// Bits (sign included) for integers of magnitude up to `bound`, with room
// for a sum of two such values; at least 8.  nullopt beyond 62 bits.
std::optional<unsigned> bv_width(std::int64_t bound);

// A bound on the magnitude of every value apply_symbolic computes for
// `layout` over `shape` (coordinates, digits, axis sums).
std::int64_t layout_bound(const TileLayout& layout, const Shape& shape);

// The owners of the element at `coord` of a tensor of `shape` (one per
// replica, replicas row-major), each as one term per axis of `axes` (0 for an
// axis the layout does not name).  Meaningful when 0 <= coord[d] < shape[d].
std::vector<std::vector<z3::expr>> apply_symbolic(const TileLayout& layout, const Shape& shape,
                                                  const std::vector<z3::expr>& coord, std::span<const Axis> axes,
                                                  const Bv& bv);

}  // namespace mmacheck
