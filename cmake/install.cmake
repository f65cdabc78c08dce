# `cmake --install build --prefix P` installs the program, core's libraries
# and headers, and a CMake package, so that another project can write
#
#     find_package(mmacheck REQUIRED)
#     target_link_libraries(my_tool PRIVATE mmacheck::core)   # the core library
#     add_test(NAME layouts COMMAND mmacheck::mmacheck prove ${CMAKE_SOURCE_DIR}/layouts)
#
# Headers keep their layer paths under include/mmacheck ("core/prove/prove.h").
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MMACHECK_CORE_LAYERS mmacheck_base mmacheck_layout mmacheck_program mmacheck_tvmscript
                         mmacheck_tirx_release mmacheck_read mmacheck_gemm mmacheck_prove mmacheck_sparse
                         mmacheck_scales mmacheck_cute mmacheck_triton mmacheck_wgmma mmacheck_tcgen05
                         mmacheck_tma mmacheck_ptx mmacheck_emit)
set_target_properties(mmacheck_core PROPERTIES EXPORT_NAME core)
install(TARGETS mmacheck ${MMACHECK_CORE_LAYERS} mmacheck_core mmacheck_warnings mmacheck_arch
        EXPORT mmacheckTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mmacheck/core
        FILES_MATCHING PATTERN "*.h")
install(EXPORT mmacheckTargets NAMESPACE mmacheck:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mmacheck)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mmacheckConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/mmacheckConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mmacheck)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/mmacheckConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/mmacheckConfig.cmake ${CMAKE_BINARY_DIR}/mmacheckConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mmacheck)
