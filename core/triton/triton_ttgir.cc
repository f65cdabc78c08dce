#include "core/triton/triton_ttgir.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "core/triton/triton_nvmma_shared.h"

namespace mmacheck {

namespace {

// TTGIR's other encodings: read past (their bodies are not parsed) and
// reported only when a dot uses one.
constexpr std::string_view kOtherEncodings[] = {
    "ttg.blocked",
    "ttg.slice",
    "ttg.swizzled_shared",
    "ttg.shared_memory",
    "ttg.padded_shared",
    "ttg.shared_linear",
    "ttg.amd_mfma",
    "ttg.amd_wmma",
    "ttng.tensor_memory",
    "ttng.tensor_memory_encoding",
    "ttng.tensor_memory_scales_encoding",
};

// Ops that multiply on tensor cores but are neither mma.sync nor wgmma:
// recognised and reported unchecked.
constexpr std::string_view kUncheckedDots[] = {"tt.dot_scaled", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled"};

// An encoding as written, resolved through the aliases.
struct Encoding {
  TtgirTensor::Kind kind = TtgirTensor::Kind::other;
  std::string name;  // "#mma", "#ttg.dot_op", ...
  SourceLoc at, k_width_at, op_idx_at;
  NvidiaMmaEncoding mma;
  DotOperandEncoding dot;
  TritonLayout linear;
  bool nvmma_shared = false;  // #ttg.nvmma_shared (kind other): `shared` holds its fields
  NvmmaSharedEncoding shared;
};

using Aliases = std::map<std::string, Encoding>;

bool is_pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A cursor over one line of text.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& file, int line, int col)
      : text_(text), file_(file), line_(line), col_(col) {}

  // The position of the next token (white space skipped).
  SourceLoc here() {
    ws();
    return SourceLoc{file_, line_, col_ + static_cast<int>(pos_)};
  }
  SourceLoc at(std::size_t pos) const { return SourceLoc{file_, line_, col_ + static_cast<int>(pos)}; }
  std::size_t pos() const { return pos_; }
  void seek(std::size_t p) { pos_ = p; }
  std::string_view rest() const { return text_.substr(pos_); }
  [[noreturn]] void fail(const std::string& message) { throw Error(here(), message); }
  void ws() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
  }
  bool done() {
    ws();
    return pos_ >= text_.size();
  }
  bool peek(std::string_view s) {
    ws();
    return text_.substr(pos_, s.size()) == s;
  }
  bool eat(std::string_view s) {
    if (!peek(s)) return false;
    pos_ += s.size();
    return true;
  }
  void expect(std::string_view s, const std::string& where) {
    if (!eat(s)) fail("expected '" + std::string(s) + "' " + where + ", found '" + printable(excerpt()) + "'");
  }
  std::string excerpt() {
    ws();
    return std::string(text_.substr(pos_, std::min<std::size_t>(24, text_.size() - pos_)));
  }
  // [A-Za-z_][A-Za-z0-9_.]*
  std::string ident(const std::string& what) {
    ws();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   (pos_ > start && text_[pos_] == '.')))
      ++pos_;
    if (pos_ == start || std::isdigit(static_cast<unsigned char>(text_[start])))
      fail("expected " + what + ", found '" + printable(excerpt()) + "'");
    return std::string(text_.substr(start, pos_ - start));
  }
  std::int64_t integer(const std::string& what) {
    ws();
    const std::size_t start = pos_;
    bool negative = false;
    if (pos_ < text_.size() && text_[pos_] == '-') negative = true, ++pos_;
    std::int64_t v = 0;
    const std::size_t digits = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (v > (std::int64_t{1} << 40)) throw Error(at(start), what + " is too large");
      v = v * 10 + (text_[pos_++] - '0');
    }
    if (pos_ == digits) {
      pos_ = start;
      fail("expected " + what + " (an integer), found '" + printable(excerpt()) + "'");
    }
    return negative ? -v : v;
  }
  // `[a, b, ...]`
  std::vector<std::int64_t> int_list(const std::string& what) {
    expect("[", "to open " + what);
    std::vector<std::int64_t> out;
    if (eat("]")) return out;
    do out.push_back(integer("an entry of " + what));
    while (eat(","));
    expect("]", "to close " + what);
    return out;
  }
  // `[[a, b], [c, d]]`
  std::vector<std::vector<std::int64_t>> bases(const std::string& what) {
    expect("[", "to open " + what);
    std::vector<std::vector<std::int64_t>> out;
    if (eat("]")) return out;
    do out.push_back(int_list("a basis of " + what));
    while (eat(","));
    expect("]", "to close " + what);
    return out;
  }
  // A `<...>` body read past, brackets and strings balanced.
  void skip_body() {
    if (!peek("<")) return;
    int depth = 0;
    bool in_string = false;
    for (; pos_ < text_.size(); ++pos_) {
      const char ch = text_[pos_];
      if (in_string) {
        if (ch == '\\') ++pos_;
        else if (ch == '"') in_string = false;
      } else if (ch == '"') {
        in_string = true;
      } else if (ch == '<') {
        ++depth;
      } else if (ch == '>' && --depth == 0) {
        ++pos_;
        return;
      }
    }
    pos_ = text_.size();
    fail("unclosed '<'");
  }

 private:
  std::string_view text_;
  const std::string& file_;
  int line_, col_;
  std::size_t pos_ = 0;
};

