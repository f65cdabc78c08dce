// Runs one TVM 0.1.0a4-generated kernel (KERNEL_FILE) on integer inputs and
// compares D with the exact product D = A @ B^T (+ C) (B given N x K).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include KERNEL_FILE
#ifndef THREADS
#define THREADS 32  // the block: one warp, or -DTHREADS=64 for a kernel of several warps
#endif
#ifdef BF16
typedef nv_bfloat16 elem;
static elem to_elem(float x) { return __float2bfloat16(x); }
#else
typedef half elem;
static elem to_elem(float x) { return __float2half(x); }
#endif
int main() {
  const int M = DIM_M, N = DIM_N, K = DIM_K;
  std::vector<float> a(M * K), b(N * K), c(M * N, 0.f), want(M * N);
  unsigned s = 12345;
  auto rnd = [&] {
    s = s * 1103515245u + 12345u;
    return (float)((int)((s >> 16) % 9) - 4);
  };
  for (auto& x : a) x = rnd();
  for (auto& x : b) x = rnd();
#ifdef HAS_C
  for (auto& x : c) x = rnd();
#endif
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = c[i * N + j];
      for (int k = 0; k < K; ++k) acc += a[i * K + k] * b[j * K + k];
      want[i * N + j] = acc;
    }
  std::vector<elem> ha(a.size()), hb(b.size());
  for (size_t i = 0; i < a.size(); ++i) ha[i] = to_elem(a[i]);
  for (size_t i = 0; i < b.size(); ++i) hb[i] = to_elem(b[i]);
  elem *da, *db;
  float *dc, *dd;
  cudaMalloc(&da, ha.size() * sizeof(elem));
  cudaMalloc(&db, hb.size() * sizeof(elem));
  cudaMalloc(&dc, c.size() * 4);
  cudaMalloc(&dd, c.size() * 4);
  cudaMemcpy(da, ha.data(), ha.size() * sizeof(elem), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), hb.size() * sizeof(elem), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dd, 0xff, c.size() * 4);
#ifdef HAS_C
  main_kernel<<<1, THREADS>>>(da, db, dc, dd);
#else
  main_kernel<<<1, THREADS>>>(da, db, dd);
#endif
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("%s: CUDA error %s\n", NAME, cudaGetErrorString(e));
    return 3;
  }
  std::vector<float> got(c.size());
  cudaMemcpy(got.data(), dd, got.size() * 4, cudaMemcpyDeviceToHost);
  int wrong = 0, first = -1;
  for (int i = 0; i < M * N; ++i)
    if (got[i] != want[i]) {
      if (first < 0) first = i;
      ++wrong;
    }
  if (!wrong) printf("%s: D exact (%d elements)\n", NAME, M * N);
  else
    printf("%s: %d of %d elements wrong, first D[%d][%d] = %g, exact %g\n", NAME, wrong, M * N, first / N, first % N,
           got[first], want[first]);
  return wrong ? 1 : 0;
}
