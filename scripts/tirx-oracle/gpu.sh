#!/usr/bin/env bash
# Build TVM 0.1.0a4's CUDA kernels (tests/data/tirx/NAME.cu, from gen.py) into
# stand-alone sm_90 programs that run each on integer inputs and compare D with
# the exact product (kernel_harness.cu); run them on a GPU machine.
#   scripts/tirx-oracle/gpu.sh OUT_DIR   ->  OUT_DIR/NAME (static C++ runtime; needs only the driver)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: gpu.sh OUT_DIR}
mkdir -p "$out"
build() {
  local name=$1
  shift
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