std::vector<int> small_ints(Cursor& c, const SourceLoc& at, const std::vector<std::int64_t>& v, const std::string& what,
                            bool powers_of_two) {
  std::vector<int> out;
  for (std::int64_t x : v) {
    if (x < 0 || x > 1024 || (powers_of_two && !is_pow2(x)))
      throw Error(at, what + " entries must be " + (powers_of_two ? "powers of two" : "integers") + " in [" +
                          (powers_of_two ? "1" : "0") + ", 1024], not " + std::to_string(x));
    out.push_back(static_cast<int>(x));
  }
  (void)c;
  return out;
}

Encoding parse_encoding(Cursor& c, const Aliases& aliases, int depth = 0);

// The fields `<{name = value, ...}>` of one attribute; `field` reads the
// value of a known name and returns false for an unknown one.
template <typename Field>
void parse_fields(Cursor& c, const std::string& attr, const std::string& known, Field field) {
  c.expect("<{", "after " + attr);
  std::set<std::string> seen;
  if (c.eat("}>")) return;
  do {
    const SourceLoc at = c.here();
    const std::string name = c.ident("a field of " + attr);
    if (!seen.insert(name).second) throw Error(at, "field '" + name + "' of " + attr + " given twice");
    c.expect("=", "after '" + name + "'");
    if (!field(name, at)) throw Error(at, "unknown field '" + printable(name) + "' of " + attr + " (" + known + ")");
  } while (c.eat(","));
  c.expect("}>", "to close " + attr);
}

Encoding parse_mma(Cursor& c, const SourceLoc& at) {
  Encoding e;
  e.kind = TtgirTensor::Kind::mma;
  e.name = "#ttg.nvidia_mma";
  e.at = at;
  const std::string attr = "#ttg.nvidia_mma";
  std::optional<std::int64_t> major, minor;
  std::optional<std::vector<int>> warps, instr, ctas, split, order;
  std::optional<std::vector<std::vector<std::int64_t>>> cga;
  SourceLoc warps_at, instr_at, cga_at, split_at;
  parse_fields(c, attr,
               "versionMajor, versionMinor, warpsPerCTA, CGALayout, CTAsPerCGA, CTASplitNum, CTAOrder, instrShape",
               [&](const std::string& name, const SourceLoc& f) {
                 if (name == "versionMajor") major = c.integer("versionMajor");
                 else if (name == "versionMinor") minor = c.integer("versionMinor");
                 else if (name == "warpsPerCTA")
                   warps_at = c.here(), warps = small_ints(c, warps_at, c.int_list(name), name, true);
                 else if (name == "instrShape")
                   instr_at = c.here(), instr = small_ints(c, instr_at, c.int_list(name), name, true);
                 else if (name == "CGALayout") cga_at = c.here(), cga = c.bases(name);
                 else if (name == "CTAsPerCGA") ctas = small_ints(c, f, c.int_list(name), name, true);
                 else if (name == "CTASplitNum") split_at = f, split = small_ints(c, f, c.int_list(name), name, true);
                 else if (name == "CTAOrder") order = small_ints(c, f, c.int_list(name), name, false);
                 else return false;
                 return true;
               });
  if (!major || !minor || !warps || !instr)
    throw Error(at, attr + " needs versionMajor, versionMinor, warpsPerCTA and instrShape");
  if (*major != 2 && *major != 3)
    throw Error(at, "versionMajor " + std::to_string(*major) +
                        ": mmacheck reads 2 (mma.sync, Ampere) and 3 (wgmma, Hopper: reported unchecked)");
  e.mma.version_major = static_cast<int>(*major);
  e.mma.version_minor = static_cast<int>(*minor);
  if (warps->size() != 2)
    throw Error(warps_at, "warpsPerCTA has " + std::to_string(warps->size()) +
                              " entries; mmacheck checks 2-D dots (no batch dimension)");
  if ((*warps)[0] * (*warps)[1] > 1024) throw Error(warps_at, "warpsPerCTA has more than 1024 warps");
  e.mma.warps_per_cta = *warps;
  e.mma.instr_shape = *instr;
  if (*major == 2) {
    if (*minor != 0) throw Error(at, "versionMinor " + std::to_string(*minor) + " of versionMajor 2: Triton prints 0");
    if (*instr != std::vector<int>{16, 8})
      throw Error(instr_at, "instrShape of versionMajor 2 is [16, 8] (mma.sync's m16n8 tile)");
  } else if (instr->size() != 3 || (*instr)[0] != 16 || (*instr)[1] < 8 || (*instr)[1] > 256 ||
             ((*instr)[2] != 8 && (*instr)[2] != 16 && (*instr)[2] != 32)) {
    throw Error(instr_at,
                "instrShape of versionMajor 3 is [16, N, K]: a warp's 16 rows of wgmma m64nNk, N 8..256, "
                "K 8, 16 or 32");
  }
  if (cga && (ctas || split || order)) throw Error(cga_at, "CGALayout given beside CTAsPerCGA/CTASplitNum/CTAOrder");
  if (cga) {
    for (const std::vector<std::int64_t>& b : *cga)
      if (b.size() != 2 || (b[0] && !is_pow2(b[0])) || (b[1] && !is_pow2(b[1])) || b[0] > 1024 || b[1] > 1024)
        throw Error(cga_at, "a CGALayout basis is two entries, each 0 or a power of two up to 1024");
    if (cga->size() > 10) throw Error(cga_at, "CGALayout has more than 10 bases");
    e.mma.cga_bases = *cga;
  } else if (ctas || split || order) {
    if (!ctas || !split || !order) throw Error(at, "CTAsPerCGA, CTASplitNum and CTAOrder come together");
    if (ctas->size() != 2 || split->size() != 2 || order->size() != 2 ||
        std::set<int>(order->begin(), order->end()) != std::set<int>{0, 1})
      throw Error(
          at, "CTAsPerCGA, CTASplitNum and CTAOrder of a 2-D layout have 2 entries, CTAOrder a permutation of 0, 1");
    for (std::size_t d = 0; d < 2; ++d)
      if ((*ctas)[d] % (*split)[d]) throw Error(split_at, "CTASplitNum must divide CTAsPerCGA");
    e.mma.cga_bases = cga_bases_from_split(*ctas, *split, *order);
  }
  return e;
}

