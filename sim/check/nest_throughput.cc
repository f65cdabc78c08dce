#include "sim/check/nest_throughput.h"

#include <memory>
#include <vector>

#include "core/base/error.h"
#include "sim/check/input_specs.h"
#include "sim/machine/warp_machine.h"

namespace mmacheck::sim {

Phase nest_phase(std::string name, const Program& program, const Nest& nest, const ArchParams& arch, Distribution dist,
                 int threads) {
  if (threads < 1) throw Error("bench: threads must be at least 1");
  constexpr int kCases = 4;  // per thread, drawn once: the timing is of the machine, not of the generator
  const InputSpecs specs = input_specs(program);
  struct Worker {
    std::unique_ptr<WarpMachine> machine;
    std::vector<GemmInputs> cases;
  };
  const auto workers = std::make_shared<std::vector<Worker>>();
  for (int t = 0; t < threads; ++t) {
    Worker w{std::make_unique<WarpMachine>(program, nest, arch), {}};
    for (int i = 0; i < kCases; ++i)
      w.cases.push_back(random_gemm_inputs(specs.a, specs.b, specs.c, dist, 0x5eed + t, i));
    workers->push_back(std::move(w));
  }
  const std::uint64_t mma_per_run = static_cast<std::uint64_t>(nest.mma_count()) * workers->front().machine->warps();
  return {std::move(name), [workers, mma_per_run](int t) {
            Worker& w = (*workers)[static_cast<std::size_t>(t)];
            for (const GemmInputs& in : w.cases) w.machine->run(in);
            return mma_per_run * kCases;
          }};
}

}  // namespace mmacheck::sim
