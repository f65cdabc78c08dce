#include "sim/machine/lane_mma.h"

#include <algorithm>
#include <string>

#include "core/base/error.h"
#include "sim/machine/fragment.h"
#include "sim/numerics/block_scaled.h"

namespace mmacheck::sim {

LaneMma::Lanes::Lanes(const Frame& frame)
    : route(frame),
      regs(frame.regs),
      elem_mask(frame.elem_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << frame.elem_bits) - 1),
      words(static_cast<std::size_t>(kWarpLanes) * frame.regs) {
  for (const ElementPlace& p : route.places()) index.push_back(p.lane * regs + p.reg);
}

void LaneMma::Lanes::scatter(std::span<const std::uint64_t> tile) {
  if (tile.size() != route.size())
    throw Error("operand " + std::string(operand_name(route.frame().operand)) + " of " +
                std::string(route.frame().shape) + ": tile has " + std::to_string(tile.size()) +
                " elements, expected " + std::to_string(route.size()));
  std::fill(words.begin(), words.end(), 0);
  const std::span<const ElementPlace> places = route.places();
  for (std::size_t i = 0; i < places.size(); ++i) words[index[i]] |= (tile[i] & elem_mask) << places[i].shift;
}

void LaneMma::Lanes::gather(std::span<std::uint64_t> tile) const {
  const std::span<const ElementPlace> places = route.places();
  for (std::size_t i = 0; i < places.size(); ++i) tile[i] = (words[index[i]] >> places[i].shift) & elem_mask;
}

LaneMma::LaneMma(const MmaInst& inst, const ArchParams& arch)
    : inst_(&inst),
      arch_(&arch),
      a_(inst.frame(Operand::A)),
      b_(inst.frame(Operand::B)),
      c_(inst.frame(Operand::C)),
      d_(inst.d_frame()),
      tile_a_(a_.route.size()),
      tile_b_(b_.route.size()),
      tile_c_(c_.route.size()),
      tile_d_(d_.route.size()) {
  check_has_model(inst, arch);
}

void LaneMma::run(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                  std::span<std::uint64_t> d) {
  operands_through_lanes(a, b, c, d);
  mma_tile(*inst_, *arch_, tile_a_, tile_b_, tile_c_, tile_d_);
  d_.scatter(tile_d_);  // D's registers
  d_.gather(d);
}

void LaneMma::operands_through_lanes(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                     std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  if (d.size() != d_.route.size())
    throw Error(inst_->ptx() + ": tile D has " + std::to_string(d.size()) + " elements, expected " +
                std::to_string(d_.route.size()));
  a_.scatter(a);
  b_.scatter(b);
  c_.scatter(c);
  a_.gather(tile_a_);
  b_.gather(tile_b_);
  c_.gather(tile_c_);
}

namespace {
// A scale tile (index-major: index * blocks + block for A; block * count +
// index for B) into the 32 lanes' scale words, placed by the frame, then
// read back as the instruction reads them.
void scales_through_lanes(const MmaInst& inst, Operand op, ScaleSelector sel, std::span<const std::uint64_t> tile,
                          std::vector<std::uint64_t>& out) {
  check_selector(inst, op, sel);
  const int count = scale_frame(op).count, blocks = inst.scale_vec;
  if (tile.size() != static_cast<std::size_t>(count * blocks))
    throw Error(inst.ptx() + ": scale tile " + std::string(operand_name(op)) + " has " + std::to_string(tile.size()) +
                " elements, expected " + std::to_string(count * blocks));
  const auto at = [&](int index, int block) {
    return op == Operand::A ? index * blocks + block : block * count + index;
  };
  std::uint32_t words[32] = {};
  for (int index = 0; index < count; ++index)
    for (int block = 0; block < blocks; ++block) {
      const ScalePlace p = scale_place(inst, op, sel, index, block);
      words[p.lane] |= static_cast<std::uint32_t>(tile[at(index, block)] & 0xFF) << (8 * p.byte);
    }
  out.assign(tile.size(), 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int byte = 0; byte < 4; ++byte)
      if (const std::optional<ScaleRead> r = scale_read(inst, op, sel, lane, byte))
        out[at(r->index, r->block)] = (words[lane] >> (8 * byte)) & 0xFF;
}
}  // namespace

void LaneMma::run_scaled(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                         std::span<const std::uint64_t> c, std::span<const std::uint64_t> scale_a,
                         std::span<const std::uint64_t> scale_b, ScaleSelector sel_a, ScaleSelector sel_b,
                         std::span<std::uint64_t> d) {
  operands_through_lanes(a, b, c, d);
  scales_through_lanes(*inst_, Operand::A, sel_a, scale_a, tile_sa_);
  scales_through_lanes(*inst_, Operand::B, sel_b, scale_b, tile_sb_);
  block_scaled_tile(*inst_, *arch_, tile_a_, tile_b_, tile_c_, tile_sa_, tile_sb_, tile_d_);
  d_.scatter(tile_d_);
  d_.gather(d);
}

}  // namespace mmacheck::sim
