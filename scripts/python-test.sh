#!/usr/bin/env bash
# The Python package's tests: `pip install .` into a virtual environment
# (build/python-venv or $MMACHECK_PY_VENV, kept so that a second run rebuilds only what changed,
# with ccache), then pytest over python/tests.  The tests against the real
# packages (apache-tvm-tirx; triton and nvidia-cutlass-dsl with
# MMACHECK_PY_ORACLES=all) skip when those are absent.
#
# Needs the package index: where pip cannot reach it (no network), the
# script says so and exits 0 without testing — the C++ suite does not
# depend on it.  Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${MMACHECK_PY_VENV:-build/python-venv}"
. scripts/build-env.sh
# build/'s generator and compiler, so that its objects are the module's: the
# compiler runs in the same subfolders, with the same relative paths.
if [ -f build/CMakeCache.txt ]; then
  CMAKE_GENERATOR=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' build/CMakeCache.txt)
  export CMAKE_GENERATOR
fi
export CXX="${CXX:-c++}"
# The same warning flags as build/, so that its objects are the module's
# (a flag of its own would make every object a cache miss).
export CMAKE_ARGS="${CMAKE_ARGS:-} -DMMACHECK_WERROR=${MMACHECK_WERROR:-OFF}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/pip" --timeout 30 --retries 1)
start=$(date +%s)
# The build requirements (pyproject.toml) and pytest: the probe of the index.
if ! "${pip[@]}" install -q "scikit-build-core>=0.10" "nanobind>=2.0" pytest 2>/tmp/mmacheck-python-test.pip; then
  echo "python-test: skipped: pip cannot install the build requirements (no package index?):"
  tail -3 /tmp/mmacheck-python-test.pip
  exit 0
fi
oracles=("apache-tvm-tirx==0.1.0a4")
[ "${MMACHECK_PY_ORACLES:-}" = all ] && oracles+=(triton nvidia-cutlass-dsl)
"${pip[@]}" install -q "${oracles[@]}" || echo "python-test: the oracle packages did not install; their tests skip"
# --no-build-isolation: the requirements above, in a venv that stays, so the
# build folder (build/python/...) is reused.
"${pip[@]}" install -q --no-build-isolation .
echo "python-test: installed in $(( $(date +%s) - start )) s"
cd python/tests && "../../$venv/bin/python" -m pytest -q -p no:cacheprovider .
