#!/usr/bin/env bash
# Build mmacheck (Release) and assemble bundle/: a relocatable copy that runs
# on a GPU machine with none of our Debian packages (driver and CUDA only).
#
#   bundle/bin/mmacheck, bin/mmacheck_tests   RUNPATH $ORIGIN/../lib
#   bundle/bin/diff_prepare_bench             the GPU differential's host side, timed (docs/performance.md)
#   bundle/bin/ptx_bench                      the CTA machine on PTX launches, timed (docs/performance.md)
#   bundle/lib/                               Boost.Program_options; libz3.so.4.xz (xz: 23 -> 5 MB),
#                                             unpacked by run-tests.sh
#   bundle/lib/nvrtc.tar.xz                   NVRTC 13 (+ builtins) of this toolkit, unpacked
#                                             by run-tests.sh when the machine has no NVRTC
#   bundle/src.tar.xz                         the working tree's files (tracked and untracked, not
#                                             ignored): examples, tests/data and the sources the
#                                             tests read (README, layer rules, package test);
#                                             unpacked into bundle/src/ by run-tests.sh
#   bundle/paths                              source and binary paths compiled into the tests,
#                                             and the git revision built
#   bundle/run-tests.sh OUT                   the tests, `gpu` on every example, a capture
#
# The machine must have glibc >= 2.34 and the libstdc++ of GCC >= 12
# (GLIBCXX_3.4.30), as Ubuntu 22.04 and 24.04 (the CUDA 13 images) do: this
# machine's libstdc++ needs glibc 2.36, so bundling it would not help there.
# The bundle stays under 60 MB; the build goes to build-bundle/.
#
#   BUNDLE_BUILD=DIR   build in DIR instead (an existing build tree configured
#                      with -DCMAKE_BUILD_RPATH='$ORIGIN/../lib' is reused as is)
#   BUNDLE_NVRTC=0     leave NVRTC out (the GPU machine has its own: the device
#                      lab's has /usr/local/cuda/lib64/libnvrtc.so.13)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUNDLE_BUILD:-$root/build-bundle}
out=$root/bundle
cuda_lib=/usr/local/cuda/lib64
limit_mb=60

# bundle/run-tests.sh, printed.
write_run_tests() {
  cat <<'SCRIPT'
#!/bin/sh
# On the GPU machine: bundle/run-tests.sh OUT_DIR  (any working directory).
# Writes into OUT_DIR (created):
#   env.txt            machine, OS, GPUs, glibc, mmacheck version
#   gpu-tests.txt      the [gpu] tests of mmacheck_tests
#   gpu/NAME.txt       `mmacheck gpu` on every example (--inst-set from its first comment line)
#   captured.mmav      `mmacheck capture --instr all` (128 cases per instruction: 82
#                      instructions at 384 gave 131 MB, over the 64 MiB input limit)
#   capture-check.txt  `mmacheck mma` (the simulator) on captured.mmav
#   tests.txt          the whole test suite
#   ncu/NAME.txt       shared-memory wavefronts of the smem examples and the ldmatrix
#                      benchmark (ncu's counters; only where ncu is installed)
#   summary.txt        one line per step: exit status, step, seconds
# Exits 0 once everything ran; the verdicts are in summary.txt.
set -u
export PATH="${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
B=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: run-tests.sh OUT_DIR}
mkdir -p "$OUT/gpu" && OUT=$(cd "$OUT" && pwd)
: >"$OUT/summary.txt"
M="$B/bin/mmacheck"

# NVRTC: the machine's own, else the bundled copy, unpacked into lib/ where
# the programs' RUNPATH finds it (mmacheck loads the builtins beside it).
if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so\.13 ' && [ ! -e /usr/local/cuda/lib64/libnvrtc.so.13 ] &&
  [ ! -e "$B/lib/libnvrtc.so.13" ]; then
  if command -v xz >/dev/null 2>&1; then
    xz -dc "$B/lib/nvrtc.tar.xz" | tar -x -C "$B/lib"
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$B/lib/nvrtc.tar.xz" "$B/lib"
  fi