Encoding parse_dot(Cursor& c, const SourceLoc& at, const Aliases& aliases, int depth) {
  Encoding e;
  e.kind = TtgirTensor::Kind::dot;
  e.name = "#ttg.dot_op";
  e.at = at;
  const std::string attr = "#ttg.dot_op";
  std::optional<std::int64_t> op_idx, k_width;
  std::optional<Encoding> parent;
  SourceLoc parent_at;
  parse_fields(c, attr, "opIdx, parent, kWidth", [&](const std::string& name, const SourceLoc&) {
    if (name == "opIdx") e.op_idx_at = c.here(), op_idx = c.integer("opIdx");
    else if (name == "kWidth") e.k_width_at = c.here(), k_width = c.integer("kWidth");
    else if (name == "parent") parent_at = c.here(), parent = parse_encoding(c, aliases, depth + 1);
    else return false;
    return true;
  });
  if (!op_idx || !parent || !k_width) throw Error(at, attr + " needs opIdx, parent and kWidth");
  if (*op_idx != 0 && *op_idx != 1) throw Error(e.op_idx_at, "opIdx is 0 (A) or 1 (B), not " + std::to_string(*op_idx));
  if (parent->kind != TtgirTensor::Kind::mma)
    throw Error(parent_at, "the parent " + parent->name +
                               " is no #ttg.nvidia_mma; mmacheck reads dot operands of NVIDIA MMA layouts");
  if (*k_width < 1 || *k_width > 16 || !is_pow2(*k_width))
    throw Error(e.k_width_at,
                "kWidth of an NVIDIA MMA dot operand is 1, 2, 4, 8 or 16, not " + std::to_string(*k_width));
  e.dot.op_idx = static_cast<int>(*op_idx);
  e.dot.k_width = static_cast<int>(*k_width);
  e.dot.parent = parent->mma;
  return e;
}

// #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
// elementBitWidth = 16}> (fp4Padded and the CTA fields read past their
// values: a CTA's buffer is what its wgmma reads).
Encoding parse_nvmma_shared(Cursor& c, const SourceLoc& at) {
  Encoding e;
  e.name = "#ttg.nvmma_shared";
  e.at = at;
  e.nvmma_shared = true;
  std::optional<std::int64_t> swizzle, bits;
  std::optional<bool> transposed;
  const auto boolean = [&](const std::string& name) {
    if (c.eat("true")) return true;
    if (c.eat("false")) return false;
    c.fail("expected true or false for " + name);
  };
  parse_fields(c, "#ttg.nvmma_shared",
               "swizzlingByteWidth, transposed, elementBitWidth, fp4Padded, CGALayout, CTAsPerCGA, CTASplitNum, "
               "CTAOrder",
               [&](const std::string& name, const SourceLoc&) {
                 if (name == "swizzlingByteWidth") swizzle = c.integer(name);
                 else if (name == "elementBitWidth") bits = c.integer(name);
                 else if (name == "transposed") transposed = boolean(name);
                 else if (name == "fp4Padded") e.shared.fp4_padded = boolean(name);
                 else if (name == "CGALayout") (void)c.bases(name);
                 else if (name == "CTAsPerCGA" || name == "CTASplitNum" || name == "CTAOrder") (void)c.int_list(name);
                 else return false;
                 return true;
               });
  if (!swizzle || !bits || !transposed)
    throw Error(at, "#ttg.nvmma_shared needs swizzlingByteWidth, transposed and elementBitWidth");
  if (*swizzle < 0 || *swizzle > 1024 || *bits < 1 || *bits > 64)
    throw Error(at, "#ttg.nvmma_shared: swizzlingByteWidth in [0, 1024] and elementBitWidth in [1, 64]");
  e.shared.swizzle_bytes = static_cast<int>(*swizzle);
  e.shared.element_bits = static_cast<int>(*bits);
  e.shared.transposed = *transposed;
  return e;
}

