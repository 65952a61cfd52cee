# krino_sdk_add_plugin(<target> [OUTPUT_NAME <name>] SOURCES <source>... [LIBRARIES <library>...]
#                      [ABI_ONLY] [ALLOW_UNDEFINED])
#
# Builds a krino plugin the way the host relies on: a MODULE library with no "lib" prefix, hidden
# visibility, exactly one exported symbol (krino_plugin_entry, through a version script), static
# dependencies kept private (-Wl,--exclude-libs,ALL) and every undefined symbol resolved at link
# time (-Wl,-z,defs). A C++ plugin gets the helper layer (<krino/plugin.hpp>) and its own private
# copy of Boost.JSON, compiled from one added translation unit, so it needs no Boost runtime.
#
#   ABI_ONLY         the plugin is written against <krino/plugin.h> alone (C, or C++ without the
#                    helper layer): no Boost, no Boost.JSON translation unit, no C++ requirement.
#   ALLOW_UNDEFINED  leaves out -z defs, for sanitizer builds whose runtimes resolve symbols at
#                    load time.
#
# Shared by the krino source tree (cmake/KrinoPlugin.cmake) and the installed SDK package
# (KrinoSDKConfig.cmake), which both wrap it as krino_add_plugin(). The includer sets, first:
#   KRINO_SDK_TARGET          the C++ SDK target: krino::sdk in the tree, KrinoSDK::sdk installed
#   KRINO_SDK_ABI_TARGET      the plugin.h-only target: krino::abi, KrinoSDK::abi
#   KRINO_SDK_VERSION_SCRIPT  path of krino-plugin.map
#   KRINO_SDK_JSON_SOURCE     path of boost_json_impl.cpp
# and may set:
#   KRINO_SDK_JSON_LIBRARY    a static, position-independent, hidden-visibility library holding
#                             Boost.JSON, linked instead of compiling KRINO_SDK_JSON_SOURCE into
#                             every plugin (the krino tree does, so Boost.JSON is compiled once)
# They are kept as global properties, so the function works from any directory of the project.
include_guard(GLOBAL)

foreach(krino_sdk_var IN ITEMS KRINO_SDK_TARGET KRINO_SDK_ABI_TARGET KRINO_SDK_VERSION_SCRIPT KRINO_SDK_JSON_SOURCE)
  if(NOT DEFINED ${krino_sdk_var})
    message(FATAL_ERROR "KrinoAddPlugin.cmake: set ${krino_sdk_var} before including this file")
  endif()
  set_property(GLOBAL PROPERTY ${krino_sdk_var} "${${krino_sdk_var}}")
endforeach()
set_property(GLOBAL PROPERTY KRINO_SDK_JSON_LIBRARY "${KRINO_SDK_JSON_LIBRARY}")
unset(krino_sdk_var)

function(krino_sdk_add_plugin target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "ABI_ONLY;ALLOW_UNDEFINED" "OUTPUT_NAME" "SOURCES;LIBRARIES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "krino_add_plugin(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "krino_add_plugin(${target}): SOURCES is required")
  endif()
  get_property(sdk_target GLOBAL PROPERTY KRINO_SDK_TARGET)
  get_property(abi_target GLOBAL PROPERTY KRINO_SDK_ABI_TARGET)
  get_property(version_script GLOBAL PROPERTY KRINO_SDK_VERSION_SCRIPT)
  get_property(json_source GLOBAL PROPERTY KRINO_SDK_JSON_SOURCE)
  get_property(json_library GLOBAL PROPERTY KRINO_SDK_JSON_LIBRARY)

  if(ARG_ABI_ONLY)
    add_library(${target} MODULE ${ARG_SOURCES})
    target_link_libraries(${target} PRIVATE ${abi_target} ${ARG_LIBRARIES})
  elseif(json_library)
    add_library(${target} MODULE ${ARG_SOURCES})
    target_link_libraries(${target} PRIVATE ${sdk_target} ${json_library} ${ARG_LIBRARIES})
  else()
    add_library(${target} MODULE ${ARG_SOURCES} "${json_source}")
    target_link_libraries(${target} PRIVATE ${sdk_target} ${ARG_LIBRARIES})
    # Boost.JSON is compiled into the plugin: never auto-link a Boost library (MSVC habit, harmless).
    target_compile_definitions(${target} PRIVATE BOOST_JSON_NO_LIB BOOST_CONTAINER_NO_LIB)
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${version_script}")
  if(ARG_OUTPUT_NAME)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME "${ARG_OUTPUT_NAME}")
  endif()
  target_link_options(${target} PRIVATE
    "-Wl,--version-script=${version_script}"
    "-Wl,--exclude-libs,ALL")
  if(NOT ARG_ALLOW_UNDEFINED)
    target_link_options(${target} PRIVATE "-Wl,-z,defs")
  endif()
endfunction()
