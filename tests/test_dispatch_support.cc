#include "tests/test_dispatch_support.h"

#include "core/gemm/shared_staging.h"

#include <map>
#include <set>
#include <tuple>
#include <variant>

namespace mmacheck::test {

namespace {
const Axis kLane = Axis::laneid();
const Axis kM = Axis::m();
}  // namespace

TileLayout d_frag() { return TileLayout({{2, 2, kM}, {8, 4, kLane}, {4, 1, kLane}, {2, 1, kM}}); }
TileLayout a_frag_k8() { return d_frag(); }
TileLayout b_frag_k8() { return TileLayout({{4, 1, kLane}, {2, 1, kM}, {8, 4, kLane}}); }
TileLayout a_frag() { return a_frag_k8().tile_to({16, 16}, {16, 8}); }
TileLayout b_frag() { return b_frag_k8().tile_to({16, 8}, {8, 8}); }

TileLayout transpose_frag(const TileLayout& layout, const Shape& shape) {
  const int perm[] = {1, 0};
  return layout.group(shape).permute_by_groups(perm);
}

TileLayout frame_layout(const MmaInst& inst, mmacheck::Operand op) {
  const std::int64_t m_regs = inst.m_regs(), n_regs = inst.n_regs(), k_hi = inst.k_hi(), kp = inst.k_pack;
  const Iter g{8, 4, kLane}, t{4, 1, kLane};
  switch (op) {
    case mmacheck::Operand::A: return TileLayout({{m_regs, kp, kM}, g, {k_hi, kp * m_regs, kM}, t, {kp, 1, kM}});
    case mmacheck::Operand::B: return TileLayout({{k_hi, kp, kM}, t, {kp, 1, kM}, g});
    case mmacheck::Operand::C: return TileLayout({{m_regs, n_regs, kM}, g, t, {n_regs, 1, kM}});
  }
  return TileLayout({});
}

Program make_program(const GemmSpec& spec) {
  Program p;
  p.file = "test.txt";
  const auto add = [&](const char* name, const Operand& op, int line) {
    p.buffers.push_back(
        BufferDecl{name, op.shape, op.dtype, op.scope, op.layout, SourceLoc{p.file, line, 1}, std::nullopt});
    return OperandRef{name, op.region, SourceLoc{p.file, 9, 6 + 3 * line}};
  };
  GemmCall call;
  call.d = add("D", spec.d, 1);
  call.a = add("A", spec.a, 2);
  call.b = add("B", spec.b, 3);
  call.c = add("C", spec.c, 4);
  call.transpose_a = spec.transpose_a;
  call.transpose_b = spec.transpose_b;
  call.alpha = spec.alpha;
  call.beta = spec.beta;
  call.loc = SourceLoc{p.file, 9, 1};
  p.scope = spec.scope;
  p.gemm = call;
  return p;
}

GemmSpec tiled(int mt, int nt, int kt, int kinst, DType dtype, double beta) {
  const std::int64_t M = 16 * mt, N = 8 * nt, K = kinst * kt;
  const TileLayout a_base = kinst == 16 ? a_frag() : a_frag_k8();
  const TileLayout b_base = kinst == 16 ? b_frag() : b_frag_k8();
  const TileLayout d = d_frag().tile_to({M, N}, {16, 8});
  const TileLayout a = a_base.tile_to({M, K}, {16, kinst});
  const TileLayout b = b_base.tile_to({K, N}, {kinst, 8});
  GemmSpec spec{{{M, N}, DType::f32, d}, {{M, K}, dtype, a}, {{K, N}, dtype, b}, {{M, N}, DType::f32, d}};
  spec.beta = beta;
  return spec;
}

GemmSpec single(DType a, DType b, DType c, DType d) {
  return GemmSpec{{{16, 8}, d, d_frag()}, {{16, 16}, a, a_frag()}, {{16, 8}, b, b_frag()}, {{16, 8}, c, d_frag()}};
}

namespace {

using Coord = std::pair<std::int64_t, std::int64_t>;  // logical (row, col) of the operand

// (thread, slot) -> logical coordinate of the operand's region (transposed
// back to the gemm's orientation when `transpose`).  A layout on laneid alone
// is every warp's own copy.
class StorageMap {
 public:
  StorageMap(const BufferDecl& buffer, const Region& region, bool transpose) {
    for (const Iter& it : buffer.layout.shard())
      per_warp_ = per_warp_ || it.axis == Axis::warpid() || it.axis == Axis::tx();
    const Shape& shape = buffer.shape;
    std::vector<std::int64_t> coord(shape.size(), 0);
    std::int64_t total = 1;
    for (std::int64_t e : shape) total *= e;
    for (std::int64_t flat = 0; flat < total; ++flat) {
      std::int64_t rest = flat;
      for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
        coord[d] = rest % shape[d];
        rest /= shape[d];
      }
      bool inside = true;
      std::vector<std::int64_t> logical;
      for (std::size_t d = 0; d < shape.size(); ++d) {
        inside = inside && coord[d] >= region[d].first && coord[d] < region[d].second;
        if (region[d].second - region[d].first != 1) logical.push_back(coord[d] - region[d].first);
      }
      for (const Owner& o : buffer.layout.apply(coord, shape)) {
        const std::int64_t thread = o.count(Axis::tx())
                                        ? owner_coord(o, Axis::tx())
                                        : 32 * owner_coord(o, Axis::warpid()) + owner_coord(o, Axis::laneid());
        const Coord c = !inside     ? Coord{-1, -1}
                        : transpose ? Coord{logical[1], logical[0]}
                                    : Coord{logical[0], logical[1]};
        auto [it, fresh] = map_.emplace(std::pair{thread, owner_coord(o, Axis::m())}, c);
        if (!fresh) ambiguous_ = true;
      }
    }
  }
  // nullopt when nothing is stored there; {-1, -1} when what is stored there
  // lies outside the operand's region.
  std::optional<Coord> at(std::int64_t thread, std::int64_t slot) const {
    const auto it = map_.find({per_warp_ ? thread : thread % 32, slot});
    if (it == map_.end()) return std::nullopt;
    return it->second;
  }
  bool ambiguous() const { return ambiguous_; }
  // Every (thread, slot) that holds an element, for the threads of one warp
  // when the layout is per-warp-copy.
  const std::map<std::pair<std::int64_t, std::int64_t>, Coord>& entries() const { return map_; }
  bool per_warp() const { return per_warp_; }

