#include "core/ptx/ptx_setmaxnreg.h"

#include <string>

#include "core/ptx/machine_context.h"

namespace mmacheck::ptx {

void check_setmaxnreg_operands(Instruction& inst) {
  const bool inc = inst.opcode.find(".inc") != std::string::npos;
  const bool dec = inst.opcode.find(".dec") != std::string::npos;
  if (inc == dec) throw Error(inst.loc, "'" + inst.opcode + "' needs one action, .inc or .dec");
  if (inst.opcode.find(".u32") == std::string::npos) throw Error(inst.loc, "'" + inst.opcode + "' needs .u32");
  const Operand& n = inst.ops[0];
  if (n.kind != Operand::Kind::imm) throw Error(n.loc, "setmaxnreg's register count is a constant (imm-reg-count)");
  if (n.imm < 24 || n.imm > 256 || n.imm % 8 != 0)
    throw Error(n.loc, "setmaxnreg's register count " + std::to_string(n.imm) +
                           " is not a multiple of 8 in 24..256 (PTX ISA, setmaxnreg)");
  inst.count = static_cast<int>(n.imm);
  inst.trans = inc;
}

void exec_setmaxnreg(const Instruction& inst, WarpContext& w) {
  WarpgroupState& wg = w.warpgroup();
  const int now = wg.max_regs;
  if (now != 0 && inst.trans && inst.count < now)
    w.fault(inst, 0,
            "setmaxnreg.inc to " + std::to_string(inst.count) +
                " registers, below the warpgroup's current maximum of " + std::to_string(now) +
                " (.inc raises it: PTX ISA, setmaxnreg)");
  if (now != 0 && !inst.trans && inst.count > now)
    w.fault(inst, 0,
            "setmaxnreg.dec to " + std::to_string(inst.count) +
                " registers, above the warpgroup's current maximum of " + std::to_string(now) +
                " (.dec lowers it: PTX ISA, setmaxnreg)");
  wg.max_regs = inst.count;
}

}  // namespace mmacheck::ptx
