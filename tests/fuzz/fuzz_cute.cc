// libFuzzer harness: a CuTe trait header or atom list (core/program/
// cute_traits.h) read and every atom and TiledMMA checked.  Bad input must be
// a located Error; a crash, a hang, a stack overflow or memory past the
// limit is a finding.  As a header when the input mentions MMA_Traits, as an
// atom list otherwise (read_cute_file's rule).
#include "core/cute/cute_traits.h"
#include "core/cute/cute_check.h"
#include "core/cute/cute_tiled_check.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return fuzz::run_one([&] {
    const Limits limits = fuzz::small_limits();
    const std::string text(fuzz::as_text(data, size));
    for (const CuteAtomTraits& atom : read_cute_file(text, "fuzz.hpp", limits)) {
      const CuteAtomReport r = atom.tiled ? check_cute_tiled(atom, limits) : check_cute_atom(atom);
      for (const CuteOperandReport& o : r.operands)
        if (o.counterexample) (void)describe(*o.counterexample);
    }
  });
}
