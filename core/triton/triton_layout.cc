#include "core/triton/triton_layout.h"

#include <cctype>
#include <cstdint>
#include <sstream>

namespace mmacheck {

const std::vector<std::vector<std::int64_t>>& TritonLayout::bases(std::string_view name) const {
  static const std::vector<std::vector<std::int64_t>> kNone;
  for (const InDim& d : in_dims)
    if (d.name == name) return d.bases;
  return kNone;
}

std::vector<std::int64_t> TritonLayout::apply(std::int64_t reg, std::int64_t lane, std::int64_t warp,
                                              std::int64_t block) const {
  std::vector<std::int64_t> out(out_dims.size(), 0);
  const auto add = [&](std::string_view dim, std::int64_t x) {
    const std::vector<std::vector<std::int64_t>>& bs = bases(dim);
    for (std::size_t b = 0; b < bs.size(); ++b)
      if ((x >> b) & 1)
        for (std::size_t o = 0; o < out.size() && o < bs[b].size(); ++o) out[o] ^= bs[b][o];
  };
  add("register", reg);
  add("lane", lane);
  add("warp", warp);
  add("block", block);
  return out;
}

std::string TritonLayout::str() const {
  std::ostringstream os;
  for (const InDim& d : in_dims) {
    if (d.bases.empty()) {
      os << " - " << d.name << " is a size 1 dimension\n";
      continue;
    }
    for (std::size_t b = 0; b < d.bases.size(); ++b) {
      os << (b == 0 ? " - " : "   ") << d.name << "=" << (std::int64_t{1} << b) << " -> (";
      for (std::size_t o = 0; o < d.bases[b].size(); ++o) os << (o ? ", " : "") << d.bases[b][o];
      os << ")\n";
    }
  }
  os << "where out dims are: [";
  for (std::size_t o = 0; o < out_dims.size(); ++o)
    os << (o ? ", " : "") << out_dims[o].first << " (size " << out_dims[o].second << ")";
  os << "]";
  return os.str();
}

namespace {

// A tiny cursor over one line of toString() text.
struct LineReader {
  std::string_view s;
  std::size_t pos = 0;
  SourceLoc loc;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(SourceLoc{loc.file, loc.line, static_cast<int>(pos) + 1}, what);
  }
  void space() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r')) ++pos;
  }
  bool accept(std::string_view word) {
    space();
    if (s.substr(pos, word.size()) != word) return false;
    pos += word.size();
    return true;
  }
  void expect(std::string_view word) {
    if (!accept(word)) fail("expected '" + std::string(word) + "'");
  }
  std::string name() {
    space();
    const std::size_t start = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_')) ++pos;
    if (pos == start) fail("expected a dimension name");
    return std::string(s.substr(start, pos - start));
  }
  std::int64_t integer() {
    space();
    const std::size_t start = pos;
    if (pos < s.size() && s[pos] == '-') ++pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
    if (pos == start || (pos == start + 1 && s[start] == '-')) fail("expected an integer");
    try {
      return std::stoll(std::string(s.substr(start, pos - start)));
    } catch (const std::exception&) {
      fail("integer out of range");
    }
  }
  bool at_end() {
    space();
    return pos >= s.size();
  }
};

// Input dimensions of up to 2^24 points: anything larger is no GPU layout,
// and 1 << bases stays defined.
void check_sizes(const TritonLayout& layout, const SourceLoc& where) {
  for (const TritonLayout::InDim& d : layout.in_dims)
    if (d.bases.size() > 24)
      throw Error(where, "'" + d.name + "' has " + std::to_string(d.bases.size()) + " bases (at most 24)");
}

constexpr std::int64_t kMaxOutSize = std::int64_t{1} << 24;

// An out dim's size as Triton's LinearLayout takes it: a power of two.
void check_out_size(const std::string& dim, std::int64_t size, const SourceLoc& where) {
  if (size < 1 || size > kMaxOutSize || (size & (size - 1)))
    throw Error(where, "out dim '" + dim + "' has size " + std::to_string(size) +
                           ": a linear layout's sizes are powers of two in [1, 2^24]");
}

void check_in_dim_name(const TritonLayout& layout, const std::string& dim, const SourceLoc& where) {
  if (dim != "register" && dim != "lane" && dim != "warp" && dim != "block")
    throw Error(where, "unknown input dimension '" + printable(dim) + "' (register, lane, warp or block)");
  for (const TritonLayout::InDim& d : layout.in_dims)
    if (d.name == dim) throw Error(where, "input dimension '" + dim + "' given twice");
}

}  // namespace

