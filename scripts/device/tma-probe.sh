#!/bin/sh
# The TMA facts of core/tma/ on the GPU (an sm_90a one: H100/H200): what
# cp.async.bulk.tensor.2d writes into shared memory for each swizzle mode, on
# and off the swizzle's repeat, with element strides and past the tensor's
# bounds, and which tensor maps cuTensorMapEncodeTiled refuses.  Run from
# the repository root (it needs nvcc and the driver):
#
#   sh scripts/device/tma-probe.sh            # writes $OUT/h200_probe.txt and $OUT/env.txt
#
# Copy h200_probe.txt into tests/data/tma/: tests/test_tma.cc then
# compares every word with the model (without the file that test is skipped).
set -eu
OUT=${OUT:-out}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$NVCC" -std=c++17 -O2 -arch=sm_90a -o "$OUT/tma_probe" scripts/device/tma_probe.cu -lcuda
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true; "$NVCC" --version | tail -1; } >"$OUT/env.txt"
{
  echo "# scripts/device/tma-probe.sh on $(head -1 "$OUT/env.txt")"
  "$OUT/tma_probe"
} >"$OUT/h200_probe.txt"
rm -f "$OUT/tma_probe"
grep -c '^copy' "$OUT/h200_probe.txt"
