#include "core/triton/triton_dot.h"

namespace mmacheck {

namespace {

std::string key_text(const Json& entry, const char* key, const std::string& where, const SourceLoc& loc) {
  if (!entry.contains(key) || !entry[key].is_string())
    throw Error(loc, where + ": \"" + key + "\" must be a string");
  return entry[key].get<std::string>();
}

}  // namespace

std::vector<TritonDotOperand> read_triton_file(const std::string& text, const std::string& file) {
  const Json j = parse_json(text, file);
  const SourceLoc loc{file, 0, 0};
  if (!j.is_object() || !j.contains("operands") || !j["operands"].is_array())
    throw Error(loc, "expected an object with an \"operands\" list");
  std::vector<TritonDotOperand> out;
  for (std::size_t i = 0; i < j["operands"].size(); ++i) {
    const Json& e = j["operands"][i];
    const std::string where = "operands[" + std::to_string(i) + "]";
    if (!e.is_object()) throw Error(loc, where + " is not an object");
    TritonDotOperand op;
    op.name = e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : where;
    const std::string role = key_text(e, "operand", where, loc);
    if (role == "acc") op.role = TritonRole::acc;
    else if (role == "a") op.role = TritonRole::a;
    else if (role == "b") op.role = TritonRole::b;
    else throw Error(loc, where + ": operand '" + role + "' is not acc, a or b");
    const std::string dtype = key_text(e, "dtype", where, loc);
    const std::optional<DType> t = parse_dtype(dtype);
    if (!t) throw Error(loc, where + ": unknown dtype '" + dtype + "'");
    op.dtype = *t;
    if (op.role != TritonRole::acc) {
      if (!e.contains("k_width") || !e["k_width"].is_number_integer() || e["k_width"].get<int>() < 1)
        throw Error(loc, where + ": a dot operand needs \"k_width\" (a positive integer)");
      op.k_width = e["k_width"].get<int>();
    }
    if (e.contains("group")) op.group = key_text(e, "group", where, loc);
    if (!e.contains("layout")) throw Error(loc, where + ": no \"layout\"");
    const Json& layout = e["layout"];
    op.layout = layout.is_string() ? parse_triton_layout(layout.get<std::string>(), file + " " + where)
                                   : triton_layout_from_json(layout, SourceLoc{file + " " + where, 0, 0});
    out.push_back(std::move(op));
  }
  return out;
}

}  // namespace mmacheck
