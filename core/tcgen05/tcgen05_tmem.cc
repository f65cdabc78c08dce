#include "core/tcgen05/tcgen05_tmem.h"

#include <array>
#include <vector>

namespace mmacheck {

namespace {

constexpr int kColumns = 512;  // TMEM columns per CTA (its 128 lanes follow from the data paths)

constexpr std::array<DataPathLayout, 4> kPaths{{
    {1, 128, "row m in lane m, column n"},
    {1, 64, "rows 16w..16w+15 in lanes 32w..32w+15 of subpartition w (+16 for the upper half), column n"},
    {2, 256, "rows 128c..128c+127 in CTA c of the pair, row m in lane m % 128, column n"},
    {2, 128,
     "rows 64c..64c+63 in CTA c of the pair; columns n < N/2 in lanes 0-63, the rest in lanes 64-127 at "
     "column n - N/2"},
}};

// "the lane differs", "the CTA and the lane differ".
std::string coordinate_differences(const TmemPosition& a, const TmemPosition& b) {
  std::vector<std::string> parts;
  if (a.cta != b.cta) parts.emplace_back("the CTA");
  if (a.lane != b.lane) parts.emplace_back("the lane");
  if (a.column != b.column) parts.emplace_back("the column");
  if (a.high != b.high) parts.emplace_back("the half of the column");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out + (parts.size() == 1 ? " differs" : " differ");
}

}  // namespace

std::string TmemPosition::str() const {
  return "CTA " + std::to_string(cta) + " lane " + std::to_string(lane) + " column " + std::to_string(column) +
         (high ? ", high 16 bits" : "");
}

std::span<const DataPathLayout> data_path_layouts() { return kPaths; }

const DataPathLayout* find_data_path(int cta_group, int m) {
  for (const DataPathLayout& p : kPaths)
    if (p.cta_group == cta_group && p.m == m) return &p;
  return nullptr;
}

TmemPosition tmem_position(const DataPathLayout& path, int n, int base_lane, int base_col, int row, int col) {
  const int rows_per_cta = path.m / path.cta_group;
  const int cta = row / rows_per_cta, r = row % rows_per_cta;
  if (path.cta_group == 1 && path.m == 64) return {0, base_lane + r % 16 + 32 * (r / 16), base_col + col};
  if (path.cta_group == 2 && path.m == 128) {
    const int half = n / 2;
    return {cta, base_lane + r + 64 * (col / half), base_col + col % half};
  }
  return {cta, base_lane + r, base_col + col};
}

std::string tmem_address_problem(const DataPathLayout& path, int n, int base_lane, int base_col) {
  const bool half = path.cta_group == 1 && path.m == 64;
  if (half ? (base_lane != 0 && base_lane != 16) : base_lane != 0)
    return "D's TMEM lane must be " + std::string(half ? "0 or 16" : "0") + " for M = " + std::to_string(path.m) +
           " cta_group::" + std::to_string(path.cta_group) + ", got " + std::to_string(base_lane);
  const int columns = path.cta_group == 2 && path.m == 128 ? n / 2 : n;
  if (base_col < 0 || base_col + columns > kColumns)
    return "D's " + std::to_string(columns) + " columns from column " + std::to_string(base_col) +
           " do not fit TMEM's " + std::to_string(kColumns);
  return "";
}

std::vector<TmemPosition> tmem_placement(const TileLayout& layout, int m, int n) {
  const std::int64_t size = std::int64_t{m} * n;
  if (layout.size() != size)
    throw Error("the layout has " + std::to_string(layout.size()) + " elements, D is " + std::to_string(m) + " x " +
                std::to_string(n) + " = " + std::to_string(size));
  const Axis lane("TLane"), col("TCol"), cta("cbx");
  std::vector<TmemPosition> out;
  out.reserve(static_cast<std::size_t>(size));
  for (std::int64_t i = 0; i < size; ++i) {
    const Owner owner = layout.apply_flat(i);
    for (const auto& [axis, v] : owner)
      if (v != 0 && !(axis == lane) && !(axis == col) && !(axis == cta))
        throw Error("a TMEM layout of D is on TLane, TCol and cbx alone; this one names " + axis.name());
    out.push_back({owner_coord(owner, cta), owner_coord(owner, lane), owner_coord(owner, col)});
  }
  return out;
}

std::vector<TmemPosition> tmem_words(const TmemCase& c) {
  std::vector<TmemPosition> placed = c.placed;
  if (c.d_bits == 16)
    for (TmemPosition& p : placed) {
      p.high = static_cast<int>(((p.column % 2) + 2) % 2);
      p.column = (p.column - p.high) / 2;
    }
  return placed;
}

TmemReport check_tmem(const TmemCase& c) {
  TmemReport r;
  r.name = c.name;
  const DataPathLayout* path = find_data_path(c.cta_group, c.m);
  if (!path) {
    r.result = FrameVerdict::unchecked;
    r.message = "the data-path layout of M = " + std::to_string(c.m) + " cta_group::" + std::to_string(c.cta_group) +
                " is not modelled";
    return r;
  }
  if (c.d_bits != 32 && c.d_bits != 16) {
    r.result = FrameVerdict::unchecked;
    r.message = "a " + std::to_string(c.d_bits) + "-bit D's place in TMEM's 32-bit columns is not modelled";
    return r;
  }
  // The instruction writes a 16-bit element into the low half of its column.
  const std::vector<TmemPosition> placed = tmem_words(c);
  if (const std::string why = tmem_address_problem(*path, c.n, c.base_lane, c.base_col); !why.empty()) {
    r.result = FrameVerdict::refuted;
    r.message = why;
    return r;
  }
  for (int row = 0; row < c.m; ++row)
    for (int col = 0; col < c.n; ++col) {
      const TmemPosition written = tmem_position(*path, c.n, c.base_lane, c.base_col, row, col);
      const TmemPosition& at = placed[static_cast<std::size_t>(row) * c.n + col];
      if (written == at) continue;
      if (!r.counterexample) r.counterexample = TmemMismatch{row, col, written, at};
      ++r.mismatches;
    }
  const std::int64_t elements = std::int64_t{c.m} * c.n;
  if (!r.counterexample) {
    r.message = "every element of the " + std::to_string(c.m) + " x " + std::to_string(c.n) + " accumulator (" +
                std::to_string(elements) + ") is where tcgen05.mma writes it (" + std::string(path->rule) +
                (c.d_bits == 16 ? "; each 16-bit element in its column's low half" : "") + ")";
    return r;
  }
  r.result = FrameVerdict::refuted;
  const TmemMismatch& x = *r.counterexample;
  r.message = "D[m=" + std::to_string(x.row) + "][n=" + std::to_string(x.col) + "] is written to " + x.written.str() +
              " but the layout has it at " + x.placed.str() + " (" + coordinate_differences(x.written, x.placed) +
              "; " + std::to_string(r.mismatches) + " of " + std::to_string(elements) +
              " elements elsewhere); M = " + std::to_string(c.m) + " cta_group::" + std::to_string(c.cta_group) +
              " puts " + std::string(path->rule);
  return r;
}

}  // namespace mmacheck
