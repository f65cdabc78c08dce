#include "core/tma/tma_check.h"

#include "core/base/hex.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

std::string joined(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : std::string(sep)) + x;
  return s;
}

std::string element_name(const WgmmaOperand& op, int i, int k) {
  return std::string(1, op.operand) + "[" + (op.operand == 'A' ? "m" : "n") + "=" + std::to_string(i) +
         "][k=" + std::to_string(k) + "]";
}

TmaReport start_report(const TmaCase& c) {
  TmaReport r;
  r.name = c.name;
  r.instruction = c.operand.instruction();
  r.tensor_map = c.copy.map.str();
  r.descriptor = c.descriptor;
  return r;
}

TmaReport refuted(TmaReport r, std::vector<std::string> fields, std::string message) {
  r.result = FrameVerdict::refuted;
  r.fields = std::move(fields);
  r.message = std::move(message);
  return r;
}

// The box coordinate of each tile element, row-major over (i, k).
std::vector<std::vector<std::int64_t>> box_coords(const TmaCase& c) {
  std::vector<std::vector<std::int64_t>> out;
  for (int i = 0; i < c.operand.rows; ++i)
    for (int k = 0; k < c.operand.k; ++k) {
      std::vector<std::int64_t> b;
      for (const BoxAxis& a : c.axes) b.push_back(a.of(c.at_row + i, c.at_k + k));
      out.push_back(std::move(b));
    }
  return out;
}

bool in_box(const TensorMap& m, const std::vector<std::int64_t>& b) {
  for (int d = 0; d < m.rank(); ++d)
    if (b[static_cast<std::size_t>(d)] < 0 || b[static_cast<std::size_t>(d)] >= m.box_extent(d)) return false;
  return true;
}

std::string extents(const TensorMap& m) {
  std::string s;
  for (int d = 0; d < m.rank(); ++d) s += (d ? " x " : "") + std::to_string(m.box_extent(d));
  return s;
}

// Which of the copy's parameters make it write elsewhere than the descriptor reads.
std::vector<std::string> layout_fields(const TmaCase& c) {
  std::vector<std::string> fields;
  if (c.copy.map.swizzle != c.descriptor.swizzle) fields.emplace_back("swizzle mode");
  // A swizzled box pads its rows to the span, so only the row pitch counts, not the inner bytes.
  if (c.copy.map.smem_row_bytes() != swizzle_mode(c.descriptor.swizzle).row_bytes)
    fields.emplace_back("box inner dimension");
  return fields;
}

std::string field_reasons(const TmaCase& c, const std::vector<std::string>& fields) {
  std::vector<std::string> why;
  const SwizzleModeRow& read = swizzle_mode(c.descriptor.swizzle);
  for (const std::string& f : fields) {
    if (f == "swizzle mode")
      why.push_back("the tensor map swizzles " + std::string(swizzle_mode(c.copy.map.swizzle).name) +
                    ", the descriptor reads " + std::string(read.name));
    if (f == "box inner dimension")
      why.push_back("the box's inner dimension is " +
                    std::to_string(c.copy.map.box_extent(0) * c.copy.map.dtype->bytes) + " bytes (" +
                    std::to_string(c.copy.map.box_extent(0)) + " x " + std::to_string(c.copy.map.dtype->bytes) +
                    "), so the copy writes its rows " + std::to_string(c.copy.map.smem_row_bytes()) +
                    " bytes apart; the descriptor's " + std::string(read.name) + " canonical layout reads rows of " +
                    std::to_string(read.row_bytes) + " bytes");
  }
  return joined(why, "; ");
}

}  // namespace

std::int64_t BoxAxis::of(std::int64_t row, std::int64_t k) const {
  if (var == 0) return constant;
  std::int64_t v = (var == 'i' ? row : k) / div;
  return mod ? v % mod : v;
}

