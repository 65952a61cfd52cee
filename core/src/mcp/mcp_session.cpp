#include "krino/core/mcp/mcp_session.hpp"

#include "krino/core/common/cancellation.hpp"

#include <krino/json_text.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <utility>

namespace krino::core::mcp {
namespace json = boost::json;

// A tool call in flight: what notifications/cancelled reaches.
struct McpSession::Call {
  Cancellation cancellation;
};

namespace {

const json::object& params_of(const json::value& params) {
  static const json::object empty;
  return params.is_object() ? params.get_object() : empty;
}

bool is_request_id(const json::value& id) { return id.is_string() || id.is_int64() || id.is_uint64(); }

// Runs `done` when it is left, whichever way: a session's caller counts on it exactly once.
class DoneOnExit {
 public:
  explicit DoneOnExit(std::function<void()>& done) : done_(done) {}
  ~DoneOnExit() {
    if (done_) done_();
  }
  DoneOnExit(const DoneOnExit&) = delete;
  DoneOnExit& operator=(const DoneOnExit&) = delete;

 private:
  std::function<void()>& done_;
};

json::value initialize_result(const ServerInfo& info, const std::string& version) {
  json::object server_info;
  server_info["name"] = info.name;
  server_info["title"] = info.title;
  server_info["version"] = info.version;
  json::object capabilities;
  capabilities["tools"] = json::object();
  json::object result;
  result["protocolVersion"] = version;
  result["capabilities"] = std::move(capabilities);
  result["serverInfo"] = std::move(server_info);
  result["instructions"] =
      "krino evaluates LLM applications and agents. run_evaluation runs a dataset or experiment file and stores the run; "
      "list_experiments, get_failing_queries, compare_runs and gate read stored runs; evaluate scores given test cases; "
      "list_evaluators and describe_evaluator say which evaluators exist and what their options are.";
  return result;
}

// The tool name and arguments of a tools/call; throws RpcError (invalid_params) when unusable.
std::pair<std::string, json::object> tool_call_of(const json::value& params, const ToolRegistry& tools) {
  const json::object& p = params_of(params);
  const json::value* name = p.if_contains("name");
  if (name == nullptr || !name->is_string()) throw RpcError(RpcErrorCode::invalid_params, "invalid params: tools/call needs \"name\" (a string)");
  std::string tool(name->get_string());
  json::object arguments;
  if (const json::value* a = p.if_contains("arguments"); a != nullptr && !a->is_null()) {
    if (!a->is_object()) throw RpcError(RpcErrorCode::invalid_params, "invalid params: \"arguments\" must be an object");
    arguments = a->get_object();
  }
  // MCP answers an unknown tool as a protocol error (the client asked for something not listed).
  if (!tools.contains(tool)) throw RpcError(RpcErrorCode::invalid_params, "unknown tool: " + tool);
  return {std::move(tool), std::move(arguments)};
}

// The request's progress token (params._meta.progressToken), null when it asked for none.
json::value progress_token_of(const json::value& params) {
  const json::value* meta = params_of(params).if_contains("_meta");
  if (meta == nullptr || !meta->is_object()) return nullptr;
  const json::value* token = meta->get_object().if_contains("progressToken");
  return token != nullptr && is_request_id(*token) ? *token : json::value(nullptr);
}

}  // namespace

McpSession::McpSession(const McpServer& server, store::Scope scope) : server_(server), scope_(std::move(scope)) {}

McpSession::~McpSession() {
  cancel_all();
  wait_idle();
}

void McpSession::send(const MessageSink& sink, std::string message) {
  std::lock_guard lock(output_mutex_);
  sink(std::move(message));
}

void McpSession::receive(std::string_view line, MessageSink sink, std::function<void()> done) {
  DoneOnExit finish(done);  // unless a tool call takes `done` over (then it is empty here)
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a client writing CRLF
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  RpcMessage message;
  try {
    message = read_rpc_message(line);
  } catch (const RpcError& e) {
    send(sink, rpc_error_line(e.id(), e.code(), e.what()));
    return;
  }
  // A response to a request of ours: krino sends none yet, so it is read and dropped.
  if (message.kind == RpcMessage::Kind::response) return;
  if (message.kind == RpcMessage::Kind::notification) {
    // A notification never gets an answer, not even an error.
    handle_notification(message);
    return;
  }
  try {
    handle_request(message, sink, done);
  } catch (const RpcError& e) {
    send(sink, rpc_error_line(message.id, e.code(), e.what()));
  } catch (const std::exception& e) {
    std::string text = "internal error: ";
    text.append(e.what());
    send(sink, rpc_error_line(message.id, RpcErrorCode::internal_error, text));
  }
}

void McpSession::handle_request(const RpcMessage& message, const MessageSink& sink, std::function<void()>& done) {
  if (message.method == "tools/call") {
    start_tool_call(message, sink, done);
    return;
  }
  json::value result;
  if (message.method == "initialize") {
    const json::value* requested = params_of(message.params).if_contains("protocolVersion");
    if (requested == nullptr || !requested->is_string())
      throw RpcError(RpcErrorCode::invalid_params, "invalid params: initialize needs \"protocolVersion\" (a string)");
    const std::string_view asked(requested->get_string());
    // The client's version when krino speaks it; otherwise krino's newest, and the client decides.
    const auto known = std::find(std::begin(kProtocolVersions), std::end(kProtocolVersions), asked);
    std::string version(known != std::end(kProtocolVersions) ? *known : kProtocolVersions[0]);
    {
      std::lock_guard lock(mutex_);
      negotiated_version_ = version;
    }
    result = initialize_result(server_.info(), version);
  } else if (message.method == "ping") {
    result = json::object();
  } else if (message.method == "tools/list") {
    json::object list;
    list["tools"] = server_.tools().list();  // every tool fits one page
    result = std::move(list);
  } else {
    throw RpcError(RpcErrorCode::method_not_found, "method not found: " + message.method);
  }
  send(sink, rpc_result_line(message.id, std::move(result)));
}

void McpSession::start_tool_call(const RpcMessage& message, const MessageSink& sink, std::function<void()>& done) {
  auto [tool, arguments] = tool_call_of(message.params, server_.tools());
  const std::string key = krino::json::to_compact_json(message.id);
  auto call = std::make_shared<Call>();
  {
    std::lock_guard lock(mutex_);
    if (in_flight_.count(key) != 0)
      throw RpcError(RpcErrorCode::invalid_request, "invalid request: request id " + key + " is still in flight");
    in_flight_.emplace(key, call);
  }
  json::value token = progress_token_of(message.params);
  server_.post([this, call, key, id = message.id, token = std::move(token), tool = std::move(tool),
                arguments = std::move(arguments), sink, done = std::exchange(done, nullptr)]() mutable {
    ToolContext::ProgressSink progress;
    if (!token.is_null()) {
      progress = [this, &sink, &token](double value, std::optional<double> total, std::string_view text) {
        json::object params;
        params["progressToken"] = token;
        params["progress"] = value;
        if (total.has_value()) params["total"] = *total;
        if (!text.empty()) params["message"] = text;
        send(sink, rpc_notification_line("notifications/progress", std::move(params)));
      };
    }
    std::optional<std::string> answer;
    try {
      const ToolContext context(call->cancellation, std::move(progress), scope_);
      answer = rpc_result_line(id, server_.tools().call(tool, arguments, context));
    } catch (const std::exception& e) {
      std::string text = "internal error: ";
      text.append(e.what());
      answer = rpc_error_line(id, RpcErrorCode::internal_error, text);
    }
    // A cancelled request gets no answer (MCP); the client has stopped waiting for it.
    if (!call->cancellation.requested()) send(sink, std::move(*answer));
    if (done) done();
    std::lock_guard lock(mutex_);
    in_flight_.erase(key);
    if (in_flight_.empty()) idle_.notify_all();
  });
}

void McpSession::handle_notification(const RpcMessage& message) {
  if (message.method == "notifications/initialized") {
    std::lock_guard lock(mutex_);
    initialized_ = true;
    return;
  }
  if (message.method == "notifications/cancelled") {
    const json::value* id = params_of(message.params).if_contains("requestId");
    if (id == nullptr || !is_request_id(*id)) return;
    std::lock_guard lock(mutex_);
    // One that already finished (or never was) is ignored: the notification may cross the answer.
    if (auto found = in_flight_.find(krino::json::to_compact_json(*id)); found != in_flight_.end()) found->second->cancellation.request();
    return;
  }
  // Other notifications (progress, roots changed...) mean nothing to krino yet: ignored, as MCP asks.
}

void McpSession::cancel_all() {
  std::lock_guard lock(mutex_);
  for (auto& [key, call] : in_flight_) call->cancellation.request();
}

void McpSession::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return in_flight_.empty(); });
}

bool McpSession::initialized() const {
  std::lock_guard lock(mutex_);
  return initialized_;
}

std::string McpSession::negotiated_version() const {
  std::lock_guard lock(mutex_);
  return negotiated_version_;
}

std::size_t McpSession::calls_in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_.size();
}

}  // namespace krino::core::mcp
