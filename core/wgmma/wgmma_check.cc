#include "core/wgmma/wgmma_check.h"

#include <algorithm>

#include "core/base/hex.h"

namespace mmacheck {

namespace {

// The fields of `fix` that differ from the case's descriptor and major-ness.
std::vector<std::string> changed_fields(const WgmmaCase& c, const MatrixDescriptor& d, Major major) {
  std::vector<std::string> fields;
  const MatrixDescriptor& given = c.descriptor;
  if (d.swizzle != given.swizzle) fields.emplace_back("swizzle");
  if (major != c.operand.major) fields.emplace_back("major");
  if (d.start != given.start) fields.emplace_back("start");
  const bool lbo = d.lbo != given.lbo, sbo = d.sbo != given.sbo;
  if (lbo && sbo && d.lbo == given.sbo && d.sbo == given.lbo) {
    fields.emplace_back("lbo/sbo swapped");
  } else {
    if (lbo) fields.emplace_back("lbo");
    if (sbo) fields.emplace_back("sbo");
  }
  return fields;
}

// Every descriptor of another swizzle mode or major-ness (or with start, LBO
// and SBO measured on the buffer) that reads the buffer right.
std::vector<WgmmaFix> find_fixes(const WgmmaCase& c) {
  std::vector<WgmmaFix> fixes;
  std::vector<Major> majors{c.operand.major};
  if (c.operand.type->transposable) majors.push_back(c.operand.major == Major::k ? Major::mn : Major::k);
  std::vector<SwizzleMode> modes{c.descriptor.swizzle};
  for (const SwizzleModeRow& row : swizzle_modes())
    if (row.mode != c.descriptor.swizzle) modes.push_back(row.mode);
  for (Major major : majors) {
    WgmmaOperand op = c.operand;
    op.major = major;
    for (SwizzleMode mode : modes) {
      // The given fields in the new mode first (a mode alone wrong), then the measured ones.
      MatrixDescriptor as_given = c.descriptor;
      as_given.swizzle = mode;
      std::vector<MatrixDescriptor> trials{as_given};
      if (auto measured = measured_descriptor(op, mode, c.placed, c.descriptor)) trials.push_back(*measured);
      for (const MatrixDescriptor& d : trials) {
        if (d == c.descriptor && major == c.operand.major) continue;
        if (!wgmma_mismatches(op, d, c.placed).empty()) continue;
        const bool seen = std::any_of(fixes.begin(), fixes.end(),
                                      [&](const WgmmaFix& f) { return f.descriptor == d && f.major == major; });
        if (!seen) fixes.push_back({d, major, changed_fields(c, d, major)});
      }
    }
  }
  std::stable_sort(fixes.begin(), fixes.end(),
                   [](const WgmmaFix& a, const WgmmaFix& b) { return a.fields.size() < b.fields.size(); });
  return fixes;
}

std::string fix_text(const WgmmaCase& c, const WgmmaFix& fix) {
  std::string fields;
  for (const std::string& f : fix.fields) fields += (fields.empty() ? "" : ", ") + f;
  std::string text = fields + ": descriptor " + fix.descriptor.str() + " (" +
                     hex(static_cast<std::int64_t>(fix.descriptor.encode())) + ")";
  if (fix.major != c.operand.major)
    text += " with major=" + std::string(major_name(fix.major)) +
            (fix.major == Major::mn ? " (imm-trans = 1)" : " (imm-trans = 0)");
  return text + " reads every element where the buffer placed it";
}

}  // namespace

std::vector<WgmmaMismatch> wgmma_mismatches(const WgmmaOperand& op, const MatrixDescriptor& d,
                                            const std::vector<std::int64_t>& placed) {
  std::vector<WgmmaMismatch> out;
  for (int i = 0; i < op.rows; ++i)
    for (int k = 0; k < op.k; ++k) {
      const std::int64_t want = placed[static_cast<std::size_t>(i) * op.k + k];
      const std::int64_t read = canonical_address(op, d, i, k);
      if (read != want) out.push_back({i, k, read, want});
    }
  return out;
}

WgmmaReport check_wgmma(const WgmmaCase& c) {
  WgmmaReport r;
  r.name = c.name;
  r.instruction = c.operand.instruction();
  r.operand = c.operand;
  r.descriptor = c.descriptor;
  if (c.descriptor.base_offset != 0) {
    r.result = FrameVerdict::unchecked;
    r.message = "base_offset " + std::to_string(c.descriptor.base_offset) +
                " (a swizzle pattern off its boundary) is not modelled; only base_offset 0 is checked";
    return r;
  }
  const std::vector<WgmmaMismatch> wrong = wgmma_mismatches(c.operand, c.descriptor, c.placed);
  const std::int64_t elements = std::int64_t{c.operand.rows} * c.operand.k;
  if (wrong.empty()) {
    r.message = "every element of the " + std::to_string(c.operand.rows) + " x " + std::to_string(c.operand.k) +
                " tile (" + std::to_string(elements) + ") is read where the buffer placed it";
    return r;
  }
  r.result = FrameVerdict::refuted;
  r.counterexample = wrong.front();
  r.mismatches = static_cast<int>(wrong.size());
  r.fixes = find_fixes(c);
  const WgmmaMismatch& m = wrong.front();
  const char* row = c.operand.operand == 'A' ? "m" : "n";
  r.message = std::string(1, c.operand.operand) + "[" + row + "=" + std::to_string(m.i) + "][k=" + std::to_string(m.k) +
              "] is read at " + hex(m.read) + " but placed at " + hex(m.placed) + " (" + std::to_string(wrong.size()) +
              " of " + std::to_string(elements) + " elements read elsewhere); ";
  if (r.fixes.empty()) {
    r.message +=
        "no descriptor of any swizzle mode or major-ness reads the buffer: its layout is not one of wgmma's "
        "canonical layouts (core matrices of 8 rows x 16 bytes), or its swizzle pattern does not start on the "
        "mode's boundary (1024, 512, 256 bytes)";
  } else {
    r.message += "likely wrong: " + fix_text(c, r.fixes.front());
  }
  if (c.buffer_swizzle && !c.buffer_swizzle->identity() && c.buffer_base % c.buffer_swizzle->period() != 0)
    r.message += "; the buffer swizzles offsets from its base " + hex(c.buffer_base) + ", which is not on a " +
                 std::to_string(c.buffer_swizzle->period()) +
                 "-byte boundary, but wgmma swizzles the absolute address: align the buffer (base_offset, which "
                 "describes such a pattern, is not modelled)";
  return r;
}

}  // namespace mmacheck
