#include "core/triton/triton_report_json.h"

namespace mmacheck {

std::string_view triton_role_name(TritonRole r) {
  switch (r) {
    case TritonRole::acc: return "acc";
    case TritonRole::a: return "a";
    case TritonRole::b: return "b";
  }
  return "?";
}

Json triton_report_json(const TritonReport& r) {
  Json zero = Json::array();
  for (const auto& [dim, b] : r.zero_bases) zero.push_back({{"dim", dim}, {"basis", b}});
  Json cex = nullptr;
  if (r.counterexample)
    cex = {{"register", r.counterexample->reg},
           {"lane", r.counterexample->lane},
           {"warp", r.counterexample->warp},
           {"coordinate", r.counterexample->coordinate},
           {"ptx", r.counterexample->ptx}};
  return {{"name", r.name},
          {"operand", std::string(triton_role_name(r.role))},
          {"instruction", r.instruction.empty() ? Json(nullptr) : Json(r.instruction)},
          {"result", std::string(verdict_name(r.result))},
          {"counterexample", std::move(cex)},
          {"zero_bases", std::move(zero)},
          {"k_permutation", r.k_permutation.empty() ? Json(nullptr) : Json(r.k_permutation)},
          {"message", r.message}};
}

}  // namespace mmacheck
