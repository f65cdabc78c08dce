#include "core/emit/tirx_text.h"

#include <bit>
#include <sstream>
#include <variant>

#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

// How one operand's registers are spelled: `d_local` (one element per
// register, or 64-bit registers) or `a_words` (a uint32 view of packed
// elements).
struct Spelling {
  std::string local;      // element view, "a_local"
  std::string registers;  // what the mma names, "a_words" or "a_local"
};

Spelling spelling(char role, const Frame& frame) {
  const std::string local = std::string(1, role) + "_local";
  const bool packed = frame.per_reg() > 1;
  return {local, packed ? std::string(1, role) + "_words" : local};
}

std::string list(const std::vector<int>& regs, const std::string& name) {
  std::string s;
  for (int r : regs) s += (s.empty() ? "" : ", ") + name + "[" + std::to_string(r) + "]";
  return s;
}

void declare(std::ostream& os, const Spelling& sp, const RegisterView& view) {
  os << "# " << sp.local << " = " << view.buffer << ".local(" << joined_text(view.shape)
     << (view.shape.empty() ? "" : ", ") << "layout=T.TileLayout(" << view.layout.str() << "))";
  if (sp.registers != sp.local) os << "; " << sp.registers << " = " << sp.local << ".view(\"uint32\")";
  os << "\n";
}

}  // namespace

std::string emit_tirx(const Plan& plan) {
  if (!plan.ok) throw Error("cannot emit a gemm that did not dispatch");
  const Nest& nest = plan.nest;
  const MmaInst& inst = *plan.inst;
  const Spelling d = spelling('d', inst.frame(Operand::C));
  const Spelling c = spelling('c', inst.frame(Operand::C));
  const Spelling a = spelling('a', inst.frame(Operand::A));
  const Spelling b = spelling('b', inst.frame(Operand::B));

  std::ostringstream os;
  os << "# gemm " << plan.d.buffer << " = " << plan.a.buffer << " @ " << plan.b.buffer
     << (nest.use_c ? " + " + plan.c.buffer : std::string()) << "  (M=" << plan.m << ", N=" << plan.n
     << ", K=" << plan.k << ", " << nest.c_term() << ")\n"
     << "# instruction: " << inst.ptx() << "\n"
     << "# tiles per warp: M " << nest.tiles_m << " x N " << nest.tiles_n << " x K " << nest.tiles_k << " = "
     << nest.mma_count() << " mma\n";
  declare(os, d, plan.d);
  if (nest.use_c) declare(os, c, plan.c);
  declare(os, a, plan.a);
  declare(os, b, plan.b);

  // An init's scalar: zero in D's type, or a scalar C (f32 bits) as its value.
  const auto scalar = [&](std::uint64_t bits) {
    const std::string type = "T." + std::string(dtype_info(nest.d.dtype).tvm);
    if (bits == 0) return type + "(0)";
    if (nest.d.dtype == DType::f32)
      return type + "(" + scalar_text(std::bit_cast<float>(static_cast<std::uint32_t>(bits))) + ")";
    throw Error("an initialisation sets " + type + " accumulators to the bits " + std::to_string(bits));
  };
  for (const NestStmt& stmt : nest.stmts) {
    if (const auto* init = std::get_if<InitStmt>(&stmt)) {
      os << "# tile m=" << init->tile_m << " n=" << init->tile_n << "\n";
      for (std::size_t i = 0; i < init->d_slots.size(); ++i)
        os << d.local << "[" << init->d_slots[i] << "] = "
           << (init->c_slots.empty() ? scalar(init->bits) : c.local + "[" + std::to_string(init->c_slots[i]) + "]")
           << "\n";
      continue;
    }
    const MmaStmt& mma = std::get<MmaStmt>(stmt);
    // The C operand is D's own registers: the mma accumulates in place.
    os << "T.ptx[\"" << inst.ptx() << "\"](" << list(mma.d, d.registers) << ", " << list(mma.a, a.registers) << ", "
       << list(mma.b, b.registers) << ", " << list(mma.c, d.registers) << ")\n";
  }
  return os.str();
}

}  // namespace mmacheck
