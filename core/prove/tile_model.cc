// TileModel: is the nest the views' canonical unrolling, with affine origins?
#include "core/prove/tile_model.h"

#include <optional>
#include <variant>

namespace mmacheck::prove_detail {

namespace {

using Coord = std::vector<std::int64_t>;

Coord tile_coord(std::int64_t t0, std::int64_t t1, const Coord& within) {
  Coord c{t0, t1};
  c.insert(c.end(), within.begin(), within.end());
  return c;
}

// The registers a tile of the view passes (the dispatch's reading of the
// view), or nullopt where a slot is negative (the symbolic slot formula
// divides unsigned).
std::optional<std::vector<int>> tile_registers(const RegisterView& view, const MmaInst& inst, Operand op,
                                               std::int64_t t0, std::int64_t t1) {
  const Frame& f = inst.frame(op);
  std::vector<int> regs;
  for (int r = 0; r < f.regs; ++r) {
    const std::int64_t slot = view.slot(tile_coord(t0, t1, inst.view_coord(op, r * f.per_reg())));
    if (slot < 0) return std::nullopt;
    regs.push_back(static_cast<int>(slot / f.per_reg()));
  }
  return regs;
}

// Per tile (t0 * count1 + t1) its registers; nullopt where some slot is negative.
std::optional<std::vector<std::vector<int>>> register_table(const RegisterView& view, const MmaInst& inst, Operand op,
                                                            int count0, int count1) {
  std::vector<std::vector<int>> table;
  for (int t0 = 0; t0 < count0; ++t0)
    for (int t1 = 0; t1 < count1; ++t1) {
      auto regs = tile_registers(view, inst, op, t0, t1);
      if (!regs) return std::nullopt;
      table.push_back(std::move(*regs));
    }
  return table;
}

std::string at_stmt(int p) { return "statement " + std::to_string(p) + " "; }

}  // namespace

TileModel::TileModel(const ProofSetup& setup) : setup_(setup) {
  const Nest& nest = setup.plan.nest;
  const MmaInst& inst = setup.inst;
  tiles_m = nest.tiles_m;
  tiles_n = nest.tiles_n;
  tiles_k = nest.tiles_k;
  const auto gap_all = [&](const std::string& why) {
    for (std::string& g : frames_gap_)
      if (g.empty()) g = why;
    if (accumulation_gap_.empty()) accumulation_gap_ = why;
  };

  // 0. The released TIRx's views (core/gemm/dispatch_release.h) index the
  //    pattern's operand images, not (tile, tile, coordinates within it).
  if (setup.program.release) {
    gap_all("the released TIRx's views are not indexed by tile");
    return;
  }

  // 1. The dispatch's order: per (tm, tn) an init, then the mma of each tk.
  if (const auto p = nest.first_out_of_order()) {
    if (*p == nest.stmts.size()) {
      gap_all("the nest has " + std::to_string(nest.stmts.size()) + " statements, not one init and " +
              std::to_string(tiles_k) + " mma per output tile");
      return;
    }
    const std::int64_t block = std::int64_t{tiles_k} + 1;
    const std::int64_t t = static_cast<std::int64_t>(*p) / block, r = static_cast<std::int64_t>(*p) % block;
    gap_all(at_stmt(static_cast<int>(*p)) + "is not the " + (r == 0 ? "init" : "mma") + " of tile (" +
            std::to_string(t / tiles_n) + ", " + std::to_string(t % tiles_n) +
            (r == 0 ? "" : ", " + std::to_string(r - 1)) + ") of the views' unrolling");
    return;
  }

  // 2. Affine origins: per warp, tile (0, 0, 0)'s plus the tile index times
  //    the instruction's extent, every component defined.
  for (int w = 0; w < setup.warps; ++w) {
    const Origin& o = setup.mmas.front().origin[w];
    if (!o.m0 || !o.n0 || !o.k0) {
      gap_all("warp " + std::to_string(w) + " has no tile origin");
      return;
    }
    base_m_.push_back(*o.m0);
    base_n_.push_back(*o.n0);
    base_k_.push_back(*o.k0);
  }
  for (const MmaRef& ref : setup.mmas)
    for (int w = 0; w < setup.warps; ++w) {
      const Origin& o = ref.origin[w];
      const MmaStmt& m = *ref.mma;
      if (o.m0 != base_m_[w] + std::int64_t{m.tile_m} * inst.m ||
          o.n0 != base_n_[w] + std::int64_t{m.tile_n} * inst.n ||
          o.k0 != base_k_[w] + std::int64_t{m.tile_k} * inst.k) {
        gap_all(at_stmt(ref.stmt) + "in warp " + std::to_string(w) +
                " has a tile origin that is not its tile index times the instruction's extent");
        return;
      }
    }

  // 3. Each operand's registers are the view's at the statement's tile.
  using G = GemmOperand;
  for (G op : {G::A, G::B, G::C, G::D}) {
    std::string& gap = frames_gap_[static_cast<int>(op)];
    const auto [c0, c1] = frame_tiles(op);
    const auto table = register_table(frame_view(op), inst, ProofSetup::frame_operand(op), c0, c1);
    if (!table) {
      gap = "the " + std::string(gemm_operand_name(op)) + " view has a negative slot";
      continue;
    }
    for (const MmaRef& ref : setup.mmas) {
      const MmaStmt& m = *ref.mma;
      const std::int64_t t0 = op == G::B ? m.tile_k : m.tile_m;
      const std::int64_t t1 = op == G::A ? m.tile_k : m.tile_n;
      if (ProofSetup::registers(m, op) != (*table)[t0 * c1 + t1]) {
        gap = at_stmt(ref.stmt) + "passes " + std::string(gemm_operand_name(op)) +
              " registers other than the view's at its tile";
        break;
      }
    }
  }

  // 4. Inits: the D view's slots of the tile (and C's, beta = 1), every D
  //    slot of the span in exactly one tile.
  const std::int64_t span = setup.storage(G::D).span();
  const int elems = inst.m_regs() * inst.n_regs();
  std::vector<char> seen(static_cast<std::size_t>(span), 0);
  std::int64_t covered = 0;
  for (std::size_t p = 0; p < nest.stmts.size() && accumulation_gap_.empty(); ++p) {
    const auto* init = std::get_if<InitStmt>(&nest.stmts[p]);
    if (!init) continue;
    std::vector<int> d, c;
    for (int x = 0; x < elems; ++x) {
      const Coord at = tile_coord(init->tile_m, init->tile_n, inst.view_coord(Operand::C, x));
      d.push_back(static_cast<int>(setup.plan.d.slot(at)));
      if (setup.beta_one) c.push_back(static_cast<int>(setup.plan.c.slot(at)));
    }
    if (init->d_slots != d || init->c_slots != c) {
      accumulation_gap_ = at_stmt(static_cast<int>(p)) + "initialises slots other than the views' of its tile";
      break;
    }
    for (int s : d) {
      if (s < 0 || s >= span || seen[s]) {
        accumulation_gap_ = "the D view's tiles do not partition the D slots 0 .. " + std::to_string(span - 1);
        break;
      }
      seen[s] = 1;
      ++covered;
    }
  }
  if (accumulation_gap_.empty() && covered != span)
    accumulation_gap_ = "the D view's tiles do not cover the D slots 0 .. " + std::to_string(span - 1);
}

const RegisterView& TileModel::frame_view(GemmOperand op) const {
  const Plan& plan = setup_.plan;
  return op == GemmOperand::A ? plan.a : op == GemmOperand::B ? plan.b : plan.d;
}

std::array<int, 2> TileModel::frame_tiles(GemmOperand op) const {
  if (op == GemmOperand::A) return {tiles_m, tiles_k};
  if (op == GemmOperand::B) return {tiles_k, tiles_n};
  return {tiles_m, tiles_n};
}

int TileModel::mma_index(std::int64_t tm, std::int64_t tn, std::int64_t tk) const {
  return static_cast<int>((tm * tiles_n + tn) * tiles_k + tk);
}

}  // namespace mmacheck::prove_detail
