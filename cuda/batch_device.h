// BatchDevice — the device side of a differential run, seen from the host:
// a few buffer slots, each holding one batch of cases, launched
// asynchronously.
//
// The host writes a batch's A, B and C words (cuda/case_words.h, case after
// case) into host(slot), calls launch(slot, cases), and may then prepare
// other slots while the device runs; wait(slot) returns once D's words of
// that batch are in host(slot).d.  A slot is not touched between launch and
// wait.  GemmStream (cuda/gemm_stream.h) is the GPU; a test can put a CPU
// model behind the same interface to check the batching without a device.
//
//     HostBatch h = dev.host(0);
//     ... write cases into h.a, h.b, h.c ...
//     dev.launch(0, n);  /* other work */  dev.wait(0);  // h.d holds n cases of D
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mmacheck::cuda {

// Views of one slot's host buffers, each capacity() cases long.
struct HostBatch {
  std::byte* a = nullptr;
  std::byte* b = nullptr;
  std::byte* c = nullptr;
  std::byte* d = nullptr;  // written by the device
};

class BatchDevice {
 public:
  virtual ~BatchDevice() = default;

  virtual std::string name() const = 0;       // "NVIDIA H200 (device 0)"
  virtual int slots() const = 0;              // >= 1
  virtual std::int64_t capacity() const = 0;  // cases per batch, >= 1
  virtual HostBatch host(int slot) = 0;
  // Starts the batch of the first `cases` cases of the slot (1 <= cases <= capacity()).
  virtual void launch(int slot, std::int64_t cases) = 0;
  // Blocks until the slot's last launch has written D; throws Error when it failed.
  virtual void wait(int slot) = 0;
};

}  // namespace mmacheck::cuda
