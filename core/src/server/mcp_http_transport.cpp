#include "krino/core/server/mcp_http_transport.hpp"

#include "krino/core/mcp/json_rpc.hpp"
#include "krino/core/mcp/mcp_server.hpp"
#include "krino/core/mcp/mcp_session.hpp"

#include <boost/asio/ip/address_v4.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>

namespace krino::core::server {

namespace {

using http_server::Request;
using http_server::Response;
using http_server::Status;
namespace field = boost::beast::http;

constexpr std::string_view kSessionHeader = "Mcp-Session-Id";
constexpr std::string_view kVersionHeader = "MCP-Protocol-Version";
// The revisions whose HTTP transport is this one (Streamable HTTP came with 2025-03-26). The header
// names the transport's rules, which these share; the messages follow the revision initialize
// agreed on. Any other value (2024-11-05's HTTP+SSE, a typo) is refused.
constexpr std::string_view kStreamableHttpRevisions[] = {"2025-03-26", "2025-06-18", "2025-11-25"};

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// "host:port", "[::1]:port", "host" -> the host, lower case, brackets kept.
std::string host_of_authority(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    return lower(authority.substr(0, close == std::string_view::npos ? authority.size() : close + 1));
  }
  return lower(authority.substr(0, authority.find(':')));
}

// "http://localhost:3000" -> "localhost"; empty when it is not scheme://authority.
std::string host_of_origin(std::string_view origin) {
  const std::size_t scheme_end = origin.find("://");
  if (scheme_end == std::string_view::npos) return {};
  std::string_view authority = origin.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find('/'));
  return host_of_authority(authority);
}

// localhost, [::1] or an IPv4 loopback address (127.0.0.1.evil.com is a name, not one of them).
bool is_local_host(const std::string& host) {
  if (host == "localhost" || host == "[::1]") return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address_v4(host, ec);
  return !ec && address.is_loopback();
}

// A 128-bit session id from the system's random source: visible ASCII, as the spec requires.
std::string new_session_id() {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) throw std::runtime_error("the system's random source failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char byte : bytes) {
    id.push_back(kHex[byte >> 4]);
    id.push_back(kHex[byte & 0xf]);
  }
  return id;
}

// A JSON-RPC error as the body of an HTTP error: what MCP clients read when a POST is refused.
Response rpc_refusal(Status status, mcp::RpcErrorCode code, std::string_view message, const boost::json::value& id = nullptr) {
  return http_server::json_response(status, mcp::rpc_error_line(id, code, message));
}

bool accepts(std::string_view accept, std::string_view type) {
  return accept.find(type) != std::string_view::npos || accept.find("*/*") != std::string_view::npos;
}

}  // namespace

struct McpHttpTransport::Session {
  // A tenant key's session reads and stamps its tenant's rows only, as the REST API does.
  Session(const mcp::McpServer& server, const server_api::Principal& caller) : mcp(server, caller.scope()), owner(caller.key_id) {}
  mcp::McpSession mcp;
  const std::optional<std::string> owner;  // the key that started it (none in open mode)
  std::atomic<std::chrono::steady_clock::rep> last_used{std::chrono::steady_clock::now().time_since_epoch().count()};

  void touch() { last_used = std::chrono::steady_clock::now().time_since_epoch().count(); }
  std::chrono::steady_clock::time_point used() const {
    return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(last_used.load()));
  }
};

McpHttpTransport::McpHttpTransport(const mcp::McpServer& server, const server_api::Authenticator& auth, McpHttpOptions options)
    : server_(server), auth_(auth), options_(std::move(options)) {}

McpHttpTransport::~McpHttpTransport() { close(); }

void McpHttpTransport::add_routes(http_server::Router& router) {
  router.add(boost::beast::http::verb::post, "/mcp", [this](const Request& request) { return post(request); });
  router.add(boost::beast::http::verb::delete_, "/mcp", [this](const Request& request) { return end_session(request); });
}

