#include "core/cute/cute_dsl_print.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace mmacheck {

namespace {

// The ops whose print the reader knows: header line -> the CUTLASS atom
// name's architecture prefix.  A warp op prints one `A/B data type` and is
// named SM80_16x8x16_F32F16F16F32_TN; a warpgroup (sm_90 wgmma) op prints A
// and B types, where A comes from and both major modes, and is named as
// CUTLASS's GMMA atom, SM90_64x128x16_F32F16F16_SS (`_TN` for the types
// without a transpose, whose wgmma reads K-major operands only).
struct OpKind {
  std::string_view header;
  std::string_view arch;
  bool warpgroup = false;
  bool k_major_only = false;  // the name ends in _TN; MN-major is no such wgmma
};
constexpr OpKind kOps[] = {
    {"warp-level F16/BF16 MMA Operation", "SM80"},      {"warp-level TF32 MMA Operation", "SM80"},
    {"warp-level FP8 MMA Operation (SM89)", "SM89"},    {"warpgroup F16/BF16 MMA Operation", "SM90", true, false},
    {"warpgroup F8 MMA Operation", "SM90", true, true}, {"warpgroup I8 MMA Operation", "SM90", true, true},
};

// A warpgroup op's `A source location`: the GMMA atom name's operand sources.
struct OperandSourceName {
  std::string_view dsl, suffix;
};
constexpr OperandSourceName kSources[] = {{"OperandSource.SMEM", "SS"}, {"OperandSource.RMEM", "RS"}};

// The DSL's element type names, as the atom name's type token.
struct DslType {
  std::string_view dsl;
  std::string_view token;
};
constexpr DslType kDslTypes[] = {
    {"Float16", "F16"},       {"BFloat16", "BF16"},   {"TFloat32", "TF32"}, {"Float32", "F32"}, {"Float64", "F64"},
    {"Float8E4M3FN", "E4M3"}, {"Float8E5M2", "E5M2"}, {"Int8", "S8"},       {"Uint8", "U8"},    {"Int32", "S32"}};

constexpr std::string_view kAtom = "MMA Atom";
constexpr std::string_view kTiled = "Tiled MMA";

struct Line {
  std::string_view text;  // without the line break and trailing spaces
  int number = 0;
  int indent = 0;
};

// One `KEY: VALUE` or `KEY = VALUE` line of a block.
struct Field {
  std::string_view value;
  SourceLoc loc;  // of the value
  SourceLoc key_loc;
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) line.remove_suffix(1);
    int indent = 0;
    while (indent < static_cast<int>(line.size()) && line[static_cast<std::size_t>(indent)] == ' ') ++indent;
    lines.push_back({line, ++number, indent});
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

// A line as a message quotes it: at most 60 bytes, anything unprintable as '?'.
std::string shown(std::string_view s) {
  std::string out(s.substr(0, 60));
  for (char& ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) ch = '?';
  return s.size() > 60 ? out + "..." : out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

struct Op {
  std::string name;  // the CUTLASS atom name: SM80_16x8x16_F32F16F16F32_TN
  std::array<CuteValType, 4> types;
};

class DslReader {
 public:
  DslReader(const std::string& text, const std::string& file, const Limits& limits)
      : lines_(split_lines(text)), file_(file), depth_(limits.get(Resource::depth)) {}

  std::vector<CuteAtomTraits> read() {
    std::vector<CuteAtomTraits> out;
    while (i_ < lines_.size()) {
      const Line& l = lines_[i_];
      const std::string_view body = trim(l.text);
      if (body.empty() || body.front() == '#') {
        ++i_;
        continue;
      }
      if (l.indent != 0) fail(l, l.indent, "unexpected indented line '" + shown(body) + "' outside a block");
      if (body == kAtom) {
        out.push_back(atom(l, false));
      } else if (body == kTiled) {
        out.push_back(tiled(l));
      } else if (body.find("MMA Operation") != std::string_view::npos) {
        op_ = op(l);
      } else {
        fail(l, 0,
             "unexpected line '" + shown(body) +
                 "' (mmacheck reads the CuTe DSL's print of warp MMA ops, "
                 "'MMA Atom' and 'Tiled MMA')");
      }
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const Line& l, int col, const std::string& message) const {
    throw Error(SourceLoc{file_, l.number, col + 1}, message);
  }

  // The indented lines after the header at i_, as key -> field; `sep` splits key from value.
  std::map<std::string, Field, std::less<>> block(std::string_view sep, std::string_view what) {
    std::map<std::string, Field, std::less<>> fields;
    ++i_;
    while (i_ < lines_.size() && lines_[i_].indent > 0) {
      const Line& l = lines_[i_++];
      const std::size_t at = l.text.find(sep);
      if (at == std::string_view::npos)
        fail(l, l.indent, "expected 'KEY" + std::string(sep) + " VALUE' in the " + std::string(what) + " block");
      const std::string key = shown(trim(l.text.substr(0, at)));
      std::string_view rest = l.text.substr(at + sep.size());
      const std::size_t lead = std::min(rest.find_first_not_of(' '), rest.size());
      const int value_col = static_cast<int>(at + sep.size() + lead);
      const SourceLoc key_loc{file_, l.number, l.indent + 1};
      if (fields.count(key)) throw Error(key_loc, "'" + key + "' given twice in the " + std::string(what) + " block");
      fields.emplace(key, Field{trim(rest), SourceLoc{file_, l.number, value_col + 1}, key_loc});
    }
    return fields;
  }

  static const Field& need(const std::map<std::string, Field, std::less<>>& fields, std::string_view key,
                           const SourceLoc& header, std::string_view what) {
    const auto it = fields.find(key);
    if (it == fields.end())
      throw Error(header, "the " + std::string(what) + " block gives no '" + std::string(key) + "'");
    return it->second;
  }

  static void only(const std::map<std::string, Field, std::less<>>& fields,
                   std::initializer_list<std::string_view> keys, std::string_view what) {
    for (const auto& [key, f] : fields) {
      bool known = false;
      std::string list;
      for (std::string_view k : keys) {
        known = known || k == key;
        list += (list.empty() ? "" : ", ") + std::string(k);
      }
      if (!known)
        throw Error(f.key_loc, "unknown key '" + key + "' in the " + std::string(what) + " block (" + list + ")");
    }
  }

  // A cursor over one value's tokens, placed where the value sits in the file.
  CppCursor cursor(const Field& f) const {
    std::vector<CppToken> tokens = tokenize_cpp(f.value, file_);
    for (CppToken& t : tokens) {
      t.loc.col += f.loc.col - 1;
      t.loc.line = f.loc.line;
    }
    return CppCursor(std::move(tokens), depth_);
  }

  CuteLayout layout(const Field& f) const {
    CppCursor c = cursor(f);
    CuteLayout l = parse_cute_layout(c);
    if (!c.at_end()) throw Error(c.peek().loc, "unexpected " + describe(c.peek()) + " after the layout");
    return l;
  }

  IntTuple shape(const Field& f) const {
    CppCursor c = cursor(f);
    IntTuple t = parse_cute_shape(c);
    if (!c.at_end()) throw Error(c.peek().loc, "unexpected " + describe(c.peek()) + " after the shape");
    if (t.flatten().size() != 3 || t.leaf) throw Error(f.loc, "expected a shape (M, N, K), got " + t.str());
    return t;
  }

  CuteValType type(const Field& f) const {
    for (const DslType& t : kDslTypes)
      if (t.dsl == f.value) return CuteValType{std::string(t.token), std::string(f.value), f.loc};
    std::string known;
    for (const DslType& t : kDslTypes) known += (known.empty() ? "" : ", ") + std::string(t.dsl);
    throw Error(f.loc, "unknown element type '" + shown(f.value) + "' (the DSL's: " + known + ")");
  }

  Op op(const Line& header) {
    const std::string_view body = trim(header.text);
    const OpKind* kind = nullptr;
    for (const OpKind& k : kOps)
      if (k.header == body) kind = &k;
    if (!kind) {
      std::string known;
      for (const OpKind& k : kOps) known += (known.empty() ? "'" : ", '") + std::string(k.header) + "'";
      fail(header, 0, "unknown op '" + shown(body) + "' (mmacheck reads " + known + ")");
    }
    const SourceLoc at{file_, header.number, 1};
    const auto fields = block(" = ", "op");
    if (kind->warpgroup) return warpgroup_op(*kind, fields, at);
    only(fields, {"A/B data type", "Accumulator data type", "Instruction shape MNK"}, "op");
    const CuteValType ab = type(need(fields, "A/B data type", at, "op"));
    const CuteValType acc = type(need(fields, "Accumulator data type", at, "op"));
    const std::vector<std::int64_t> mnk = shape(need(fields, "Instruction shape MNK", at, "op")).flatten();
    Op o;
    o.name = std::string(kind->arch) + "_" + std::to_string(mnk[0]) + "x" + std::to_string(mnk[1]) + "x" +
             std::to_string(mnk[2]) + "_" + acc.token + ab.token + ab.token + acc.token + "_TN";
    o.types = {acc, ab, ab, acc};
    return o;
  }

  Op warpgroup_op(const OpKind& kind, const std::map<std::string, Field, std::less<>>& fields, const SourceLoc& at) {
    only(fields,
         {"A data type", "B data type", "Accumulator data type", "A source location", "A major mode", "B major mode",
          "Instruction shape MNK"},
         "op");
    const CuteValType a = type(need(fields, "A data type", at, "op"));
    const CuteValType b = type(need(fields, "B data type", at, "op"));
    const CuteValType acc = type(need(fields, "Accumulator data type", at, "op"));
    const Field& src = need(fields, "A source location", at, "op");
    const OperandSourceName* source = nullptr;
    for (const OperandSourceName& s : kSources)
      if (s.dsl == src.value) source = &s;
    if (!source)
      throw Error(src.loc, "unknown A source location '" + shown(src.value) + "' (OperandSource.SMEM, RMEM)");
    // GMMA::Major picks the shared-memory layout the descriptor describes,
    // not a register layout: read, not part of the name; an MN-major 8-bit
    // operand is no wgmma at all.
    for (std::string_view key : {"A major mode", "B major mode"}) {
      const Field& f = need(fields, key, at, "op");
      if (f.value != "OperandMajorMode.K" && f.value != "OperandMajorMode.MN")
        throw Error(f.loc, "unknown major mode '" + shown(f.value) + "' (OperandMajorMode.K, MN)");
      if (kind.k_major_only && f.value == "OperandMajorMode.MN")
        throw Error(f.loc, "an MN-major operand of a " + a.token + " wgmma: only f16/bf16 wgmma can transpose");
    }
    const std::vector<std::int64_t> mnk = shape(need(fields, "Instruction shape MNK", at, "op")).flatten();
    Op o;
    o.name = std::string(kind.arch) + "_" + std::to_string(mnk[0]) + "x" + std::to_string(mnk[1]) + "x" +
             std::to_string(mnk[2]) + "_" + acc.token + a.token + b.token + "_" + std::string(source->suffix) +
             (kind.k_major_only ? "_TN" : "");
    o.types = {acc, a, b, acc};
    return o;
  }

  CuteAtomTraits atom(const Line& header, bool in_tiled) {
    const SourceLoc at{file_, header.number, 1};
    if (!op_)
      throw Error(at, std::string(in_tiled ? "the TiledMMA" : "the atom") +
                          " has no op printed before it: the DSL's print of an MMA atom names no element types, so "
                          "print the op (print(op)) first, as scripts/cute-oracle/dsl_print.py does");
    const auto fields = block(":", "MMA Atom");
    only(fields, {"ThrID", "Shape MNK", "TV Layout A", "TV Layout B", "TV Layout C"}, "MMA Atom");
    CuteAtomTraits a;
    a.name = op_->name;
    a.loc = at;
    const auto source = [&](std::string_view key) {
      const Field& f = need(fields, key, at, "MMA Atom");
      return CuteLayoutSource{layout(f), "", f.loc};
    };
    a.thr_id = source("ThrID");
    a.a = source("TV Layout A");
    a.b = source("TV Layout B");
    a.c = source("TV Layout C");
    a.shape_mnk = shape(need(fields, "Shape MNK", at, "MMA Atom"));
    for (std::size_t k = 0; k < 4; ++k) a.val_types[k] = op_->types[k];
    return a;
  }

  CuteAtomTraits tiled(const Line& header) {
    const SourceLoc at{file_, header.number, 1};
    const auto fields = block(":", "Tiled MMA");
    only(fields, {"Thr Layout VMNK", "Permutation MNK"}, "Tiled MMA");
    const Field& vmnk_field = need(fields, "Thr Layout VMNK", at, "Tiled MMA");
    const CuteLayout vmnk = layout(vmnk_field);
    const Field& perm_field = need(fields, "Permutation MNK", at, "Tiled MMA");
    CppCursor pc = cursor(perm_field);
    const std::array<std::optional<CuteLayout>, 3> perm = parse_cute_permutation(pc);
    if (!pc.at_end()) throw Error(pc.peek().loc, "unexpected " + describe(pc.peek()) + " after the permutation");
    while (i_ < lines_.size() && (trim(lines_[i_].text).empty() || trim(lines_[i_].text).front() == '#')) ++i_;
    if (i_ == lines_.size() || trim(lines_[i_].text) != kAtom || lines_[i_].indent != 0)
      throw Error(at, "a 'Tiled MMA' block is followed by its 'MMA Atom' block (the DSL prints both)");
    CuteAtomTraits t = atom(lines_[i_], true);
    t.tiled = true;
    t.loc = at;
    // Thr Layout VMNK = tiled_product(ThrID, AtomLayout): (T, M, N, K) with
    // the atom layout's strides times the atom's T threads (a warp's 32, a
    // warpgroup's 128).
    const CuteLayout flat = vmnk.flat();
    const std::int64_t threads = t.thr_id.layout->size();
    const CuteLayout lanes = CuteLayout::compact(IntTuple::of(threads));
    if ((threads != 32 && threads != 128) || !vmnk.congruent() || flat.shape.items.size() != 4 ||
        t.thr_id.layout->shape != lanes.shape || t.thr_id.layout->stride != lanes.stride ||
        flat.shape.items[0] != IntTuple::of(threads) || flat.stride.items[0] != IntTuple::of(1))
      throw Error(vmnk_field.loc,
                  "expected Thr Layout VMNK (T,M,N,K):(1,...) of an atom with ThrID T:1 (T 32 or 128), "
                  "got " +
                      vmnk.str() + " with ThrID " + t.thr_id.layout->str());
    std::vector<IntTuple> shape, stride;
    for (std::size_t i = 1; i < 4; ++i) {
      const std::int64_t d = flat.stride.items[i].value;
      if (d % threads != 0)
        throw Error(vmnk_field.loc, "Thr Layout VMNK " + vmnk.str() + ": stride " + std::to_string(d) +
                                        " is no whole number of the atom's " + std::to_string(threads) + " threads");
      shape.push_back(flat.shape.items[i]);
      stride.push_back(IntTuple::of(d / threads));
    }
    t.atom_layout = CuteLayout{IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride))};
    t.permutation = perm;
    return t;
  }

  std::vector<Line> lines_;
  std::string file_;
  std::int64_t depth_;
  std::size_t i_ = 0;
  std::optional<Op> op_;
};

}  // namespace

bool is_cute_dsl_print(std::string_view text) {
  for (const Line& l : split_lines(text)) {
    const std::string_view body = trim(l.text);
    if (l.indent == 0 && (body == kAtom || body == kTiled || body.find("MMA Operation") != std::string_view::npos))
      return true;
  }
  return false;
}

std::vector<CuteAtomTraits> read_cute_dsl_print(const std::string& text, const std::string& file,
                                                const Limits& limits) {
  return DslReader(text, file, limits).read();
}

}  // namespace mmacheck
