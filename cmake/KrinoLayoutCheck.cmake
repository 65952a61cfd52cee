# Enforces the dependency rule of DESIGN.md section 3 at configure time:
#   apps -> core -> sdk, plugins -> {sdk, plugins/support}, plugins/support -> sdk. sdk/ and plugins/
#   never include core/ or apps/ headers; core/ never includes plugin sources; sdk/ and core/ never
#   include the support libraries (<krino/support/...>), which are first-party plugin code.
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
krino_check_includes(sdk "krino/core/|core/|apps/|krino/support/" "sdk must not depend on core, apps or plugins/support")
krino_check_includes(plugins "krino/core/|core/|apps/" "plugins use only the SDK and plugins/support")
krino_check_includes(core "plugins/|apps/|krino/support/" "core must not depend on plugins, plugins/support or apps")
krino_check_includes(plugins/support "plugins/|[^<\"]*\\.\\./" "plugins/support depends only on the SDK and other support libraries")
