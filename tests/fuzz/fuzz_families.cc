// libFuzzer harness: one input through every instruction family's reader
// and check, as the front door may route it (cli/input_kinds.h): wgmma
// operand files and the fence/commit/wait order of a kernel's PTX, TMA
// copies, tcgen05 files and TIRx dumps, mma.sp metadata, block-scale
// placements.  Each reader either reads the text or refuses it with a
// located Error; the checks run on whatever was read.
#include "core/scales/scale_check.h"
#include "core/scales/scale_reader.h"
#include "core/sparse/sparse_check.h"
#include "core/sparse/sparse_reader.h"
#include "core/tma/tma_check.h"
#include "core/tma/tma_reader.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_order.h"
#include "core/wgmma/wgmma_reader.h"
#include "core/tcgen05/tcgen05_check.h"
#include "core/tcgen05/tcgen05_reader.h"
#include "core/tcgen05/tcgen05_tirx.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  const std::string_view text = fuzz::as_text(data, size);
  const std::string path = "fuzz.txt";
  fuzz::run_one([&] {
    for (const WgmmaCase& c : read_wgmma_file(text, path)) (void)check_wgmma(c);
  });
  fuzz::run_one([&] { (void)check_wgmma_order(text, path); });
  fuzz::run_one([&] {
    for (const TmaCase& c : read_tma_file(text, path)) (void)check_tma(c);
  });
  fuzz::run_one([&] { (void)check_tcgen05(read_tcgen05_file(text, path)); });
  fuzz::run_one([&] { (void)check_tcgen05(read_tcgen05_tirx(text, path)); });
  fuzz::run_one([&] { (void)check_sparse(read_sparse_file(text, path)); });
  fuzz::run_one([&] {
    for (const ScaleCase& c : read_scale_file(text, path)) {
      if (c.a) (void)check_scales(*c.inst, *c.a);
      if (c.b) (void)check_scales(*c.inst, *c.b);
    }
  });
  return 0;
}
