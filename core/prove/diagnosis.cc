// diagnose(): the admissible instructions, each operand's first failing
// property, and the fixes (core/prove/diagnosis.h).
#include "core/prove/diagnosis.h"

#include <map>

#include "core/prove/fix_search.h"

namespace mmacheck::prove_detail {

namespace {

std::string dtypes_str(const DType (&sig)[4]) {
  std::string s;
  for (DType t : sig) s += (s.empty() ? "'" : ", '") + std::string(dtype_info(t).tvm) + "'";
  return "(" + s + ")";
}

bool takes(const MmaInst& inst, const DType (&sig)[4]) {
  return inst.a == sig[0] && inst.b == sig[1] && inst.c == sig[2] && inst.d == sig[3];
}

bool divides(const MmaInst& inst, const GemmGeometry& g) {
  return g.m % inst.m == 0 && g.n % inst.n == 0 && g.k % inst.k == 0;
}

Diagnosis note(std::string instruction, DiagnosisProperty property, std::string message) {
  Diagnosis d;
  d.instruction = std::move(instruction);
  d.property = property;
  d.message = std::move(message);
  return d;
}

}  // namespace

std::string register_role(GemmOperand op, const MmaInst& inst, std::int64_t di, std::int64_t dj) {
  const auto along_k = [&](std::int64_t d) { return d < inst.k_pack ? "kp" : d < inst.k ? "kHi" : "Ko"; };
  switch (op) {
    case GemmOperand::A: return di ? (di < inst.m ? "rM" : "Mo") : along_k(dj);
    case GemmOperand::B: return di ? along_k(di) : "No";
    default: return di ? (di < inst.m ? "rM" : "Mo") : (dj < inst.n ? "rN" : "No");
  }
}

std::string iter_role(const Program& program, const OperandPlace& view, GemmOperand op, const MmaInst& inst,
                      int index) {
  const BufferDecl& b = program.buffer(view.buffer(), {});
  const std::vector<Iter>& shard = b.layout.shard();
  std::int64_t step = 1;
  for (std::size_t j = static_cast<std::size_t>(index) + 1; j < shard.size(); ++j) step *= shard[j].extent;
  if (step >= b.layout.size() || b.shape.size() != 2) return "";
  const auto logical = [&](std::int64_t flat) { return view.from_buffer(Shape{flat / b.shape[1], flat % b.shape[1]}); };
  const auto a = logical(0), c = logical(step);
  if (!a || !c) return "";
  const std::int64_t di = (*c)[0] - (*a)[0], dj = (*c)[1] - (*a)[1];
  if ((di != 0) == (dj != 0) || di < 0 || dj < 0) return "";
  const Axis& axis = shard[static_cast<std::size_t>(index)].axis;
  if (axis == Axis::m()) return register_role(op, inst, di, dj);
  if (axis == Axis::laneid()) return (op == GemmOperand::B) == (di != 0) ? "t" : "g";
  return "";
}

std::string user_layout_text(const TileLayout& layout) {
  std::string s;
  for (const char c : layout.str()) s += c == '@' ? std::string(" @ ") : std::string(1, c);
  return s;
}

std::vector<Diagnosis> diagnose(const Program& program, const ProveOptions& options,
                                const std::vector<std::string>& reasons) {
  std::vector<Diagnosis> out;
  std::optional<GemmGeometry> geometry;
  try {
    geometry = gemm_geometry(program);
  } catch (const Error&) {
    return out;  // operands TVM cannot read as matrices: its reasons say why
  }
  const GemmGeometry& g = *geometry;
  const GemmCall& call = *program.gemm;
  const DType sig[] = {g.a.dtype(), g.b.dtype(), g.c.dtype(), g.d.dtype()};

  std::vector<const MmaInst*> admitted;
  for (const MmaInst& inst : mma_instructions())
    if (inst.available(options.inst_set) && takes(inst, sig) && divides(inst, g)) admitted.push_back(&inst);
  InstSet set = options.inst_set;
  if (admitted.empty() && options.inst_set == InstSet::tvm) {
    for (const MmaInst& inst : mma_instructions())
      if (takes(inst, sig) && divides(inst, g)) admitted.push_back(&inst);
    if (!admitted.empty()) {
      out.push_back(note(admitted.front()->ptx(), DiagnosisProperty::instruction_set,
                         "the dtypes " + dtypes_str(sig) +
                             " need --inst-set extended: TVM's instructions take none of "
                             "them; " +
                             admitted.front()->ptx() + " does"));
      set = InstSet::extended;
    }
  }
  if (admitted.empty()) {
    std::string tiles;
    for (const MmaInst& inst : mma_instructions())
      if (takes(inst, sig) && (inst.available(options.inst_set) || options.inst_set == InstSet::tvm))
        tiles += (tiles.empty() ? "" : ", ") + inst.shape() + (inst.in_tvm ? "" : " (--inst-set extended)");
    const std::string mnk = "M=" + std::to_string(g.m) + ", N=" + std::to_string(g.n) + ", K=" + std::to_string(g.k);
    if (!tiles.empty())
      out.push_back(note("", DiagnosisProperty::shape,
                         mnk + " is not a multiple of any instruction tile for these dtypes: " + tiles));
    else
      out.push_back(
          note("", DiagnosisProperty::dtypes,
               "no mma instruction takes the dtypes " + dtypes_str(sig) + " (A, B, C, D), in any instruction set"));
    return out;
  }

  std::vector<GemmOperand> operands{GemmOperand::A, GemmOperand::B};
  if (call.c.buffer != call.d.buffer && call.beta == 1.0) operands.push_back(GemmOperand::C);
  operands.push_back(GemmOperand::D);
  const auto buffer_of = [&](GemmOperand op) -> const OperandPlace& {
    return op == GemmOperand::A ? g.a : op == GemmOperand::B ? g.b : op == GemmOperand::C ? g.c : g.d;
  };
  std::map<std::string, std::optional<Fix>> fixes;  // by instruction and buffer
  for (const MmaInst* inst : admitted) {
    std::vector<std::size_t> failing;
    for (GemmOperand op : operands) {
      const std::string& buffer = buffer_of(op).buffer();
      if (program.buffer(buffer, {}).scope != MemScope::local) continue;  // TVM's reason says so
      std::optional<Finding> f = operand_fit(program, g, op, *inst);
      if (!f) continue;
      Diagnosis d;
      d.instruction = inst->ptx();
      d.operand = gemm_operand_name(op);
      d.property = f->property;
      d.message = f->cx.message;
      d.counterexample = std::move(f->cx);
      std::string key = inst->ptx() + "/" + buffer;
      // A fix that proves the program holds whatever instruction it was found for.
      if (const auto proved = fixes.find(buffer); proved != fixes.end()) key = buffer;
      if (!fixes.count(key)) {
        const auto fits = [&, op](const Program& p) {
          return !operand_fit(p, gemm_geometry(p), op, *inst).has_value();
        };
        const auto name = [&, op](int i) { return iter_role(program, buffer_of(op), op, *inst, i); };
        fixes[key] = search_fix(program, buffer, set, options.limits, fits, name);
        if (fixes[key] && fixes[key]->proves) fixes[buffer] = fixes[key];
      }
      if (const std::optional<Fix>& fix = fixes[key]) {
        d.fix = fix->text;
        d.fix_line = fix->line;
        d.fix_reason = fix->reason + (set != options.inst_set ? ", with --inst-set extended" : "");
        d.fix_proves = fix->proves;
      } else if (const auto capped = fix_search_capped(program, buffer, options.limits)) {
        d.fix_reason = *capped;
      } else {
        d.fix_reason = "no single change of " + buffer + "'s layout makes it fit the " + inst->shape() + " frame";
      }
      failing.push_back(out.size());
      out.push_back(std::move(d));
    }
    if (failing.empty() && set != options.inst_set) {
      out.push_back(note(inst->ptx(), DiagnosisProperty::fits,
                         "every operand's layout fits the " + inst->shape() +
                             " frame; with --inst-set extended the "
                             "program " +
                             (proves(program, set) ? "dispatches and proves" : "dispatches to it")));
      continue;
    }
    if (failing.empty()) {
      out.push_back(note(inst->ptx(), DiagnosisProperty::fits,
                         "every operand's layout fits the " + inst->shape() +
                             " frame on its own; TVM declines for "
                             "another reason: " +
                             (reasons.empty() ? std::string("?") : reasons.front())));
      continue;
    }
    // Several operands wrong: each fix fits its operand; together they may prove.
    bool all = failing.size() > 1;
    for (std::size_t i : failing) all = all && out[i].fix && !out[i].fix_proves;
    if (!all) continue;
    Program joint = program;
    for (std::size_t i : failing) {
      const auto op = out[i].operand == "A"   ? GemmOperand::A
                      : out[i].operand == "B" ? GemmOperand::B
                      : out[i].operand == "C" ? GemmOperand::C
                                              : GemmOperand::D;
      joint = with_layout(joint, buffer_of(op).buffer(), fixes[inst->ptx() + "/" + buffer_of(op).buffer()]->layout);
    }
    if (proves(joint, set))
      for (std::size_t i : failing) {
        out[i].fix_proves = true;
        out[i].fix_reason += " (together with the other operands' fixes)";
      }
  }
  return out;
}

}  // namespace mmacheck::prove_detail
