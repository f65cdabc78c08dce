#include "sim/machine/shared_memory.h"

#include "core/base/error.h"

namespace mmacheck::sim {

namespace {

// The byte address lane `l` of a matrix copy gives (its row's first byte).
std::int64_t row_address(const SharedStage& stage, const SharedAccess& a, int lane) {
  const std::int64_t offset = a.lane_offset[lane];
  if (offset < 0) throw Error(a.label + ": lane " + std::to_string(lane) + " gives no address");
  return offset * stage.reader.width;
}

}  // namespace

SharedMemory::SharedMemory(const SharedStage& stage) : bytes_(static_cast<std::size_t>(stage.reader.bytes()), 0) {}

std::uint64_t SharedMemory::element(std::int64_t offset, int width) const {
  std::uint64_t v = 0;
  for (int b = 0; b < width; ++b) v |= std::uint64_t{bytes_.at(offset * width + b)} << (8 * b);
  return v;
}

void SharedMemory::set_element(std::int64_t offset, int width, std::uint64_t bits) {
  for (int b = 0; b < width; ++b) bytes_.at(offset * width + b) = static_cast<std::uint8_t>(bits >> (8 * b));
}

void SharedMemory::fill(const SharedStage& stage, std::span<const std::uint64_t> matrix) {
  const int width = stage.reader.width;
  for (std::size_t o = 0; o < stage.matrix_at.size(); ++o)
    if (stage.matrix_at[o] >= 0) set_element(static_cast<std::int64_t>(o), width, matrix[stage.matrix_at[o]]);
}

void SharedMemory::load(const SharedStage& stage, const SharedAccess& a, RegisterFile& regs) const {
  const int width = stage.reader.width;
  if (!a.copy) {
    for (int l = 0; l < 32; ++l) regs.set_slot(l, a.slot, element(a.lane_offset[l], width));
    return;
  }
  const int first = a.slot / regs.per_reg();
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < a.copy->num; ++i) {
      std::uint64_t word = 0;
      for (int b = 0; b < 4; ++b) {
        const RowByte rb = matrix_copy_byte(*a.copy, l, i, b);
        word |= std::uint64_t{bytes_.at(row_address(stage, a, rb.address_lane) + rb.byte_in_row)} << (8 * b);
      }
      regs.set_reg(l, first + i, word);
    }
}

void SharedMemory::store(const SharedStage& stage, const SharedAccess& a, const RegisterFile& regs) {
  const int width = stage.reader.width;
  if (!a.copy) {
    for (int l = 0; l < 32; ++l) set_element(a.lane_offset[l], width, regs.slot(l, a.slot));
    return;
  }
  const int first = a.slot / regs.per_reg();
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < a.copy->num; ++i) {
      const std::uint64_t word = regs.reg(l, first + i);
      for (int b = 0; b < 4; ++b) {
        const RowByte rb = matrix_copy_byte(*a.copy, l, i, b);
        bytes_.at(row_address(stage, a, rb.address_lane) + rb.byte_in_row) = static_cast<std::uint8_t>(word >> (8 * b));
      }
    }
}

std::vector<std::uint64_t> SharedMemory::drain(const SharedStage& stage) const {
  std::vector<std::uint64_t> out(static_cast<std::size_t>(stage.reg_rows * stage.reg_cols), 0);
  for (std::size_t o = 0; o < stage.matrix_at.size(); ++o)
    if (stage.matrix_at[o] >= 0) out[stage.matrix_at[o]] = element(static_cast<std::int64_t>(o), stage.reader.width);
  return out;
}

}  // namespace mmacheck::sim
