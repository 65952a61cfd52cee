# krino_add_plugin(<target> [OUTPUT_NAME <name>] SOURCES ... [LIBRARIES ...]
#                  [ABI_ONLY] [OUTPUT_DIRECTORY <dir>] [NO_INSTALL])
#
# The in-tree face of krino_sdk_add_plugin() (sdk/cmake/KrinoAddPlugin.cmake, the same function
# the installed SDK gives third parties), plus what only the krino tree wants: krino's warning
# flags, the build-tree plugin directory, an install rule in the deb component its folder belongs
# to (krino_plugin_component below), and -z defs left out under KRINO_SANITIZE.
#   OUTPUT_DIRECTORY  build the library there instead of ${KRINO_PLUGIN_OUTPUT_DIR}
#   NO_INSTALL        not a shipped plugin (examples, test fixtures): no install rule, and not
#                     listed in the global property KRINO_PLUGIN_TARGETS
set(KRINO_SDK_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/../sdk")
set(KRINO_SDK_TARGET krino::sdk)
set(KRINO_SDK_ABI_TARGET krino::abi)
set(KRINO_SDK_VERSION_SCRIPT "${KRINO_SDK_SOURCE_DIR}/cmake/krino-plugin.map")
set(KRINO_SDK_JSON_SOURCE "${KRINO_SDK_SOURCE_DIR}/src/boost_json_impl.cpp")
# In the tree Boost.JSON is compiled once, into krino::boost_json (sdk/CMakeLists.txt).
set(KRINO_SDK_JSON_LIBRARY krino::boost_json)
include("${KRINO_SDK_SOURCE_DIR}/cmake/KrinoAddPlugin.cmake")

function(krino_add_plugin target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "ABI_ONLY;NO_INSTALL" "OUTPUT_NAME;OUTPUT_DIRECTORY" "SOURCES;LIBRARIES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "krino_add_plugin(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  set(forwarded SOURCES ${ARG_SOURCES})
  if(ARG_LIBRARIES)
    list(APPEND forwarded LIBRARIES ${ARG_LIBRARIES})
  endif()
  if(ARG_OUTPUT_NAME)
    list(APPEND forwarded OUTPUT_NAME "${ARG_OUTPUT_NAME}")
  endif()
  if(ARG_ABI_ONLY)
    list(APPEND forwarded ABI_ONLY)
  endif()
  # -z defs is incompatible with the sanitizer runtimes, which resolve symbols at load time.
  if(KRINO_SANITIZE)
    list(APPEND forwarded ALLOW_UNDEFINED)
  endif()
  krino_sdk_add_plugin(${target} ${forwarded})

  target_link_libraries(${target} PRIVATE krino_warnings)
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  else()
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${KRINO_PLUGIN_OUTPUT_DIR}")
  endif()
  if(NOT ARG_NO_INSTALL)
    krino_plugin_component(component)
    install(TARGETS ${target} LIBRARY DESTINATION "${KRINO_PLUGIN_INSTALL_DIR}" COMPONENT ${component})
    set_property(GLOBAL APPEND PROPERTY KRINO_PLUGIN_TARGETS ${target})
    set_property(GLOBAL APPEND PROPERTY KRINO_PLUGIN_COMPONENTS ${component})
  endif()
endfunction()

# krino_plugin_component(<out-var> [<plugin-folder>])
# The install component, and so the Debian package (packaging/CMakeLists.txt), that a first-party
# plugin ships in, decided by its folder (default: the current source directory):
#   plugins/evaluators/judge/       plugins_judge   krino-plugins-judge   (LLM judges, network)
#   plugins/trace-extractors/<any>/ plugins_traces  krino-plugins-traces
#   any other plugins/<kind>/<any>/ plugins_core    krino-plugins-core
# A plugin's other installed files (the judge's prompts) use the same component.
function(krino_plugin_component out)
  if(ARGC GREATER 1)
    set(folder "${ARGV1}")
  else()
    set(folder "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}/plugins" "${folder}")
  if(relative MATCHES "^\\.\\.")
    message(FATAL_ERROR "krino_plugin_component: ${folder} is not under plugins/; only first-party plugins are packaged")
  endif()
  if(relative MATCHES "^evaluators/judge(/|$)")
    set(component plugins_judge)
  elseif(relative MATCHES "^trace-extractors/")
    set(component plugins_traces)
  else()
    set(component plugins_core)
  endif()
  set(${out} ${component} PARENT_SCOPE)
endfunction()

# Whether a first-party plugin folder is selected by -DKRINO_PLUGINS.
function(krino_plugin_selected name out)
  string(REPLACE "," ";" selected "${KRINO_PLUGINS}")
  if("all" IN_LIST selected OR name IN_LIST selected)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()
