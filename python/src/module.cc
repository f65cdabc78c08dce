// mmacheck._mmacheck — the native half of the Python package (python/mmacheck):
// the library's jobs as functions over a Program, the Program from a file,
// from text or from the values a live object was read into
// (kernel_values.h); the check of one PTX launch from the module's and the
// launch file's text (what a Triton or TileLang kernel compiles to).  Python-side wrappers give them their user
// interface (mmacheck.prove, mmacheck.sim); docs/python.md.
//
// Errors: mmacheck::Error becomes mmacheck.Error (a ValueError) whose text is
// the command line's "FILE:LINE:COL: error: ..."; nothing else is caught, so
// a bug surfaces as Python's RuntimeError, never as a verdict.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "core/cute/cute_check.h"
#include "core/cute/cute_report_json.h"
#include "core/cute/cute_tiled_check.h"
#include "core/cute/cute_traits.h"
#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "core/prove/report_json.h"
#include "core/base/worker_pool.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "core/ptx/ptx_report_json.h"
#include "core/triton/triton_check.h"
#include "core/triton/triton_dot.h"
#include "core/triton/triton_report_json.h"
#include "python/src/kernel_values.h"
#include "sim/check/case_options.h"
#include "sim/check/run_cases.h"
#include "sim/check/sim_check.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace mmacheck::python {

namespace {

std::string error_text(const Error& e) {
  const std::string at = e.loc().str();
  return (at.empty() ? "" : at + ": ") + "error: " + e.message();
}

ProofReport prove_program(const Program& program, const std::string& method, unsigned timeout_ms,
                          const std::string& inst_set, bool explain) {
  ProveOptions options;
  options.method = parse_proof_method(method);
  options.timeout_ms = timeout_ms;
  options.inst_set = parse_inst_set(inst_set);
  options.explain = explain;
  return prove(program, options);
}

// The `sim` job's counts as a dict (the fields of `mmacheck sim --json`
// that do not need the command line's text formatting).
nb::dict sim_program(const Program& program, std::int64_t cases, std::uint64_t seed, const std::string& inputs,
                     const std::string& arch, int threads, int show, const std::string& inst_set) {
  const sim::CaseOptions options{
      .cases = cases, .seed = seed, .inputs = sim::input_set(inputs), .threads = threads, .show = show};
  sim::check_case_options(options, "sim");
  const sim::ArchParams& params = sim::arch_params(arch);
  const Plan plan = dispatch(program, parse_inst_set(inst_set));
  nb::dict out;
  if (!plan.ok) {
    out["result"] = "dispatch_failed";
    out["reasons"] = plan.reasons;
    return out;
  }
  const sim::SimCheck check(program, plan.nest, params);
  sim::CaseRunReport r;
  {
    nb::gil_scoped_release release;
    r = sim::run_cases(check, options);
  }
  const GemmGeometry& g = check.geometry();
  nb::list failures;
  for (const sim::CaseFailure& f : r.failures) {
    nb::dict fail;
    fail["case"] = f.case_index;
    fail["distribution"] = std::string(sim::distribution_name(f.dist));
    fail["element"] =
        program.gemm->d.buffer + "[" + std::to_string(f.element.row) + "][" + std::to_string(f.element.col) + "]";
    fail["row"] = f.element.row;
    fail["col"] = f.element.col;
    fail["got"] = f.element.got;
    fail["direct"] = f.element.direct;
    fail["bit_exact"] = f.element.bit_exact;
    fail["within_bound"] = f.element.within_bound;
    failures.append(fail);
  }
  out["result"] = r.passed() ? "passed" : "failed";
  out["instruction"] = plan.inst->ptx();
  out["arch"] = std::string(params.name);
  nb::dict shape;
  shape["M"] = g.m;
  shape["N"] = g.n;
  shape["K"] = g.k;
  out["shape"] = shape;
  out["mma_count"] = plan.nest.mma_count();
  out["warps"] = check.machine().warps();
  out["cases"] = r.cases;
  out["seed"] = seed;
  out["inputs"] = std::string(sim::input_set_name(options.inputs));
  out["failed_cases"] = r.failed_cases;
  out["wrong_elements"] = r.wrong_elements;
  out["not_bit_exact"] = r.not_bit_exact;
  out["outside_bound"] = r.outside_bound;
  out["failures"] = failures;
  return out;
}

// `mmacheck prove --json FILE.ptx`'s report of one launch, less `file` and
// `notes` (core/ptx/ptx_report_json.h), as JSON text; errors name `file` and
// `launch_file` (default: the launch file beside `file`).
std::string prove_ptx(const std::string& ptx_text, const std::string& launch_text, const std::string& file,
                      const std::string& launch_file) {
  const ptx::PtxModule module = ptx::read_ptx(ptx_text, file);
  ptx::PtxLaunch launch = ptx::read_launch(launch_text, launch_file.empty() ? ptx::launch_path_for(file) : launch_file);
  ptx::RunOptions run;
  run.threads = WorkerPool::hardware_threads();
  return ptx::ptx_report_json(ptx::check_ptx_launch(module, std::move(launch), run)).dump();
}

}  // namespace

}  // namespace mmacheck::python

