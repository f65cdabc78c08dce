// Register views and the unrolled nest (TVM's _reg_layout and the body of
// its impl()).
//
// A register of an operand is named by its first element: element index
// i = r * per_reg, decomposed into view coordinates as core/gemm/mma_inst.h
// gives them, mapped to a storage slot by the view; the register is the
// slot / per_reg (TVM reaches A and B through a uint32 view of the
// element view: a_words[m, k, rM, kHi, 0]).  Whether the words really hold
// the frame's elements is the prover's question, not the dispatch's.
#include "core/gemm/dispatch_detail.h"

#include "core/base/checked.h"

namespace mmacheck {

std::int64_t RegisterView::slot(std::span<const std::int64_t> coord) const {
  return owner_coord(layout.apply(coord, shape).front(), Axis::m());
}

namespace dispatch_detail {

RegisterView register_view(std::string buffer, std::span<const std::span<const Iter>> groups, const Offset& offset) {
  std::vector<Iter> iters;
  Shape shape;
  for (std::span<const Iter> group : groups) {
    std::int64_t extent = 1;
    for (const Iter& it : group) {
      extent *= it.extent;
      // Extent-1 iters iterate nothing, but would pin an axis: B's N has no
      // register, its "register" group is a single lane iter.
      if (it.extent != 1) iters.push_back(it);
    }
    shape.push_back(extent);
  }
  Offset memory_offset;
  for (const auto& [axis, value] : offset)
    if (axis.is_memory()) memory_offset.emplace(axis, value);
  return RegisterView{std::move(buffer), std::move(shape), TileLayout(std::move(iters), {}, std::move(memory_offset))};
}

namespace {

using Coord = std::vector<std::int64_t>;

// Register index of the element at `coord` of a view.
int register_of(const RegisterView& view, const Coord& coord, int per_reg) {
  return checked_int(view.slot(coord) / per_reg, "register of '" + view.buffer + "'");
}

// The view coordinate of a tile's element: the two tile indices, then the
// element's coordinates within the tile (MmaInst::view_coord).
Coord tile_coord(std::int64_t t0, std::int64_t t1, const Coord& within) {
  Coord c{t0, t1};
  c.insert(c.end(), within.begin(), within.end());
  return c;
}

int slot_of(const RegisterView& view, const Coord& coord) {
  return checked_int(view.slot(coord), "register slot of '" + view.buffer + "'");
}

NestOperand nest_operand(const Program& program, const OperandRef& ref) {
  const BufferDecl& buffer = program.buffer(ref.buffer, ref.loc);
  return NestOperand{buffer.name, buffer.dtype,
                     checked_int(buffer.layout.span(Axis::m()), "register span of '" + buffer.name + "'")};
}

}  // namespace

Nest build_nest(const MmaInst& inst, const Program& program, const GemmCall& call, const RegisterView& d,
                const RegisterView& a, const RegisterView& b, const RegisterView& c) {
  Nest nest;
  nest.inst = &inst;
  nest.d = nest_operand(program, call.d);
  nest.a = nest_operand(program, call.a);
  nest.b = nest_operand(program, call.b);
  nest.c = nest_operand(program, call.c);
  // Tile counts come from user extents: checked, never truncated (the mma
  // count was checked against the limit by dispatch()).
  nest.tiles_m = checked_int(d.shape[0], "M tiles");
  nest.tiles_n = checked_int(d.shape[1], "N tiles");
  nest.tiles_k = checked_int(a.shape[1], "K tiles");
  nest.use_c = call.beta == 1.0;

  const Frame& fa = inst.frame(Operand::A);
  const Frame& fb = inst.frame(Operand::B);
  const Frame& fc = inst.frame(Operand::C);
  const int m_regs = inst.m_regs(), n_regs = inst.n_regs();

  // A's registers per (m, k) and B's per (k, n), each computed once: the
  // nest repeats them tiles_n and tiles_m times.
  const auto registers = [&](const RegisterView& view, Operand op, const Frame& f, std::int64_t t0, std::int64_t t1) {
    std::vector<int> regs;
    for (int r = 0; r < f.regs; ++r)
      regs.push_back(register_of(view, tile_coord(t0, t1, inst.view_coord(op, r * f.per_reg())), f.per_reg()));
    return regs;
  };
  std::vector<std::vector<int>> a_regs, b_regs;  // [m * tiles_k + k], [k * tiles_n + n]
  for (std::int64_t m = 0; m < nest.tiles_m; ++m)
    for (std::int64_t k = 0; k < nest.tiles_k; ++k) a_regs.push_back(registers(a, Operand::A, fa, m, k));
  for (std::int64_t k = 0; k < nest.tiles_k; ++k)
    for (std::int64_t n = 0; n < nest.tiles_n; ++n) b_regs.push_back(registers(b, Operand::B, fb, k, n));

  for (std::int64_t m = 0; m < nest.tiles_m; ++m)
    for (std::int64_t n = 0; n < nest.tiles_n; ++n) {
      InitStmt init{static_cast<int>(m), static_cast<int>(n), {}, {}};  // m, n < tiles: fit in int
      for (int x = 0; x < m_regs * n_regs; ++x) {
        const Coord at = tile_coord(m, n, inst.view_coord(Operand::C, x));
        init.d_slots.push_back(slot_of(d, at));
        if (nest.use_c) init.c_slots.push_back(slot_of(c, at));
      }
      nest.stmts.emplace_back(std::move(init));

      // D (and C = D, accumulating in place).
      const std::vector<int> d_regs = registers(d, Operand::C, fc, m, n);
      for (std::int64_t k = 0; k < nest.tiles_k; ++k)
        nest.stmts.emplace_back(MmaStmt{static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), d_regs,
                                        a_regs[m * nest.tiles_k + k], b_regs[k * nest.tiles_n + n], d_regs});
    }
  return nest;
}

}  // namespace dispatch_detail
}  // namespace mmacheck
