#include "core/ptx/ptx_launch.h"

#include <bit>
#include <filesystem>
#include <limits>
#include <set>

#include "core/base/file_io.h"
#include "core/base/json_source.h"
#include "core/program/dtype.h"

namespace mmacheck::ptx {

namespace {

constexpr std::int64_t kMaxElements = std::int64_t{1} << 31;     // per tensor: 2^31 elements
constexpr std::int64_t kMaxLaunchBytes = std::int64_t{1} << 28;  // all tensors: 256 MiB

class LaunchReader {
 public:
  LaunchReader(std::string_view text, const std::string& file) : src_(text, file) {}

  PtxLaunch read() {
    const Json& v = src_.value();
    if (!v.is_object()) throw Error(src_.at(""), "a launch file is a JSON object");
    PtxLaunch l;
    l.file = src_.file();
    for (const auto& [key, value] : v.items()) {
      const std::string at = JsonSource::child("", key);
      if (key == "kernel") {
        if (!value.is_string()) throw Error(src_.at(at), "\"kernel\" is a name");
        l.kernel = value.get<std::string>();
        l.kernel_loc = src_.at(at);
      } else if (key == "grid") {
        l.shape.grid = dims(value, at, 1 << 20);
      } else if (key == "block") {
        l.shape.block = dims(value, at, 1024);
        l.block_given = true;
      } else if (key == "dynamic_shared") {
        l.shape.dynamic_shared = integer(value, at, 0, 232448);  // sm_90's most per CTA
      } else if (key == "params" || key == "gemm" || key == "tensors") {
        continue;
      } else {
        throw Error(src_.at(at), "unknown key \"" + printable(key) +
                                     "\" (kernel, grid, block, dynamic_shared, params, tensors, gemm)");
      }
    }
    if (!v.contains("params")) throw Error(src_.at(""), "a launch file needs \"params\"");
    params(l, v["params"], "/params", true);
    if (v.contains("tensors")) params(l, v["tensors"], "/tensors", false);
    for (TensorMapSpec& m : l.tensor_maps) bind_map(l, m);
    gemm(l, v.contains("gemm") ? &v["gemm"] : nullptr);
    std::int64_t threads = 1;
    for (const int b : l.shape.block) threads *= b;
    if (threads > 1024) throw Error(src_.at("/block"), "a block of more than 1024 threads");
    return l;
  }

 private:
  std::int64_t integer(const Json& v, const std::string& at, std::int64_t lo, std::int64_t hi) {
    if (!v.is_number_integer()) throw Error(src_.at(at), "expected an integer");
    const std::int64_t n = v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)
                               ? hi + 1
                               : v.get<std::int64_t>();
    if (n < lo || n > hi)
      throw Error(src_.at(at), "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return n;
  }

