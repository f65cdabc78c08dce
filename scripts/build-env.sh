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
# build-sanitize/, build-python/) so that the relative paths agree too.  The
# test suite's precompiled header (tests/CMakeLists.txt) is cached like any
# object; CCACHE_SLOPPINESS lets ccache use it (its timestamps and the
# macros it defines are not in the hash: it is itself cached by content).
# MMACHECK_CCACHE=OFF turns ccache off; CCACHE_DIR chooses the cache
# (default ~/.cache/ccache).
if [ "${MMACHECK_CCACHE:-ON}" != OFF ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  export CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
