#pragma once
// The MCP tools that score: run_evaluation (a dataset or an experiment file, run as `krino run`
// runs it, stored in the results store) and evaluate (given test cases, as `krino eval`) (docs/mcp.md).
#include "krino/core/mcp/tool_registry.hpp"
#include "krino/core/mcp/tool_services.hpp"

namespace krino::core::mcp {

// `services` must outlive the registry's use.
void add_run_tools(ToolRegistry& tools, ToolServices& services);

}  // namespace krino::core::mcp
