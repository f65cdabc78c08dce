// CuteAtomName — what a CUTLASS MMA atom's name says about its instruction.
//
// Three families (`family`): mma.sync (here), and the warpgroup wgmma (GMMA)
// and tcgen05 (UMMA) atoms, whose names core/cute/cute_gmma_name.h decodes.
//
// CUTLASS names warp-level atoms SM<arch>_<M>x<N>x<K>_<D><A><B><C>_<layout>
// with an optional suffix: SM80_16x8x32_S32S4S4S32_TN_SATURATE is
// mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s4.s4.s32.  The type tokens
// and suffixes form the table in cute_atom_name.cc; complex atoms (C64, GC64)
// are CUTLASS compositions of real f64 mma.sync with the same layouts, so they
// name the f64 instruction and say so in `note`.
//
//     decode_atom_name("SM80_16x8x8_F32TF32TF32F32_TN")->ptx
//       == "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
//     decode_atom_name("SM70_8x8x4_F32F16F16F32_NT") -> nullopt (why: in `problem`)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mmacheck {

enum class CuteMmaFamily : std::uint8_t { mma_sync, wgmma, umma };

struct CuteAtomName {
  CuteMmaFamily family = CuteMmaFamily::mma_sync;
  int arch = 0;  // 80 for SM80_
  int m = 0, n = 0, k = 0;
  std::string shape;                       // "m16n8k32"
  std::string ptx;                         // the full instruction
  int a_bits = 0, b_bits = 0, c_bits = 0;  // element bits in the registers (tf32: 32)
  std::array<std::string, 4> types;        // the name's type tokens, D A B C: {"F32", "F16", "F16", "F32"}
  std::string note;                        // "" or e.g. "complex: composed of real f64 mma.sync"
  // wgmma and UMMA: where A comes from ("registers", "shared memory",
  // "tensor memory"; B is always in shared memory), the wgmma frame's shape
  // ("m64nNk16") and UMMA's cta_group (1, or 2 for the 2x1SM atoms).
  std::string a_source = "registers";
  std::string frame_shape;
  int cta_group = 0;
};

// The instruction an atom's name names, or nullopt with the reason in
// `problem` (not an mma atom name, unknown type token, layout other than
// TN, unknown suffix).  wgmma (SM90_..._SS/_RS) and UMMA (SM100_MMA_...)
// names go to decode_gmma_name / decode_umma_name.
std::optional<CuteAtomName> decode_atom_name(std::string_view name, std::string* problem = nullptr);

}  // namespace mmacheck