Encoding parse_linear(Cursor& c, const SourceLoc& at) {
  Encoding e;
  e.kind = TtgirTensor::Kind::linear;
  e.name = "#ttg.linear";
  e.at = at;
  std::map<std::string, std::vector<std::vector<std::int64_t>>> dims;
  parse_fields(c, "#ttg.linear", "register, lane, warp, block", [&](const std::string& name, const SourceLoc& f) {
    if (name != "register" && name != "lane" && name != "warp" && name != "block") return false;
    dims[name] = c.bases(name);
    for (const std::vector<std::int64_t>& b : dims[name])
      if (b.size() != 2)
        throw Error(f, "a basis of '" + name + "' has " + std::to_string(b.size()) +
                           " entries; mmacheck checks 2-D layouts");
    if (dims[name].size() > 24) throw Error(f, "'" + name + "' has more than 24 bases");
    return true;
  });
  for (const char* name : {"register", "lane", "warp", "block"}) {
    if (!dims.count(name)) throw Error(at, std::string("#ttg.linear needs '") + name + "'");
    e.linear.in_dims.push_back({name, dims[name]});
  }
  return e;
}

Encoding parse_encoding(Cursor& c, const Aliases& aliases, int depth) {
  const SourceLoc at = c.here();
  // A dot_op's parent is an nvidia_mma: nesting deeper is refused before it can exhaust the stack.
  if (depth > 2) throw Error(at, "attributes nested more than 2 deep");
  c.expect("#", "to start an attribute");
  const std::string name = c.ident("an attribute name");
  if (name.find('.') == std::string::npos) {
    const auto it = aliases.find(name);
    if (it == aliases.end()) throw Error(at, "undefined attribute alias #" + printable(name));
    Encoding e = it->second;
    e.at = at;
    e.name = "#" + name;
    return e;
  }
  if (name == "ttg.nvidia_mma") return parse_mma(c, at);
  if (name == "ttg.dot_op") return parse_dot(c, at, aliases, depth);
  if (name == "ttg.linear") return parse_linear(c, at);
  if (name == "ttg.nvmma_shared") return parse_nvmma_shared(c, at);
  for (std::string_view other : kOtherEncodings)
    if (name == other) {
      c.skip_body();
      Encoding e;
      e.name = "#" + name;
      e.at = at;
      return e;
    }
  throw Error(at, "unknown attribute #" + printable(name) +
                      " (mmacheck reads #ttg.nvidia_mma, #ttg.dot_op, #ttg.linear, #ttg.nvmma_shared; it reads past "
                      "TTGIR's other "
                      "encodings, e.g. #ttg.blocked, #ttg.swizzled_shared)");
}

int element_bits(const std::string& e) {
  if (e == "f16" || e == "bf16") return 16;
  if (e == "f32" || e == "i32") return 32;
  return 8;
}

TtgirTensor parse_tensor(Cursor& c, const Aliases& aliases) {
  TtgirTensor t;
  t.at = c.here();
  c.expect("tensor<", "to start a tensor type");
  while (true) {
    c.ws();
    if (c.rest().empty() || !std::isdigit(static_cast<unsigned char>(c.rest()[0]))) break;
    const SourceLoc dim_at = c.here();
    const std::int64_t d = c.integer("a dimension");
    if (!is_pow2(d) || d > (std::int64_t{1} << 24))
      throw Error(dim_at, "a dimension of " + std::to_string(d) + ": mmacheck reads powers of two up to 2^24");
    t.shape.push_back(d);
    c.expect("x", "after a dimension");
  }
  t.element_at = c.here();
  t.element = c.ident("the element type");
  if (t.shape.size() != 2)
    throw Error(t.at, "a tensor of rank " + std::to_string(t.shape.size()) + ": mmacheck checks 2-D dots");
  if (t.shape[0] * t.shape[1] > (std::int64_t{1} << 24))
    throw Error(t.at, "a tensor of more than 2^24 elements (one CTA's registers would exceed what mmacheck checks)");
  c.expect(",", "before the tensor's encoding");
  const Encoding e = parse_encoding(c, aliases);
  c.expect(">", "to close the tensor type");
  t.kind = e.kind;
  t.encoding = e.name;
  t.encoding_at = e.at;
  t.mma = e.mma;
  t.dot = e.dot;
  t.linear = e.linear;
  if (t.kind == TtgirTensor::Kind::linear) t.linear.out_dims = {{"dim0", t.shape[0]}, {"dim1", t.shape[1]}};
  if (t.kind == TtgirTensor::Kind::dot && t.dot.parent.version_major == 3 && t.dot.op_idx != 0)
    throw Error(e.op_idx_at,
                "opIdx 1 over a versionMajor 3 parent: wgmma reads B from shared memory, so Triton has "
                "no B operand in registers for it");
  if (t.kind == TtgirTensor::Kind::dot && t.dot.parent.version_major == 2) {
    const int bits = element_bits(t.element);
    if (bits * t.dot.k_width < 32)
      throw Error(e.k_width_at, "kWidth " + std::to_string(t.dot.k_width) + " of a " + t.element + " operand: " +
                                    "MMAv2's lowering packs kWidth elements into each 32-bit register, so kWidth is "
                                    "at least " +
                                    std::to_string(32 / bits) + " (Triton's choice for " + t.element + ")");
  }
  return t;
}

