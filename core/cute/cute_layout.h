// CuteLayout — a CuTe layout: a hierarchical shape and a stride of the same
// profile, mapping a coordinate to an index.
//
// CuTe semantics (include/cute/layout.hpp): an integer i in [0, size) is a
// coordinate; it is split over the flattened shape colexicographically (the
// first mode fastest) and the index is the sum of the parts times their
// strides.  A layout written without strides gets CuTe's default, the
// compact column-major strides (LayoutLeft).
//
// Two spellings are read, as CuTe prints a layout and as C++ spells its type:
//
//     ((4,8),(2,2,2)):((32,1),(16,8,128))          (also with _4, _32, ...)
//     Layout<Shape<Shape<_4,_8>,Shape<_2,_2,_2>>, Stride<Stride<_32,_1>,Stride<_16,_8,_128>>>
//
// For a TV layout (thread, value) -> index, mode(0) is the thread mode and
// mode(1) the value mode; at(t + size(mode 0) * v) is the index of value v of
// thread t.  Example: ((4,8),(2,2)):((32,1),(16,8)) gives thread 5 (4+1:
// t0 = 1, t1 = 1), value 1 the index 32 + 1 + 16 = 49.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cute/cute_text.h"

namespace mmacheck {

// CuTe's IntTuple: an integer, or a tuple of IntTuples.
struct IntTuple {
  std::int64_t value = 0;       // a leaf's integer
  std::vector<IntTuple> items;  // a tuple's elements
  bool leaf = true;

  static IntTuple of(std::int64_t v) { return {v, {}, true}; }
  static IntTuple tuple(std::vector<IntTuple> items) { return {0, std::move(items), false}; }

  std::int64_t size() const;                  // product of the leaves
  std::vector<std::int64_t> flatten() const;  // leaves, in order
  std::string str() const;                    // "(4,8)", "2"
  bool operator==(const IntTuple&) const = default;
};

// The same tree profile: leaves where the other has leaves, tuples of the
// same rank where it has tuples.
bool congruent(const IntTuple& a, const IntTuple& b);

struct CuteLayout {
  IntTuple shape;
  IntTuple stride;

  // Shape with CuTe's compact column-major strides.
  static CuteLayout compact(IntTuple shape);

  int rank() const { return shape.leaf ? 1 : static_cast<int>(shape.items.size()); }
  std::int64_t size() const { return shape.size(); }
  bool congruent() const { return mmacheck::congruent(shape, stride); }
  // Mode i as a layout (rank-1 layouts: mode 0 is the layout itself).
  CuteLayout mode(int i) const;
  // The same shape and strides, both flattened (what an incongruent layout
  // would mean if its strides were read in order).
  CuteLayout flat() const;
  // The index of coordinate i (0 <= i < size()), colexicographic over the
  // flattened shape.  Requires flatten().size() to agree between shape and
  // stride (true when congruent()).
  std::int64_t at(std::int64_t i) const;
  // at(i) for every i in [0, size()), flattening once (at() flattens per
  // call).  The caller bounds size() first.
  std::vector<std::int64_t> indices() const;
  std::string str() const;  // "((4,8),(2,2)):((32,1),(16,8))"
};

// A CuTe layout at the cursor, in either spelling; C++ spellings may carry
// `cute::` qualifiers, and accept Int<N>, C<N>, _N and N as integers.
// Throws Error at the first token that does not fit.
CuteLayout parse_cute_layout(CppCursor& cursor);
// A C++ `Shape<...>`, a lone integer or a tuple as CuTe prints it
// (`(16,8,16)`) at the cursor, as for Shape_MNK.
IntTuple parse_cute_shape(CppCursor& cursor);
// A TiledMMA's permutation `(P_M, P_N, P_K)`, each a layout or `_` (nullopt:
// CuTe's identity), as the CuTe notation and the DSL's print write it.
std::array<std::optional<CuteLayout>, 3> parse_cute_permutation(CppCursor& cursor);
// A whole string as one layout ("what" names the string in messages).
CuteLayout parse_cute_layout(std::string_view text, const std::string& what = "layout");

}  // namespace mmacheck
