#!/usr/bin/env bash
# Install missing packages, then configure and build mmacheck into build/
# (the program is build/bin/mmacheck).  Extra arguments go to cmake's
# configure step, e.g. scripts/build.sh -DMMACHECK_TESTS=OFF.
# MMACHECK_WERROR=ON in the environment makes warnings errors (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
. scripts/build-env.sh
export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "-DMMACHECK_WERROR=${MMACHECK_WERROR:-OFF}" "$@" >/dev/null
cmake --build build -j "$(nproc)"
