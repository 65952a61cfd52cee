// tool_call_validity: whether each tool call the agent made is one the tools it was offered
// accept. A call is valid when a definition with its name exists in metadata.tools and its
// arguments satisfy that definition's JSON Schema (required arguments, types, enums, nested
// objects and arrays, every other draft-07 keyword the schema uses).
//   score = valid calls / all calls; no calls scores 1.0
// Arguments the schema does not list are rejected only when the schema says
// "additionalProperties": false, or with strict_mode for every schema that lists its properties.
// Numbers are compared by value (5.0 is an integer); see tool_argument_schema.h. With bfcl_types,
// the definitions are BFCL function docs, converted as BFCL does (bfcl_function_docs.h).
#ifndef KRINO_AGENT_TOOL_CALL_VALIDITY_EVALUATOR_H
#define KRINO_AGENT_TOOL_CALL_VALIDITY_EVALUATOR_H

#include <krino/evaluator_options.hpp>
#include <krino/plugin.hpp>

#include <string>

namespace krino::agent {

class ToolCallValidityEvaluator {
 public:
  static const char* const kConfigSchema;
  explicit ToolCallValidityEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  bool strict_mode_;
  bool bfcl_types_;  // definitions are BFCL function docs, converted as BFCL converts them
  std::string tool_calls_key_;
  std::string tools_key_;
};

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_CALL_VALIDITY_EVALUATOR_H