// `!ttg.memdesc<64x32xf16, #shared, #smem[, mutable][, 3x64x32]>`: a
// shared-memory buffer, its shape, element and encoding.
struct Memdesc {
  std::array<std::int64_t, 2> shape{};
  std::string element;
  SourceLoc at, encoding_at;
  Encoding encoding;
};

Memdesc parse_memdesc(Cursor& c, const Aliases& aliases) {
  Memdesc m;
  m.at = c.here();
  c.expect("!ttg.memdesc<", "to start a shared-memory operand");
  std::vector<std::int64_t> shape;
  while (true) {
    c.ws();
    if (c.rest().empty() || !std::isdigit(static_cast<unsigned char>(c.rest()[0]))) break;
    const SourceLoc dim_at = c.here();
    const std::int64_t d = c.integer("a dimension");
    if (!is_pow2(d) || d > (std::int64_t{1} << 24))
      throw Error(dim_at, "a dimension of " + std::to_string(d) + ": mmacheck reads powers of two up to 2^24");
    shape.push_back(d);
    c.expect("x", "after a dimension");
  }
  if (shape.size() != 2)
    throw Error(m.at, "a shared-memory operand of rank " + std::to_string(shape.size()) + ": mmacheck checks 2-D dots");
  m.shape = {shape[0], shape[1]};
  m.element = c.ident("the element type");
  c.expect(",", "before the buffer's encoding");
  m.encoding_at = c.here();
  m.encoding = parse_encoding(c, aliases);
  // The memory space, `mutable`, the allocation shape: not what wgmma reads.
  while (c.eat(",")) {
    c.ws();
    while (!c.rest().empty() && c.rest()[0] != ',' && c.rest()[0] != '>') c.seek(c.pos() + 1);
  }
  c.expect(">", "to close the memdesc type");
  return m;
}

// The element type as mmacheck's DType, for the role it has.
DType operand_dtype(const TtgirTensor& t, TritonRole role) {
  struct Name {
    std::string_view mlir;
    DType acc, operand;
    bool as_acc, as_operand;
  };
  constexpr Name kNames[] = {
      {"f16", DType::f16, DType::f16, true, true},       {"bf16", DType::bf16, DType::bf16, false, true},
      {"f32", DType::f32, DType::tf32, true, true},      {"i32", DType::s32, DType::s32, true, false},
      {"i8", DType::s8, DType::s8, false, true},         {"f8E4M3FN", DType::e4m3, DType::e4m3, false, true},
      {"f8E5M2", DType::e5m2, DType::e5m2, false, true},
  };
  for (const Name& n : kNames)
    if (t.element == n.mlir) {
      if (role == TritonRole::acc && n.as_acc) return n.acc;
      if (role != TritonRole::acc && n.as_operand) return n.operand;
    }
  throw Error(t.element_at, "element type " + printable(t.element) +
                                (role == TritonRole::acc ? " is no mma.sync accumulator type (f32, i32, f16)"
                                                         : " is no mma.sync operand type (f16, bf16, f32 as tf32, i8, "
                                                           "f8E4M3FN, f8E5M2)"));
}

const char* role_name(TritonRole r) { return r == TritonRole::acc ? "D" : r == TritonRole::a ? "A" : "B"; }

struct Collector {
  TtgirFile out;

  void unchecked(const std::string& name, const std::string& why) {
    TritonReport r;
    r.name = name;
    r.role = TritonRole::acc;
    r.result = FrameVerdict::unchecked;
    r.message = why;
    out.judged.push_back(std::move(r));
  }
  // `warps`: for a #ttg.linear accumulator of a dot, its operands' parent's
  // warp grid, which fixes the lowering's register order.
  void add(const TtgirTensor& t, TritonRole role, const std::string& name, const std::string& group,
           const std::vector<int>* warps = nullptr) {
    TritonDotOperand op;
    op.name = name;
    op.role = role;
    op.group = group;
    op.dtype = operand_dtype(t, role);
    if (t.kind == TtgirTensor::Kind::linear) {
      if (role != TritonRole::acc)
        throw Error(t.encoding_at, std::string("operand ") + role_name(role) +
                                       " as #ttg.linear: its kWidth is unknown (mmacheck reads dot operands as "
                                       "#ttg.dot_op)");
      op.layout = t.linear;
      if (warps) {
        if (std::int64_t{(*warps)[0]} * (*warps)[1] != op.layout.in_size("warp"))
          throw Error(t.encoding_at, "the #ttg.linear accumulator has " + std::to_string(op.layout.in_size("warp")) +
                                         " warps, the operands' parent warpsPerCTA [" + std::to_string((*warps)[0]) +
                                         ", " + std::to_string((*warps)[1]) + "]");
        op.warps_per_cta = std::array<int, 2>{(*warps)[0], (*warps)[1]};
      }
    } else {
      const NvidiaMmaEncoding& mma = t.kind == TtgirTensor::Kind::mma ? t.mma : t.dot.parent;
      op.warps_per_cta = std::array<int, 2>{mma.warps_per_cta[0], mma.warps_per_cta[1]};
      if (role != TritonRole::acc) op.k_width = t.dot.k_width;
      if (mma.version_major == 3)
        op.instr_shape = std::array<int, 3>{mma.instr_shape[0], mma.instr_shape[1], mma.instr_shape[2]};
      op.layout = cta_layout(ttgir_linear_layout(t));
    }
    out.operands.push_back(std::move(op));
  }
};