void McpHttpTransport::close() {
  std::map<std::string, std::shared_ptr<Session>> sessions;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    sessions = sessions_;
  }
  for (auto& [id, session] : sessions) session->mcp.cancel_all();
  for (auto& [id, session] : sessions) session->mcp.wait_idle();
}

std::size_t McpHttpTransport::session_count() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return sessions_.size();
}

std::optional<Response> McpHttpTransport::refuse_foreign(const Request& request) const {
  const auto allowed_origin = [this](std::string_view origin) {
    const std::string wanted = lower(origin);
    return std::any_of(options_.allowed_origins.begin(), options_.allowed_origins.end(),
                       [&wanted](const std::string& allowed) { return lower(allowed) == wanted; });
  };
  if (const std::optional<std::string_view> origin = request.header("Origin")) {
    if (!is_local_host(host_of_origin(*origin)) && !allowed_origin(*origin))
      return http_server::error_response(Status::forbidden, "origin_not_allowed",
                                         "Origin " + std::string(*origin) + " may not use /mcp; krino serve --mcp-allowed-origin allows it");
  }
  if (options_.local_host_only) {
    const std::string host = host_of_authority(request.header("Host").value_or(""));
    const bool proxied = std::any_of(options_.allowed_origins.begin(), options_.allowed_origins.end(),
                                     [&host](const std::string& allowed) { return host_of_origin(allowed) == host; });
    if (!is_local_host(host) && !proxied)
      return http_server::error_response(Status::forbidden, "host_not_allowed",
                                         "Host " + host + " is not this machine; a server on loopback answers /mcp for localhost only");
  }
  return std::nullopt;
}

std::shared_ptr<McpHttpTransport::Session> McpHttpTransport::find_session(const Request& request, const server_api::Principal& caller,
                                                                          Response& refusal) {
  const std::optional<std::string_view> id = request.header(kSessionHeader);
  if (!id) {
    refusal = rpc_refusal(Status::bad_request, mcp::RpcErrorCode::invalid_request,
                          "missing Mcp-Session-Id: send initialize first, then its session id with every message");
    return nullptr;
  }
  std::shared_ptr<Session> session;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (auto found = sessions_.find(std::string(*id)); found != sessions_.end()) session = found->second;
  }
  // Another key's session is as good as none: its id tells the caller nothing.
  if (!session || session->owner != caller.key_id) {
    refusal = rpc_refusal(Status::not_found, mcp::RpcErrorCode::invalid_request, "no such MCP session (it ended or never was): initialize again");
    return nullptr;
  }
  session->touch();
  return session;
}

std::optional<std::string> McpHttpTransport::keep_session(std::shared_ptr<Session> session) {
  std::vector<std::shared_ptr<Session>> ended;  // destroyed after the lock: a session may wait on its calls
  std::optional<std::string> id;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      if (now - it->second->used() > options_.idle_session && it->second->mcp.calls_in_flight() == 0) {
        ended.push_back(std::move(it->second));
        it = sessions_.erase(it);
      } else {
        ++it;
      }
    }
    if (sessions_.size() >= options_.max_sessions) {
      // The least recently used session with nothing running makes room.
      auto oldest = sessions_.end();
      for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
        if (it->second->mcp.calls_in_flight() == 0 && (oldest == sessions_.end() || it->second->used() < oldest->second->used())) oldest = it;
      if (oldest == sessions_.end()) return std::nullopt;
      ended.push_back(std::move(oldest->second));
      sessions_.erase(oldest);
    }
    id = new_session_id();
    sessions_.emplace(*id, std::move(session));
  }
  return id;
}

