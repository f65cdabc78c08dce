#include "cli/vector_replay.h"

#include <array>
#include <iostream>

#include "cli/command.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/sparse_model.h"
#include "sim/vectors/sparse_vectors.h"
#include "sim/vectors/vector_file.h"
#include "sim/wgmma/wgmma_vectors.h"
#include "sim/tcgen05/tcgen05_arith.h"
#include "sim/tcgen05/tcgen05_vectors.h"

namespace mmacheck::cli {

namespace {

// The families by their instruction's prefix, first match first (mma.sp
// before mma.), with their default arithmetic.
struct FamilyRow {
  VectorFamily family;
  std::string_view name, prefix, default_arch;
};
constexpr std::array kFamilies{
    FamilyRow{VectorFamily::wgmma, "wgmma", "wgmma.", "sm_90"},
    FamilyRow{VectorFamily::tcgen05, "tcgen05", "tcgen05.", "sm_100"},
    FamilyRow{VectorFamily::sparse, "mma.sp", "mma.sp", "sm_90"},
    FamilyRow{VectorFamily::mma, "mma", "mma.", "sm_90"},
};

const FamilyRow& row(VectorFamily family) {
  for (const FamilyRow& r : kFamilies)
    if (r.family == family) return r;
  throw Error("unknown vector family");
}

// A line's first two words.
std::pair<std::string_view, std::string_view> words(std::string_view line) {
  const auto word = [&](std::size_t from) {
    const std::size_t b = line.find_first_not_of(" \t\r", from);
    if (b == std::string_view::npos) return std::pair<std::string_view, std::size_t>{{}, line.size()};
    const std::size_t e = std::min(line.find_first_of(" \t\r", b), line.size());
    return std::pair{line.substr(b, e - b), e};
  };
  const auto [first, end] = word(0);
  return {first, word(end).first};
}

Json result_json(const FamilyRow& family, const std::string& arch, int passed, int failed, Json details) {
  Json j{{"verdict", failed ? "failed" : "passed"},
         {"cases", passed + failed},
         {"family", family.name},
         {"arch", arch},
         {"passed", passed},
         {"failed", failed}};
  for (auto& [key, value] : details.items()) j[key] = std::move(value);
  return j;
}

ReplayResult replay_mma(const std::vector<std::string>& files, const std::string& arch_name, const ReplayOptions& o,
                        std::ostream& out) {
  const sim::ArchParams& arch = sim::arch_params(arch_name);
  // Parse everything first: bad input exits 2 before any result is printed.
  std::vector<sim::VectorFile> parsed;
  for (const std::string& path : files) parsed.push_back(sim::read_vector_file(path));
  ReplayResult result;
  Json file_reports = Json::array();
  for (const sim::VectorFile& file : parsed) {
    const sim::VectorReport report = sim::run_vector_file(file, arch, static_cast<std::size_t>(o.show));
    Json tallies = Json::array(), mismatches = Json::array();
    for (const sim::InstrTally& t : report.tallies) {
      tallies.push_back({{"instruction", t.inst->ptx()}, {"passed", t.passed}, {"failed", t.failed}});
      if (!o.json) out << t.inst->ptx() << ": " << t.passed << " passed, " << t.failed << " failed\n";
    }
    for (const sim::Mismatch& m : report.mismatches) {
      const DType d = m.vcase->inst->d;
      mismatches.push_back({{"case", m.vcase->id},
                            {"kind", m.vcase->kind},
                            {"row", m.row},
                            {"col", m.col},
                            {"expected", sim::element_text(d, m.expected)},
                            {"got", sim::element_text(d, m.got)}});
      if (!o.json)
        out << "  " << file.name << ": case " << m.vcase->id << " (" << m.vcase->kind << ") D[" << m.row << "]["
            << m.col << "]: expected " << sim::element_text(d, m.expected) << ", got " << sim::element_text(d, m.got)
            << "\n";
    }
    file_reports.push_back({{"file", file.name},
                            {"passed", report.passed},
                            {"failed", report.failed},
                            {"instructions", std::move(tallies)},
                            {"mismatches", std::move(mismatches)}});
    result.passed += report.passed;
    result.failed += report.failed;
  }
  if (!o.json) out << result.passed << " passed, " << result.failed << " failed\n";
  result.json = result_json(row(VectorFamily::mma), std::string(arch.name), result.passed, result.failed,
                            {{"files", std::move(file_reports)}});
  return result;
}

ReplayResult replay_sparse(const std::vector<std::string>& files, const std::string& arch_name, const ReplayOptions& o,
                           std::ostream& out) {
  const sim::ArchParams& arch = sim::arch_params(arch_name);
  std::vector<sim::SparseArith> hs;
  const std::string arith =
      o.sparse_arith.empty() ? std::string(sim::sparse_arith_name(sim::kDefaultSparseArith)) : o.sparse_arith;
  if (arith == "all") hs.assign(std::begin(sim::kAllSparseArith), std::end(sim::kAllSparseArith));
  else if (const auto h = sim::parse_sparse_arith(arith)) hs.push_back(*h);
  else throw Error("unknown mma.sp hypothesis '" + printable(arith) + "' (zeros, kept, kept-packed, all)");
  std::vector<sim::SparseVectorFile> parsed;
  for (const std::string& path : files) parsed.push_back(sim::read_sparse_vectors(path));
  ReplayResult result;
  Json runs = Json::array();
  for (std::size_t f = 0; f < files.size(); ++f)
    for (const sim::SparseArith h : hs) {
      const sim::SparseVectorReport r = sim::run_sparse_vectors(parsed[f], arch, h);
      result.passed += r.passed;
      result.failed += r.failed;
      runs.push_back(
          {{"file", files[f]}, {"hypothesis", sim::sparse_arith_name(h)}, {"passed", r.passed}, {"failed", r.failed}});
      if (o.json) continue;
      out << files[f] << " [" << sim::sparse_arith_name(h) << ", " << arch.name << "]: " << r.passed << " passed, "
          << r.failed << " failed\n";
      for (std::size_t i = 0; i < r.mismatches.size() && i < 3; ++i) {
        const sim::SparseMismatch& m = r.mismatches[i];
        out << "  " << files[f] << ":" << m.line << ": case " << m.case_id << " D[" << m.row << "][" << m.col
            << "]: recorded 0x" << std::hex << m.expected << ", simulated 0x" << m.got << std::dec << "\n";
      }
    }
  result.json = result_json(row(VectorFamily::sparse), std::string(arch.name), result.passed, result.failed,
                            {{"runs", std::move(runs)}});
  return result;
}

// wgmma and tcgen05: one case list over the files, one report.
template <class Inst>
ReplayResult replay_cases(VectorFamily family, const std::vector<std::string>& files, const std::string& arch_name,
                          const sim::ArchParams& arith, const ReplayOptions& o, std::ostream& out,
                          const sim::VectorFamily<Inst>& rules,
                          sim::InstrVectorReport (*replay)(const std::vector<sim::InstrVectorCase<Inst>>&,
                                                           const sim::ArchParams&, int)) {
  std::vector<sim::InstrVectorCase<Inst>> cases;
  for (const std::string& path : files) {
    std::vector<sim::InstrVectorCase<Inst>> more = sim::parse_instr_vectors(read_text_file(path), path, rules);
    cases.insert(cases.end(), more.begin(), more.end());
  }
  const sim::InstrVectorReport r = replay(cases, arith, o.show);
  Json mismatches = Json::array();
  for (const sim::InstrVectorMismatch& m : r.mismatches) {
    const std::string& name = m.instr;
    const DType d = rules.operands(*rules.parse(name)).d;
    mismatches.push_back({{"case", m.case_id},
                          {"instruction", name},
                          {"row", m.row},
                          {"col", m.col},
                          {"expected", sim::element_text(d, m.expected)},
                          {"got", sim::element_text(d, m.got)}});
    if (!o.json)
      out << "  case " << m.case_id << " " << name << " D[" << m.row << "][" << m.col << "]: expected "
          << sim::element_text(d, m.expected) << ", got " << sim::element_text(d, m.got) << "\n";
  }
  if (!o.json)
    out << r.passed << " passed, " << r.failed << " failed (" << r.outputs << " outputs, " << r.mismatched_outputs
        << " differ)\n";
  return {
      r.passed, r.failed,
      result_json(
          row(family), arch_name, r.passed, r.failed,
          {{"outputs", r.outputs}, {"outputs_differ", r.mismatched_outputs}, {"mismatches", std::move(mismatches)}})};
}

}  // namespace

std::string_view family_name(VectorFamily family) { return row(family).name; }

std::optional<VectorFamily> vector_family(std::string_view text) {
  std::string_view instr;
  bool has_case = false;
  for (std::size_t at = 0; at < text.size() && (instr.empty() || !has_case);) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const auto [first, second] = words(text.substr(at, end - at));
    if (first == "instr" && instr.empty()) instr = second;
    has_case = has_case || first == "case";
    at = end + 1;
  }
  if (instr.empty() || !has_case) return std::nullopt;
  for (const FamilyRow& r : kFamilies)
    if (instr.substr(0, r.prefix.size()) == r.prefix) return r.family;
  return std::nullopt;
}

