#include "core/wgmma/wgmma_order.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace mmacheck {

std::string_view wgmma_order_rule_name(WgmmaOrderRule rule) {
  switch (rule) {
    case WgmmaOrderRule::fence: return "fence";
    case WgmmaOrderRule::in_flight: return "in flight";
    case WgmmaOrderRule::waited: return "waited";
  }
  return "?";
}

namespace {

// One PTX instruction: `[@p] opcode op, op, ...;` with each operand's registers.
struct Instruction {
  SourceLoc loc;
  std::string opcode;
  std::vector<std::string> operands;  // as written
  bool predicated = false;
};

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }

// The instructions of a PTX text; directives, blocks, labels and comments
// are passed over (labels counted).  Unbalanced brackets and an unterminated
// statement are errors at their place.
class PtxScanner {
 public:
  PtxScanner(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<Instruction> run() {
    std::vector<Instruction> out;
    while (skip_space(), pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '{' || c == '}') {
        depth_ += c == '{' ? 1 : -1;
        if (depth_ < 0) fail("'}' closes no block");
        ++pos_;
        continue;
      }
      if (c == '.') {
        directive();
        continue;
      }
      const SourceLoc at = here();
      bool predicated = false;
      if (c == '@') {
        predicated = true;
        while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        skip_space();
      }
      const std::size_t start = pos_;
      while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
      if (pos_ == start) fail(std::string("unexpected '") + text_[pos_] + "' (expected a PTX instruction)");
      std::string word(text_.substr(start, pos_ - start));
      skip_space();
      if (!predicated && pos_ < text_.size() && text_[pos_] == ':') {  // a label
        ++pos_;
        ++labels;
        continue;
      }
      Instruction ins{at, std::move(word), operands(at), predicated};
      out.push_back(std::move(ins));
    }
    if (depth_ != 0) fail("a block is not closed");
    return out;
  }

  int labels = 0;

 private:
  [[noreturn]] void fail(const std::string& message) const { throw Error(here(), message); }

  SourceLoc here() const { return SourceLoc{file_, line_, static_cast<int>(pos_ - line_start_) + 1}; }

  void advance() {
    if (text_[pos_] == '\n') line_++, line_start_ = pos_ + 1;
    ++pos_;
  }

  void skip_space() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        advance();
      } else if (text_.substr(pos_, 2) == "//") {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const SourceLoc open = here();
        while (pos_ < text_.size() && text_.substr(pos_, 2) != "*/") advance();
        if (pos_ >= text_.size()) throw Error(open, "the comment is not closed");
        pos_ += 2;
      } else {
        return;
      }
    }
  }

  // `.reg .f32 %f<8>;`, `.version 8.0`, `.visible .entry k(...)` (its block follows).
  void directive() {
    int paren = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '(') ++paren;
      if (c == ')') --paren;
      if (paren == 0 && c == ';') return void(++pos_);
      if (paren == 0 && (c == '{' || c == '\n')) return;  // .version 8.0, .entry k(...) before its block
      advance();
    }
  }

  std::vector<std::string> operands(const SourceLoc& at) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    while (true) {
      if (pos_ >= text_.size()) throw Error(at, "the instruction is not terminated by ';'");
      const char c = text_[pos_];
      if (text_.substr(pos_, 2) == "//") {
        skip_space();
        continue;
      }
      if (c == '{' || c == '[' || c == '(') ++depth;
      if (c == '}' || c == ']' || c == ')') --depth;
      if (depth < 0)
        throw Error(at,
                    std::string("the instruction is not terminated by ';' before this '") + c + "' at " + here().str());
      if (depth == 0 && (c == ',' || c == ';')) {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
        advance();
        if (c == ';') return out;
        continue;
      }
      if (!std::isspace(static_cast<unsigned char>(c)) || !cur.empty())
        cur += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
      advance();
    }
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0, line_start_ = 0;
  int line_ = 1, depth_ = 0;
};

std::set<std::string> registers(const std::string& operand) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < operand.size(); ++i) {
    if (operand[i] != '%') continue;
    std::size_t j = i + 1;
    while (j < operand.size() && (std::isalnum(static_cast<unsigned char>(operand[j])) || operand[j] == '_')) ++j;
    if (j > i + 1) out.insert(operand.substr(i, j - i));
    i = j - 1;
  }
  return out;
}

bool starts(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }

std::string at_line(const SourceLoc& loc) { return "line " + std::to_string(loc.line); }

// A wgmma.mma_async and where it stands: uncommitted, in a pending group, complete.
struct Mma {
  SourceLoc loc;
  std::set<std::string> regs;  // D, and A when it comes from registers
  std::set<std::string> accumulator;
  int group = -1;  // -1: not committed
  std::optional<SourceLoc> committed;
  bool complete = false;
};

}  // namespace

