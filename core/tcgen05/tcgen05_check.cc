#include "core/tcgen05/tcgen05_check.h"

#include <algorithm>

#include "core/base/hex.h"

namespace mmacheck {

namespace {

std::string fix_text(char operand, Major given, const Tcgen05Fix& fix) {
  std::string fields;
  for (const std::string& f : fix.fields) fields += (fields.empty() ? "" : ", ") + f;
  std::string text = fields + ": descriptor " + fix.descriptor.str() + " (" + hex(fix.descriptor.encode()) + ")";
  if (fix.major != given)
    text += " with " + std::string(1, operand) + " " + std::string(major_name(fix.major)) + "-major (transpose " +
            std::string(1, operand) + " = " + (fix.major == Major::mn ? "1" : "0") + " in the instruction descriptor)";
  return text + " reads every element where the buffer placed it";
}

// Do the steps' `a` (else B) blocks read each of the K blocks once?
bool covers_once(const Tcgen05KLoop& loop, bool a) {
  if (loop.steps.size() != static_cast<std::size_t>(loop.k_blocks)) return false;
  std::vector<bool> seen(static_cast<std::size_t>(loop.k_blocks), false);
  for (const Tcgen05Step& s : loop.steps) {
    const int b = a ? s.a_block : s.b_block;
    if (b < 0 || b >= loop.k_blocks || seen[static_cast<std::size_t>(b)]) return false;
    seen[static_cast<std::size_t>(b)] = true;
  }
  return true;
}

std::string block_list(const Tcgen05KLoop& loop, bool a) {
  std::string out;
  for (const Tcgen05Step& s : loop.steps) {
    const int b = a ? s.a_block : s.b_block;
    out += (out.empty() ? "" : ", ") + (b < 0 ? std::string("none") : std::to_string(b));
  }
  return out;
}

// "K block 0 twice, K block 3 never" for an operand whose steps do not cover
// the K blocks once.
std::string coverage_faults(const Tcgen05KLoop& loop, bool a) {
  std::vector<int> count(static_cast<std::size_t>(loop.k_blocks), 0);
  for (const Tcgen05Step& s : loop.steps) {
    const int b = a ? s.a_block : s.b_block;
    if (b >= 0 && b < loop.k_blocks) ++count[static_cast<std::size_t>(b)];
  }
  std::string out;
  for (int b = 0; b < loop.k_blocks; ++b) {
    const int n = count[static_cast<std::size_t>(b)];
    if (n == 1) continue;
    out += (out.empty() ? "" : ", ") + std::string("K block ") + std::to_string(b) + " " +
           (n == 0   ? std::string("never")
            : n == 2 ? std::string("twice")
                     : std::to_string(n) + " times");
  }
  return out;
}

std::string where(const SourceLoc& loc) {
  return loc.file.empty() ? "line " + std::to_string(loc.line) : loc.file + ":" + std::to_string(loc.line);
}

// What the instruction computes into D, as the program declares it: its
// negations and saturation, and whether the first repeat adds to D.
std::string computation(const Tcgen05Case& c) {
  const Tcgen05Instr& in = c.instr;
  std::string term = std::string(in.negate_a ? "(-A)" : "A") + " * " + (in.negate_b ? "(-B)" : "B");
  const bool adds = !c.k_loop || c.k_loop->steps.empty() || c.k_loop->steps.front().accumulate;
  std::string text = "D = " + term + (adds ? " + D" : "");
  if (c.k_loop)
    text += " over " + std::to_string(c.k_loop->k_blocks) + " K block" + (c.k_loop->k_blocks == 1 ? "" : "s");
  if (in.saturate) text += ", saturating (the s32 sum clamped)";
  if (!c.flags_from.empty()) text += "; neg_a, neg_b, sat_d as stated by " + c.flags_from;
  return text;
}

}  // namespace

std::vector<int> tcgen05_needed_blocks(const Tcgen05KLoop& loop) {
  const bool a_covers = covers_once(loop, true), b_covers = covers_once(loop, false);
  std::vector<int> out;
  for (std::size_t i = 0; i < loop.steps.size(); ++i) {
    if (a_covers) out.push_back(loop.steps[i].a_block);
    else if (b_covers) out.push_back(loop.steps[i].b_block);
    else out.push_back(i < static_cast<std::size_t>(loop.k_blocks) ? static_cast<int>(i) : -1);
  }
  return out;
}

void check_tcgen05_k_loop(const Tcgen05Case& c, Tcgen05Report& r) {
  if (!c.k_loop) return;
  const Tcgen05KLoop& loop = *c.k_loop;
  const bool a_covers = covers_once(loop, true), b_covers = covers_once(loop, false);
  const std::vector<int> needed = tcgen05_needed_blocks(loop);
  const auto refute = [&](const std::string& message) {
    r.k_loop_result = FrameVerdict::refuted;
    r.k_loop_messages.push_back(message);
  };
  const std::string of = " (of " + std::to_string(loop.k_blocks) + ")";
  if (loop.steps.empty() || loop.k_blocks < 1) {
    refute("no repeat: the K loop reads no K block");
    return;
  }
  for (std::size_t i = 0; i < loop.steps.size(); ++i) {
    const Tcgen05Step& s = loop.steps[i];
    for (const bool a : {true, false}) {
      const char* name = a ? "A" : "B";
      const int read = a ? s.a_block : s.b_block;
      if (read < 0) {
        refute(s.name + ": " + name + "'s descriptor starts at no K block's first element of the staged tile" + of);
        continue;
      }
      if (needed[i] < 0) {
        refute(s.name + ": " + name + " reads K block " + std::to_string(read) + ", but this repeat is past the " +
               std::to_string(loop.k_blocks) + " K blocks");
        continue;
      }
      if (read == needed[i]) continue;
      std::string why;
      if (a_covers) why = "the K block A reads in this repeat; A's repeats read each K block once";
      else if (b_covers) why = "the K block B reads in this repeat; B's repeats read each K block once";
      else why = "this repeat's place in the K loop: neither operand's repeats read each K block once";
      refute(s.name + ": " + name + " reads K block " + std::to_string(read) + ", needs K block " +
             std::to_string(needed[i]) + of + " (" + why + ")");
    }
  }
  for (const bool a : {true, false})
    if (!covers_once(loop, a))
      refute(std::string(a ? "A" : "B") + "'s repeats read K blocks " + block_list(loop, a) + of + ": " +
             coverage_faults(loop, a) + " (each must be read once)");
  for (std::size_t i = 0; i < loop.steps.size(); ++i) {
    const Tcgen05Step& s = loop.steps[i];
    if (i == 0 && loop.declared_accumulate && s.accumulate != *loop.declared_accumulate)
      refute(s.name + ": enable-input-D is " + (s.accumulate ? "true" : "false") + " but the program (" +
             where(loop.declared_loc) + ") says accum=" + (*loop.declared_accumulate ? "True" : "False"));
    if (i > 0 && !s.accumulate)
      refute(s.name + ": enable-input-D is false: D is overwritten, dropping the K blocks the repeats before it added");
  }
  if (r.k_loop_result == FrameVerdict::proved) {
    const bool in_order = [&] {
      for (std::size_t i = 0; i < loop.steps.size(); ++i)
        if (loop.steps[i].a_block != static_cast<int>(i)) return false;
      return true;
    }();
    r.k_loop_messages.push_back(std::to_string(loop.steps.size()) + " repeat" + (loop.steps.size() == 1 ? "" : "s") +
                                " read A's and B's same K block, each of the " + std::to_string(loop.k_blocks) +
                                " once (in the order " + block_list(loop, true) +
                                (in_order ? "" : ", a permutation: the sum is the same") + "), into one D" +
                                (loop.steps.front().accumulate ? ", every repeat adding to it"
                                                               : ", the first from zero, the rest adding to it"));
  }
}

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
  r.computation = computation(c);
  check_tcgen05_k_loop(c, r);
  r.result = std::max(r.result, r.k_loop_result);
  return r;
}

}  // namespace mmacheck
