// CaseWords — how the gemm kernel (cuda/gemm_kernel.h) lays a case's
// buffers out in memory: each of A, B, C and D whole, row-major, one element
// per word (4 bytes; 8 for 64-bit elements), the element in the low bits;
// the cases of a launch one after another.
//
//     const CaseWords w = case_words(staging);
//     write_matrix(inputs.a, staging.a, w.a, host_a + i * w.a.case_bytes(), "A");
//     std::uint64_t d00 = read_word(host_d + i * w.d.case_bytes(), w.d.word_bytes);
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/gemm/slot_table.h"
#include "core/gemm/staging.h"
#include "sim/numerics/gemm_inputs.h"

namespace mmacheck::cuda {

struct OperandWords {
  std::int64_t elements = 0;  // rows * cols of the buffer
  int word_bytes = 4;         // 4, or 8 for 64-bit elements
  std::uint64_t mask = 0;     // the element's bits within a word

  std::size_t case_bytes() const { return static_cast<std::size_t>(elements) * word_bytes; }
};

struct CaseWords {
  OperandWords a, b, c, d;

  // A, B, C in and D out: what one case moves between host and device.
  std::size_t case_bytes() const { return a.case_bytes() + b.case_bytes() + c.case_bytes() + d.case_bytes(); }
};

OperandWords operand_words(const SlotTable& table);
CaseWords case_words(const Staging& staging);

std::uint64_t read_word(const std::byte* p, int word_bytes);
void write_word(std::byte* p, int word_bytes, std::uint64_t w);

// One case's matrix of one operand into `dst` (words.case_bytes() bytes),
// each element masked to its bits.  Throws Error (naming `role`) when the
// matrix is not the table's shape.
void write_matrix(const sim::Matrix& m, const SlotTable& table, const OperandWords& words, std::byte* dst,
                  const char* role);
// A D buffer as the kernel writes it.  Throws Error when `d` has the wrong
// number of elements or an element has bits beyond the element type (the
// kernel can write no such value, so comparing would hide the difference).
void write_result(std::span<const std::uint64_t> d, const SlotTable& table, const OperandWords& words, std::byte* dst);

}  // namespace mmacheck::cuda
