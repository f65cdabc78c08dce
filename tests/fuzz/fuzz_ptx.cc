// libFuzzer harness: the PTX front end (core/ptx): one input read as a PTX
// module, and each kernel of it run on the CTA machine for one warp with a
// small tensor behind every 64-bit parameter and 16 in every other, the
// steps bounded.  The reader reads the text or refuses it with a located
// Error; the machine runs, refutes, or stops at its bounds.
#include "core/ptx/cta_machine.h"
#include "core/ptx/ptx_reader.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  using namespace mmacheck::ptx;
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::run_one([&] {
    const PtxModule m = read_ptx(text, "fuzz.ptx");
    for (const PtxKernel& k : m.kernels) {
      GlobalMemory memory;
      std::vector<std::uint64_t> params;
      for (const int p : k.params) {
        const Symbol& s = k.symbols[static_cast<std::size_t>(p)];
        if (s.type.bits == 64) {
          TensorArg t;
          t.name = s.name;
          t.dtype = DType::f16;
          t.shape = {16, 16};
          t.strides = {16, 1};
          params.push_back(memory.add(t));
        } else {
          params.push_back(16);
        }
      }
      Provenance provenance(k.code.size());
      RunOptions options;
      options.max_steps = 20000;
      GridShape shape;
      shape.dynamic_shared = 1024;
      (void)run_grid(k, shape, params, memory, provenance, options);
    }
  });
  return 0;
}
