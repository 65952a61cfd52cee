# cmake -DPROMPT_DIR=<dir> -DOUTPUT=<file.cpp> -P embed_prompts.cmake
#
# Writes a C++ source defining krino::judge::builtin_prompt(name): the text of <dir>/<name>.txt, for
# every .txt file there, as a raw string literal. The files stay readable templates; the library needs
# nothing at run time. The output is rewritten only when it changes.
file(GLOB prompt_files "${PROMPT_DIR}/*.txt")
list(SORT prompt_files)
set(delimiter "krino_prompt")
set(body "")
foreach(file IN LISTS prompt_files)
  get_filename_component(name "${file}" NAME_WE)
  file(READ "${file}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter ')${delimiter}\"'")
  endif()
  string(APPEND body "  if (name == \"${name}\") return R\"${delimiter}(${text})${delimiter}\";\n")
endforeach()
set(content "// Generated from plugins/evaluators/judge/prompts/*.txt by embed_prompts.cmake. Do not edit.
#include \"prompts.h\"

namespace krino::judge {

std::string_view builtin_prompt(std::string_view name) {
${body}  return {};
}

}  // namespace krino::judge
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
