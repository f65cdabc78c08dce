#include "core/triton/triton_dot.h"

#include <algorithm>
#include <set>

namespace mmacheck {

namespace {

// Triton's names for element types (triton.language: fp16, fp8e4nv, int8,
// ...; TTGIR's MLIR names: f8E4M3FN, i8, ...), beside mmacheck's own (TVM's
// and PTX's, core/program/dtype.cc).  fp32 is listed so that an fp32
// operand gets its own message: mma.sync reads fp32 only as tf32.
struct TritonDType {
  std::string_view name;
  DType type;
};
constexpr TritonDType kTritonDTypes[] = {
    {"fp16", DType::f16},     {"bf16", DType::bf16},  {"fp32", DType::f32}, {"fp64", DType::f64},
    {"fp8e4nv", DType::e4m3}, {"fp8e5", DType::e5m2}, {"int8", DType::s8},  {"i8", DType::s8},
    {"uint8", DType::u8},     {"int32", DType::s32},  {"i32", DType::s32},  {"f8E4M3FN", DType::e4m3},
    {"f8E5M2", DType::e5m2},
};

// Triton's fp8 formats no NVIDIA mma.sync takes (Triton converts them first).
constexpr std::string_view kNoMmaTypes[] = {"fp8e4b15", "fp8e4b8", "fp8e5b16", "f8E4M3FNUZ", "f8E5M2FNUZ"};

std::optional<DType> triton_dtype(std::string_view name) {
  for (const TritonDType& t : kTritonDTypes)
    if (t.name == name) return t.type;
  return parse_dtype(name);
}

bool one_of(const std::string& key, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (key == k) return true;
  return false;
}

// One entry of "operands", with the positions of its values.
struct EntryReader {
  const JsonSource& src;
  const Json& e;
  std::string pointer;

  SourceLoc at(const char* key) const { return src.at(JsonSource::child(pointer, key)); }
  std::string text(const char* key) const {
    if (!e.contains(key)) throw Error(src.at(pointer), std::string("no \"") + key + "\"");
    if (!e[key].is_string()) throw Error(at(key), std::string("\"") + key + "\" must be a string");
    return e[key].get<std::string>();
  }
  int small_int(const Json& v, const SourceLoc& where, const std::string& what) const {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > 1024 ||
        (v.is_number_unsigned() && v.get<std::uint64_t>() > 1024))
      throw Error(where, what + " must be a power of two in [1, 1024]");
    const int n = v.get<int>();
    if (n & (n - 1)) throw Error(where, what + " must be a power of two in [1, 1024], not " + std::to_string(n));
    return n;
  }
};

// A layout given as toString() text inside a JSON string: an error in the
// text is placed where its character stands in the file.
TritonLayout layout_text(const JsonSource& src, const std::string& pointer, const std::string& text) {
  try {
    return parse_triton_layout(text, src.file());
  } catch (const Error& e) {
    throw Error(src.in_string(pointer, std::max(e.loc().line, 1), std::max(e.loc().col, 1)), e.message());
  }
}

}  // namespace

