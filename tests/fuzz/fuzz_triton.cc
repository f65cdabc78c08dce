// libFuzzer harness: a `mmacheck triton` layouts file (core/triton/
// triton_dot.h) or TTGIR text (core/triton/triton_ttgir.h), read and checked
// (core/triton/triton_check.h).
#include "core/triton/triton_check.h"
#include "core/triton/triton_dot.h"
#include "core/triton/triton_ttgir.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return mmacheck::fuzz::run_one([&] {
    const std::string text(fuzz::as_text(data, size));
    if (is_ttgir_text(text)) {
      (void)check_triton(read_ttgir(text, "fuzz.ttgir").operands);
      return;
    }
    const std::vector<TritonDotOperand> operands = read_triton_file(text, "fuzz.json");
    (void)check_triton(operands);
  });
}
