// GemmStream — a compiled gemm kernel on one GPU, run batch by batch
// without stopping the host: the BatchDevice of cuda/batch_device.h.
//
// Built once per device and run: the module is loaded and the index table
// copied once; each slot owns page-locked host buffers, device buffers for
// `capacity` cases and a stream of its own, so a launch (copy A, B, C in;
// one CTA per case; copy D out) runs while the host fills another slot, and
// copies of one slot overlap the kernel of another.  Memory is fixed at
// construction: slots * capacity * CaseWords::case_bytes() on the host and
// as much on the device, however many cases go through.
//
//     const GemmRunner compiled(gpu, nvrtc, plan.nest, staging);
//     GemmStream dev(compiled.gpu(), compiled, 4096, 2);
//     // fill dev.host(0), dev.launch(0, n), ..., dev.wait(0)
#pragma once

#include <cuda.h>

#include <vector>

#include "cuda/batch_device.h"
#include "cuda/case_words.h"
#include "cuda/gemm_runner.h"
#include "cuda/gpu.h"

namespace mmacheck::cuda {

class GemmStream final : public BatchDevice {
 public:
  // `gpu` may be another device than the one `compiled` was built for, of
  // the same architecture (its CUBIN is reused).  Throws Error when the
  // architectures differ or an allocation fails.
  GemmStream(Gpu gpu, const GemmRunner& compiled, std::int64_t capacity, int slots);
  ~GemmStream() override;
  GemmStream(const GemmStream&) = delete;
  GemmStream& operator=(const GemmStream&) = delete;

  std::string name() const override;
  int slots() const override { return static_cast<int>(slots_.size()); }
  std::int64_t capacity() const override { return capacity_; }
  HostBatch host(int slot) override;
  void launch(int slot, std::int64_t cases) override;
  void wait(int slot) override;

 private:
  struct Slot {
    CUstream stream = nullptr;
    std::byte* host = nullptr;  // a, b, c, d one after another, page-locked
    CUdeviceptr device = 0;     // the same layout on the device
  };
  void release() noexcept;

  Gpu gpu_;
  CaseWords words_;
  int threads_ = 32;
  std::int64_t capacity_ = 0;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUdeviceptr table_ = 0;
  std::vector<Slot> slots_;
};

}  // namespace mmacheck::cuda
