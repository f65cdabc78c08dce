// The lexer and layout expressions: TVM's S/R/offset syntax, the methods,
// and errors placed at the offending token.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/program/layout_parser.h"
#include "core/program/lexer.h"

namespace test_layout_parser {

using namespace mmacheck;

namespace {

TileLayout parse(const std::string& text, const LayoutNames& names = {}) {
  return layout_of(parse_layout(text, "<expr>", names));
}

std::string error_of(const std::string& text, const LayoutNames& names = {}) {
  try {
    parse_layout(text, "<expr>", names);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

Iter it(std::int64_t e, std::int64_t s, const char* axis = "m") { return Iter{e, s, Axis(axis)}; }

const char* const kAccumulator = "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]";

}  // namespace

// ---- lexer -------------------------------------------------------------------

TEST_CASE("tokens carry kinds, values and 1-based positions", "[parser][lexer]") {
  const std::vector<Token> t = tokenize("A = S[8 : 4@laneid]  # acc\n  x //-> ..0..15 'a\\'b' 1.5e3", "f");
  REQUIRE(t.size() == 21);
  CHECK(t[0].kind == TokenKind::identifier);
  CHECK(t[0].loc.line == 1);
  CHECK(t[0].loc.col == 1);
  CHECK(t[4].kind == TokenKind::integer);
  CHECK(t[4].int_value == 8);
  CHECK(t[4].loc.col == 7);
  CHECK(t[7].is_op("@"));
  CHECK(t[9].is_op("]"));
  CHECK(t[10].kind == TokenKind::newline);
  CHECK(t[11].is_name("x"));
  CHECK(t[11].loc.line == 2);
  CHECK(t[11].loc.col == 3);
  CHECK(t[12].is_op("//"));
  CHECK(t[13].is_op("->"));
  CHECK(t[14].is_op(".."));
  CHECK(t[15].int_value == 0);
  CHECK(t[16].is_op(".."));
  CHECK(t[17].int_value == 15);
  CHECK(t[18].kind == TokenKind::string);
  CHECK(t[18].text == "a'b");
  CHECK(t[19].kind == TokenKind::floating);
  CHECK(t[19].float_value == 1500.0);
  CHECK(t[20].kind == TokenKind::end);
}

TEST_CASE("newlines inside brackets and after a backslash do not end a statement", "[parser][lexer]") {
  const std::vector<Token> t = tokenize("f(1,\n  2)\nx = 1 + \\\n 2\n\n\n", "f");
  int newlines = 0;
  for (const Token& tok : t) newlines += tok.kind == TokenKind::newline;
  CHECK(newlines == 2);
  CHECK(tokenize("0x1F 1_000", "f")[0].int_value == 31);
  CHECK(tokenize("0x1F 1_000", "f")[1].int_value == 1000);
}

TEST_CASE("a piece of a line-based file is tokenized at its place in the file", "[parser][lexer]") {
  // `layout=S[8 : 1]` at line 40, column 12 of f.txt: the first line's columns
  // shift, the lines count from 40.
  const std::vector<Token> t = tokenize("S[8 :\n 1]", SourceLoc{"f.txt", 40, 12});
  CHECK(t[0].loc.str() == "f.txt:40:12");
  CHECK(t[2].loc.str() == "f.txt:40:14");
  CHECK(t[4].loc.str() == "f.txt:41:2");
  // Errors too, from the lexer and from the parser.
  CHECK_THROWS_WITH(tokenize("S['open", SourceLoc{"f.txt", 40, 12}), "f.txt:40:14: error: unterminated string");
  try {
    (void)parse_layout("S[8 : 1@nowhere]", SourceLoc{"f.txt", 7, 30});
    FAIL("parsed");
  } catch (const Error& e) {
    CHECK(e.loc().line == 7);
    CHECK(e.loc().col > 30);
  }
}

TEST_CASE("the lexer rejects bad input at its position", "[parser][lexer]") {
  const auto lex_error = [](const std::string& text) {
    try {
      tokenize(text, "f");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(lex_error("a = 'abc") == "f:1:5: error: unterminated string");
  CHECK(lex_error("a = \"abc\nx\"") == "f:1:5: error: unterminated string");
  CHECK(lex_error("x\n  $") == "f:2:3: error: unexpected character '$'");
  // Not UTF-8: Python's SyntaxError, located at the byte.
  const std::string not_utf8 =
      " is not UTF-8 (Python refuses a source that is not UTF-8 unless it declares its encoding)";
  CHECK(lex_error("S[\x80]") == "f:1:3: error: byte 0x80" + not_utf8);      // a continuation byte alone
  CHECK(lex_error("S[\xE2\x80]") == "f:1:3: error: byte 0xE2" + not_utf8);  // a sequence cut short
  CHECK(lex_error("\xff") == "f:1:1: error: byte 0xFF" + not_utf8);
  CHECK(lex_error("9223372036854775808") ==
        "f:1:1: error: integer 9223372036854775808 is too large (limit 9223372036854775807)");
  CHECK(lex_error("0x") == "f:1:1: error: malformed number");
  CHECK(lex_error("12ab") == "f:1:1: error: malformed number '12ab'");
  CHECK(lex_error("'a\\q'") == "f:1:3: error: unknown escape in string");
  CHECK(lex_error("a \\ b") == "f:1:3: error: '\\' continues a line only at its end");
  CHECK(lex_error("9223372036854775807").empty());
  CHECK(lex_error(std::string("a\0b", 3)) == "f:1:2: error: unexpected byte 0x00");
}

// ---- layout expressions ---------------------------------------------------------

TEST_CASE("S[extents : strides] gives shard iters exactly as written", "[parser]") {
  const TileLayout d = parse(kAccumulator);
  CHECK(d.shard() == std::vector{it(2, 2), it(8, 4, "laneid"), it(4, 1, "laneid"), it(2, 1)});
  CHECK(d.replica().empty());
  CHECK(d.offset().empty());
  // 1-D forms and pasted TVM spellings.
  CHECK(parse("S[8 : 4@laneid]").shard() == std::vector{it(8, 4, "laneid")});
  CHECK(parse("S[8 : 4 @ Axis.laneid]") == parse("S[8 : 4@laneid]"));
  CHECK(parse("T.S[8 : 4 @ T.Axis.laneid]") == parse("S[8 : 4@laneid]"));
  CHECK(parse("Tx.S[(8,) : (4@laneid,)]") == parse("S[8 : 4@laneid]"));
  CHECK(parse("TileLayout(S[8 : 4@laneid])") == parse("S[8 : 4@laneid]"));
  CHECK(parse("T.TileLayout(S[8 : 4@laneid])") == parse("S[8 : 4@laneid]"));
  CHECK(parse("(S[8 : 4@laneid])") == parse("S[8 : 4@laneid]"));
}

TEST_CASE("strides: integers, n@axis, axis strings, (n, axis) tuples and bare axes", "[parser]") {
  CHECK(parse("S[(2, 4) : (\"laneid\", 1)]").shard() == std::vector{it(2, 1, "laneid"), it(4, 1)});
  CHECK(parse("S[(2, 4) : ((4, 'laneid'), 1)]").shard() == std::vector{it(2, 4, "laneid"), it(4, 1)});
  CHECK(parse("S[(2, 4) : ((4, Axis.warpid), 1)]").shard() == std::vector{it(2, 4, "warpid"), it(4, 1)});
  CHECK(parse("S[(2, 4) : (laneid, 1)]").shard() == std::vector{it(2, 1, "laneid"), it(4, 1)});
  CHECK(parse("S[4 : 2@'myaxis']").shard() == std::vector{it(4, 2, "myaxis")});
  CHECK(parse("S[4 : 0]").shard() == std::vector{it(4, 0)});
  CHECK(parse("S[4 : -1]").shard() == std::vector{it(4, -1)});
  // Constant arithmetic, with Python's precedence (@ binds like *).
  CHECK(parse("S[(2 * 4, 16 // 4) : (2 * 2 @ laneid, 1 + 0)]").shard() == std::vector{it(8, 4, "laneid"), it(4, 1)});
}

TEST_CASE("S[shape] and R[shape] default to row-major strides on m", "[parser]") {
  CHECK(parse("S[8, 4, 2]").shard() == std::vector{it(8, 8), it(4, 2), it(2, 1)});
  CHECK(parse("S[(8, 4, 2)]").shard() == std::vector{it(8, 8), it(4, 2), it(2, 1)});
  CHECK(parse("S[8]").shard() == std::vector{it(8, 1)});
  CHECK(parse("S[8] + R[2, 3]").replica() == std::vector{it(2, 3), it(3, 1)});
}

TEST_CASE("replicas and offsets: any order, offsets on one axis add up", "[parser]") {
  const TileLayout l = parse("S[(8, 4) : (4@laneid, 1@laneid)] + R[2 : 1@warpid] + 1@laneid + 64");
  CHECK(l.replica() == std::vector{it(2, 1, "warpid")});
  CHECK(l.offset() == Offset{{Axis("laneid"), 1}, {Axis::m(), 64}});
  CHECK(parse("64 + R[2 : 1@warpid] + 1@laneid + S[(8, 4) : (4@laneid, 1@laneid)]") == l);
  CHECK(parse("S[8] + 1@laneid + 2@laneid + 3 + 4").offset() == Offset{{Axis("laneid"), 3}, {Axis::m(), 7}});
  CHECK(parse("S[8] + (1@laneid + 2)").offset() == Offset{{Axis("laneid"), 1}, {Axis::m(), 2}});
  CHECK(parse("S[8] + (-4)").offset() == Offset{{Axis::m(), -4}});
}

TEST_CASE("names refer to earlier bindings, grouped ones keep their separators", "[parser]") {
  LayoutNames names;
  names.layouts.emplace("A_FRAG_K8", parse(kAccumulator));
  names.layouts.emplace("A_G", parse_layout("S[16, 16].group([16, 16])", "<e>"));
  CHECK(parse("A_FRAG_K8", names) == parse(kAccumulator));
  CHECK(parse("A_FRAG_K8 + 8", names).offset() == Offset{{Axis::m(), 8}});
  CHECK(parse("A_G.permute_by_groups([1, 0])", names) == parse("S[(16, 16) : (1, 16)]"));
  names.others.emplace("A", "buffer");
  CHECK(error_of("A.tile_to([8], [4])", names) == "<expr>:1:1: error: 'A' is a buffer, not a layout");
  CHECK(error_of("A_FRG", names) == "<expr>:1:1: error: unknown name 'A_FRG' (known layouts: A_FRAG_K8, A_G)");
}

TEST_CASE("tile_to, tile, group, permute_by_groups, slice, storage, canonicalize", "[parser]") {
  const std::string a_frag = std::string(kAccumulator) + ".tile_to([16, 16], [16, 8])";
  CHECK(parse(a_frag).shard() == std::vector{it(2, 2), it(8, 4, "laneid"), it(2, 4), it(4, 1, "laneid"), it(2, 1)});
  CHECK(parse(a_frag) == parse(std::string(kAccumulator) + ".tile(S[1, 2], [1, 2], [16, 8])"));
  CHECK(parse(a_frag) == parse(std::string(kAccumulator) + ".tile_to(to_shape=(16, 16), current_shape=(16, 8))"));
  CHECK(parse(a_frag) == parse("TileLayout(" + std::string(kAccumulator) + ").tile_to([16, 16], [16, 8])"));

  const LayoutValue grouped = parse_layout(a_frag + ".group([16, 16])", "<e>");
  REQUIRE(std::holds_alternative<GroupedLayout>(grouped));
  CHECK(std::get<GroupedLayout>(grouped).seps() == std::vector{0, 2, 5});
  const TileLayout km = parse(a_frag + ".group([16, 16]).permute_by_groups([1, 0])");
  CHECK(km.shard() == std::vector{it(2, 4), it(4, 1, "laneid"), it(2, 1), it(2, 2), it(8, 4, "laneid")});
  // TVM's own spelling: permute_by_groups(seps, perm) on the grouped layout.
  CHECK(parse(a_frag + ".permute_by_groups([0, 2, 5], [1, 0])") == km);

  CHECK(parse("S[16 : 1].slice([16], [(4, 12)])") == parse("S[8 : 1] + 4"));
  CHECK(parse("S[16 : 1].slice(shape=[16], region=[[4, 12]])") == parse("S[8 : 1] + 4"));
  CHECK(parse("S[(2, 4) : (4@laneid, 1)].storage()") == parse("S[4 : 1]"));
  CHECK(parse("S[(2, 1, 4) : (4, 7, 1)].canonicalize()") == parse("S[8 : 1]"));
  CHECK(parse("S[(2, 4) : (1, 2)].permute_dims([1, 0])") == parse("S[(4, 2) : (2, 1)]"));
}

TEST_CASE("layout errors point at the offending token", "[parser]") {
  struct Case {
    const char* expr;
    const char* error;
  };
  const Case cases[] = {
      {"S[(2, 8 : (1, 2)", "1:9: error: expected ')' to close '(' opened at column 3, got ':'"},
      {"S[8 : 1", "1:8: error: expected ']' to close 'S[' opened at column 2, got end of input"},
      {"T.S[8 : 1", "1:10: error: expected ']' to close 'S[' opened at column 4, got end of input"},
      {"S[0 : 1]", "1:3: error: extent must be positive, got 0"},
      {"S[(4, -2) : (1, 1)]", "1:7: error: extent must be positive, got -2"},
      {"S[]", "1:3: error: S[...] needs at least one extent"},
      {"S[(2, 8) : (1, 2, 3)]", "1:12: error: 2 extents but 3 strides"},
      {"S[8, 4 : 1, 2]", "1:8: error: write several extents as a tuple: S[(e0, e1) : (s0, s1)]"},
      {"S[8 : 1, 2]", "1:7: error: write several strides as a tuple: S[(e0, e1) : (s0, s1)]"},
      {"S[8 : 1@laneid + 2]", "1:7: error: a stride is one value on one axis (n@axis), not a sum"},
      {"S[8 : 1@lanied]", "1:9: error: unknown axis 'lanied'"},
      {"S[8 : 1@Axis.foo]", "1:14: error: unknown axis 'Axis.foo'"},
      {"S[8 : S]", "1:7: error: expected a stride (n, n@axis, \"axis\" or (n, \"axis\")), got 'S'"},
      {"S[8 : 1] + S[4 : 1]", "1:12: error: second shard list S[...] (a layout has one)"},
      {"S[8] + R[2] + R[2]", "1:15: error: second replica list R[...] (a layout has one)"},
      {"TileLayout(4 @ laneid + 4)", "1:1: error: TileLayout(...) takes a layout spec"},
      {"S[8 : 1] - 3", "1:10: error: '-' needs integers, got a layout spec and an integer"},
      {"S[8 : 1] * 2", "1:10: error: '*' needs integers"},
      {"S[8 : 1] + 'x'", "1:10: error: cannot add a layout spec and string 'x'"},
      {"S[8 : 1] +", "1:11: error: expected an expression, got end of input"},
      {"S[8 : 1] + 1.5", "1:12: error: expected an integer, got '1.5'"},
      {"S[8 : 1]/2", "1:9: error: use '//' for integer division"},
      {"S[8 // 0]", "1:5: error: division by zero"},
      {"S[8 : 1] S", "1:10: error: unexpected 'S' after the layout expression"},
      {"4", "1:1: error: expected a layout, got an integer"},
      {"", "1:1: error: empty layout expression"},
      {"  # only a comment", "1:19: error: empty layout expression"},
      {"S(8)", "1:2: error: 'S' cannot be called"},
      {"TileLayout[8]", "1:11: error: 'TileLayout' cannot be subscripted"},
      {"TileLayout(4)", "1:1: error: TileLayout(...) takes a layout spec (S[...] + ...), got an integer"},
      {"T.Q[8]", "1:3: error: unknown name 'Q' after 'T.'"},
      {"S[8].tile_too([8], [4])", "1:6: error: unknown layout method 'tile_too'"},
      {"S[8].canonicalize", "1:18: error: expected '(' to call method 'canonicalize', got end of input"},
      {"S[8].canonicalize(1)", "1:19: error: canonicalize() takes 0 arguments (none), got 1"},
      {"S[8].tile_to([16])", "1:6: error: tile_to() is missing argument 'current_shape'"},
      {"S[8].tile_to([16], to_shape=[8])", "1:20: error: argument 'to_shape' given twice"},
      {"S[8].tile_to(to_shape=[16], [8])", "1:29: error: positional argument after a keyword argument"},
      {"S[8].tile_to([16], [8], x=1)", "1:25: error: tile_to() has no parameter 'x'"},
      {"S[8].tile_to([16, 16], [8])", "1:14: error: shape [16, 16] has rank 2 but current_shape [8] has rank 1"},
      {"S[8].tile_to([17], [8])", "1:14: error: shape [17] is not a multiple of [8] (dimension 0)"},
      {"S[8].tile_to([16], [4])", "1:20: error: shape [4] has 4 elements but the layout covers 8"},
      {"S[8].tile_to([0], [8])", "1:15: error: shape dimension must be positive, got 0"},
      {"S[8].tile_to(16, [8])", "1:14: error: expected a shape ([16, 16]), got an integer"},
      {"S[(3, 4) : (4, 1)].group([2, 6])", "1:20: error: layout S[(3, 4) : (4, 1)] can not be grouped by shape [2, 6]"},
      {"S[8].group([3, 5])", "1:12: error: shape [3, 5] has 15 elements but the layout covers 8"},
      {"S[8].permute_by_groups([1, 0])", "1:6: error: permute_by_groups(perm) needs a grouped layout"},
      {"S[8].group([2, 4]).permute_by_groups([0, 0])", "1:38: error: expected a permutation of 0..1"},
      {"S[8].permute_by_groups([0, 2], [0])", "1:24: error: expected group separators"},
      {"S[(2, 8) : (1, 2)].slice([16], [(3, 9)])",
       "1:20: error: layout S[(2, 8) : (1, 2)] can not be sliced to region [(3, 9)] of shape [16]"},
      {"S[16].slice([16], [(0, 20)])", "1:20: error: range (0, 20) is not a non-empty part of 0..16"},
      {"S[16].slice([16], [(4, 4)])", "1:20: error: range (4, 4) is not a non-empty part of 0..16"},
      {"S[16].slice([16], [(4, 8), (0, 1)])", "1:19: error: region has 2 ranges but shape [16] has rank 1"},
      {"S[16].slice([16], [(4, 8, 9)])", "1:20: error: expected a (start, end) pair, got 3 values"},
      {"S[(4611686018427387904, 4) : (1, 1)]",
       "1:1: error: layout size (the product of the shard extents): 4611686018427387904 * 4 overflows int64"},
      {"S[(2, 4611686018427387904, 2)]", "1:7: error: the row-major stride 2 * 4611686018427387904 overflows int64"},
      {"S[8] + 9223372036854775807 + 1", "1:28: error: integer overflow"},
      {"S[8 : '']", "1:7: error: axis name must not be empty"},
      {"S[8 : 4 @ 5]", "1:11: error: expected an axis (laneid, Axis.laneid or \"laneid\"), got an integer"},
      {"S[8 : laneid @ laneid]", "1:14: error: '@' needs an integer on its left, got axis 'laneid'"},
      {"S[8 : -laneid]", "1:7: error: unary '-' needs an integer, got axis 'laneid'"},
      {"S[8].x", "1:6: error: unknown layout method 'x'"},
      {"(1, 2).x", "1:8: error: a tuple has no attribute 'x'"},
  };
  for (const Case& c : cases) {
    INFO(c.expr);
    CHECK_THAT(error_of(c.expr), Catch::StartsWith(std::string("<expr>:") + c.error));
  }
}

TEST_CASE("bad input never escapes as anything but an Error", "[parser]") {
  CHECK_THAT(error_of(std::string(3000, '(') + "S[8]" + std::string(3000, ')')), Catch::Contains("nested too deeply"));
  CHECK_THAT(error_of("S[" + std::string(3000, '[') + "8" + std::string(3000, ']') + "]"),
             Catch::Contains("nested too deeply"));
  CHECK_THAT(error_of("S[8] + " + std::string(5000, '-') + "1"), Catch::Contains("nested too deeply"));
  CHECK(error_of("S[8]" + std::string(500, ' ') + "\n\n").empty());

  // Mutations of valid expressions: each parses or throws Error.
  const std::vector<std::string> seeds = {
      std::string(kAccumulator) + ".tile_to([16, 16], [16, 8]).group([16, 16]).permute_by_groups([1, 0])",
      "T.TileLayout(T.S[(8, 4) : (4 @ Axis.laneid, 1 @ Axis.laneid)] + T.R[2 : 1 @ Axis.warpid] + 64)",
      "S[16 : 1].slice([16], [(4, 12)]).storage().canonicalize()",
      "S[(2, 4) : ((4, 'laneid'), 1)].tile(S[2, 2], [2, 2], [2, 4])"};
  const std::string alphabet = "()[],:.@+-*/%'\"0123456789SRTlaneid_ \n#\\\xff";
  std::mt19937 rng(12345);
  int errors = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string text = seeds[static_cast<std::size_t>(round) % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 1:
          if (pos < text.size()) text.erase(pos, 1);
          break;
        default:
          if (pos < text.size()) text[pos] = alphabet[rng() % alphabet.size()];
          break;
      }
    }
    try {
      parse_layout(text, "<fuzz>");
    } catch (const Error& e) {
      ++errors;
      CHECK(e.loc().known());
    }
  }
  CHECK(errors > 1000);
}

}  // namespace test_layout_parser