  // {"tensor": .., "box": [..], "swizzle": .., ...}: all but the tensor's dims
  // and strides, which bind_map() takes from the tensor once every tensor is read.
  TensorMapSpec tensor_map(const Json& v, const std::string& at) {
    if (!v.is_object()) throw Error(src_.at(at), "a tensor map is an object: {\"tensor\": .., \"box\": [..], ..}");
    TensorMapSpec m;
    m.loc = src_.at(at);
    for (const auto& [key, value] : v.items()) {
      const std::string k = JsonSource::child(at, key);
      if (key == "tensor") {
        if (!value.is_string()) throw Error(src_.at(k), "the tensor the map copies from, by name");
        m.tensor = value.get<std::string>();
      } else if (key == "dtype") {
        if (!value.is_string() || find_tma_type(value.get<std::string>()) == nullptr)
          throw Error(src_.at(k), "a CUtensorMapDataType (float16, bfloat16, float32, uint8, ...)");
        m.map.dtype = find_tma_type(value.get<std::string>());
      } else if (key == "box" || key == "element_strides") {
        if (!value.is_array() || value.empty() || value.size() > 5)
          throw Error(src_.at(k), "1 to 5 integers, innermost first");
        auto& out = key == "box" ? m.map.box : m.map.element_strides;
        for (std::size_t i = 0; i < value.size(); ++i)
          out.push_back(integer(value[i], JsonSource::child(k, i), 1, key == "box" ? 256 : 8));
      } else if (key == "swizzle") {
        const SwizzleModeRow* s = value.is_string() ? find_swizzle_mode(value.get<std::string>()) : nullptr;
        if (s == nullptr || value.get<std::string>() == "interleave")
          throw Error(src_.at(k), "a swizzle: \"none\", \"32B\", \"64B\" or \"128B\"");
        m.map.swizzle = s->mode;
      } else if (key == "interleave") {
        const std::string i = value.is_string() ? value.get<std::string>() : "";
        if (i != "none" && i != "16B" && i != "32B")
          throw Error(src_.at(k), "an interleave: \"none\", \"16B\" or \"32B\"");
        m.map.interleave = i == "none" ? TmaInterleave::none : i == "16B" ? TmaInterleave::b16 : TmaInterleave::b32;
      } else if (key == "l2_promotion") {
        const std::string i = value.is_string() ? value.get<std::string>() : "";
        if (i != "none" && i != "64B" && i != "128B" && i != "256B")
          throw Error(src_.at(k), "an L2 promotion: \"none\", \"64B\", \"128B\" or \"256B\"");
        m.l2_promotion = i == "none" ? 0 : i == "64B" ? 1 : i == "128B" ? 2 : 3;
      } else if (key == "oob_fill") {
        const std::string i = value.is_string() ? value.get<std::string>() : "";
        if (i == "nan")
          throw Error(src_.at(k), "oob_fill \"nan\" (NAN_REQUEST_ZERO_FMA) is not modelled by the PTX machine");
        if (i != "none") throw Error(src_.at(k), "an OOB fill: \"none\" (zeros) or \"nan\"");
      } else {
        throw Error(src_.at(k), "unknown key \"" + printable(key) +
                                    "\" of a tensor map (tensor, dtype, box, element_strides, interleave, swizzle, "
                                    "l2_promotion, oob_fill)");
      }
    }
    if (m.tensor.empty()) throw Error(m.loc, "a tensor map needs the \"tensor\" it copies from");
    if (m.map.box.empty()) throw Error(m.loc, "a tensor map needs its \"box\" (innermost first)");
    return m;
  }

  // The map's dims and strides from its tensor; the driver's rules checked.
  void bind_map(const PtxLaunch& l, TensorMapSpec& m) {
    for (std::size_t i = 0; i < l.tensors.size(); ++i)
      if (l.tensors[i].name == m.tensor) m.tensor_index = static_cast<int>(i);
    if (m.tensor_index < 0)
      throw Error(m.loc, "no tensor named \"" + printable(m.tensor) + "\" (a parameter's or one of \"tensors\")");
    const TensorArg& t = l.tensors[static_cast<std::size_t>(m.tensor_index)];
    const TmaType* own = find_tma_type(dtype_info(t.dtype).tvm);
    if (own == nullptr) throw Error(m.loc, "tensor \"" + printable(t.name) + "\" has no CUtensorMapDataType");
    if (m.map.dtype != nullptr && m.map.dtype->bytes != own->bytes)
      throw Error(m.loc, "the map's dtype " + std::string(m.map.dtype->name) + " is not tensor \"" + printable(t.name) +
                             "\"'s " + std::string(own->name));
    if (m.map.dtype == nullptr) m.map.dtype = own;
    if (m.map.box.size() != t.shape.size())
      throw Error(m.loc, "a box of " + std::to_string(m.map.box.size()) + " dims for tensor \"" + printable(t.name) +
                             "\" of " + std::to_string(t.shape.size()));
    if (t.strides.back() != 1)
      throw Error(m.loc, "tensor \"" + printable(t.name) + "\"'s innermost stride is not 1 (a tensor map's is)");
    const TensorMap placed = tensor_map_of(l, m, 0);
    if (const auto problems = placed.problems(); !problems.empty())
      throw Error(m.loc, "cuTensorMapEncodeTiled refuses the map: " + problems.front());
  }

