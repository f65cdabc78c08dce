# MMACHECK_CUDA: whether the build has the cuda/ layer (the `gpu` and
# `capture` commands, the GPU differential bench and the cuda layer's tests).
#
#   AUTO (default)  with it when the CUDA toolkit is found, else without it
#                   (a status line says so)
#   ON              the toolkit is required: configuring fails without it
#   OFF             without it, toolkit or not
#
# The cuda layer needs only the toolkit's headers, <cuda.h> and <nvrtc.h>: the
# driver and NVRTC are loaded at run time (cuda/dynamic_library.h), so nothing
# links against the toolkit and a build with CUDA runs on machines without a
# GPU.  Sets MMACHECK_WITH_CUDA (ON or OFF) for the directories below, and
# mmacheck_without_cuda_users(), which drops the sources that include a cuda/
# header from a list when the build has no cuda layer.
set(MMACHECK_CUDA AUTO CACHE STRING "Build the cuda/ layer (GPU commands): AUTO (when the CUDA toolkit is found), ON or OFF")
set_property(CACHE MMACHECK_CUDA PROPERTY STRINGS AUTO ON OFF)

string(TOUPPER "${MMACHECK_CUDA}" mmacheck_cuda_choice)
if(mmacheck_cuda_choice STREQUAL "AUTO")
  find_package(CUDAToolkit QUIET)
elseif(mmacheck_cuda_choice MATCHES "^(ON|YES|TRUE|Y|1)$")
  find_package(CUDAToolkit)
elseif(NOT mmacheck_cuda_choice MATCHES "^(OFF|NO|FALSE|N|0)$")
  message(FATAL_ERROR "MMACHECK_CUDA is '${MMACHECK_CUDA}'; it takes AUTO, ON or OFF")
endif()

set(mmacheck_cuda_missing "")
if(mmacheck_cuda_choice MATCHES "^(OFF|NO|FALSE|N|0)$")
  set(mmacheck_cuda_missing "MMACHECK_CUDA=OFF")
elseif(NOT CUDAToolkit_FOUND)
  set(mmacheck_cuda_missing "no CUDA toolkit found: no nvcc on PATH, under CUDAToolkit_ROOT or /usr/local/cuda")
else()
  foreach(header cuda.h nvrtc.h)
    set(present FALSE)
    foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
      if(EXISTS "${dir}/${header}")
        set(present TRUE)
      endif()
    endforeach()
    if(NOT present)
      set(mmacheck_cuda_missing "the CUDA toolkit's headers (${CUDAToolkit_INCLUDE_DIRS}) have no ${header}")
    endif()
  endforeach()
endif()

if(mmacheck_cuda_missing STREQUAL "")
  set(MMACHECK_WITH_CUDA ON)
  message(STATUS "mmacheck: with CUDA (toolkit ${CUDAToolkit_VERSION}, headers in ${CUDAToolkit_INCLUDE_DIRS})")
elseif(mmacheck_cuda_choice MATCHES "^(ON|YES|TRUE|Y|1)$")
  message(FATAL_ERROR "MMACHECK_CUDA=ON, but ${mmacheck_cuda_missing}; "
                      "set CUDAToolkit_ROOT, or configure with -DMMACHECK_CUDA=OFF to build without the GPU commands")
else()
  set(MMACHECK_WITH_CUDA OFF)
  message(STATUS "mmacheck: without CUDA (${mmacheck_cuda_missing}): the gpu and capture commands "
                 "say so when run, and the cuda layer's tests are left out")
endif()

# Removes from the list variable `sources` every file that includes a cuda/
# header, when the build has no cuda layer.  Such files are read again
# whenever they change (CMAKE_CONFIGURE_DEPENDS), so an include added later
# takes the file out at the next build, not at a failed compile.
function(mmacheck_without_cuda_users sources)
  if(MMACHECK_WITH_CUDA)
    return()
  endif()
  set(kept "")
  foreach(src IN LISTS ${sources})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
    file(STRINGS ${src} cuda_includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"cuda/")
    if(NOT cuda_includes)
      list(APPEND kept ${src})
    endif()
  endforeach()
  set(${sources} ${kept} PARENT_SCOPE)
endfunction()
