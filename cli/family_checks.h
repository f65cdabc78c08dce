// The file checks of the instruction families, one per kind of input file:
// what `mmacheck prove` runs on a file of that kind (cli/input_kinds.h
// routes it).  Each reads the file's text (read once by the caller: it may
// be standard input), checks it, and returns the file's outcome: exit status, the summary's label and, with
// `json`, the report object (the text report goes to `out` otherwise).
// `allow` accepts unchecked items (cli/unchecked.h).  Bad input throws Error.
//
//     FileOutcome o = check_tma_file(path, read_text_file(path), false, false, std::cout);
//     o.status == kFails
#pragma once

#include <ostream>
#include <string>

#include "cli/file_batch.h"
#include "cli/input_kinds.h"
#include "core/base/limits.h"

namespace mmacheck::cli {

FileOutcome check_tma_file(const std::string& path, const std::string& text, bool json, bool allow, std::ostream& out);
// sim on a wgmma operand file: random cases through the program's buffer
// and descriptor against the densely packed instruction
// (sim/wgmma/wgmma_file_sim.h).
FileOutcome simulate_wgmma_file(const std::string& path, const std::string& text, const KindOptions& options,
                                std::ostream& out);
// gpu on a wgmma operand file (cuda layer builds only): its proved operands
// on the device, diffed bit for bit against the simulator (cli/gpu_wgmma.cc).
FileOutcome gpu_wgmma_file(const std::string& path, const std::string& text, const KindOptions& options,
                           std::ostream& out);
// gpu on an mma.sp metadata file (cuda layer builds only): random cases with
// the kernel's e registers run on the device, diffed against the simulator
// through the same registers and against the metadata where the ISA reads
// it (cli/gpu_sparse.cc).
FileOutcome gpu_sparse_file(const std::string& path, const std::string& text, const KindOptions& options,
                            std::ostream& out);
FileOutcome check_wgmma_file(const std::string& path, const std::string& text, bool json, bool allow,
                             std::ostream& out);
// A kernel's PTX (no wgmma) with NAME.launch.json beside it (or the
// options' launch): the launch run on the CTA machine and D checked against
// the gemm (cli/cmd_ptx.cc).
FileOutcome check_ptx_file(const std::string& path, const std::string& text, const KindOptions& options,
                           std::ostream& out);
// sim on the same: random cases with numbers (sim/ptx/ptx_sim.h).
FileOutcome simulate_ptx_file(const std::string& path, const std::string& text, const KindOptions& options,
                              std::ostream& out);
// gpu on the same (cuda layer builds only): the launch on the device, D
// diffed bit for bit against the CPU machine's (cli/gpu_ptx.cc).
FileOutcome gpu_ptx_file(const std::string& path, const std::string& text, const KindOptions& options,
                         std::ostream& out);
// A kernel's PTX: wgmma's fence, commit and wait order.
FileOutcome check_wgmma_order_file(const std::string& path, const std::string& text, bool json, bool allow,
                                   std::ostream& out);
// sim on a tcgen05.mma file: random cases through the idesc's instruction,
// the program's buffers and descriptors and its TMEM layout of D
// (sim/tcgen05/tcgen05_file_sim.h); "unchecked" where the simulator has no
// model (cta_group::2, kind::i8, a TIRx dump's K loop).
FileOutcome simulate_tcgen05_file(const std::string& path, const std::string& text, const KindOptions& options,
                                  std::ostream& out);
FileOutcome check_tcgen05_file(const std::string& path, const std::string& text, bool json, bool allow,
                               std::ostream& out);
FileOutcome check_triton_file(const std::string& path, const std::string& text, bool json, bool allow,
                              std::ostream& out);
FileOutcome check_cute_file(const std::string& path, const std::string& text, const Limits& limits, bool json,
                            bool allow, std::ostream& out);
// sim on a block-scaled mma file: random cases through the program's scale
// words as the instruction reads them (sim/scales/scale_file_sim.h), sim's
// --arch (default sm_120).
FileOutcome simulate_scale_file(const std::string& path, const std::string& text, const KindOptions& options,
                                std::ostream& out);
// No JSON report of its own: `json` gives {"verdict": label}.
FileOutcome check_scale_file(const std::string& path, const std::string& text, bool json, bool allow,
                             std::ostream& out);
// sim on an mma.sp metadata file: random cases through the kernel's e
// registers as the instruction reads them (sim/sparse/sparse_file_sim.h),
// sim's --arch (default sm_90).
FileOutcome simulate_sparse_file(const std::string& path, const std::string& text, const KindOptions& options,
                                 std::ostream& out);
FileOutcome check_sparse_file(const std::string& path, const std::string& text, bool json, bool allow,
                              std::ostream& out);

}  // namespace mmacheck::cli
