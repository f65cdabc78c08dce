#!/usr/bin/env bash
# scripts/ptx-oracle/cute_kernels.sh [NVCC] — the PTX of tests/data/ptx/cute/:
# our CuTe gemm (gemm_cute.cu there: cp.async into swizzled shared memory,
# ldmatrix, SM80_16x8x16_F32F16F16F32_TN, a K loop) compiled by nvcc for
# sm_80 against CUTLASS's headers, once as written and once per planted
# mistake (-DPLANT_...), each with the launch file of its kernel.  The first
# line of each .ptx names the command that made it.  CUTLASS is not vendored:
# CUTLASS_INCLUDE names its include/ (default: the copy TileLang ships in
# /work/venv-tilelang).  Needs the CUDA toolkit (nvcc), not a GPU; CI runs
# none of this.
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
dir=tests/data/ptx/cute
if [ -z "${CUTLASS_INCLUDE:-}" ]; then
  CUTLASS_INCLUDE=$(ls -d /work/venv-tilelang/lib/python3*/site-packages/tilelang/3rdparty/cutlass/include 2>/dev/null |
    head -n 1)
fi
if [ ! -f "${CUTLASS_INCLUDE:-}/cute/tensor.hpp" ]; then
  echo "cute_kernels.sh: no CUTLASS headers; set CUTLASS_INCLUDE to CUTLASS's include/" >&2
  exit 2
fi
version=$(sed -n 's/^#define CUTLASS_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$CUTLASS_INCLUDE/cutlass/version.h" |
  paste -sd.)

compile() {  # NAME SOURCE LAUNCH [DEFINE]
  local name=$1 src=$2 launch=$3 define=${4:-}
  local cmd="nvcc -arch=sm_80 -ptx -std=c++17 -I<CUTLASS $version>/include ${define:+-D$define }$src"
  {
    echo "// made by scripts/ptx-oracle/cute_kernels.sh: $cmd"
    "$nvcc" -arch=sm_80 -ptx -std=c++17 -I"$CUTLASS_INCLUDE" ${define:+-D$define} -o - "$dir/$src"
  } >"$dir/$name.ptx"
  cp "$dir/$launch" "$dir/$name.launch.json"
}

compile gemm gemm_cute.cu gemm_cute.launch
for plant in SMEM_LAYOUT SKIP_K NO_SYNC EPILOGUE B_FROM_A; do
  compile "gemm_${plant,,}" gemm_cute.cu gemm_cute.launch "PLANT_$plant"
done
echo "wrote $(ls "$dir"/*.ptx | wc -l) PTX files to $dir"
