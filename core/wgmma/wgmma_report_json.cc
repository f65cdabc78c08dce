#include "core/wgmma/wgmma_report_json.h"

#include "core/base/hex.h"

namespace mmacheck {

Json descriptor_json(const MatrixDescriptor& d) {
  return Json{{"bits", hex(d.encode())},
              {"start", d.start},
              {"lbo", d.lbo},
              {"sbo", d.sbo},
              {"base_offset", d.base_offset},
              {"swizzle", std::string(swizzle_mode(d.swizzle).name)}};
}

Json wgmma_report_json(const WgmmaReport& r) {
  Json counterexample = nullptr;
  if (r.counterexample)
    counterexample = Json{{"i", r.counterexample->i},
                          {"k", r.counterexample->k},
                          {"read", r.counterexample->read},
                          {"placed", r.counterexample->placed}};
  Json fixes = Json::array();
  for (const WgmmaFix& f : r.fixes)
    fixes.push_back(Json{{"fields", f.fields},
                         {"major", std::string(major_name(f.major))},
                         {"descriptor", descriptor_json(f.descriptor)}});
  return Json{{"name", r.name},
              {"operand", std::string(1, r.operand.operand)},
              {"instruction", r.instruction},
              {"dtype", std::string(r.operand.type->name)},
              {"major", std::string(major_name(r.operand.major))},
              {"descriptor", descriptor_json(r.descriptor)},
              {"result", std::string(verdict_name(r.result))},
              {"counterexample", counterexample},
              {"mismatches", r.mismatches},
              {"fixes", fixes},
              {"message", r.message}};
}

}  // namespace mmacheck