std::string where(const SourceLoc& at) { return "line " + std::to_string(at.line); }

// One dot: A * B -> D, its tensors already read.
void dot_group(Collector& col, const std::string& group, const TtgirTensor& a, const TtgirTensor& b,
               const TtgirTensor& d, const std::string& precision) {
  using K = TtgirTensor::Kind;
  const auto version = [](const TtgirTensor& t) {
    return t.kind == K::mma ? t.mma.version_major : t.kind == K::dot ? t.dot.parent.version_major : 2;
  };
  if (d.kind == K::other)
    return col.unchecked(group, "its result's encoding is " + d.encoding +
                                    ": no NVIDIA MMA layout, Triton computes this dot without mma.sync (FMA)");
  if (version(a) == 3 || version(b) == 3 || version(d) == 3)
    return col.unchecked(group, "versionMajor 3 (wgmma): mmacheck triton checks mma.sync (versionMajor 2) only");
  const TtgirTensor* ops[2] = {&a, &b};
  for (int i = 0; i < 2; ++i) {
    const TtgirTensor& t = *ops[i];
    const char* role = i == 0 ? "A" : "B";
    if (t.kind == K::dot && t.dot.op_idx != i)
      throw Error(t.encoding_at, std::string("operand ") + role + " of the dot has opIdx = " +
                                     std::to_string(t.dot.op_idx) + " (" + (i == 0 ? "B" : "A") + "'s)");
    if (t.kind == K::mma || t.kind == K::other)
      throw Error(t.encoding_at, std::string("operand ") + role + " of the dot has the encoding " + t.encoding +
                                     "; an operand of an mma.sync dot is a #ttg.dot_op");
  }
  if (d.kind == K::dot)
    throw Error(d.encoding_at, "the dot's result has a #ttg.dot_op encoding; it is the accumulator");
  if (a.shape[1] != b.shape[0] || a.shape[0] != d.shape[0] || b.shape[1] != d.shape[1])
    throw Error(a.at, "the shapes do not multiply: " + std::to_string(a.shape[0]) + "x" + std::to_string(a.shape[1]) +
                          " * " + std::to_string(b.shape[0]) + "x" + std::to_string(b.shape[1]) + " -> " +
                          std::to_string(d.shape[0]) + "x" + std::to_string(d.shape[1]));
  if (a.element == "f32" && precision == "ieee")
    throw Error(a.element_at, "inputPrecision = ieee over an NVIDIA MMA layout: mma.sync reads f32 only as tf32");
  col.add(a, TritonRole::a, group + " A", group);
  col.add(b, TritonRole::b, group + " B", group);
  col.add(d, TritonRole::acc, group + " D", group, &a.dot.parent.warps_per_cta);
}

// `tensor<A> * tensor<B> -> tensor<D>` at the cursor.
void signature(Collector& col, Cursor& c, const Aliases& aliases, const std::string& group,
               const std::string& precision) {
  const TtgirTensor a = parse_tensor(c, aliases);
  c.expect("*", "between the dot's operand types");
  const TtgirTensor b = parse_tensor(c, aliases);
  c.expect("->", "before the dot's result type");
  const TtgirTensor d = parse_tensor(c, aliases);
  dot_group(col, group, a, b, d, precision);
}

