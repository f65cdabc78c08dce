// /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py tests/data/tirx/ldmatrix_warps/bad_b_region_fixed.py tests/data/tirx/ldmatrix_warps/bad_copy_by_lane.py tests/data/tirx/ldmatrix_warps/bad_no_sync.py tests/data/tirx/ldmatrix_warps/bad_region_fixed.py tests/data/tirx/ldmatrix_warps/bad_region_swapped.py tests/data/tirx/ldmatrix_warps/bad_store_rows.py tests/data/tirx/ldmatrix_warps/ok_m_split.py tests/data/tirx/ldmatrix_warps/ok_m_split_four.py tests/data/tirx/ldmatrix_warps/ok_n_split.py tests/data/tirx/ldmatrix_warps/refuse_region_past_end.py --out tests/data/tirx/ldmatrix_warps --prints

#ifdef __CUDACC_RTC__
  #include <cuda/std/cstdint>
  using cuda::std::uint8_t;
  using cuda::std::uint16_t;
  using cuda::std::uint32_t;
  using cuda::std::uint64_t;
  using cuda::std::int8_t;
  using cuda::std::int16_t;
  using cuda::std::int32_t;
  using cuda::std::int64_t;

  #include <cuda/std/type_traits>
  namespace std {
    using cuda::std::is_same;
    using cuda::std::is_same_v;
    using cuda::std::is_integral;
    using cuda::std::is_signed;
    using cuda::std::is_unsigned;
    using cuda::std::is_floating_point;
    using cuda::std::enable_if;
    using cuda::std::conditional;
  }

  // NVRTC uses asm/volatile instead of __asm__/__volatile__ (gcc extension).
  #ifndef __asm__
  #define __asm__ asm
  #endif
  #ifndef __volatile__
  #define __volatile__ volatile
  #endif
#else
  #include <cstdint>
  #include <type_traits>
  #include <cuda.h>
#endif

#if !defined(__CUDA_ARCH__) || (__CUDA_ARCH__ >= 530)
#include <cuda_fp16.h>
__device__ half max(half a, half b)
{
  return __hgt(__half(a), __half(b)) ? a : b;
}
__device__ half min(half a, half b)
{
  return __hlt(__half(a), __half(b)) ? a : b;
}
#endif // __CUDA_ARCH__ >= 530

// Pack two half values.
static inline __device__ __host__ unsigned
__pack_half2(const half x, const half y) {
  unsigned v0 = *((unsigned short *)&x);
  unsigned v1 = *((unsigned short *)&y);
  return (v1 << 16) | v0;
}

#define CUDA_UNSUPPORTED_HALF_MATH_BINARY(HALF_MATH_NAME, FP32_MATH_NAME) \
static inline __device__ __host__ half HALF_MATH_NAME(half x, half y) {   \
  float tmp_x = __half2float(x);                                          \
  float tmp_y = __half2float(y);                                          \
  float result = FP32_MATH_NAME(tmp_x, tmp_y);                            \
  return __float2half(result);                                            \
}

#define CUDA_UNSUPPORTED_HALF_MATH_UNARY(HALF_MATH_NAME, FP32_MATH_NAME) \
static inline __device__ __host__ half HALF_MATH_NAME(half x) {          \
  float tmp_x = __half2float(x);                                         \
  float result = FP32_MATH_NAME(tmp_x);                                  \
  return __float2half(result);                                           \
}

// Some fp16 math functions are not supported in cuda_fp16.h,
// so we define them here to make sure the generated CUDA code
// is valid.
#if defined(__CUDA_ARCH__)
#if (__CUDA_ARCH__ >= 530)
CUDA_UNSUPPORTED_HALF_MATH_BINARY(hpow, powf)
#if ((__CUDACC_VER_MAJOR__ < 12) || ((__CUDACC_VER_MAJOR__ == 12) && (__CUDACC_VER_MINOR__ < 8)))
CUDA_UNSUPPORTED_HALF_MATH_UNARY(htanh, tanhf)
#endif
CUDA_UNSUPPORTED_HALF_MATH_UNARY(htan, tanf)
CUDA_UNSUPPORTED_HALF_MATH_UNARY(hatan, atanf)
CUDA_UNSUPPORTED_HALF_MATH_UNARY(herf, erf)
#else
CUDA_UNSUPPORTED_HALF_MATH_UNARY(hexp, exp)
#endif
#endif

#undef CUDA_UNSUPPORTED_HALF_MATH_BINARY
#undef CUDA_UNSUPPORTED_HALF_MATH_UNARY

template <typename T, typename TVec2>
struct __align__(8) half4_bfloat164 {
  T x, y, z, w;
  __host__ __device__ half4_bfloat164() : x(T(0)), y(T(0)), z(T(0)), w(T(0)) {}
  __host__ __device__ half4_bfloat164(T x, T y, T z, T w) : x(x), y(y), z(z), w(w) {}

};

using half4 = half4_bfloat164<__half, __half2>;
__host__ __device__ half4 make_half4(__half x, __half y, __half z, __half w) {
    return half4(x, y, z, w);
}

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
#define __shfl_sync(mask, var, lane, width) \
        __shfl((var), (lane), (width))

#define __shfl_down_sync(mask, var, offset, width) \
        __shfl_down((var), (offset), (width))

#define __shfl_up_sync(mask, var, offset, width) \
        __shfl_up((var), (offset), (width))
#endif

