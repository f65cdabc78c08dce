#!/bin/sh
# The shared-memory run on the GPU machine (docs/shared-memory.md, docs/gpu.md):
# copy into a bundle (scripts/bundle.sh) and run there as
#   BUNDLE/smem-device.sh OUT_DIR
# Writes: env.txt; tests.txt (the whole suite, [gpu] and [shared] cases
# included: gpu-vs-sim on every shared example, the clock-timed ldmatrix
# loops); gpu-NAME.txt (`mmacheck gpu` on every smem example and the seed);
# ncu-NAME.txt (ncu's shared-memory wavefront counters, when ncu is there);
# summary.txt.
set -u
B=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: smem-device.sh OUT_DIR}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
: >"$OUT/summary.txt"
M="$B/bin/mmacheck"
if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so\.13 ' && [ ! -e /usr/local/cuda/lib64/libnvrtc.so.13 ] &&
  [ ! -e "$B/lib/libnvrtc.so.13" ]; then
  if command -v xz >/dev/null 2>&1; then xz -dc "$B/lib/nvrtc.tar.xz" | tar -x -C "$B/lib"
  else python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$B/lib/nvrtc.tar.xz" "$B/lib"; fi
fi
src=$(sed -n 's/^source //p' "$B/paths")
bin=$(sed -n 's/^binary //p' "$B/paths")
[ -e "$src/examples" ] || { mkdir -p "$src" && ln -s "$B/examples" "$src/examples"; }
[ -e "$src/tests/data" ] || { mkdir -p "$src/tests" && ln -s "$B/tests/data" "$src/tests/data"; }
[ -e "$bin" ] || { mkdir -p "$(dirname "$bin")" && ln -s "$M" "$bin"; }
step() {  # step NAME OUTPUT SECONDS COMMAND...
  name=$1 log=$2 limit=$3
  shift 3
  t0=$(date +%s)
  timeout "$limit" "$@" >"$log" 2>&1
  echo "$? $name $(($(date +%s) - t0))s" >>"$OUT/summary.txt"
}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda-*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
{
  nvidia-smi -L; "$M" --version; cat "$B/paths"
  echo "ncu: ${NCU:-none}"; command -v nvcc || echo "nvcc: none"
} >"$OUT/env.txt" 2>&1
step shared-gpu "$OUT/shared-gpu.txt" 120 "$B/bin/mmacheck_tests" "[shared]" --durations yes
for ex in "$B"/examples/smem_*.txt "$B"/examples/seed.txt "$B"/examples/seed_corrected.txt; do
  name=$(basename "$ex" .txt)
  step "gpu/$name" "$OUT/gpu-$name.txt" 60 "$M" gpu "$ex" --cases 64 --inst-set extended
done
if [ -n "$NCU" ]; then
  "$NCU" --query-metrics >"$OUT/ncu-metrics.txt" 2>&1
  metrics=""
  for m in l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm \
           l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld \
           l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st l1tex__data_pipe_lsu_wavefronts_mem_shared \
           smsp__inst_executed_op_ldsm smsp__sass_inst_executed_op_ldsm; do
    grep -q "^$m " "$OUT/ncu-metrics.txt" && metrics="$metrics${metrics:+,}$m.sum"
  done
  echo "metrics: $metrics" >>"$OUT/env.txt"
  for name in smem_swizzle128 smem_noswizzle smem_ld_shared smem_stmatrix_d; do
    step "ncu/$name" "$OUT/ncu-$name.txt" 60 "$NCU" --kernel-name mmacheck_gemm --launch-count 1 \
      --metrics "${metrics:-l1tex__data_pipe_lsu_wavefronts_mem_shared.sum}" "$M" gpu "$B/examples/$name.txt" --cases 1 --inst-set extended
  done
fi
if [ -n "$NCU" ]; then
  step ncu/bench "$OUT/ncu-bench.txt" 90 "$NCU" --kernel-name bench \
    --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_ldsm.sum \
    "$B/bin/mmacheck_tests" "GPU: ldmatrix takes the wavefronts the bank count predicts"
fi
step tests "$OUT/tests.txt" 150 "$B/bin/mmacheck_tests" --durations yes
cat "$OUT/summary.txt"
tar -C "$OUT" -czf "$OUT/../smem-results.tar.gz" . 
exit 0
