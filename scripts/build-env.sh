# Sourced by the build scripts (build.sh, sanitize.sh, fuzz.sh,
# python-test.sh, check-changed.sh): how every build tree is compiled.
# (Make, cmake's default generator: Ninja kept CI's two cores no busier,
# docs/contributing.md.)
#
# ccache, where it is installed (Debian's `ccache`), with one cache for
# every clone of the repository on this machine.  Paths under the clone are
# hashed relative to it (CCACHE_BASEDIR), and the compiler's working
# directory is left out of the hash (CCACHE_NOHASHDIR: it only differs by
# the clone's place), so a fresh clone compiles what another clone compiled
# from the cache.  The build trees keep one depth below the clone (build/,
# build-sanitize/, build-python/) so that the relative paths agree too.
# (No precompiled headers: clang's records the clone's path, so every object
# using it would miss the cache in the next clone, docs/contributing.md.)
# MMACHECK_CCACHE=OFF turns ccache off; CCACHE_DIR chooses the cache
# (default ~/.cache/ccache).
if [ "${MMACHECK_CCACHE:-ON}" != OFF ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  export CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
