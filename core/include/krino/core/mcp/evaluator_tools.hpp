#pragma once
// The MCP tools that tell an agent which evaluators exist and how to configure them:
// list_evaluators and describe_evaluator, read from the loaded plugins (docs/mcp.md).
#include "krino/core/mcp/tool_registry.hpp"

namespace krino::core {
class PluginRegistry;
}

namespace krino::core::mcp {

// Adds list_evaluators and describe_evaluator. `plugins` must outlive the registry's use.
void add_evaluator_tools(ToolRegistry& tools, const PluginRegistry& plugins);

}  // namespace krino::core::mcp
