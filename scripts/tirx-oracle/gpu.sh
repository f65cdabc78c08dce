#!/usr/bin/env bash
# Build TVM 0.1.0a4's CUDA kernels (tests/data/tirx/NAME.cu, from gen.py) into
# stand-alone sm_90 programs that run each on integer inputs and compare D with
# the exact product (kernel_harness.cu); run them on a GPU machine.
#   scripts/tirx-oracle/gpu.sh OUT_DIR [PREFIX]  ->  OUT_DIR/NAME (static C++ runtime; needs only the driver)
# With PREFIX, only the kernels whose NAME starts with it (ldmatrix_warps/).  A
# kernel of several warps is launched with -DTHREADS=N threads (default 32).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: gpu.sh OUT_DIR [PREFIX]}
only=${2:-}
mkdir -p "$out"
build() {
  local name=$1
  shift
  [[ $name == "$only"* ]] || return 0
  mkdir -p "$(dirname "$out/$name")"
  /usr/local/cuda/bin/nvcc -O2 -arch=sm_90 -Xcompiler -static-libstdc++,-static-libgcc \
    -DKERNEL_FILE="\"$PWD/tests/data/tirx/$name.cu\"" -DNAME="\"$name\"" "$@" \
    scripts/tirx-oracle/kernel_harness.cu -o "$out/$name"
}
build tirx_seed_corrected -DDIM_M=16 -DDIM_N=8 -DDIM_K=16
build tirx_seed -DDIM_M=16 -DDIM_N=8 -DDIM_K=16
build tirx_c_tensor -DDIM_M=16 -DDIM_N=8 -DDIM_K=16 -DHAS_C
build tirx_bf16 -DDIM_M=16 -DDIM_N=8 -DDIM_K=16 -DBF16
build tirx_k8 -DDIM_M=16 -DDIM_N=8 -DDIM_K=16
build tirx_tiled_2x2x2 -DDIM_M=32 -DDIM_N=16 -DDIM_K=32
# tests/data/tirx/ldmatrix_warps: blocks of several warps staging through ldmatrix
for name in ok_m_split bad_region_fixed bad_region_swapped bad_no_sync bad_copy_by_lane bad_store_rows; do
  build ldmatrix_warps/$name -DDIM_M=32 -DDIM_N=8 -DDIM_K=16 -DTHREADS=64
done
build ldmatrix_warps/ok_m_split_four -DDIM_M=64 -DDIM_N=8 -DDIM_K=16 -DTHREADS=128
build ldmatrix_warps/ok_n_split -DDIM_M=16 -DDIM_N=16 -DDIM_K=16 -DTHREADS=64
build ldmatrix_warps/bad_b_region_fixed -DDIM_M=16 -DDIM_N=16 -DDIM_K=16 -DTHREADS=64
