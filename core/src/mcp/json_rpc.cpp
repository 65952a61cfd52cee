#include "krino/core/mcp/json_rpc.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json/object.hpp>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

// MCP narrows JSON-RPC's ids to strings and integers (never null, never a fraction).
bool is_valid_rpc_id(const json::value& id) { return id.is_string() || id.is_int64() || id.is_uint64(); }

}  // namespace

RpcMessage read_rpc_message(std::string_view line) {
  json::error_code ec;
  json::value document = krino::json::parse(line, ec);
  if (ec) throw RpcError(RpcErrorCode::parse_error, "parse error: " + ec.message());
  if (document.is_array()) throw RpcError(RpcErrorCode::invalid_request, "invalid request: batches are not supported");
  if (!document.is_object()) throw RpcError(RpcErrorCode::invalid_request, "invalid request: a message is a JSON object");
  json::object& object = document.get_object();

  // The id is echoed in an error only when it is one a client could match.
  RpcMessage message;
  const json::value* id = object.if_contains("id");
  json::value echo_id = id != nullptr && is_valid_rpc_id(*id) ? *id : json::value(nullptr);
  const auto invalid = [&](const std::string& why) { return RpcError(RpcErrorCode::invalid_request, "invalid request: " + why, echo_id); };

  const json::value* version = object.if_contains("jsonrpc");
  if (version == nullptr || !version->is_string() || version->get_string() != "2.0") throw invalid("\"jsonrpc\" must be \"2.0\"");
  if (id != nullptr && !is_valid_rpc_id(*id)) throw invalid("\"id\" must be a string or an integer");

  const json::value* method = object.if_contains("method");
  if (method == nullptr) {
    // A response to a request of ours; krino sends none yet, so it is read and dropped.
    if (id == nullptr || (!object.contains("result") && !object.contains("error"))) throw invalid("no \"method\"");
    message.kind = RpcMessage::Kind::response;
    message.id = *id;
    return message;
  }
  if (!method->is_string()) throw invalid("\"method\" must be a string");
  message.method = std::string(method->get_string());
  if (const json::value* params = object.if_contains("params"); params != nullptr) {
    // JSON-RPC allows positional params; no MCP method takes them.
    if (!params->is_object()) throw RpcError(RpcErrorCode::invalid_params, "invalid params: \"params\" must be an object", echo_id);
    message.params = *params;
  }
  if (id == nullptr) {
    message.kind = RpcMessage::Kind::notification;
  } else {
    message.kind = RpcMessage::Kind::request;
    message.id = *id;
  }
  return message;
}

std::string rpc_result_line(const json::value& id, json::value result) {
  json::object response;
  response["jsonrpc"] = "2.0";
  response["id"] = id;
  response["result"] = std::move(result);
  return krino::json::to_compact_json(response);
}

std::string rpc_error_line(const json::value& id, RpcErrorCode code, std::string_view message) {
  json::object error;
  error["code"] = static_cast<int>(code);
  error["message"] = message;
  json::object response;
  response["jsonrpc"] = "2.0";
  response["id"] = id;
  response["error"] = std::move(error);
  return krino::json::to_compact_json(response);
}

std::string rpc_notification_line(std::string_view method, json::value params) {
  json::object notification;
  notification["jsonrpc"] = "2.0";
  notification["method"] = method;
  notification["params"] = std::move(params);
  return krino::json::to_compact_json(notification);
}

}  // namespace krino::core::mcp
