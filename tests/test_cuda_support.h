// Helpers for the CUDA backend tests: hand-built nests, compiling emitted
// functions with nvcc (no GPU needed), the example files, and an exact gemm
// reference for integer-valued inputs (which every accumulation order sums
// exactly), so GPU runs can be checked without the simulator.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/gemm/mma_inst.h"
#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "core/gemm/staging.h"
#include "sim/numerics/gemm_inputs.h"

namespace mmacheck::test {

const MmaInst& inst(const std::string& ptx);

// The seed's m16n8k16 f16 tile: Init{0,0,{0,1,2,3},{}}, Mma{d{0,1,2,3},
// a{0,1,2,3}, b{0,1}, c{0,1,2,3}}; D is buffer "D" used as C too.
Nest seed_nest();
// tm x tn x tk tiles of `instr`, operand slots laid out tile after tile
// (A by (m, k), B by (k, n), D by (m, n)); beta = 1 copies from a distinct
// C buffer whose tiles are in reverse order.
Nest tiled_nest(const MmaInst& instr, int tm, int tn, int tk, bool beta);

// A kernel `k_<name>` that loads the arrays from global memory, calls the
// emitted function `name` and stores d: makes nvcc compile the function.
std::string nvcc_wrapper(const Nest& nest, const std::string& name);
struct CompileResult {
  bool ok = false;
  std::string log;
};
// Whether the toolkit's nvcc (MMACHECK_NVCC) is there: the device machine
// may have the driver and NVRTC only.
bool have_nvcc();
// nvcc -c `source` for sm_<sm> (a scratch file under /tmp, removed after).
CompileResult nvcc_compile(const std::string& source, int sm);

struct Example {
  std::string path;
  InstSet set = InstSet::tvm;  // extended when its first comment line says `--inst-set extended`
};
std::vector<Example> examples();
// The examples that parse and dispatch, loaded (examples of bad input and
// declined ones left out).
struct DispatchedExample {
  std::string path;
  InstSet set = InstSet::tvm;
  Program program;
  Plan plan;
};
std::vector<DispatchedExample> dispatched_examples();

// The seed program (examples/seed.txt) without stage/store statements.
extern const char* const kSeedProgram;

// Small integers (|x| <= 3; u8: 0..3) in every element of the gemm's
// buffers, seeded.
sim::GemmInputs integer_inputs(const Program& program, std::uint64_t seed);
// What the kernel writes for D's buffer when staged from the layouts: D =
// op(A) @ op(B) (+ C) on the gemm's regions, exact; elements outside D's
// region 0, or C's input when C and D are one buffer.  Integer inputs only.
std::vector<std::uint64_t> exact_gemm(const Program& program, const sim::GemmInputs& in);
// The same for one instruction on its frames: A m x k, B k x n, C m x n,
// and D = A @ B + C.
sim::GemmInputs integer_inputs(const MmaInst& instr, std::uint64_t seed);
std::vector<std::uint64_t> exact_mma(const MmaInst& instr, const sim::GemmInputs& in);
// The program without its stage/store statements (staged from layouts).
Program layouts_only(Program program);

}  // namespace mmacheck::test
