#include "core/cute/cute_report_json.h"

namespace mmacheck {

namespace {

Json counterexample_json(const std::optional<CuteCounterexample>& cex) {
  if (!cex) return nullptr;
  const auto coord = [&](const std::array<std::int64_t, 2>& c) {
    return Json{{std::string(cex->axes[0]), c[0]}, {std::string(cex->axes[1]), c[1]}};
  };
  return {{"thread", cex->thread},
          {"value", cex->value},
          {"lane", cex->lane},
          {"index", cex->index},
          {"coordinate", cex->in_tile ? coord(cex->coordinate) : Json(nullptr)},
          {"ptx", coord(cex->ptx)}};
}

}  // namespace

Json cute_report_json(const CuteAtomReport& r) {
  Json operands = Json::array();
  for (const CuteOperandReport& o : r.operands)
    operands.push_back({{"operand", std::string(operand_name(o.operand))},
                        {"result", std::string(verdict_name(o.result))},
                        {"counterexample", counterexample_json(o.counterexample)},
                        {"message", o.message}});
  return {{"atom", r.atom},
          {"instruction", r.instruction ? Json(*r.instruction) : Json(nullptr)},
          {"operands", std::move(operands)},
          {"result", std::string(verdict_name(r.result))}};
}

}  // namespace mmacheck
