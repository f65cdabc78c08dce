// Builders that keep the TileLayout tests close to TVM's Python spelling:
//
//   TVM:  TileLayout(S[(8, 4, 2) : (4 @ laneid, 1 @ laneid, 1)] + R[2 : 1 @ warpid] + 64)
//   here: S({8, 4, 2}, {{4, "laneid"}, {1, "laneid"}, 1}, R({2}, {{1, "warpid"}}), {{"m", 64}})
#pragma once

#include <catch2/catch.hpp>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/layout/tile_layout.h"

namespace mmacheck::test {

// `value @ axis`; a bare integer is on `m`.
struct Stride {
  Stride(std::int64_t v) : value(v) {}  // NOLINT: implicit, like TVM's bare strides
  Stride(std::int64_t v, const char* a) : value(v), axis(a) {}
  std::int64_t value;
  std::string axis = "m";
};

inline std::vector<Iter> iters(const std::vector<std::int64_t>& extents, const std::vector<Stride>& strides) {
  std::vector<Iter> out;
  for (std::size_t i = 0; i < extents.size(); ++i)
    out.push_back(Iter{extents[i], strides.at(i).value, Axis(strides.at(i).axis)});
  return out;
}

using Replica = std::vector<Iter>;
inline Replica R(const std::vector<std::int64_t>& extents, const std::vector<Stride>& strides) {
  return iters(extents, strides);
}

inline Offset offset(std::initializer_list<std::pair<const char*, std::int64_t>> terms) {
  Offset o;
  for (const auto& [axis, value] : terms) o[Axis(axis)] += value;
  return o;
}

inline TileLayout S(const std::vector<std::int64_t>& extents, const std::vector<Stride>& strides, Replica replica = {},
                    std::initializer_list<std::pair<const char*, std::int64_t>> off = {}) {
  return TileLayout(iters(extents, strides), std::move(replica), offset(off));
}

// The single owner of `coord` (the layout has no replicas).
inline Owner owner_of(const TileLayout& layout, const std::vector<std::int64_t>& coord,
                      const std::vector<std::int64_t>& shape) {
  const std::vector<Owner> owners = layout.apply(coord, shape);
  if (owners.size() != 1) throw std::logic_error("expected one owner");
  return owners.front();
}

inline std::int64_t at(const Owner& owner, const char* axis) { return owner_coord(owner, Axis(axis)); }

// The message of the Error `f` throws (without the "error: " prefix what() has).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

// Every coordinate of `shape`, row-major.
inline std::vector<std::vector<std::int64_t>> all_coords(const std::vector<std::int64_t>& shape) {
  std::vector<std::vector<std::int64_t>> out{{}};
  for (std::int64_t extent : shape) {
    std::vector<std::vector<std::int64_t>> next;
    for (const auto& prefix : out)
      for (std::int64_t c = 0; c < extent; ++c) {
        auto coord = prefix;
        coord.push_back(c);
        next.push_back(std::move(coord));
      }
    out = std::move(next);
  }
  return out;
}

}  // namespace mmacheck::test

// Failed comparisons print layouts as TIRx text.
template <>
struct Catch::StringMaker<mmacheck::TileLayout> {
  static std::string convert(const mmacheck::TileLayout& layout) { return layout.str(); }
};