 private:
  std::map<std::pair<std::int64_t, std::int64_t>, Coord> map_;
  bool ambiguous_ = false;
  bool per_warp_ = false;
};

Region region_of(const Program& p, const OperandRef& ref) {
  const BufferDecl& b = p.buffer(ref.buffer, ref.loc);
  if (ref.region) return *ref.region;
  Region r;
  for (std::int64_t e : b.shape) r.emplace_back(0, e);
  return r;
}

std::string str(const Coord& c) { return "(" + std::to_string(c.first) + ", " + std::to_string(c.second) + ")"; }

}  // namespace

std::string nest_semantics_problem(const Program& p, const Plan& plan) {
  if (!plan.ok) return "plan not ok";
  const GemmCall& call = *p.gemm;
  const StorageMap dmap(p.buffer(call.d.buffer, {}), region_of(p, call.d), false);
  const StorageMap cmap(p.buffer(call.c.buffer, {}), region_of(p, call.c), false);
  const StorageMap amap(p.buffer(call.a.buffer, {}), region_of(p, call.a), call.transpose_a);
  const StorageMap bmap(p.buffer(call.b.buffer, {}), region_of(p, call.b), call.transpose_b);
  if (dmap.ambiguous() || amap.ambiguous() || bmap.ambiguous() || cmap.ambiguous())
    return "a layout stores two elements in one slot";
  const MmaInst& inst = *plan.inst;
  const Frame& fa = inst.frame(mmacheck::Operand::A);
  const Frame& fb = inst.frame(mmacheck::Operand::B);
  const Frame& fc = inst.frame(mmacheck::Operand::C);
  const int warps = p.scope.warps();

  // Element `e` of a frame held by `lane`, given the mma's register list.
  const auto element = [](const StorageMap& map, const Frame& f, const std::vector<int>& regs, std::int64_t thread,
                          int e) {
    return map.at(thread, std::int64_t{regs[e / f.per_reg()]} * f.per_reg() + e % f.per_reg());
  };

  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, int> products;
  for (int w = 0; w < warps; ++w) {
    std::set<std::int64_t> initialized;  // D slots of lane 0 set by the current tile's init
    for (const NestStmt& stmt : plan.nest.stmts) {
      if (const auto* init = std::get_if<InitStmt>(&stmt)) {
        initialized = std::set<std::int64_t>(init->d_slots.begin(), init->d_slots.end());
        if (plan.nest.use_c != !init->c_slots.empty()) return "init does not follow beta";
        for (std::size_t i = 0; i < init->c_slots.size(); ++i)
          for (int lane = 0; lane < 32; ++lane) {
            const auto dc = dmap.at(32 * w + lane, init->d_slots[i]);
            const auto cc = cmap.at(32 * w + lane, init->c_slots[i]);
            if (!dc || !cc || *dc != *cc) return "init copies C to the wrong D element";
          }
        continue;
      }
      const MmaStmt& mma = std::get<MmaStmt>(stmt);
      if (mma.c != mma.d) return "mma does not accumulate in place";
      for (int r = 0; r < fc.regs; ++r)
        for (int e = 0; e < fc.per_reg(); ++e)
          if (!initialized.count(std::int64_t{mma.d[r]} * fc.per_reg() + e))
            return "mma accumulates into a slot its tile's init did not set";
      // Tile-local views: D[row][col], A[row][k], B[k][col] -> logical coords.
      std::map<std::pair<int, int>, Coord> d_at, a_at, b_at;
      for (int lane = 0; lane < 32; ++lane) {
        const std::int64_t thread = 32 * w + lane;
        const auto record = [&](auto& into, const StorageMap& map, const Frame& f, const std::vector<int>& regs,
                                const char* what) -> std::string {
          for (int e = 0; e < f.elems(); ++e) {
            const auto c = element(map, f, regs, thread, e);
            if (!c || c->first < 0)
              return std::string(what) + " register of lane " + std::to_string(lane) + " element " + std::to_string(e) +
                     " holds no element of the operand";
            const TileCoord t = f.at(lane, e);
            into[{t.row, t.col}] = *c;
          }
          return "";
        };
        for (const std::string& problem : {record(d_at, dmap, fc, mma.d, "D"), record(a_at, amap, fa, mma.a, "A"),
                                           record(b_at, bmap, fb, mma.b, "B")})
          if (!problem.empty()) return problem;
      }
      for (int i = 0; i < inst.m; ++i)
        for (int j = 0; j < inst.n; ++j)
          for (int kk = 0; kk < inst.k; ++kk) {
            const Coord d = d_at.at({i, j}), a = a_at.at({i, kk}), b = b_at.at({kk, j});
            if (d.first != a.first || d.second != b.second || a.second != b.first)
              return "mma (" + std::to_string(mma.tile_m) + ", " + std::to_string(mma.tile_n) + ", " +
                     std::to_string(mma.tile_k) + ") multiplies A" + str(a) + " by B" + str(b) + " into D" + str(d);
            ++products[{d.first, d.second, a.second}];
          }
    }
  }
  for (const auto& [mnk, count] : products)
    if (count != 1) return "a product is formed " + std::to_string(count) + " times";
  if (static_cast<std::int64_t>(products.size()) != plan.m * plan.n * plan.k)
    return "only " + std::to_string(products.size()) + " of the " + std::to_string(plan.m * plan.n * plan.k) +
           " products are formed";
  return "";
}

