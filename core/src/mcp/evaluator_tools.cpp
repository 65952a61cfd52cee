#include "krino/core/mcp/evaluator_tools.hpp"

#include "krino/core/plugin/loaded_plugin.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

#include <krino/json_parse.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <vector>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

// What both tools say of one evaluator.
json::object evaluator_summary(const Component& component) {
  json::object out;
  out["id"] = component.id;
  out["name"] = component.name;
  out["version"] = component.version;
  out["description"] = component.description;
  out["plugin"] = component.plugin != nullptr ? component.plugin->id : std::string();
  json::array capabilities;
  for (const std::string_view name : capability_names(component.capabilities)) capabilities.emplace_back(name);
  out["capabilities"] = std::move(capabilities);
  return out;
}

std::vector<const Component*> evaluators(const PluginRegistry& plugins) {
  std::vector<const Component*> out;
  for (const Component* c : plugins.all_components()) {
    if (c->kind == ComponentKind::evaluator) out.push_back(c);
  }
  return out;
}

// Each option's default, read from the schema's properties (the defaults `krino plugins info` prints).
json::object option_defaults(const json::object& schema) {
  json::object defaults;
  const json::value* properties = schema.if_contains("properties");
  if (properties == nullptr || !properties->is_object()) return defaults;
  for (const auto& [name, property] : properties->get_object()) {
    if (!property.is_object()) continue;
    if (const json::value* d = property.get_object().if_contains("default"); d != nullptr) defaults[name] = *d;
  }
  return defaults;
}

constexpr std::string_view kSummarySchema = R"({"type":"object","properties":{
  "id":{"type":"string"},"name":{"type":"string"},"version":{"type":"string"},"description":{"type":"string"},
  "plugin":{"type":"string"},"capabilities":{"type":"array","items":{"type":"string"}}},
  "required":["id","name","version","description","plugin","capabilities"]})";

McpTool list_evaluators_tool(const PluginRegistry& plugins) {
  McpTool tool;
  tool.name = "list_evaluators";
  tool.title = "List evaluators";
  tool.description =
      "Every evaluator the loaded krino plugins offer: id, short name, version, description, plugin and capabilities "
      "(needs-judge: it asks an LLM judge). Use describe_evaluator for one evaluator's options.";
  tool.input_schema = schema_object(R"({"type":"object","properties":{},"additionalProperties":false})");
  json::object output = schema_object(R"({"type":"object","properties":{
    "evaluators":{"type":"array"},
    "plugin_problems":{"type":"array","items":{"type":"string"},"description":"Plugins that failed to load, and why"}},
    "required":["evaluators","plugin_problems"]})");
  output["properties"].as_object()["evaluators"].as_object()["items"] = schema_object(kSummarySchema);
  tool.output_schema = std::move(output);
  tool.handler = [&plugins](const json::object&, const ToolContext&) {
    ToolResult result;
    json::array list;
    for (const Component* c : evaluators(plugins)) list.push_back(evaluator_summary(*c));
    json::array problems;
    for (const PluginProblem& problem : plugins.problems()) problems.emplace_back(problem.to_string());
    result.structured["evaluators"] = std::move(list);
    result.structured["plugin_problems"] = std::move(problems);
    return result;
  };
  return tool;
}

McpTool describe_evaluator_tool(const PluginRegistry& plugins) {
  McpTool tool;
  tool.name = "describe_evaluator";
  tool.title = "Describe an evaluator";
  tool.description =
      "One evaluator's description and options: the JSON Schema its options must match (options_schema) and each "
      "option's default (defaults). Name it by id or short name, as list_evaluators gives them.";
  tool.input_schema = schema_object(R"({"type":"object","properties":{
    "name":{"type":"string","minLength":1,"description":"The evaluator's id or short name"}},
    "required":["name"],"additionalProperties":false})");
  json::object output = schema_object(kSummarySchema);
  json::object& properties = output["properties"].as_object();
  properties["options_schema"] = schema_object(R"({"type":"object","description":"JSON Schema of the evaluator's options"})");
  properties["defaults"] = schema_object(R"({"type":"object","description":"Each option's default value"})");
  output["required"].as_array().emplace_back("options_schema");
  output["required"].as_array().emplace_back("defaults");
  tool.output_schema = std::move(output);
  tool.handler = [&plugins](const json::object& arguments, const ToolContext&) {
    const std::string name(arguments.at("name").as_string());
    const Component* found = nullptr;
    for (const Component* c : evaluators(plugins)) {
      if (c->id == name || c->name == name) {
        found = c;
        break;
      }
    }
    if (found == nullptr) throw ToolError("no evaluator named '" + name + "' (list_evaluators names them)");
    ToolResult result;
    result.structured = evaluator_summary(*found);
    json::error_code ec;
    json::value schema = krino::json::parse(found->config_schema, ec);
    if (ec || !schema.is_object()) schema = json::object();  // the loader already checked it; never fail here
    result.structured["defaults"] = option_defaults(schema.get_object());
    result.structured["options_schema"] = std::move(schema);
    return result;
  };
  return tool;
}

}  // namespace

void add_evaluator_tools(ToolRegistry& tools, const PluginRegistry& plugins) {
  tools.add(list_evaluators_tool(plugins));
  tools.add(describe_evaluator_tool(plugins));
}

}  // namespace krino::core::mcp
