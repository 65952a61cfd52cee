// A tool an agent may call: its name, description and JSON Schema of parameters, read from a
// test case (usually metadata.tools). Header-only, C++17.
//
// Accepted shapes of one definition (a JSON object):
//   {"name": "search", "description": "...", "parameters": {"type": "object", ...}}
//   {"type": "function", "function": {"name": ..., "description": ..., "parameters": ...}}  (OpenAI)
//   {"name": ..., "description": ..., "input_schema": {...}}                                (Anthropic)
// "inputSchema" is accepted as well. A definition without a schema has no known parameters.
#ifndef KRINO_AGENT_TOOL_DEFINITION_HPP
#define KRINO_AGENT_TOOL_DEFINITION_HPP

#include <krino/agent/tool_call.hpp>
#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace krino::agent {

struct ToolDefinition {
  std::string name;
  std::string description;
  boost::json::object parameters;  // a JSON Schema of the arguments object

  // Keys of the schema's "properties", in schema order.
  std::vector<std::string> parameter_names() const {
    std::vector<std::string> names;
    if (const auto* properties = parameters.if_contains("properties"); properties != nullptr && properties->is_object())
      for (const auto& property : properties->get_object()) names.emplace_back(property.key());
    return names;
  }

  // The schema's "required" list; strings only.
  std::vector<std::string> required_parameters() const {
    std::vector<std::string> names;
    if (const auto* required = parameters.if_contains("required"); required != nullptr && required->is_array())
      for (const auto& entry : required->get_array())
        if (entry.is_string()) names.emplace_back(entry.get_string());
    return names;
  }

  // The schema of one parameter, or nullptr when the schema does not declare it.
  const boost::json::value* parameter_schema(std::string_view parameter) const {
    const auto* properties = parameters.if_contains("properties");
    if (properties == nullptr || !properties->is_object()) return nullptr;
    return properties->get_object().if_contains(parameter);
  }
};

// A definition read in place: views into the JSON it came from, which must outlive it. For code
// that looks tools up per test case and would rather not copy every schema.
struct ToolDefinitionView {
  std::string_view name;
  std::string_view description;
  const boost::json::object* parameters = nullptr;  // nullptr: the definition has no schema
};

inline ToolDefinitionView view_tool_definition(const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + ": a tool definition must be a JSON object");
  const boost::json::object* body = &value.get_object();
  if (const auto* function = body->if_contains("function"); function != nullptr && !body->contains("name")) {
    if (!function->is_object()) throw invalid_argument(where + ": 'function' must be an object");
    body = &function->get_object();
  }
  auto read_text = [&](std::string_view field) -> std::string_view {
    const boost::json::value* text = body->if_contains(field);
    if (text == nullptr || text->is_null()) return {};
    if (!text->is_string()) throw invalid_argument(where + ": '" + std::string(field) + "' must be a string");
    return text->get_string();
  };
  ToolDefinitionView view;
  view.name = read_text("name");
  if (view.name.empty()) throw invalid_argument(where + ": a tool definition needs a non-empty 'name'");
  view.description = read_text("description");
  for (std::string_view field : {"parameters", "input_schema", "inputSchema"}) {
    const boost::json::value* schema = body->if_contains(field);
    if (schema == nullptr || schema->is_null()) continue;
    if (!schema->is_object()) throw invalid_argument(where + ": '" + std::string(field) + "' must be a JSON Schema object");
    view.parameters = &schema->get_object();
    break;
  }
  return view;
}

inline ToolDefinition read_tool_definition(const boost::json::value& value, const std::string& where) {
  const ToolDefinitionView view = view_tool_definition(value, where);
  ToolDefinition definition;
  definition.name = std::string(view.name);
  definition.description = std::string(view.description);
  if (view.parameters != nullptr) definition.parameters = *view.parameters;
  return definition;
}

// A list of definitions stored under `key` (used only in error messages).
inline std::vector<ToolDefinition> read_tool_definitions(const boost::json::value& list, std::string_view key) {
  if (!list.is_array()) throw invalid_argument("'" + std::string(key) + "' must be a list of tool definitions");
  std::vector<ToolDefinition> definitions;
  std::size_t index = 0;
  for (const boost::json::value& element : list.get_array())
    definitions.push_back(read_tool_definition(element, detail::element_label(key, index++)));
  return definitions;
}

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_DEFINITION_HPP
