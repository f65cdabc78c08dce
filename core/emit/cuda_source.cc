#include "core/emit/cuda_source.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <vector>

#include "core/base/error.h"

namespace mmacheck {

namespace {

std::string hex_literal(std::uint64_t value, int word_bits) {
  std::ostringstream os;
  os << "0x" << std::hex << value << (word_bits == 64 ? "ull" : "u");
  return os.str();
}

std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

void check_slot(int slot, const NestOperand& operand, const char* role) {
  if (slot < 0 || slot >= operand.slots)
    throw Error("nest " + std::string(role) + " slot " + std::to_string(slot) + " is outside buffer '" +
                operand.buffer + "' (" + std::to_string(operand.slots) + " slots)");
}

void check_registers(const std::vector<int>& regs, int expected, const NestOperand& operand, const char* role) {
  if (static_cast<int>(regs.size()) != expected)
    throw Error("nest mma " + std::string(role) + " has " + std::to_string(regs.size()) +
                " registers, the instruction takes " + std::to_string(expected));
  const int words = cuda_buffer_abi(operand).words;
  for (int r : regs)
    if (r < 0 || r >= words)
      throw Error("nest mma " + std::string(role) + " register " + std::to_string(r) + " is outside buffer '" +
                  operand.buffer + "' (" + std::to_string(words) + " registers)");
}

// One InitStmt.  Slots are grouped by D word so that whole words become one
// assignment; a copy first reads its source words into locals because `c`
// may alias `d`.
void emit_init(std::ostream& os, const Nest& nest, const InitStmt& init) {
  const CudaBufferAbi d = cuda_buffer_abi(nest.d);
  const CudaBufferAbi c = cuda_buffer_abi(nest.c);
  const bool copy = !init.c_slots.empty();
  if (copy && init.c_slots.size() != init.d_slots.size())
    throw Error("nest init of tile (" + std::to_string(init.tile_m) + ", " + std::to_string(init.tile_n) + ") copies " +
                std::to_string(init.c_slots.size()) + " C slots into " + std::to_string(init.d_slots.size()) +
                " D slots");
  if (copy && c.elem_bits != d.elem_bits)
    throw Error("nest init copies " + std::to_string(c.elem_bits) + "-bit C elements into " +
                std::to_string(d.elem_bits) + "-bit D elements");

  struct Piece {
    int d_shift, c_word, c_shift;
  };
  std::map<int, std::vector<Piece>> by_word;  // D word -> its slots in this statement
  for (std::size_t i = 0; i < init.d_slots.size(); ++i) {
    const int ds = init.d_slots[i];
    check_slot(ds, nest.d, "init D");
    Piece p{(ds % d.per_word()) * d.elem_bits, 0, 0};
    if (copy) {
      const int cs = init.c_slots[i];
      check_slot(cs, nest.c, "init C");
      p.c_word = cs / c.per_word();
      p.c_shift = (cs % c.per_word()) * c.elem_bits;
    }
    by_word[ds / d.per_word()].push_back(p);
  }

  const std::uint64_t elem = low_mask(d.elem_bits);
  const std::uint64_t full = low_mask(d.word_bits);
  os << "  // tile (" << init.tile_m << ", " << init.tile_n << "): D = "
     << (copy        ? "C"
         : init.bits ? "the scalar " + hex_literal(init.bits & elem, d.elem_bits)
                     : "0")
     << "\n";
  if (!copy) {  // every slot set to the init's bits
    for (const auto& [word, pieces] : by_word) {
      std::uint64_t clear = 0, set = 0;
      for (const Piece& p : pieces) {
        clear |= elem << p.d_shift;
        set |= (init.bits & elem) << p.d_shift;
      }
      if (clear == full) os << "  d[" << word << "] = " << hex_literal(set, d.word_bits) << ";\n";
      else if (set == 0) os << "  d[" << word << "] &= " << hex_literal(full & ~clear, d.word_bits) << ";\n";
      else
        os << "  d[" << word << "] = (d[" << word << "] & " << hex_literal(full & ~clear, d.word_bits) << ") | "
           << hex_literal(set, d.word_bits) << ";\n";
    }
    return;
  }

  std::map<int, std::string> source;  // C word -> local holding it
  for (const auto& [word, pieces] : by_word)
    for (const Piece& p : pieces) source.emplace(p.c_word, "");
  os << "  {\n";
  for (auto& [word, name] : source) {
    name = std::string("c").append(std::to_string(word));
    os << "    const " << c.word_type() << " " << name << " = c[" << word << "];\n";
  }
  for (const auto& [word, pieces] : by_word) {
    // A word whose every element comes from the same position of one C word
    // is a plain copy.
    bool whole = static_cast<int>(pieces.size()) == d.per_word();
    for (const Piece& p : pieces) whole = whole && p.c_word == pieces.front().c_word && p.c_shift == p.d_shift;
    if (whole) {
      os << "    d[" << word << "] = " << source[pieces.front().c_word] << ";\n";
      continue;
    }
    std::uint64_t clear = 0;
    for (const Piece& p : pieces) clear |= elem << p.d_shift;
    os << "    d[" << word << "] = (d[" << word << "] & " << hex_literal(full & ~clear, d.word_bits) << ")";
    for (const Piece& p : pieces)
      os << "\n        | (((" << source[p.c_word] << " >> " << p.c_shift << ") & " << hex_literal(elem, d.word_bits)
         << ") << " << p.d_shift << ")";
    os << ";\n";
  }
  os << "  }\n";
}

// Inline-asm register constraint of a buffer's words: "r" (32-bit) or "l"
// (64-bit); PTX accepts untyped .b32/.b64 registers for every mma type.
std::string constraint(const NestOperand& operand) { return cuda_buffer_abi(operand).word_bits == 64 ? "l" : "r"; }

void emit_mma(std::ostream& os, const Nest& nest, const MmaStmt& mma) {
  const MmaInst& inst = *nest.inst;
  check_registers(mma.d, inst.frame(Operand::C).regs, nest.d, "D");
  check_registers(mma.a, inst.frame(Operand::A).regs, nest.a, "A");
  check_registers(mma.b, inst.frame(Operand::B).regs, nest.b, "B");
  check_registers(mma.c, inst.frame(Operand::C).regs, nest.d, "C (D's registers)");
  int next = 0;
  auto group = [&](std::size_t count) {
    std::string s = "{";
    for (std::size_t i = 0; i < count; ++i) s += (i ? ", %" : "%") + std::to_string(next++);
    return s + "}";
  };
  os << "  // tile (" << mma.tile_m << ", " << mma.tile_n << ", " << mma.tile_k << ")\n";
  os << "  asm volatile(\"" << inst.ptx() << " ";
  os << group(mma.d.size()) << ", " << group(mma.a.size()) << ", " << group(mma.b.size()) << ", " << group(mma.c.size())
     << ";\"\n";
  auto operands = [](const std::string& con, const char* array, const std::vector<int>& regs) {
    std::string s;
    for (std::size_t i = 0; i < regs.size(); ++i)
      s += (i ? ", \"" : "\"") + con + "\"(" + array + "[" + std::to_string(regs[i]) + "])";
    return s;
  };
  const std::string d_reg = constraint(nest.d);
  os << "               : " << operands("=" + d_reg, "d", mma.d) << "\n";
  os << "               : " << operands(constraint(nest.a), "a", mma.a) << ",\n";
  os << "                 " << operands(constraint(nest.b), "b", mma.b) << ",\n";
  os << "                 " << operands(d_reg, "d", mma.c) << ");\n";
}

}  // namespace

CudaBufferAbi cuda_buffer_abi(const NestOperand& operand) {
  CudaBufferAbi abi;
  abi.elem_bits = dtype_bits(operand.dtype);
  abi.word_bits = abi.elem_bits == 64 ? 64 : 32;
  abi.words = (operand.slots + abi.per_word() - 1) / abi.per_word();
  return abi;
}

std::string emit_cuda(const Nest& nest, const EmitCudaOptions& options) {
  if (!nest.inst) throw Error("nest has no instruction");
  const CudaBufferAbi d = cuda_buffer_abi(nest.d), a = cuda_buffer_abi(nest.a), b = cuda_buffer_abi(nest.b),
                      c = cuda_buffer_abi(nest.c);
  std::ostringstream os;
  os << "// " << nest.inst->ptx() << ": " << nest.tiles_m << " x " << nest.tiles_n << " x " << nest.tiles_k
     << " tiles per warp, " << nest.mma_count() << " mma, " << nest.c_term() << "\n"
     << "// D '" << nest.d.buffer << "' " << d.words << " x " << d.word_bits << "-bit words, A '" << nest.a.buffer
     << "' " << a.words << ", B '" << nest.b.buffer << "' " << b.words << ", C '" << nest.c.buffer << "' " << c.words
     << "; slot s is word s / per_word, low elements first\n";
  os << "__device__ __forceinline__ void " << options.function_name << "(" << d.word_type() << " (&d)[" << d.words
     << "], const " << a.word_type() << " (&a)[" << a.words << "], const " << b.word_type() << " (&b)[" << b.words
     << "], const " << c.word_type() << " (&c)[" << c.words << "]) {\n";
  const bool reads_c = std::any_of(nest.stmts.begin(), nest.stmts.end(), [](const NestStmt& s) {
    const auto* init = std::get_if<InitStmt>(&s);
    return init && !init->c_slots.empty();
  });
  if (!reads_c) os << "  (void)c;  // no initialisation copies from C\n";
  for (const NestStmt& stmt : nest.stmts) {
    if (const auto* init = std::get_if<InitStmt>(&stmt)) emit_init(os, nest, *init);
    else emit_mma(os, nest, std::get<MmaStmt>(stmt));
  }
  os << "}\n";
  return os.str();
}

}  // namespace mmacheck
