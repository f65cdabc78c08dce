// The released TIRx's mma pattern as a Plan (dispatch_release.h).
#include "core/gemm/dispatch_release.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "core/gemm/dispatch_detail.h"
#include "core/gemm/geometry.h"
#include "core/gemm/resources.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

using dispatch_detail::Declined;

// The PTX fragment coordinates the pattern states for lane and register
// (rows, 32-bit word columns of the atom).
using Coord = std::pair<std::int64_t, std::int64_t>;
Coord a_coord(int lane, int reg) { return {lane / 4 + 8 * (reg % 2), lane % 4 + 4 * (reg / 2)}; }
Coord b_coord(int lane, int reg) { return {lane / 4, lane % 4 + 4 * reg}; }
Coord d_coord(int lane, int reg) { return {lane / 4 + 8 * (reg / 2), 2 * (lane % 4) + reg % 2}; }

// One operand of the pattern: its image, the repeat axes it takes from
// (batch-free: D and C (m, n), A (m, k), B (n, k)) and its atom.
struct PatternOperand {
  std::string name;  // "A", as the pattern's messages say
  const ReleaseImage* image;
  int axes[2];
  std::int64_t rows, cols;
  Coord (*coord)(int, int);
  int regs;
};

// The region an apply names of an image: its own, or the whole image.
ImageRegion region_of(const ImageRegion& named, const ReleaseImage& image) {
  return named.whole() ? ImageRegion{Shape(image.shape.size(), 0), image.shape} : named;
}

class Pattern {
 public:
  explicit Pattern(std::array<std::int64_t, 3> repeat) : repeat_(repeat) {}

  // The pattern's Region: the operand's scope, the region's trailing atom
  // shape and repeats (against D's and A's), then its bounds in the image.
  void region(const PatternOperand& op, const ImageRegion& r) const {
    const ReleaseImage& img = *op.image;
    if (img.scope != MemScope::local)
      throw Declined{op.name + ": expected storage scope ('local',), got " + std::string(mem_scope_name(img.scope))};
    const Shape& s = r.extent;
    if (s.size() < 2 || s[s.size() - 2] != op.rows || s.back() != op.cols)
      throw Declined{op.name + ": expected trailing atom shape (" + std::to_string(op.rows) + ", " +
                     std::to_string(op.cols) + "), got " + tuple_text(s)};
    const Shape want{repeat_[op.axes[0]], repeat_[op.axes[1]]};
    if (s.size() != 4 || s[0] != want[0] || s[1] != want[1])
      throw Declined{"Repeat shapes must agree: " + op.name + "=" + tuple_text(std::span(s).first(s.size() - 2)) +
                     ", expected " + tuple_text(want)};
    for (std::size_t i = 0; i < s.size() && i < img.shape.size(); ++i)
      if (r.begin[i] + s[i] > img.shape[i]) throw Declined{op.name + ": region exceeds tensor shape"};
  }

  static void bits32(const PatternOperand& op) {
    if (op.image->bits != 32) throw Declined{op.name + ": expected scalar 32-bit elements; use an explicit dtype view"};
  }

  static void nonoverlapping(const PatternOperand& op) {
    std::vector<std::pair<std::int64_t, std::int64_t>> storage;
    for (const Iter& it : op.image->layout.shard())
      if (it.axis == Axis::m() && it.extent > 1) storage.emplace_back(it.stride, it.extent);
    std::sort(storage.begin(), storage.end());
    std::int64_t span = 1;
    for (const auto& [stride, extent] : storage) {
      if (stride < span) throw Declined{op.name + ": register layout must have nonoverlapping storage strides"};
      span += (extent - 1) * stride;
    }
  }

  // The owner of register `reg` of `lane` at repeat (i, j) of the operand's
  // axes; declines as the pattern does when it is not that lane's.
  std::int64_t owner(const PatternOperand& op, int lane, int reg, std::int64_t i, std::int64_t j) const {
    const ReleaseImage& img = *op.image;
    const auto [row, col] = op.coord(lane, reg);
    const std::int64_t flat = ((i * img.shape[1] + j) * op.rows + row) * op.cols + col;
    const Owner o = img.layout.apply_flat(flat);
    for (const auto& [axis, value] : o)
      if (value != 0 && !(axis == Axis::m()) && !(axis == Axis::laneid()))
        throw Declined{op.name + ": unexpected ownership axes (m, laneid, " + axis.name() + ")"};
    const std::int64_t owner_lane = owner_coord(o, Axis::laneid());
    if (owner_lane != lane) {
      std::string at = "word (" + std::to_string(row) + ", " + std::to_string(col) + ") of the atom";
      if (img.shape[0] * img.shape[1] > 1) at += " at repeat (" + std::to_string(i) + ", " + std::to_string(j) + ")";
      throw Declined{op.name + ": incorrect laneid owner; expected atom_lane: " + at + " is in lane " +
                     std::to_string(owner_lane) + ", not " + std::to_string(lane)};
    }
    // TVM's apply reports every axis the layout names — in its shard,
    // replica or offset, extent-1 iters and zero offsets included (as ours
    // does); the pattern reads the register as physical["m"], so a layout
    // that names no m fails there.
    if (o.find(Axis::m()) == o.end())
      throw Declined{"'m' (" + op.name +
                     ": the layout names no m (no m iter, not even of extent 1), so the pattern "
                     "finds no register; TVM 0.1.0a4 fails with KeyError 'm')"};
    return owner_coord(o, Axis::m());
  }

