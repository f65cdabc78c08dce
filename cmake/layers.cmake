# mmacheck_layer(TARGET DIR USES <layers...> LINKS <targets...>)
#
# One static library per folder (a layer).  USES lists the layers whose
# headers the folder may include (its own is implied); the build runs
# cmake/check_layer.cmake over the folder's files, so an include from a layer
# above fails the build even where the linker would not notice.
function(mmacheck_layer target dir)
  cmake_parse_arguments(L "" "" "USES;LINKS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cc)
  file(GLOB headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.h)
  add_library(${target} STATIC ${sources} ${headers})
  set_property(GLOBAL APPEND PROPERTY MMACHECK_LIBRARY_LAYERS ${dir})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                              $<INSTALL_INTERFACE:include/mmacheck>)
  target_link_libraries(${target} PUBLIC ${L_LINKS} PRIVATE mmacheck_warnings mmacheck_arch)
  mmacheck_layer_check(${target} ${dir} USES ${L_USES} FILES ${sources} ${headers})
endfunction()

# Every library layer mmacheck_layer() has made so far, in LAYERS_VAR
# (what tests/ and bench/ may use).
function(mmacheck_library_layers layers_var)
  get_property(layers GLOBAL PROPERTY MMACHECK_LIBRARY_LAYERS)
  set(${layers_var} ${layers} PARENT_SCOPE)
endfunction()

# The include check alone, for folders that are not a library (cli, tests,
# bench).
function(mmacheck_layer_check target dir)
  cmake_parse_arguments(L "" "" "USES;FILES" ${ARGN})
  string(REPLACE "/" "_" tag ${dir})
  set(stamp ${CMAKE_BINARY_DIR}/layer-checks/${tag}.ok)
  set(list_file ${CMAKE_BINARY_DIR}/layer-checks/${tag}.files)
  file(WRITE ${list_file} "${L_FILES}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} "-DLAYER=${dir}" "-DALLOWED=${dir};${L_USES}"
            "-DFILES_FROM=${list_file}" "-DSTAMP=${stamp}" "-DROOT=${PROJECT_SOURCE_DIR}"
            -P ${PROJECT_SOURCE_DIR}/cmake/check_layer.cmake
    DEPENDS ${L_FILES} ${PROJECT_SOURCE_DIR}/cmake/check_layer.cmake
    COMMENT "Checking the include rules of ${dir}" VERBATIM)
  add_custom_target(${target}_layer_check DEPENDS ${stamp})
  add_dependencies(${target} ${target}_layer_check)
endfunction()
