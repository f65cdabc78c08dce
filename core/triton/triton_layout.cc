#include "core/triton/triton_layout.h"

#include <cctype>
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
      r.expect("[");
      do {
        const std::string dim = r.name();
        r.expect("(");
        r.expect("size");
        const std::int64_t size = r.integer();
        r.expect(")");
        layout.out_dims.emplace_back(dim, size);
      } while (r.accept(","));
      r.expect("]");
      have_out = true;
    } else {
      const bool first = r.accept("-");
      const std::string dim = r.name();
      if (first && r.accept("is a size 1 dimension")) {
        layout.in_dims.push_back({dim, {}});
      } else {
        if (first || layout.in_dims.empty() || layout.in_dims.back().name != dim) {
          if (!first) r.fail("a basis of '" + dim + "' outside its ' - " + dim + "=1' block");
          layout.in_dims.push_back({dim, {}});
        }
        TritonLayout::InDim& in = layout.in_dims.back();
        r.expect("=");
        const std::int64_t input = r.integer();
        if (input != (std::int64_t{1} << in.bases.size()))
          r.fail(dim + "=" + std::to_string(input) + " where " + dim + "=" +
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

TritonLayout triton_layout_from_json(const Json& j, const SourceLoc& where) {
  if (!j.is_object() || !j.contains("shape") || !j["shape"].is_array())
    throw Error(where, "a linear layout object needs reg_bases, lane_bases, warp_bases, block_bases and shape");
  TritonLayout layout;
  for (std::size_t o = 0; o < j["shape"].size(); ++o) {
    if (!j["shape"][o].is_number_integer()) throw Error(where, "shape entries must be integers");
    layout.out_dims.emplace_back("dim" + std::to_string(o), j["shape"][o].get<std::int64_t>());
  }
  const std::pair<const char*, const char*> dims[] = {
      {"reg_bases", "register"}, {"lane_bases", "lane"}, {"warp_bases", "warp"}, {"block_bases", "block"}};
  for (const auto& [key, name] : dims) {
    TritonLayout::InDim in{name, {}};
    if (j.contains(key)) {
      if (!j[key].is_array()) throw Error(where, std::string(key) + " must be a list of bases");
      for (const Json& b : j[key]) {
        if (!b.is_array() || b.size() != layout.out_dims.size())
          throw Error(where, std::string(key) + ": every basis has one integer per shape entry");
        std::vector<std::int64_t> basis;
        for (const Json& v : b) {
          if (!v.is_number_integer()) throw Error(where, std::string(key) + ": bases hold integers");
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
