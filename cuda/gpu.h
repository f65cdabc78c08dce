// Gpu — one CUDA device, ready to run a compiled kernel: its primary
// context, current on the calling thread while the Gpu lives.  Copies share
// the context (released when the last copy goes).
//
// A kernel's arguments are host buffers (copied to the device before the
// launch and back after it), values, or tensor maps over such buffers.
//
//     const Gpu gpu(Driver::load());
//     auto out = gpu.run(cubin, "mmacheck_gemm", {.grid = 64, .block = 32}, {a, b, c, d, table});
//     // out[3]: d's bytes after the kernel
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/tma/tensor_map.h"
#include "cuda/device.h"
#include "cuda/driver.h"

namespace mmacheck::cuda {

using Bytes = std::vector<std::byte>;

struct LaunchShape {
  unsigned grid = 1;          // blocks (x)
  unsigned block = 32;        // threads per block (x)
  unsigned dynamic_smem = 0;  // bytes of dynamic shared memory per block (above 48 KB: opted in at launch)
};

// One argument of a kernel: a buffer (copied in, a pointer passed, copied
// back), a value of 1 to 8 bytes passed as it is, or a CUtensorMap passed by
// value (`.param .align 64 .b8 p[128]`, a __grid_constant__ map, as Triton's
// host TensorDescriptors and CUTLASS pass them) encoded by
// cuTensorMapEncodeTiled over the device copy of buffer argument `map_of`.
// A buffer with `passed` false is copied in and out but not passed: the
// memory only a tensor map addresses.
//
//     KernelArg::tensor_map(3, m, 0)   // m's address: ignored, argument 3's device pointer
struct KernelArg {
  bool is_buffer = true;
  Bytes bytes;              // a buffer's contents
  std::uint64_t value = 0;  // a value's bits (little-endian, `value_bytes` of them)
  int value_bytes = 0;
  bool passed = true;    // a buffer: given to the kernel (false: addressed only through a map)
  int map_of = -1;       // >= 0: a tensor map over that buffer argument
  TensorMap map;         // its parameters (core/tma/tensor_map.h; problems() empty)
  int l2_promotion = 0;  // CU_TENSOR_MAP_L2_PROMOTION_*: 0 none, 1 64B, 2 128B, 3 256B

  static KernelArg buffer(Bytes contents, bool passed = true) {
    KernelArg a;
    a.bytes = std::move(contents);
    a.passed = passed;
    return a;
  }
  static KernelArg of_value(std::uint64_t bits, int bytes) {
    KernelArg a;
    a.is_buffer = false;
    a.value = bits;
    a.value_bytes = bytes;
    return a;
  }
  static KernelArg tensor_map(int buffer_arg, TensorMap m, int l2_promotion) {
    KernelArg a;
    a.is_buffer = false;
    a.map_of = buffer_arg;
    a.map = std::move(m);
    a.l2_promotion = l2_promotion;
    return a;
  }
};

// A launch in three dimensions.
struct LaunchDims {
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{32, 1, 1};
  unsigned dynamic_smem = 0;
};

class Gpu {
 public:
  // Device `ordinal` of the driver; throws Error when it has none.
  explicit Gpu(const Driver& driver, int ordinal = 0);

  const DeviceInfo& info() const;
  const Driver& driver() const;
  int ordinal() const;
  // Makes the device's context current on the calling thread (every driver
  // call on its memory or streams needs it; Gpu::run does it itself).
  void make_current() const;

  // Load `image` (a CUBIN), launch its extern "C" kernel `entry` with one
  // pointer argument per buffer, wait for it, and return every buffer's
  // contents afterwards.  Throws Error with the driver's error name (a fault
  // in the kernel surfaces here).
  std::vector<Bytes> run(const std::string& image, const std::string& entry, LaunchShape shape,
                         std::vector<Bytes> buffers) const;
  // The same with values among the arguments and a 3-D launch; `image` may
  // be PTX text (the driver compiles it).  Returns each argument's bytes
  // after the kernel (a value's: empty).
  std::vector<Bytes> run(const std::string& image, const std::string& entry, const LaunchDims& shape,
                         std::vector<KernelArg> args) const;

 private:
  struct Context;
  std::shared_ptr<const Context> context_;
};

}  // namespace mmacheck::cuda
