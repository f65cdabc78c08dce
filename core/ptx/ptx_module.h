// PtxModule — a PTX module as the CTA machine runs it: its kernels (`.entry`),
// each a list of decoded instructions over numbered registers, with the
// labels, parameters and shared variables the instructions name.
//
// Read by read_ptx (core/ptx/ptx_reader.h) from the text nvcc, NVRTC,
// Triton, TileLang and TVM write; every instruction is decoded once, at
// reading, through the opcode table (core/ptx/ptx_opcodes.h), so the machine
// never parses text and an opcode or form it does not model is an error at
// its line before anything runs.
//
//     const PtxModule m = read_ptx(text, "k.ptx");
//     const PtxKernel& k = m.kernels[0];          // .visible .entry gemm(...)
//     k.code[3].loc.line == 31;                   // ld.param.u64 %rd23, [gemm_param_0];
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_instruction.h"
#include "core/ptx/ptx_types.h"

namespace mmacheck::ptx {

// A variable a kernel can address: a parameter (param space), a shared
// array (static, at `offset` in the CTA's shared window; `.extern` ones after
// the static ones, sized by the launch) or a local array (at `offset` in
// every thread's own local memory: nvcc's `__local_depot0` of spills and
// arrays indexed at run time).
struct Symbol {
  std::string name;
  Space space = Space::param;
  int bytes = 0;            // param: its size; shared: its size (extern: 0)
  std::int64_t offset = 0;  // param: its index among the parameters; shared, local: byte offset
  bool external = false;
  PtxType type{};  // a parameter's declared type (.u64, .u32, .f32, ...)
};

struct PtxKernel {
  std::string name;
  SourceLoc loc;
  std::vector<int> params;  // indices into `symbols`, in declaration order
  std::vector<Symbol> symbols;
  std::vector<int> reg_bits;  // per register: its declared width (pred: 1)
  std::vector<std::string> reg_names;
  std::vector<Instruction> code;
  std::int64_t static_shared = 0;  // bytes of the static shared arrays
  std::int64_t local_bytes = 0;    // bytes of the .local arrays, per thread
  // The module's .const arrays, initialised, as the kernel's constant bank:
  // each array's symbol offset is its place here (at most 64 KB, the bank).
  std::vector<std::uint8_t> constant;
  std::array<int, 3> reqntid{};  // .reqntid, or 0
  std::array<int, 3> maxntid{};  // .maxntid, or 0
  int maxnreg = 0;               // .maxnreg, or 0 (setmaxnreg's starting maximum, core/ptx/ptx_setmaxnreg.h)
};

struct PtxModule {
  std::string file;
  int version_major = 0, version_minor = 0;
  std::string target;  // "sm_80", "sm_90a"
  std::vector<PtxKernel> kernels;
};

}  // namespace mmacheck::ptx
