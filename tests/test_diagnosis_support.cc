#include "tests/test_diagnosis_support.h"

#include "core/gemm/dispatch.h"
#include "core/program/layout_parser.h"

namespace mmacheck::test {

const OperandPlace& operand_view(const GemmGeometry& g, const std::string& role) {
  return role == "A" ? g.a : role == "B" ? g.b : role == "C" ? g.c : g.d;
}

bool layout_places(const Program& p, const OperandPlace& v, const Element& e, int warp, int lane, std::int64_t slot) {
  if (e.size() != 2 || e[0] < 0 || e[0] >= v.rows() || e[1] < 0 || e[1] >= v.cols()) return false;
  const BufferDecl& b = p.buffer(v.buffer(), {});
  for (const Owner& o : b.layout.apply(v.to_buffer(e[0], e[1]), b.shape)) {
    bool at = owner_coord(o, Axis::m()) == slot;
    if (o.count(Axis::laneid())) at = at && o.at(Axis::laneid()) == lane;
    if (o.count(Axis::warpid())) at = at && o.at(Axis::warpid()) == warp;
    if (o.count(Axis::tx())) at = at && o.at(Axis::tx()) == 32 * warp + lane;
    if (at) return true;
  }
  return false;
}

std::optional<Element> layout_holds(const Program& p, const OperandPlace& v, int warp, int lane, std::int64_t slot) {
  for (std::int64_t i = 0; i < v.rows(); ++i)
    for (std::int64_t j = 0; j < v.cols(); ++j)
      if (layout_places(p, v, {i, j}, warp, lane, slot)) return Element{i, j};
  return std::nullopt;
}

Holdings layout_holdings(const Program& p, const OperandPlace& v) {
  Holdings out;
  const BufferDecl& b = p.buffer(v.buffer(), {});
  for (std::int64_t i = 0; i < v.rows(); ++i)
    for (std::int64_t j = 0; j < v.cols(); ++j)
      for (const Owner& o : b.layout.apply(v.to_buffer(i, j), b.shape))
        for (int w = 0; w < p.scope.warps(); ++w) {
          const std::int64_t lane = o.count(Axis::tx()) ? o.at(Axis::tx()) - 32 * w : owner_coord(o, Axis::laneid());
          if (o.count(Axis::warpid()) && o.at(Axis::warpid()) != w) continue;
          if (o.count(Axis::tx()) && (lane < 0 || lane >= 32)) continue;
          out.emplace(std::tuple{w, static_cast<int>(lane), owner_coord(o, Axis::m())}, Element{i, j});
        }
  return out;
}

bool diagnosis_true(const Program& p, const Diagnosis& d) {
  if (!d.counterexample) return false;
  const Counterexample& cx = *d.counterexample;
  const GemmGeometry g = gemm_geometry(p);
  const OperandPlace& v = operand_view(g, d.operand);
  const int warp = cx.warp.value_or(0);
  const int warps = p.scope.warps();
  if (d.property == DiagnosisProperty::lane_range)
    return cx.actual && layout_places(p, v, *cx.actual, warp, cx.lane, cx.slot) &&
           (cx.lane < 0 || cx.lane >= 32 || warp < 0 || warp >= warps);
  if (d.property == DiagnosisProperty::injectivity)
    return cx.expected && cx.actual && *cx.expected != *cx.actual &&
           layout_places(p, v, *cx.expected, warp, cx.lane, cx.slot) &&
           layout_places(p, v, *cx.actual, warp, cx.lane, cx.slot);
  if (d.property == DiagnosisProperty::replica) {
    const BufferDecl& b = p.buffer(v.buffer(), {});
    return !b.layout.replica().empty() && cx.actual && layout_places(p, v, *cx.actual, warp, cx.lane, cx.slot);
  }
  if (d.property == DiagnosisProperty::coverage) {
    std::int64_t held = 0;
    for (const auto& [at, e] : layout_holdings(p, v)) held += std::get<0>(at) == warp && std::get<1>(at) == cx.lane;
    return held * 32 != v.rows() * v.cols() && layout_holds(p, v, warp, cx.lane, cx.slot) == cx.actual;
  }
  if (d.property == DiagnosisProperty::frame) {
    const MmaInst* inst = nullptr;
    for (const MmaInst& i : mma_instructions())
      if (i.ptx() == d.instruction) inst = &i;
    if (!inst || !cx.expected || cx.expected == cx.actual) return false;
    if (layout_holds(p, v, warp, cx.lane, cx.slot) != cx.actual) return false;
    const Frame& f = inst->frame(d.operand == "A" ? Operand::A : d.operand == "B" ? Operand::B : Operand::C);
    for (int e = 0; e < f.elems(); ++e)
      if ((*cx.expected)[0] % f.rows == f.row.at(cx.lane, e) && (*cx.expected)[1] % f.cols == f.col.at(cx.lane, e))
        return true;
    return false;
  }
  return false;
}

bool counterexample_true(const Program& p, const Counterexample& cx) {
  const GemmGeometry g = gemm_geometry(p);
  const int warp = cx.warp.value_or(0);
  if (is_staging(cx.check.kind)) {
    const auto check_one = [&](const std::string& buffer, const IndexExpr& row, const IndexExpr& col) {
      const IndexEnv env{cx.lane, warp, 32 * std::int64_t{warp} + cx.lane, cx.slot};
      if (!cx.actual || Element{row.eval(env), col.eval(env)} != *cx.actual) return false;
      // What the staged buffer's own layout keeps there, the buffer seen whole.
      const OperandPlace whole(p, OperandRef{buffer, std::nullopt, {}}, false);
      const std::optional<Element> held = layout_holds(p, whole, warp, cx.lane, cx.slot);
      return held == cx.expected && held != cx.actual;
    };
    for (const StageStmt& s : p.stages)
      if (cx.check == CheckId{CheckKind::stage, s.buffer}) return check_one(s.buffer, s.row, s.col);
    for (const StoreStmt& s : p.stores)
      if (cx.check == CheckId{CheckKind::store, s.buffer}) return check_one(s.buffer, s.row, s.col);
    return false;
  }
  const std::string role = cx.operand == "C" && p.gemm->c.buffer == p.gemm->d.buffer ? "D" : cx.operand;
  const OperandPlace& v = operand_view(g, role);
  if (cx.check.kind == CheckKind::frame)
    return cx.expected != cx.actual && layout_holds(p, v, warp, cx.lane, cx.slot) == cx.actual;
  if (cx.check.kind == CheckKind::fragment) {
    if (cx.actual)  // two elements in one place
      return layout_places(p, v, *cx.expected, warp, cx.lane, cx.slot) &&
             layout_places(p, v, *cx.actual, warp, cx.lane, cx.slot);
    return cx.expected && layout_places(p, v, *cx.expected, warp, cx.lane, cx.slot) &&
           (cx.lane < 0 || cx.lane >= 32 || warp >= p.scope.warps() || cx.slot < 0);
  }
  return cx.operand == "D";  // accumulation: judged by the tests of core/prove
}

std::optional<Program> apply_fix(const Program& p, const std::string& buffer, const std::string& text) {
  LayoutNames names;
  for (const LayoutBinding& b : p.layouts) names.layouts.insert_or_assign(b.name, LayoutValue(b.layout));
  try {
    const TileLayout layout = layout_of(parse_layout(text, "fix", names));
    Program q = p;
    for (BufferDecl& b : q.buffers)
      if (b.name == buffer) b.layout = layout;
    return q;
  } catch (const Error&) {
    return std::nullopt;
  }
}

bool fully_proved(const Program& p, InstSet set) {
  const Plan plan = dispatch(p, set);
  if (!plan.ok) return false;
  ProveOptions options;
  options.method = ProofMethod::exhaustive;
  options.inst_set = set;
  options.explain = false;
  return prove(p, plan, options).verdict == Verdict::proved;
}

}  // namespace mmacheck::test
