# What `cmake --install build --prefix P` installs (docs/packaging.md):
#   bin/atenrt                                the command line
#   <libdir>/libatenrt.so.<version>           the library (soname libatenrt.so.<soversion>)
#   include/atenrt/*.h                        the public headers (+ generated version.h)
#   <libdir>/cmake/atenrt/                    atenrtConfig.cmake, ...ConfigVersion.cmake: atenrt::atenrt
#   <libdir>/pkgconfig/atenrt.pc
#   share/doc/atenrt/                         LICENSE, README.md
# Components: runtime (program, library), dev (headers, namelink, packages),
# torch (the libtorch fallback plugin, when built).
include(CMakePackageConfigHelpers)
set(ATENRT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/atenrt)

install(TARGETS atenrt EXPORT atenrtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(TARGETS atenrt_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
# The libtorch fallback (ATENRT_WITH_TORCH), a component of its own: the library
# looks for it beside itself, and it needs libtorch.
if(TARGET atenrt_torch)
  install(TARGETS atenrt_torch LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT torch)
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/atenrt ${CMAKE_BINARY_DIR}/generated/include/atenrt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)

install(EXPORT atenrtTargets NAMESPACE atenrt:: DESTINATION ${ATENRT_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/atenrtConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/atenrtConfig.cmake INSTALL_DESTINATION ${ATENRT_CMAKE_DIR})
# Before 1.0 a minor release may break the API: only the same minor version matches.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(ATENRT_COMPATIBILITY SameMinorVersion)
else()
  set(ATENRT_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/atenrtConfigVersion.cmake
  COMPATIBILITY ${ATENRT_COMPATIBILITY})
install(FILES ${CMAKE_BINARY_DIR}/package/atenrtConfig.cmake ${CMAKE_BINARY_DIR}/package/atenrtConfigVersion.cmake
  DESTINATION ${ATENRT_CMAKE_DIR} COMPONENT dev)

# atenrt.pc finds its prefix from where it lies (${pcfiledir}), so an install
# moved or made with --prefix still points at itself.
set(ATENRT_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH ATENRT_PC_TO_PREFIX /${ATENRT_PC_DIR} /)
string(REGEX REPLACE "/$" "" ATENRT_PC_TO_PREFIX "${ATENRT_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/atenrt.pc.in ${CMAKE_BINARY_DIR}/package/atenrt.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/atenrt.pc DESTINATION ${ATENRT_PC_DIR} COMPONENT dev)

# The Debian package (cpack -G DEB in the build tree): atenrt_<version>_amd64.deb
# with the runtime and dev components under /usr. dpkg-shlibdeps works out
# Depends from what the program and the library load (oneDNN, libzip, LAPACK, libstdc++).
set(CPACK_GENERATOR DEB)
# One package of the runtime and dev components; the libtorch fallback stays
# out (it would make every user install libtorch).
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_PACKAGE_NAME atenrt)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
  "atenrt compiles PyTorch programs captured by torch.export (.pt2 archives) into optimized\n inference engines and runs them on the CPU through oneDNN, without PyTorch at run time.\n This package holds the atenrt command line, libatenrt.so, its C++ and C headers and its\n CMake and pkg-config packages.")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "atenrt developers")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# The program's own library is in the package: dpkg-shlibdeps finds it there.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/lib)
include(CPack)
