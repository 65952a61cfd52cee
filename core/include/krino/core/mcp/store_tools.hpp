#pragma once
// The MCP tools over the results store (docs/mcp.md): list_experiments, compare_runs (the
// significance-tested comparison of the server's diff and gate), get_failing_queries, and gate
// (a run against a baseline file, as `krino gate`, or against the store's last good run).
#include "krino/core/mcp/tool_registry.hpp"
#include "krino/core/mcp/tool_services.hpp"

namespace krino::core::mcp {

// `services` must outlive the registry's use.
void add_store_tools(ToolRegistry& tools, ToolServices& services);

}  // namespace krino::core::mcp
