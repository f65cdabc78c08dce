#include "core/tcgen05/tcgen05_reader.h"

#include <limits>
#include <variant>

#include "core/program/layout_parser.h"
#include "core/wgmma/operand_lines.h"
#include "core/wgmma/statement.h"

namespace mmacheck {

using descriptor_lines::Line;
using descriptor_lines::split_lines;
using descriptor_lines::Statement;
using descriptor_lines::Word;

namespace {

bool read_flag(const Statement& st, const std::string& key) {
  if (!st.has(key)) return false;
  const Word& w = st.value(key);
  if (w.text != "0" && w.text != "1") st.fail(w.col, key + "= expects 0 or 1, got '" + printable(w.text) + "'");
  return w.text == "1";
}

Major read_major(const Statement& st, const std::string& key) {
  if (!st.has(key)) return Major::k;
  const Word& w = st.value(key);
  if (w.text == "K") return Major::k;
  if (w.text == "MN") return Major::mn;
  st.fail(w.col, key + "= expects K or MN, got '" + printable(w.text) + "'");
}

int small(const Statement& st, const std::string& key, std::int64_t fallback) {
  const std::int64_t v = st.has(key) ? st.integer(key) : fallback;
  if (v > 4096) st.fail(st.value(key).col, key + "= is too large, got " + std::to_string(v));
  return static_cast<int>(v);
}

Tcgen05Instr read_instr(const Line& line, const std::string& path) {
  const Statement st(line, path, 1);
  st.only({"kind", "cta_group", "m", "n", "d", "a", "b", "a_major", "b_major", "negate_a", "negate_b", "saturate"});
  Tcgen05Instr in;
  const Word& kind = st.value("kind");
  if (!find_tcgen05_kind(kind.text, in.kind))
    st.fail(kind.col, "unknown kind '" + printable(kind.text) + "' (tf32, f16, f8f6f4, i8)");
  in.cta_group = small(st, "cta_group", 1);
  in.m = small(st, "m", 0);
  in.n = small(st, "n", 0);
  const auto format = [&](const std::string& key, bool d) {
    const Word& w = st.value(key);
    const void* found = d ? static_cast<const void*>(find_tcgen05_d(in.kind, w.text))
                          : static_cast<const void*>(find_tcgen05_format(in.kind, w.text));
    if (!found)
      st.fail(w.col, "kind::" + std::string(tcgen05_kind_name(in.kind)) + " has no " + (d ? "D" : "operand") +
                         " format '" + printable(w.text) + "' (" + tcgen05_format_names(in.kind, d) + ")");
    return found;
  };
  in.d = static_cast<const Tcgen05DFormat*>(format("d", true));
  in.a = static_cast<const Tcgen05Format*>(format("a", false));
  in.b = static_cast<const Tcgen05Format*>(format("b", false));
  in.a_major = read_major(st, "a_major");
  in.b_major = read_major(st, "b_major");
  in.negate_a = read_flag(st, "negate_a");
  in.negate_b = read_flag(st, "negate_b");
  in.saturate = read_flag(st, "saturate");
  if (const std::string why = in.problem(); !why.empty()) st.fail(line.words[0].col, why);
  return in;
}

std::uint32_t read_idesc(const Line& line, const std::string& path) {
  const Statement st(line, path, 2);
  if (line.words.size() != 2) st.fail(line.words[0].col, "expected 'idesc VALUE' (the 32-bit instruction descriptor)");
  const std::int64_t v = st.parse_integer(line.words[1]);
  if (v > std::numeric_limits<std::uint32_t>::max())
    st.fail(line.words[1].col, "the instruction descriptor is 32 bits, got " + line.words[1].text);
  return static_cast<std::uint32_t>(v);
}

Tcgen05SmemDescriptor read_tcgen05_descriptor(const Line& line, const std::string& path) {
  if (line.words.size() == 2 && line.words[1].text.find('=') == std::string::npos) {
    const Statement st(line, path, 2);
    const std::int64_t raw = st.parse_integer(line.words[1]);
    try {
      return Tcgen05SmemDescriptor::decode(static_cast<std::uint64_t>(raw));
    } catch (const Error& e) {
      st.fail(line.words[1].col, e.message());
    }
  }
  const Statement st(line, path, 1);
  st.only({"start", "lbo", "sbo", "swizzle", "base_offset", "lbo_mode"});
  Tcgen05SmemDescriptor d;
  d.start = st.integer("start");
  d.lbo = st.integer("lbo");
  d.sbo = st.integer("sbo");
  const Word& mode = st.value("swizzle");
  const Tcgen05SwizzleRow* row = find_tcgen05_swizzle(mode.text);
  if (!row)
    st.fail(mode.col, "swizzle= expects none, 32B, 64B, 128B or 128B_base32B, got '" + printable(mode.text) + "'");
  d.swizzle = row->mode;
  if (st.has("base_offset")) d.base_offset = static_cast<int>(std::min<std::int64_t>(st.integer("base_offset"), 8));
  if (st.has("lbo_mode")) {
    const Word& w = st.value("lbo_mode");
    if (w.text != "relative" && w.text != "absolute")
      st.fail(w.col, "lbo_mode= expects relative or absolute, got '" + printable(w.text) + "'");
    d.lbo_absolute = w.text == "absolute";
  }
  try {
    d.encode();
  } catch (const Error& e) {
    st.fail(line.words[0].col, e.message());
  }
  return d;
}

TmemCase read_tmem(const Line& line, const std::string& path, const Tcgen05Instr& in) {
  const Statement st(line, path, 2);
  if (line.words.size() < 2 || line.words[1].text != "D")
    st.fail(line.words.size() < 2 ? 0 : line.words[1].col, "expected 'tmem D' (the accumulator)");
  st.only({"lane", "column", "layout"});
  TmemCase t;
  t.loc = st.loc(line.words[0].col);
  t.name = "D (line " + std::to_string(line.number) + ")";
  t.cta_group = in.cta_group;
  t.m = in.m;
  t.n = in.n;
  t.d_bits = in.d->name == "f16" ? 16 : 32;
  t.base_lane = small(st, "lane", 0);
  t.base_col = small(st, "column", 0);
  const Word& expr = st.value("layout");
  t.placement = expr.text;
  const LayoutValue layout = parse_layout(expr.text, SourceLoc{path, line.number, expr.col});
  try {
    t.placed = tmem_placement(layout_of(layout), in.m, in.n);
  } catch (const Error& e) {
    throw e.located(st.loc(expr.col));
  }
  if (in.cta_group == 1)
    for (const TmemPosition& p : t.placed)
      if (p.cta != 0) st.fail(expr.col, "cta_group::1 writes D in its own CTA: the layout must not step cbx");
  return t;
}

}  // namespace

Tcgen05Case read_tcgen05_file(std::string_view text, const std::string& path) {
  const std::vector<Line> lines = split_lines(text);
  if (lines.empty() || lines[0].words[0].text != "instr")
    throw Error(lines.empty() ? SourceLoc{path, 0, 0} : SourceLoc{path, lines[0].number, lines[0].words[0].col},
                "a tcgen05 file starts with its 'instr' line");
  Tcgen05Case c;
  c.instr = read_instr(lines[0], path);
  c.instr_loc = SourceLoc{path, lines[0].number, 1};
  bool have_idesc = false;
  for (std::size_t l = 1; l < lines.size();) {
    const Line& head = lines[l];
    const std::string& word = head.words[0].text;
    const SourceLoc at{path, head.number, head.words[0].col};
    if (word == "idesc") {
      if (have_idesc) throw Error(at, "a second 'idesc' line");
      c.idesc = read_idesc(head, path);
      c.idesc_loc = at;
      have_idesc = true;
      ++l;
    } else if (word == "tmem") {
      if (c.tmem) throw Error(at, "a second 'tmem' line");
      c.tmem = read_tmem(head, path, c.instr);
      ++l;
    } else if (word == "operand") {
      const Statement st(head, path, 2);
      if (head.words.size() < 2 || (head.words[1].text != "A" && head.words[1].text != "B"))
        st.fail(head.words.size() < 2 ? 0 : head.words[1].col, "expected the operand, A or B, after 'operand'");
      st.only({});
      const bool is_a = head.words[1].text == "A";
      const Tcgen05Format& format = is_a ? *c.instr.a : *c.instr.b;
      Tcgen05Operand op;
      WgmmaCase& w = op.placement;
      w.operand = WgmmaOperand{.operand = is_a ? 'A' : 'B',
                               .type = &format.operand,
                               .rows = (is_a ? c.instr.m : c.instr.n) / c.instr.cta_group,
                               .k = format.operand.k,
                               .major = is_a ? c.instr.a_major : c.instr.b_major};
      w.loc = at;
      w.name = std::string(1, w.operand.operand) + " (line " + std::to_string(head.number) + ")";
      const char* expected[] = {"descriptor", "smem"};
      for (int part = 0; part < 2; ++part) {
        const std::size_t next = l + 1 + static_cast<std::size_t>(part);
        if (next >= lines.size() || lines[next].words[0].text != expected[part])
          throw Error(next >= lines.size() ? at : SourceLoc{path, lines[next].number, lines[next].words[0].col},
                      "expected a '" + std::string(expected[part]) +
                          "' line here (each operand is: operand, descriptor, smem)");
        if (part == 0) op.descriptor = read_tcgen05_descriptor(lines[next], path);
        else w.placed = read_smem_placement(lines[next], path, w.operand, w);
      }
      c.operands.push_back(std::move(op));
      l += 3;
    } else {
      throw Error(at, word == "instr" ? "a second 'instr' line"
                                      : "unknown statement '" + printable(word) +
                                            "' (expected idesc, operand, descriptor, smem, tmem)");
    }
  }
  if (!have_idesc) throw Error(c.instr_loc, "no 'idesc' line (the instruction descriptor the program passes)");
  return c;
}

}  // namespace mmacheck
