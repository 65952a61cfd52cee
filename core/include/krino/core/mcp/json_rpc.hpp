#pragma once
// JSON-RPC 2.0 as MCP uses it (docs/mcp.md): one message a line on the stdio transport, ids that
// are strings or integers, no batches (MCP 2025-11-25 removed them). Reading a line gives a
// classified message or an RpcError to answer with; writing gives one line of compact JSON.
#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace krino::core::mcp {

// The standard JSON-RPC error codes krino answers with.
enum class RpcErrorCode : int {
  parse_error = -32700,       // the line is not JSON
  invalid_request = -32600,   // JSON, but not a request or notification (batches included)
  method_not_found = -32601,  // no such method, or one krino does not serve
  invalid_params = -32602,    // the method's params are missing or of the wrong shape
  internal_error = -32603,    // krino failed while answering
};

// A protocol error: thrown by reading a message or by a method, answered as the error object.
// `id` is the request's id when it was readable (echoed), null otherwise.
class RpcError : public std::runtime_error {
 public:
  RpcError(RpcErrorCode code, const std::string& message, boost::json::value id = nullptr)
      : std::runtime_error(message), code_(code), id_(std::move(id)) {}
  RpcErrorCode code() const noexcept { return code_; }
  const boost::json::value& id() const noexcept { return id_; }

 private:
  RpcErrorCode code_;
  boost::json::value id_;
};

struct RpcMessage {
  enum class Kind { request, notification, response };
  Kind kind = Kind::request;
  boost::json::value id;      // requests and responses: a string or an integer; null otherwise
  std::string method;         // requests and notifications
  boost::json::value params;  // an object, or null when absent
};

// Reads one line of the stdio transport (without its line end). Throws RpcError: parse_error for
// text that is not JSON, invalid_request for JSON that is not one well-formed message.
RpcMessage read_rpc_message(std::string_view line);

// One line (no line end) answering request `id` with `result`.
std::string rpc_result_line(const boost::json::value& id, boost::json::value result);
// One line (no line end) answering request `id` (null when unknown) with an error.
std::string rpc_error_line(const boost::json::value& id, RpcErrorCode code, std::string_view message);
// One line (no line end): a notification of `method` with `params` (an object).
std::string rpc_notification_line(std::string_view method, boost::json::value params);

}  // namespace krino::core::mcp
