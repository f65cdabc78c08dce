// run_gpu_check — the `gpu` job as a library call: a program's gemm
// dispatched, its kernel generated and compiled for the chosen devices, and
// options.cases.cases random cases run on them against the lane-accurate
// simulator, bit for bit (cuda/differential.h), with every thread drawing
// and simulating.  The command (cli/cmd_gpu.cc) parses options and prints
// the report; a binding would do the same.
//
// Everything that needs no GPU (dispatch, staging, kernel generation) is
// done first, so bad input throws Error on any machine.  The session is
// opened only then (LazyGpuSession: once, shared by the programs of a run).
//
//     LazyGpuSession session;
//     const GpuCheckReport r = run_gpu_check(program, session, {.cases = {.cases = 1 << 20}});
//     if (r.result == GpuCheckResult::match) ...   // r.diff: mismatches, timing
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "cuda/device_selection.h"
#include "cuda/differential.h"
#include "cuda/gpu_session.h"
#include "sim/check/case_options.h"

namespace mmacheck::cuda {

struct GpuCheckOptions {
  sim::CaseOptions cases;  // show: mismatching elements kept
  DeviceSelection devices{.all = false, .ordinals = {0}};
  std::int64_t batch = 0;  // cases per launch; 0: as many as fit kBatchBytes
  InstSet inst_set = InstSet::tvm;
  Limits limits{};
};

// Host memory per batch slot when no batch size is given: big enough that a
// launch costs little next to its cases, small enough for many devices.
inline constexpr std::int64_t kBatchBytes = std::int64_t{32} << 20;
inline constexpr int kSlotsPerDevice = 2;

enum class GpuCheckResult { match, differ, dispatch_failed, no_gpu };

struct GpuCheckDevice {
  std::string name;  // "NVIDIA H200"
  int sm = 0;
  int ordinal = 0;
};

struct GpuCheckReport {
  GpuCheckResult result = GpuCheckResult::no_gpu;
  std::vector<std::string> dispatch_reasons;  // dispatch_failed
  std::string no_gpu_reason;                  // no_gpu
  // The rest once the run got as far as the devices.
  std::vector<GpuCheckDevice> devices;
  std::string driver;  // "580.159.04", or "unknown"
  std::string nvrtc;   // NVRTC's version
  std::optional<Plan> plan;
  std::string d_buffer;  // D's buffer name, and its element type
  DType d_type = DType::f32;
  int cta_threads = 0;  // the staging's threads per CTA
  int sim_threads = 0;  // the simulator's worker threads
  double setup_s = 0;   // devices, compile, streams and simulators
  DiffReport diff;
};

// Throws Error for bad input (dispatch errors, staging, kernel generation),
// for devices of mixed architectures, no arithmetic model for the device, or
// a device or compile failure.
GpuCheckReport run_gpu_check(const Program& program, LazyGpuSession& session, const GpuCheckOptions& options);

}  // namespace mmacheck::cuda