// `A * B -> tensor<D>` of a ttng.warp_group_dot at the cursor (Hopper's
// wgmma): D an MMA v3 accumulator, A a shared-memory buffer or a v3 dot
// operand in registers, B a shared-memory buffer.
void warp_group_dot(Collector& col, Cursor& c, const Aliases& aliases, const std::string& group) {
  using K = TtgirTensor::Kind;
  std::optional<TtgirTensor> a_regs;
  std::optional<Memdesc> a_smem;
  if (c.peek("tensor<")) a_regs = parse_tensor(c, aliases);
  else a_smem = parse_memdesc(c, aliases);
  c.expect("*", "between the dot's operand types");
  if (c.peek("tensor<"))
    c.fail("B of a ttng.warp_group_dot in registers: wgmma reads B from shared memory (!ttg.memdesc)");
  const Memdesc b = parse_memdesc(c, aliases);
  c.expect("->", "before the dot's result type");
  const TtgirTensor d = parse_tensor(c, aliases);
  if (d.kind != K::mma || d.mma.version_major != 3)
    return col.unchecked(group + " ttng.warp_group_dot",
                         "its result's encoding is " + d.encoding +
                             ", no #ttg.nvidia_mma of versionMajor 3: the wgmma accumulator layout is not known");
  const std::array<std::int64_t, 2> a_shape =
      a_regs ? std::array<std::int64_t, 2>{a_regs->shape[0], a_regs->shape[1]} : a_smem->shape;
  const std::string a_element = a_regs ? a_regs->element : a_smem->element;
  if (a_shape[1] != b.shape[0] || a_shape[0] != d.shape[0] || b.shape[1] != d.shape[1])
    throw Error(a_regs ? a_regs->at : a_smem->at, "the shapes do not multiply: " + std::to_string(a_shape[0]) + "x" +
                                                      std::to_string(a_shape[1]) + " * " + std::to_string(b.shape[0]) +
                                                      "x" + std::to_string(b.shape[1]) + " -> " +
                                                      std::to_string(d.shape[0]) + "x" + std::to_string(d.shape[1]));
  if (a_element != b.element)
    throw Error(b.at, "A holds " + a_element + ", B " + b.element + ": a wgmma's A and B have one type");
  const std::vector<int>& instr = d.mma.instr_shape;
  const auto smem = [&](const Memdesc& m, char which) {
    if (!m.encoding.nvmma_shared)
      return col.unchecked(group + " " + which, std::string(1, which) + " in shared memory with the encoding " +
                                                    m.encoding.name +
                                                    ": wgmma reads #ttg.nvmma_shared buffers, others are not modelled");
    NvmmaSharedOperand o;
    o.name = group + " " + which;
    o.operand = which;
    o.shape = m.shape;
    o.element = m.element;
    o.encoding = m.encoding.shared;
    o.instr_n = instr[1];
    o.instr_k = instr[2];
    col.out.judged.push_back(judge_nvmma_operand(o));
  };
  if (a_regs) {
    if (a_regs->kind != K::dot || a_regs->dot.op_idx != 0 || a_regs->dot.parent.version_major != 3)
      throw Error(a_regs->encoding_at,
                  "A of a ttng.warp_group_dot in registers is a #ttg.dot_op with opIdx = 0 over "
                  "an MMA v3 parent, not " +
                      a_regs->encoding);
    if (a_regs->dot.parent.warps_per_cta != d.mma.warps_per_cta || a_regs->dot.parent.instr_shape != instr)
      throw Error(a_regs->encoding_at,
                  "A's parent is not the accumulator's #ttg.nvidia_mma (its warpsPerCTA or "
                  "instrShape differ)");
    if (wgmma_type_of(a_element).empty()) throw Error(a_regs->element_at, "no wgmma takes " + a_element + " operands");
    // Triton's verifier: "in-register LHS operand must have a kWidth of 2" (f16).
    if (a_regs->dot.k_width * element_bits(a_element) != 32)
      throw Error(a_regs->encoding_at, "kWidth " + std::to_string(a_regs->dot.k_width) + " of an " + a_element +
                                           " A in registers: wgmma's A fragment packs 32 / bits elements per "
                                           "register, so kWidth is " +
                                           std::to_string(32 / element_bits(a_element)) +
                                           " (Triton's verifier rejects any other)");
    col.add(*a_regs, TritonRole::a, group + " A", group);
  } else {
    smem(*a_smem, 'A');
  }
  smem(b, 'B');
  col.add(d, TritonRole::acc, group + " D", group);
}

