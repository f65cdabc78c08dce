# Sourced by the build scripts (build.sh, sanitize.sh, fuzz.sh, python-test.sh):
# compile through ccache where it is installed (Debian's `ccache`, which
# scripts/setup.sh installs), with one cache for every clone of the
# repository on this machine.  Paths under the clone are hashed relative to
# it (CCACHE_BASEDIR), and the compiler's working directory is left out of
# the hash (CCACHE_NOHASHDIR: it only differs by the clone's place), so a
# fresh clone compiles what another clone compiled from the cache.  The
# build trees keep one depth below the clone (build/, build-sanitize/,
# build-python/) so that the relative paths agree too.  MMACHECK_CCACHE=OFF
# turns it off; CCACHE_DIR chooses the cache (default ~/.cache/ccache).
if [ "${MMACHECK_CCACHE:-ON}" != OFF ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  export CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
