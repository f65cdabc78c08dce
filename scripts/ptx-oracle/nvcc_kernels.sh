#!/usr/bin/env bash
# scripts/ptx-oracle/nvcc_kernels.sh [NVCC] — the PTX of tests/data/ptx/nvcc/:
# each hand-written kernel (*.cu there) compiled by nvcc for sm_80, once as
# written and once per planted mistake (-DPLANT_...), each with the launch
# file of its kernel.  The first line of each .ptx names the command that
# made it.  Needs the CUDA toolkit (nvcc), not a GPU; CI runs none of this.
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
dir=tests/data/ptx/nvcc

compile() {  # NAME SOURCE LAUNCH [DEFINE]
  local name=$1 src=$2 launch=$3 define=${4:-}
  local cmd="nvcc -arch=sm_80 -ptx ${define:+-D$define }$src"
  {
    echo "// made by scripts/ptx-oracle/nvcc_kernels.sh: $cmd"
    "$nvcc" -arch=sm_80 -ptx ${define:+-D$define} -o - "$dir/$src"
  } >"$dir/$name.ptx"
  cp "$dir/$launch" "$dir/$name.launch.json"
}

compile global gemm_global.cu gemm_global.launch
for plant in STORE_FIRST SKIP_K B_FROM_A B_ROW SWAP EPILOGUE; do
  compile "global_${plant,,}" gemm_global.cu gemm_global.launch "PLANT_$plant"
done
compile const gemm_const.cu gemm_const.launch
compile const_table gemm_const.cu gemm_const.launch PLANT_TABLE
compile shared gemm_shared.cu gemm_shared.launch
for plant in NO_WAIT NO_SYNC NO_SYNC_AFTER LDMATRIX_ROW B_FROM_A; do
  compile "shared_${plant,,}" gemm_shared.cu gemm_shared.launch "PLANT_$plant"
done
echo "wrote $(ls "$dir"/*.ptx | wc -l) PTX files to $dir"
