# krino_add_plugin(<target> SOURCES ... [LIBRARIES ...])
#
# Builds a plugin as a MODULE library: no "lib" prefix, hidden visibility, exactly one exported
# symbol (krino_plugin_entry, through a version script), every undefined symbol resolved at link
# time (-z defs) and static dependencies kept private (--exclude-libs). Plugins see only the SDK.
set(KRINO_SDK_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/../sdk")

function(krino_add_plugin target)
  cmake_parse_arguments(ARG "" "OUTPUT_NAME" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES} "${KRINO_SDK_SOURCE_DIR}/src/boost_json_impl.cpp")
  target_link_libraries(${target} PRIVATE krino::sdk krino_warnings ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${KRINO_PLUGIN_OUTPUT_DIR}")
  if(ARG_OUTPUT_NAME)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME "${ARG_OUTPUT_NAME}")
  endif()
  target_link_options(${target} PRIVATE
    "-Wl,--version-script=${KRINO_SDK_SOURCE_DIR}/cmake/krino-plugin.map"
    "-Wl,--exclude-libs,ALL")
  # -z defs is incompatible with the sanitizer runtimes, which resolve symbols at load time.
  if(NOT KRINO_SANITIZE)
    target_link_options(${target} PRIVATE "-Wl,-z,defs")
  endif()
  target_compile_definitions(${target} PRIVATE BOOST_JSON_NO_LIB BOOST_CONTAINER_NO_LIB)
  install(TARGETS ${target} LIBRARY DESTINATION "${KRINO_PLUGIN_INSTALL_DIR}" COMPONENT ${target})
  set_property(GLOBAL APPEND PROPERTY KRINO_PLUGIN_TARGETS ${target})
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
