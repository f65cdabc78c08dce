#!/usr/bin/env bash
# Install what mmacheck needs to build and test, from Debian's packages.
# Idempotent: quiet and quick when everything is already there.  The CUDA
# toolkit (for the GPU commands) is not a Debian package: it is used where
# it is installed, under /usr/local/cuda.
# `scripts/setup.sh fuzz` adds clang and its sanitizer/libFuzzer runtimes,
# which only the sanitizer and fuzz build (scripts/sanitize.sh) needs;
# `scripts/setup.sh lint` adds clang-format and clang-tidy (scripts/format.sh,
# scripts/tidy.sh).
set -euo pipefail

packages=(cmake g++ make ccache pkg-config libz3-dev libeigen3-dev libboost-program-options-dev nlohmann-json3-dev catch2 libvalijson-dev)
case "${1:-}" in
  fuzz) packages+=(clang libclang-rt-14-dev) ;;
  lint) packages+=(clang-format clang-tidy) ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The CUDA toolkit is optional: without it the build leaves out the GPU
# commands (cmake/cuda.cmake, MMACHECK_CUDA=AUTO) and everything else works.
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
  echo "setup: no CUDA toolkit (nvcc under /usr/local/cuda or on PATH): building without the GPU commands (gpu, capture)" >&2
fi
