#include "core/wgmma/wgmma_order.h"

#include <cctype>
#include <cstdio>
#include <deque>
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
// are passed over (a label no branch names changes nothing in straight-line code).  Unbalanced brackets and an
// unterminated statement are errors at their place.
class PtxScanner {
 public:
  PtxScanner(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  // The instructions of each top-level block (a kernel's or function's body), in order.
  std::vector<std::vector<Instruction>> run() {
    std::vector<std::vector<Instruction>> out;
    while (skip_space(), pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '{' || c == '}') {
        depth_ += c == '{' ? 1 : -1;
        if (depth_ < 0) fail("'}' closes no block");
        if (c == '{' && depth_ == 1) out.emplace_back();
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
      // Opcodes may hold "::" (fence.proxy.async.shared::cta); a label is a name and one ':'.
      while (pos_ < text_.size() && (name_char(text_[pos_]) || text_.substr(pos_, 2) == "::"))
        pos_ += text_.substr(pos_, 2) == "::" ? 2 : 1;
      if (pos_ == start) {
        if (pos_ >= text_.size()) fail("the text ends where a PTX instruction is expected");
        const auto c = static_cast<unsigned char>(text_[pos_]);
        char shown[16];
        std::snprintf(shown, sizeof shown, c >= 0x20 && c < 0x7f ? "'%c'" : "byte 0x%02X", c);
        fail(std::string("unexpected ") + shown + " (expected a PTX instruction)");
      }
      std::string word(text_.substr(start, pos_ - start));
      skip_space();
      if (!predicated && pos_ < text_.size() && text_[pos_] == ':') {  // a label
        ++pos_;
        continue;
      }
      if (depth_ == 0) throw Error(at, "'" + word + "' stands outside a kernel's or function's block");
      Instruction ins{at, std::move(word), operands(at), predicated};
      out.back().push_back(std::move(ins));
    }
    if (depth_ != 0) fail("a block is not closed");
    return out;
  }

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

// The names an operand mentions that may be registers: PTX identifiers
// (`%f3`, `acc0`, `_x$1`), with a member suffix (`%tid.x`) kept on its name
// and numbers (`0f3F800000`, `12`) passed over.  A register need not begin
// with '%' in PTX, so every identifier counts.
std::set<std::string> registers(const std::string& operand) {
  std::set<std::string> out;
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  for (std::size_t i = 0; i < operand.size();) {
    const char c = operand[i];
    if (!ident(c) && c != '%') {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < operand.size() && (ident(operand[j]) || operand[j] == '.')) ++j;
    if (!std::isdigit(static_cast<unsigned char>(c)) && j > i + (c == '%' ? 1 : 0))
      out.insert(operand.substr(i, j - i));
    i = j;
  }
  return out;
}

bool starts(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }

std::string at_line(const SourceLoc& loc) { return "line " + std::to_string(loc.line); }

// wgmma.wait_group's N: a PTX integer constant (decimal, 0x hex, 0b binary,
// leading-0 octal, an optional U suffix), not negative.
int wait_count(const Instruction& ins) {
  if (ins.operands.size() != 1) throw Error(ins.loc, "wgmma.wait_group takes one operand, N");
  std::string text = ins.operands[0];
  const auto bad = [&](const std::string& why) -> Error {
    return Error(ins.loc, "wgmma.wait_group's N must be " + why + ", got '" + ins.operands[0] + "'");
  };
  if (!text.empty() && text.back() == 'U') text.pop_back();
  if (text.empty() || text[0] == '-') throw bad("a non-negative integer constant");
  int base = 10;
  std::size_t digits = 0;
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16, digits = 2;
  } else if (text.size() > 1 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2, digits = 2;
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8, digits = 1;
  }
  if (digits == text.size()) throw bad("an integer constant");
  long long value = 0;
  for (std::size_t i = digits; i < text.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 99;
    if (d >= base) throw bad("an integer constant");
    value = value * base + d;
    if (value > 1'000'000) throw bad("a small integer (at most 1000000)");
  }
  return static_cast<int>(value);
}

// A wgmma.mma_async and where it stands: uncommitted, in a pending group, complete.
struct Mma {
  SourceLoc loc;
  std::set<std::string> regs;  // D, and A when it comes from registers
  std::set<std::string> accumulator;
  std::optional<SourceLoc> committed;
  bool complete = false;
};

// One kernel or function body (the instructions of one top-level block), run
// in order.  Each mma's state changes a bounded number of times and each
// register access looks up only the mmas that hold that register, so the
// check is linear in the instructions (up to logarithms).
class OrderRun {
 public:
  OrderRun(WgmmaOrderReport& report, std::optional<std::string>& control) : r_(report), control_(control) {}

  // False once the thread has left (an unpredicated ret or exit): what follows is not run.
  bool step(const Instruction& ins) {
    const std::string& op = ins.opcode;
    const bool protocol = starts(op, "wgmma.");
    const bool branch = starts(op, "bra") || starts(op, "brx") || starts(op, "call");
    if (branch || (ins.predicated && (protocol || starts(op, "ret") || starts(op, "exit")))) {
      // A predicated fence, commit or wait may or may not run; which ones did decides the verdict.
      if (!control_) control_ = (branch ? "" : "predicated ") + op + " at " + at_line(ins.loc);
      return true;
    }
    if (starts(op, "ret") || starts(op, "exit")) return false;
    if (starts(op, "wgmma.fence")) {
      last_fence_ = ins.loc;
      touched_.clear();
    } else if (starts(op, "wgmma.commit_group")) {
      // An empty group is a group too: wait_group N counts it among the N newest.
      for (const int i : uncommitted_) mmas_[i].committed = ins.loc;
      pending_.push_back(std::move(uncommitted_));
      uncommitted_.clear();
      ++r_.group_count;
    } else if (starts(op, "wgmma.wait_group")) {
      const auto n = static_cast<std::size_t>(wait_count(ins));
      while (pending_.size() > n) {
        for (const int i : pending_.front()) complete(i);
        pending_.pop_front();
      }
    } else if (starts(op, "wgmma.mma_async")) {
      mma(ins);
    } else if (protocol) {
      throw Error(ins.loc, "'" + op + "' is not a wgmma instruction mmacheck reads");
    } else {
      access(ins);
    }
    return true;
  }

