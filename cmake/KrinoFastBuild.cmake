# The two compile-time measures every krino target takes (docs/building.md): unity batches
# (KrinoUnityBuild.cmake) and the precompiled headers of its kind (KrinoPrecompiledHeaders.cmake).
include(KrinoUnityBuild)
include(KrinoPrecompiledHeaders)

# GCC collects its garbage whenever its heap has grown past a threshold that is 128 MB at most; a
# krino batch allocates several times that, so GCC spends part of every compile collecting. With the
# threshold at 1 GB it rarely does: 5 to 13 % less time for a core batch (12.4 s against 13.0 to
# 14.8 s), about 10 % more memory (780 MB against 700 MB). It changes nothing in the output.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:--param=ggc-min-heapsize=1048576>")
endif()

# krino_build_fast(<target> <precompiled-header-group>)
function(krino_build_fast target group)
  krino_unity_build(${target})
  krino_use_precompiled_headers(${target} ${group})
endfunction()

# krino_build_plugins_fast(<directory>)
# Every static library and module with C++ sources defined in <directory> or below, all with hidden
# visibility: how plugins/ opts its logic libraries and modules in without each folder saying so.
function(krino_build_plugins_fast directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|MODULE_LIBRARY)$")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    if(NOT sources)
      continue()
    endif()
    get_target_property(visibility ${target} CXX_VISIBILITY_PRESET)
    if(NOT visibility STREQUAL "hidden")
      message(FATAL_ERROR "${target} (${directory}): a plugin's C++ code is built with hidden visibility")
    endif()
    krino_build_fast(${target} plugin)
  endforeach()
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    krino_build_plugins_fast("${subdirectory}")
  endforeach()
endfunction()