Response McpHttpTransport::post(const Request& request) {
  if (auto refusal = refuse_foreign(request)) return std::move(*refusal);
  auto checked = auth_.check(request, server_api::Access::write);
  if (auto* refusal = std::get_if<Response>(&checked)) return std::move(*refusal);
  const server_api::Principal& caller = std::get<server_api::Principal>(checked);

  const std::string content_type = lower(request.header("Content-Type").value_or(""));
  if (content_type.rfind("application/json", 0) != 0)
    return http_server::error_response(Status::unsupported_media_type, "unsupported_media_type", "POST /mcp takes one JSON-RPC message as application/json");
  const std::string_view accept = request.header("Accept").value_or("");
  if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream"))
    return http_server::error_response(Status::not_acceptable, "not_acceptable",
                                       "a client of /mcp must accept both application/json and text/event-stream (MCP Streamable HTTP)");

  const std::string& body = request.message.body();
  mcp::RpcMessage message;
  try {
    message = mcp::read_rpc_message(body);
  } catch (const mcp::RpcError& e) {
    return rpc_refusal(Status::bad_request, e.code(), e.what(), e.id());
  }
  const bool initialize = message.kind == mcp::RpcMessage::Kind::request && message.method == "initialize";
  if (const auto version = request.header(kVersionHeader); version && !initialize &&
      std::find(std::begin(kStreamableHttpRevisions), std::end(kStreamableHttpRevisions), *version) == std::end(kStreamableHttpRevisions))
    return rpc_refusal(Status::bad_request, mcp::RpcErrorCode::invalid_request,
                       "unsupported MCP-Protocol-Version " + std::string(*version) + "; krino speaks " + std::string(mcp::kProtocolVersions[0]));

  std::shared_ptr<Session> session;
  std::optional<std::string> new_id;
  if (initialize) {
    if (request.header(kSessionHeader))
      return rpc_refusal(Status::bad_request, mcp::RpcErrorCode::invalid_request,
                         "initialize starts a new session: send it without Mcp-Session-Id", message.id);
    session = std::make_shared<Session>(server_, caller);
  } else {
    Response refusal;
    session = find_session(request, caller, refusal);
    if (!session) return refusal;
  }

  if (message.kind == mcp::RpcMessage::Kind::request && message.method == "tools/call") {
    // Answered on a stream, written by the tool's worker: no handler thread waits for the tool.
    std::shared_ptr<http_server::ResponseStream> stream = request.stream_response();
    session->mcp.receive(
        body,
        [stream](std::string answer) {
          std::string event = "event: message\ndata: ";
          event.append(answer).append("\n\n");
          stream->write(std::move(event));
        },
        [stream] { stream->finish(); });
    Response head(Status::ok, 11);
    head.set(field::field::content_type, "text/event-stream");
    head.set(field::field::cache_control, "no-store");
    return head;
  }

  // Everything else is answered before receive returns.
  std::string answer;
  session->mcp.receive(body, [&answer](std::string message_out) { answer = std::move(message_out); });
  if (message.kind != mcp::RpcMessage::Kind::request) {
    Response accepted(Status::accepted, 11);
    accepted.prepare_payload();
    return accepted;
  }
  Response response = http_server::json_response(Status::ok, std::move(answer));
  if (initialize && !session->mcp.negotiated_version().empty()) {
    new_id = keep_session(session);
    if (!new_id)
      return rpc_refusal(Status::service_unavailable, mcp::RpcErrorCode::internal_error,
                         "every MCP session is busy (" + std::to_string(options_.max_sessions) + " at most); try again later", message.id);
    response.set(std::string(kSessionHeader), *new_id);
  }
  return response;
}

Response McpHttpTransport::end_session(const Request& request) {
  if (auto refusal = refuse_foreign(request)) return std::move(*refusal);
  auto checked = auth_.check(request, server_api::Access::write);
  if (auto* refusal = std::get_if<Response>(&checked)) return std::move(*refusal);
  Response refusal;
  std::shared_ptr<Session> session = find_session(request, std::get<server_api::Principal>(checked), refusal);
  if (!session) return refusal;
  session->mcp.cancel_all();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    sessions_.erase(std::string(*request.header(kSessionHeader)));
  }
  Response ended(Status::no_content, 11);
  ended.prepare_payload();
  return ended;
}

}  // namespace krino::core::server
