// Matching the aligned dims against one instruction's fragment (TVM's
// _frag_group and _same_iters, and the per-instruction body of its
// instruction loop).
//
// The lane split is the same for every frame of the table: g = lane / 4
// (8 lanes, laneid stride 4) runs along M (B: along N), t = lane % 4 (4 lanes,
// stride 1) along N (C/D) and K (A/B).  Only the register extents vary with
// the instruction: rM = m_regs(), rN = n_regs(), kHi = k_hi(), k_pack.
#include "core/gemm/dispatch_detail.h"

namespace mmacheck::dispatch_detail {

namespace {

// One carved group of a dim: its extent, the stride it must have (when
// pinned) and whether it must be on a thread axis.
struct Carve {
  std::int64_t extent;
  std::optional<std::int64_t> stride;
  bool thread;
};

std::int64_t product(std::span<const Carve> carves) {
  std::int64_t p = 1;
  for (const Carve& c : carves) p *= c.extent;
  return p;
}

// _frag_group: group `dim` (canonical order) as
// [thread_total / prod(lane), *lane, mem_total / prod(mem), *mem] and check
// every carved group.  nullopt when it cannot be grouped or a check fails.
std::optional<GroupedLayout> frag_group(const TileLayout& dim, std::span<const Carve> lane, std::span<const Carve> mem,
                                        const RegionTotals& totals) {
  // Python's floor division: a part that does not divide leaves a shape
  // whose product misses the dim's size, which group() rejects.
  Shape shape{totals.thread / product(lane)};
  for (const Carve& c : lane) shape.push_back(c.extent);
  shape.push_back(totals.mem / product(mem));
  for (const Carve& c : mem) shape.push_back(c.extent);

  std::optional<GroupedLayout> grouped;
  try {
    grouped = dim.group(shape);
  } catch (const Error&) {
    return std::nullopt;
  }
  const auto check = [&](int index, const Carve& want) {
    const std::span<const Iter> group = grouped->group(index);
    if (group.size() != 1) return false;
    const Iter& it = group.front();
    // An extent-1 group iterates nothing: its axis and stride are meaningless
    // (m16n8k8's single kHi, m8n8k4's single rM).
    if (it.extent == 1) return true;
    if (it.axis.is_thread() != want.thread) return false;
    return !want.stride || it.stride == *want.stride;
  };
  const int lanes = static_cast<int>(lane.size());
  for (int j = 0; j < lanes; ++j)
    if (!check(1 + j, lane[j])) return std::nullopt;
  for (int j = 0; j < static_cast<int>(mem.size()); ++j)
    if (!check(2 + lanes + j, mem[j])) return std::nullopt;
  return grouped;
}

// _same_iters: equal (extent, stride, axis) lists once extent-1 iters are
// dropped.
bool same_iters(std::span<const Iter> a, std::span<const Iter> b) {
  const auto non_unit = [](std::span<const Iter> iters) {
    std::vector<Iter> out;
    for (const Iter& it : iters)
      if (it.extent != 1) out.push_back(it);
    return out;
  };
  return non_unit(a) == non_unit(b);
}

}  // namespace

std::optional<Fragments> match_fragments(const AlignedDims& dims, const MmaInst& inst) {
  const Carve g{8, 4, true};  // lane / 4 along M (C, D, A)
  const Carve t{4, 1, true};  // lane % 4 along N (C, D) and K (A, B)
  const Carve m_lane[] = {g};
  const Carve m_mem[] = {{inst.m_regs(), std::nullopt, false}};
  const Carve n_lane[] = {t};
  const Carve n_mem[] = {{inst.n_regs(), 1, false}};
  const Carve k_lane[] = {t};
  const Carve k_mem[] = {{inst.k_hi(), std::nullopt, false}, {inst.k_pack, 1, false}};
  // B has no M, so its N is the g lanes; aligned to the accumulator's N
  // (t lanes, rN registers) it splits into a high part (lanes) where D has
  // lanes and a low part, still lanes, where D has its rN registers.
  const Carve bn_lane[] = {{inst.n / inst.n_regs(), 4 * inst.n_regs(), true}};
  const Carve bn_mem[] = {{inst.n_regs(), 4, true}};

  auto dm = frag_group(dims.dm, m_lane, m_mem, dims.m);
  auto dn = frag_group(dims.dn, n_lane, n_mem, dims.n);
  auto cm = frag_group(dims.cm, m_lane, m_mem, dims.m);
  auto cn = frag_group(dims.cn, n_lane, n_mem, dims.n);
  auto am = frag_group(dims.am, m_lane, m_mem, dims.m);
  auto ak = frag_group(dims.ak, k_lane, k_mem, dims.k);
  auto bk = frag_group(dims.bk, k_lane, k_mem, dims.k);
  auto bn = frag_group(dims.bn, bn_lane, bn_mem, dims.n);
  if (!dm || !dn || !cm || !cn || !am || !ak || !bk || !bn) return std::nullopt;

  // Group 0 is the dim's warp tiling: the same logical block must land on
  // the same warp in every operand sharing the dim.
  if (!same_iters(dm->group(0), am->group(0)) || !same_iters(dm->group(0), cm->group(0))) return std::nullopt;
  if (!same_iters(dn->group(0), bn->group(0)) || !same_iters(dn->group(0), cn->group(0))) return std::nullopt;
  if (!same_iters(ak->group(0), bk->group(0))) return std::nullopt;
  return Fragments{*dm, *dn, *cm, *cn, *am, *ak, *bk, *bn};
}

}  // namespace mmacheck::dispatch_detail
