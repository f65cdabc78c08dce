// What a TMA tile copy writes into shared memory, byte for byte, on the GPU
// it runs on, and which tensor maps the driver encodes: the facts
// core/tma/ models (docs/tma.md).  Built and run by scripts/device/tma-probe.sh;
// prints the record h200_probe.txt in tests/data/tma/ keeps (tests/test_tma.cc
// compares every word with the model when that file exists):
//
//   encode NAME code=N     cuTensorMapEncodeTiled's CUresult for a map (0: encoded)
//   copy NAME swizzle=S box=X,Y element_strides=1,E offset=O coords=X,Y dims=X,Y
//   W W W ...              the 16-bit words of the dumped region, 16 a line, hex
//
// The global tensor is uint16, 256 x 128 (x innermost), word (x, y) =
// y * 256 + x + 1; shared memory starts as 0xffff; the copy's destination is
// a 2048-byte aligned buffer plus `offset` (0x80: off every swizzle repeat);
// the region dumped is the 2048-aligned buffer's first kRegion bytes.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kX = 256, kY = 128;
constexpr int kRegion = 12288;

#define CHECK_CUDA(x)                                                                        \
  do {                                                                                       \
    const auto r_ = (x);                                                                     \
    if (static_cast<int>(r_) != 0) {                                                         \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, static_cast<int>(r_), __LINE__); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__global__ void copy_box(const __grid_constant__ CUtensorMap map, int offset, int x, int y, unsigned bytes,
                         std::uint16_t* out) {
  extern __shared__ __align__(16) unsigned char raw[];
  __shared__ __align__(8) std::uint64_t bar;
  const unsigned raw_addr = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned base = (raw_addr + 2047u) & ~2047u;
  std::uint16_t* region = reinterpret_cast<std::uint16_t*>(raw + (base - raw_addr));
  for (int i = threadIdx.x; i < kRegion / 2; i += blockDim.x) region[i] = 0xffff;
  const unsigned bar_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr) : "memory");
  // The generic-proxy writes above must be visible to the async proxy (the copy) before it writes.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(bytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
        "[%4];" ::"r"(base + static_cast<unsigned>(offset)),
        "l"(&map), "r"(x), "r"(y), "r"(bar_addr)
        : "memory");
  }
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(bar_addr)
                 : "memory");
  for (int i = threadIdx.x; i < kRegion / 2; i += blockDim.x) out[i] = region[i];
}

struct Map {
  const char* name;
  CUtensorMapSwizzle swizzle;
  cuuint32_t box[2];
  cuuint32_t element_strides[2];
  cuuint64_t stride;  // bytes of a row (dim 1)
  CUtensorMapInterleave interleave;
  int offset;
  int coords[2];
};

const char* swizzle_name(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return "32B";
    case CU_TENSOR_MAP_SWIZZLE_64B: return "64B";
    case CU_TENSOR_MAP_SWIZZLE_128B: return "128B";
    default: return "none";
  }
}

