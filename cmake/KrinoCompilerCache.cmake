# ccache as the compiler launcher, when it is installed and KRINO_CCACHE is ON (the default).
#
# Set up so that a second clone of the repository in another folder, which is what CI is, hits
# the cache a developer's build filled:
#   CCACHE_BASEDIR    paths under the source tree (sources, include folders, the build tree inside
#                     it) are hashed relative to the build folder, not as absolute paths;
#   CCACHE_NOHASHDIR  the working directory is left out of the hash of -g builds (the cost: debug
#                     information of a hit names the folder of the build that filled the cache);
#   CCACHE_DEPEND     a miss runs the compiler once and reads its -MD output, instead of running the
#                     preprocessor first to look the result up again (measured: a cold miss cost
#                     14 % on top of the compile without it, 4 % with it);
#   CCACHE_SLOPPINESS pch_defines,time_macros: what ccache needs to cache compiles that use the
#                     precompiled headers (KrinoPrecompiledHeaders.cmake); nothing uses __TIME__.
# The tree keeps absolute paths off compile command lines for the same reason: the tests' paths
# live in one generated file (tests/support/test_paths.cpp.in).
#
# Off: -DKRINO_CCACHE=OFF at configure time, or CCACHE_DISABLE=1 in the environment of one build.
# See docs/building.md.
option(KRINO_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(KRINO_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(KRINO_CCACHE_PROGRAM ccache)
  if(KRINO_CCACHE_PROGRAM)
    set(launcher /usr/bin/env "CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}" CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
                 CCACHE_SLOPPINESS=pch_defines,time_macros "${KRINO_CCACHE_PROGRAM}")
    set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
    message(STATUS "Compiler cache: ${KRINO_CCACHE_PROGRAM} (KRINO_CCACHE=OFF to build without it)")
  else()
    message(STATUS "Compiler cache: ccache not found, building without it")
  endif()
endif()
