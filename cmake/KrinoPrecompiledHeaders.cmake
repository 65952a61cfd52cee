# Precompiled headers for the heavy, stable third-party headers. Measured on the whole tree before
# choosing (docs/building.md): <boost/json.hpp> costs about 2.3 s of a debug compile and is in 334
# of 465 translation units; <boost/test/unit_test.hpp> 1.5 s in 163; Asio's io_context 2.1 s in 38
# (most of them in core). CLI11 (6 s) is in the command line's two unity batches only, where
# compiling it once more would cost as much as it saves. Our own headers change too often to be worth it.
#
# GCC uses a precompiled header only in a compile with the same -fPIC/-fPIE choice and the same
# values of the macros it reads (-Wpedantic is one: it decides __cpp_runtime_arrays; so every owner
# takes krino's warning flags), so there is one group per kind of target, each compiled once by an
# owner target (krino_pch_<group>) and reused by every member. -Winvalid-pch (added by CMake) with
# KRINO_WERROR turns a member that drifts from its group into a build error, not a silent slowdown.
#   library  static libraries with default visibility (core, the fake LLM server): JSON, Asio
#   plugin   plugin modules and their static logic libraries (hidden visibility): JSON
#   test     test executables: JSON, Boost.Test
#
# Off: -DKRINO_PCH=OFF, which is also how to check that every file includes what it uses.
# With ccache the launcher sets the sloppiness precompiled headers need (KrinoCompilerCache.cmake).
option(KRINO_PCH "Precompile the heavy third-party headers" ON)

if(KRINO_PCH)
  set(owner_source "${CMAKE_CURRENT_LIST_DIR}/pch_owner.cpp")

  add_library(krino_pch_library OBJECT "${owner_source}")
  target_link_libraries(krino_pch_library PRIVATE krino::boost_json Boost::headers krino_warnings)
  target_precompile_headers(krino_pch_library PRIVATE <boost/json.hpp> <boost/asio/io_context.hpp>)

  add_library(krino_pch_plugin OBJECT "${owner_source}")
  target_link_libraries(krino_pch_plugin PRIVATE krino::boost_json krino_warnings)
  set_target_properties(krino_pch_plugin PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_precompile_headers(krino_pch_plugin PRIVATE <boost/json.hpp>)

  # Executables are compiled -fPIE: so is this owner, which is not an executable itself.
  add_library(krino_pch_test OBJECT "${owner_source}")
  target_link_libraries(krino_pch_test PRIVATE krino::boost_json Boost::unit_test_framework krino_warnings)
  target_compile_definitions(krino_pch_test PRIVATE BOOST_TEST_DYN_LINK)
  set_target_properties(krino_pch_test PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(krino_pch_test PRIVATE -fPIE)
  target_precompile_headers(krino_pch_test PRIVATE <boost/json.hpp> <boost/test/unit_test.hpp>)
endif()

# krino_use_precompiled_headers(<target> <group>)
# Compiles <target>'s C++ files with the precompiled headers of <group> (library, plugin, test).
function(krino_use_precompiled_headers target group)
  if(NOT KRINO_PCH)
    return()
  endif()
  if(NOT TARGET krino_pch_${group})
    message(FATAL_ERROR "krino_use_precompiled_headers(${target}): no precompiled header group '${group}'")
  endif()
  target_precompile_headers(${target} REUSE_FROM krino_pch_${group})
endfunction()
