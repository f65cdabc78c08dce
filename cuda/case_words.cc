#include "cuda/case_words.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "core/base/error.h"

namespace mmacheck::cuda {

OperandWords operand_words(const SlotTable& table) {
  const int bits = dtype_bits(table.dtype);
  return {table.elements(), bits == 64 ? 8 : 4, bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1};
}

CaseWords case_words(const Staging& st) {
  return {operand_words(st.a), operand_words(st.b), operand_words(st.c), operand_words(st.d)};
}

std::uint64_t read_word(const std::byte* p, int word_bytes) {
  if (word_bytes == 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, 8);
    return w;
  }
  std::uint32_t w = 0;
  std::memcpy(&w, p, 4);
  return w;
}

void write_word(std::byte* p, int word_bytes, std::uint64_t w) {
  if (word_bytes == 8) {
    std::memcpy(p, &w, 8);
  } else {
    const auto w32 = static_cast<std::uint32_t>(w);
    std::memcpy(p, &w32, 4);
  }
}

namespace {

// n elements, masked, into words of type Word: one loop without a test per
// element, which the compiler vectorises.
template <class Word>
void pack_words(const std::uint64_t* src, std::size_t n, std::uint64_t mask, std::byte* dst) {
  for (std::size_t i = 0; i < n; ++i) {
    const auto w = static_cast<Word>(src[i] & mask);
    std::memcpy(dst + i * sizeof(Word), &w, sizeof(Word));
  }
}

void pack(const std::uint64_t* src, std::size_t n, const OperandWords& words, std::byte* dst) {
  if (words.word_bytes == 8) pack_words<std::uint64_t>(src, n, words.mask, dst);
  else pack_words<std::uint32_t>(src, n, words.mask, dst);
}

}  // namespace

void write_matrix(const sim::Matrix& m, const SlotTable& table, const OperandWords& words, std::byte* dst,
                  const char* role) {
  if (m.rows != table.rows || m.cols != table.cols || static_cast<std::int64_t>(m.bits.size()) != table.elements())
    throw Error(std::string("input ") + role + " is " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                ", buffer '" + table.buffer + "' is " + std::to_string(table.rows) + " x " +
                std::to_string(table.cols));
  pack(m.bits.data(), m.bits.size(), words, dst);
}

void write_result(std::span<const std::uint64_t> d, const SlotTable& table, const OperandWords& words, std::byte* dst) {
  if (static_cast<std::int64_t>(d.size()) != words.elements)
    throw Error("the simulator returned " + std::to_string(d.size()) + " D elements, buffer '" + table.buffer +
                "' has " + std::to_string(words.elements));
  // Bits beyond the type anywhere: one OR over the buffer, the culprit
  // looked up only then.
  std::uint64_t beyond = 0;
  for (const std::uint64_t x : d) beyond |= x & ~words.mask;
  if (beyond)
    for (const std::uint64_t x : d)
      if (x & ~words.mask) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(x));
        throw Error("the simulator returned D bits " + std::string(hex) + ", wider than " +
                    std::string(dtype_info(table.dtype).ptx) + " for buffer '" + table.buffer + "'");
      }
  pack(d.data(), d.size(), words, dst);
}

}  // namespace mmacheck::cuda