ReplayResult replay_vectors(VectorFamily family, const std::vector<std::string>& files, const ReplayOptions& o,
                            std::ostream& text) {
  if (o.show < 0) throw Error("--show must be >= 0");
  const FamilyRow& fam = row(family);
  for (const std::string& path : files) {
    const std::optional<VectorFamily> f = vector_family(read_text_file(path));
    if (!f)
      throw Error(SourceLoc{input_name(path), 0, 0},
                  "not a vector file (no 'instr' line of a known family followed by 'case' lines)");
    if (*f != family)
      throw Error(SourceLoc{input_name(path), 0, 0}, "a " + std::string(family_name(*f)) + " vector file, not " +
                                                         std::string(fam.name) +
                                                         " (`mmacheck replay` replays every family)");
  }
  const std::string arch = o.arch.value_or(std::string(fam.default_arch));
  switch (family) {
    case VectorFamily::mma: return replay_mma(files, arch, o, text);
    case VectorFamily::sparse: return replay_sparse(files, arch, o, text);
    case VectorFamily::wgmma:
      return replay_cases(family, files, arch, sim::wgmma_arith(arch), o, text, sim::wgmma_vector_family(),
                          sim::replay_wgmma_vectors);
    case VectorFamily::tcgen05:
      return replay_cases(family, files, arch, sim::tcgen05_arith(arch), o, text, sim::tcgen05_vector_family(),
                          sim::replay_tcgen05_vectors);
  }
  throw Error("unknown vector family");
}

}  // namespace mmacheck::cli
