#include <array>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

namespace {
// One row per architecture that MMA-Sim 2.1.1 models for mma.sync.
// Columns: name, MMA-Sim's family, sm; products per fused block for
// f16/bf16 and for tf32; kept_bits; the zero-term exponent for f32 and for
// f16 output; the fp8 path and, for a fused one, its block, kept_bits and
// the fraction bits of its f32 result; the row whose arithmetic runs
// m8n8k4 f16 (Volta's; sm_70 has no other fused instruction, and no tf32:
// its block_tf32 is 0).  sm_90 is verified on an H200 (the
// shared vectors and the edge captures, docs/gpu.md), every row against
// MMA-Sim (scripts/mmasim/compare.py, docs/numerics.md).
constexpr std::array kArchParams = {
    ArchParams{"sm_70", "Volta", 70, 4, 0, 23, -131, -19, Fp8Path::none, 0, 0, 0, "sm_70"},
    ArchParams{"sm_75", "Turing", 75, 8, 4, 24, -132, -20, Fp8Path::none, 0, 0, 0, "sm_70"},
    ArchParams{"sm_80", "Ampere", 80, 8, 4, 24, -132, -20, Fp8Path::none, 0, 0, 0},
    ArchParams{"sm_86", "Ampere", 86, 8, 4, 24, -132, -20, Fp8Path::none, 0, 0, 0},
    ArchParams{"sm_87", "Ampere", 87, 8, 4, 24, -132, -20, Fp8Path::none, 0, 0, 0},  // Jetson Orin
    ArchParams{"sm_89", "Ada Lovelace", 89, 8, 4, 24, -132, -20, Fp8Path::fused, 16, 13, 13},
    ArchParams{"sm_90", "Hopper", 90, 16, 8, 25, -133, -21, Fp8Path::emulated, 0, 0, 0},
    ArchParams{"sm_100", "Blackwell", 100, 16, 8, 25, -133, -21, Fp8Path::none, 0, 0, 0},
    ArchParams{"sm_120", "RTX Blackwell", 120, 16, 8, 25, -133, -21, Fp8Path::fused, 32, 25, 23},
};
}  // namespace

std::span<const ArchParams> all_arch_params() { return kArchParams; }

std::string arch_names() {
  std::string names;
  for (const ArchParams& p : kArchParams) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

const ArchParams& arch_params(std::string_view name) {
  for (const ArchParams& p : kArchParams)
    if (p.name == name) return p;
  throw Error("unknown architecture '" + std::string(name) + "' (known: " + arch_names() + ")");
}

}  // namespace mmacheck::sim
