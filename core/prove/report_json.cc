#include "core/prove/report_json.h"

namespace mmacheck {

namespace {

Json element_json(const std::optional<Element>& e) { return e ? Json(*e) : Json(nullptr); }

Json mismatch_json(const Mismatch& m) {
  Json j = {
      {"lane", m.lane}, {"slot", m.slot}, {"expected", element_json(m.expected)}, {"actual", element_json(m.actual)}};
  if (m.warp) j["warp"] = *m.warp;
  return j;
}

}  // namespace

Json check_json(const CheckReport& c) {
  Json check = {{"name", c.check.name()},
                {"result", check_result_name(c.result)},
                {"method", proof_method_name(c.method)},
                {"ms", c.ms}};
  if (!c.solved) check["solved"] = false;
  if (!c.note.empty()) check["note"] = c.note;
  return check;
}

Json counterexample_json(const Counterexample& cx) {
  Json j = {{"check", cx.check.name()},
            {"lane", cx.lane},
            {"slot", cx.slot},
            {"expected", element_json(cx.expected)},
            {"actual", element_json(cx.actual)},
            {"operand", cx.operand}};
  if (cx.warp) j["warp"] = *cx.warp;
  if (cx.address_lane) j["address_lane"] = *cx.address_lane;
  if (cx.stmt) j["stmt"] = *cx.stmt;
  if (cx.tile) j["tile"] = *cx.tile;
  if (cx.element) j["element"] = *cx.element;
  if (cx.k) j["k"] = *cx.k;
  j["message"] = cx.message;
  if (!cx.summary.empty()) {
    j["summary"] = cx.summary;
    j["points"] = cx.points;
    Json all = Json::array();
    for (const Mismatch& m : cx.mismatches) all.push_back(mismatch_json(m));
    j["mismatches"] = std::move(all);
  }
  if (cx.fix) {
    j["fix"] = *cx.fix;
    j["fix_reason"] = cx.fix_reason;
  }
  return j;
}

Json diagnosis_json(const Diagnosis& d) {
  Json cx = nullptr;
  if (d.counterexample) {
    const Counterexample& c = *d.counterexample;
    cx = {{"lane", c.lane},
          {"slot", c.slot},
          {"expected", element_json(c.expected)},
          {"actual", element_json(c.actual)},
          {"message", c.message}};
    if (c.warp) cx["warp"] = *c.warp;
  }
  return {{"instruction", d.instruction.empty() ? Json(nullptr) : Json(d.instruction)},
          {"operand", d.operand.empty() ? Json(nullptr) : Json(d.operand)},
          {"property", diagnosis_property_name(d.property)},
          {"message", d.message},
          {"counterexample", std::move(cx)},
          {"fix", d.fix ? Json(*d.fix) : Json(nullptr)},
          {"fix_line", d.fix ? Json(d.fix_line) : Json(nullptr)},
          {"fix_reason", d.fix_reason},
          {"fix_proves", d.fix_proves}};
}

Json bank_json(const BankCount& b) {
  Json conflicts = Json::array();
  for (const BankPhase& p : b.conflicts)
    conflicts.push_back({{"instruction", p.instruction},
                         {"phase", p.phase},
                         {"wavefronts", p.wavefronts},
                         {"bank", p.bank},
                         {"lanes", p.lanes}});
  return {
      {"statement", b.statement},   {"shared", b.shared}, {"line", b.line},     {"instructions", b.instructions},
      {"wavefronts", b.wavefronts}, {"ideal", b.ideal},   {"extra", b.extra()}, {"conflicts", std::move(conflicts)}};
}

Json report_json(const ProofReport& r) {
  Json checks = Json::array();
  for (const CheckReport& c : r.checks) checks.push_back(check_json(c));
  Json counterexamples = Json::array();
  for (const Counterexample& cx : r.counterexamples) counterexamples.push_back(counterexample_json(cx));
  Json diagnosis = Json::array();
  for (const Diagnosis& d : r.diagnosis) diagnosis.push_back(diagnosis_json(d));
  Json out = {{"verdict", verdict_name(r.verdict)},
              {"instruction", r.inst ? Json(r.inst->ptx()) : Json(nullptr)},
              {"tiles", {{"M", r.tiles_m}, {"N", r.tiles_n}, {"K", r.tiles_k}}},
              {"mma_count", r.mma_count},
              {"reasons", r.reasons},
              {"checks", std::move(checks)},
              {"counterexamples", std::move(counterexamples)},
              {"diagnosis", std::move(diagnosis)},
              {"notes", r.notes}};
  if (!r.bank_conflicts.empty()) {
    Json banks = Json::array();
    for (const BankCount& b : r.bank_conflicts) banks.push_back(bank_json(b));
    out["bank_conflicts"] = std::move(banks);
    out["extra_wavefronts"] = r.extra_wavefronts();
  }
  return out;
}

}  // namespace mmacheck
