#include "core/wgmma/operand_lines.h"

#include <algorithm>
#include <tuple>
#include <variant>

#include "core/layout/compose_layout.h"
#include "core/layout/tile_layout.h"
#include "core/program/layout_parser.h"

namespace mmacheck {

using descriptor_lines::Line;
using descriptor_lines::Statement;
using descriptor_lines::Word;

WgmmaOperand read_wgmma_operand(const Line& line, const std::string& path) {
  const Statement st(line, path, 2);
  if (line.words.size() < 2 || (line.words[1].text != "A" && line.words[1].text != "B"))
    st.fail(line.words.size() < 2 ? 0 : line.words[1].col, "expected the operand, A or B, after 'operand'");
  st.only({"dtype", "tile", "major"});
  WgmmaOperand op;
  op.operand = line.words[1].text[0];
  const Word& dtype = st.value("dtype");
  op.type = find_wgmma_type(dtype.text);
  if (!op.type)
    st.fail(dtype.col, "unknown dtype '" + printable(dtype.text) + "' (f16, bf16, tf32, e4m3, e5m2, s8, u8)");
  const auto [rows, k] = st.pair("tile", 'x');
  if (rows > 256 || k > 256) st.fail(st.value("tile").col, "tile too large for a wgmma operand");
  op.rows = static_cast<int>(rows);
  op.k = static_cast<int>(k);
  const Word& major = st.value("major");
  if (major.text == "K") op.major = Major::k;
  else if (major.text == "MN") op.major = Major::mn;
  else st.fail(major.col, "major= expects K or MN, got '" + printable(major.text) + "'");
  if (const std::string why = op.problem(); !why.empty()) st.fail(line.words[1].col, why);
  return op;
}

MatrixDescriptor read_wgmma_descriptor(const Line& line, const std::string& path) {
  if (line.words.size() == 2 && line.words[1].text.find('=') == std::string::npos) {
    const Statement st(line, path, 2);
    const std::int64_t raw = st.parse_integer(line.words[1]);
    try {
      return MatrixDescriptor::decode(static_cast<std::uint64_t>(raw));
    } catch (const Error& e) {
      st.fail(line.words[1].col, e.message());
    }
  }
  const Statement st(line, path, 1);
  st.only({"start", "lbo", "sbo", "swizzle", "base_offset"});
  MatrixDescriptor d;
  d.start = st.integer("start");
  d.lbo = st.integer("lbo");
  d.sbo = st.integer("sbo");
  const Word& mode = st.value("swizzle");
  const SwizzleModeRow* row = find_swizzle_mode(mode.text);
  if (!row)
    st.fail(mode.col, "swizzle= expects none, interleave, 32B, 64B or 128B, got '" + printable(mode.text) + "'");
  d.swizzle = row->mode;
  if (st.has("base_offset")) d.base_offset = static_cast<int>(std::min<std::int64_t>(st.integer("base_offset"), 8));
  try {
    d.encode();  // the fields' ranges
  } catch (const Error& e) {
    st.fail(line.words[0].col, e.message());
  }
  return d;
}

std::vector<std::int64_t> read_smem_placement(const Line& line, const std::string& path, const WgmmaOperand& op,
                                              WgmmaCase& c) {
  const Statement st(line, path, 1);
  st.only({"base", "layout", "shape", "at"});
  const std::int64_t base = st.integer("base");
  // Shared memory is 2^18 bytes at most (the descriptor's window); the bound keeps the sums below in range.
  constexpr std::int64_t kMaxAddress = std::int64_t{1} << 32;
  if (base >= kMaxAddress) st.fail(st.value("base").col, "base= must be below 2^32");
  std::int64_t rows = op.rows, cols = op.k, r0 = 0, c0 = 0;
  if (st.has("shape")) std::tie(rows, cols) = st.pair("shape", 'x');
  if (st.has("at")) std::tie(r0, c0) = st.pair("at", ',');
  if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096)
    st.fail(st.value("shape").col, "shape= must be positive and at most 4096 x 4096");
  if (r0 + op.rows > rows || c0 + op.k > cols)
    st.fail(st.has("at") ? st.value("at").col : 0, "the " + std::to_string(op.rows) + " x " + std::to_string(op.k) +
                                                       " tile at " + std::to_string(r0) + "," + std::to_string(c0) +
                                                       " does not fit the buffer's shape " + std::to_string(rows) +
                                                       " x " + std::to_string(cols));
  const Word& expr = st.value("layout");
  c.placement = expr.text;
  c.buffer_base = base;
  const AnyLayout layout = parse_any_layout(expr.text, SourceLoc{path, line.number, expr.col});
  const auto* compose = std::get_if<ComposeLayout>(&layout);
  const TileLayout* tile = compose                            ? nullptr
                           : std::get_if<TileLayout>(&layout) ? &std::get<TileLayout>(layout)
                                                              : &std::get<GroupedLayout>(layout).layout();
  const std::int64_t size = compose ? compose->size() : tile->size();
  if (size != rows * cols)
    st.fail(expr.col, "the layout has " + std::to_string(size) + " elements, the buffer's shape " +
                          std::to_string(rows) + " x " + std::to_string(cols) + " has " + std::to_string(rows * cols));
  if (compose && !compose->applies()) st.fail(expr.col, "the layout's tile layout must use axis m alone");
  if (compose && compose->swizzle().inner) {
    // The same swizzle on bytes: the element's log2(width) low bits below the chunk.
    Swizzle bytes = compose->swizzle();
    for (int w = op.type->bytes; w > 1; w /= 2) ++bytes.base;
    c.buffer_swizzle = bytes;
  }
  const auto offset_of = [&](std::int64_t flat) -> std::int64_t {
    std::int64_t offset = 0;
    if (compose) {
      offset = compose->apply_flat(flat);
    } else {
      const Owner owner = tile->apply_flat(flat);
      for (const auto& [axis, v] : owner)
        if (!(axis == Axis::m()) && v != 0)
          st.fail(expr.col, "a shared buffer's layout is on m alone; this one names " + axis.name());
      offset = owner_coord(owner, Axis::m());
    }
    if (offset < -kMaxAddress || offset > kMaxAddress)
      st.fail(expr.col, "the layout puts element " + std::to_string(flat) + " at offset " + std::to_string(offset) +
                            ", outside any shared memory");
    return offset;
  };
  std::vector<std::int64_t> placed;
  placed.reserve(static_cast<std::size_t>(op.rows) * op.k);
  try {
    for (int i = 0; i < op.rows; ++i)
      for (int k = 0; k < op.k; ++k) placed.push_back(base + op.type->bytes * offset_of((r0 + i) * cols + c0 + k));
  } catch (const Error& e) {
    throw e.located(st.loc(expr.col));
  }
  return placed;
}

}  // namespace mmacheck