WgmmaOrderReport check_wgmma_order(std::string_view ptx, const std::string& file) {
  PtxScanner scanner(ptx, file);
  const std::vector<Instruction> program = scanner.run();
  WgmmaOrderReport r;
  std::vector<Mma> mmas;
  std::vector<int> pending;  // group ids, oldest first
  int groups = 0;
  std::optional<SourceLoc> last_fence;
  std::map<std::string, SourceLoc> touched;  // registers accessed by the threads since the last fence
  std::optional<std::string> control;
  const auto violate = [&](WgmmaOrderRule rule, const SourceLoc& at, std::string message) {
    r.violations.push_back(WgmmaOrderViolation{rule, at, std::move(message)});
  };
  for (const Instruction& ins : program) {
    const std::string& op = ins.opcode;
    if (starts(op, "bra") || starts(op, "brx") || starts(op, "call")) {
      if (!control) control = op + " at " + at_line(ins.loc);
      continue;
    }
    if (starts(op, "wgmma.fence")) {
      last_fence = ins.loc;
      touched.clear();
      continue;
    }
    if (starts(op, "wgmma.commit_group")) {
      bool any = false;
      for (Mma& m : mmas)
        if (m.group < 0 && !m.complete) m.group = groups, m.committed = ins.loc, any = true;
      if (any) pending.push_back(groups);
      ++groups;
      continue;
    }
    if (starts(op, "wgmma.wait_group")) {
      if (ins.operands.size() != 1) throw Error(ins.loc, "wgmma.wait_group takes one operand, N");
      int n = 0;
      try {
        n = std::stoi(ins.operands[0]);
      } catch (const std::exception&) {
        throw Error(ins.loc, "wgmma.wait_group's N must be an integer, got '" + ins.operands[0] + "'");
      }
      while (static_cast<int>(pending.size()) > n) {
        for (Mma& m : mmas)
          if (m.group == pending.front()) m.complete = true;
        pending.erase(pending.begin());
      }
      continue;
    }
    if (starts(op, "wgmma.mma_async")) {
      if (ins.operands.size() < 3) throw Error(ins.loc, "wgmma.mma_async needs d, a, b operands");
      Mma m{ins.loc, registers(ins.operands[0]), registers(ins.operands[0]), -1, std::nullopt, false};
      if (ins.operands[1].find('{') != std::string::npos)
        for (const std::string& a : registers(ins.operands[1])) m.regs.insert(a);
      ++r.mma_count;
      if (!last_fence) {
        violate(WgmmaOrderRule::fence, ins.loc,
                "no wgmma.fence before the first wgmma.mma_async (the PTX ISA requires one before it)");
      } else {
        for (const std::string& reg : m.regs)
          if (const auto it = touched.find(reg); it != touched.end()) {
            violate(WgmmaOrderRule::fence, ins.loc,
                    "the wgmma.mma_async uses " + reg + ", accessed at " + at_line(it->second) +
                        " after the last wgmma.fence (" + at_line(*last_fence) + "): a wgmma.fence must come between");
            break;
          }
      }
      mmas.push_back(std::move(m));
      continue;
    }
    if (starts(op, "wgmma.")) throw Error(ins.loc, "'" + op + "' is not a wgmma instruction mmacheck reads");
    // Any other instruction: which registers it reads or writes.
    std::set<std::string> used;
    for (const std::string& operand : ins.operands)
      for (const std::string& reg : registers(operand)) used.insert(reg);
    bool reported = false;  // one violation per instruction
    for (const std::string& reg : used) {
      touched.emplace(reg, ins.loc);
      for (const Mma& m : mmas) {
        if (reported || m.complete || !m.regs.contains(reg)) continue;
        reported = true;
        const std::string what = m.accumulator.contains(reg) ? "accumulator" : "A fragment register";
        const std::string state = m.group < 0 ? "not yet committed (no wgmma.commit_group after it)"
                                              : "still in flight (committed at " + at_line(*m.committed) +
                                                    ", not completed by a wgmma.wait_group since)";
        violate(WgmmaOrderRule::in_flight, ins.loc,
                op + " accesses " + reg + ", " + what + " of the wgmma.mma_async at " + at_line(m.loc) + ", which is " +
                    state);
      }
    }
  }
  for (const Mma& m : mmas)
    if (!m.complete)
      violate(WgmmaOrderRule::waited, m.loc,
              m.group < 0 ? "the wgmma.mma_async is never committed (wgmma.commit_group) nor waited for"
                          : "the wgmma.mma_async is never completed: no wgmma.wait_group after its commit at " +
                                at_line(*m.committed) + " leaves its group done");
  r.group_count = groups;
  if (control) {
    r.result = FrameVerdict::unchecked;
    r.message =
        "control flow (" + *control +
        "): the order check reads straight-line code, where the order of the instructions is the order they run";
    return r;
  }
  if (r.mma_count == 0) {
    r.result = FrameVerdict::unchecked;
    r.message = "the PTX holds no wgmma.mma_async";
    return r;
  }
  if (!r.violations.empty()) {
    r.result = FrameVerdict::refuted;
    const WgmmaOrderViolation& v = r.violations.front();
    r.message = at_line(v.at) + ": " + v.message + " [" + std::string(wgmma_order_rule_name(v.rule)) + "]";
    return r;
  }
  r.message = std::to_string(r.mma_count) + " wgmma.mma_async in " + std::to_string(groups) +
              " commit group(s): fenced before use, registers untouched while in flight, all waited for";
  return r;
}

}  // namespace mmacheck
