// `krino mcp`: the MCP server over stdio (docs/mcp.md). Standard output carries only protocol
// messages; everything else (plugin warnings, logs) goes to standard error.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/mcp/evaluator_tools.hpp"
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/version.hpp"

#include <csignal>
#include <iostream>

#include <pthread.h>

namespace krino::cli {

int mcp_command(const McpArguments& args) {
  // main() blocks SIGINT/SIGTERM for its signal watcher; the server blocks in a read of standard
  // input, where no watcher could wake it, and has nothing to flush, so the signals end it at once.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);

  core::Cancellation cancellation;
  core::HostServices host(cancellation);
  core::PluginRegistry plugins;
  args.plugins.load(plugins, host);  // problems on stderr, and in list_evaluators

  core::mcp::ToolRegistry tools;
  core::mcp::add_evaluator_tools(tools, plugins);
  core::mcp::McpServer server(core::mcp::ServerInfo{"krino", "krino", core::kVersion}, std::move(tools));
  server.serve(std::cin, std::cout);
  return kSuccess;
}

}  // namespace krino::cli
