// What both proof methods share: the program's operands and buffers seen as
// the prover sees them, the tile origins of every mma statement, and the list
// of checks.  Private to core/prove*.cc.
//
// Threads.  Thread (warp, lane) of the scope (warp 0 only at warp scope)
// has the thread-axis coordinates laneid = lane, warpid = warp,
// tx = 32 warp + lane.  A layout "places" element x at (thread, slot) when
// one of x's owners equals the coordinate vector of that point on every axis
// the layout names: the thread axes as above, `m` = slot, any other memory
// axis 0 (registers have only `m`).  A layout that does not name warpid or
// tx places its elements in every warp (each warp has its own copy).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/gemm/geometry.h"
#include "core/program/program.h"
#include "core/prove/report.h"

namespace mmacheck::prove_detail {

struct Thread {
  int warp = 0;
  int lane = 0;
};

// The coordinate of (thread, slot) on `axis` (laneid, warpid, tx or a
// memory axis; other thread axes are rejected by ProofSetup).
std::int64_t axis_value(const Axis& axis, Thread thread, std::int64_t slot);

// One coordinate per axis of Storage::axes().
using Key = std::vector<std::int64_t>;

// Where a buffer's layout puts each of its elements, tabulated both ways.
// The tables are made on first use (owners, places, held): the z3 method's
// tile-symbolic checks never need them, and they are the one part of a proof
// that grows with the buffer (a 1024 x 1024 operand is a million owners).
class Storage {
 public:
  explicit Storage(const BufferDecl& buffer);

  const BufferDecl& buffer() const { return *buffer_; }
  // Every axis the layout names (shard, replica, offset), in Axis order.
  const std::vector<Axis>& axes() const { return axes_; }
  // Slots per thread: the layout's span on `m`.
  std::int64_t span() const { return span_; }

  Shape coord(std::int64_t flat) const;
  std::int64_t flat(std::span<const std::int64_t> coord) const;
  // The owners of element `flat` (one per replica) as coordinate vectors.
  const std::vector<Key>& owners(std::int64_t flat) const { return tables().owners[flat]; }
  Key key(Thread thread, std::int64_t slot) const;
  bool places(std::int64_t flat, Thread thread, std::int64_t slot) const;
  // The lowest element placed at (thread, slot), if any.
  std::optional<std::int64_t> held(Thread thread, std::int64_t slot) const;
  // The same without the tables: the elements in order until one is placed
  // there (for a few points, where most are found among the first elements).
  std::optional<std::int64_t> held_by_scan(Thread thread, std::int64_t slot) const;
  // Index of `axis` in axes(), or -1.
  int axis_index(const Axis& axis) const;

 private:
  const BufferDecl* buffer_;
  std::vector<Axis> axes_;
  std::int64_t span_;
  struct Tables {
    std::vector<std::vector<Key>> owners;
    std::vector<std::pair<Key, std::int64_t>> inverse;  // sorted by key, lowest element first
  };
  const Tables& tables() const;
  mutable std::shared_ptr<const Tables> tables_;  // made by tables(), then never changed
};

enum class GemmOperand { A, B, C, D };
std::string_view gemm_operand_name(GemmOperand op);

// Tile origins of one mma statement in one warp, read off the layouts (see
// core/prove/prove.h); a component is absent when no operand's anchor slot holds
// an element of its region.
struct Origin {
  std::optional<std::int64_t> m0, n0, k0;
};

struct MmaRef {
  int stmt = 0;  // index into nest.stmts
  const MmaStmt* mma = nullptr;
  std::vector<Origin> origin;  // per warp
};

// A stage or store statement.
struct StagingRef {
  bool store = false;
  std::string buffer, matrix;
  IndexExpr row, col;
  SourceLoc loc;
};

// One register check (the shared-memory ones are core/prove/shared_checks.h's).
struct CheckSpec {
  CheckId id;                            // frame, fragment, accumulation, stage, store
  GemmOperand operand = GemmOperand::A;  // frame, fragment
  int staging = -1;                      // index into ProofSetup::staging
};

// How ProofSetup finds the tile origins.  `anchors`: every statement's, read
// off the layouts (core/prove/prove.h; this tabulates the layouts).
// `affine`, for a nest in the dispatch's order (Nest::first_out_of_order):
// the first statement's per warp, the others' set to it plus the tile index
// times the instruction's extent; the z3 method then proves that `anchors`
// would read the same (Z3Checker::anchors_agree) or starts again with
// `anchors`.  Where the nest is out of order or the first statement's D or
// A anchor holds nothing, `affine` becomes `anchors`.
enum class OriginRule { anchors, affine };

class ProofSetup {
 public:
  // Throws Error on a layout with thread axes other than laneid, warpid, tx
  // and on a nest whose register lists do not fit the instruction's frames.
  ProofSetup(const Program& program, const Plan& plan, OriginRule rule = OriginRule::anchors);

  const Program& program;
  const Plan& plan;
  const MmaInst& inst;
  int warps;
  bool beta_one;
  OriginRule origin_rule;  // the rule used
  std::vector<MmaRef> mmas;
  std::vector<StagingRef> staging;
  std::vector<CheckSpec> checks;

  const OperandPlace& view(GemmOperand op) const { return views_[static_cast<int>(op)]; }
  const Storage& storage(GemmOperand op) const;
  const Storage& storage(const std::string& buffer) const;
  // The frame of an mma operand (C and D: the accumulator frame).
  const Frame& frame(GemmOperand op) const;
  // The instruction operand whose frame that is.
  static Operand frame_operand(GemmOperand op) {
    return op == GemmOperand::A ? Operand::A : op == GemmOperand::B ? Operand::B : Operand::C;
  }
  // The buffer operand behind a frame check: the mma's C operand is D.
  GemmOperand frame_buffer(GemmOperand op) const { return op == GemmOperand::C ? GemmOperand::D : op; }
  // The registers of `op` an mma passes.
  static const std::vector<int>& registers(const MmaStmt& mma, GemmOperand op);
  // The (row, col) origin of a frame check's tile: A (m0, k0), B (k0, n0),
  // C and D (m0, n0).
  static std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> frame_origin(const Origin& origin,
                                                                                          GemmOperand op);

 private:
  std::vector<OperandPlace> views_;
  std::vector<Storage> storages_;
};

// Stage/store statements are bad input when their buffer is not a 2-D
// register buffer.
void validate_staging(const Program& program);

// Whether a statement moving `buffer` from or to `tensor` moves them element
// for element: the same shape (or either undeclared).  A statement that does
// not (B staged from A's tensor, of A's shape) is the program's mistake, not
// bad input: it has no staging check of its own and the program run refutes
// it ("the B operand of the gemm comes from A, a (16, 16) tensor, ...").
bool shaped_alike(const Program& program, const std::string& buffer, const std::string& tensor);

}  // namespace mmacheck::prove_detail
