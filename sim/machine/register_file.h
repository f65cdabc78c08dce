// RegisterFile — one operand buffer's registers in every thread of the
// scope, packed as the hardware packs them.
//
// A thread's storage of the buffer is `slots` elements (its storage span).
// Element slot s lives in register s / per_reg at bit offset
// (s % per_reg) * elem_bits, the lowest slot in the low bits: two f16 or
// bf16 per 32-bit register, four s8/u8/fp8, one f32/tf32/s32, one f64 per
// 64-bit register.  So register r of a nest statement is slots
// [r * per_reg, (r + 1) * per_reg), and a statement that names the wrong
// register reads the wrong pair of elements, as on the GPU.
//
//     RegisterFile f(DType::f16, 32, 8);   // 32 threads x 8 f16 slots = 4 b32 each
//     f.set_slot(5, 3, 0x3c00);            // thread 5, slot 3 = 1.0
//     f.reg(5, 1) == 0x3c000000            // slot 3 is the high half of register 1
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/slot_table.h"
#include "core/program/dtype.h"

namespace mmacheck::sim {

class RegisterFile {
 public:
  // All registers zero.  Throws Error when threads or slots is negative.
  RegisterFile(DType dtype, int threads, int slots);

  DType dtype() const { return dtype_; }
  int threads() const { return threads_; }
  int slots() const { return slots_; }
  int elem_bits() const { return elem_bits_; }
  int reg_bits() const { return reg_bits_; }
  int per_reg() const { return 1 << per_reg_log2_; }
  int regs() const { return regs_; }  // per thread: slots rounded up to whole registers

  std::uint64_t reg(int thread, int r) const { return words_[thread * regs_ + r]; }
  void set_reg(int thread, int r, std::uint64_t word) { words_[thread * regs_ + r] = word & reg_mask_; }

  std::uint64_t slot(int thread, int s) const { return element(thread, s >> per_reg_log2_, shift(s)); }
  void set_slot(int thread, int s, std::uint64_t bits) { set_element(thread, s >> per_reg_log2_, shift(s), bits); }

  // The element at bit `shift` of register r (as a TileRoute places it).
  std::uint64_t element(int thread, int r, int shift) const { return (reg(thread, r) >> shift) & elem_mask_; }
  void set_element(int thread, int r, int shift, std::uint64_t bits) {
    std::uint64_t& word = words_[thread * regs_ + r];
    word = (word & ~(elem_mask_ << shift)) | ((bits & elem_mask_) << shift);
  }

  // The same by word index (thread * regs() + r), for precomputed routes.
  std::uint64_t word_element(std::int32_t word, int shift) const { return (words_[word] >> shift) & elem_mask_; }
  void set_word_element(std::int32_t word, int shift, std::uint64_t bits) {
    std::uint64_t& w = words_[word];
    w = (w & ~(elem_mask_ << shift)) | ((bits & elem_mask_) << shift);
  }

  // A whole register by word index, when it holds one element (per_reg() == 1).
  std::uint64_t word(std::int32_t w) const { return words_[w]; }
  void set_word(std::int32_t w, std::uint64_t bits) { words_[w] = bits & elem_mask_; }

  void clear();
  // Every element all ones: what a register nothing wrote holds for a
  // program run in its order (WarpMachine), a NaN in every float format
  // that has one.
  void poison();
  // Every slot from values[thread * slots + s] (as load_slots gives them).
  // Throws Error when the count is not threads * slots.
  void load(std::span<const std::uint64_t> values);
  // Every slot, [thread * slots + s] (as store_slots takes them).
  std::vector<std::uint64_t> slot_values() const;
  // load(load_slots(table, matrix)) and store_slots(table, slot_values()),
  // without the intermediate vectors (the warp machine's per-case path).
  // Throw Error when the table's or the matrix's size is not this file's.
  void load(const SlotTable& table, std::span<const std::uint64_t> matrix);
  std::vector<std::uint64_t> store(const SlotTable& table) const;

 private:
  int shift(int s) const { return (s & (per_reg() - 1)) * elem_bits_; }

  DType dtype_;
  int threads_, slots_;
  int elem_bits_, reg_bits_, regs_;
  int per_reg_log2_;  // elements per register: 1, 2 or 4
  std::uint64_t elem_mask_, reg_mask_;
  std::vector<std::uint64_t> words_;
};

}  // namespace mmacheck::sim
