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

void write_matrix(const sim::Matrix& m, const SlotTable& table, const OperandWords& words, std::byte* dst,
                  const char* role) {
  if (m.rows != table.rows || m.cols != table.cols || static_cast<std::int64_t>(m.bits.size()) != table.elements())
    throw Error(std::string("input ") + role + " is " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                ", buffer '" + table.buffer + "' is " + std::to_string(table.rows) + " x " +
                std::to_string(table.cols));
  for (std::uint64_t x : m.bits) {
    write_word(dst, words.word_bytes, x & words.mask);
    dst += words.word_bytes;
  }
}

void write_result(std::span<const std::uint64_t> d, const SlotTable& table, const OperandWords& words,
                  std::byte* dst) {
  if (static_cast<std::int64_t>(d.size()) != words.elements)
    throw Error("the simulator returned " + std::to_string(d.size()) + " D elements, buffer '" + table.buffer +
                "' has " + std::to_string(words.elements));
  for (std::uint64_t x : d) {
    if (x & ~words.mask) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(x));
      throw Error("the simulator returned D bits " + std::string(hex) + ", wider than " +
                  std::string(dtype_info(table.dtype).ptx) + " for buffer '" + table.buffer + "'");
    }
    write_word(dst, words.word_bytes, x);
    dst += words.word_bytes;
  }
}

}  // namespace mmacheck::cuda