TritonLayout parse_triton_layout(std::string_view text, const std::string& file, int first_line) {
  TritonLayout layout;
  bool have_out = false;
  int line_no = first_line - 1;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    LineReader r{text.substr(start, end - start), 0, SourceLoc{file, line_no, 0}};
    start = end + 1;
    if (r.at_end()) {
      if (end == text.size()) break;
      continue;
    }
    if (r.accept("where out dims are:")) {
      if (have_out) r.fail("a second 'where out dims are:' line");
      r.expect("[");
      do {
        const std::string dim = r.name();
        if (dim != "dim" + std::to_string(layout.out_dims.size()))
          r.fail("out dim '" + printable(dim) + "' where 'dim" + std::to_string(layout.out_dims.size()) +
                 "' comes next");
        r.expect("(");
        r.expect("size");
        r.space();
        const SourceLoc size_at{r.loc.file, r.loc.line, static_cast<int>(r.pos) + 1};
        const std::int64_t size = r.integer();
        check_out_size(dim, size, size_at);
        r.expect(")");
        layout.out_dims.emplace_back(dim, size);
      } while (r.accept(","));
      r.expect("]");
      have_out = true;
    } else {
      if (have_out) r.fail("text after the 'where out dims are:' line");
      const bool first = r.accept("-");
      r.space();
      const SourceLoc dim_at{r.loc.file, r.loc.line, static_cast<int>(r.pos) + 1};
      const std::string dim = r.name();
      if (first && r.accept("is a size 1 dimension")) {
        check_in_dim_name(layout, dim, dim_at);
        layout.in_dims.push_back({dim, {}});
      } else {
        if (first || layout.in_dims.empty() || layout.in_dims.back().name != dim) {
          if (!first) r.fail("a basis of '" + dim + "' outside its ' - " + dim + "=1' block");
          check_in_dim_name(layout, dim, dim_at);
          layout.in_dims.push_back({dim, {}});
        }
        TritonLayout::InDim& in = layout.in_dims.back();
        r.expect("=");
        const std::int64_t input = r.integer();
        if (in.bases.size() >= 24) r.fail("'" + dim + "' has more than 24 bases");
        if (input != (std::int64_t{1} << in.bases.size()))
          throw Error(dim_at, dim + "=" + std::to_string(input) + " where " + dim + "=" +
                                  std::to_string(std::int64_t{1} << in.bases.size()) + " comes next");
        r.expect("->");
        r.expect("(");
        std::vector<std::int64_t> basis;
        do basis.push_back(r.integer());
        while (r.accept(","));
        r.expect(")");
        in.bases.push_back(std::move(basis));
      }
    }
    if (!r.at_end()) r.fail("unexpected text");
    if (end == text.size()) break;
  }
  if (!have_out) throw Error(SourceLoc{file, first_line, 0}, "no 'where out dims are: [...]' line");
  check_sizes(layout, SourceLoc{file, first_line, 0});
  for (const TritonLayout::InDim& d : layout.in_dims)
    for (const std::vector<std::int64_t>& b : d.bases)
      if (b.size() != layout.out_dims.size())
        throw Error(SourceLoc{file, first_line, 0}, "a basis of '" + d.name + "' has " + std::to_string(b.size()) +
                                                        " coordinates, the layout " +
                                                        std::to_string(layout.out_dims.size()) + " out dims");
  return layout;
}

TritonLayout triton_layout_from_json(const JsonSource& src, const std::string& pointer) {
  const Json& j = src.value().at(Json::json_pointer(pointer));
  const SourceLoc where = src.at(pointer);
  if (!j.is_object()) throw Error(where, "a linear layout is a toString() text or an object of Gluon's fields");
  for (const auto& [key, value] : j.items())
    if (key != "reg_bases" && key != "lane_bases" && key != "warp_bases" && key != "block_bases" && key != "shape")
      throw Error(src.at(JsonSource::child(pointer, key)),
                  "unknown key \"" + printable(key) + "\" (reg_bases, lane_bases, warp_bases, block_bases, shape)");
  for (const char* key : {"reg_bases", "lane_bases", "shape"})
    if (!j.contains(key)) throw Error(where, std::string("a linear layout object needs \"") + key + "\"");
  const std::string shape_at = JsonSource::child(pointer, "shape");
  if (!j["shape"].is_array() || j["shape"].empty())
    throw Error(src.at(shape_at), "\"shape\" is a non-empty list of sizes");
  TritonLayout layout;
  for (std::size_t o = 0; o < j["shape"].size(); ++o) {
    const SourceLoc at = src.at(JsonSource::child(shape_at, o));
    if (!j["shape"][o].is_number_integer()) throw Error(at, "shape entries must be integers");
    const std::string dim = "dim" + std::to_string(o);
    const std::int64_t size = j["shape"][o].is_number_unsigned() && j["shape"][o].get<std::uint64_t>() > INT64_MAX
                                  ? -1
                                  : j["shape"][o].get<std::int64_t>();
    check_out_size(dim, size, at);
    layout.out_dims.emplace_back(dim, size);
  }
  const std::pair<const char*, const char*> dims[] = {
      {"reg_bases", "register"}, {"lane_bases", "lane"}, {"warp_bases", "warp"}, {"block_bases", "block"}};
  for (const auto& [key, name] : dims) {
    TritonLayout::InDim in{name, {}};
    const std::string key_at = JsonSource::child(pointer, key);
    if (j.contains(key)) {
      if (!j[key].is_array()) throw Error(src.at(key_at), std::string(key) + " must be a list of bases");
      if (j[key].size() > 24)
        throw Error(src.at(key_at), std::string(key) + " has " + std::to_string(j[key].size()) + " bases (at most 24)");
      for (std::size_t b = 0; b < j[key].size(); ++b) {
        const Json& basis_json = j[key][b];
        const std::string basis_at = JsonSource::child(key_at, b);
        if (!basis_json.is_array() || basis_json.size() != layout.out_dims.size())
          throw Error(src.at(basis_at), std::string(key) + ": every basis has one integer per shape entry");
        std::vector<std::int64_t> basis;
        for (std::size_t o = 0; o < basis_json.size(); ++o) {
          const Json& v = basis_json[o];
          if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX))
            throw Error(src.at(JsonSource::child(basis_at, o)), std::string(key) + ": bases hold 64-bit integers");
          basis.push_back(v.get<std::int64_t>());
        }
        in.bases.push_back(std::move(basis));
      }
    }
    layout.in_dims.push_back(std::move(in));
  }
  check_sizes(layout, where);
  return layout;
}

}  // namespace mmacheck
