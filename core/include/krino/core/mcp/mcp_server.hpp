#pragma once
// An MCP server's protocol side (docs/mcp.md): the lifecycle (initialize with version
// negotiation, notifications/initialized), ping, tools/list and tools/call over a ToolRegistry,
// and notifications/cancelled recorded. It knows nothing of transports: handle_line takes one
// message and gives the answer line; serve() is the stdio transport over two streams.
#include "krino/core/mcp/json_rpc.hpp"
#include "krino/core/mcp/tool_registry.hpp"

#include <iosfwd>
#include <optional>
#include <set>
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
  McpServer(ServerInfo info, ToolRegistry tools);

  // One incoming line (without its line end) -> the answer line, or nothing for notifications,
  // responses and blank lines. Never throws for anything the client sent.
  std::optional<std::string> handle_line(std::string_view line);

  // The stdio transport: reads lines from `in` until its end, writes each answer and a newline
  // to `out`, flushed at once so the client never waits on a buffer.
  void serve(std::istream& in, std::ostream& out);

  bool initialized() const { return initialized_; }
  const std::string& negotiated_version() const { return negotiated_version_; }
  // Request ids the client cancelled (as compact JSON: "7", "\"a\""); honouring them comes later.
  const std::set<std::string>& cancelled_requests() const { return cancelled_; }

 private:
  boost::json::value dispatch_request(const RpcMessage& message);
  void handle_notification(const RpcMessage& message);
  boost::json::value initialize(const boost::json::value& params);
  boost::json::value call_tool(const boost::json::value& params);

  ServerInfo info_;
  ToolRegistry tools_;
  bool initialized_ = false;
  std::string negotiated_version_;
  std::set<std::string> cancelled_;
};

}  // namespace krino::core::mcp
