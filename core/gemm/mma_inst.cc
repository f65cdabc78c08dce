#include "core/gemm/mma_inst.h"

namespace mmacheck {

namespace {
using D = DType;
constexpr MmaInst kInstructions[] = {
    // TVM's MMA_INSTRUCTIONS, in TVM's order (k16 before k8).
    {"m16n8k16.bf16", 16, 8, 16, D::bf16, D::bf16, D::f32, D::f32, 2, true, 80},
    {"m16n8k16.f16", 16, 8, 16, D::f16, D::f16, D::f32, D::f32, 2, true, 80},
    {"m16n8k8.bf16", 16, 8, 8, D::bf16, D::bf16, D::f32, D::f32, 2, true, 80},
    {"m16n8k8.f16", 16, 8, 8, D::f16, D::f16, D::f32, D::f32, 2, true, 75},
    // --inst-set extended.
    {"m16n8k16.f16.f16acc", 16, 8, 16, D::f16, D::f16, D::f16, D::f16, 2, false, 80},
    {"m16n8k8.f16.f16acc", 16, 8, 8, D::f16, D::f16, D::f16, D::f16, 2, false, 75},
    {"m16n8k8.tf32", 16, 8, 8, D::tf32, D::tf32, D::f32, D::f32, 1, false, 80},
    {"m16n8k4.tf32", 16, 8, 4, D::tf32, D::tf32, D::f32, D::f32, 1, false, 80},
    {"m16n8k32.s8", 16, 8, 32, D::s8, D::s8, D::s32, D::s32, 4, false, 80},
    {"m16n8k32.u8", 16, 8, 32, D::u8, D::u8, D::s32, D::s32, 4, false, 80},
    {"m16n8k16.s8", 16, 8, 16, D::s8, D::s8, D::s32, D::s32, 4, false, 80},
    {"m16n8k16.u8", 16, 8, 16, D::u8, D::u8, D::s32, D::s32, 4, false, 80},
    {"m16n8k32.e4m3", 16, 8, 32, D::e4m3, D::e4m3, D::f32, D::f32, 4, false, 89},
    {"m16n8k32.e5m2", 16, 8, 32, D::e5m2, D::e5m2, D::f32, D::f32, 4, false, 89},
    {"m8n8k4.f64", 8, 8, 4, D::f64, D::f64, D::f64, D::f64, 1, false, 80},
};
}  // namespace

std::string MmaInst::shape() const {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

std::string MmaInst::ptx() const {
  std::string s = "mma.sync.aligned." + shape() + ".row.col";
  for (DType t : {d, a, b, c}) s += "." + std::string(dtype_info(t).ptx);
  return s;
}

const Frame& MmaInst::frame(Operand op) const {
  const DType t = op == Operand::A ? a : op == Operand::B ? b : c;
  return find_frame(shape(), op, dtype_bits(t));
}

std::vector<std::int64_t> MmaInst::view_coord(Operand op, int elem) const {
  switch (op) {
    case Operand::A: {
      const int q = elem / k_pack;
      return {q % m_regs(), q / m_regs(), elem % k_pack};
    }
    case Operand::B: return {elem / k_pack, elem % k_pack};
    case Operand::C: return {elem / n_regs(), elem % n_regs()};
  }
  return {};
}

std::span<const MmaInst> mma_instructions() { return kInstructions; }

const MmaInst* find_mma_inst(std::string_view ptx) {
  for (const MmaInst& inst : kInstructions)
    if (inst.ptx() == ptx) return &inst;
  return nullptr;
}

}  // namespace mmacheck
