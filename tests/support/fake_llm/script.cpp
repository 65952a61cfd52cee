#include "script.hpp"

#include <boost/json.hpp>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>

namespace krino::fake_llm {
namespace json = boost::json;
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument("fake-llm script: " + where + ": " + what);
}

// Unknown keys are errors: a misspelt "contians" would otherwise silently match every request.
void check_keys(const json::object& object, const std::string& where, std::initializer_list<std::string_view> known) {
  for (const auto& entry : object) {
    bool ok = false;
    for (auto k : known) ok = ok || entry.key() == k;
    if (!ok) fail(where, "unknown key \"" + std::string(entry.key()) + "\"");
  }
}

const json::object& as_object(const json::value& value, const std::string& where) {
  if (!value.is_object()) fail(where, "must be an object");
  return value.get_object();
}

std::string as_string(const json::value& value, const std::string& where) {
  if (!value.is_string()) fail(where, "must be a string");
  return std::string(value.get_string());
}

std::uint64_t as_count(const json::value& value, const std::string& where) {
  if (value.is_uint64()) return value.get_uint64();
  if (value.is_int64() && value.get_int64() >= 0) return static_cast<std::uint64_t>(value.get_int64());
  fail(where, "must be a non-negative integer");
}

Endpoint parse_endpoint(const json::value& value, const std::string& where) {
  std::string name = as_string(value, where);
  for (Endpoint endpoint : kEndpoints)
    if (name == endpoint_name(endpoint) || name == endpoint_path(endpoint)) return endpoint;
  fail(where, "must be \"openai\", \"anthropic\", \"responses\" or \"app\", not \"" + name + "\"");
}

FaultKind parse_fault_kind(const std::string& name, const std::string& where) {
  if (name == "status") return FaultKind::status;
  if (name == "timeout") return FaultKind::timeout;
  if (name == "truncated") return FaultKind::truncated;
  if (name == "reset") return FaultKind::reset;
  if (name == "malformed_json") return FaultKind::malformed_json;
  fail(where, "unknown fault \"" + name + "\" (status, timeout, truncated, reset, malformed_json)");
}

// "fault": "reset" is shorthand for "fault": {"kind": "reset"}.
Fault parse_fault(const json::value& value, const std::string& where) {
  Fault fault;
  if (value.is_string()) {
    fault.kind = parse_fault_kind(std::string(value.get_string()), where);
    return fault;
  }
  const auto& object = as_object(value, where);
  check_keys(object, where, {"kind", "status", "retry_after", "message", "body"});
  const auto* kind = object.if_contains("kind");
  if (kind == nullptr) fail(where, "needs a \"kind\"");
  fault.kind = parse_fault_kind(as_string(*kind, where + ".kind"), where + ".kind");
  if (const auto* v = object.if_contains("status")) {
    std::uint64_t status = as_count(*v, where + ".status");
    if (status < 100 || status > 599) fail(where + ".status", "must be an HTTP status (100-599)");
    fault.status = static_cast<unsigned>(status);
  }
  if (const auto* v = object.if_contains("retry_after")) {
    // Accept 2 or "2": both mean seconds; a string may also carry an HTTP date.
    fault.retry_after = v->is_string() ? std::string(v->get_string()) : std::to_string(as_count(*v, where + ".retry_after"));
  }
  if (const auto* v = object.if_contains("message")) fault.message = as_string(*v, where + ".message");
  if (const auto* v = object.if_contains("body")) fault.body = as_string(*v, where + ".body");
  return fault;
}

