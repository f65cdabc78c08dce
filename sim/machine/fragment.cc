#include "sim/machine/fragment.h"

#include <string>

#include "core/base/error.h"

namespace mmacheck::sim {

namespace {
std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }
}  // namespace

WarpRegs::WarpRegs(const Frame& frame) : frame_(&frame), words_(kWarpLanes * frame.regs, 0) {}

void WarpRegs::set_reg(int lane, int r, std::uint64_t word) {
  words_[lane * frame_->regs + r] = word & low_mask(frame_->reg_bits);
}

std::uint64_t WarpRegs::element(int lane, int elem) const {
  const int per_reg = frame_->per_reg();
  const int shift = (elem % per_reg) * frame_->elem_bits;
  return (reg(lane, elem / per_reg) >> shift) & low_mask(frame_->elem_bits);
}

void WarpRegs::set_element(int lane, int elem, std::uint64_t bits) {
  const int per_reg = frame_->per_reg();
  const int shift = (elem % per_reg) * frame_->elem_bits;
  const std::uint64_t mask = low_mask(frame_->elem_bits) << shift;
  std::uint64_t& word = words_[lane * frame_->regs + elem / per_reg];
  word = (word & ~mask) | ((bits << shift) & mask);
}

WarpRegs scatter_tile(const Frame& frame, std::span<const std::uint64_t> tile) {
  if (tile.size() != static_cast<std::size_t>(frame.rows * frame.cols))
    throw Error("operand " + std::string(operand_name(frame.operand)) + " of " + std::string(frame.shape) +
                ": tile has " + std::to_string(tile.size()) + " elements, expected " +
                std::to_string(frame.rows * frame.cols));
  WarpRegs regs(frame);
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < frame.elems(); ++e) {
      const TileCoord at = frame.at(lane, e);
      regs.set_element(lane, e, tile[at.row * frame.cols + at.col]);
    }
  return regs;
}

std::vector<std::uint64_t> gather_tile(const WarpRegs& regs) {
  const Frame& frame = regs.frame();
  std::vector<std::uint64_t> tile(frame.rows * frame.cols);
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < frame.elems(); ++e) {
      const TileCoord at = frame.at(lane, e);
      tile[at.row * frame.cols + at.col] = regs.element(lane, e);
    }
  return tile;
}

WarpRegs execute_mma(const MmaInst& inst, const ArchParams& arch, const WarpRegs& a, const WarpRegs& b,
                     const WarpRegs& c) {
  const auto check = [&](const WarpRegs& regs, Operand op) {
    if (&regs.frame() != &inst.frame(op))
      throw Error(inst.ptx() + ": operand " + std::string(operand_name(op)) + " registers use the frame of " +
                  std::string(regs.frame().shape) + " " + std::string(operand_name(regs.frame().operand)) + " (" +
                  std::to_string(regs.frame().elem_bits) + "-bit), not the instruction's");
  };
  check(a, Operand::A);
  check(b, Operand::B);
  check(c, Operand::C);
  const std::vector<std::uint64_t> ta = gather_tile(a), tb = gather_tile(b), tc = gather_tile(c);
  std::vector<std::uint64_t> td(tc.size());
  mma_tile(inst, arch, ta, tb, tc, td);
  return scatter_tile(inst.d_frame(), td);
}

}  // namespace mmacheck::sim
