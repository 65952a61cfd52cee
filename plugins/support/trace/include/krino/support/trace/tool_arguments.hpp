// Tool calls as trace extractors meet them: arguments given as an object or as a JSON string (the
// OpenAI and LangChain4j forms), results given as text, content blocks or JSON. Header-only, C++17.
//
// Recorded traces are what they are: a model that wrote broken JSON into a call's arguments still
// made that call. So arguments are read leniently: a string that is not JSON, or JSON that is not
// an object, gives empty arguments and keeps the text in the call's metadata ("rawArguments", with
// the reason in "argumentsError"), instead of failing the whole trace.
#ifndef KRINO_SUPPORT_TRACE_TOOL_ARGUMENTS_HPP
#define KRINO_SUPPORT_TRACE_TOOL_ARGUMENTS_HPP

#include <krino/agent/tool_call.hpp>
#include <krino/json_text.hpp>

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace krino::trace {

// Sets `call.arguments` from `value` (an object, a JSON string holding one, or absent/null/blank
// for no arguments). Anything else leaves the arguments empty and notes why in the metadata.
inline void set_arguments(agent::ToolCall& call, const boost::json::value* value) {
  call.arguments.clear();
  if (value == nullptr || value->is_null()) return;
  if (value->is_object()) {
    call.arguments = value->get_object();
    return;
  }
  const auto keep = [&call](const boost::json::value& raw, std::string reason) {
    call.metadata["rawArguments"] = raw;
    call.metadata["argumentsError"] = std::move(reason);
  };
  if (!value->is_string()) {
    keep(*value, "the arguments are a JSON " + std::string(value->is_array() ? "array" : "scalar") + ", not an object");
    return;
  }
  const std::string_view text = value->get_string();
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return;  // "" means none
  boost::system::error_code ec;
  boost::json::value parsed = krino::json::parse(text, ec);
  if (ec) {
    keep(*value, "the arguments string is not valid JSON: " + ec.message());
    return;
  }
  if (!parsed.is_object()) {
    keep(*value, "the arguments string holds a JSON " + std::string(parsed.is_array() ? "array" : "scalar") +
                     ", not an object");
    return;
  }
  call.arguments = std::move(parsed.get_object());
}

// A call with its id (may be empty), name and arguments read leniently.
inline agent::ToolCall make_tool_call(std::string id, std::string name, const boost::json::value* arguments) {
  agent::ToolCall call;
  call.id = std::move(id);
  call.name = std::move(name);
  set_arguments(call, arguments);
  return call;
}

// The text of a tool result or message content: a string as it is; a list of content blocks as
// the text of its text blocks ({"type": "text", "text": ...}, or any block with a string "text"),
// joined by newlines; null or absent as nullopt; anything else as its compact JSON.
inline std::optional<std::string> content_text(const boost::json::value* value) {
  if (value == nullptr || value->is_null()) return std::nullopt;
  if (value->is_string()) return std::string(value->get_string());
  if (value->is_array()) {
    std::string text;
    bool any = false;
    for (const boost::json::value& block : value->get_array()) {
      const boost::json::value* part = nullptr;
      if (block.is_string()) part = &block;
      else if (block.is_object()) part = block.get_object().if_contains("text");
      if (part == nullptr || !part->is_string()) continue;
      if (any) text += '\n';
      text += part->get_string();
      any = true;
    }
    if (any) return text;
    if (value->get_array().empty()) return std::string();
  }
  return json::to_compact_json(*value);
}

// A value as plain text, for results and attributes that are not content blocks: a string as it
// is, null or absent as "", anything else as its compact JSON.
inline std::string text_or_compact_json(const boost::json::value* value) {
  if (value == nullptr || value->is_null()) return {};
  return value->is_string() ? std::string(value->get_string()) : json::to_compact_json(*value);
}

}  // namespace krino::trace

#endif  // KRINO_SUPPORT_TRACE_TOOL_ARGUMENTS_HPP
