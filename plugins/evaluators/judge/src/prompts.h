// The built-in prompt templates, embedded from ../prompts/*.txt at build time (cmake/embed_prompts.cmake).
#ifndef KRINO_JUDGE_PROMPTS_H
#define KRINO_JUDGE_PROMPTS_H

#include <string_view>

namespace krino::judge {

// The text of prompts/<name>.txt; empty when there is no such file.
std::string_view builtin_prompt(std::string_view name);

}  // namespace krino::judge

#endif  // KRINO_JUDGE_PROMPTS_H
