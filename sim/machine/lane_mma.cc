#include "sim/machine/lane_mma.h"

#include <algorithm>
#include <string>

#include "core/base/error.h"
#include "sim/machine/fragment.h"

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
  if (d.size() != d_.route.size())
    throw Error(inst_->ptx() + ": tile D has " + std::to_string(d.size()) + " elements, expected " +
                std::to_string(d_.route.size()));
  a_.scatter(a);
  b_.scatter(b);
  c_.scatter(c);
  a_.gather(tile_a_);
  b_.gather(tile_b_);
  c_.gather(tile_c_);
  mma_tile(*inst_, *arch_, tile_a_, tile_b_, tile_c_, tile_d_);
  d_.scatter(tile_d_);  // D's registers
  d_.gather(d);
}

}  // namespace mmacheck::sim
