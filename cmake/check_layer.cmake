# Run by the build (cmake -P): fails when a file of a layer includes a
# project header from a layer it may not use.
#   -DLAYER=core/gemm -DALLOWED="core/base;core/layout;..."
#   -DFILES_FROM=<file holding the folder's sources as a CMake list>
#   -DSTAMP=<file to touch on success>
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
    set(ok FALSE)
    foreach(a IN LISTS ALLOWED)
      string(LENGTH "${a}/" n)
      string(SUBSTRING "${inc}" 0 ${n} head)
      if(head STREQUAL "${a}/")
        set(ok TRUE)
      endif()
    endforeach()
    if(NOT ok)
      string(APPEND bad "  ${f}: includes \"${inc}\", which ${LAYER} may not use\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "layer rule broken (allowed for ${LAYER}: ${ALLOWED}):\n${bad}")
endif()
file(TOUCH "${STAMP}")
