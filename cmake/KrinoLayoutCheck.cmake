# Enforces the dependency rule of DESIGN.md section 3 at configure time:
#   apps -> core -> sdk, plugins -> sdk. sdk/ and plugins/ never include core/ or apps/ headers,
#   and core/ never includes plugin sources.
function(krino_check_includes dir forbidden_regex what)
  file(GLOB_RECURSE files "${CMAKE_SOURCE_DIR}/${dir}/*.h" "${CMAKE_SOURCE_DIR}/${dir}/*.hpp"
                          "${CMAKE_SOURCE_DIR}/${dir}/*.c" "${CMAKE_SOURCE_DIR}/${dir}/*.cpp")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${forbidden_regex})")
    if(hits)
      message(FATAL_ERROR "Dependency rule broken (${what}): ${f} has ${hits}")
    endif()
  endforeach()
endfunction()
krino_check_includes(sdk "krino/core/|core/|apps/" "sdk must not depend on core or apps")
krino_check_includes(plugins "krino/core/|core/|apps/" "plugins use only the SDK")
krino_check_includes(core "plugins/|apps/" "core must not depend on plugins or apps")
