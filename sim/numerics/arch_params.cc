#include <array>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

namespace {
// One row per architecture (docs/numerics.md gives the sources):
// name, sm, products per fused block (f16/bf16, tf32), bits kept below the
// largest exponent when terms are aligned, the exponent a zero term takes in
// that maximum.  sm_90: the shared H200 vectors and targeted H200 probes;
// sm_80: MMA-Sim and Khattak & Mikaitis (its zero-term exponent is assumed
// equal to sm_90's, unmeasured).
constexpr std::array kArchParams = {
    ArchParams{"sm_90", 90, 16, 8, 25, -133},
    ArchParams{"sm_80", 80, 8, 4, 24, -133},
};
}  // namespace

std::span<const ArchParams> all_arch_params() { return kArchParams; }

const ArchParams& arch_params(std::string_view name) {
  for (const ArchParams& p : kArchParams)
    if (p.name == name) return p;
  std::string known;
  for (const ArchParams& p : kArchParams) known += (known.empty() ? "" : ", ") + std::string(p.name);
  throw Error("unknown architecture '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace mmacheck::sim
