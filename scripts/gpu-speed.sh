#!/bin/sh
# The GPU differential's throughput figures of docs/performance.md ("GPU
# differential throughput"), on the GPU machine from a bundle
# (scripts/bundle.sh):  scripts/gpu-speed.sh BUNDLE OUT_DIR
# One file per command under OUT_DIR, each starting with the load average.
set -u
B=${1:?usage: gpu-speed.sh BUNDLE OUT_DIR}
OUT=${2:?usage: gpu-speed.sh BUNDLE OUT_DIR}
mkdir -p "$OUT"
M="$B/bin/mmacheck"
E="$B/src/examples"
TIME=
[ -x /usr/bin/time ] && TIME="/usr/bin/time -v"  # peak memory, where the machine has it
run() {  # run NAME COMMAND...
  name=$1
  shift
  { echo "load: $(cat /proc/loadavg)"; echo "\$ $*"; $TIME "$@"; echo "exit $?"; } >"$OUT/$name.txt" 2>&1
}
{ nproc; lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Flags'; nvidia-smi -L; cat /proc/loadavg; } >"$OUT/machine.txt" 2>&1
run prepare_m64 "$B/bin/diff_prepare_bench" "$E/m64.txt" --cases 20000
# The same on the narrower paths (the inputs are the same; a path the
# processor lacks is refused, exit 2).
run prepare_m64_avx2 "$B/bin/diff_prepare_bench" "$E/m64.txt" --cases 20000 --threads 1 --path avx2
run prepare_m64_scalar "$B/bin/diff_prepare_bench" "$E/m64.txt" --cases 20000 --threads 1 --path scalar
run prepare_m64_all "$B/bin/diff_prepare_bench" "$E/m64.txt" --cases 20000 --threads 1 --inputs all
run bench_nest_m64 "$M" bench --threads 16 --nest "$E/m64.txt"
run gpu_m64_4M "$M" gpu "$E/m64.txt" --cases 4194304
run gpu_m64_4M_all "$M" gpu "$E/m64.txt" --cases 4194304 --devices all
run gpu_m64_1thread "$M" gpu "$E/m64.txt" --cases 262144 --threads 1
run gpu_seed_corrected_4M "$M" gpu "$E/seed_corrected.txt" --cases 4194304
run gpu_tiled_2x2x2_1M "$M" gpu "$E/tiled_2x2x2.txt" --cases 1048576
run gpu_m64_inputs_all_1M "$M" gpu "$E/m64.txt" --cases 1048576 --inputs all
grep -h "cases per minute\|cases on\|CPU time per case\|differ (" "$OUT"/*.txt
