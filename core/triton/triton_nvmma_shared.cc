#include "core/triton/triton_nvmma_shared.h"

#include <string_view>

#include "core/wgmma/canonical_layout.h"

namespace mmacheck {

namespace {

// TTGIR's element names against wgmma's (f32 operands are read as tf32).
struct ElementName {
  std::string_view ttgir, wgmma;
  int bits;
};
constexpr ElementName kElementNames[] = {
    {"f16", "f16", 16},      {"bf16", "bf16", 16},  {"f32", "tf32", 32},
    {"f8E4M3FN", "e4m3", 8}, {"f8E5M2", "e5m2", 8}, {"i8", "s8", 8},
};

}  // namespace

std::string wgmma_type_of(const std::string& ttgir_element) {
  for (const ElementName& e : kElementNames)
    if (e.ttgir == ttgir_element) return std::string(e.wgmma);
  return "";
}

TritonReport judge_nvmma_operand(const NvmmaSharedOperand& op) {
  TritonReport r;
  r.name = op.name;
  r.role = op.operand == 'A' ? TritonRole::a : TritonRole::b;
  const auto refute = [&](const std::string& why) {
    r.result = FrameVerdict::refuted;
    r.message = std::string(1, op.operand) + " in shared memory: " + why;
    return r;
  };
  const std::string type_name = wgmma_type_of(op.element);
  const WgmmaType* type = find_wgmma_type(type_name);
  if (!type) return refute("no wgmma takes " + op.element + " operands");
  const int bits = type->bytes * 8;
  const NvmmaSharedEncoding& enc = op.encoding;
  // transposed = false: the last dim contiguous (A's K, B's N).
  const Major major = (op.operand == 'A') == !enc.transposed ? Major::k : Major::mn;
  WgmmaOperand w;
  w.operand = op.operand;
  w.type = type;
  w.rows = op.operand == 'A' ? 64 : op.instr_n;
  w.k = op.instr_k;
  w.major = major;
  r.instruction = "wgmma.mma_async " + w.instruction();
  if (enc.element_bits != bits)
    return refute("#ttg.nvmma_shared says elementBitWidth = " + std::to_string(enc.element_bits) +
                  ", the buffer holds " + op.element + " (" + std::to_string(bits) + " bits)");
  // Each wgmma reads a 64 x K (A) or N x K (B) tile of the buffer.
  const std::int64_t mn_extent = op.operand == 'A' ? op.shape[0] : op.shape[1];
  const std::int64_t k_extent = op.operand == 'A' ? op.shape[1] : op.shape[0];
  if (k_extent % op.instr_k || mn_extent % w.rows)
    return refute("the buffer is " + std::to_string(op.shape[0]) + "x" + std::to_string(op.shape[1]) +
                  "; each wgmma (instrShape K " + std::to_string(op.instr_k) +
                  (op.operand == 'B' ? ", N " + std::to_string(op.instr_n) : std::string(", M 64")) +
                  ") reads whole tiles of it, which do not fit");
  if (const std::string why = w.problem(); !why.empty())
    return refute("wgmma would read it as " + w.instruction() + ": " + why);
  if (enc.swizzle_bytes != 0 && enc.swizzle_bytes != 32 && enc.swizzle_bytes != 64 && enc.swizzle_bytes != 128)
    return refute("swizzlingByteWidth = " + std::to_string(enc.swizzle_bytes) +
                  " is no wgmma swizzle mode (0, 32, 64, 128 bytes)");
  const std::size_t contiguous = enc.transposed ? 0 : 1;
  const std::int64_t row_bytes = op.shape[contiguous] * type->bytes;
  const char* dim = (op.operand == 'A') == (contiguous == 1) ? "K" : (op.operand == 'A' ? "M" : "N");
  if (row_bytes < enc.swizzle_bytes)
    return refute(
        "its contiguous dim (" + std::string(dim) + ", " + std::to_string(op.shape[contiguous]) + " x " + type_name +
        ") is " + std::to_string(row_bytes) + " bytes, narrower than one " + std::to_string(enc.swizzle_bytes) +
        "-byte swizzle row (Triton's verifier rejects such a buffer: block shape along the contiguous dimension is "
        "too small for the swizzle byte size)");
  r.result = FrameVerdict::unchecked;
  r.message = std::string(1, op.operand) + " in shared memory, " + std::string(major_name(major)) + "-major, " +
              (enc.swizzle_bytes ? std::to_string(enc.swizzle_bytes) + "B swizzle" : std::string("no swizzle")) +
              " (a canonical layout wgmma reads): which element wgmma reads is the descriptor's the lowering builds, "
              "not in the TTGIR (mmacheck wgmma checks descriptors)";
  return r;
}

}  // namespace mmacheck
