#pragma once
// An MCP server (docs/mcp.md): what every client shares — the server's identity, its tools and the
// workers tool calls run on. Each client talks to it through its own McpSession (the protocol
// state); serve() is the stdio transport, one session over two streams.
#include "krino/core/mcp/tool_registry.hpp"

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

namespace krino::core::mcp {

// The protocol revisions krino speaks, newest first; the first is offered to a client asking for
// one krino does not know.
inline constexpr std::string_view kProtocolVersions[] = {"2025-11-25"};

struct ServerInfo {
  std::string name = "krino";
  std::string title = "krino";
  std::string version;
};

class McpServer {
 public:
  // Tool calls run on `tool_workers` threads (at least one); more calls wait their turn.
  McpServer(ServerInfo info, ToolRegistry tools, std::size_t tool_workers = 4);
  // Waits for the jobs already posted. Every session must be gone first.
  ~McpServer();
  McpServer(const McpServer&) = delete;
  McpServer& operator=(const McpServer&) = delete;

  const ServerInfo& info() const noexcept { return info_; }
  const ToolRegistry& tools() const noexcept { return tools_; }

  // Runs `job` on a worker (sessions post their tool calls here).
  void post(std::function<void()> job) const;

  // The stdio transport: one session reading lines from `in` until its end, each outgoing message
  // and a newline written to `out` and flushed at once. At the end of `in` it waits for the tool
  // calls in flight, so a client that writes its requests and closes its end still gets answers.
  void serve(std::istream& in, std::ostream& out) const;

 private:
  struct Workers;
  ServerInfo info_;
  ToolRegistry tools_;
  std::unique_ptr<Workers> workers_;
};

}  // namespace krino::core::mcp
