#include "core/triton/triton_span.h"

#include <bit>
#include <vector>

namespace mmacheck {

namespace {

// A vector of GF(2)^(bits M + bits N) and the inputs whose bases XOR to it,
// as three bit masks (register, lane, warp).
struct Row {
  std::uint64_t value = 0;
  std::array<std::uint32_t, 3> inputs{};
};

constexpr const char* kDims[3] = {"register", "lane", "warp"};

}  // namespace

TritonSpan triton_span(const TritonLayout& layout) {
  TritonSpan out;
  const std::int64_t rows = layout.out_dims[0].second, cols = layout.out_dims[1].second;
  const int col_bits = std::countr_zero(static_cast<std::uint64_t>(cols));
  const int bits = std::countr_zero(static_cast<std::uint64_t>(rows)) + col_bits;
  const auto element = [&](std::uint64_t v) {
    return std::array<std::int64_t, 2>{static_cast<std::int64_t>(v >> col_bits),
                                       static_cast<std::int64_t>(v & ((std::uint64_t{1} << col_bits) - 1))};
  };
  const auto point = [](const std::array<std::uint32_t, 3>& m) { return TritonPoint{m[0], m[1], m[2]}; };

  std::vector<Row> echelon;  // pivot: the highest set bit, distinct per row
  for (int d = 0; d < 3; ++d) {
    const std::vector<std::vector<std::int64_t>>& bases = layout.bases(kDims[d]);
    for (std::size_t b = 0; b < bases.size(); ++b) {
      const std::int64_t x = bases[b][0], y = bases[b][1];
      Row row;
      row.inputs[static_cast<std::size_t>(d)] = std::uint32_t{1} << b;
      if (x < 0 || x >= rows || y < 0 || y >= cols) {
        if (!out.outside) out.outside = TritonSpan::Outside{point(row.inputs), {x, y}};
        continue;
      }
      row.value = (static_cast<std::uint64_t>(x) << col_bits) | static_cast<std::uint64_t>(y);
      for (const Row& e : echelon)
        if ((row.value >> (63 - std::countl_zero(e.value))) & 1) {
          row.value ^= e.value;
          for (std::size_t i = 0; i < 3; ++i) row.inputs[i] ^= e.inputs[i];
        }
      if (row.value != 0) {
        // Keep the echelon reduced: clear the new pivot from the older rows.
        const int pivot = 63 - std::countl_zero(row.value);
        for (Row& e : echelon)
          if ((e.value >> pivot) & 1) {
            e.value ^= row.value;
            for (std::size_t i = 0; i < 3; ++i) e.inputs[i] ^= row.inputs[i];
          }
        echelon.push_back(row);
        continue;
      }
      // A kernel vector: the inputs XOR to nothing.
      if (row.inputs[0] == 0 && row.inputs[1] == 0) {
        out.broadcast = true;
      } else if (!out.twice) {
        // register r, lane l of warp 0 and register 0, lane 0 of warp w hold one element.
        const TritonPoint first{row.inputs[0], row.inputs[1], 0}, second{0, 0, row.inputs[2]};
        const std::vector<std::int64_t> e = layout.apply(first.reg, first.lane, 0);
        out.twice = TritonSpan::Twice{first, second, {e[0], e[1]}};
      }
    }
  }
  if (static_cast<int>(echelon.size()) < bits)
    for (int bit = 0; bit < bits && !out.unheld; ++bit) {
      std::uint64_t v = std::uint64_t{1} << bit;
      for (const Row& e : echelon)
        if ((v >> (63 - std::countl_zero(e.value))) & 1) v ^= e.value;
      if (v != 0) out.unheld = element(std::uint64_t{1} << bit);
    }
  return out;
}

}  // namespace mmacheck