  // Every register of every lane at every repeat of the region.
  void owners(const PatternOperand& op, const ImageRegion& r) const {
    for (int reg = 0; reg < op.regs; ++reg)
      for (int lane = 0; lane < 32; ++lane)
        for (std::int64_t i = 0; i < r.extent[0]; ++i)
          for (std::int64_t j = 0; j < r.extent[1]; ++j) owner(op, lane, reg, r.begin[0] + i, r.begin[1] + j);
  }

  // The register every lane reads for `reg` at repeat (i, j); the pattern
  // reads it through the layout, which may differ by lane: mmacheck's nest
  // needs one register for all lanes.
  int reg(const PatternOperand& op, int reg, std::int64_t i, std::int64_t j) const {
    const std::int64_t r0 = owner(op, 0, reg, i, j);
    for (int lane = 1; lane < 32; ++lane)
      if (const std::int64_t r = owner(op, lane, reg, i, j); r != r0)
        throw Error(op.image->loc, op.name + ": register " + std::to_string(reg) + " of the atom is " +
                                       op.image->buffer + "[" + std::to_string(r0) + "] in lane 0 but [" +
                                       std::to_string(r) + "] in lane " + std::to_string(lane) +
                                       " (a lane-dependent register index; mmacheck's nest needs one)");
    return static_cast<int>(r0);
  }

 private:
  std::array<std::int64_t, 3> repeat_;
};

NestOperand nest_operand(const Program& program, const std::string& name, const SourceLoc& loc) {
  const BufferDecl& b = program.buffer(name, loc);
  return NestOperand{b.name, b.dtype, static_cast<int>(b.layout.span(Axis::m()))};
}

RegisterView flat_view(const NestOperand& op) {
  return RegisterView{op.buffer, Shape{op.slots}, TileLayout::row_major(Shape{op.slots})};
}

// The nest of the pattern (M, N, K loops, K innermost), or of the dump's calls.
Nest release_nest(const Program& program, const MmaInst& inst, const std::vector<MmaStmt>& mmas,
                  const std::vector<std::vector<LoweredInput>>& inputs, const std::vector<std::size_t>& statements) {
  const ReleaseMma& mma = *program.release;
  Nest nest;
  nest.inst = &inst;
  nest.d = nest_operand(program, mma.d.buffer, mma.loc);
  nest.a = nest_operand(program, mma.a.buffer, mma.loc);
  nest.b = nest_operand(program, mma.b.buffer, mma.loc);
  nest.c = nest_operand(program, mma.c ? mma.c->buffer : mma.d.buffer, mma.loc);
  nest.tiles_m = static_cast<int>(mma.d.shape[0]);
  nest.tiles_n = static_cast<int>(mma.d.shape[1]);
  nest.tiles_k = static_cast<int>(mma.a.shape[1]);
  nest.use_c = mma.c.has_value();
  for (std::size_t i = 0; i < mmas.size(); ++i) {
    if (mma.statements.size() > 1 && nest.parts.size() <= statements[i])
      nest.parts.resize(statements[i] + 1, nest.stmts.size());
    MmaStmt stmt = mmas[i];
    // The mma's C input per accumulator element: a C register is copied into
    // D's (an init), a scalar sets it (an init per value: its f32 bits), a D
    // register is read as it is.
    std::vector<InitStmt> scalars;
    InitStmt copy{stmt.tile_m, stmt.tile_n, {}, {}};
    for (std::size_t e = 0; e < inputs[i].size(); ++e) {
      const LoweredInput& in = inputs[i][e];
      if (in.kind == LoweredInput::Kind::d_register) {  // accumulate: C is whatever D register the call names
        stmt.c[e] = in.reg;
        continue;
      }
      if (in.kind == LoweredInput::Kind::scalar) {
        const std::uint64_t bits = scalar_bits(in.value, nest.d.dtype);
        auto init = std::find_if(scalars.begin(), scalars.end(), [&](const InitStmt& s) { return s.bits == bits; });
        if (init == scalars.end())
          init = scalars.insert(scalars.end(), InitStmt{stmt.tile_m, stmt.tile_n, {}, {}, bits});
        init->d_slots.push_back(stmt.d[e]);
      } else {
        copy.d_slots.push_back(stmt.d[e]);
        copy.c_slots.push_back(in.reg);
      }
      stmt.c[e] = stmt.d[e];
    }
    for (InitStmt& init : scalars) nest.stmts.emplace_back(std::move(init));
    if (!copy.d_slots.empty()) nest.stmts.emplace_back(std::move(copy));
    nest.stmts.emplace_back(std::move(stmt));
  }
  return nest;
}

}  // namespace

