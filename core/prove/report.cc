// The report's names, one table each.
#include "core/prove/report.h"

#include <array>

#include "core/base/error.h"

namespace mmacheck {

namespace {

// A check's name is prefix + subject + suffix.
struct CheckKindRow {
  CheckKind kind;
  std::string_view name;  // check_kind_name
  std::string_view prefix, suffix;
};

constexpr std::array kCheckKinds = {
    CheckKindRow{CheckKind::frame, "frame", "", " frame"},
    CheckKindRow{CheckKind::fragment, "fragment", "", " fragment"},
    CheckKindRow{CheckKind::accumulation, "accumulation", "accumulation", ""},
    CheckKindRow{CheckKind::stage, "stage", "stage ", ""},
    CheckKindRow{CheckKind::store, "store", "store ", ""},
    CheckKindRow{CheckKind::swizzle, "swizzle", "swizzle ", ""},
    CheckKindRow{CheckKind::swizzle_fill, "swizzle (fill)", "swizzle ", " (fill)"},
    CheckKindRow{CheckKind::swizzle_drain, "swizzle (drain)", "swizzle ", " (drain)"},
    CheckKindRow{CheckKind::fill, "fill", "fill ", ""},
    CheckKindRow{CheckKind::drain, "drain", "drain ", ""},
    CheckKindRow{CheckKind::rows, "rows", "rows ", ""},
    CheckKindRow{CheckKind::ldmatrix, "ldmatrix", "ldmatrix ", ""},
    CheckKindRow{CheckKind::stmatrix, "stmatrix", "stmatrix ", ""},
    CheckKindRow{CheckKind::ld_shared, "ld.shared", "ld.shared ", ""},
    CheckKindRow{CheckKind::st_shared, "st.shared", "st.shared ", ""},
    CheckKindRow{CheckKind::diagnosis, "diagnosis", "diagnosis", ""},
    CheckKindRow{CheckKind::program, "program", "program", ""},
};

const CheckKindRow& row(CheckKind kind) {
  for (const CheckKindRow& r : kCheckKinds)
    if (r.kind == kind) return r;
  throw Error("internal: a check kind without a row in report.cc");
}

struct PropertyRow {
  DiagnosisProperty property;
  std::string_view name;
};

constexpr std::array kProperties = {
    PropertyRow{DiagnosisProperty::lane_range, "lane range"},
    PropertyRow{DiagnosisProperty::register_span, "register span"},
    PropertyRow{DiagnosisProperty::replica, "replica"},
    PropertyRow{DiagnosisProperty::injectivity, "injectivity"},
    PropertyRow{DiagnosisProperty::coverage, "coverage"},
    PropertyRow{DiagnosisProperty::frame, "frame"},
    PropertyRow{DiagnosisProperty::fits, "fits"},
    PropertyRow{DiagnosisProperty::instruction_set, "instruction set"},
    PropertyRow{DiagnosisProperty::shape, "shape"},
    PropertyRow{DiagnosisProperty::dtypes, "dtypes"},
};

}  // namespace

ProofMethod parse_proof_method(std::string_view name) {
  if (name == "z3") return ProofMethod::z3;
  if (name == "z3-unrolled") return ProofMethod::z3_unrolled;
  if (name == "exhaustive") return ProofMethod::exhaustive;
  throw Error("unknown proof method '" + std::string(name) + "' (expected z3, z3-unrolled or exhaustive)");
}

std::string_view proof_method_name(ProofMethod method) {
  switch (method) {
    case ProofMethod::z3: return "z3";
    case ProofMethod::z3_unrolled: return "z3-unrolled";
    case ProofMethod::exhaustive: return "exhaustive";
  }
  return "?";
}

std::string_view check_result_name(CheckResult result) {
  switch (result) {
    case CheckResult::proved: return "proved";
    case CheckResult::refuted: return "refuted";
    case CheckResult::unknown: return "unknown";
    case CheckResult::superseded: return "superseded";
  }
  return "?";
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::proved: return "proved";
    case Verdict::refuted: return "refuted";
    case Verdict::dispatch_failed: return "dispatch_failed";
    case Verdict::unknown: return "unknown";
  }
  return "?";
}

std::string_view check_kind_name(CheckKind kind) { return row(kind).name; }

std::string CheckId::name() const {
  const CheckKindRow& r = row(kind);
  return std::string(r.prefix) + subject + std::string(r.suffix);
}

std::string_view diagnosis_property_name(DiagnosisProperty property) {
  for (const PropertyRow& r : kProperties)
    if (r.property == property) return r.name;
  throw Error("internal: a diagnosis property without a row in report.cc");
}

}  // namespace mmacheck