std::string BoxAxis::str() const {
  if (var == 0) return std::to_string(constant);
  std::string s(1, var);
  if (div != 1) s += "/" + std::to_string(div);
  if (mod) s += "%" + std::to_string(mod);
  return s;
}

std::vector<BoxAxis> default_box_axes(const WgmmaOperand& op, int rank) {
  std::vector<BoxAxis> axes;
  const char inner = op.major == Major::k ? 'k' : 'i';
  axes.push_back({inner});
  if (rank > 1) axes.push_back({inner == 'k' ? 'i' : 'k'});
  for (int d = 2; d < rank; ++d) axes.push_back({0});
  return axes;
}

std::vector<std::optional<std::int64_t>> tma_placement(const TmaCase& c) {
  std::vector<std::optional<std::int64_t>> out;
  for (const std::vector<std::int64_t>& b : box_coords(c))
    out.push_back(static_cast<int>(b.size()) == c.copy.map.rank() && in_box(c.copy.map, b)
                      ? std::optional<std::int64_t>(tma_write_address(c.copy, b))
                      : std::nullopt);
  return out;
}

TmaReport check_tma(const TmaCase& c) {
  TmaReport r = start_report(c);
  const TensorMap& map = c.copy.map;
  if (c.descriptor.base_offset != 0) {
    r.result = FrameVerdict::unchecked;
    r.message =
        "base_offset " + std::to_string(c.descriptor.base_offset) + " is not modelled; only base_offset 0 is checked";
    return r;
  }
  if (map.interleave != TmaInterleave::none) {
    r.result = FrameVerdict::unchecked;
    r.message = "interleave " + std::string(interleave_name(map.interleave)) +
                " (the NC/8HWC8 layouts) is not modelled; only INTERLEAVE_NONE is checked";
    return r;
  }
  // A map the driver refuses is never copied: nothing to compare.
  if (const std::vector<std::string> bad = map.problems(); !bad.empty()) {
    const bool span = bad.size() == 1 && bad[0].find("swizzle span") != std::string::npos;
    return refuted(std::move(r), {span ? "box inner dimension" : "tensor map"},
                   "cuTensorMapEncodeTiled refuses the tensor map (CUDA_ERROR_INVALID_VALUE), so no copy runs: " +
                       joined(bad, "; "));
  }
  if (const std::vector<std::string> bad = c.copy.problems(); !bad.empty())
    return refuted(std::move(r), {"smem alignment"}, "the copy is not valid: " + joined(bad, "; "));
  if (map.dtype->bytes != c.operand.type->bytes)
    return refuted(std::move(r), {"dtype"},
                   "the tensor map's elements are " + std::to_string(map.dtype->bytes) + " bytes (" +
                       std::string(map.dtype->name) + "), the operand's " + std::to_string(c.operand.type->bytes) +
                       " (" + std::string(c.operand.type->name) + "): TMA copies bytes, it converts nothing");
  if (static_cast<int>(c.axes.size()) != map.rank())
    return refuted(std::move(r), {"box coverage"},
                   "the tile names " + std::to_string(c.axes.size()) + " box coordinates, the map's rank is " +
                       std::to_string(map.rank()));

  const std::vector<std::vector<std::int64_t>> boxes = box_coords(c);
  for (std::size_t e = 0; e < boxes.size(); ++e) {
    if (in_box(map, boxes[e])) continue;
    const int i = static_cast<int>(e) / c.operand.k, k = static_cast<int>(e) % c.operand.k;
    TmaMismatch m{i, k, canonical_address(c.operand, c.descriptor, i, k), std::nullopt, boxes[e], {}, std::nullopt};
    r.counterexample = m;
    return refuted(std::move(r), {"box coverage"},
                   element_name(c.operand, i, k) + " is box element " + coord_text(boxes[e]) + ", outside the box (" +
                       extents(map) + " elements): the copy does not write it, the descriptor reads " + hex(m.read));
  }

  WgmmaCase as_wgmma{c.name, c.loc, c.operand, c.descriptor, {}, "", std::nullopt, c.copy.smem};
  for (const std::vector<std::int64_t>& b : boxes) as_wgmma.placed.push_back(tma_write_address(c.copy, b));
  if (map.rows_overlap())
    r.notes.push_back("globalStrides[0] = " + std::to_string(map.strides[0]) + " is less than a row (" +
                      std::to_string(map.dims[0]) + " x " + std::to_string(map.dtype->bytes) +
                      " bytes): rows overlap in global memory (the driver accepts it)");
  int outside = 0;
  for (const std::vector<std::int64_t>& b : boxes) outside += tma_out_of_bounds(c.copy, b) ? 1 : 0;
  if (outside)
    r.notes.push_back(std::to_string(outside) + " of the tile's elements are past the tensor's globalDim: the copy " +
                      "writes the OOB fill (" + (map.oob_nan ? "NaN" : "zero") + ") there");

  std::vector<std::string> fields;
  std::string alignment;
  const SwizzleModeRow& mode = swizzle_mode(map.swizzle);
  if (map.swizzle != SwizzleMode::none && c.copy.smem % mode.bytes.period() != 0) {
    fields.emplace_back("smem alignment");
    alignment = "dstMem " + hex(c.copy.smem) + " is not on the " + std::to_string(mode.bytes.period()) +
                "-byte repeat of the " + std::string(mode.name) +
                " pattern: a descriptor with base_offset 0 reads the pattern as starting on that boundary (the "
                "ISA's base offset, not modelled, describes any other start): align the buffer";
  }
  const std::vector<WgmmaMismatch> wrong = wgmma_mismatches(c.operand, c.descriptor, as_wgmma.placed);
  const std::int64_t elements = std::int64_t{c.operand.rows} * c.operand.k;
  if (wrong.empty() && fields.empty()) {
    r.message = "every element of the " + std::to_string(c.operand.rows) + " x " + std::to_string(c.operand.k) +
                " tile (" + std::to_string(elements) + ") is read where the copy wrote it";
    return r;
  }
  if (!wrong.empty()) {
    const WgmmaMismatch& w = wrong.front();
    const std::vector<std::int64_t>& b = boxes[static_cast<std::size_t>(w.i) * c.operand.k + w.k];
    TmaMismatch m{w.i, w.k, w.read, w.placed, b, tma_global_coord(c.copy, b), std::nullopt};
    if (const auto found = TmaImage(c.copy).element_at(w.read)) m.found = tma_global_coord(c.copy, *found);
    r.counterexample = m;
    r.mismatches = static_cast<int>(wrong.size());
    const std::vector<std::string> tma_fields = layout_fields(c);
    for (const std::string& f : tma_fields) fields.push_back(f);
    r.fixes = check_wgmma(as_wgmma).fixes;
    if (tma_fields.empty()) fields.emplace_back("descriptor");
    std::string what = element_name(c.operand, w.i, w.k) + " (global " + coord_text(m.global) + ") is read at " +
                       hex(w.read) + " but the copy wrote it at " + hex(w.placed) + "; at " + hex(w.read) +
                       " the copy wrote " +
                       (m.found ? "global element " + coord_text(*m.found) : std::string("no element")) + " (" +
                       std::to_string(wrong.size()) + " of " + std::to_string(elements) + " elements read elsewhere)";
    if (!tma_fields.empty()) what += "; " + field_reasons(c, tma_fields);
    else if (!r.fixes.empty())
      what += "; the copy suits the " + std::string(swizzle_mode(c.descriptor.swizzle).name) +
              " layout, the descriptor does not: " + joined(r.fixes.front().fields, ", ") + " -> " +
              r.fixes.front().descriptor.str();
    if (!alignment.empty()) what += "; " + alignment;
    return refuted(std::move(r), std::move(fields), std::move(what));
  }
  return refuted(std::move(r), std::move(fields),
                 "every element is read at the address the copy wrote it to, but " + alignment);
}

}  // namespace mmacheck