fi

# The sources, and the libraries, shipped compressed.
xz_cat() {
  if command -v xz >/dev/null 2>&1; then
    xz -dc "$1"
  else
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"
  fi
}
[ -d "$B/src" ] || { mkdir -p "$B/src" && xz_cat "$B/src.tar.xz" | tar -x -C "$B/src"; }
for f in "$B"/lib/*.xz; do
  case "$f" in */nvrtc.tar.xz) continue ;; esac
  [ -e "${f%.xz}" ] || xz_cat "$f" >"${f%.xz}"
done

# The tests look for the sources and the program where they were built.
src=$(sed -n 's/^source //p' "$B/paths")
bin=$(sed -n 's/^binary //p' "$B/paths")
[ -e "$src" ] || { mkdir -p "$(dirname "$src")" && ln -s "$B/src" "$src"; }
[ -e "$bin" ] || { mkdir -p "$(dirname "$bin")" && ln -s "$M" "$bin"; }

step() {  # step NAME OUTPUT SECONDS COMMAND...
  name=$1 log=$2 limit=$3
  shift 3
  t0=$(date +%s)
  timeout "$limit" "$@" >"$log" 2>&1
  echo "$? $name $(($(date +%s) - t0))s" >>"$OUT/summary.txt"
}

{
  uname -a
  grep -E '^(PRETTY_NAME)=' /etc/os-release
  nvidia-smi -L || echo "(no nvidia-smi)"
  ldd --version | head -n 1
  ldd "$M" "$B/bin/mmacheck_tests"
  "$M" --version
  cat "$B/paths"
  echo "NVRTC: $(ls "$B"/lib/libnvrtc.so.13 /usr/local/cuda/lib64/libnvrtc.so.13 2>/dev/null | head -n 1) $(ldconfig -p | grep -m 1 libnvrtc.so.13)"
} >"$OUT/env.txt" 2>&1

