#include "krino/core/mcp/krino_mcp_server.hpp"

#include "krino/core/mcp/evaluator_tools.hpp"
#include "krino/core/mcp/run_tools.hpp"
#include "krino/core/mcp/store_tools.hpp"
#include "krino/core/version.hpp"

namespace krino::core::mcp {

std::unique_ptr<McpServer> make_krino_mcp_server(ToolServices& services) {
  ToolRegistry tools;
  add_evaluator_tools(tools, services.plugins());
  add_run_tools(tools, services);
  add_store_tools(tools, services);
  return std::make_unique<McpServer>(ServerInfo{"krino", "krino", kVersion}, std::move(tools));
}

}  // namespace krino::core::mcp
