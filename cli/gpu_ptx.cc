// `mmacheck gpu FILE.ptx` (cli/input_kinds.cc's ptx row, cuda layer builds
// only): the launch of FILE.launch.json run --cases times on the device,
// the PTX loaded as it is through the driver (cuModuleLoadData compiles it
// for the device), each case's inputs the ones `sim FILE.ptx` draws
// (sim/ptx/ptx_sim.h), and D diffed bit for bit against the CPU machine's D
// on sim's --arch (default sm_90).  Text: "match" or "differ" with the first
// differing elements (row, column, CPU bits, device bits); --json {"verdict":
// "match" | "differ" | "no_gpu", "device", "cases", "mismatched_elements",
// "mismatches": [{case, row, col, expected, got}]}.  Exit 0 match, 1 differ,
// 3 no GPU.  A case the CPU machine refutes is not run on the device (a
// race or an access out of bounds may fault it): the file fails with the
// refutation, as sim does.
#include <iostream>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/kernel_source.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/hex.h"
#include "core/base/json.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "cuda/gpu_session.h"
#include "sim/ptx/ptx_sim.h"

namespace mmacheck::cli {

FileOutcome gpu_ptx_file(const std::string& path, const std::string& text, const KindOptions& options,
                         std::ostream& out) {
  const KernelPtx source = kernel_ptx(path, text);
  const ptx::PtxModule module = ptx::read_ptx(source.text, source.file);
  ptx::PtxLaunch launch = ptx::read_launch_for(path, options.launch);
  const ptx::PtxKernel& kernel = ptx::bind_launch(launch, module);
  // sm_100a modules (tcgen05) default to sm_100's arithmetic.
  const sim::ArchParams& arch =
      sim::arch_params(options.arch.value_or(module.target.starts_with("sm_100") ? "sm_100" : "sm_90"));
  const sim::InputSet inputs = sim::input_set(options.inputs);
  std::string why;
  std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "gpu: no GPU: " << why << "\n";
    return {kNoGpu, "no GPU", {{"verdict", "no_gpu"}, {"message", why}}};
  }
  // An sm_100a module (tcgen05) runs only on an sm_100 device: the driver
  // would refuse the PTX with a less telling error.
  if (module.target.starts_with("sm_100") && session->gpu.info().sm / 10 != 10)
    throw Error(SourceLoc{path, 1, 1}, "the PTX targets " + module.target + " (Blackwell: tcgen05) but the device, " +
                                           session->gpu.info().name + ", is sm_" +
                                           std::to_string(session->gpu.info().sm) +
                                           ": run `mmacheck prove` or `sim` on it instead (sim's numbers are MMA-Sim's "
                                           "model of Blackwell, docs/ptx.md)");
  const ptx::TensorArg& D = launch.tensors[static_cast<std::size_t>(launch.d)];
  const int eb = D.element_bytes();
  std::int64_t mismatched = 0;
  Json mismatches = Json::array();
  int failed_cases = 0;
  bool d_given = false;  // as a parameter, or through a tensor map (a TMA store)
  for (const ptx::ParamBinding& b : launch.params)
    d_given =
        d_given || b.tensor == launch.d ||
        (b.tensor_map >= 0 && launch.tensor_maps[static_cast<std::size_t>(b.tensor_map)].tensor_index == launch.d);
  if (!d_given) throw Error(SourceLoc{launch.file, 1, 1}, "the kernel is not given D: nothing to compare");
  for (int i = 0; i < options.cases; ++i) {
    const sim::PtxCase c = sim::simulate_ptx_case(kernel, launch, arch, options.seed, i, inputs, run_options(options));
    if (c.refutation || c.unfollowed) {
      const ptx::Finding& f = c.refutation ? *c.refutation : *c.unfollowed;
      throw Error(f.loc, std::string(c.refutation ? "refuted" : "unchecked") +
                             " on the CPU, so not run on the device: " + f.message);
    }
    const auto buffer = [&](int tensor) {
      const auto& bytes = c.tensors[static_cast<std::size_t>(tensor)];
      cuda::Bytes out(bytes.size());
      for (std::size_t k = 0; k < bytes.size(); ++k) out[k] = static_cast<std::byte>(bytes[k]);
      return out;
    };
    // The parameters in order, then the tensors only a tensor map addresses.
    std::vector<cuda::KernelArg> args;
    std::vector<int> arg_of_tensor(launch.tensors.size(), -1);
    for (std::size_t p = 0; p < launch.params.size(); ++p) {
      const ptx::ParamBinding& b = launch.params[p];
      const ptx::Symbol& s = kernel.symbols[static_cast<std::size_t>(kernel.params[p])];
      if (b.tensor >= 0) {
        arg_of_tensor[static_cast<std::size_t>(b.tensor)] = static_cast<int>(args.size());
        args.push_back(cuda::KernelArg::buffer(buffer(b.tensor)));
      } else {
        args.push_back(cuda::KernelArg::of_value(b.bits, s.bytes));
      }
    }
    for (std::size_t p = 0; p < launch.params.size(); ++p) {
      const int m = launch.params[p].tensor_map;
      if (m < 0) continue;
      const ptx::TensorMapSpec& spec = launch.tensor_maps[static_cast<std::size_t>(m)];
      int& holder = arg_of_tensor[static_cast<std::size_t>(spec.tensor_index)];
      if (holder < 0) {
        holder = static_cast<int>(args.size());
        args.push_back(cuda::KernelArg::buffer(buffer(spec.tensor_index), false));
      }
      args[p] = cuda::KernelArg::tensor_map(holder, ptx::tensor_map_of(launch, spec, 0), spec.l2_promotion);
    }
    const std::vector<cuda::Bytes> after = session->gpu.run(
        source.text, kernel.name,
        cuda::LaunchDims{{static_cast<unsigned>(launch.shape.grid[0]), static_cast<unsigned>(launch.shape.grid[1]),
                          static_cast<unsigned>(launch.shape.grid[2])},
                         {static_cast<unsigned>(launch.shape.block[0]), static_cast<unsigned>(launch.shape.block[1]),
                          static_cast<unsigned>(launch.shape.block[2])},
                         static_cast<unsigned>(launch.shape.dynamic_shared)},
        std::move(args));
    const cuda::Bytes& got = after[static_cast<std::size_t>(arg_of_tensor[static_cast<std::size_t>(launch.d)])];
    bool case_failed = false;
    for (std::int64_t r = 0; r < D.shape[0]; ++r)
      for (std::int64_t col = 0; col < D.shape[1]; ++col) {
        const std::int64_t off = (r * D.strides[0] + col * D.strides[1]) * eb;
        std::uint64_t want = 0, have = 0;
        for (int b = 0; b < eb; ++b) {
          want |= std::uint64_t{c.d[static_cast<std::size_t>(off + b)]} << (8 * b);
          have |= std::uint64_t{std::to_integer<std::uint8_t>(got[static_cast<std::size_t>(off + b)])} << (8 * b);
        }
        if (want == have) continue;
        case_failed = true;
        if (mismatches.size() < static_cast<std::size_t>(options.show))
          mismatches.push_back({{"case", i}, {"row", r}, {"col", col}, {"expected", hex(want)}, {"got", hex(have)}});
        ++mismatched;
      }
    failed_cases += case_failed ? 1 : 0;
  }
  const bool match = failed_cases == 0;
  FileOutcome outcome{match ? kHolds : kFails, match ? "match" : "differ", nullptr};
  if (options.json) {
    outcome.json = Json{{"verdict", outcome.label},
                        {"device", session->gpu.info().name},
                        {"kernel", kernel.name},
                        {"cases", options.cases},
                        {"failed_cases", failed_cases},
                        {"mismatched_elements", mismatched},
                        {"mismatches", std::move(mismatches)}};
    return outcome;
  }
  out << outcome.label << ": " << kernel.name << ", " << options.cases << " cases on " << session->gpu.info().name
      << " against the CPU machine on " << arch.name << ": " << failed_cases << " cases differ (" << mismatched
      << " elements of D)\n";
  for (const Json& m : mismatches)
    out << "  case " << m["case"] << " D[" << m["row"] << "][" << m["col"] << "]: CPU "
        << m["expected"].get<std::string>() << ", device " << m["got"].get<std::string>() << "\n";
  return outcome;
}

}  // namespace mmacheck::cli
