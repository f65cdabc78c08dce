#include "sim/check/sim_check.h"

#include "sim/check/direct_eval.h"
#include "sim/check/operand_index.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

SimCheck::SimCheck(const Program& program, const Nest& nest, const ArchParams& arch)
    : machine_(program, nest, arch), geometry_(gemm_geometry(program)), specs_(input_specs(program)) {}

GemmInputs SimCheck::random_case(int index, std::uint64_t seed, InputSet inputs) const {
  return random_gemm_inputs(specs_.a, specs_.b, specs_.c, case_distribution(index, inputs), seed, index);
}

std::vector<ElementCheck> SimCheck::failures(const GemmInputs& inputs) {
  const MmaInst& inst = *machine_.nest().inst;
  const std::vector<std::uint64_t> got = machine_.run(inputs);
  const Matrix direct = direct_eval(geometry_, inst, machine_.arch(), inputs);
  const Reference ref = eigen_reference(geometry_, inst, machine_.arch(), inputs);
  const OperandPlace& d = geometry_.d;
  const OperandIndex at_d(d);
  std::vector<ElementCheck> out;
  for (std::int64_t i = 0; i < geometry_.m; ++i)
    for (std::int64_t j = 0; j < geometry_.n; ++j) {
      const std::uint64_t bits = got[static_cast<std::size_t>(at_d(i, j))];
      const Expectation& expect = ref.at(i, j);
      const bool bit_exact = bits == direct.at(i, j), within = accepts(expect, d.dtype(), bits);
      if (bit_exact && within) continue;
      const Shape c = d.to_buffer(i, j);
      out.push_back({c[0], c[1], bits, direct.at(i, j), expect, bit_exact, within});
    }
  return out;
}

}  // namespace mmacheck::sim
