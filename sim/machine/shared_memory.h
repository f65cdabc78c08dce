// SharedMemory — one shared allocation as bytes, and the instructions that
// move data between it and a RegisterFile, executed lane by lane and byte by
// byte: the fill (element i of the matrix to the offset the fill table
// gives, little-endian), ldmatrix/stmatrix (each register's four bytes from
// the row addresses the lanes give, through the ldmatrix table of
// core/gemm/ldmatrix.h), ld.shared/st.shared (one element per lane), and the
// drain.  This is the warp machine's shared memory (WarpMachine::load and
// the store side of execute); it does not use the composed slot tables of
// core/gemm/shared_staging.h, so the two agree only when both are right.
//
//     SharedMemory m(stage);          // zeroed, stage.reader.bytes() bytes
//     m.fill(stage, inputs.a.bits);
//     for (const SharedAccess& x : stage.accesses) m.load(stage, x, regs);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/shared_staging.h"
#include "sim/machine/register_file.h"

namespace mmacheck::sim {

class SharedMemory {
 public:
  explicit SharedMemory(const SharedStage& stage);

  // Every offset the fill table names gets its matrix element; the rest 0.
  void fill(const SharedStage& stage, std::span<const std::uint64_t> matrix);
  // One ldmatrix or ld.shared into the 32 threads of `regs` (warp 0).
  void load(const SharedStage& stage, const SharedAccess& access, RegisterFile& regs) const;
  // One stmatrix or st.shared from `regs`.
  void store(const SharedStage& stage, const SharedAccess& access, const RegisterFile& regs);
  // The matrix the drain writes (rows x cols of the register buffer; 0 where nothing lands).
  std::vector<std::uint64_t> drain(const SharedStage& stage) const;

  std::uint64_t element(std::int64_t offset, int width) const;
  void set_element(std::int64_t offset, int width, std::uint64_t bits);

 private:
  std::vector<std::uint8_t> bytes_;
};

}  // namespace mmacheck::sim