  std::array<int, 3> dims(const Json& v, const std::string& at, std::int64_t max) {
    std::array<int, 3> out{1, 1, 1};
    if (v.is_number_integer()) {
      out[0] = static_cast<int>(integer(v, at, 1, max));
      return out;
    }
    if (!v.is_array() || v.empty() || v.size() > 3) throw Error(src_.at(at), "expected 1 to 3 positive integers");
    for (std::size_t i = 0; i < v.size(); ++i)
      out[i] = static_cast<int>(integer(v[i], JsonSource::child(at, i), 1, max));
    return out;
  }

  // `params` (one entry per .param) or `tensors` (tensors of the gemm the
  // kernel is not given: placed, never addressed).
  void params(PtxLaunch& l, const Json& v, const std::string& at, bool bound) {
    if (!v.is_array())
      throw Error(src_.at(at),
                  bound ? "\"params\" is a list, one entry per .param" : "\"tensors\" is a list of tensors");
    std::set<std::string>& names = names_;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string p = JsonSource::child(at, i);
      const Json& e = v[i];
      if (!e.is_object()) throw Error(src_.at(p), "a parameter is {\"tensor\": ...} or {\"value\": ...}");
      ParamBinding b;
      b.loc = src_.at(p);
      if (e.contains("tensor_map") && bound) {
        if (e.size() != 1) throw Error(src_.at(p), "a tensor-map parameter is {\"tensor_map\": {...}}");
        b.tensor_map = static_cast<int>(l.tensor_maps.size());
        l.tensor_maps.push_back(tensor_map(e["tensor_map"], p + "/tensor_map"));
        l.params.push_back(b);
        continue;
      }
      b.loc = src_.at(p);
      if (e.contains("tensor")) {
        for (const auto& [key, _] : e.items())
          if (key != "tensor" && key != "dtype" && key != "shape" && key != "strides")
            throw Error(src_.at(JsonSource::child(p, key)),
                        "unknown key \"" + printable(key) + "\" of a tensor (tensor, dtype, shape, strides)");
        TensorArg t;
        if (!e["tensor"].is_string() || e["tensor"].get<std::string>().empty())
          throw Error(src_.at(p + "/tensor"), "a tensor's name is a string");
        t.name = e["tensor"].get<std::string>();
        if (!names.insert(t.name).second)
          throw Error(src_.at(p + "/tensor"), "tensor \"" + printable(t.name) + "\" given twice");
        if (!e.contains("dtype") || !e["dtype"].is_string()) throw Error(src_.at(p), "a tensor needs a \"dtype\"");
        const auto dt = parse_dtype(e["dtype"].get<std::string>());
        if (!dt || dtype_bits(*dt) < 8)
          throw Error(src_.at(p + "/dtype"),
                      "unknown or sub-byte dtype \"" + printable(e["dtype"].get<std::string>()) + "\"");
        t.dtype = *dt;
        if (!e.contains("shape") || !e["shape"].is_array() || e["shape"].empty() || e["shape"].size() > 4)
          throw Error(src_.at(p), "a tensor needs a \"shape\" of 1 to 4 extents");
        std::int64_t elems = 1;
        for (std::size_t d = 0; d < e["shape"].size(); ++d) {
          t.shape.push_back(integer(e["shape"][d], JsonSource::child(p + "/shape", d), 1, kMaxElements));
          elems *= t.shape.back();
          if (elems > kMaxElements) throw Error(src_.at(p + "/shape"), "a tensor of more than 2^31 elements");
        }
        if (e.contains("strides")) {
          const Json& s = e["strides"];
          if (!s.is_array() || s.size() != t.shape.size())
            throw Error(src_.at(p + "/strides"), "one stride per extent");
          for (std::size_t d = 0; d < s.size(); ++d)
            t.strides.push_back(integer(s[d], JsonSource::child(p + "/strides", d), 0, kMaxElements));
        } else {
          t.strides.assign(t.shape.size(), 1);
          for (std::size_t d = t.shape.size() - 1; d > 0; --d) t.strides[d - 1] = t.strides[d] * t.shape[d];
        }
        if (t.storage_elements() > kMaxElements) throw Error(src_.at(p), "a tensor spanning more than 2^31 elements");
        total_bytes_ += t.storage_elements() * t.element_bytes();
        if (total_bytes_ > kMaxLaunchBytes)
          throw Error(src_.at(p), "the launch's tensors hold more than 256 MiB, more than the CPU run takes");
        b.tensor = static_cast<int>(l.tensors.size());
        l.tensors.push_back(std::move(t));
        l.tensor_locs.push_back(src_.at(p));
      } else if (e.contains("value") && bound) {
        if (e.size() != 1) throw Error(src_.at(p), "a value parameter is {\"value\": N}");
        const Json& n = e["value"];
        if (n.is_number_integer()) {
          b.bits = n.is_number_unsigned() ? n.get<std::uint64_t>() : static_cast<std::uint64_t>(n.get<std::int64_t>());
        } else if (n.is_number_float()) {
          b.bits = std::bit_cast<std::uint64_t>(n.get<double>());
          b.tensor = -2;  // a float, typed at binding
        } else {
          throw Error(src_.at(p + "/value"), "a value is a number");
        }
      } else {
        throw Error(src_.at(p), bound ? "a parameter is {\"tensor\": ...} or {\"value\": ...}"
                                      : "an entry of \"tensors\" is {\"tensor\": ...}");
      }
      if (bound) l.params.push_back(b);
    }
  }