Reply parse_reply(const json::value& value, const std::string& where) {
  const auto& object = as_object(value, where);
  check_keys(object, where, {"content", "tool_calls", "body", "model", "stop_reason", "usage", "latency_ms", "fault"});
  Reply reply;
  if (const auto* v = object.if_contains("content")) reply.content = as_string(*v, where + ".content");
  if (const auto* v = object.if_contains("tool_calls")) {
    if (!v->is_array()) fail(where + ".tool_calls", "must be an array");
    for (std::size_t i = 0; i < v->get_array().size(); ++i) {
      const std::string at = where + ".tool_calls[" + std::to_string(i) + "]";
      const auto& call = as_object(v->get_array()[i], at);
      check_keys(call, at, {"name", "arguments", "id"});
      ToolCallReply tool;
      const auto* name = call.if_contains("name");
      if (name == nullptr) fail(at, "needs a \"name\"");
      tool.name = as_string(*name, at + ".name");
      if (const auto* arguments = call.if_contains("arguments")) {
        // An object is sent as its JSON text; a string as it is (so a test can send broken JSON).
        tool.arguments = arguments->is_string() ? std::string(arguments->get_string()) : json::serialize(as_object(*arguments, at + ".arguments"));
      }
      if (const auto* id = call.if_contains("id")) tool.id = as_string(*id, at + ".id");
      reply.tool_calls.push_back(std::move(tool));
    }
  }
  // A string body is sent as it is (it may be deliberately not JSON); anything else as its JSON text.
  if (const auto* v = object.if_contains("body")) reply.body = v->is_string() ? std::string(v->get_string()) : json::serialize(*v);
  if (const auto* v = object.if_contains("model")) reply.model = as_string(*v, where + ".model");
  if (const auto* v = object.if_contains("stop_reason")) reply.stop_reason = as_string(*v, where + ".stop_reason");
  if (const auto* v = object.if_contains("usage")) {
    const auto& usage = as_object(*v, where + ".usage");
    check_keys(usage, where + ".usage", {"input_tokens", "output_tokens"});
    if (const auto* n = usage.if_contains("input_tokens")) reply.usage.input_tokens = as_count(*n, where + ".usage.input_tokens");
    if (const auto* n = usage.if_contains("output_tokens")) reply.usage.output_tokens = as_count(*n, where + ".usage.output_tokens");
  }
  if (const auto* v = object.if_contains("latency_ms")) {
    std::uint64_t ms = as_count(*v, where + ".latency_ms");
    if (ms > 3'600'000) fail(where + ".latency_ms", "must be at most one hour");
    reply.latency_ms = static_cast<std::uint32_t>(ms);
  }
  if (const auto* v = object.if_contains("fault")) reply.fault = parse_fault(*v, where + ".fault");
  return reply;
}

Rule parse_rule(const json::value& value, const std::string& where) {
  const auto& object = as_object(value, where);
  check_keys(object, where, {"match", "reply", "times"});
  Rule rule;
  if (const auto* v = object.if_contains("match")) {
    const auto& match = as_object(*v, where + ".match");
    check_keys(match, where + ".match", {"endpoint", "model", "contains"});
    if (const auto* m = match.if_contains("endpoint")) rule.match.endpoint = parse_endpoint(*m, where + ".match.endpoint");
    if (const auto* m = match.if_contains("model")) rule.match.model = as_string(*m, where + ".match.model");
    if (const auto* m = match.if_contains("contains")) rule.match.contains = as_string(*m, where + ".match.contains");
  }
  const auto* reply = object.if_contains("reply");
  if (reply == nullptr) fail(where, "needs a \"reply\"");
  rule.reply = parse_reply(*reply, where + ".reply");
  if (const auto* v = object.if_contains("times")) rule.times = as_count(*v, where + ".times");
  return rule;
}

}  // namespace

Script parse_script(std::string_view json_text) {
  json::value root;
  try {
    root = json::parse(json_text);
  } catch (const std::exception& e) {
    fail("top level", std::string("not valid JSON: ") + e.what());
  }
  const auto& object = as_object(root, "top level");
  check_keys(object, "top level", {"rules", "default"});
  Script script;
  if (const auto* rules = object.if_contains("rules")) {
    if (!rules->is_array()) fail("rules", "must be an array");
    const auto& array = rules->get_array();
    for (std::size_t i = 0; i < array.size(); ++i) script.rules.push_back(parse_rule(array[i], "rules[" + std::to_string(i) + "]"));
  }
  if (const auto* fallback = object.if_contains("default")) script.fallback = parse_reply(*fallback, "default");
  return script;
}

Script load_script_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("fake-llm script: cannot open " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_script(text.str());
}

std::string_view endpoint_name(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::openai_chat: return "openai";
    case Endpoint::anthropic_messages: return "anthropic";
    case Endpoint::openai_responses: return "responses";
    case Endpoint::app: return "app";
  }
  return "unknown";
}

std::string_view endpoint_path(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::openai_chat: return "/v1/chat/completions";
    case Endpoint::anthropic_messages: return "/v1/messages";
    case Endpoint::openai_responses: return "/v1/responses";
    case Endpoint::app: return "/app/";
  }
  return "/";
}

}  // namespace krino::fake_llm
