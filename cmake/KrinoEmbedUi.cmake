# krino_embed_ui(<target>): compiles the web UI (ui/ and the released files under third_party/ui/)
# into <target>, gzip-compressed at build time by cmake/krino_embed_ui.cmake. No node, bundler or xxd:
# the UI is plain ES modules, and gzip is part of every Debian system. The URL name of a file is its
# path under ui/, and vendor/<package>/<file> for a third-party file.
function(krino_embed_ui target)
  set(ui_dir "${PROJECT_SOURCE_DIR}/ui")
  set(vendor_dir "${PROJECT_SOURCE_DIR}/third_party/ui")
  file(GLOB_RECURSE own CONFIGURE_DEPENDS RELATIVE "${ui_dir}" "${ui_dir}/*.html" "${ui_dir}/*.js" "${ui_dir}/*.css" "${ui_dir}/*.svg")
  set(vendor htm/standalone.module.js uplot/uPlot.iife.min.js uplot/uPlot.min.css)
  set(assets "")
  set(inputs "")
  foreach(file IN LISTS own)
    list(APPEND assets "${file}=${ui_dir}/${file}")
    list(APPEND inputs "${ui_dir}/${file}")
  endforeach()
  foreach(file IN LISTS vendor)
    list(APPEND assets "vendor/${file}=${vendor_dir}/${file}")
    list(APPEND inputs "${vendor_dir}/${file}")
  endforeach()
  set(output "${CMAKE_CURRENT_BINARY_DIR}/generated/ui_assets_data.cpp")
  # The list goes through a file: a list on a custom command's line is split by the generator.
  set(manifest "${CMAKE_CURRENT_BINARY_DIR}/generated/ui_assets.list")
  string(REPLACE ";" "\n" manifest_text "${assets}")
  file(CONFIGURE OUTPUT "${manifest}" CONTENT "${manifest_text}\n")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${output}" "-DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/generated/ui" "-DMANIFEST=${manifest}"
            -P "${PROJECT_SOURCE_DIR}/cmake/krino_embed_ui.cmake"
    DEPENDS ${inputs} "${manifest}" "${PROJECT_SOURCE_DIR}/cmake/krino_embed_ui.cmake"
    COMMENT "Embedding the web UI (${CMAKE_CURRENT_LIST_FILE})"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
  set_source_files_properties("${output}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON SKIP_PRECOMPILE_HEADERS ON)
endfunction()
