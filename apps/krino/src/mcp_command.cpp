// `krino mcp`: the MCP server over stdio (docs/mcp.md). Standard output carries only protocol
// messages; everything else (plugin warnings, logs) goes to standard error.
#include "commands.hpp"
#include "exit_codes.hpp"

#include "krino/core/common/cancellation.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/mcp/krino_mcp_server.hpp"
#include "krino/core/mcp/tool_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"

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
  // A client that went away must not kill a run half stored: writes to the closed pipe fail
  // quietly, the input ends, and the calls in flight finish and close their runs.
  std::signal(SIGPIPE, SIG_IGN);

  // Loading needs only the host's description; every tool call that runs plugins makes host
  // services of its own, with that call's cancellation.
  core::Cancellation never_cancelled;
  core::HostServices host(never_cancelled);
  core::PluginRegistry plugins;
  args.plugins.load(plugins, host);  // problems on stderr, and in list_evaluators

  const krino_log_level log_level = args.plugins.verbosity >= 2   ? KRINO_LOG_DEBUG
                                    : args.plugins.verbosity == 1 ? KRINO_LOG_INFO
                                                                  : KRINO_LOG_WARNING;
  core::mcp::ToolServices services(plugins, args.database, args.data_dir, log_level);
  {
    // Destroyed (its workers joined) before the services and the plugins the tools use.
    const std::unique_ptr<core::mcp::McpServer> server = core::mcp::make_krino_mcp_server(services);
    server->serve(std::cin, std::cout);
  }
  return kSuccess;
}

}  // namespace krino::cli
