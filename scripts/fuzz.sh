#!/usr/bin/env bash
# scripts/fuzz.sh SECONDS [HARNESS...] — run each libFuzzer harness of
# tests/fuzz/ for SECONDS (one per core at a time, at low priority), starting from
# seed corpora made from examples/ and tests/data/.  Builds build-sanitize/
# (scripts/sanitize.sh's tree) when the harnesses are missing.  Prints one
# line per harness: executions, corpus size, findings.  A finding (crash,
# sanitizer report, leak, timeout, out-of-memory) is kept under
# build-sanitize/fuzz/HARNESS/ and makes the exit status 1; re-run it with
# `build-sanitize/bin/HARNESS FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:?usage: scripts/fuzz.sh SECONDS [fuzz_layout_expr fuzz_program fuzz_python fuzz_mmav fuzz_triton fuzz_cute fuzz_families fuzz_ptx]}
shift
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(fuzz_layout_expr fuzz_program fuzz_python fuzz_mmav fuzz_triton fuzz_cute fuzz_families fuzz_ptx)

bin=build-sanitize/bin
for h in "${harnesses[@]}"; do
  if [ ! -x "$bin/$h" ]; then
    scripts/setup.sh fuzz
    . scripts/build-env.sh
    cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" \
      -DCMAKE_CXX_COMPILER=clang++ -DMMACHECK_SANITIZE=address,undefined -DMMACHECK_FUZZ=ON >/dev/null
    cmake --build build-sanitize -j "$(nproc)" --target "${harnesses[@]}"
    break
  fi
done

# Seeds: the example programs whole; each layout expression of them (the
# right-hand sides of `NAME = ...` lines that are not buffers); the vector
# files cut to their first two cases (a whole file runs 384 cases per input).
work=build-sanitize/fuzz
mkdir -p "$work"/seeds/{fuzz_program,fuzz_python,fuzz_layout_expr,fuzz_mmav,fuzz_triton,fuzz_cute,fuzz_families,fuzz_ptx}
cp examples/*.txt "$work/seeds/fuzz_program/"
cp examples/tirx_*.py "$work/seeds/fuzz_program/"  # the released TIRx: programs and lowered dumps
# Whole .py files: TVMScript examples and the test-file corpus (factories, parametrized tests).
cp examples/*.py tests/data/tvm/test_files/*.py "$work/seeds/fuzz_python/"
n=0
for f in examples/*.txt; do
  { grep -E '^[A-Za-z_][A-Za-z0-9_]* *= *' "$f" || true; } | { grep -vE '= *(buffer|T\.alloc_buffer)\(' || true; } |
    sed -E 's/^[A-Za-z_][A-Za-z0-9_]* *= *//' | while IFS= read -r expr; do
      n=$((n + 1))
      printf '%s' "$expr" >"$work/seeds/fuzz_layout_expr/$(basename "$f" .txt)-$n"
    done
done
# The Triton layouts files whole, and each of their entries as a file of one.
cp tests/data/triton/*.json tests/data/triton/ttgir/*.ttgir tests/data/triton/ttgir/*.mlir "$work/seeds/fuzz_triton/"
for f in tests/data/triton/*.json; do
  grep -E '^\{"name"' "$f" | sed -E 's/,$//' | awk -v dir="$work/seeds/fuzz_triton" -v base="$(basename "$f" .json)" \
    '{ printf "{\"operands\": [%s]}\n", $0 > (dir "/" base "-" NR ".json") }'
done
# The CuTe reader: the trait header and atom lists of tests/data/cute/ whole.
cp tests/data/cute/* "$work/seeds/fuzz_cute/"
# The families' files whole: wgmma, tcgen05, TMA, mma.sp and block-scale
# examples, nvcc's wgmma PTX, TIRx's tcgen05 dumps.
for d in wgmma tcgen05 tma sparse scales; do
  for f in examples/$d/*.txt; do cp "$f" "$work/seeds/fuzz_families/$d-$(basename "$f")"; done
done
cp tests/data/wgmma/order/*.ptx tests/data/tirx/tcgen05_*.lowered.py "$work/seeds/fuzz_families/"
# The PTX kernels nvcc, Triton and TVM wrote.
for d in nvcc triton tirx tilelang; do
  for f in tests/data/ptx/$d/*.ptx; do cp "$f" "$work/seeds/fuzz_ptx/$d-$(basename "$f")"; done
done
for f in tests/data/*.mmav; do
  awk '/^case /{c++} c>2{exit} {print}' "$f" >"$work/seeds/fuzz_mmav/$(basename "$f")"
done

export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# One harness: its line (executions, corpus, findings) into $work/$h/result.
run_one() {
  local h=$1 dict=tests/fuzz/layout.dict
  [ "$h" = fuzz_mmav ] && dict=tests/fuzz/mmav.dict
  [ "$h" = fuzz_triton ] && dict=tests/fuzz/triton.dict
  [ "$h" = fuzz_cute ] && dict=tests/fuzz/cute.dict
  [ "$h" = fuzz_families ] && dict=tests/fuzz/families.dict
  [ "$h" = fuzz_ptx ] && dict=tests/fuzz/ptx.dict
  mkdir -p "$work/$h/corpus" "$work/$h/findings"
  local log="$work/$h/last.log" result
  # -timeout: one input running 10 s is a hang; -rss_limit_mb: memory past
  # 2 GB is a missing resource limit.
  if nice -n 10 "$bin/$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
      -dict="$dict" -print_final_stats=1 -artifact_prefix="$work/$h/findings/" \
      "$work/$h/corpus" "$work/seeds/$h" >"$log" 2>&1; then
    result="no findings"
  else
    result="FINDING (see $log and $work/$h/findings/)"
  fi
  local execs corpus
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
  corpus=$(find "$work/$h/corpus" -type f | wc -l)
  echo "$h: $execs executions in ${seconds} s, corpus $corpus inputs, $result" >"$work/$h/result"
}

# The harnesses run side by side, one per core (MMACHECK_FUZZ_JOBS, default
# nproc): each still gets its SECONDS of one core, and the wall time is
# divided by the cores.
jobs=${MMACHECK_FUZZ_JOBS:-$(nproc)}
running=0
for h in "${harnesses[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$h" &
  running=$((running + 1))
done
wait
status=0
for h in "${harnesses[@]}"; do
  cat "$work/$h/result"
  grep -q FINDING "$work/$h/result" && status=1
done
exit $status
