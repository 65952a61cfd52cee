# The dependency rule of docs/architecture.md, checked by a test (`ctest -R core_layers`), not at configure
# time: cmake/krino_layout_check.py reads every #include of sdk/, core/, plugins/ and apps/ and fails,
# naming the file and line, on
#   - sdk including core, plugins or apps;
#   - plugins including core or apps, or another plugin (plugins/support/ is theirs to share, and
#     support includes only the SDK);
#   - core including plugins or apps;
#   - a core component including a component it does not link (core/CMakeLists.txt declares them);
#   - a cycle between core components, in the includes or in the declared graph.
# The declared graph is the one CMake builds with: krino_record_core_layers() writes the core
# components' target_link_libraries to a file in the build tree, which the test reads.

# krino_record_core_layers(<components>)
# Writes ${CMAKE_BINARY_DIR}/krino_core_layers.json: each component of core and the components its
# library links, in declaration order.
function(krino_record_core_layers components)
  set(entries "")
  foreach(component IN LISTS components)
    get_target_property(links krino_core_${component} LINK_LIBRARIES)
    set(deps "")
    foreach(link IN LISTS links)
      if(link MATCHES "^krino_core_(.+)$")
        list(APPEND deps "\"${CMAKE_MATCH_1}\"")
      endif()
    endforeach()
    list(JOIN deps ", " deps)
    list(APPEND entries "    [\"${component}\", [${deps}]]")
  endforeach()
  list(JOIN entries ",\n" entries)
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/krino_core_layers.json"
       CONTENT "{\n  \"components\": [\n${entries}\n  ]\n}\n")
endfunction()

# krino_add_layout_test()
function(krino_add_layout_test)
  find_package(Python3 COMPONENTS Interpreter)
  if(NOT Python3_Interpreter_FOUND)
    message(WARNING "No Python 3: the layout test (core layers, dependency rule) is not added; "
                    "packaging/install-deps.sh --with-test-tools installs it (python3-minimal)")
    return()
  endif()
  add_test(NAME core_layers
           COMMAND Python3::Interpreter "${CMAKE_SOURCE_DIR}/cmake/krino_layout_check.py"
                   --source-dir "${CMAKE_SOURCE_DIR}" --layers "${CMAKE_BINARY_DIR}/krino_core_layers.json")
  set_tests_properties(core_layers PROPERTIES LABELS layout TIMEOUT 60)
endfunction()
