# Run by the build (cmake -P): fails when a file of a layer includes a
# project header from a layer it may not use.  A header's layer is the folder
# it sits in, exactly (core/program/tvmscript/x.h is core/program/tvmscript's).
#   -DLAYER=core/gemm -DALLOWED="core/base;core/layout;..."
#   -DFILES_FROM=<file holding the folder's sources as a CMake list>
#   -DSTAMP=<file to touch on success>
cmake_minimum_required(VERSION 3.22)  # list() keeps empty elements (CMP0007)
file(READ "${FILES_FROM}" FILES)
set(bad "")
foreach(f IN LISTS FILES)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" inc "${line}")
    # Only project headers name a layer: core/x/..., sim/x/..., cuda/..., cli/...
    if(NOT inc MATCHES "^(core|sim|cuda|cli)/")
      continue()
    endif()
    # A layer is a folder, not a prefix: core/program does not admit
    # core/program/tvmscript/..., which is a layer of its own.
    get_filename_component(folder "${inc}" DIRECTORY)
    list(FIND ALLOWED "${folder}" at)
    if(at EQUAL -1)
      string(APPEND bad "  ${f}: includes \"${inc}\", which ${LAYER} may not use\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "layer rule broken (allowed for ${LAYER}: ${ALLOWED}):\n${bad}")
endif()
file(TOUCH "${STAMP}")
