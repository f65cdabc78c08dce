#!/usr/bin/env bash
# scripts/ptx-oracle/tcgen05_kernels.sh [NVCC] — the PTX of
# tests/data/ptx/tcgen05_nvcc/: the hand-written Blackwell gemm there
# (gemm_tcgen05.cu: tcgen05.alloc, mma kind::f16, commit, ld 32x32b,
# dealloc) compiled by nvcc for sm_100a, once as written and once per planted
# mistake (-DPLANT_...), each with the kernel's launch file.  The first line
# of each .ptx names the command that made it.  Needs the CUDA toolkit
# (nvcc 12.8+), not a GPU; CI runs none of this.
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
dir=tests/data/ptx/tcgen05_nvcc

compile() {  # NAME SOURCE LAUNCH [DEFINE]
  local name=$1 src=$2 launch=$3 define=${4:-}
  local cmd="nvcc -arch=sm_100a -ptx ${define:+-D$define }$src"
  {
    echo "// made by scripts/ptx-oracle/tcgen05_kernels.sh: $cmd"
    "$nvcc" -arch=sm_100a -ptx ${define:+-D$define} -o - "$dir/$src"
  } >"$dir/$name.ptx"
  cp "$dir/$launch" "$dir/$name.launch.json"
}

compile gemm gemm_tcgen05.cu gemm_tcgen05.launch
for plant in LANE_HALF NO_COMMIT_WAIT IDESC_N IDESC_M SBO B_FROM_A ACCUMULATE_FIRST LD_NO_WAIT DEALLOC_EARLY \
  NO_DEALLOC OVERWRITE; do
  compile "gemm_${plant,,}" gemm_tcgen05.cu gemm_tcgen05.launch "PLANT_$plant"
done
echo "wrote $(ls "$dir"/*.ptx | wc -l) PTX files to $dir"
