#include "core/gemm/sparse_inst.h"

namespace mmacheck {

namespace {
using D = DType;
// One instruction a row: tag, logical m, n, k, D/A/B/C types, oldest sm.
// PTX ISA §9.7.14.6.2 (16-bit m16n8k16 and m16n8k32, tf32 m16n8k8 and
// m16n8k16, 8-bit m16n8k32 and m16n8k64), sm_80 on; a last `true`: `.satfinite`.
// clang-format off
constexpr SparseMmaInst kSparse[] = {
    {"sp.m16n8k16.f16", 16, 8, 16, D::f16, D::f16, D::f32, D::f32, 80},
    {"sp.m16n8k16.bf16", 16, 8, 16, D::bf16, D::bf16, D::f32, D::f32, 80},
    {"sp.m16n8k16.f16.f16acc", 16, 8, 16, D::f16, D::f16, D::f16, D::f16, 80},
    {"sp.m16n8k32.f16", 16, 8, 32, D::f16, D::f16, D::f32, D::f32, 80},
    {"sp.m16n8k32.bf16", 16, 8, 32, D::bf16, D::bf16, D::f32, D::f32, 80},
    {"sp.m16n8k32.f16.f16acc", 16, 8, 32, D::f16, D::f16, D::f16, D::f16, 80},
    {"sp.m16n8k8.tf32", 16, 8, 8, D::tf32, D::tf32, D::f32, D::f32, 80},
    {"sp.m16n8k16.tf32", 16, 8, 16, D::tf32, D::tf32, D::f32, D::f32, 80},
    {"sp.m16n8k32.s8", 16, 8, 32, D::s8, D::s8, D::s32, D::s32, 80},
    {"sp.m16n8k32.u8", 16, 8, 32, D::u8, D::u8, D::s32, D::s32, 80},
    {"sp.m16n8k32.s8.u8", 16, 8, 32, D::s8, D::u8, D::s32, D::s32, 80},
    {"sp.m16n8k32.u8.s8", 16, 8, 32, D::u8, D::s8, D::s32, D::s32, 80},
    {"sp.m16n8k32.s8.satfinite", 16, 8, 32, D::s8, D::s8, D::s32, D::s32, 80, true},
    {"sp.m16n8k64.s8", 16, 8, 64, D::s8, D::s8, D::s32, D::s32, 80},
    {"sp.m16n8k64.u8", 16, 8, 64, D::u8, D::u8, D::s32, D::s32, 80},
    {"sp.m16n8k64.s8.u8", 16, 8, 64, D::s8, D::u8, D::s32, D::s32, 80},
    {"sp.m16n8k64.u8.s8", 16, 8, 64, D::u8, D::s8, D::s32, D::s32, 80},
    {"sp.m16n8k64.s8.satfinite", 16, 8, 64, D::s8, D::s8, D::s32, D::s32, 80, true},
};
// clang-format on

std::string shape_of(int m, int n, int k) {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}
}  // namespace

std::string SparseMmaInst::shape() const { return shape_of(m, n, k); }

std::string SparseMmaInst::ptx(bool ordered) const {
  std::string s = ordered ? "mma.sp::ordered_metadata" : "mma.sp";
  s += ".sync.aligned." + shape() + ".row.col";
  if (satfinite) s += ".satfinite";
  for (DType t : {d, a, b, c}) s += "." + std::string(dtype_info(t).ptx);
  return s;
}

const Frame& SparseMmaInst::a_frame() const { return find_frame(shape_of(m, n, k / 2), Operand::A, dtype_bits(a)); }
const Frame& SparseMmaInst::b_frame() const { return find_frame(shape(), Operand::B, dtype_bits(b)); }
const Frame& SparseMmaInst::c_frame() const { return find_frame(shape(), Operand::C, dtype_bits(c)); }

MmaInst SparseMmaInst::logical() const {
  return MmaInst{tag, m, n, k, a, b, c, d, 32 / dtype_bits(a), false, min_sm, satfinite, BitOp::none, ""};
}

std::span<const SparseMmaInst> sparse_instructions() { return kSparse; }

const SparseMmaInst* find_sparse_inst(std::string_view name) {
  for (const SparseMmaInst& s : kSparse)
    if (s.tag == name || s.ptx(true) == name || s.ptx(false) == name) return &s;
  return nullptr;
}

}  // namespace mmacheck