NB_MODULE(_mmacheck, m) {
  using namespace mmacheck;
  m.doc() = "mmacheck's C++ library (the Python package's native module; use the mmacheck package)";

  static nb::object error_type = nb::steal(PyErr_NewException("mmacheck.Error", PyExc_ValueError, nullptr));
  m.attr("Error") = error_type;
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(error_type.ptr(), python::error_text(e).c_str());
    }
  });

  nb::class_<Program>(m, "Program", "a program as the library reads it (core/program/program.h)")
      .def_ro("file", &Program::file)
      .def_prop_ro("buffers",
                   [](const Program& p) {
                     std::vector<std::string> names;
                     for (const BufferDecl& b : p.buffers) names.push_back(b.name);
                     return names;
                   })
      .def_prop_ro("released_tirx", [](const Program& p) { return p.release.has_value(); });

  m.def("load_program", &load_program, "path"_a, "read a layout file or TVMScript / released-TIRx file");
  m.def(
      "load_kernels",
      [](const std::string& path) {
        std::vector<std::pair<std::string, Program>> out;
        for (KernelInstance& k : read_program_file(path).instances) out.emplace_back(k.name, std::move(k.program));
        return out;
      },
      "path"_a, "the kernels a .py test file's tests build, [(pytest id, Program)] (docs/tvmscript.md, Test files)");
  m.def("parse_program", &parse_program, "text"_a, "file"_a = "<text>");
  m.def(
      "release_program", [](nb::handle kernel) { return release_program(python::kernel_from_values(kernel)); },
      "kernel"_a, "the Program of a released-TIRx kernel given as values (python/src/kernel_values.h)");

  nb::class_<ProofReport>(m, "ProofReport", "prove()'s result (core/prove/prove.h)")
      .def_prop_ro("verdict", [](const ProofReport& r) { return std::string(verdict_name(r.verdict)); })
      .def(
          "json", [](const ProofReport& r) { return report_json(r).dump(); },
          "the report as `mmacheck prove --json` prints it (core/prove/report_json.h), JSON text");
  m.def("prove", &python::prove_program, "program"_a, "method"_a = "z3", "timeout_ms"_a = 10000u, "inst_set"_a = "tvm",
        "explain"_a = true, nb::call_guard<nb::gil_scoped_release>());
  m.def(
      "triton_check",
      [](const std::string& document, const std::string& file) {
        Json list = Json::array();
        for (const TritonReport& r : check_triton(read_triton_file(document, file)))
          list.push_back(triton_report_json(r));
        return list.dump();
      },
      "document"_a, "file"_a = "<python>",
      "check the layouts of a `mmacheck triton` document (core/triton/triton_dot.h); the reports' JSON list");
  m.def(
      "cute_check",
      [](const std::string& document, const std::string& file) {
        Json list = Json::array();
        for (const CuteAtomTraits& atom : read_cute_file(document, file))
          list.push_back(cute_report_json(atom.tiled ? check_cute_tiled(atom) : check_cute_atom(atom)));
        return list.dump();
      },
      "document"_a, "file"_a = "<python>",
      "check the atoms of a `mmacheck cute` atom list (core/cute/cute_traits.h); the reports' JSON list");
  m.def("prove_ptx", &python::prove_ptx, "ptx"_a, "launch"_a, "file"_a = "<python>.ptx", "launch_file"_a = "",
        nb::call_guard<nb::gil_scoped_release>(),
        "check one launch of a PTX kernel (core/ptx/ptx_check.h): the PTX module's text and its launch file's "
        "(docs/ptx.md); the report of `mmacheck prove --json FILE.ptx` without file and notes, JSON text");
  m.def("sim", &python::sim_program, "program"_a, "cases"_a = 64, "seed"_a = 1, "inputs"_a = "standard",
        "arch"_a = "sm_90", "threads"_a = 0, "show"_a = 20, "inst_set"_a = "tvm");
}
