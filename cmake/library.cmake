# libatenrt.so: the rooms linked whole (converters, decompositions and passes
# register themselves from static objects) into one shared library that exports
# the public API of include/atenrt/ and nothing else. Two fences keep it so:
# everything is compiled with hidden visibility (only ATENRT_API declarations are
# default), and the version script cmake/libatenrt.map hides what the compiler
# still exports on its own (libstdc++ template instantiations).
if(PROJECT_VERSION_MAJOR EQUAL 0)
  # Before 1.0 every minor release may break the ABI.
  set(ATENRT_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(ATENRT_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()

# include/atenrt/version.h for users: the version as macros.
configure_file(${CMAKE_SOURCE_DIR}/cmake/version.h.in
               ${CMAKE_BINARY_DIR}/generated/include/atenrt/version.h @ONLY)

file(GLOB ATENRT_LIBRARY_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/c_api/*.cpp)
add_library(atenrt SHARED ${ATENRT_LIBRARY_SOURCES})
set_target_properties(atenrt PROPERTIES
  VERSION ${PROJECT_VERSION}
  SOVERSION ${ATENRT_SOVERSION}
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/cmake/libatenrt.map)
target_include_directories(atenrt PUBLIC
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/generated/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
atenrt_link(atenrt)
target_link_options(atenrt PRIVATE "LINKER:--version-script=${CMAKE_SOURCE_DIR}/cmake/libatenrt.map")
target_compile_definitions(atenrt PRIVATE ATENRT_VERSION="${PROJECT_VERSION}")
add_library(atenrt::atenrt ALIAS atenrt)