CUresult encode(CUtensorMap* out, const Map& m, void* global) {
  const cuuint64_t dims[2] = {kX, kY};
  const cuuint64_t strides[1] = {m.stride};
  return cuTensorMapEncodeTiled(out, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, global, dims, strides, m.box, m.element_strides,
                                m.interleave, m.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

}  // namespace

int main() {
  CHECK_CUDA(cudaFree(nullptr));
  std::vector<std::uint16_t> host(kX * kY);
  for (int y = 0; y < kY; ++y)
    for (int x = 0; x < kX; ++x)
      host[static_cast<std::size_t>(y) * kX + x] = static_cast<std::uint16_t>(y * kX + x + 1);
  void* global = nullptr;
  CHECK_CUDA(cudaMalloc(&global, host.size() * 2));
  CHECK_CUDA(cudaMemcpy(global, host.data(), host.size() * 2, cudaMemcpyHostToDevice));
  std::uint16_t* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, kRegion));
  CHECK_CUDA(cudaFuncSetAttribute(copy_box, cudaFuncAttributeMaxDynamicSharedMemorySize, kRegion + 2048));

  const CUtensorMapInterleave none = CU_TENSOR_MAP_INTERLEAVE_NONE;
  const CUtensorMapSwizzle s0 = CU_TENSOR_MAP_SWIZZLE_NONE, s32 = CU_TENSOR_MAP_SWIZZLE_32B,
                           s64 = CU_TENSOR_MAP_SWIZZLE_64B, s128 = CU_TENSOR_MAP_SWIZZLE_128B;
  // Copies: each swizzle on and off its repeat, a box narrower than the span, element strides, the OOB fill.
  const Map copies[] = {
      {"sw128", s128, {64, 64}, {1, 1}, 512, none, 0, {64, 32}},
      {"sw128_off80", s128, {64, 64}, {1, 1}, 512, none, 0x80, {64, 32}},
      {"sw128_off200", s128, {64, 64}, {1, 1}, 512, none, 0x200, {0, 0}},
      {"sw128_inner64", s128, {32, 64}, {1, 1}, 512, none, 0, {32, 0}},
      {"sw64", s64, {32, 64}, {1, 1}, 512, none, 0, {96, 8}},
      {"sw64_off80", s64, {32, 64}, {1, 1}, 512, none, 0x80, {96, 8}},
      {"sw32", s32, {16, 64}, {1, 1}, 512, none, 0, {16, 64}},
      {"sw32_off80", s32, {16, 64}, {1, 1}, 512, none, 0x80, {16, 64}},
      {"none_core", s0, {8, 64}, {1, 1}, 512, none, 0, {8, 0}},
      {"none_estride", s0, {64, 16}, {1, 2}, 512, none, 0x80, {0, 0}},
      {"sw128_oob", s128, {64, 16}, {1, 1}, 512, none, 0, {224, 120}},
  };
  for (const Map& m : copies) {
    CUtensorMap map;
    const CUresult r = encode(&map, m, global);
    std::printf("encode %s code=%d\n", m.name, static_cast<int>(r));
    if (r != CUDA_SUCCESS) continue;
    const unsigned rows = (m.box[1] + m.element_strides[1] - 1) / m.element_strides[1];
    const unsigned bytes = m.box[0] * rows * 2;
    copy_box<<<1, 128, kRegion + 2048>>>(map, m.offset, m.coords[0], m.coords[1], bytes, out);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<std::uint16_t> dump(kRegion / 2);
    CHECK_CUDA(cudaMemcpy(dump.data(), out, kRegion, cudaMemcpyDeviceToHost));
    std::printf("copy %s swizzle=%s box=%u,%u element_strides=1,%u offset=%d coords=%d,%d dims=%d,%d\n", m.name,
                swizzle_name(m.swizzle), m.box[0], m.box[1], m.element_strides[1], m.offset, m.coords[0], m.coords[1],
                kX, kY);
    for (std::size_t i = 0; i < dump.size(); ++i) std::printf("%x%c", dump[i], i % 16 == 15 ? '\n' : ' ');
  }
  // Maps the driver must refuse (each one rule of docs/tma.md), and one it must encode.
  const Map planted[] = {
      {"valid", s128, {64, 64}, {1, 1}, 512, none, 0, {0, 0}},
      {"inner_past_64B_span", s64, {64, 64}, {1, 1}, 512, none, 0, {0, 0}},
      {"inner_past_32B_span", s32, {32, 64}, {1, 1}, 512, none, 0, {0, 0}},
      {"stride_not_16", s128, {64, 64}, {1, 1}, 520, none, 0, {0, 0}},
      {"box_257", s0, {8, 257}, {1, 1}, 512, none, 0, {0, 0}},
      {"inner_not_16_bytes", s0, {12, 8}, {1, 1}, 512, none, 0, {0, 0}},
      {"element_stride_9", s0, {8, 8}, {1, 9}, 512, none, 0, {0, 0}},
      {"interleave_rank_2", s32, {8, 8}, {1, 1}, 512, CU_TENSOR_MAP_INTERLEAVE_16B, 0, {0, 0}},
      {"stride_below_row", s0, {8, 8}, {1, 1}, 256, none, 0, {0, 0}},
  };
  for (const Map& m : planted) {
    CUtensorMap map;
    std::printf("encode %s code=%d\n", m.name, static_cast<int>(encode(&map, m, global)));
  }
  return 0;
}
