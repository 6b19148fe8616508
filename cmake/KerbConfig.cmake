# Kerb's CMake package. In a project:
#
#   find_package(Kerb REQUIRED)             # CMAKE_PREFIX_PATH: a Kerb build tree or install
#   kerb_add_library(scores scores.fut)     # compiles scores.fut into libscores.a + scores.h
#   target_link_libraries(app PRIVATE scores)
#
# kerb_add_library(TARGET SOURCE [NAME name] [UNSAFE] [SM sm_80] [CPU x86-64]) runs
# `kerb compile --library SOURCE -o DIR/NAME` at build time (again when SOURCE or kerb
# changes) and makes TARGET a library to link: it brings the header's directory
# (#include "NAME.h"; NAME defaults to TARGET) and Kerb's runtime (Kerb::runtime).
# Also defined: KERB_EXECUTABLE, the `kerb` command.
#
# The same file serves a build tree (kerb beside include/ and lib/) and an install
# (kerb in bin/).
include(CMakeFindDependencyMacro)
find_dependency(Threads)

get_filename_component(_kerb_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(EXISTS "${_kerb_prefix}/bin/kerb")
  set(KERB_EXECUTABLE "${_kerb_prefix}/bin/kerb")
elseif(EXISTS "${_kerb_prefix}/kerb")
  set(KERB_EXECUTABLE "${_kerb_prefix}/kerb")
else()
  set(Kerb_FOUND FALSE)
  set(Kerb_NOT_FOUND_MESSAGE "no kerb executable in ${_kerb_prefix}/bin or ${_kerb_prefix}")
  return()
endif()
if(NOT EXISTS "${_kerb_prefix}/lib/libkerb_runtime.a" OR
   NOT EXISTS "${_kerb_prefix}/include/kerb/kerb.h")
  set(Kerb_FOUND FALSE)
  set(Kerb_NOT_FOUND_MESSAGE
      "${_kerb_prefix} lacks lib/libkerb_runtime.a or include/kerb/kerb.h")
  return()
endif()

if(NOT TARGET Kerb::runtime)
  add_library(Kerb::runtime STATIC IMPORTED)
  set_target_properties(Kerb::runtime PROPERTIES
    IMPORTED_LOCATION "${_kerb_prefix}/lib/libkerb_runtime.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_kerb_prefix}/include"
    INTERFACE_LINK_LIBRARIES "stdc++;m;${CMAKE_DL_LIBS};Threads::Threads")
endif()

function(kerb_add_library target source)
  cmake_parse_arguments(PARSE_ARGV 2 KERB "UNSAFE" "NAME;SM;CPU" "")
  if(KERB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kerb_add_library: unknown arguments ${KERB_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT KERB_NAME)
    set(KERB_NAME "${target}")
  endif()
  get_filename_component(src "${source}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/kerb_${target}")
  file(MAKE_DIRECTORY "${dir}")
  set(flags)
  if(KERB_UNSAFE)
    list(APPEND flags --unsafe)
  endif()
  if(KERB_SM)
    list(APPEND flags "--sm=${KERB_SM}")
  endif()
  if(KERB_CPU)
    list(APPEND flags "--cpu=${KERB_CPU}")
  endif()
  add_custom_command(
    OUTPUT "${dir}/${KERB_NAME}.h" "${dir}/lib${KERB_NAME}.a"
    COMMAND "${KERB_EXECUTABLE}" compile --library "${src}" -o "${dir}/${KERB_NAME}" ${flags}
    DEPENDS "${src}" "${KERB_EXECUTABLE}"
    COMMENT "Kerb: compiling ${source} into lib${KERB_NAME}.a"
    VERBATIM)
  add_custom_target(${target}_kerb DEPENDS "${dir}/${KERB_NAME}.h" "${dir}/lib${KERB_NAME}.a")
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION "${dir}/lib${KERB_NAME}.a"
    INTERFACE_INCLUDE_DIRECTORIES "${dir}"
    INTERFACE_LINK_LIBRARIES Kerb::runtime)
  add_dependencies(${target} ${target}_kerb)
endfunction()

set(Kerb_FOUND TRUE)
