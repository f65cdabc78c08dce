#include "core/ptx/ptx_report_json.h"

namespace mmacheck::ptx {

Json ptx_report_json(const PtxReport& r) {
  Json report{{"kernel", r.kernel}, {"grid", r.shape.grid}, {"block", r.shape.block}, {"m", r.m}, {"n", r.n},
              {"k", r.k},           {"steps", r.steps},     {"message", r.message}};
  if (r.finding) {
    report["line"] = r.finding->loc.line;
    report["column"] = r.finding->loc.col;
    report["cta"] = r.finding->cta;
    report["thread"] = r.finding->thread;
    if (!r.finding->source.file.empty())
      report["source"] = {
          {"file", r.finding->source.file}, {"line", r.finding->source.line}, {"column", r.finding->source.col}};
  }
  if (r.element) report["element"] = *r.element;
  Json unchecked = Json::array();
  if (r.verdict == FrameVerdict::unchecked) unchecked.push_back({{"reason", r.message}, {"count", 1}});
  return Json{{"verdict", verdict_name(r.verdict)}, {"ptx", std::move(report)}, {"unchecked", std::move(unchecked)}};
}

}  // namespace mmacheck::ptx
