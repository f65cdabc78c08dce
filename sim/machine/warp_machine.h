// Layer sim/machine: the lane-accurate warp machine (register files, fragments).
// Uses core (up to core/gemm) and sim/numerics.
//
// WarpMachine — a gemm program run lane by lane: every thread of the scope
// (32 per warp) holds its registers of the D, A, B and C buffers, packed as
// the hardware packs them (sim/machine/register_file.h), and the program runs as the
// GPU kernel runs it:
//
//   load     every register zeroed, then A, B and C loaded through the
//            Staging tables (core/gemm/staging.h): the file's own `stage`
//            statements when it has them, else the layouts; C goes into D's
//            registers when C is D (gemm(D, A, B, D));
//   execute  the Nest statement by statement, in every warp:
//            InitStmt  D slots zeroed, or copied from C's slots (C's are D's
//                      own when C is D);
//            MmaStmt   the 32 lanes' registers of A, B and the accumulator
//                      (MmaStmt::c names D's registers: accumulate in place)
//                      gathered into sim::WarpRegs, one execute_mma through the
//                      PTX frames, the result scattered into D's registers;
//   store    D's buffer written through D's store table (store statement or
//            layout); elements nobody stores are 0.
//
// Nothing here consults the layouts beyond the staging tables: a wrong
// `stage` statement or a wrong register index in the nest gives wrong
// numbers, exactly as on a GPU.  A machine is built once per program and run
// on any number of cases (each `run` reloads every register).
//
//     const Plan plan = dispatch(program);
//     WarpMachine m(program, plan.nest, arch_params("sm_90"));
//     std::vector<std::uint64_t> d = m.run(inputs);   // D's whole buffer, row-major
#pragma once

#include <cstdint>
#include <vector>

#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "core/gemm/staging.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/mma_model.h"
#include "sim/machine/register_file.h"

namespace mmacheck::sim {

class WarpMachine {
 public:
  // Throws Error when the nest cannot run on this staging or architecture:
  // no instruction, the instruction is newer than `arch`, a buffer's element
  // width is not its frame's, the staging's threads are not whole warps, a
  // table's threads or slots differ from the nest's buffer, a statement's
  // slot or register lies outside its buffer or has the wrong count.
  WarpMachine(Nest nest, Staging staging, const ArchParams& arch);
  // With the program's own staging (build_staging; its Errors too).
  WarpMachine(const Program& program, Nest nest, const ArchParams& arch);

  const Nest& nest() const { return nest_; }
  const Staging& staging() const { return staging_; }
  const ArchParams& arch() const { return *arch_; }
  int warps() const { return staging_.threads / 32; }

  // Zero every register, then load A, B and C.  Throws Error when a matrix
  // has the wrong size or element type for its table.
  void load(const GemmInputs& inputs);
  // One nest statement, in every warp.
  void execute(const NestStmt& stmt);
  void execute_nest();
  // D's buffer, row-major element bits (the store table's shape).
  std::vector<std::uint64_t> store() const;
  // load, execute_nest, store.
  std::vector<std::uint64_t> run(const GemmInputs& inputs);

  const RegisterFile& a() const { return a_; }
  const RegisterFile& b() const { return b_; }
  const RegisterFile& d() const { return d_; }
  // The registers C is loaded into: D's when C is D.
  const RegisterFile& c() const { return staging_.c_in_d ? d_ : c_; }

 private:
  void execute_init(const InitStmt& init);
  void execute_mma(const MmaStmt& mma);

  Nest nest_;
  Staging staging_;
  const ArchParams* arch_;
  RegisterFile a_, b_, c_, d_;  // c_ is empty when C is D
};

// The simulator hook of the differential runner (cuda/differential.h): D's
// whole buffer after running `program`'s staging and `nest` on `inputs` on
// sm_90 (H200).  Builds the staging on every call; to run many cases, build
// one WarpMachine and call run().
std::vector<std::uint64_t> simulate(const Program& program, const Nest& nest, const GemmInputs& inputs);

}  // namespace mmacheck::sim
