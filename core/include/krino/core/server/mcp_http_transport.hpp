#pragma once
// MCP's Streamable HTTP transport (protocol 2025-11-25) at /mcp on krino serve (docs/mcp.md): the
// same McpServer as `krino mcp` on stdio, one McpSession per client.
//
//   POST /mcp    one JSON-RPC message. A notification or a response: 202, no body. tools/call:
//                a text/event-stream of its progress notifications and its answer (the stream ends
//                with no answer when the call is cancelled). Any other request: application/json.
//   DELETE /mcp  ends the session named by Mcp-Session-Id (its tool calls are cancelled): 204.
//   GET /mcp     405: krino sends nothing unasked, so it offers no server-initiated stream.
//
// initialize (sent without Mcp-Session-Id) starts a session and answers its id in Mcp-Session-Id;
// every later message must carry it (missing: 400, unknown or ended: 404, as the spec says), and
// may carry MCP-Protocol-Version (a revision whose HTTP transport is not this one: 400). Browsers' requests are
// checked against DNS rebinding: an Origin that is not localhost or allowed is 403, and so is a
// Host that is not local when the server listens on loopback. With keys in use, every request
// needs an EDITOR or ADMIN key (tool calls run evaluations), and a session is bound to the key
// that started it.
//
// Threading: handlers run on the HTTP server's handler threads and return at once; tool calls
// run on the McpServer's workers and write their stream from there.
#include "krino/core/http_server/router.hpp"
#include "krino/core/server_api/auth.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace krino::core::mcp {
class McpServer;
class McpSession;
}  // namespace krino::core::mcp

namespace krino::core::server {

struct McpHttpOptions {
  // Origins allowed besides localhost's ("https://agent.example.com", compared without case):
  // --mcp-allowed-origin. Their hosts are allowed as Host headers too (a reverse proxy's).
  std::vector<std::string> allowed_origins;
  // The Host header must name a local host (DNS rebinding); ResultsServer sets it when listening
  // on loopback.
  bool local_host_only = true;
  std::size_t max_sessions = 64;
  // A session with no request for this long and no tool call running is ended for a new one.
  std::chrono::seconds idle_session{3600};
};

class McpHttpTransport {
 public:
  // `server` and `auth` must outlive the transport.
  McpHttpTransport(const mcp::McpServer& server, const server_api::Authenticator& auth, McpHttpOptions options);
  // Ends every session: cancels their tool calls and waits for them.
  ~McpHttpTransport();
  McpHttpTransport(const McpHttpTransport&) = delete;
  McpHttpTransport& operator=(const McpHttpTransport&) = delete;

  // POST and DELETE /mcp (GET is then 405 by the router, with an Allow header).
  void add_routes(http_server::Router& router);
  // Cancels every tool call in flight and waits for them: their streams end (krino serve stopping).
  void close();
  std::size_t session_count() const;

 private:
  struct Session;
  http_server::Response post(const http_server::Request& request);
  http_server::Response end_session(const http_server::Request& request);
  // 403 when the Origin or Host header is not allowed, else nothing.
  std::optional<http_server::Response> refuse_foreign(const http_server::Request& request) const;
  // The caller's session, or the 400/404 to answer.
  std::shared_ptr<Session> find_session(const http_server::Request& request, const server_api::Principal& caller,
                                        http_server::Response& refusal);
  // Keeps a new session; nullptr when max_sessions are in use and none may be ended.
  std::optional<std::string> keep_session(std::shared_ptr<Session> session);

  const mcp::McpServer& server_;
  const server_api::Authenticator& auth_;
  const McpHttpOptions options_;
  mutable std::mutex mutex_;  // sessions_
  std::map<std::string, std::shared_ptr<Session>> sessions_;
};

}  // namespace krino::core::server
