// Gpu — one CUDA device, ready to run a compiled kernel: its primary
// context, current on the calling thread while the Gpu lives.  Copies share
// the context (released when the last copy goes).
//
// Kernels here take only pointers: each argument is a host buffer copied to
// the device before the launch and copied back after it.
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
#include <vector>

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
// back) or a value of 1 to 8 bytes passed as it is.
struct KernelArg {
  bool is_buffer = true;
  Bytes bytes;              // a buffer's contents
  std::uint64_t value = 0;  // a value's bits (little-endian, `value_bytes` of them)
  int value_bytes = 0;
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