std::vector<TritonDotOperand> read_triton_file(const std::string& text, const std::string& file) {
  const JsonSource src(text, file);
  const Json& j = src.value();
  if (!j.is_object() || !j.contains("operands") || !j["operands"].is_array())
    throw Error(src.at(""), "expected an object with an \"operands\" list");
  for (const auto& [key, value] : j.items())
    if (!one_of(key, {"operands", "producer", "command"}))
      throw Error(src.at(JsonSource::child("", key)),
                  "unknown key \"" + printable(key) + "\" (operands, producer, command)");
  std::vector<TritonDotOperand> out;
  std::set<std::string> names;
  for (std::size_t i = 0; i < j["operands"].size(); ++i) {
    const std::string pointer = JsonSource::child("/operands", i);
    const EntryReader r{src, j["operands"][i], pointer};
    const std::string where = "operands[" + std::to_string(i) + "]";
    if (!r.e.is_object()) throw Error(src.at(pointer), where + " is not an object");
    for (const auto& [key, value] : r.e.items())
      if (!one_of(key, {"name", "operand", "dtype", "k_width", "group", "warps_per_cta", "instr_shape", "layout"}))
        throw Error(r.at(key.c_str()),
                    "unknown key \"" + printable(key) +
                        "\" (name, operand, dtype, k_width, group, warps_per_cta, instr_shape, layout)");
    TritonDotOperand op;
    op.name = r.e.contains("name") ? r.text("name") : where;
    if (!names.insert(op.name).second)
      throw Error(r.e.contains("name") ? r.at("name") : src.at(pointer),
                  "a second layout named '" + printable(op.name) + "'");
    const std::string role = r.text("operand");
    if (role == "acc") op.role = TritonRole::acc;
    else if (role == "a") op.role = TritonRole::a;
    else if (role == "b") op.role = TritonRole::b;
    else throw Error(r.at("operand"), "operand '" + printable(role) + "' is not acc, a or b");
    const std::string dtype = r.text("dtype");
    for (std::string_view no : kNoMmaTypes)
      if (dtype == no)
        throw Error(r.at("dtype"),
                    "dtype '" + dtype + "' reaches no NVIDIA mma.sync (Triton converts it to fp16 first)");
    const std::optional<DType> t = triton_dtype(dtype);
    if (!t)
      throw Error(r.at("dtype"), "unknown dtype '" + printable(dtype) +
                                     "' (Triton's fp16, bf16, fp32, fp8e4nv, fp8e5, int8, uint8, int32, or f16, e4m3, "
                                     "s8, ...)");
    op.dtype = *t;
    // What mma.sync takes: D/C f32, s32 or f16 (no bf16 accumulator); A/B
    // f16, bf16, tf32, s8, u8, e4m3, e5m2 (fp32 only as tf32).
    const bool acc_type = *t == DType::f32 || *t == DType::s32 || *t == DType::f16;
    const bool operand_type = *t == DType::f16 || *t == DType::bf16 || *t == DType::tf32 || *t == DType::s8 ||
                              *t == DType::u8 || *t == DType::e4m3 || *t == DType::e5m2;
    if (op.role == TritonRole::acc ? !acc_type : !operand_type)
      throw Error(r.at("dtype"),
                  "dtype '" + dtype +
                      (op.role == TritonRole::acc
                           ? "' is no MMA v2 accumulator type (f32, s32, f16: mma.sync has no " + dtype + " D or C)"
                       : *t == DType::f32 ? "' is no MMA v2 operand type: fp32 reaches mma.sync only as tf32 "
                                            "(inputPrecision = tf32: give dtype tf32)"
                                          : "' is no MMA v2 operand type (f16, bf16, tf32, s8, u8, e4m3, e5m2)"));
    if (op.role != TritonRole::acc) {
      if (!r.e.contains("k_width")) throw Error(src.at(pointer), where + ": a dot operand needs \"k_width\"");
      op.k_width = r.small_int(r.e["k_width"], r.at("k_width"), "\"k_width\"");
      if (op.k_width > 16) throw Error(r.at("k_width"), "\"k_width\" is at most 16");
    } else if (r.e.contains("k_width")) {
      throw Error(r.at("k_width"), "an accumulator has no \"k_width\"");
    }
    if (r.e.contains("group")) op.group = r.text("group");
    if (!r.e.contains("layout")) throw Error(src.at(pointer), where + ": no \"layout\"");
    const std::string layout_at = JsonSource::child(pointer, "layout");
    op.layout = r.e["layout"].is_string() ? layout_text(src, layout_at, r.e["layout"].get<std::string>())
                                          : triton_layout_from_json(src, layout_at);
    if (r.e.contains("warps_per_cta")) {
      const Json& w = r.e["warps_per_cta"];
      const std::string w_at = JsonSource::child(pointer, "warps_per_cta");
      if (!w.is_array() || w.size() != 2)
        throw Error(src.at(w_at), "\"warps_per_cta\" is [M warps, N warps] (a 2-D MMA v2 parent)");
      const std::array<int, 2> warps{r.small_int(w[0], src.at(JsonSource::child(w_at, 0)), "warps_per_cta[0]"),
                                     r.small_int(w[1], src.at(JsonSource::child(w_at, 1)), "warps_per_cta[1]")};
      if (std::int64_t{warps[0]} * warps[1] != op.layout.in_size("warp"))
        throw Error(src.at(w_at), "warps_per_cta [" + std::to_string(warps[0]) + ", " + std::to_string(warps[1]) +
                                      "] is " + std::to_string(warps[0] * warps[1]) + " warps, the layout has " +
                                      std::to_string(op.layout.in_size("warp")));
      op.warps_per_cta = warps;
    }
    if (r.e.contains("instr_shape")) {
      const Json& v = r.e["instr_shape"];
      const std::string v_at = JsonSource::child(pointer, "instr_shape");
      if (op.role != TritonRole::acc) throw Error(src.at(v_at), "\"instr_shape\" is read for an accumulator only");
      if (!v.is_array() || v.size() != 3)
        throw Error(src.at(v_at), "\"instr_shape\" is [16, N, K] (an MMA v3 parent's wgmma tile per warp)");
      std::array<int, 3> shape{};
      for (std::size_t d = 0; d < 3; ++d)
        shape[d] = r.small_int(v[d], src.at(JsonSource::child(v_at, d)), "instr_shape[" + std::to_string(d) + "]");
      if (shape[0] != 16 || shape[1] % 8 || shape[1] < 8 || shape[1] > 256 || shape[2] < 8)
        throw Error(src.at(v_at), "\"instr_shape\" [16, N, K] needs N a multiple of 8 in 8..256 (wgmma's m64nNk)");
      op.instr_shape = shape;
    }
    out.push_back(std::move(op));
  }
  return out;
}

}  // namespace mmacheck