  int find_tensor(const PtxLaunch& l, const Json& v, const std::string& at) {
    if (!v.is_string()) throw Error(src_.at(at), "a tensor's name");
    for (std::size_t i = 0; i < l.tensors.size(); ++i)
      if (l.tensors[i].name == v.get<std::string>()) return static_cast<int>(i);
    throw Error(src_.at(at), "no tensor parameter named \"" + printable(v.get<std::string>()) + "\"");
  }

  void gemm(PtxLaunch& l, const Json* g) {
    const auto by_name = [&](std::string_view n) {
      for (std::size_t i = 0; i < l.tensors.size(); ++i)
        if (l.tensors[i].name == n) return static_cast<int>(i);
      return -1;
    };
    if (g == nullptr) {
      l.d = by_name("D");
      l.a = by_name("A");
      l.b = by_name("B");
      l.c = by_name("C");
      if (l.d < 0 || l.a < 0 || l.b < 0)
        throw Error(src_.at(""),
                    "no \"gemm\": name the tensors D, A and B, or give {\"gemm\": {\"D\": .., \"A\": .., \"B\": ..}}");
    } else {
      if (!g->is_object()) throw Error(src_.at("/gemm"), "\"gemm\" is {\"D\": .., \"A\": .., \"B\": .., \"C\": ..}");
      for (const auto& [key, value] : g->items()) {
        const std::string at = JsonSource::child("/gemm", key);
        if (key == "D") l.d = find_tensor(l, value, at);
        else if (key == "A") l.a = find_tensor(l, value, at);
        else if (key == "B") l.b = find_tensor(l, value, at);
        else if (key == "C" && value.is_number()) l.c_scalar = value.get<double>();
        else if (key == "C") l.c = find_tensor(l, value, at);
        else throw Error(src_.at(at), "unknown key \"" + printable(key) + "\" of \"gemm\" (D, A, B, C)");
      }
      if (l.d < 0 || l.a < 0 || l.b < 0) throw Error(src_.at("/gemm"), "\"gemm\" names D, A and B");
    }
    const auto& D = l.tensors[static_cast<std::size_t>(l.d)];
    const auto& A = l.tensors[static_cast<std::size_t>(l.a)];
    const auto& B = l.tensors[static_cast<std::size_t>(l.b)];
    const SourceLoc at = src_.at(g != nullptr ? "/gemm" : "");
    if (D.shape.size() != 2 || A.shape.size() != 2 || B.shape.size() != 2)
      throw Error(at, "the gemm's D, A and B are 2-D tensors (batched gemms are not modelled yet)");
    if (A.shape[1] != B.shape[0] || D.shape[0] != A.shape[0] || D.shape[1] != B.shape[1])
      throw Error(at, "shapes do not make a gemm: D " + std::to_string(D.shape[0]) + "x" + std::to_string(D.shape[1]) +
                          ", A " + std::to_string(A.shape[0]) + "x" + std::to_string(A.shape[1]) + ", B " +
                          std::to_string(B.shape[0]) + "x" + std::to_string(B.shape[1]) +
                          " (A is M x K, B is K x N, D is M x N)");
    if (l.c >= 0 && l.tensors[static_cast<std::size_t>(l.c)].shape != D.shape) throw Error(at, "C's shape is not D's");
    std::set<int> roles{l.d, l.a, l.b};
    if (roles.size() != 3 || (l.c >= 0 && roles.contains(l.c)))
      throw Error(at, "D, A, B and C are four different tensors");
  }

