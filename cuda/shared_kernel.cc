#include "cuda/shared_kernel.h"

#include <algorithm>
#include <sstream>

#include "core/base/error.h"

namespace mmacheck::cuda {

namespace {

std::string_view elem_type(int width) {
  switch (width) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    default: return "unsigned long long";
  }
}

std::string hex_mask(int bits) {
  std::ostringstream os;
  os << "0x" << std::hex << (bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1) << "ull";
  return os.str();
}

std::size_t append(std::vector<std::int32_t>& table, const std::vector<std::int32_t>& part) {
  const std::size_t at = table.size();
  table.insert(table.end(), part.begin(), part.end());
  return at;
}

// Per lane: the byte offset of its address (0 for lanes that give none).
std::vector<std::int32_t> lane_bytes(const SharedAccess& a, int width) {
  std::vector<std::int32_t> out(32, 0);
  for (int l = 0; l < 32; ++l)
    if (a.lane_offset[l] >= 0) out[l] = static_cast<std::int32_t>(a.lane_offset[l] * width);
  return out;
}

void check_first_slot(const SharedAccess& a, const CudaBufferAbi& abi) {
  if (a.slot % abi.per_word() != 0)
    throw Error(a.stmt ? a.stmt->loc : SourceLoc{}, a.label + " starts at slot " + std::to_string(a.slot) +
                                                        ", inside a register (" + std::to_string(abi.per_word()) +
                                                        " slots each)");
}

void emit_matrix_copy(std::ostream& os, const SharedKernelPart& part, const SharedAccess& a, std::size_t at) {
  check_first_slot(a, part.abi);
  const int first = a.slot / part.abi.per_word();
  const int n = a.copy->num;
  os << "  {  // " << a.label << "\n"
     << "    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(" << part.name << ")) + table[" << at
     << " + (t % 32)];\n";
  std::string regs;
  for (int i = 0; i < n; ++i) regs += (i ? ", " : "") + std::string("%") + std::to_string(a.copy->store ? i + 1 : i);
  if (a.copy->store) {
    os << "    asm volatile(\"" << a.copy->ptx << " [%0], {" << regs << "};\\n\" :: \"r\"(addr)";
    for (int i = 0; i < n; ++i) os << ", \"r\"(" << part.array << "[" << first + i << "])";
    os << " : \"memory\");\n";
  } else {
    os << "    asm volatile(\"" << a.copy->ptx << " {" << regs << "}, [%" << n << "];\\n\" : ";
    for (int i = 0; i < n; ++i) os << (i ? ", " : "") << "\"=r\"(" << part.array << "[" << first + i << "])";
    os << " : \"r\"(addr) : \"memory\");\n";
  }
  os << "  }\n";
}

}  // namespace

void emit_shared_declaration(std::ostream& os, const SharedKernelPart& part, const SharedStage& stage) {
  const std::int64_t align = std::max<std::int64_t>(stage.reader.align, 128);
  os << "  __shared__ __align__(" << align << ") unsigned char " << part.name << "[" << stage.reader.bytes() << "];\n";
}

void emit_shared_load(std::ostream& os, const SharedKernelPart& part, const SharedStage& stage, int threads,
                      std::vector<std::int32_t>& table) {
  const int width = stage.reader.width;
  const std::string_view et = elem_type(width);
  const std::size_t fill = append(table, stage.matrix_at);
  os << "  {  // fill " << stage.shared << " (" << stage.reader.alloc << " elements)\n"
     << "    " << et << "* s = reinterpret_cast<" << et << "*>(" << part.name << ");\n"
     << "    for (int o = t; o < " << stage.reader.alloc << "; o += " << threads << ") {\n"
     << "      const int i = table[" << fill << " + o];\n"
     << "      s[o] = i >= 0 ? static_cast<" << et << ">(" << part.global << "[i] & " << hex_mask(8 * width)
     << ") : 0;\n"
     << "    }\n"
     << "  }\n"
     << "  __syncthreads();\n";
  for (const SharedAccess& a : stage.accesses) {
    // Matrix copies address bytes, plain accesses index elements.
    const std::size_t at = append(table, lane_bytes(a, a.copy ? width : 1));
    if (a.copy) {
      emit_matrix_copy(os, part, a, at);
      continue;
    }
    const int pw = part.abi.per_word();
    os << "  " << part.array << "[" << a.slot / pw << "] |= static_cast<" << part.abi.word_type()
       << ">(reinterpret_cast<const " << et << "*>(" << part.name << ")[table[" << at << " + (t % 32)]]) << "
       << (a.slot % pw) * part.abi.elem_bits << ";  // " << a.label << ", slot " << a.slot << "\n";
  }
}

void emit_shared_store(std::ostream& os, const SharedKernelPart& part, const SharedStage& stage, int threads,
                       std::vector<std::int32_t>& table) {
  const int width = stage.reader.width;
  const std::string_view et = elem_type(width);
  // Offsets no store reaches drain as 0, as in the simulator.
  os << "  for (int o = t; o < " << stage.reader.bytes() << "; o += " << threads << ") " << part.name << "[o] = 0;\n"
     << "  __syncthreads();\n";
  for (const SharedAccess& a : stage.accesses) {
    const std::size_t at = append(table, lane_bytes(a, a.copy ? width : 1));
    if (a.copy) {
      emit_matrix_copy(os, part, a, at);
      continue;
    }
    const int pw = part.abi.per_word();
    os << "  reinterpret_cast<" << et << "*>(" << part.name << ")[table[" << at << " + (t % 32)]] = static_cast<" << et
       << ">((" << part.array << "[" << a.slot / pw << "] >> " << (a.slot % pw) * part.abi.elem_bits << ") & "
       << hex_mask(part.abi.elem_bits) << ");  // " << a.label << ", slot " << a.slot << "\n";
  }
  const std::size_t drain = append(table, stage.matrix_at);
  os << "  __syncthreads();\n"
     << "  {  // drain " << stage.shared << "\n"
     << "    const " << et << "* s = reinterpret_cast<const " << et << "*>(" << part.name << ");\n"
     << "    for (int o = t; o < " << stage.reader.alloc << "; o += " << threads << ") {\n"
     << "      const int i = table[" << drain << " + o];\n"
     << "      if (i >= 0) " << part.global << "[i] = s[o];\n"
     << "    }\n"
     << "  }\n";
}

}  // namespace mmacheck::cuda
