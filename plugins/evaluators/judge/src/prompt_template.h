// The judge plugin's prompt templates are the support library's (krino/support/prompt_template.hpp),
// shared with the agent plugin's LLM checks.
#ifndef KRINO_JUDGE_PROMPT_TEMPLATE_H
#define KRINO_JUDGE_PROMPT_TEMPLATE_H

#include <krino/support/prompt_template.hpp>

namespace krino::judge {
using PromptTemplate = ::krino::PromptTemplate;
}  // namespace krino::judge

#endif  // KRINO_JUDGE_PROMPT_TEMPLATE_H