  JsonSource src_;
  std::set<std::string> names_;
  std::int64_t total_bytes_ = 0;
};

}  // namespace

PtxLaunch read_launch(std::string_view text, const std::string& file) { return LaunchReader(text, file).read(); }

TensorMap tensor_map_of(const PtxLaunch& launch, const TensorMapSpec& spec, std::uint64_t base) {
  const TensorArg& t = launch.tensors[static_cast<std::size_t>(spec.tensor_index)];
  TensorMap m = spec.map;
  m.dims.assign(t.shape.rbegin(), t.shape.rend());
  m.strides.clear();
  for (std::size_t d = t.shape.size() - 1; d-- > 0;) m.strides.push_back(t.strides[d] * t.element_bytes());
  m.address = static_cast<std::int64_t>(base);
  return m;
}

const PtxKernel& bind_launch(PtxLaunch& launch, const PtxModule& module) {
  const SourceLoc at{launch.file, 1, 1};
  const PtxKernel* kernel = nullptr;
  if (launch.kernel.empty()) {
    if (module.kernels.size() != 1)
      throw Error(at, module.kernels.empty() ? std::string("the module has no .entry kernel")
                                             : "the module has " + std::to_string(module.kernels.size()) +
                                                   " kernels: name one with \"kernel\" or --kernel");
    kernel = &module.kernels[0];
  } else {
    for (const PtxKernel& k : module.kernels)
      if (k.name == launch.kernel) kernel = &k;
    if (kernel == nullptr) {
      std::string names;
      for (const PtxKernel& k : module.kernels) names += (names.empty() ? "" : ", ") + k.name;
      throw Error(launch.kernel_loc, std::string(launch.kernel_loc.file.empty() ? "--kernel: " : "") +
                                         "the module has no kernel \"" + printable(launch.kernel) + "\" (it has " +
                                         (names.empty() ? "none" : names) + ")");
    }
  }
  if (launch.params.size() != kernel->params.size())
    throw Error(at, "kernel " + kernel->name + " takes " + std::to_string(kernel->params.size()) +
                        " parameters; the launch gives " + std::to_string(launch.params.size()));
  for (std::size_t i = 0; i < launch.params.size(); ++i) {
    ParamBinding& b = launch.params[i];
    const Symbol& s = kernel->symbols[static_cast<std::size_t>(kernel->params[i])];
    if (b.tensor_map >= 0) {
      if (s.bytes != 128)
        throw Error(b.loc, "parameter " + s.name + " is not a CUtensorMap (.param .align 64 .b8 " + s.name +
                               "[128]): a tensor map is passed by value");
      continue;
    }
    if (s.bytes == 128 && s.type.bits == 8)
      throw Error(b.loc, "parameter " + s.name + " is a CUtensorMap (128 bytes): give it as {\"tensor_map\": {...}}");
    if (b.tensor >= 0) {
      if (s.type.bits != 64 || !s.type.is_int())
        throw Error(b.loc, "parameter " + s.name + " is ." + std::string(type_name(s.type)) + ", not a pointer (.u64)");
      continue;
    }
    if (s.bytes > 8)
      throw Error(b.loc, "parameter " + s.name + " is an array of " + std::to_string(s.bytes) + " bytes, not modelled");
    if (b.tensor == -2) {  // a float
      const double d = std::bit_cast<double>(b.bits);
      if (s.type.kind != TypeKind::f)
        throw Error(b.loc, "parameter " + s.name + " is ." + std::string(type_name(s.type)) + ": an integer");
      b.bits =
          s.type.bits == 64 ? std::bit_cast<std::uint64_t>(d) : std::bit_cast<std::uint32_t>(static_cast<float>(d));
      b.tensor = -1;
    } else if (s.type.kind == TypeKind::f) {
      const auto d = static_cast<double>(static_cast<std::int64_t>(b.bits));
      b.bits =
          s.type.bits == 64 ? std::bit_cast<std::uint64_t>(d) : std::bit_cast<std::uint32_t>(static_cast<float>(d));
    } else if (s.type.bits < 64) {
      const auto v = static_cast<std::int64_t>(b.bits);
      const std::int64_t lo = -(std::int64_t{1} << (s.type.bits - 1)), hi = (std::int64_t{1} << s.type.bits) - 1;
      if (v < lo || v > hi)
        throw Error(b.loc, "value " + std::to_string(v) + " does not fit parameter " + s.name + " (." +
                               std::string(type_name(s.type)) + ")");
      b.bits &= (std::uint64_t{1} << s.type.bits) - 1;
    }
  }
  for (const Symbol& s : kernel->symbols)
    if (s.space == Space::shared && s.external && launch.shape.dynamic_shared == 0)
      throw Error(at, "kernel " + kernel->name + " addresses the .extern .shared array '" + s.name +
                          "': give its size as \"dynamic_shared\" (Triton: the compiled kernel's metadata.shared)");
  if (kernel->static_shared + launch.shape.dynamic_shared > 232448)
    throw Error(at, "static and dynamic shared memory together exceed a CTA's 232448 bytes (sm_90)");
  if (!launch.block_given) {
    if (kernel->reqntid[0] == 0) throw Error(at, "no \"block\" and the kernel has no .reqntid");
    launch.shape.block = kernel->reqntid;
  }
  if (kernel->reqntid[0] != 0 && launch.shape.block != kernel->reqntid)
    throw Error(at, "the block differs from the kernel's .reqntid");
  if (kernel->maxntid[0] != 0 && launch.shape.block[0] * launch.shape.block[1] * launch.shape.block[2] >
                                     kernel->maxntid[0] * kernel->maxntid[1] * kernel->maxntid[2])
    throw Error(at, "the block exceeds the kernel's .maxntid");
  return *kernel;
}

