#include "core/tcgen05/tcgen05_tirx.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <optional>
#include <variant>

#include "core/base/checked.h"
#include "core/layout/shape_text.h"
#include "core/program/layout_parser.h"
#include "core/program/lexer.h"
#include "core/tcgen05/tirx_lowered_expr.h"

namespace mmacheck {

namespace {

struct Buffer {
  std::string name;
  SourceLoc loc;
  std::vector<std::int64_t> shape;
  std::string dtype;  // TVM's: "bfloat16", "float32", ...
  std::string scope;  // "shared", "tmem"
  std::optional<AnyLayout> layout;

  std::int64_t size() const {
    std::int64_t n = 1;
    for (const std::int64_t e : shape) n *= e;
    return n;
  }
  // Row-major flat index of `index`; nullopt when outside the shape.
  std::optional<std::int64_t> flat(const std::vector<std::int64_t>& index) const {
    if (index.size() != shape.size()) return std::nullopt;
    std::int64_t f = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (index[d] < 0 || index[d] >= shape[d]) return std::nullopt;
      f = f * shape[d] + index[d];
    }
    return f;
  }
  // The element's offset in elements: a ComposeLayout's swizzled offset, a
  // TileLayout's on m.
  std::int64_t offset(std::int64_t flat_index) const {
    if (const auto* c = std::get_if<ComposeLayout>(&*layout)) return c->apply_flat(flat_index);
    const TileLayout& t = std::holds_alternative<TileLayout>(*layout) ? std::get<TileLayout>(*layout)
                                                                      : std::get<GroupedLayout>(*layout).layout();
    return owner_coord(t.apply_flat(flat_index), Axis::m());
  }
};

// The PTX name of a buffer's dtype as a tcgen05 A/B operand of `kind` (or D).
std::string operand_format(const std::string& dtype, Tcgen05Kind kind, bool d = false) {
  static const std::map<std::string, std::string, std::less<>> names = {{"bfloat16", "bf16"},
                                                                        {"float16", "f16"},
                                                                        {"float8_e4m3fn", "e4m3"},
                                                                        {"float8_e5m2", "e5m2"},
                                                                        {"int8", "s8"},
                                                                        {"uint8", "u8"},
                                                                        {"float6_e2m3fn", "e2m3"},
                                                                        {"float6_e3m2fn", "e3m2"},
                                                                        {"float4_e2m1fn", "e2m1"},
                                                                        {"float32", "f32"},
                                                                        {"int32", "s32"}};
  if (dtype == "float32" && kind == Tcgen05Kind::tf32 && !d) return "tf32";
  const auto it = names.find(dtype);
  return it == names.end() ? dtype : it->second;
}

// What the program before lowering states of its tcgen05.mma: the tile op's
// neg_a, neg_b, sat_d and accum.  TIRx folds the first three into the
// idesc's bits 13, 14 and 3 and writes accum into enable-input-D, so the
// lowered dump alone cannot say whether those bits are what was asked.
struct ProgramFlags {
  bool neg_a = false, neg_b = false, sat_d = false;
  std::optional<bool> accum;
  SourceLoc loc;     // the T.cuda.tile.apply call
  std::string from;  // "PROGRAM:LINE"
};

// A literal flag: T.bool(True), True, False, 1, 0.
bool flag_value(TokenCursor& in, const std::string& key) {
  const Token& at = in.peek();
  if (at.is_name("T") && in.peek(1).is_op(".") && in.peek(2).is_name("bool") && in.peek(3).is_op("(")) {
    for (int i = 0; i < 4; ++i) in.next();
    const bool v = flag_value(in, key);
    in.expect(")", "after T.bool(...)");
    return v;
  }
  const Token& t = in.next();
  if (t.is_name("True") || (t.kind == TokenKind::integer && t.int_value == 1)) return true;
  if (t.is_name("False") || (t.kind == TokenKind::integer && t.int_value == 0)) return false;
  in.fail(at, "the program's " + key + " is not a literal True or False (not read)");
}

// The program before lowering of dump NAME.lowered.py is NAME.py beside it,
// as scripts/tirx-oracle/tcgen05_programs.py writes them; nullopt when there
// is none or it has no T.cuda.tile.apply("tcgen05.mma...") (then the idesc's
// bits are taken as the program's statement).  Its flags are either the
// printed `("neg_a", T.bool(True))` pairs or the source's `neg_a=True`.
std::optional<ProgramFlags> program_flags(const std::string& dump_path) {
  static constexpr std::string_view kSuffix = ".lowered.py";
  if (dump_path.size() <= kSuffix.size() || !dump_path.ends_with(kSuffix)) return std::nullopt;
  const std::string program = dump_path.substr(0, dump_path.size() - kSuffix.size()) + ".py";
  std::ifstream file(program);
  if (!std::filesystem::is_regular_file(program) || !file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  TokenCursor in(tokenize(text.str(), program));
  std::optional<ProgramFlags> out;
  while (in.peek().kind != TokenKind::end) {
    const bool apply = in.peek().is_name("T") && in.peek(2).is_name("cuda") && in.peek(4).is_name("tile") &&
                       in.peek(6).is_name("apply") && in.peek(7).is_op("(") && in.peek(8).kind == TokenKind::string &&
                       in.peek(8).text.starts_with("tcgen05.mma");
    if (!apply) {
      in.next();
      continue;
    }
    const Token& at = in.peek();
    if (out) in.fail(at, "a second tcgen05.mma tile op in the program before lowering (one is read)");
    out.emplace();
    out->loc = at.loc;
    out->from = program + ":" + std::to_string(at.loc.line);
    for (int i = 0; i < 8; ++i) in.next();
    for (int depth = 1; depth > 0;) {
      const Token& t = in.peek();
      if (t.kind == TokenKind::end) in.fail(at, "the tile op does not end");
      const bool key = (t.kind == TokenKind::string && in.peek(1).is_op(",")) ||
                       (t.kind == TokenKind::identifier && in.peek(1).is_op("="));
      if (key && (t.text == "neg_a" || t.text == "neg_b" || t.text == "sat_d" || t.text == "accum")) {
        const std::string name = in.next().text;
        in.next();
        const bool v = flag_value(in, name);
        if (name == "neg_a") out->neg_a = v;
        else if (name == "neg_b") out->neg_b = v;
        else if (name == "sat_d") out->sat_d = v;
        else out->accum = v;
        continue;
      }
      in.next();
      if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
      if (t.is_op(")") || t.is_op("]") || t.is_op("}")) --depth;
    }
    // An accum the program does not pass is TIRx's default, False.
    if (!out->accum) out->accum = false;
  }
  return out;
}

class DumpReader {
 public:
  DumpReader(std::string_view text, const std::string& path)
      : path_(path), in_(tokenize(text, path)), flags_(program_flags(path)) {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      lines_.emplace_back(text.substr(start, end - start));
      start = end + 1;
    }
  }

  Tcgen05Case read() {
    for (;;) {
      while (in_.peek().kind == TokenKind::newline) in_.next();
      const Token& t = in_.peek();
      if (t.kind == TokenKind::end) break;
      while (!loops_.empty() && loops_.back().col >= t.loc.col) loops_.pop_back();
      statement();
    }
    if (!call_)
      throw Error(SourceLoc{path_, 0, 0}, "no T.ptx.tcgen05 call in the file (a TIRx lowered dump's tcgen05.mma)");
    return std::move(*call_);
  }

 private:
  struct Loop {
    int col;
    std::string name;
    std::int64_t begin, end;
  };

  void skip_line() {
    while (!in_.peek().ends_statement()) in_.next();
  }

  void statement() {
    const Token& t = in_.peek();
    if (t.is_op("@")) {
      in_.next();
      const Token& name = in_.peek();
      std::string dotted = in_.expect_name("a decorator").text;
      while (in_.accept(".")) dotted += "." + in_.expect_name("a name").text;
      if (dotted != "T.ir_module" && dotted != "T.function" && dotted != "T.prim_func")
        in_.fail(name, "the decorator '" + printable(dotted) + "' is not read (T.ir_module, T.function)");
      return expect_end();
    }
    if (t.is_name("class")) return skip_line();
    if (t.is_name("def")) {
      in_.next();
      in_.expect_name("the kernel's name");
      in_.expect("(", "after the kernel's name");
      if (!in_.peek().is_op(")"))
        in_.fail(in_.peek(), "a kernel with parameters is not read (its buffers are allocated in it)");
      return skip_line();
    }
    if (t.is_name("with")) {
      in_.next();
      if (!in_.peek().is_name("T") || (!in_.peek(2).is_name("device_scope") && !in_.peek(2).is_name("device_entry")))
        in_.fail(in_.peek(), "only 'with T.device_scope(...)' (T.device_entry before lowering) is read");
      return skip_line();
    }
    if (t.is_name("for")) return loop();
    if (t.kind == TokenKind::identifier && in_.peek(1).is_op("=") && in_.peek(2).is_name("T") &&
        in_.peek(4).is_name("alloc_tensor"))
      return allocation();
    if (t.is_name("T") && in_.peek(2).is_name("ptx") && in_.peek(4).is_name("tcgen05")) return call();
    if (t.is_name("T") && in_.peek(2).is_name("cuda") && in_.peek(4).is_name("tile"))
      in_.fail(t,
               "a TIRx program before TileDispatch: the descriptors TIRx encodes are not in it yet; check its "
               "lowered dump (TileDispatch with a CUDA sm_100a target, scripts/tirx-oracle/tcgen05_programs.py)");
    in_.fail(t,
             "this statement is not read in a TIRx tcgen05 dump (allocations, T.unroll loops and one "
             "T.ptx.tcgen05 call are)");
  }

  void expect_end() {
    if (!in_.peek().ends_statement()) in_.fail(in_.peek(), "expected the end of the line, got " + describe(in_.peek()));
  }

  std::int64_t integer(const std::string& what) {
    const Token& t = in_.next();
    if (t.kind != TokenKind::integer) in_.fail(t, "expected " + what + ", got " + describe(t));
    return t.int_value;
  }

  void loop() {
    const Token& at = in_.next();
    Loop l{at.loc.col, in_.expect_name("the loop variable").text, 0, 0};
    if (!in_.next().is_name("in") || !in_.next().is_name("T") || !in_.next().is_op(".") ||
        !in_.peek().is_name("unroll"))
      in_.fail(at, "only 'for NAME in T.unroll(BEGIN, END):' loops are read");
    in_.next();
    in_.expect("(", "after T.unroll");
    l.begin = integer("the loop's start");
    in_.expect(",", "between the loop's bounds");
    l.end = integer("the loop's end");
    in_.expect(")", "after the loop's bounds");
    in_.expect(":", "after the loop");
    if (l.end <= l.begin || l.end - l.begin > 64) in_.fail(at, "a T.unroll loop of 1 to 64 iterations is read");
    expect_end();
    loops_.push_back(std::move(l));
  }

  void allocation() {
    Buffer b;
    const Token& name = in_.next();
    b.name = name.text;
    b.loc = name.loc;
    in_.next();                              // =
    for (int i = 0; i < 4; ++i) in_.next();  // T . alloc_tensor (
    if (in_.peek().is_op("(")) {             // the allocated address (TMEM)
      in_.next();
      integer("the allocated address");
      in_.accept(",");
      in_.expect(")", "after the allocated address");
      in_.expect(",", "after the allocated address");
    }
    if (!in_.next().is_name("ty_args")) in_.fail(name, "expected ty_args=[T.Tensor(...)] in the allocation");
    in_.expect("=");
    in_.expect("[");
    if (!in_.next().is_name("T") || !in_.next().is_op(".") || !in_.next().is_name("Tensor"))
      in_.fail(name, "expected ty_args=[T.Tensor(...)] in the allocation");
    const Token& open = in_.expect("(");
    in_.expect("(", "before the tensor's shape");
    do b.shape.push_back(integer("an extent"));
    while (in_.accept(",") && !in_.peek().is_op(")"));
    in_.expect(")", "after the shape");
    // A shared or TMEM tile holds at most a few hundred KiB: a larger product is a misreading, never a wrap.
    std::int64_t elements = 1;
    for (const std::int64_t e : b.shape)
      if (e <= 0 || __builtin_mul_overflow(elements, e, &elements) || elements > (std::int64_t{1} << 32))
        in_.fail(open, "the tensor's shape " + tuple_text(b.shape) +
                           " is not a tile (each extent positive, at most 2^32 elements)");
    in_.expect(",");
    if (!in_.next().is_name("T") || !in_.next().is_op(".")) in_.fail(open, "expected the dtype T.NAME");
    b.dtype = in_.expect_name("the dtype").text;
    while (in_.accept(",")) {
      const Token& key = in_.expect_name("a keyword");
      in_.expect("=", "after " + key.text);
      if (key.text == "scope") {
        const Token& s = in_.next();
        if (s.kind != TokenKind::string || (s.text != "shared" && s.text != "shared.dyn" && s.text != "tmem"))
          in_.fail(s, "a shared or tmem buffer is read, got " + describe(s));
        b.scope = s.text == "tmem" ? "tmem" : "shared";
      } else if (key.text == "data_alignment") {
        integer("the alignment");
      } else if (key.text == "layout") {
        b.layout = layout(key);
      } else {
        in_.fail(key, "the tensor's '" + printable(key.text) + "' is not read (scope, data_alignment, layout)");
      }
    }
    in_.expect_close(")", "T.Tensor(", open);
    in_.expect("]");
    in_.expect(")");
    expect_end();
    if (b.scope.empty() || !b.layout) in_.fail(name, "the allocation needs its scope and layout");
    const std::int64_t size = std::visit([](const auto& l) { return layout_size(l); }, *b.layout);
    if (size != b.size())
      in_.fail(name, "the layout has " + std::to_string(size) + " elements, the tensor " + std::to_string(b.size()));
    buffers_[b.name] = std::move(b);
  }

  static std::int64_t layout_size(const TileLayout& l) { return l.size(); }
  static std::int64_t layout_size(const GroupedLayout& l) { return l.layout().size(); }
  static std::int64_t layout_size(const ComposeLayout& l) { return l.size(); }

  // The layout expression after `layout=`, up to the `)` or `,` that ends it, on its line.
  AnyLayout layout(const Token& key) {
    const Token& first = in_.peek();
    int depth = 0;
    while (depth > 0 || (!in_.peek().is_op(")") && !in_.peek().is_op(","))) {
      const Token& t = in_.next();
      if (t.ends_statement()) in_.fail(key, "the layout does not end on its line");
      if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
      if (t.is_op(")") || t.is_op("]") || t.is_op("}")) --depth;
    }
    const Token& after = in_.peek();
    // The expression is cut from its line: it must lie on one line as this
    // reader's lines have it (the lexer also ends a line at a lone '\r').
    const auto line_at = static_cast<std::size_t>(first.loc.line - 1);
    if (after.loc.line != first.loc.line || line_at >= lines_.size() || after.loc.col < first.loc.col ||
        static_cast<std::size_t>(after.loc.col - 1) > lines_[line_at].size())
      in_.fail(key, "the layout does not end on its line");
    const std::string expr =
        lines_[line_at].substr(static_cast<std::size_t>(first.loc.col - 1), after.loc.col - first.loc.col);
    return parse_any_layout(expr, first.loc);
  }

  const Buffer& buffer(const Token& name, const std::string& scope) const {
    const auto it = buffers_.find(name.text);
    if (it == buffers_.end() || it->second.scope != scope)
      throw Error(name.loc, "'" + printable(name.text) + "' is no " + scope + " buffer allocated before the call");
    return it->second;
  }

  // T.cuda.get_tmem_addr(T.Cast("uint32", T.reinterpret(D.data, ty=T.uint64)), LANE, COL)
  struct TmemArg {
    const Token* name;
    std::size_t lane_at, col_at;  // token positions of LANE and COL
  };
  TmemArg tmem_arg() {
    const Token& at = in_.peek();
    const char* form[] = {"T", ".", "cuda", ".", "get_tmem_addr", "(", "T", ".", "Cast", "("};
    for (const char* w : form)
      if (in_.next().text != w)
        in_.fail(
            at,
            "expected D's address as T.cuda.get_tmem_addr(T.Cast(\"uint32\", T.reinterpret(D.data, ty=T.uint64)), LANE, COL)");
    if (in_.next().text != "uint32") in_.fail(at, "expected T.Cast(\"uint32\", ...) of D's allocation");
    const char* form2[] = {",", "T", ".", "reinterpret", "("};
    for (const char* w : form2)
      if (in_.next().text != w) in_.fail(at, "expected T.reinterpret(D.data, ty=T.uint64)");
    TmemArg a{&in_.expect_name("D's buffer"), 0, 0};
    const char* form3[] = {".", "data", ",", "ty", "=", "T", ".", "uint64", ")", ")", ","};
    for (const char* w : form3)
      if (in_.next().text != w) in_.fail(at, "expected T.reinterpret(D.data, ty=T.uint64)");
    a.lane_at = in_.position();
    skip_arg();
    in_.expect(",", "between the TMEM lane and column");
    a.col_at = in_.position();
    skip_arg();
    in_.expect(")", "after D's TMEM address");
    return a;
  }

  // Passes over one argument (balanced brackets) up to the `,` or `)` that ends it.
  void skip_arg() {
    int depth = 0;
    while (depth > 0 || (!in_.peek().is_op(")") && !in_.peek().is_op(","))) {
      const Token& t = in_.next();
      if (t.kind == TokenKind::end) in_.fail(t, "the call does not end");
      if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
      if (t.is_op(")") || t.is_op("]") || t.is_op("}")) --depth;
    }
  }

  std::int64_t evaluate_at(std::size_t position, const LoweredNames& names, int bits) {
    TokenCursor c(in_.tokens(), position);
    return evaluate_lowered(c, names, bits);
  }

  void call() {
    const Token& at = in_.peek();
    if (call_) in_.fail(at, "a second T.ptx.tcgen05 call (one tcgen05.mma a file is read)");
    for (int i = 0; i < 5; ++i) in_.next();  // T . ptx . tcgen05
    const Token& open = in_.expect("(", "after T.ptx.tcgen05");
    const TmemArg d_arg = tmem_arg();
    std::vector<std::size_t> args;  // token positions of the arguments after D's
    std::vector<const Token*> strings;
    while (in_.accept(",")) {
      if (in_.peek().kind == TokenKind::string) {
        strings.push_back(&in_.next());
        continue;
      }
      if (!strings.empty()) in_.fail(in_.peek(), "an argument after the call's modifiers");
      args.push_back(in_.position());
      skip_arg();
    }
    in_.expect_close(")", "T.ptx.tcgen05(", open);
    expect_end();

    // The modifiers: "mma", "cta_group::N", "kind::K", "", and the predicate's form.
    if (strings.size() != 5 || strings[0]->text != "mma" || strings[3]->text != "")
      in_.fail(at,
               "the T.ptx.tcgen05 form read is \"mma\", \"cta_group::N\", \"kind::K\", \"\", PRED (a dense "
               "tcgen05.mma with A and B in shared memory)");
    const Token& group = *strings[1];
    const Token& kind_token = *strings[2];
    Tcgen05Case c;
    Tcgen05Instr& in = c.instr;
    if (group.text == "cta_group::1") in.cta_group = 1;
    else if (group.text == "cta_group::2") in.cta_group = 2;
    else in_.fail(group, "expected cta_group::1 or cta_group::2, got " + describe(group));
    if (kind_token.text.rfind("kind::", 0) != 0 || !find_tcgen05_kind(kind_token.text.substr(6), in.kind))
      in_.fail(kind_token, "the kind " + describe(kind_token) + " is not read (kind::tf32, f16, f8f6f4, i8)");
    const std::size_t expected = 3 + 4 * static_cast<std::size_t>(in.cta_group) + 1;
    if (args.size() != expected)
      in_.fail(at, "a dense shared-A tcgen05.mma has " + std::to_string(expected + 1) +
                       " arguments before its modifiers (D, A, B, idesc, 4 masks per CTA, enable), this one " +
                       std::to_string(args.size() + 1));

    // The operands' buffers: the tokens after T.address_of( in each descriptor.
    const Buffer& d = buffer(*d_arg.name, "tmem");
    // Within the argument only: a descriptor with no T.address_of of its own must not take the next one's buffer.
    const auto address_buffer = [&](std::size_t arg) -> const Token& {
      TokenCursor c2(in_.tokens(), args[arg]);
      while (!(c2.peek().is_name("address_of") && c2.peek(1).is_op("("))) {
        if (c2.peek().ends_statement() || c2.position() >= args[arg + 1])
          in_.fail(in_.tokens()->at(args[arg]),
                   "a shared descriptor's start is T.address_of a buffer's element; none here");
        c2.next();
      }
      c2.next();
      c2.next();
      return c2.peek();
    };
    const Buffer& a = buffer(address_buffer(0), "shared");
    const Buffer& b = buffer(address_buffer(1), "shared");
    for (const Buffer* x : {&d, &a, &b})
      if (x->shape.size() < 2) throw Error(x->loc, "an MMA buffer has at least two extents");
    const auto rows = [](const Buffer& x) { return x.shape[x.shape.size() - 2]; };
    const auto cols = [](const Buffer& x) { return x.shape.back(); };
    in.m = static_cast<int>(std::min<std::int64_t>(rows(d), 4096)) * in.cta_group;
    in.n = static_cast<int>(std::min<std::int64_t>(cols(d), 4096));
    in.d = find_tcgen05_d(in.kind, operand_format(d.dtype, in.kind, true));
    in.a = find_tcgen05_format(in.kind, operand_format(a.dtype, in.kind));
    in.b = find_tcgen05_format(in.kind, operand_format(b.dtype, in.kind));
    if (!in.d)
      throw Error(d.loc, "kind::" + std::string(tcgen05_kind_name(in.kind)) + " has no D format " + d.dtype + " (" +
                             tcgen05_format_names(in.kind, true) + ")");
    for (const auto& [x, f] : {std::pair{&a, in.a}, std::pair{&b, in.b}})
      if (!f)
        throw Error(x->loc, "kind::" + std::string(tcgen05_kind_name(in.kind)) + " has no operand format " + x->dtype +
                                " (" + tcgen05_format_names(in.kind, false) + ")");
    if (rows(a) * in.cta_group != in.m || cols(a) != in.k())
      throw Error(a.loc, "A's atom (its last two extents) is " + std::to_string(rows(a)) + " x " +
                             std::to_string(cols(a)) + "; D's M / cta_group and the kind's K make it " +
                             std::to_string(in.m / in.cta_group) + " x " + std::to_string(in.k()));
    if (rows(b) * in.cta_group != in.n || cols(b) != in.k())
      throw Error(b.loc, "B's atom (its last two extents) is " + std::to_string(rows(b)) + " x " +
                             std::to_string(cols(b)) + "; D's N / cta_group and the kind's K make it " +
                             std::to_string(in.n / in.cta_group) + " x " + std::to_string(in.k()));

    LoweredNames names;
    names.address = [&](const Token& name, const std::vector<std::int64_t>& index) -> std::int64_t {
      const Buffer& x = buffer(name, "shared");
      if (index.size() != x.shape.size())
        throw Error(name.loc, "an element of " + x.name + " takes " + std::to_string(x.shape.size()) + " indices");
      const std::optional<std::int64_t> f = x.flat(index);
      if (!f) throw Error(name.loc, "the element is outside " + x.name + "'s shape");
      // A layout's offsets are any int64, so the element's owner and its byte
      // address may leave int64: an error at the name.
      try {
        return checked_mul(static_cast<std::int64_t>(bytes_of(x, in)), x.offset(*f),
                           "the byte address of " + x.name + "'s element");
      } catch (const Error& e) {
        throw e.located(name.loc);
      }
    };

    // Every combination of the loop values, in execution order (the last
    // loop innermost): one output tile (D does not move), so together they
    // are its K loop.
    struct Repeat {
      std::string name;   // "line 14, repeat_2=1"
      std::string where;  // "repeat_2=1"
      std::array<Tcgen05SmemDescriptor, 2> descriptors;
      bool accumulate = true;
    };
    std::vector<Repeat> repeats;
    std::vector<std::int64_t> values;
    for (const Loop& l : loops_) values.push_back(l.begin);
    bool first = true;
    for (;;) {
      Repeat rep;
      for (std::size_t i = 0; i < loops_.size(); ++i) {
        names.loop_vars[loops_[i].name] = values[i];
        if (loops_[i].end - loops_[i].begin > 1)
          rep.where += (rep.where.empty() ? "" : ", ") + loops_[i].name + "=" + std::to_string(values[i]);
      }
      rep.name = "line " + std::to_string(at.loc.line) + (rep.where.empty() ? "" : ", " + rep.where);
      const std::uint32_t idesc = static_cast<std::uint32_t>(evaluate_at(args[2], names, 32));
      for (std::size_t m = 3; m < 3 + 4 * static_cast<std::size_t>(in.cta_group); ++m)
        if (evaluate_at(args[m], names, 32) != 0)
          in_.fail(in_.tokens()->at(args[m]), "a disable-output-lane mask other than 0 is not read");
      {
        TokenCursor cond(in_.tokens(), args.back());
        rep.accumulate = evaluate_lowered_condition(cond, names);
      }
      const std::int64_t lane = evaluate_at(d_arg.lane_at, names, 16), col = evaluate_at(d_arg.col_at, names, 16);
      if (first) {
        c.idesc = idesc;
        c.idesc_loc = in_.tokens()->at(args[2]).loc;
        c.instr_loc = at.loc;
        in.a_major = (idesc >> 15) & 1 ? Major::mn : Major::k;
        in.b_major = (idesc >> 16) & 1 ? Major::mn : Major::k;
        if (const std::string why = in.problem(); !why.empty()) throw Error(at.loc, why);
        // A flag the kind lacks (sat_d on kind::f16) is the program's error, at its tile op.
        state_flags(c, idesc);
        if (const std::string why = in.problem(); !why.empty()) throw Error(flags_ ? flags_->loc : at.loc, why);
        c.tmem = tmem(d, in, lane, col, at.loc);
      } else if (idesc != c.idesc) {
        in_.fail(in_.tokens()->at(args[2]), "the instruction descriptor changes between loop values");
      } else if (lane != c.tmem->base_lane || col != c.tmem->base_col) {
        in_.fail(*d_arg.name, "D's TMEM address moves between loop values (one D a call is read)");
      }
      for (std::size_t which = 0; which < 2; ++which) {
        const std::size_t arg = args[which];
        const std::uint64_t bits = static_cast<std::uint64_t>(evaluate_at(arg, names, 64));
        try {
          rep.descriptors[which] = Tcgen05SmemDescriptor::decode(bits);
        } catch (const Error& e) {
          throw Error(in_.tokens()->at(arg).loc, e.message());
        }
      }
      repeats.push_back(std::move(rep));
      first = false;
      std::size_t i = loops_.size();
      while (i > 0 && ++values[i - 1] == loops_[i - 1].end) {
        values[i - 1] = loops_[i - 1].begin;
        --i;
      }
      if (i == 0) break;
    }

    // The K loop, whole: which K block of the staged tile each repeat's
    // descriptors point at, read back from the descriptors alone (the
    // T.address_of in them is what is under test, so it decides nothing).
    const int k_blocks = staged_k_blocks(a);
    if (staged_k_blocks(b) != k_blocks)
      throw Error(b.loc, "B stages " + std::to_string(staged_k_blocks(b)) + " K blocks, A " + std::to_string(k_blocks) +
                             ": one K loop reads both");
    std::array<std::vector<std::vector<std::int64_t>>, 2> atoms;  // [operand][K block] -> placed bytes
    for (std::size_t which = 0; which < 2; ++which)
      for (int kb = 0; kb < k_blocks; ++kb) atoms[which].push_back(atom_bytes(which == 0 ? a : b, which == 0, in, kb));
    Tcgen05KLoop loop;
    loop.k_blocks = k_blocks;
    if (flags_ && flags_->accum) {
      loop.declared_accumulate = *flags_->accum;
      loop.declared_loc = flags_->loc;
    }
    for (const Repeat& rep : repeats) {
      Tcgen05Step step{.name = rep.name, .loc = at.loc, .accumulate = rep.accumulate};
      for (std::size_t which = 0; which < 2; ++which) {
        const WgmmaOperand op = operand(which == 0, in);
        const int block = block_read(op, rep.descriptors[which], atoms[which]);
        (which == 0 ? step.a_block : step.b_block) = block;
      }
      loop.steps.push_back(std::move(step));
    }

    // Each repeat's operands are checked element by element against the K
    // block the loop needs there (tcgen05_needed_blocks): the block the
    // other operand reads, or the repeat's place, never the block the
    // operand's own start expression names.
    const std::vector<int> needed = tcgen05_needed_blocks(loop);
    for (std::size_t r = 0; r < repeats.size(); ++r)
      for (std::size_t which = 0; which < 2; ++which) {
        const Tcgen05Step& step = loop.steps[r];
        const int read = which == 0 ? step.a_block : step.b_block;
        // Past the K blocks no block is needed: the element check then
        // compares with the block read (the k-loop check refutes the repeat).
        const int kb = needed[r] >= 0 ? needed[r] : std::max(read, 0);
        const Buffer& x = which == 0 ? a : b;
        Tcgen05Operand op;
        op.descriptor = repeats[r].descriptors[which];
        op.placement = placement(x, which == 0, in, kb, atoms[which][static_cast<std::size_t>(kb)],
                                 in_.tokens()->at(args[which]).loc, repeats[r].where);
        c.operands.push_back(std::move(op));
      }
    c.k_loop = std::move(loop);
    c.flags_from = flags_ ? flags_->from : "the idesc (no program before lowering beside the dump)";
    call_ = std::move(c);
  }

  // Negate A/B and saturate, as the program states them: the program
  // before lowering when it is beside the dump (its tile op's neg_a, neg_b,
  // sat_d), else the idesc's own bits (TIRx folds the flags into the idesc
  // and prints nothing else of them), each only where the kind has it, so
  // that a bit the kind lacks is still refuted by the idesc check.
  void state_flags(Tcgen05Case& c, std::uint32_t idesc) const {
    Tcgen05Instr& in = c.instr;
    if (flags_) {
      in.negate_a = flags_->neg_a;
      in.negate_b = flags_->neg_b;
      in.saturate = flags_->sat_d;
      return;
    }
    const bool i8 = in.kind == Tcgen05Kind::i8;
    in.negate_a = !i8 && ((idesc >> 13) & 1);
    in.negate_b = !i8 && ((idesc >> 14) & 1);
    in.saturate = i8 && ((idesc >> 3) & 1);
  }

  // A (last two extents) atoms along the K-repeat axis: TIRx's operand is
  // (*group, *batch, M or N repeat, K repeat, rows, K); one output tile (D
  // is one atom) has the rest 1.
  static int staged_k_blocks(const Buffer& x) {
    if (x.shape.size() < 3) return 1;
    for (std::size_t d = 0; d + 3 < x.shape.size(); ++d)
      if (x.shape[d] != 1)
        throw Error(x.loc, x.name + "'s extent " + std::to_string(x.shape[d]) + " at index " + std::to_string(d) +
                               " spans more than one output tile; one D (one M x N tile) is read");
    if (x.shape[x.shape.size() - 3] > 64) throw Error(x.loc, "more than 64 K blocks are not read");
    return static_cast<int>(x.shape[x.shape.size() - 3]);
  }

  static WgmmaOperand operand(bool is_a, const Tcgen05Instr& in) {
    const Tcgen05Format& format = is_a ? *in.a : *in.b;
    return WgmmaOperand{.operand = is_a ? 'A' : 'B',
                        .type = &format.operand,
                        .rows = (is_a ? in.m : in.n) / in.cta_group,
                        .k = format.operand.k,
                        .major = is_a ? in.a_major : in.b_major};
  }

  // The byte address of every element (i, k) of K block `kb`'s atom.
  static std::vector<std::int64_t> atom_bytes(const Buffer& x, bool is_a, const Tcgen05Instr& in, int kb) {
    const WgmmaOperand op = operand(is_a, in);
    const int bytes = (is_a ? *in.a : *in.b).operand.bytes;
    const std::size_t r = x.shape.size() - 2;
    std::vector<std::int64_t> index(x.shape.size(), 0);
    if (r > 0) index[r - 1] = kb;
    std::vector<std::int64_t> placed;
    try {
      for (int i = 0; i < op.rows; ++i)
        for (int k = 0; k < op.k; ++k) {
          index[r] = i;
          index[r + 1] = k;
          placed.push_back(
              checked_mul(bytes, x.offset(*x.flat(index)), "the byte address of " + x.name + "'s element"));
        }
    } catch (const Error& e) {
      throw e.located(x.loc);
    }
    return placed;
  }

  // The K block whose atom's first element the descriptor reads first: the
  // canonical layout's address of (0, 0) (its start where the mode is not
  // modelled), -1 when no block's first element is there.
  static int block_read(const WgmmaOperand& op, const Tcgen05SmemDescriptor& d,
                        const std::vector<std::vector<std::int64_t>>& atoms) {
    const bool modelled = tcgen05_swizzle(d.swizzle).canonical && !d.lbo_absolute;
    const std::int64_t first = modelled ? canonical_address(op, d.as_wgmma(), 0, 0) : d.start;
    for (std::size_t kb = 0; kb < atoms.size(); ++kb)
      if (atoms[kb].front() == first) return static_cast<int>(kb);
    return -1;
  }

  static std::string layout_text(const AnyLayout& l) {
    if (const auto* c = std::get_if<ComposeLayout>(&l)) return c->str();
    if (const auto* g = std::get_if<GroupedLayout>(&l)) return g->layout().str();
    return std::get<TileLayout>(l).str();
  }

  static int bytes_of(const Buffer& x, const Tcgen05Instr& in) {
    const Tcgen05Format* f = find_tcgen05_format(in.kind, operand_format(x.dtype, in.kind));
    return f ? f->operand.bytes : 1;
  }

  WgmmaCase placement(const Buffer& x, bool is_a, const Tcgen05Instr& in, int kb, std::vector<std::int64_t> placed,
                      const SourceLoc& loc, const std::string& where) const {
    WgmmaCase w;
    const Tcgen05Format& format = is_a ? *in.a : *in.b;
    w.operand = operand(is_a, in);
    w.loc = loc;
    w.name = std::string(1, w.operand.operand) + " (line " + std::to_string(loc.line) +
             (where.empty() ? "" : ", " + where) + ", K block " + std::to_string(kb) + ")";
    w.placement = x.name + " " + layout_text(*x.layout);
    if (const auto* compose = std::get_if<ComposeLayout>(&*x.layout); compose && compose->swizzle().inner) {
      Swizzle bytes = compose->swizzle();
      for (int width = format.operand.bytes; width > 1; width /= 2) ++bytes.base;
      w.buffer_swizzle = bytes;
    }
    w.placed = std::move(placed);
    return w;
  }

  TmemCase tmem(const Buffer& d, const Tcgen05Instr& in, std::int64_t lane, std::int64_t col,
                const SourceLoc& at) const {
    TmemCase t;
    t.loc = d.loc;
    t.name = "D (" + d.name + ", line " + std::to_string(d.loc.line) + ")";
    t.cta_group = in.cta_group;
    t.m = in.m;
    t.n = in.n;
    t.d_bits = in.d->name == "f16" ? 16 : 32;
    t.base_lane = static_cast<int>(lane);
    t.base_col = static_cast<int>(col);
    if (std::holds_alternative<ComposeLayout>(*d.layout))
      throw Error(d.loc, "a TMEM buffer's layout is a TileLayout on TLane and TCol");
    t.placement = layout_text(*d.layout);
    const TileLayout& layout = std::holds_alternative<TileLayout>(*d.layout)
                                   ? std::get<TileLayout>(*d.layout)
                                   : std::get<GroupedLayout>(*d.layout).layout();
    if (in.cta_group != 1) throw Error(d.loc, "a CTA pair's D (each CTA's buffer) is not read; cta_group::1 is");
    const int rows = in.m;
    std::vector<TmemPosition> all;
    try {
      all = tmem_placement(layout, static_cast<int>(d.size() / in.n), in.n);
    } catch (const Error& e) {
      throw e.located(d.loc);
    }
    // The call's D is the buffer's first atom (the repeat indices 0: one D a call).
    if (d.size() != std::int64_t{rows} * in.n)
      throw Error(at, "D's buffer holds more than one M x N atom; only one D a call is read");
    for (const TmemPosition& p : all) t.placed.push_back(p);
    if (in.cta_group == 1)
      for (const TmemPosition& p : t.placed)
        if (p.cta != 0) throw Error(d.loc, "cta_group::1 writes D in its own CTA: the layout must not step cbx");
    // TIRx's address is relative to the allocation; the layout's positions are too.
    return t;
  }

  std::string path_;
  TokenCursor in_;
  std::vector<std::string> lines_;
  std::map<std::string, Buffer, std::less<>> buffers_;
  std::vector<Loop> loops_;
  std::optional<Tcgen05Case> call_;
  std::optional<ProgramFlags> flags_;
};

}  // namespace

bool is_tcgen05_tirx(std::string_view text) {
  const bool kernel = text.find("@T.function") != std::string_view::npos ||
                      text.find("@T.prim_func") != std::string_view::npos ||
                      text.find("@T.ir_module") != std::string_view::npos;
  return kernel && text.find("tcgen05") != std::string_view::npos;
}

Tcgen05Case read_tcgen05_tirx(std::string_view text, const std::string& path) { return DumpReader(text, path).read(); }

}  // namespace mmacheck
