# Builds the SDK examples the way a third party does, against the installed SDK alone:
#   1. cmake --install <krino build> --component sdk --prefix <WORK_DIR>/prefix
#   2. for sdk/examples/word_count (C++) and sdk/examples/c_evaluator (C): configure a separate
#      project with -DCMAKE_PREFIX_PATH=<prefix>, build it with warnings as errors
#   3. check that each plugin exists and exports exactly one symbol, krino_plugin_entry
#   4. check the installed pkg-config file's variables point at files that exist
# Run with cmake -P and these definitions (tests/abi/CMakeLists.txt passes them):
#   KRINO_BUILD_DIR, KRINO_SOURCE_DIR, WORK_DIR, GENERATOR, C_COMPILER, CXX_COMPILER, NM
cmake_minimum_required(VERSION 3.20)

foreach(var IN ITEMS KRINO_BUILD_DIR KRINO_SOURCE_DIR WORK_DIR GENERATOR C_COMPILER CXX_COMPILER NM)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "build_example.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${ARGN}\n${out}\n${err}")
  endif()
endfunction()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# 1. The SDK component only: headers, schemas, CMake package, pkg-config file.
run("installing the sdk component" "${CMAKE_COMMAND}" --install "${KRINO_BUILD_DIR}" --component sdk --prefix "${prefix}")
foreach(file IN ITEMS include/krino/plugin.h include/krino/plugin.hpp include/krino/plugin/entry.hpp
                      include/krino/plugin/evaluator.hpp share/krino/schemas/evalresult.json
                      share/krino/sdk/krino-plugin.map share/krino/sdk/boost_json_impl.cpp)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "the sdk component did not install ${file}")
  endif()
endforeach()
file(GLOB_RECURSE package_config "${prefix}/*/KrinoSDKConfig.cmake")
file(GLOB_RECURSE pc_file "${prefix}/*/pkgconfig/krino-sdk.pc")
if(NOT package_config OR NOT pc_file)
  message(FATAL_ERROR "the sdk component installed no KrinoSDKConfig.cmake or krino-sdk.pc under ${prefix}")
endif()
# Nothing but the SDK: no host library, no first-party plugin, no executable.
file(GLOB_RECURSE libraries "${prefix}/*.so" "${prefix}/*.a" "${prefix}/bin/*")
if(libraries)
  message(FATAL_ERROR "the sdk component installed binaries: ${libraries}")
endif()

# 2 and 3. Each example as its own project.
foreach(example IN ITEMS word_count:word_count c_evaluator:c_nonempty)
  string(REPLACE ":" ";" parts "${example}")
  list(GET parts 0 folder)
  list(GET parts 1 plugin)
  set(build "${WORK_DIR}/${folder}")
  run("configuring ${folder}" "${CMAKE_COMMAND}" -S "${KRINO_SOURCE_DIR}/sdk/examples/${folder}" -B "${build}"
      -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
      "-DCMAKE_C_FLAGS=-Wall -Wextra -Wpedantic -Werror"
      "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wpedantic -Werror"
      -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  run("building ${folder}" "${CMAKE_COMMAND}" --build "${build}")

  set(library "${build}/${plugin}.so")
  if(NOT EXISTS "${library}")
    message(FATAL_ERROR "${folder} built no ${library}")
  endif()
  execute_process(COMMAND "${NM}" -D --defined-only "${library}" RESULT_VARIABLE status OUTPUT_VARIABLE symbols)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nm failed on ${library}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${symbols}")
  set(exported "")
  foreach(line IN LISTS lines)
    # "<address> <type> <name>"; keep the name.
    string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] +" "" name "${line}")
    list(APPEND exported "${name}")
  endforeach()
  if(NOT exported STREQUAL "krino_plugin_entry")
    message(FATAL_ERROR "${library} must export only krino_plugin_entry; it exports: ${exported}")
  endif()
  message(STATUS "${folder}: ${library} exports only krino_plugin_entry")
endforeach()

# 4. pkg-config variables, read from the file itself (no pkg-config binary needed).
file(STRINGS "${pc_file}" pc_lines)
set(pc_vars "")
foreach(line IN LISTS pc_lines)
  if(line MATCHES "^([a-z]+)=(.*)$")
    set(name "${CMAKE_MATCH_1}")
    set(value "${CMAKE_MATCH_2}")
    # Expand ${var} references to earlier variables, as pkg-config does.
    foreach(known IN LISTS pc_vars)
      string(REPLACE "\${${known}}" "${pc_${known}}" value "${value}")
    endforeach()
    set(pc_${name} "${value}")
    list(APPEND pc_vars ${name})
  endif()
endforeach()
foreach(required IN ITEMS includedir pluginsdir versionscript jsonsource schemasdir)
  if(NOT required IN_LIST pc_vars)
    message(FATAL_ERROR "krino-sdk.pc has no variable ${required}")
  endif()
endforeach()
foreach(path_var IN ITEMS includedir versionscript jsonsource schemasdir)
  # The .pc carries the configured prefix; relocate it to the scratch prefix to check the files.
  string(REPLACE "${pc_prefix}" "${prefix}" path "${pc_${path_var}}")
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "krino-sdk.pc: ${path_var}=${pc_${path_var}} does not exist under the install prefix")
  endif()
endforeach()
file(STRINGS "${pc_file}" cflags REGEX "^Cflags:")
file(STRINGS "${pc_file}" libs REGEX "^Libs:")
if(NOT cflags MATCHES "-I\\\${includedir}" OR libs)
  message(FATAL_ERROR "krino-sdk.pc: expected Cflags: -I\${includedir} and no Libs")
endif()
message(STATUS "krino-sdk.pc: ${pc_file} is consistent")
