// libFuzzer harness: a `mmacheck triton` layouts file (core/program/
// triton_dot.h), read and checked (core/triton/triton_check.h).
#include "core/triton/triton_dot.h"
#include "core/triton/triton_check.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return mmacheck::fuzz::run_one([&] {
    const std::vector<TritonDotOperand> operands =
        read_triton_file(std::string(fuzz::as_text(data, size)), "fuzz.json");
    (void)check_triton(operands);
  });
}