Plan dispatch_release(const Program& program, const Limits& limits) {
  check_resources(program, limits);
  const ReleaseMma& mma = *program.release;
  const std::string& op = mma.opcode;
  const bool k16 = op.rfind("mma.sync.aligned.m16n8k16.", 0) == 0;
  Plan plan;
  const MmaInst* inst = find_mma_inst(op);
  try {
    // TVM's words for a block of fewer than 32 threads.
    if (program.scope.lane_lo != 0 || program.scope.lane_hi != 31)
      throw Declined{"instruction requires all 32 lanes of a warp to be active"};
    // The ldmatrix applies run through their pattern where they stand:
    // those before the mma first, as TileDispatch meets them.
    const auto matrix_patterns = [&](bool before) {
      for (const ReleaseMatrixCopy& copy : mma.matrix_copies)
        if ((std::pair{copy.loc.line, copy.loc.col} < std::pair{mma.loc.line, mma.loc.col}) == before)
          if (std::optional<std::string> refusal = ldmatrix_refusal(copy)) throw Declined{std::move(*refusal)};
    };
    matrix_patterns(true);
    if (!release_pattern_opcode(op) || !inst)
      throw Declined{"mma pattern requires m16n8k8/k16 with f16/bf16 inputs and f32 accumulation"};
    const int k = k16 ? 16 : 8;
    if (mma.d.shape.size() < 4 || mma.a.shape.size() != mma.d.shape.size())
      throw Declined{"mma requires explicit M/N and M/K repeat axes before each atom"};
    if (mma.d.shape.size() > 4)
      throw Error(mma.d.loc, "'" + mma.d.buffer + "': batch axes before M and N are not read by mmacheck");
    const std::array<std::int64_t, 3> repeat{mma.d.shape[0], mma.d.shape[1], mma.a.shape[1]};
    const PatternOperand d{"D", &mma.d, {0, 1}, 16, 8, d_coord, 4};
    const PatternOperand a{"A", &mma.a, {0, 2}, 16, k / 2, a_coord, k / 4};
    const PatternOperand b{"B", &mma.b, {1, 2}, 8, k / 2, b_coord, k / 8};
    // C as an apply names it: the C image, or D's own registers (accumulating).
    std::optional<PatternOperand> c_image, c_own;
    if (mma.c) c_image = PatternOperand{"C", &*mma.c, {0, 1}, 16, 8, d_coord, 4};
    c_own = PatternOperand{"C", &mma.d, {0, 1}, 16, 8, d_coord, 4};
    using C = ReleaseMmaStatement::C;
    // The applies as written; a dump's calls state their registers, and the
    // pattern's checks run once over the whole images.
    const std::vector<ReleaseMmaStatement> applies =
        mma.lowered ? std::vector<ReleaseMmaStatement>{ReleaseMmaStatement{mma.loc, mma.c ? C::image : C::scalar}}
                    : mma.statements;
    std::int64_t total = 0;
    std::vector<MmaStmt> mmas;
    std::vector<std::vector<LoweredInput>> inputs;
    std::vector<std::size_t> statements;  // per mma: the statement that wrote it
    for (std::size_t st = 0; st < applies.size(); ++st) {
      // Each apply is the pattern on the regions it names: its repeats are
      // D's region's (M, N) and A's (K), its register r of repeat (i, j) the
      // image's at the region's origin plus (i, j).
      const ReleaseMmaStatement& apply = applies[st];
      const ImageRegion rd = region_of(apply.regions.d, mma.d), ra = region_of(apply.regions.a, mma.a),
                        rb = region_of(apply.regions.b, mma.b);
      const PatternOperand* c = apply.c == C::image ? &*c_image : apply.c == C::accumulate ? &*c_own : nullptr;
      const ImageRegion rc = c ? region_of(apply.regions.c, *c->image) : ImageRegion{};
      const std::array<std::int64_t, 3> reps{rd.extent[0], rd.extent[1], ra.extent[1]};
      total += reps[0] * reps[1] * reps[2];
      limits.check(Resource::mma, total, apply.loc, "the mma");
      const Pattern pattern(reps);
      for (const auto& [o, r] : {std::pair{&d, &rd}, std::pair{&a, &ra}, std::pair{&b, &rb}}) pattern.region(*o, *r);
      if (c) pattern.region(*c, rc);
      for (const PatternOperand* o : {&d, &a, &b}) Pattern::bits32(*o);
      Pattern::nonoverlapping(d);
      for (const auto& [o, r] : {std::pair{&a, &ra}, std::pair{&b, &rb}, std::pair{&d, &rd}}) pattern.owners(*o, *r);
      if (c) {
        Pattern::bits32(*c);
        pattern.owners(*c, rc);
      }
      // The pattern passes a scalar C to T.ptx.mma as typed, and TVM's PTX
      // table takes an f32 accumulator's C as float32 alone (a Python int is
      // int32, T.float16(0) float16): TVM's refusal, in its words.
      if (!mma.lowered && apply.c == C::scalar && apply.scalar_dtype != "float32")
        throw Declined{
            "no ptx instruction matches these operands; candidates rejected it as: mma: operand 'c' must "
            "have dtype float32 (from .f32), got " +
            apply.scalar_dtype};
      if (mma.lowered) break;
      // The apply unrolled; its first K step reads its own C.  A statement's
      // tile is where it lies in the images: D's region's origin for (m, n),
      // A's for k.
      for (int m = 0; m < reps[0]; ++m)
        for (int n = 0; n < reps[1]; ++n)
          for (int kk = 0; kk < reps[2]; ++kk) {
            const std::int64_t dm = rd.begin[0] + m, dn = rd.begin[1] + n;
            MmaStmt s{
                static_cast<int>(dm), static_cast<int>(dn), static_cast<int>(ra.begin[1] + kk), {}, {}, {}, {}, {}};
            std::vector<LoweredInput> in;
            for (int r = 0; r < d.regs; ++r) {
              s.d.push_back(pattern.reg(d, r, dm, dn));
              if (kk > 0) {
                in.push_back(LoweredInput{LoweredInput::Kind::d_register, s.d.back()});
              } else if (c) {
                const int from = pattern.reg(*c, r, rc.begin[0] + m, rc.begin[1] + n);
                in.push_back(LoweredInput{
                    apply.c == C::accumulate ? LoweredInput::Kind::d_register : LoweredInput::Kind::c_register, from});
              } else {
                in.push_back(LoweredInput{LoweredInput::Kind::scalar, 0, apply.scalar});
              }
            }
            for (int r = 0; r < a.regs; ++r) s.a.push_back(pattern.reg(a, r, ra.begin[0] + m, ra.begin[1] + kk));
            for (int r = 0; r < b.regs; ++r) s.b.push_back(pattern.reg(b, r, rb.begin[0] + n, rb.begin[1] + kk));
            s.c = s.d;
            mmas.push_back(std::move(s));
            inputs.push_back(std::move(in));
            statements.push_back(st);
          }
    }
    matrix_patterns(false);
    if (mma.lowered)
      for (const LoweredMma& call : mma.calls) {
        const auto at = [&](std::size_t i) { return i < call.repeat.size() ? call.repeat[i] : 0; };
        mmas.push_back(MmaStmt{at(0), at(1), at(2), call.d, call.a, call.b, call.d, call.origin});
        inputs.push_back(call.c);
        statements.push_back(call.statement);
      }
    plan.ok = true;
    plan.inst = inst;
    plan.tiles_m = static_cast<int>(repeat[0]);
    plan.tiles_n = static_cast<int>(repeat[1]);
    plan.tiles_k = static_cast<int>(repeat[2]);
    // The gemm's extents: one warp's tiles, or the CTA's when its warps
    // split the gemm (release_program's CTA-wide buffers).
    const GemmGeometry g = gemm_geometry(program);
    plan.m = g.m;
    plan.n = g.n;
    plan.k = g.k;
    plan.nest = release_nest(program, *inst, mmas, inputs, statements);
    plan.d = flat_view(plan.nest.d);
    plan.a = flat_view(plan.nest.a);
    plan.b = flat_view(plan.nest.b);
    plan.c = flat_view(plan.nest.c);
  } catch (const Declined& declined) {
    plan = Plan{};
    plan.reasons.push_back("declined — " + declined.reason);
  }
  return plan;
}

}  // namespace mmacheck
