#include "core/scales/scale_reader.h"

#include <algorithm>
#include <map>

#include "core/program/lexer.h"

namespace mmacheck {

namespace {

class ScaleFileReader {
 public:
  explicit ScaleFileReader(std::string path) : path_(std::move(path)) {}

  void line(std::string_view text, int number) {
    // An instr line's PTX name is one word (its dots and '::' are not
    // tokens of ours); every other line is tokenized alone, at its own line
    // number, so that every token's location is the file's.
    const std::size_t first = text.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && text.substr(first, 5) == "instr" &&
        (first + 5 == text.size() || text[first + 5] == ' ' || text[first + 5] == '\t'))
      return instr(text, number, static_cast<int>(first) + 1);
    TokenCursor in(tokenize(text, SourceLoc{path_, number, 1}));
    if (in.peek().ends_statement()) return;
    const Token& key = in.expect_name("a statement (instr, select or place)");
    if (key.text != "select" && key.text != "place")
      in.fail(key, "unknown statement " + describe(key) + " (expected instr, select or place)");
    if (cases_.empty()) in.fail(key, "'" + key.text + "' before any 'instr' line");
    const Token& side = in.expect_name("'a' or 'b'");
    if (!side.is_name("a") && !side.is_name("b")) in.fail(side, "expected 'a' or 'b', got " + describe(side));
    const Operand op = side.is_name("a") ? Operand::A : Operand::B;
    if (key.text == "select") select(in, key, op);
    else place(in, key, op);
    if (!in.peek().ends_statement()) in.fail(in.peek(), "unexpected " + describe(in.peek()) + " after the statement");
  }

  std::vector<ScaleCase> finish(int lines) {
    if (cases_.empty()) throw Error(SourceLoc{path_, std::max(lines, 1), 0}, "no 'instr' line");
    return std::move(cases_);
  }

 private:
  void instr(std::string_view text, int line, int col) {
    const std::size_t start = text.find_first_not_of(" \t\r", static_cast<std::size_t>(col - 1) + 5);
    const std::size_t end = start == std::string_view::npos ? start : text.find_first_of(" \t#\r", start);
    const std::string name(start == std::string_view::npos || text[start] == '#' ? ""
                                                                                 : text.substr(start, end - start));
    const SourceLoc at{path_, line, start == std::string_view::npos ? col : static_cast<int>(start) + 1};
    if (name.empty()) throw Error(at, "expected 'instr <ptx instruction>'");
    const MmaInst* inst = find_mma_inst(name);
    if (!inst) throw Error(at, "unknown instruction '" + printable(name) + "'");
    if (!inst->block_scaled()) throw Error(at, "'" + name + "' is not block-scaled (it takes no scale factors)");
    if (end != std::string_view::npos && text.find_first_not_of(" \t\r", end) != std::string_view::npos &&
        text[text.find_first_not_of(" \t\r", end)] != '#')
      throw Error(SourceLoc{path_, line, static_cast<int>(text.find_first_not_of(" \t\r", end)) + 1},
                  "unexpected text after the instruction");
    cases_.push_back({inst, {path_, line, col}, std::nullopt, std::nullopt});
    selected_.clear();
  }

  int number(TokenCursor& in, std::string_view name) {
    const Token& k = in.expect_name("'" + std::string(name) + "='");
    if (!k.is_name(name)) in.fail(k, "expected '" + std::string(name) + "=', got " + describe(k));
    in.expect("=", "after '" + std::string(name) + "'");
    const Token& v = in.next();
    if (v.kind != TokenKind::integer) in.fail(v, "expected a number for " + std::string(name) + ", got " + describe(v));
    return static_cast<int>(std::clamp<std::int64_t>(v.int_value, -1, 1 << 20));
  }

  void select(TokenCursor& in, const Token& key, Operand op) {
    ScaleCase& c = cases_.back();
    if (selected_.count(op)) in.fail(key, "a second 'select' for operand " + std::string(operand_name(op)));
    if ((op == Operand::A ? c.a : c.b)) in.fail(key, "'select' after the operand's 'place' line");
    const Token& at = in.peek();
    const int byte = number(in, "byte");
    const int thread = number(in, "thread");
    try {
      check_selector(*c.inst, op, {byte, thread});
    } catch (const Error& e) {
      throw e.located(at.loc);
    }
    selected_[op] = {byte, thread};
  }

  void place(TokenCursor& in, const Token& key, Operand op) {
    ScaleCase& c = cases_.back();
    std::optional<ScalePlacement>& slot = op == Operand::A ? c.a : c.b;
    if (slot) in.fail(key, "a second 'place' for operand " + std::string(operand_name(op)));
    const IndexNames names{{"lane", IndexExpr::variable(IndexExpr::Kind::lane)},
                           {"byte", IndexExpr::variable(IndexExpr::Kind::slot)}};
    const std::string index_key = op == Operand::A ? "row" : "col";
    const Token& k = in.expect_name("'" + index_key + "='");
    if (!k.is_name(index_key))
      in.fail(k, "expected '" + index_key + "=' for operand " + std::string(operand_name(op)) + ", got " + describe(k));
    in.expect("=", "after '" + index_key + "'");
    IndexExpr index = parse_index_expr(in, names);
    in.expect(",", "between the index and 'block='");
    const Token& bk = in.expect_name("'block='");
    if (!bk.is_name("block")) in.fail(bk, "expected 'block=', got " + describe(bk));
    in.expect("=", "after 'block'");
    IndexExpr block = parse_index_expr(in, names);
    const auto sel = selected_.find(op);
    slot = ScalePlacement{op, sel == selected_.end() ? ScaleSelector{} : sel->second, std::move(index),
                          std::move(block), key.loc};
  }

  std::string path_;
  std::vector<ScaleCase> cases_;
  std::map<Operand, ScaleSelector> selected_;
};

}  // namespace

std::vector<ScaleCase> read_scale_file(std::string_view text, const std::string& path) {
  ScaleFileReader reader(path);
  int number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    reader.line(text.substr(pos, end - pos), ++number);
    pos = end + 1;
  }
  return reader.finish(number);
}

}  // namespace mmacheck
