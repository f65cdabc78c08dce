# Run by the build (cmake -P): fails when a file of a layer includes a
# project header from a layer it may not use.  A header's layer is the folder
# it sits in, exactly (core/program/tvmscript/x.h is core/program/tvmscript's).
# An include is resolved as the compiler does: "./x.h", "../x.h" and a header
# beside the including file against that file's folder, any other against
# the project root.  Project headers are those under core/, sim/, cuda/,
# cli/, tests/ and bench/; a library layer never lists tests/ or bench/, so
# including their headers fails too.
#   -DLAYER=core/gemm -DALLOWED="core/base;core/layout;..."
#   -DFILES_FROM=<file holding the folder's sources as a CMake list>
#   -DSTAMP=<file to touch on success>
#   -DROOT=<project root> (default: the folder above this script)
cmake_minimum_required(VERSION 3.22)  # list() keeps empty elements (CMP0007)
if(NOT ROOT)
  set(ROOT "${CMAKE_CURRENT_LIST_DIR}/..")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
file(READ "${FILES_FROM}" FILES)
set(bad "")
foreach(f IN LISTS FILES)
  get_filename_component(here "${f}" DIRECTORY)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" written "${line}")
    set(inc "${written}")
    if(inc MATCHES "^\\.\\.?/" OR EXISTS "${here}/${inc}")
      get_filename_component(abs "${here}/${inc}" ABSOLUTE)
      file(RELATIVE_PATH inc "${ROOT}" "${abs}")
    endif()
    # Only project headers name a layer: core/x/..., sim/x/..., cuda/..., ...
    if(NOT inc MATCHES "^(core|sim|cuda|cli|tests|bench)/")
      continue()
    endif()
    # A layer is a folder, not a prefix: core/program does not admit
    # core/program/tvmscript/..., which is a layer of its own.
    get_filename_component(folder "${inc}" DIRECTORY)
    list(FIND ALLOWED "${folder}" at)
    if(at EQUAL -1)
      set(shown "\"${written}\"")
      if(NOT inc STREQUAL written)
        string(APPEND shown " (${inc})")
      endif()
      string(APPEND bad "  ${f}: includes ${shown}, which ${LAYER} may not use\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "layer rule broken (allowed for ${LAYER}: ${ALLOWED}):\n${bad}")
endif()
file(TOUCH "${STAMP}")
