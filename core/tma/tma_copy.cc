#include "core/tma/tma_copy.h"

namespace mmacheck {

namespace {

// The dynamic shared memory an sm_90 block may have: 227 KB.
constexpr std::int64_t kSharedBytes = 227 * 1024;
// dstMem of a tensor copy (the CUDA programming guide's TMA alignment requirements).
constexpr std::int64_t kDstAlign = 128;

}  // namespace

std::vector<std::string> TmaCopy::problems() const {
  std::vector<std::string> out;
  if (smem % kDstAlign != 0)
    out.push_back("dstMem " + std::to_string(smem) +
                  " is not 128-byte aligned (a tensor copy's shared address must be)");
  if (map.box_bytes() > kSharedBytes)
    out.push_back("the box is " + std::to_string(map.box_bytes()) + " bytes, more than the " +
                  std::to_string(kSharedBytes) + " bytes of shared memory a block may have");
  return out;
}

std::int64_t tma_write_address(const TmaCopy& copy, std::span<const std::int64_t> c) {
  std::int64_t row = 0;
  for (int d = copy.map.rank() - 1; d >= 1; --d) row = row * copy.map.box_extent(d) + c[static_cast<std::size_t>(d)];
  const std::int64_t linear = copy.smem + copy.map.smem_row_bytes() * row + copy.map.dtype->bytes * c[0];
  return swizzle_mode(copy.map.swizzle).bytes.apply(linear);
}

std::vector<std::int64_t> tma_global_coord(const TmaCopy& copy, std::span<const std::int64_t> c) {
  std::vector<std::int64_t> g;
  for (int d = 0; d < copy.map.rank(); ++d) {
    const std::size_t u = static_cast<std::size_t>(d);
    g.push_back((u < copy.coords.size() ? copy.coords[u] : 0) + c[u] * copy.map.element_stride(d));
  }
  return g;
}

bool tma_out_of_bounds(const TmaCopy& copy, std::span<const std::int64_t> c) {
  const std::vector<std::int64_t> g = tma_global_coord(copy, c);
  for (std::size_t d = 0; d < g.size(); ++d)
    if (g[d] < 0 || g[d] >= copy.map.dims[d]) return true;
  return false;
}

TmaImage::TmaImage(const TmaCopy& copy) : copy_(copy) {
  const int rank = copy.map.rank();
  std::int64_t total = 1;
  for (int d = 0; d < rank; ++d) total *= copy.map.box_extent(d);
  std::vector<std::int64_t> c(static_cast<std::size_t>(rank), 0);
  for (std::int64_t flat = 0; flat < total; ++flat) {
    std::int64_t rest = flat;
    for (int d = 0; d < rank; ++d) {
      c[static_cast<std::size_t>(d)] = rest % copy.map.box_extent(d);
      rest /= copy.map.box_extent(d);
    }
    flat_.emplace(tma_write_address(copy, c), flat);
  }
}

std::optional<std::vector<std::int64_t>> TmaImage::element_at(std::int64_t address) const {
  const auto it = flat_.find(address);
  if (it == flat_.end()) return std::nullopt;
  std::vector<std::int64_t> c;
  std::int64_t rest = it->second;
  for (int d = 0; d < copy_.map.rank(); ++d) {
    c.push_back(rest % copy_.map.box_extent(d));
    rest /= copy_.map.box_extent(d);
  }
  return c;
}

}  // namespace mmacheck
