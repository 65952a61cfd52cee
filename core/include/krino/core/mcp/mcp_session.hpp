#pragma once
// One client's conversation with an McpServer, with no transport in it (stdio and Streamable HTTP
// both drive it): the lifecycle (initialize with version negotiation, notifications/initialized),
// ping, tools/list, and tools/call run on the server's workers, so pings and cancellations are
// answered while a tool runs. A tool call whose request carried `_meta.progressToken` may send
// notifications/progress before its answer; a cancelled call gets no answer at all (MCP).
#include "krino/core/mcp/json_rpc.hpp"
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/store/store_types.hpp"

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace krino::core::mcp {

// Where outgoing messages go: one complete JSON-RPC message per call (compact JSON, no line end).
// The session never calls the sinks it was given concurrently (one mutex per session), so a sink
// may write to a stream or a connection as it is.
using MessageSink = std::function<void(std::string message)>;

class McpSession {
 public:
  // `server` must outlive the session. Its tool calls see and stamp the store's rows of `scope`
  // (ToolContext::scope): the HTTP transport passes the caller's key's tenant.
  explicit McpSession(const McpServer& server, store::Scope scope = {});
  // Cancels the tool calls in flight and waits for them: no sink is called after it returns.
  ~McpSession();
  McpSession(const McpSession&) = delete;
  McpSession& operator=(const McpSession&) = delete;

  // One incoming message (one JSON text; a trailing CR and blank text are tolerated). Whatever it
  // causes — the answer, a tool call's progress notifications — goes to `sink`; `done` (optional)
  // is called once, after the last of those: before receive returns for a notification, a
  // response, an error or a request answered at once; from a worker after a tool call's answer,
  // or with no answer sent when the call was cancelled. Thread-safe; never throws for anything the
  // client sent. A request whose id is still in flight is refused (-32600).
  void receive(std::string_view message, MessageSink sink, std::function<void()> done = {});

  // Asks every tool call in flight to stop; their answers are dropped, as for notifications/cancelled.
  void cancel_all();
  // Returns when no tool call is in flight.
  void wait_idle();

  bool initialized() const;
  // The protocol revision initialize agreed on; empty before it.
  std::string negotiated_version() const;
  // How many tool calls are running or waiting for a worker.
  std::size_t calls_in_flight() const;

 private:
  struct Call;
  // Answers a request at once, or posts a tools/call to a worker, which then takes `done` (left empty).
  void handle_request(const RpcMessage& message, const MessageSink& sink, std::function<void()>& done);
  void handle_notification(const RpcMessage& message);
  void start_tool_call(const RpcMessage& message, const MessageSink& sink, std::function<void()>& done);
  void send(const MessageSink& sink, std::string message);

  const McpServer& server_;
  const store::Scope scope_;
  mutable std::mutex mutex_;          // the state below
  std::mutex output_mutex_;           // one sink call at a time
  std::condition_variable idle_;
  bool initialized_ = false;
  std::string negotiated_version_;
  std::map<std::string, std::shared_ptr<Call>> in_flight_;  // by the request id as compact JSON
};

}  // namespace krino::core::mcp