// What may end an op line after its types.
void expect_end(Cursor& c) {
  if (c.eat("loc(")) return;  // the location, read past
  if (!c.done()) c.fail("unexpected '" + printable(c.excerpt()) + "' after the types");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool op_like(std::string_view s) {
  if (s.empty() || s[0] == '%' || s[0] == '}' || s[0] == '{' || s[0] == '^' || s.substr(0, 2) == "//" ||
      s.substr(0, 6) == "module" || s[0] == ')')
    return true;
  // dialect.op
  std::size_t i = 0;
  while (i < s.size() && (std::islower(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  return i > 0 && i < s.size() && s[i] == '.';
}

}  // namespace

bool is_ttgir_text(std::string_view text) {
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) return ch != '{';
  return true;
}

TtgirTensor parse_ttgir_tensor(std::string_view text, const std::string& file, int line, int col) {
  Cursor c(text, file, line, col);
  const TtgirTensor t = parse_tensor(c, Aliases{});
  if (!c.done()) c.fail("unexpected '" + printable(c.excerpt()) + "' after the tensor type");
  return t;
}

TritonLayout ttgir_linear_layout(const TtgirTensor& t) {
  switch (t.kind) {
    case TtgirTensor::Kind::mma: return nvidia_mma_to_linear(t.mma, t.shape);
    case TtgirTensor::Kind::dot: return nvidia_dot_to_linear(t.dot, t.shape);
    case TtgirTensor::Kind::linear: return t.linear;
    case TtgirTensor::Kind::other: break;
  }
  throw Error(t.encoding_at, "the encoding " + t.encoding + " is no NVIDIA MMA layout");
}

TtgirFile read_ttgir(const std::string& text, const std::string& file) {
  Collector col;
  Aliases aliases;
  std::size_t start = 0;
  int line_no = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view raw(text.data() + start, end - start);
    ++line_no;
    const std::string_view line = trim(raw);
    const int col0 = 1 + static_cast<int>(line.data() - raw.data());
    start = end + 1;
    if (line.empty()) continue;
    Cursor c(line, file, line_no, col0);
    if (line[0] == '#') {
      c.expect("#", "");
      const SourceLoc name_at = c.here();
      const std::string name = c.ident("an alias name");
      if (name.find('.') != std::string::npos) throw Error(name_at, "an alias name has no '.': #" + printable(name));
      c.expect("=", "after the alias #" + name);
      if (c.peek("loc(")) continue;  // a location alias
      if (aliases.count(name)) throw Error(name_at, "alias #" + printable(name) + " defined twice");
      Encoding e = parse_encoding(c, aliases);
      if (!c.done()) c.fail("unexpected '" + printable(c.excerpt()) + "' after the attribute");
      aliases[name] = std::move(e);
      continue;
    }
    const std::string group_prefix = where(c.here());
    if (line.substr(0, 7) == "tensor<") {
      const TtgirTensor t = parse_tensor(c, aliases);
      if (c.peek("*")) {
        c.seek(0);
        signature(col, c, aliases, group_prefix, "");
        if (!c.done()) c.fail("unexpected '" + printable(c.excerpt()) + "' after the dot's types");
        continue;
      }
      if (!c.done()) c.fail("unexpected '" + printable(c.excerpt()) + "' after the tensor type");
      if (t.kind == TtgirTensor::Kind::mma) {
        col.add(t, TritonRole::acc, group_prefix + " D", "");
      } else if (t.kind == TtgirTensor::Kind::dot) {
        col.add(t, t.dot.op_idx == 0 ? TritonRole::a : TritonRole::b, group_prefix + (t.dot.op_idx ? " B" : " A"), "");
      } else {
        throw Error(t.encoding_at, "a bare tensor type with the encoding " + t.encoding +
                                       " does not say its role; give #ttg.nvidia_mma or #ttg.dot_op, or the dot's "
                                       "tensor<A> * tensor<B> -> tensor<D>");
      }
      continue;
    }
    if (!op_like(line)) c.fail("expected TTGIR: an attribute definition (#name = ...), an op, or a tensor<...> type");
    // An op: `%r = dialect.op ...` or `dialect.op ...`.
    std::string result;
    if (c.peek("%")) {
      const std::size_t p = c.pos();
      const std::size_t space = line.find_first_of(" =", p);
      result = std::string(line.substr(p, space == std::string_view::npos ? std::string_view::npos : space - p));
      c.seek(space == std::string_view::npos ? line.size() : space);
      if (!c.eat("=")) continue;  // not an op with a result
    }
    c.ws();
    std::size_t op_end = c.pos();
    while (op_end < line.size() && line[op_end] != ' ' && line[op_end] != '(' && line[op_end] != '\t') ++op_end;
    const std::string_view op = line.substr(c.pos(), op_end - c.pos());
    if (op.size() > 2 && op.front() == '"') {
      const std::string_view name = op.substr(1, op.find('"', 1) - 1);
      if (name == "tt.dot" || name.find("dot") != std::string_view::npos || name.find("mma") != std::string_view::npos)
        c.fail("the generic op form of " + printable(name) + " is not read (print the module without generic form)");
    }
    const std::string group = group_prefix + (result.empty() ? "" : " " + result);
    if (op == "tt.dot") {
      const std::size_t types = line.find(" : tensor<", op_end);
      if (types == std::string_view::npos) c.fail("a tt.dot without its ': tensor<A> * tensor<B> -> tensor<D>' types");
      std::string precision;
      const std::size_t ip = line.substr(0, types).find("inputPrecision = ");
      if (ip != std::string_view::npos) {
        Cursor p(line, file, line_no, col0);
        p.seek(ip + 17);
        precision = p.ident("the input precision");
        if (precision != "tf32" && precision != "tf32x3" && precision != "ieee" && precision != "bf16x3" &&
            precision != "bf16x6" && precision != "bf16x9")
          throw Error(p.at(ip + 17), "unknown inputPrecision " + printable(precision));
      }
      c.seek(types + 3);
      signature(col, c, aliases, group, precision);
      expect_end(c);
      continue;
    }
    if (op == "ttng.warp_group_dot") {
      // The types follow " : " (an attribute dict before them has its own "0 : i32").
      const std::size_t types = std::min(line.find(" : !ttg.memdesc<", op_end), line.find(" : tensor<", op_end));
      if (types == std::string_view::npos) c.fail("a ttng.warp_group_dot without its ': A * B -> tensor<D>' types");
      c.seek(types + 3);
      warp_group_dot(col, c, aliases, group);
      expect_end(c);
      continue;
    }
    for (std::string_view unchecked : kUncheckedDots)
      if (op == unchecked) {
        std::string why = std::string(op) + " is not mma.sync: mmacheck triton checks tt.dot over versionMajor 2";
        const std::size_t arrow = line.rfind("-> tensor<");
        if (arrow != std::string_view::npos) {
          c.seek(arrow + 3);
          const TtgirTensor d = parse_tensor(c, aliases);
          if (d.kind == TtgirTensor::Kind::mma && d.mma.version_major == 3)
            why = std::string(op) + " over versionMajor 3 (wgmma, instrShape [" + std::to_string(d.mma.instr_shape[0]) +
                  ", " + std::to_string(d.mma.instr_shape[1]) + ", " + std::to_string(d.mma.instr_shape[2]) +
                  "]): wgmma is not modelled; mmacheck triton checks mma.sync";
        }
        col.unchecked(group + " " + std::string(op), why);
      }
  }
  if (col.out.operands.empty() && col.out.judged.empty())
    throw Error(SourceLoc{file, 0, 0}, "no tt.dot and no tensor<...> line with an NVIDIA MMA layout");
  return std::move(col.out);
}

}  // namespace mmacheck
