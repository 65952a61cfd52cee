#include "krino/core/mcp/tool_registry.hpp"

#include "krino/core/plugin/config_validator.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json/array.hpp>

#include <algorithm>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

json::object tool_error_result(const std::string& message) {
  json::object text_block;
  text_block["type"] = "text";
  text_block["text"] = message;
  json::object result;
  result["content"] = json::array{std::move(text_block)};
  result["isError"] = true;
  return result;
}

}  // namespace

ToolRegistry::ToolRegistry() = default;
ToolRegistry::~ToolRegistry() = default;
ToolRegistry::ToolRegistry(ToolRegistry&&) noexcept = default;
ToolRegistry& ToolRegistry::operator=(ToolRegistry&&) noexcept = default;

void ToolRegistry::add(McpTool tool) {
  if (contains(tool.name)) throw std::invalid_argument("duplicate MCP tool '" + tool.name + "'");
  auto validator = std::make_shared<const ConfigValidator>(krino::json::to_compact_json(tool.input_schema));
  entries_.push_back(Entry{std::move(tool), std::move(validator)});
}

bool ToolRegistry::contains(const std::string& name) const {
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.tool.name == name; });
}

json::array ToolRegistry::list() const {
  json::array tools;
  for (const Entry& entry : entries_) {
    json::object t;
    t["name"] = entry.tool.name;
    t["title"] = entry.tool.title;
    t["description"] = entry.tool.description;
    t["inputSchema"] = entry.tool.input_schema;
    t["outputSchema"] = entry.tool.output_schema;
    tools.push_back(std::move(t));
  }
  return tools;
}

json::object ToolRegistry::call(const std::string& name, const json::object& arguments, const ToolContext& context) const {
  const auto found = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.tool.name == name; });
  if (found == entries_.end()) throw std::out_of_range("unknown tool '" + name + "'");

  const std::vector<std::string> problems = found->validator->validate(json::value(arguments));
  if (!problems.empty()) {
    std::string message = "invalid arguments for " + name + ":";
    for (const std::string& problem : problems) message.append("\n").append(problem);
    return tool_error_result(message);
  }
  ToolResult outcome;
  try {
    outcome = found->tool.handler(arguments, context);
  } catch (const std::exception& e) {
    // Every failure inside a tool is the tool's answer: the model can read it and try otherwise.
    return tool_error_result(e.what());
  }
  json::object text_block;
  text_block["type"] = "text";
  text_block["text"] = outcome.text.empty() ? krino::json::to_compact_json(outcome.structured) : outcome.text;
  json::object result;
  result["content"] = json::array{std::move(text_block)};
  result["structuredContent"] = std::move(outcome.structured);
  result["isError"] = false;
  return result;
}

json::object schema_object(std::string_view json_text) {
  json::error_code ec;
  json::value schema = krino::json::parse(json_text, ec);
  if (ec || !schema.is_object()) throw std::invalid_argument("an MCP tool schema must be a JSON object");
  return std::move(schema.get_object());
}

}  // namespace krino::core::mcp
