#!/usr/bin/env bash
# The sanitizer build: the whole tree with AddressSanitizer (leaks included)
# and UndefinedBehaviorSanitizer, into build-sanitize/, built with clang so
# that the libFuzzer harnesses (tests/fuzz/) come with it; then the whole
# suite there (the GPU tests skip).  Any report fails its test.  Extra
# arguments go to cmake's configure step.  .ci/run runs this after the
# normal suite; docs/reliability.md says more.  MMACHECK_WERROR=ON in the
# environment makes warnings errors, as in scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh fuzz
. scripts/build-env.sh
export PATH="/usr/local/cuda/bin:$PATH"
# -O1: the sanitizers' usual level; it halves the build time of -O2.  Line
# tables are all the reports need (file:line in every frame); full debug
# information costs a tenth of the build.
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++ -DMMACHECK_SANITIZE=address,undefined -DMMACHECK_FUZZ=ON \
  "-DMMACHECK_WERROR=${MMACHECK_WERROR:-OFF}" "$@" >/dev/null
cmake --build build-sanitize -j "$(nproc)"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)"
