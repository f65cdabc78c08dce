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
//            registers when C is D (gemm(D, A, B, D)).  An operand staged
//            through shared memory is filled into a byte-level SharedMemory
//            and read by its ldmatrix / ld.shared instructions lane by lane
//            (sim/machine/shared_memory.h; run() takes the composed tables);
//   execute  the Nest statement by statement, in every warp:
//            InitStmt  D slots set to its bits (zero, a scalar C), or copied from C's slots (C's are D's
//                      own when C is D);
//            MmaStmt   the 32 lanes' registers of A, B and the accumulator
//                      (MmaStmt::c names D's registers: accumulate in place)
//                      gathered into sim::WarpRegs, one execute_mma through the
//                      PTX frames, the result scattered into D's registers;
//   store    D's buffer written through D's store table (store statement or
//            layout), or by stmatrix / st.shared into shared memory and the
//            drain; elements nobody stores are 0.
//
// A program with a statement between two of its mma statements
// (Staging::steps: a D store between two applies, A staged again) runs
// statement by statement instead: every register starts as poison (all
// ones: a NaN in every float format with one, -1 in the integer ones; a
// register nothing wrote holds garbage on the GPU, not 0), each load fills
// the registers it names from the tensor it reads (the output as stored so
// far, for a load from it), each mma statement runs its part of the nest,
// each store writes D's registers it names into the output.
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
#include <memory>
#include <vector>

#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "core/gemm/staging.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/mma_model.h"
#include "sim/machine/register_file.h"
#include "sim/machine/tile_route.h"

namespace mmacheck::sim {

class WarpMachine {
 public:
  // Throws Error when the nest cannot run on this staging or architecture:
  // no instruction, the instruction is newer than `arch`, a buffer's element
  // width is not its frame's, the staging's threads are not whole warps, a
  // table's threads or slots differ from the nest's buffer, a statement's
  // slot or register lies outside its buffer or has the wrong count.
  // run() resolves its routes once when they take at most
  // `max_route_bytes` (about 2.8 KB per m16n8k16 mma and warp), else on
  // every mma; the results are the same.
  static constexpr std::size_t kDefaultRouteBytes = std::size_t{64} << 20;
  WarpMachine(Nest nest, Staging staging, const ArchParams& arch, std::size_t max_route_bytes = kDefaultRouteBytes);
  // With the program's own staging (build_staging; its Errors too).
  WarpMachine(const Program& program, Nest nest, const ArchParams& arch);

  const Nest& nest() const { return *nest_; }
  const Staging& staging() const { return *staging_; }
  const ArchParams& arch() const { return *arch_; }
  int warps() const { return staging_->threads / 32; }

  // Zero every register, then load A, B and C.  Throws Error when a matrix
  // has the wrong size or element type for its table.
  void load(const GemmInputs& inputs);
  // One nest statement, in every warp.
  void execute(const NestStmt& stmt);
  void execute_nest();
  // D's buffer, row-major element bits (the store table's shape).
  std::vector<std::uint64_t> store() const;
  // What load, execute_nest and store give, the fast way: A's and B's
  // tiles are read through the load tables straight from the matrices
  // (the nest never writes A or B; a tile that is one contiguous run of its
  // matrix is passed without a copy), so a() and b() are not filled; C and
  // D go through the registers as in execute(), except that C is not
  // loaded when the nest writes every register before reading it (then
  // d() holds the previous case's values until overwritten).
  std::vector<std::uint64_t> run(const GemmInputs& inputs);

  const RegisterFile& a() const { return a_; }
  const RegisterFile& b() const { return b_; }
  const RegisterFile& d() const { return d_; }
  // The registers C is loaded into: D's when C is D.
  const RegisterFile& c() const { return staging_->c_in_d ? d_ : c_; }

 private:
  void execute_init(const InitStmt& init);
  void execute_mma(const MmaStmt& mma);
  std::vector<std::uint64_t> run_in_order(const GemmInputs& inputs);

  // Read-only after construction: copies of a machine share them (and the
  // resolved routes below), each with its own registers.
  std::shared_ptr<const Nest> nest_;
  std::shared_ptr<const Staging> staging_;
  const ArchParams* arch_;
  RegisterFile a_, b_, c_, d_;  // c_ is empty when C is D
  // Where the instruction's frames put each tile element, and the tiles an
  // mma moves between the registers and the arithmetic model (reused).
  TileRoute route_a_, route_b_, route_c_;
  std::vector<std::uint64_t> tile_a_, tile_b_, tile_c_, tile_d_;
  // run()'s routes resolved once, per mma statement and warp (in nest
  // order): A's and B's tile elements as indices into the input matrices
  // (-1: no load fills that register, 0), C's and D's as words of d_ and
  // shifts.  Null when they would pass max_route_bytes; run() then
  // resolves them on the fly.  Read-only once built, so copies of a
  // machine (one per `sim` worker) share them: 256^3 on one warp is 8192
  // mma, 23 MB of routes, once per process instead of once per worker.
  struct CompiledMma {
    std::vector<std::int32_t> a, b, c_word, d_word;
    std::vector<std::uint8_t> c_shift, d_shift;
    bool a_loaded = false, b_loaded = false;  // every index >= 0: gathered without a test
    std::int32_t a_run = -1, b_run = -1;      // the tile is this run of the input, row-major: no copy
  };
  // Whether run() must load C: some register is read (by an mma, an init
  // copying from C, or the store) before the nest writes it; else the
  // registers left by the previous case are all overwritten first.
  bool needs_c_load_ = true;
  void find_c_reads();
  std::shared_ptr<const std::vector<CompiledMma>> compiled_;
  void compile_routes(std::size_t max_bytes);
  void run_mma_compiled(const CompiledMma& mma, const GemmInputs& inputs);
  void run_mma_resolving(const MmaStmt& mma, const GemmInputs& inputs);
};

// The simulator hook of the differential runner (cuda/differential.h): D's
// whole buffer after running `program`'s staging and `nest` on `inputs` on
// sm_90 (H200).  Builds the staging on every call; to run many cases, build
// one WarpMachine and call run().
std::vector<std::uint64_t> simulate(const Program& program, const Nest& nest, const GemmInputs& inputs);

}  // namespace mmacheck::sim