step gpu-tests "$OUT/gpu-tests.txt" 150 "$B/bin/mmacheck_tests" "[gpu]" --durations yes
for ex in "$B"/src/examples/*.txt; do
  name=$(basename "$ex" .txt)
  set=tvm
  grep -m 1 '^#' "$ex" | grep -q -- '--inst-set extended' && set=extended
  step "gpu/$name" "$OUT/gpu/$name.txt" 60 "$M" gpu "$ex" --cases 64 --inst-set "$set"
done
# Shared-memory wavefronts (docs/gpu.md), where the machine has ncu.
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda-*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
echo "ncu: ${NCU:-none}" >>"$OUT/env.txt"
if [ -n "$NCU" ]; then
  wavefronts=l1tex__data_pipe_lsu_wavefronts_mem_shared
  mkdir -p "$OUT/ncu"
  for name in smem_swizzle128 smem_noswizzle smem_ld_shared smem_stmatrix_d; do
    step "ncu/$name" "$OUT/ncu/$name.txt" 60 "$NCU" --kernel-name mmacheck_gemm --launch-count 1 \
      --metrics "$wavefronts.sum,${wavefronts}_op_ldsm.sum,${wavefronts}_op_stsm.sum,${wavefronts}_op_ld.sum,${wavefronts}_op_st.sum" \
      "$M" gpu "$B/src/examples/$name.txt" --cases 1 --inst-set extended
  done
  step ncu/bench "$OUT/ncu/bench.txt" 90 "$NCU" --kernel-name bench \
    --metrics "$wavefronts.sum,${wavefronts}_op_ld.sum,smsp__inst_executed_op_ldsm.sum" \
    "$B/bin/mmacheck_tests" "GPU: ldmatrix takes the wavefronts the bank count predicts"
fi
step capture "$OUT/capture.txt" 150 "$M" capture --instr all --cases 128 -o "$OUT/captured.mmav"
step capture-check "$OUT/capture-check.txt" 60 "$M" mma --vectors "$OUT/captured.mmav" --show 20
step tests "$OUT/tests.txt" 200 "$B/bin/mmacheck_tests" --durations yes
cat "$OUT/summary.txt"
exit 0
SCRIPT
}

scripts/setup.sh
export PATH="/usr/local/cuda/bin:$PATH"
# '$ORIGIN' is literal: the loader expands it to the binary's directory.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release '-DCMAKE_BUILD_RPATH=$ORIGIN/../lib' >/dev/null
cmake --build "$build" -j "$(nproc)" --target mmacheck mmacheck_tests diff_prepare_bench ptx_bench

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
cp "$build/bin/mmacheck" "$build/bin/mmacheck_tests" "$build/bin/diff_prepare_bench" "$build/bin/ptx_bench" "$out/bin/"
strip "$out/bin/mmacheck" "$out/bin/mmacheck_tests" "$out/bin/diff_prepare_bench" "$out/bin/ptx_bench"

# Every shared library the binaries load, except the C and C++ runtimes
# (see above; the versions they need are printed at the end).
ldd "$out/bin/mmacheck" "$out/bin/mmacheck_tests" | awk '/=> \// {print $3}' | sort -u |
  while read -r lib; do
    case "$(basename "$lib")" in
      libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux* | libstdc++.so.* | libgcc_s.so.*) ;;
      *) cp -L "$lib" "$out/lib/" ;;
    esac
  done

# NVRTC is 100+ MB; xz with its x86 filter brings it under 29 MB.  Compressed
# once (minutes), reused while the toolkit's copy is not newer.
archive=$build/nvrtc.tar.xz
if [ "${BUNDLE_NVRTC:-1}" = 0 ]; then
  echo "bundle: NVRTC left out (BUNDLE_NVRTC=0)"
elif [ ! -f "$archive" ] || [ "$cuda_lib/libnvrtc.so.13" -nt "$archive" ]; then
  echo "bundle: compressing NVRTC (a few minutes)"
  builtins=$(cd "$cuda_lib" && ls libnvrtc-builtins.so.13.* | grep -v alt | head -n 1)
  tar -C "$cuda_lib" -cf - libnvrtc.so.13 "$builtins" | xz --x86 --lzma2=preset=9e,dict=128MiB -T "$(nproc)" >"$archive.tmp"
  mv "$archive.tmp" "$archive"
fi
[ "${BUNDLE_NVRTC:-1}" = 0 ] || cp "$archive" "$out/lib/nvrtc.tar.xz"

# The sources as one xz archive (text: about 6x; unpacked they grew past
# the limit), unpacked into src/ by run-tests.sh.
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | xz -9 -T "$(nproc)" >"$out/src.tar.xz"
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || revision="$revision+changes"
printf 'source %s\nbinary %s\nrevision %s\n' "$root" "$build/bin/mmacheck" "$revision" >"$out/paths"
write_run_tests >"$out/run-tests.sh"
chmod +x "$out/run-tests.sh"

# The bundle must run without anything from this machine's environment.
env -i "$out/bin/mmacheck" --version >/dev/null
env -i "$out/bin/mmacheck" help >/dev/null
# libz3 is most of the rest; xz brings 23 MB to about 5 MB.
for lib in "$out"/lib/libz3.so*; do xz -9 -T "$(nproc)" "$lib"; done

shared_objects=()  # the libraries as shipped (libz3 is compressed, so objdump cannot read it)
for f in "$out/lib/"*.so*; do [[ $f == *.xz ]] || shared_objects+=("$f"); done
needs=$(objdump -T "$out/bin/"* "${shared_objects[@]}" 2>/dev/null | grep -oE '(GLIBC|GLIBCXX)_[0-9.]+' | sort -uV |
  awk -F_ '{last[$1] = $0} END {print last["GLIBC"], last["GLIBCXX"]}')
size_mb=$(du -sm "$out" | cut -f1)
echo "bundle: $out, ${size_mb} MB, needs ${needs} on the machine"
if [ "$size_mb" -ge "$limit_mb" ]; then
  echo "bundle: error: ${size_mb} MB is over the ${limit_mb} MB limit" >&2
  exit 1
fi
