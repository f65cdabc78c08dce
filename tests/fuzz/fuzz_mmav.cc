// libFuzzer harness: a .mmav vector file, parsed and run (`mmacheck mma`)
// on both arithmetic models.
#include "sim/numerics/mma_model.h"
#include "sim/vectors/vector_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return mmacheck::fuzz::run_one([&] {
    const sim::VectorFile file = sim::parse_vector_file(fuzz::as_text(data, size), "fuzz.mmav");
    (void)sim::run_vector_file(file, sim::arch_params("sm_90"), 4);
    (void)sim::run_vector_file(file, sim::arch_params("sm_80"), 4);
  });
}
