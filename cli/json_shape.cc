#include "cli/json_shape.h"

#include "cli/error_report.h"

namespace mmacheck::cli {

Json file_json(const std::string& file, const Json& body) {
  Json out = {{"file", file.empty() ? Json(nullptr) : Json(file)}};
  out["verdict"] = body.contains("verdict") ? body["verdict"] : Json(nullptr);
  for (const auto& [key, value] : body.items())
    if (key != "file" && key != "verdict" && key != "notes") out[key] = value;
  out["notes"] = body.contains("notes") ? body["notes"] : Json::array();
  return out;
}

Json bad_input_json(const std::string& file, const Error& e) {
  const Json error = error_json(e);
  const std::string from_error = error["file"].is_string() ? error["file"].get<std::string>() : "";
  return file_json(file.empty() ? from_error : file, {{"verdict", "bad input"}, {"error", error}});
}

Json mismatch_json(std::int64_t case_index, std::string_view distribution, int row, int col,
                   const std::string& expected, const std::string& got) {
  return {{"case", case_index}, {"distribution", distribution}, {"row", row},
          {"col", col},         {"expected", expected},         {"got", got}};
}

}  // namespace mmacheck::cli
