#include "cuda/mmav_writer.h"

#include <cstdio>

#include "core/base/error.h"

namespace mmacheck::cuda {

namespace {

void write_words(std::string& out, char tag, std::span<const std::uint64_t> words, std::size_t expected, DType type,
                 const sim::VectorCase& c) {
  if (words.size() != expected)
    throw Error("vector case " + std::to_string(c.id) + ": " + tag + " has " + std::to_string(words.size()) +
                " words, " + c.inst->shape() + " needs " + std::to_string(expected));
  const int digits = hex_digits(type);
  out += tag;
  char buf[24];
  for (std::uint64_t w : words) {
    std::snprintf(buf, sizeof buf, " %0*llx", digits, static_cast<unsigned long long>(w));
    out += buf;
  }
  out += '\n';
}

}  // namespace

std::string format_mmav(std::span<const std::string> comments, std::span<const sim::VectorCase> cases) {
  std::string out;
  for (const std::string& line : comments) out += "# " + line + "\n";
  const MmaInst* current = nullptr;
  for (const sim::VectorCase& c : cases) {
    if (!c.inst) throw Error("vector case " + std::to_string(c.id) + " has no instruction");
    if (c.inst != current) out += "instr " + c.inst->ptx() + "\n";
    current = c.inst;
    const MmaInst& i = *c.inst;
    out += "case " + std::to_string(c.id) + (c.kind.empty() ? "" : " " + c.kind) + "\n";
    write_words(out, 'A', c.a, static_cast<std::size_t>(i.a_elems()), i.a, c);
    write_words(out, 'B', c.b, static_cast<std::size_t>(i.b_elems()), i.b, c);
    write_words(out, 'C', c.c, static_cast<std::size_t>(i.c_elems()), i.c, c);
    write_words(out, 'D', c.d, static_cast<std::size_t>(i.c_elems()), i.d, c);
  }
  return out;
}

}  // namespace mmacheck::cuda
