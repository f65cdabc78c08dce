#include "core/tma/tma_report_json.h"

#include "core/wgmma/wgmma_report_json.h"

namespace mmacheck {

Json tma_report_json(const TmaReport& r) {
  Json counterexample = nullptr;
  if (const auto& m = r.counterexample)
    counterexample = Json{{"i", m->i},
                          {"k", m->k},
                          {"read", m->read},
                          {"written", m->written ? Json(*m->written) : Json(nullptr)},
                          {"box", m->box},
                          {"global", m->global},
                          {"found", m->found ? Json(*m->found) : Json(nullptr)}};
  Json fixes = Json::array();
  for (const WgmmaFix& f : r.fixes)
    fixes.push_back(Json{{"fields", f.fields},
                         {"major", std::string(major_name(f.major))},
                         {"descriptor", descriptor_json(f.descriptor)}});
  return Json{{"name", r.name},
              {"instruction", r.instruction},
              {"tensor_map", r.tensor_map},
              {"descriptor", descriptor_json(r.descriptor)},
              {"result", std::string(verdict_name(r.result))},
              {"fields", r.fields},
              {"counterexample", counterexample},
              {"mismatches", r.mismatches},
              {"fixes", fixes},
              {"message", r.message},
              {"notes", r.notes}};
}

}  // namespace mmacheck
