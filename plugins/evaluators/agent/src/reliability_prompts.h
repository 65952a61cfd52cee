// The built-in prompts of the LLM checks of tool_name_reliability and tool_description_reliability
// (reliability_judge.h): krino's own words. A `prompt` option replaces them; a replacement must
// still ask for the same JSON keys, since a key missing from the reply fails its check.
#ifndef KRINO_AGENT_RELIABILITY_PROMPTS_H
#define KRINO_AGENT_RELIABILITY_PROMPTS_H

#include <string_view>

namespace krino::agent {

// Placeholders: {{tool_name}}, {{tool_description}}.
inline constexpr std::string_view kToolNamePrompt = R"prompt(You are reviewing the name of a tool that an AI agent can call. A model choosing among tools often sees little more than the name, so the name must say what the tool is for.

Tool name: {{tool_name}}

Judge the name alone, on three checks. Answer 1 when the name passes a check and 0 when it does not.
- clarity: a reader can tell what the tool does from the name alone, without guessing.
- name_order: the words follow the order operation, then system, then entity, then data (for example create_jira_issue_comment or get_crm_contact_email); leaving out a part that is not needed is fine.
- intent_over_implementation: the name says what the tool achieves, not how it is built (no libraries, vendors, transports or models such as _via_rest, _with_openai, _using_pandas).

Answer with one JSON object and nothing else:
{"clarity": 0 or 1, "name_order": 0 or 1, "intent_over_implementation": 0 or 1})prompt";

// Placeholders: {{tool_name}}, {{tool_description}}, {{parameters}} (the JSON Schema of the arguments).
inline constexpr std::string_view kToolDescriptionPrompt = R"prompt(You are reviewing the definition of a tool that an AI agent can call. The description and the parameter schema are all a model reads before deciding whether and how to call it.

Tool name: {{tool_name}}

Description:
{{tool_description}}

Parameters (JSON Schema):
{{parameters}}

Judge the definition on nine checks. Answer 1 when it passes a check and 0 when it does not.
- general_structure: it opens with what the tool does, then gives the details.
- has_examples: it shows at least one example call or example values.
- has_usage_notes: it says when to use the tool, and when not to or what to use instead.
- intent_over_implementation: it describes what the tool achieves rather than how it is implemented.
- clarity: a model reading it for the first time could not misunderstand what the tool does.
- redundancy: it adds to the schema instead of repeating it, and does not repeat itself.
- input_arguments_enum: parameters that take one of a fixed set of values list those values (as an enum or in their description).
- input_arguments_format: parameters with a format (dates, identifiers, units, ranges) state that format.
- return_statement_quality: it says what the tool returns and in what shape.

Answer with one JSON object and nothing else:
{"general_structure": 0 or 1, "has_examples": 0 or 1, "has_usage_notes": 0 or 1, "intent_over_implementation": 0 or 1, "clarity": 0 or 1, "redundancy": 0 or 1, "input_arguments_enum": 0 or 1, "input_arguments_format": 0 or 1, "return_statement_quality": 0 or 1})prompt";

}  // namespace krino::agent

#endif  // KRINO_AGENT_RELIABILITY_PROMPTS_H
