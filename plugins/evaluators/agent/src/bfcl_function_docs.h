// BFCL's function docs as the JSON Schema BFCL itself sends models. The Berkeley Function Calling
// Leaderboard writes parameter types with Python and Java names (dict, float, tuple, any, list,
// HashMap, ...) that are not JSON Schema; its model handlers convert them before every request
// (bfcl_eval/model_handler/utils.py: convert_to_tool, _cast_to_openai_type, with the
// GORILLA_TO_OPENAPI table). This is that conversion, so tool_call_validity can check calls
// against BFCL's definitions as the model saw them.
#ifndef KRINO_AGENT_BFCL_FUNCTION_DOCS_H
#define KRINO_AGENT_BFCL_FUNCTION_DOCS_H

#include <boost/json.hpp>

#include <string>
#include <string_view>

namespace krino::agent {

// The parameters object of a BFCL function doc converted as BFCL converts it: the top level becomes
// "type": "object"; each property's type name is mapped (dict -> object, float/double -> number,
// tuple/list/ArrayList/... -> array, any/char/String -> string, byte/short/long/Bigint -> integer),
// a property without a type or with a name BFCL does not know becomes "string"; an object's
// properties are converted in turn, and an array's item type (and its items' item type) is mapped.
// Keywords BFCL leaves alone (required, enum, default, optional, description) stay. A type given
// as something other than a name (a list of names) is left as it is, where BFCL would fail.
boost::json::object bfcl_parameters_as_json_schema(const boost::json::object& parameters);

// The name OpenAI-style models call a BFCL function by: BFCL replaces every "." with "_" because
// those APIs refuse dots in tool names.
std::string bfcl_api_name(std::string_view name);

}  // namespace krino::agent

#endif  // KRINO_AGENT_BFCL_FUNCTION_DOCS_H
