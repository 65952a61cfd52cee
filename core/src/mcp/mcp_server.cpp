#include "krino/core/mcp/mcp_server.hpp"

#include <krino/json_text.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <istream>
#include <ostream>

namespace krino::core::mcp {
namespace json = boost::json;

namespace {

const json::object& params_object(const json::value& params) {
  static const json::object empty;
  return params.is_object() ? params.get_object() : empty;
}

}  // namespace

McpServer::McpServer(ServerInfo info, ToolRegistry tools) : info_(std::move(info)), tools_(std::move(tools)) {}

std::optional<std::string> McpServer::handle_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a client writing CRLF
  if (line.find_first_not_of(" \t") == std::string_view::npos) return std::nullopt;
  RpcMessage message;
  try {
    message = read_rpc_message(line);
  } catch (const RpcError& e) {
    return rpc_error_line(e.id(), e.code(), e.what());
  }
  if (message.kind == RpcMessage::Kind::response) return std::nullopt;
  if (message.kind == RpcMessage::Kind::notification) {
    // A notification never gets an answer, not even an error.
    handle_notification(message);
    return std::nullopt;
  }
  try {
    return rpc_result_line(message.id, dispatch_request(message));
  } catch (const RpcError& e) {
    return rpc_error_line(message.id, e.code(), e.what());
  } catch (const std::exception& e) {
    return rpc_error_line(message.id, RpcErrorCode::internal_error, std::string("internal error: ") + e.what());
  }
}

void McpServer::serve(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (std::optional<std::string> answer = handle_line(line)) {
      answer->push_back('\n');
      out.write(answer->data(), static_cast<std::streamsize>(answer->size()));
      out.flush();
    }
  }
}

json::value McpServer::dispatch_request(const RpcMessage& message) {
  if (message.method == "initialize") return initialize(message.params);
  if (message.method == "ping") return json::object();
  if (message.method == "tools/list") {
    json::object result;
    result["tools"] = tools_.list();  // every tool fits one page
    return result;
  }
  if (message.method == "tools/call") return call_tool(message.params);
  throw RpcError(RpcErrorCode::method_not_found, "method not found: " + message.method);
}

void McpServer::handle_notification(const RpcMessage& message) {
  if (message.method == "notifications/initialized") {
    initialized_ = true;
    return;
  }
  if (message.method == "notifications/cancelled") {
    const json::object& params = params_object(message.params);
    if (const json::value* id = params.if_contains("requestId"); id != nullptr && (id->is_string() || id->is_int64() || id->is_uint64()))
      cancelled_.insert(krino::json::to_compact_json(*id));
  }
  // Other notifications (progress, roots changed...) mean nothing to krino yet: ignored, as MCP asks.
}

json::value McpServer::initialize(const json::value& params) {
  const json::object& p = params_object(params);
  const json::value* requested = p.if_contains("protocolVersion");
  if (requested == nullptr || !requested->is_string())
    throw RpcError(RpcErrorCode::invalid_params, "invalid params: initialize needs \"protocolVersion\" (a string)");
  const std::string_view asked(requested->get_string());
  // The client's version when krino speaks it; otherwise krino's newest, and the client decides.
  const auto known = std::find(std::begin(kProtocolVersions), std::end(kProtocolVersions), asked);
  negotiated_version_ = std::string(known != std::end(kProtocolVersions) ? *known : kProtocolVersions[0]);

  json::object server_info;
  server_info["name"] = info_.name;
  server_info["title"] = info_.title;
  server_info["version"] = info_.version;
  json::object capabilities;
  capabilities["tools"] = json::object();
  json::object result;
  result["protocolVersion"] = negotiated_version_;
  result["capabilities"] = std::move(capabilities);
  result["serverInfo"] = std::move(server_info);
  result["instructions"] =
      "krino evaluates LLM applications and agents. list_evaluators names the evaluators the loaded plugins offer; "
      "describe_evaluator gives one evaluator's options and their defaults.";
  return result;
}

json::value McpServer::call_tool(const json::value& params) {
  const json::object& p = params_object(params);
  const json::value* name = p.if_contains("name");
  if (name == nullptr || !name->is_string()) throw RpcError(RpcErrorCode::invalid_params, "invalid params: tools/call needs \"name\" (a string)");
  const std::string tool(name->get_string());
  static const json::object no_arguments;
  const json::object* arguments = &no_arguments;
  if (const json::value* a = p.if_contains("arguments"); a != nullptr && !a->is_null()) {
    if (!a->is_object()) throw RpcError(RpcErrorCode::invalid_params, "invalid params: \"arguments\" must be an object");
    arguments = &a->get_object();
  }
  // MCP answers an unknown tool as a protocol error (the client asked for something not listed).
  if (!tools_.contains(tool)) throw RpcError(RpcErrorCode::invalid_params, "unknown tool: " + tool);
  return tools_.call(tool, *arguments);
}

}  // namespace krino::core::mcp
