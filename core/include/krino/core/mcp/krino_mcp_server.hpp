#pragma once
// krino's MCP server: every tool krino offers (the evaluator, run and store tools) over one set of
// services. `krino mcp` (stdio) and `krino serve` (/mcp) both build theirs here, so the two
// transports can never offer different tools.
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/mcp/tool_services.hpp"

#include <memory>

namespace krino::core::mcp {

// `services` (and the plugins it holds) must outlive the server.
std::unique_ptr<McpServer> make_krino_mcp_server(ToolServices& services);

}  // namespace krino::core::mcp
