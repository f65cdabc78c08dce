// ProofSetup: operands, storages, tile origins and the check list.
#include <variant>

#include "core/layout/shape_text.h"
#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

namespace {

// The prover knows how laneid, warpid and tx number the threads of a warp
// or CTA; TVM's other thread axes are fused into these under its CUDA target.
void require_known_thread_axes(const BufferDecl& buffer) {
  const auto check = [&](const Axis& axis) {
    if (axis.is_thread() && axis != Axis::laneid() && axis != Axis::warpid() && axis != Axis::tx())
      throw Error(buffer.loc, "layout of '" + buffer.name + "' uses thread axis '" + axis.name() +
                                  "'; the prover supports laneid, warpid and tx");
  };
  for (const Iter& it : buffer.layout.shard()) check(it.axis);
  for (const Iter& it : buffer.layout.replica()) check(it.axis);
  for (const auto& [axis, value] : buffer.layout.offset()) check(axis);
}

// Registers per frame: A, B, C (looked up once, not per statement).
struct FrameRegs {
  int a, b, c;
};

void require_frame_registers(const MmaStmt& mma, int stmt, const MmaInst& inst, const FrameRegs& frames) {
  const auto check = [&](const std::vector<int>& regs, Operand op, const char* name) {
    const int want = op == Operand::A ? frames.a : op == Operand::B ? frames.b : frames.c;
    if (static_cast<int>(regs.size()) != want)
      throw Error("nest statement " + std::to_string(stmt) + " passes " + std::to_string(regs.size()) + " " + name +
                  " registers, the " + inst.shape() + " frame has " + std::to_string(want));
  };
  check(mma.a, Operand::A, "A");
  check(mma.b, Operand::B, "B");
  check(mma.c, Operand::C, "C");
  check(mma.d, Operand::C, "D");
}

}  // namespace

bool shaped_alike(const Program& program, const std::string& buffer, const std::string& tensor) {
  const BufferDecl* t = program.find_buffer(tensor);
  const BufferDecl* b = program.find_buffer(buffer);
  return !t || !b || t->shape == b->shape;
}

void validate_staging(const Program& program) {
  const auto check = [&](const std::string& buf, const SourceLoc& loc, const char* what) {
    const BufferDecl& buffer = program.buffer(buf, loc);
    if (buffer.scope != MemScope::local)
      throw Error(loc, std::string(what) + " " + buf + ": '" + buf + "' is a " +
                           std::string(mem_scope_name(buffer.scope)) +
                           " buffer; stage and store move register (local) buffers");
    if (buffer.shape.size() != 2)
      throw Error(loc, std::string(what) + " " + buf + ": [ROW, COL] needs a 2-D buffer, '" + buf + "' has shape " +
                           coord_text(buffer.shape));
  };
  for (const StageStmt& s : program.stages) check(s.buffer, s.loc, "stage");
  for (const StoreStmt& s : program.stores) check(s.buffer, s.loc, "store");
}

