// python3 scripts/tirx-oracle/tcgen05_programs.py --out tests/data/tirx  (apache-tvm-tirx 0.1.0a4)
extern "C" __global__ void __launch_bounds__(128) main_kernel();
extern "C" __global__ void __launch_bounds__(128) main_kernel() {
  __shared__ alignas(1024) half sa_ptr[1024];
  __shared__ alignas(1024) half sb_ptr[1024];
  alignas(64) half td_ptr[238];
  tvm_builtin_ptx_tcgen05_mma_ss_mma_cta_group__1_kind__f16(tvm_builtin_cuda_get_tmem_addr(((uint)reinterpret_cast<uint64_t>(td_ptr)), 0, 0), (((uint64_t)65536ULL | ((uint64_t)3221241872ULL << (uint64_t)32ULL)) | (((uint64_t)(tvm_builtin_cuda_cvta_generic_to_shared((&(sa_ptr[0]))) >> (uint)4)) & (uint64_t)16383ULL)), (((uint64_t)65536ULL | ((uint64_t)3221241872ULL << (uint64_t)32ULL)) | (((uint64_t)(tvm_builtin_cuda_cvta_generic_to_shared((&(sb_ptr[0]))) >> (uint)4)) & (uint64_t)16383ULL)), (uint)68157440, (uint)0, (uint)0, (uint)0, (uint)0, (bool)0);
}