std::optional<StagingMismatch> staging_mismatch(const Program& p) {
  const auto check = [&](const std::string& what, const std::string& buffer_name, const IndexExpr& row,
                         const IndexExpr& col) -> std::optional<StagingMismatch> {
    const BufferDecl& buffer = p.buffer(buffer_name, {});
    Region whole;
    for (std::int64_t e : buffer.shape) whole.emplace_back(0, e);
    const StorageMap map(buffer, whole, false);
    for (int thread = 0; thread < 32 * p.scope.warps(); ++thread)
      for (const auto& [at, expected] : map.entries()) {
        if (at.first != (map.per_warp() ? thread : thread % 32)) continue;
        const IndexEnv env{thread % 32, thread / 32, thread, at.second};
        const Coord actual{row.eval(env), col.eval(env)};
        if (actual != expected)
          return StagingMismatch{what + " " + buffer_name, thread, static_cast<int>(at.second), expected, actual};
      }
    return std::nullopt;
  };
  for (const StageStmt& st : p.stages)
    if (auto m = check("stage", st.buffer, st.row, st.col)) return m;
  for (const StoreStmt& st : p.stores)
    if (auto m = check("store", st.buffer, st.row, st.col)) return m;
  // Shared-memory staging (core/gemm/shared_staging.h): what every lane's
  // slot ends up with, composed from fill, swizzle and ldmatrix addresses.
  for (const SharedCopyStmt& c : p.copies) {
    const BufferDecl& buffer = p.buffer(c.reg, {});
    Region whole;
    for (std::int64_t e : buffer.shape) whole.emplace_back(0, e);
    const StorageMap map(buffer, whole, false);
    const int slots = static_cast<int>(buffer.layout.span(Axis::m()));
    const SlotTable t = shared_slot_table(*shared_stage(p, buffer, slots, c.store()), buffer, slots);
    for (const auto& [at, expected] : map.entries()) {
      const std::int32_t i = t.at(static_cast<int>(at.first), static_cast<int>(at.second));
      const Coord actual = i < 0 ? Coord{-1, -1} : Coord{i / t.cols, i % t.cols};
      if (actual != expected)
        return StagingMismatch{(c.store() ? "store " : "stage ") + c.reg, static_cast<int>(at.first),
                               static_cast<int>(at.second), expected, actual};
    }
  }
  return std::nullopt;
}

}  // namespace mmacheck::test