  // The end of the kernel (its closing brace, or the ret or exit it leaves by).
  void finish() {
    for (std::size_t i = 0; i < mmas_.size(); ++i) {
      const Mma& m = mmas_[i];
      if (m.complete) continue;
      violate(WgmmaOrderRule::waited, m.loc,
              !m.committed ? "the wgmma.mma_async is never committed (wgmma.commit_group) nor waited for"
                           : "the wgmma.mma_async is never completed: no wgmma.wait_group after its commit at " +
                                 at_line(*m.committed) + " leaves its group done");
    }
  }

 private:
  void violate(WgmmaOrderRule rule, const SourceLoc& at, std::string message) {
    r_.violations.push_back(WgmmaOrderViolation{rule, at, std::move(message)});
  }

  void complete(int i) {
    mmas_[i].complete = true;
    for (const std::string& reg : mmas_[i].regs) {
      const auto it = live_.find(reg);
      it->second.erase(i);
      if (it->second.empty()) live_.erase(it);
    }
  }

  void mma(const Instruction& ins) {
    if (ins.operands.size() < 3) throw Error(ins.loc, "wgmma.mma_async needs d, a, b operands");
    Mma m{ins.loc, registers(ins.operands[0]), registers(ins.operands[0]), std::nullopt, false};
    if (ins.operands[1].find('{') != std::string::npos)
      for (const std::string& a : registers(ins.operands[1])) m.regs.insert(a);
    ++r_.mma_count;
    if (!last_fence_) {
      violate(WgmmaOrderRule::fence, ins.loc,
              "no wgmma.fence before the first wgmma.mma_async (the PTX ISA requires one before it)");
    } else {
      for (const std::string& reg : m.regs)
        if (const auto it = touched_.find(reg); it != touched_.end()) {
          violate(WgmmaOrderRule::fence, ins.loc,
                  "the wgmma.mma_async uses " + reg + ", accessed at " + at_line(it->second) +
                      " after the last wgmma.fence (" + at_line(*last_fence_) + "): a wgmma.fence must come between");
          break;
        }
    }
    const int index = static_cast<int>(mmas_.size());
    for (const std::string& reg : m.regs) live_[reg].insert(index);
    uncommitted_.push_back(index);
    mmas_.push_back(std::move(m));
  }

  // Any other instruction: the registers it reads or writes, against the mmas not yet complete.
  void access(const Instruction& ins) {
    std::set<std::string> used;
    for (const std::string& operand : ins.operands)
      for (const std::string& reg : registers(operand)) used.insert(reg);
    std::optional<int> first;  // one violation per instruction: the oldest mma it races with
    std::string first_reg;
    for (const std::string& reg : used) {
      touched_.emplace(reg, ins.loc);
      if (const auto it = live_.find(reg); it != live_.end() && (!first || *it->second.begin() < *first))
        first = *it->second.begin(), first_reg = reg;
    }
    if (!first) return;
    const Mma& m = mmas_[*first];
    const std::string what = m.accumulator.contains(first_reg) ? "accumulator" : "A fragment register";
    const std::string state = !m.committed ? "not yet committed (no wgmma.commit_group after it)"
                                           : "still in flight (committed at " + at_line(*m.committed) +
                                                 ", not completed by a wgmma.wait_group since)";
    violate(WgmmaOrderRule::in_flight, ins.loc,
            ins.opcode + " accesses " + first_reg + ", " + what + " of the wgmma.mma_async at " + at_line(m.loc) +
                ", which is " + state);
  }

  WgmmaOrderReport& r_;
  std::optional<std::string>& control_;
  std::vector<Mma> mmas_;
  std::vector<int> uncommitted_;
  std::deque<std::vector<int>> pending_;       // the committed groups not known complete, oldest first
  std::map<std::string, std::set<int>> live_;  // register -> the incomplete mmas that hold it
  std::map<std::string, SourceLoc> touched_;   // registers accessed by the threads since the last fence
  std::optional<SourceLoc> last_fence_;
};

}  // namespace

WgmmaOrderReport check_wgmma_order(std::string_view ptx, const std::string& file) {
  PtxScanner scanner(ptx, file);
  const std::vector<std::vector<Instruction>> bodies = scanner.run();
  WgmmaOrderReport r;
  std::optional<std::string> control;
  // Each kernel (or function) is its own thread program: one's wait covers nothing of another's.
  for (const std::vector<Instruction>& body : bodies) {
    OrderRun run(r, control);
    for (const Instruction& ins : body)
      if (!run.step(ins)) break;
    run.finish();
  }
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
  r.message = std::to_string(r.mma_count) + " wgmma.mma_async in " + std::to_string(r.group_count) +
              " commit group(s): fenced before use, registers untouched while in flight, all waited for";
  return r;
}

}  // namespace mmacheck
