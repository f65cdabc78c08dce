#include "sim/machine/register_file.h"

#include <algorithm>
#include <bit>
#include <string>

#include "core/base/error.h"

namespace mmacheck::sim {

namespace {
std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }
}  // namespace

RegisterFile::RegisterFile(DType dtype, int threads, int slots)
    : dtype_(dtype),
      threads_(threads),
      slots_(slots),
      elem_bits_(dtype_bits(dtype)),
      reg_bits_(std::max(32, dtype_bits(dtype))),
      regs_(0),
      per_reg_log2_(std::countr_zero(static_cast<unsigned>(reg_bits_ / elem_bits_))),
      elem_mask_(low_mask(elem_bits_)),
      reg_mask_(low_mask(reg_bits_)) {
  if (reg_bits_ % elem_bits_ != 0 || !std::has_single_bit(static_cast<unsigned>(reg_bits_ / elem_bits_)))
    throw Error("a register of " + std::to_string(reg_bits_) + " bits does not hold whole " +
                std::to_string(elem_bits_) + "-bit elements");
  if (threads < 0 || slots < 0)
    throw Error("a register file needs non-negative threads and slots, got " + std::to_string(threads) + " x " +
                std::to_string(slots));
  regs_ = (slots + per_reg() - 1) / per_reg();
  words_.assign(static_cast<std::size_t>(threads) * regs_, 0);
}

void RegisterFile::clear() { std::fill(words_.begin(), words_.end(), 0); }

void RegisterFile::poison() { std::fill(words_.begin(), words_.end(), reg_mask_); }

void RegisterFile::load(std::span<const std::uint64_t> values) {
  if (values.size() != static_cast<std::size_t>(threads_) * slots_)
    throw Error("loading a " + std::to_string(threads_) + " x " + std::to_string(slots_) + " register file from " +
                std::to_string(values.size()) + " values");
  clear();
  for (int t = 0; t < threads_; ++t)
    for (int s = 0; s < slots_; ++s) set_slot(t, s, values[t * slots_ + s]);
}

std::vector<std::uint64_t> RegisterFile::slot_values() const {
  std::vector<std::uint64_t> values(static_cast<std::size_t>(threads_) * slots_);
  for (int t = 0; t < threads_; ++t)
    for (int s = 0; s < slots_; ++s) values[t * slots_ + s] = slot(t, s);
  return values;
}

namespace {
void check_table(const SlotTable& table, int threads, int slots, const char* what) {
  if (table.threads != threads || table.slots != slots ||
      table.index.size() != static_cast<std::size_t>(threads) * static_cast<std::size_t>(slots))
    throw Error(std::string(what) + " '" + table.buffer + "': the table is " + std::to_string(table.threads) + " x " +
                std::to_string(table.slots) + ", the register file " + std::to_string(threads) + " x " +
                std::to_string(slots));
}
}  // namespace

void RegisterFile::load(const SlotTable& table, std::span<const std::uint64_t> matrix) {
  check_table(table, threads_, slots_, "loading");
  if (static_cast<std::int64_t>(matrix.size()) != table.elements())
    throw Error("loading '" + table.buffer + "': " + std::to_string(matrix.size()) +
                " elements given, the buffer has " + std::to_string(table.elements()));
  clear();
  const std::int32_t* index = table.index.data();
  if (per_reg_log2_ == 0) {  // one element per register: slot s is word s
    for (std::size_t w = 0; w < words_.size(); ++w)
      if (index[w] >= 0) words_[w] = matrix[static_cast<std::size_t>(index[w])] & elem_mask_;
    return;
  }
  for (int t = 0; t < threads_; ++t)
    for (int s = 0; s < slots_; ++s, ++index)
      if (*index >= 0) set_slot(t, s, matrix[static_cast<std::size_t>(*index)]);
}

std::vector<std::uint64_t> RegisterFile::store(const SlotTable& table) const {
  check_table(table, threads_, slots_, "storing");
  std::vector<std::uint64_t> matrix(static_cast<std::size_t>(table.elements()), 0);
  const std::int32_t* index = table.index.data();
  if (per_reg_log2_ == 0) {
    for (std::size_t w = 0; w < words_.size(); ++w)
      if (index[w] >= 0) matrix[static_cast<std::size_t>(index[w])] = words_[w];
    return matrix;
  }
  for (int t = 0; t < threads_; ++t)
    for (int s = 0; s < slots_; ++s, ++index)
      if (*index >= 0) matrix[static_cast<std::size_t>(*index)] = slot(t, s);
  return matrix;
}

}  // namespace mmacheck::sim