PtxLaunch read_launch_for(const std::string& kernel_path, const LaunchChoice& choice) {
  std::string path = choice.file;
  if (path.empty()) {
    if (kernel_path == "-")
      throw Error(SourceLoc{"<stdin>", 0, 0},
                  "a kernel read from standard input needs its launch file named (--launch FILE)");
    path = launch_path_for(kernel_path);
    if (!std::filesystem::is_regular_file(path))
      throw Error(SourceLoc{kernel_path, 1, 1},
                  "no launch file '" + path +
                      "' beside the kernel (or --launch FILE): it gives the grid, the block and a tensor or value "
                      "for each parameter (docs/ptx.md)");
  }
  PtxLaunch l = read_launch(read_text_file(path), path);
  if (!choice.kernel.empty()) {
    l.kernel = choice.kernel;
    l.kernel_loc = SourceLoc{};
  }
  const auto checked = [](const std::array<int, 3>& d, std::int64_t max, const char* option) {
    for (const int x : d)
      if (x < 1 || x > max) throw Error(std::string(option) + ": each number is 1.." + std::to_string(max));
    return d;
  };
  if (choice.grid) l.shape.grid = checked(*choice.grid, 1 << 20, "--grid");
  if (choice.block) {
    l.shape.block = checked(*choice.block, 1024, "--block");
    if (std::int64_t{l.shape.block[0]} * l.shape.block[1] * l.shape.block[2] > 1024)
      throw Error("--block: a block of more than 1024 threads");
    l.block_given = true;
  }
  if (choice.dynamic_shared) {
    if (*choice.dynamic_shared < 0 || *choice.dynamic_shared > 232448)
      throw Error("--dynamic-shared: bytes in 0..232448 (sm_90's most per CTA)");
    l.shape.dynamic_shared = *choice.dynamic_shared;
  }
  return l;
}

std::string launch_path_for(const std::string& kernel_path) {
  std::string base = kernel_path;
  for (const std::string_view ext : {".ptx", ".cu"})
    if (base.size() > ext.size() && base.ends_with(ext)) base.resize(base.size() - ext.size());
  return base + ".launch.json";
}

}  // namespace mmacheck::ptx