#if (((__CUDACC_VER_MAJOR__ == 11) && (__CUDACC_VER_MINOR__ >= 4)) || \
     (__CUDACC_VER_MAJOR__ > 11))
#define TVM_ENABLE_L2_PREFETCH 1
#else
#define TVM_ENABLE_L2_PREFETCH 0
#endif

#ifdef _WIN32
  using uint = unsigned int;
  using uchar = unsigned char;
  using ushort = unsigned short;
  using int64_t = long long;
  using uint64_t = unsigned long long;
#else
  #define uint unsigned int
  #define uchar unsigned char
  #define ushort unsigned short
#endif
__forceinline__ __device__ void tvm_builtin_ptx_mma_sync_aligned_m16n8k16_row_col_f32_f16_f16_f32(float& __d0, float& __d1, float& __d2, float& __d3, uint32_t __a0, uint32_t __a1, uint32_t __a2, uint32_t __a3, uint32_t __b0, uint32_t __b1, float __c0, float __c1, float __c2, float __c3) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=f"(__d0), "=f"(__d1), "=f"(__d2), "=f"(__d3) : "r"(__a0), "r"(__a1), "r"(__a2), "r"(__a3), "r"(__b0), "r"(__b1), "f"(__c0), "f"(__c1), "f"(__c2), "f"(__c3));
}
__forceinline__ __device__ void tvm_builtin_ptx_ldmatrix_sync_aligned_m8n8_x2_shared_b16(uint32_t& __r0, uint32_t& __r1, uint32_t __p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(__r0), "=r"(__r1) : "r"(__p) : "memory");
}
__forceinline__ __device__ void tvm_builtin_ptx_ldmatrix_sync_aligned_m8n8_x4_shared_b16(uint32_t& __r0, uint32_t& __r1, uint32_t& __r2, uint32_t& __r3, uint32_t __p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(__r0), "=r"(__r1), "=r"(__r2), "=r"(__r3) : "r"(__p) : "memory");
}

__forceinline__ __device__ unsigned int tvm_builtin_cuda_cvta_generic_to_shared(void* p) {
    return __cvta_generic_to_shared(p);
}

__forceinline__ __device__ void tvm_builtin_cuda_cta_sync() {
    __syncthreads();
}
extern "C" __global__ void __launch_bounds__(64) main_kernel(half* __restrict__ A_ptr, half* __restrict__ B_ptr, float* __restrict__ D_ptr);
extern "C" __global__ void __launch_bounds__(64) main_kernel(half* __restrict__ A_ptr, half* __restrict__ B_ptr, float* __restrict__ D_ptr) {
  int warp_id_in_cta = __shfl_sync((uint)4294967295, (((int)threadIdx.x) >> 5), 0, 32);
  int lane = (((int)threadIdx.x) & 31);
  int warp = warp_id_in_cta;
  int tid = ((int)threadIdx.x);
  __shared__ alignas(64) half A_s_ptr[512];
  __shared__ alignas(64) half B_s_ptr[128];
  alignas(64) uint a_ptr[4];
  alignas(64) uint b_ptr[2];
  alignas(64) float d_ptr[4];
  uint* A_w = ((uint*)A_s_ptr);
  uint* B_w = ((uint*)B_s_ptr);
  for (int i = 0; i < 8; ++i) {
    A_s_ptr[((i * 64) + ((int)threadIdx.x))] = A_ptr[((i * 64) + ((int)threadIdx.x))];
  }
  for (int i_1 = 0; i_1 < 2; ++i_1) {
    B_s_ptr[((i_1 * 64) + ((int)threadIdx.x))] = B_ptr[((i_1 * 64) + ((int)threadIdx.x))];
  }
  tvm_builtin_cuda_cta_sync();
  tvm_builtin_ptx_ldmatrix_sync_aligned_m8n8_x4_shared_b16(a_ptr[0], a_ptr[1], a_ptr[2], a_ptr[3], tvm_builtin_cuda_cvta_generic_to_shared((&(A_w[((((((int)threadIdx.x) >> 5) * 128) + ((((int)threadIdx.x) & 15) * 8)) + (((((int)threadIdx.x) & 31) >> 4) * 4))]))));
  tvm_builtin_ptx_ldmatrix_sync_aligned_m8n8_x2_shared_b16(b_ptr[0], b_ptr[1], tvm_builtin_cuda_cvta_generic_to_shared((&(B_w[(((((int)threadIdx.x) & 7) * 8) + (((((int)threadIdx.x) & 15) >> 3) * 4))]))));
  tvm_builtin_ptx_mma_sync_aligned_m16n8k16_row_col_f32_f16_f16_f32(d_ptr[0], d_ptr[1], d_ptr[2], d_ptr[3], a_ptr[0], a_ptr[1], a_ptr[2], a_ptr[3], b_ptr[0], b_ptr[1], 0x0p+0f/*0.000000e+00*/, 0x0p+0f/*0.000000e+00*/, 0x0p+0f/*0.000000e+00*/, 0x0p+0f/*0.000000e+00*/);
  D_ptr[((((int)threadIdx.x) & 31) * 2)] = d_ptr[0];
  D_ptr[(((((int)threadIdx.x) & 31) * 2) + 1)] = d_ptr[1];
  D_ptr[(((((int)threadIdx.x) & 31) * 2) + 64)] = d_ptr[2];
  D_ptr[(((((int)threadIdx.x) & 31) * 2) + 65)] = d_ptr[3];
}

