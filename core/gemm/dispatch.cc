// dispatch(): TVM's dispatcher around the "mma.m16n8k*" gemm variant — the
// predicates, then the implementation's checks and instruction search, in
// the order of mma_m16n8k_.py.  The per-operand and per-instruction steps
// live in dispatch_operand.cc, dispatch_fragment.cc and dispatch_nest.cc.
#include "core/gemm/dispatch.h"
#include "core/gemm/dispatch_release.h"

#include <sstream>

#include "core/base/checked.h"
#include "core/gemm/dispatch_detail.h"
#include "core/gemm/resources.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

using namespace dispatch_detail;

namespace {

// TVM's names of the gemm's operands, in its order of checking.
constexpr const char* kNames[] = {"D", "A", "B", "C"};

// One gemm operand: its buffer and its (explicit or whole-buffer) region.
struct Bound {
  const BufferDecl& buffer;
  Region region;
};

Bound bind(const Program& program, const OperandRef& ref) {
  const BufferDecl& buffer = program.buffer(ref.buffer, ref.loc);
  Region region;
  for (std::int64_t extent : buffer.shape) region.emplace_back(0, extent);
  if (!ref.region) return Bound{buffer, region};
  if (ref.region->size() != buffer.shape.size())
    throw Error(ref.loc, "region of '" + ref.buffer + "' has " + std::to_string(ref.region->size()) +
                             " dims, the buffer has " + std::to_string(buffer.shape.size()));
  for (std::size_t i = 0; i < buffer.shape.size(); ++i) {
    const auto [begin, end] = (*ref.region)[i];
    if (begin < 0 || begin >= end || end > buffer.shape[i])
      throw Error(ref.loc, "region [" + std::to_string(begin) + ":" + std::to_string(end) + "] of '" + ref.buffer +
                               "' dim " + std::to_string(i) + " is empty or outside its extent " +
                               std::to_string(buffer.shape[i]));
  }
  return Bound{buffer, *ref.region};
}

// A number as the messages print it: "2", "0.5".
std::string number_str(double v) {
  std::ostringstream os;
  os.precision(15);
  os << v;
  return os.str();
}

// Python's str() of a list of TVM iters: [T.Iter(2, 1, "laneid")].
std::string iters_str(const std::vector<Iter>& iters) {
  std::string s = "[";
  for (std::size_t i = 0; i < iters.size(); ++i)
    s += (i ? ", " : "") + std::string("T.Iter(") + std::to_string(iters[i].extent) + ", " +
         std::to_string(iters[i].stride) + ", \"" + iters[i].axis.name() + "\")";
  return s + "]";
}

// full_active_lanes: mma.sync.aligned needs every thread of its scope.  A
// warp's active set is its lane range; a CTA's is all of its warps.
std::optional<std::string> full_active_lanes(const ExecScope& scope) {
  if (scope.kind == ExecScope::Kind::cta || scope.full_warp()) return std::nullopt;
  return "active laneid is [" + std::to_string(scope.lane_lo) + ", " + std::to_string(scope.lane_hi + 1) +
         "), need full [0, 32)";
}

// no_replica: the first operand (D, A, B, C) whose layout has replicas.
std::optional<std::string> no_replica(const Bound (&ops)[4]) {
  for (int i = 0; i < 4; ++i)
    if (!ops[i].buffer.layout.replica().empty())
      return std::string(kNames[i]) + " layout has replica " + iters_str(ops[i].buffer.layout.replica());
  return std::nullopt;
}

// _mat_extents: the region's non-unit extents, which must be two.
std::pair<std::int64_t, std::int64_t> mat_extents(const Bound& op, const char* name) {
  Shape extents;
  for (const auto& [begin, end] : op.region)
    if (end - begin != 1) extents.push_back(end - begin);
  if (extents.size() != 2)
    decline("gemm mma expects 2D " + std::string(name) + ", got non-unit extents " + list_text(extents));
  return {extents[0], extents[1]};
}

std::string dims_str(std::pair<std::int64_t, std::int64_t> dims) {
  return "(" + std::to_string(dims.first) + ", " + std::to_string(dims.second) + ")";
}

// The plan of the instruction that fits: register views and nest.
Plan plan_for(const Program& program, const GemmCall& call, const MmaInst& inst, const Fragments& f,
              const SplitOperand (&split)[4], Shape mnk, const Limits& limits) {
  using Groups = std::span<const Iter>;
  const Groups dv[] = {f.dm.group(2), f.dn.group(2), f.dm.group(3), f.dn.group(3)};
  const Groups av[] = {f.am.group(2), f.ak.group(2), f.am.group(3), f.ak.group(3), f.ak.group(4)};
  const Groups bv[] = {f.bk.group(2), f.bn.group(2), f.bk.group(3), f.bk.group(4)};
  const Groups cv[] = {f.cm.group(2), f.cn.group(2), f.cm.group(3), f.cn.group(3)};
  Plan plan;
  plan.ok = true;
  plan.inst = &inst;
  plan.m = mnk[0];
  plan.n = mnk[1];
  plan.k = mnk[2];
  plan.d = register_view(call.d.buffer, dv, split[0].offset);
  plan.a = register_view(call.a.buffer, av, split[1].offset);
  plan.b = register_view(call.b.buffer, bv, split[2].offset);
  plan.c = register_view(call.c.buffer, cv, split[3].offset);
  // The nest is unrolled: bound its size before building it.
  const std::optional<std::int64_t> mn = try_mul(plan.d.shape[0], plan.d.shape[1]);
  limits.check(Resource::mma, mn ? try_mul(*mn, plan.a.shape[1]) : std::nullopt, call.loc,
               "the " + std::to_string(plan.d.shape[0]) + " x " + std::to_string(plan.d.shape[1]) + " x " +
                   std::to_string(plan.a.shape[1]) + " tile nest");
  plan.nest = build_nest(inst, program, call, plan.d, plan.a, plan.b, plan.c);
  plan.tiles_m = plan.nest.tiles_m;
  plan.tiles_n = plan.nest.tiles_n;
  plan.tiles_k = plan.nest.tiles_k;
  return plan;
}

// TVM's implementation: the plan, or Declined.
Plan implement(const Program& program, const GemmCall& call, const Bound (&ops)[4], InstSet set, const Limits& limits) {
  const auto& [D, A, B, C] = ops;
  for (int i = 0; i < 4; ++i)
    if (ops[i].buffer.scope != MemScope::local)
      decline("gemm mma requires " + std::string(kNames[i]) + " in register (local) scope, got " +
              std::string(mem_scope_name(ops[i].buffer.scope)));
  // mma.sync has no scaling: alpha must be 1, beta selects C or nothing.
  if (call.alpha != 1.0) decline("gemm mma supports only alpha=1, got alpha=" + number_str(call.alpha));
  if (call.beta != 0.0 && call.beta != 1.0)
    decline("gemm mma supports only beta in {0, 1}, got beta=" + number_str(call.beta));

  const auto a_ext = mat_extents(A, "A");
  const auto b_ext = mat_extents(B, "B");
  const auto d_ext = mat_extents(D, "D");
  const auto c_ext = mat_extents(C, "C");
  const auto [M, K] = call.transpose_a ? std::pair{a_ext.second, a_ext.first} : a_ext;
  const auto [B_K, N] = call.transpose_b ? std::pair{b_ext.second, b_ext.first} : b_ext;
  // TVM asserts these: a gemm whose operands disagree is malformed input.
  if (B_K != K) throw Error(call.b.loc, "gemm mma: A K=" + std::to_string(K) + " != B K=" + std::to_string(B_K));
  const std::string mn = " != (M=" + std::to_string(M) + ", N=" + std::to_string(N) + ")";
  if (d_ext != std::pair{M, N}) throw Error(call.d.loc, "gemm mma: D dims " + dims_str(d_ext) + mn);
  if (c_ext != std::pair{M, N}) throw Error(call.c.loc, "gemm mma: C dims " + dims_str(c_ext) + mn);

  // Sliced in TVM's order (A, B, C, D), which decides whose failure is reported.
  const SplitOperand a = slice_and_split(A.buffer, A.region, call.transpose_a ? Shape{K, M} : Shape{M, K}, "A");
  const SplitOperand b = slice_and_split(B.buffer, B.region, call.transpose_b ? Shape{N, K} : Shape{K, N}, "B");
  const SplitOperand c = slice_and_split(C.buffer, C.region, {M, N}, "C");
  const SplitOperand d = slice_and_split(D.buffer, D.region, {M, N}, "D");
  const AlignedDims dims = align_dims(d, a, b, c, call.transpose_a, call.transpose_b);

  const DType sig[] = {A.buffer.dtype, B.buffer.dtype, C.buffer.dtype, D.buffer.dtype};
  for (const MmaInst& inst : mma_instructions()) {
    if (!inst.available(set) || M % inst.m || N % inst.n || K % inst.k) continue;
    if (sig[0] != inst.a || sig[1] != inst.b || sig[2] != inst.c || sig[3] != inst.d) continue;
    if (const std::optional<Fragments> f = match_fragments(dims, inst))
      return plan_for(program, call, inst, *f, {d, a, b, c}, {M, N, K}, limits);
  }
  std::string types;
  for (DType t : sig) types += (types.empty() ? "'" : ", '") + std::string(dtype_info(t).tvm) + "'";
  decline("no mma instruction fits M=" + std::to_string(M) + ", N=" + std::to_string(N) + ", K=" + std::to_string(K) +
          ", dtypes=(" + types + ")");
}

}  // namespace

Plan dispatch(const Program& program, InstSet set, const Limits& limits) {
  if (program.release) return dispatch_release(program, limits);  // the released TIRx's mma pattern
  (void)program.gemm_call();
  check_resources(program, limits);
  const GemmCall& call = *program.gemm;
  const Bound ops[4] = {bind(program, call.d), bind(program, call.a), bind(program, call.b), bind(program, call.c)};

  Plan rejected;
  if (auto reason = full_active_lanes(program.scope))
    rejected.reasons.push_back("rejected: full_active_lanes — " + *reason);
  if (auto reason = no_replica(ops)) rejected.reasons.push_back("rejected: no_replica — " + *reason);
  if (!rejected.reasons.empty()) return rejected;

  try {
    return implement(program, call, ops, set, limits);
  } catch (const Declined& declined) {
    Plan plan;
    plan.reasons.push_back("declined — " + declined.reason);
    return plan;
  }
}

InstSet parse_inst_set(std::string_view name) {
  if (name == "tvm") return InstSet::tvm;
  if (name == "extended") return InstSet::extended;
  throw Error("unknown instruction set '" + std::string(name) + "' (expected tvm or extended)");
}

}  // namespace mmacheck