ProofSetup::ProofSetup(const Program& program, const Plan& plan, OriginRule rule)
    : program(program),
      plan(plan),
      inst(*plan.inst),
      warps(program.scope.warps()),
      beta_one(program.gemm->beta == 1.0),
      origin_rule(rule == OriginRule::affine && plan.nest.first_out_of_order() ? OriginRule::anchors : rule) {
  const GemmGeometry g = gemm_geometry(program);
  views_ = {g.a, g.b, g.c, g.d};
  // One Storage per buffer, however many roles it plays (C = D, a staged operand).
  const auto tabulate = [&](const BufferDecl& b) {
    require_known_thread_axes(b);
    for (const Storage& s : storages_)
      if (s.buffer().name == b.name) return;
    storages_.emplace_back(b);
  };
  for (const OperandPlace& v : views_) tabulate(program.buffer(v.buffer(), {}));
  // A statement over part of its buffer's registers has no staging check of
  // its own (the check compares a statement with the whole layout): the
  // program run decides it, with the statements around it (prove.cc notes it).
  for (const StageStmt& s : program.stages)
    if (!s.slots && !s.constant && shaped_alike(program, s.buffer, s.source))
      staging.push_back({false, s.buffer, s.source, s.row, s.col, s.loc});
  for (const StoreStmt& s : program.stores)
    if (!s.slots && shaped_alike(program, s.buffer, s.target))
      staging.push_back({true, s.buffer, s.target, s.row, s.col, s.loc});
  for (const StagingRef& s : staging) tabulate(program.buffer(s.buffer, s.loc));

  // Origins: where lane 0's first D, A and B elements of the statement live.
  const Frame& fa = frame(GemmOperand::A);
  const Frame& fb = frame(GemmOperand::B);
  const Frame& fc = frame(GemmOperand::D);
  const FrameRegs frame_regs{fa.regs, fb.regs, fc.regs};
  const auto anchor = [&](GemmOperand op, const std::vector<int>& regs, const Frame& f,
                          int warp) -> std::optional<Element> {
    const Storage& st = storage(op);
    const std::int64_t slot = std::int64_t{regs.front()} * f.per_reg();
    const auto flat = origin_rule == OriginRule::affine ? st.held_by_scan({warp, 0}, slot) : st.held({warp, 0}, slot);
    if (!flat) return std::nullopt;
    return view(op).from_buffer(st.coord(*flat));
  };
  // Affine: the first statement's origins, per warp, from D's and A's anchors.
  std::vector<Origin> base;
  for (std::size_t i = 0; i < plan.nest.stmts.size() && origin_rule == OriginRule::affine; ++i) {
    const auto* mma = std::get_if<MmaStmt>(&plan.nest.stmts[i]);
    if (!mma) continue;
    require_frame_registers(*mma, static_cast<int>(i), inst, frame_regs);
    for (int w = 0; w < warps && origin_rule == OriginRule::affine; ++w) {
      const auto d = anchor(GemmOperand::D, mma->d, fc, w);
      const auto a = anchor(GemmOperand::A, mma->a, fa, w);
      if (!d || !a) origin_rule = OriginRule::anchors;
      else base.push_back({(*d)[0] - fc.row.at(0, 0), (*d)[1] - fc.col.at(0, 0), (*a)[1] - fa.col.at(0, 0)});
    }
    break;
  }
  // The origin a statement's tile index implies (to tell which anchor is
  // wrong where two disagree): the released TIRx's pattern puts tile
  // (m, n, k) at (16m, 8n, k·K); elsewhere the first statement's D and A
  // anchors plus the tile index times the instruction's extent.
  std::vector<Origin> tile_base(static_cast<std::size_t>(warps));
  for (std::size_t i = 0; i < plan.nest.stmts.size(); ++i) {
    const auto* mma = std::get_if<MmaStmt>(&plan.nest.stmts[i]);
    if (!mma) continue;
    require_frame_registers(*mma, static_cast<int>(i), inst, frame_regs);
    for (int w = 0; w < warps; ++w) {
      Origin& o = tile_base[static_cast<std::size_t>(w)];
      if (program.release) {
        o = {0, 0, 0};
        continue;
      }
      if (const auto d = anchor(GemmOperand::D, mma->d, fc, w)) {
        o.m0 = (*d)[0] - fc.row.at(0, 0) - std::int64_t{mma->tile_m} * inst.m;
        o.n0 = (*d)[1] - fc.col.at(0, 0) - std::int64_t{mma->tile_n} * inst.n;
      }
      if (const auto a = anchor(GemmOperand::A, mma->a, fa, w))
        o.k0 = (*a)[1] - fa.col.at(0, 0) - std::int64_t{mma->tile_k} * inst.k;
    }
    break;
  }
  const auto expected_origin = [&](const MmaStmt& mma, int w) {
    const Origin& b = tile_base[static_cast<std::size_t>(w)];
    const auto at = [](std::optional<std::int64_t> base, int tile, int extent) -> std::optional<std::int64_t> {
      if (!base) return std::nullopt;
      return *base + std::int64_t{tile} * extent;
    };
    return Origin{at(b.m0, mma.tile_m, inst.m), at(b.n0, mma.tile_n, inst.n), at(b.k0, mma.tile_k, inst.k)};
  };
  for (std::size_t i = 0; i < plan.nest.stmts.size(); ++i) {
    const auto* mma = std::get_if<MmaStmt>(&plan.nest.stmts[i]);
    if (!mma) continue;
    require_frame_registers(*mma, static_cast<int>(i), inst, frame_regs);
    MmaRef ref{static_cast<int>(i), mma, {}};
    if (origin_rule == OriginRule::affine) {
      for (const Origin& b : base)
        ref.origin.push_back({*b.m0 + std::int64_t{mma->tile_m} * inst.m, *b.n0 + std::int64_t{mma->tile_n} * inst.n,
                              *b.k0 + std::int64_t{mma->tile_k} * inst.k});
      mmas.push_back(std::move(ref));
      continue;
    }
    for (int w = 0; w < warps; ++w) {
      // Each coordinate has two anchors (m: D, A; n: D, B; k: A, B).  Where
      // they disagree one operand's register is wrong, and the origin must
      // come from the other, or the counterexample blames the operand that
      // is right: the one that agrees with the statement's tile index
      // (expected_origin) wins, else D for m and n, A for k.
      const Origin want = expected_origin(*mma, w);
      const auto pick = [](std::optional<std::int64_t> first, std::optional<std::int64_t> second,
                           std::optional<std::int64_t> expected) {
        if (first && second && *first != *second && expected && *second == *expected) return second;
        return first ? first : second;
      };
      Origin d, a, b;
      if (const auto e = anchor(GemmOperand::D, mma->d, fc, w))
        d = {(*e)[0] - fc.row.at(0, 0), (*e)[1] - fc.col.at(0, 0), {}};
      if (const auto e = anchor(GemmOperand::A, mma->a, fa, w))
        a = {(*e)[0] - fa.row.at(0, 0), {}, (*e)[1] - fa.col.at(0, 0)};
      if (const auto e = anchor(GemmOperand::B, mma->b, fb, w))
        b = {{}, (*e)[1] - fb.col.at(0, 0), (*e)[0] - fb.row.at(0, 0)};
      ref.origin.push_back({pick(d.m0, a.m0, want.m0), pick(d.n0, b.n0, want.n0), pick(a.k0, b.k0, want.k0)});
    }
    mmas.push_back(std::move(ref));
  }

  using K = CheckKind;
  using G = GemmOperand;
  for (G op : {G::A, G::B, G::C, G::D}) checks.push_back({{K::frame, std::string(gemm_operand_name(op))}, op, -1});
  for (G op : {G::A, G::B, G::C, G::D})
    if (op != G::C || beta_one) checks.push_back({{K::fragment, std::string(gemm_operand_name(op))}, op, -1});
  checks.push_back({{K::accumulation, ""}, G::D, -1});
  for (std::size_t i = 0; i < staging.size(); ++i)
    checks.push_back({{staging[i].store ? K::store : K::stage, staging[i].buffer}, G::A, static_cast<int>(i)});
}

const Storage& ProofSetup::storage(GemmOperand op) const { return storage(view(op).buffer()); }

const Storage& ProofSetup::storage(const std::string& buffer) const {
  for (const Storage& s : storages_)
    if (s.buffer().name == buffer) return s;
  throw Error("internal: no storage for buffer '" + buffer + "'");
}

const Frame& ProofSetup::frame(GemmOperand op) const { return inst.frame(frame_operand(op)); }

const std::vector<int>& ProofSetup::registers(const MmaStmt& mma, GemmOperand op) {
  switch (op) {
    case GemmOperand::A: return mma.a;
    case GemmOperand::B: return mma.b;
    case GemmOperand::C: return mma.c;
    case GemmOperand::D: return mma.d;
  }
  return mma.d;
}

std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> ProofSetup::frame_origin(const Origin& o,
                                                                                             GemmOperand op) {
  if (op == GemmOperand::A) return {o.m0, o.k0};
  if (op == GemmOperand::B) return {o.k0, o.n0};
  return {o.m0, o.n0};
}

}  // namespace mmacheck::prove_detail
