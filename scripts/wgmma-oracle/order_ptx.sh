#!/usr/bin/env bash
# The PTX nvcc writes for tests/data/wgmma/order/wgmma_order.cu, once per
# variant (its header lists them), into tests/data/wgmma/order/NAME.ptx, for
# `mmacheck wgmma FILE.ptx` (docs/wgmma.md, "Fence, commit, wait") and
# tests/test_wgmma_order.cc.  Needs the CUDA toolkit (nvcc), no GPU:
#   scripts/wgmma-oracle/order_ptx.sh
# Each file starts with a comment naming the nvcc that wrote it.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=tests/data/wgmma/order
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
version=$("$nvcc" --version | tail -1)
for variant in ok MISSING_FENCE WRITE_THEN_MMA READ_BEFORE_WAIT NO_COMMIT WRITE_IN_FLIGHT WAIT_TOO_WEAK INIT_AFTER_FENCE; do
  name=$(echo "$variant" | tr 'A-Z' 'a-z')
  flag=()
  [ "$variant" != ok ] && flag=(-D"$variant")
  "$nvcc" -ptx -arch=sm_90a -O3 "${flag[@]}" "$dir/wgmma_order.cu" -o "$dir/$name.ptx.tmp"
  { echo "// nvcc -ptx -arch=sm_90a -O3 ${flag[*]} wgmma_order.cu ($version)"; cat "$dir/$name.ptx.tmp"; } >"$dir/$name.ptx"
  rm "$dir/$name.ptx.tmp"
done
ls "$dir"
