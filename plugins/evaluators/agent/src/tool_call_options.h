// Options shared by the evaluators that compare actual tool calls with expected ones: where the
// calls are, and how arguments are matched (the argument matcher of krino/agent/argument_matcher.hpp).
#ifndef KRINO_AGENT_TOOL_CALL_OPTIONS_H
#define KRINO_AGENT_TOOL_CALL_OPTIONS_H

#include <krino/agent/argument_matcher.hpp>
#include <krino/plugin.hpp>

namespace krino::agent {

// The JSON Schema property tool_calls_key of the evaluators that compare two lists, followed by a
// comma. Constants in the header so schemas can be joined with them at compile time (schema_join.h).
inline constexpr char kBothSidesToolCallsKeyOption[] = R"json(
    "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls",
                       "description": "Key holding the tool calls, in actualOutputs (what the agent did) and in expectedOutputs (what it should have done)."},)json";

// JSON Schema properties for arg_match_mode, trim_strings, ignore_case and per_tool, without
// enclosing braces or a trailing comma: placed last in an evaluator schema's "properties".
inline constexpr char kArgumentMatchingOptionsSchema[] = R"json(
    "arg_match_mode": {"type": "string", "enum": ["exact", "subset", "superset", "ignore"], "default": "exact",
                       "description": "How the argument keys of a call compare. exact: same keys. subset: the actual call has at least the expected arguments. superset: the actual call has only expected arguments, possibly fewer. ignore: arguments are not compared. Values always compare with numbers by value (1 equals 1.0)."},
    "trim_strings": {"type": "boolean", "default": false,
                     "description": "Ignore leading and trailing white space of string argument values."},
    "ignore_case": {"type": "boolean", "default": false,
                    "description": "Compare string argument values ignoring the case of ASCII letters."},
    "per_tool": {"type": "object", "default": {},
                 "description": "Argument matching for particular tools, keyed by the expected call's tool name; an entry's omitted options inherit the top-level ones.",
                 "additionalProperties": {
                   "type": "object",
                   "properties": {
                     "arg_match_mode": {"type": "string", "enum": ["exact", "subset", "superset", "ignore"],
                                        "description": "As the top-level arg_match_mode, for this tool."},
                     "trim_strings": {"type": "boolean", "description": "As the top-level trim_strings, for this tool."},
                     "ignore_case": {"type": "boolean", "description": "As the top-level ignore_case, for this tool."}
                   },
                   "additionalProperties": false}}
)json";

// Reads arg_match_mode, trim_strings, ignore_case and per_tool. A per_tool entry overrides the
// top-level options for calls whose expected tool has that name; what it leaves out it inherits.
// The top-level options left out take the schema's defaults (the Config's, see apply_schema).
ToolCallMatcher read_tool_call_matcher(const Config& config);

// The matcher's options as they were applied, for result metadata.
boost::json::object describe_matcher(const ToolCallMatcher& matcher);

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_CALL_OPTIONS_H
