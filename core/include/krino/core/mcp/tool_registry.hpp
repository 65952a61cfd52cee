#pragma once
// The tools an MCP server offers: each with its schemas and its handler. Arguments are checked
// against the input schema before the handler runs, so a handler reads them without re-checking
// their shape. Handlers run on the server's workers, several at once: they must be thread-safe.
#include "krino/core/mcp/tool_context.hpp"

#include <boost/json/object.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core {
class ConfigValidator;
}

namespace krino::core::mcp {

// What a tool returns: the structured content (matching its output schema) and the text block
// sent beside it for clients that read only text (the structured content as JSON when empty).
struct ToolResult {
  boost::json::object structured;
  std::string text;
};

// A failure of the tool itself (unknown evaluator, unreadable file): answered as a result with
// isError: true, so the model reads the message, not as a protocol error.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct McpTool {
  std::string name;
  std::string title;
  std::string description;
  boost::json::object input_schema;   // a JSON Schema of type object
  boost::json::object output_schema;  // a JSON Schema of type object
  // Should look at context.cancelled() between steps and stop early (its answer is dropped then).
  std::function<ToolResult(const boost::json::object& arguments, const ToolContext& context)> handler;
};

class ToolRegistry {
 public:
  ToolRegistry();
  ~ToolRegistry();
  ToolRegistry(ToolRegistry&&) noexcept;
  ToolRegistry& operator=(ToolRegistry&&) noexcept;

  // Throws std::invalid_argument on a duplicate name or an input schema that cannot be used.
  void add(McpTool tool);
  bool contains(const std::string& name) const;
  // The tools/list entries, in the order the tools were added.
  boost::json::array list() const;
  // Checks the arguments and runs the tool; the tools/call result, isError: true when the tool
  // failed or the arguments do not match its input schema. Throws std::out_of_range for an unknown
  // name (the caller answers it as a protocol error).
  boost::json::object call(const std::string& name, const boost::json::object& arguments,
                           const ToolContext& context = ToolContext::detached()) const;

 private:
  struct Entry {
    McpTool tool;
    std::shared_ptr<const ConfigValidator> validator;
  };
  std::vector<Entry> entries_;
};

// A schema from its JSON text, for tool definitions written as literals; throws
// std::invalid_argument when the text is not a JSON object.
boost::json::object schema_object(std::string_view json_text);

}  // namespace krino::core::mcp
