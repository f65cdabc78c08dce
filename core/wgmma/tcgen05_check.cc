#include "core/wgmma/tcgen05_check.h"

#include <algorithm>
#include <sstream>

namespace mmacheck {

namespace {

std::string hex(std::uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

std::string fix_text(char operand, Major given, const Tcgen05Fix& fix) {
  std::string fields;
  for (const std::string& f : fix.fields) fields += (fields.empty() ? "" : ", ") + f;
  std::string text = fields + ": descriptor " + fix.descriptor.str() + " (" + hex(fix.descriptor.encode()) + ")";
  if (fix.major != given)
    text += " with " + std::string(1, operand) + " " + std::string(major_name(fix.major)) + "-major (transpose " +
            std::string(1, operand) + " = " + (fix.major == Major::mn ? "1" : "0") + " in the instruction descriptor)";
  return text + " reads every element where the buffer placed it";
}

}  // namespace

Tcgen05OperandReport check_tcgen05_operand(const Tcgen05Instr& instr, const Tcgen05Operand& op) {
  (void)instr;
  Tcgen05OperandReport r;
  const WgmmaCase& c = op.placement;
  r.name = c.name;
  r.operand = c.operand.operand;
  r.descriptor = op.descriptor;
  const Tcgen05SwizzleRow& mode = tcgen05_swizzle(op.descriptor.swizzle);
  if (!mode.canonical) {
    r.result = FrameVerdict::unchecked;
    r.message = "swizzle " + std::string(mode.name) +
                " (128B with 32B atomic) is encoded but its canonical layout is not modelled";
    return r;
  }
  if (op.descriptor.lbo_absolute) {
    r.result = FrameVerdict::unchecked;
    r.message = "the absolute leading-dimension mode (bit 52, for a 48-byte K) is not modelled";
    return r;
  }
  WgmmaCase as_wgmma = c;
  as_wgmma.descriptor = op.descriptor.as_wgmma();
  const WgmmaReport w = check_wgmma(as_wgmma);
  r.result = w.result;
  r.counterexample = w.counterexample;
  r.mismatches = w.mismatches;
  for (const WgmmaFix& f : w.fixes)
    r.fixes.push_back({Tcgen05SmemDescriptor::from_wgmma(f.descriptor), f.major, f.fields});
  const std::int64_t elements = std::int64_t{c.operand.rows} * c.operand.k;
  if (w.result == FrameVerdict::unchecked) {
    r.message = w.message;
  } else if (w.result == FrameVerdict::proved) {
    r.message = "every element of the CTA's " + std::to_string(c.operand.rows) + " x " + std::to_string(c.operand.k) +
                " tile (" + std::to_string(elements) + ") is read where the buffer placed it";
  } else {
    const WgmmaMismatch& m = *w.counterexample;
    const char* row = r.operand == 'A' ? "m" : "n";
    r.message = std::string(1, r.operand) + "[" + row + "=" + std::to_string(m.i) + "][k=" + std::to_string(m.k) +
                "] is read at " + hex(static_cast<std::uint64_t>(m.read)) + " but placed at " +
                hex(static_cast<std::uint64_t>(m.placed)) + " (" + std::to_string(w.mismatches) + " of " +
                std::to_string(elements) + " elements read elsewhere); ";
    r.message += r.fixes.empty()
                     ? "no descriptor of any swizzle mode or major-ness reads the buffer: its layout is none of the "
                       "canonical layouts, or its swizzle pattern is off the mode's boundary"
                     : "likely wrong: " + fix_text(r.operand, c.operand.major, r.fixes.front());
  }
  return r;
}

Tcgen05Report check_tcgen05(const Tcgen05Case& c) {
  Tcgen05Report r;
  r.instruction = c.instr.str();
  r.idesc = c.idesc;
  r.idesc_expected = c.instr.idesc();
  r.idesc_differences = idesc_differences(c.instr, c.idesc);
  r.idesc_result = r.idesc_differences.empty() ? FrameVerdict::proved : FrameVerdict::refuted;
  r.result = r.idesc_result;
  for (const Tcgen05Operand& op : c.operands) {
    r.operands.push_back(check_tcgen05_operand(c.instr, op));
    r.result = std::max(r.result, r.operands.back().result);
  }
  if (c.tmem) {
    r.tmem = check_tmem(*c.tmem);
    r.result = std::max(r.result, r.tmem->result);
  }
  return r;
}

}  // namespace mmacheck
