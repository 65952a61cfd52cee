// A tool call an agent made (or was expected to make), read from a test case. Header-only, C++17.
//
// Accepted shapes of one call (a JSON object):
//   {"id": "call_1", "name": "search", "arguments": {"q": "x"}, "result": "...", "metadata": {}}
//   {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\"q\":\"x\"}"}}
// The second is the OpenAI Chat Completions form, so provider messages can be used unchanged.
// `arguments` may be an object or a JSON string holding one (providers send a string); absent or
// null means no arguments; `kwargs` is read as `arguments` when a call has no `arguments`. A
// `result` that is not a string is stored as its compact JSON, so `null` becomes the four
// characters "null": a tool that returned null did return something.
#ifndef KRINO_AGENT_TOOL_CALL_HPP
#define KRINO_AGENT_TOOL_CALL_HPP

#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace krino::agent {

struct ToolCall {
  std::string id;  // links the call to its result; empty when the source has none
  std::string name;
  boost::json::object arguments;
  std::optional<std::string> result;
  boost::json::object metadata;
};

namespace detail {

// "'toolCalls'[2]": the place an error message points at.
inline std::string element_label(std::string_view key, std::size_t index) {
  return "'" + std::string(key) + "'[" + std::to_string(index) + "]";
}

inline boost::json::object read_arguments(const boost::json::value* value, const std::string& where,
                                          const boost::json::storage_ptr& storage = {}) {
  if (value == nullptr || value->is_null()) return boost::json::object(storage);
  if (value->is_object()) return boost::json::object(value->get_object(), storage);
  if (value->is_string()) {
    const std::string_view text = value->get_string();
    // Some providers send "" for a call without arguments.
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return boost::json::object(storage);
    boost::system::error_code ec;
    boost::json::value parsed = krino::json::parse(text, ec, storage);
    if (ec) throw invalid_argument(where + ": 'arguments' is a string that is not valid JSON: " + ec.message());
    if (!parsed.is_object()) throw invalid_argument(where + ": 'arguments' is a JSON string that does not hold an object");
    return std::move(parsed.get_object());
  }
  throw invalid_argument(where + ": 'arguments' must be an object or a JSON string holding one");
}

// "arguments", or "kwargs" when there is no "arguments" (tau-bench writes its ground-truth actions
// as {"name", "kwargs"}).
inline const boost::json::value* arguments_member(const boost::json::object& call) {
  if (const boost::json::value* arguments = call.if_contains("arguments")) return arguments;
  return call.if_contains("kwargs");
}

inline std::string read_optional_string(const boost::json::object& object, std::string_view field,
                                        const std::string& where) {
  const boost::json::value* value = object.if_contains(field);
  if (value == nullptr || value->is_null()) return {};
  if (!value->is_string()) throw invalid_argument(where + ": '" + std::string(field) + "' must be a string");
  return std::string(value->get_string());
}

}  // namespace detail

// One call; `where` names it in error messages (such as "'toolCalls'[2]").
//
// `storage` is where the call's arguments and metadata are allocated. The default (the global
// heap) gives calls that live on their own; passing the storage of the list they come from (as
// evaluators do, `list.storage()`, which is the test case's arena) makes reading them nearly free
// of allocation, and such calls must not outlive the test case.
inline ToolCall read_tool_call(const boost::json::value& value, const std::string& where,
                               const boost::json::storage_ptr& storage = {}) {
  if (!value.is_object()) throw invalid_argument(where + ": a tool call must be a JSON object");
  const boost::json::object& object = value.get_object();
  // The OpenAI form nests name and arguments under "function".
  const boost::json::object* body = &object;
  if (const boost::json::value* function = object.if_contains("function"); function != nullptr && !object.contains("name")) {
    if (!function->is_object()) throw invalid_argument(where + ": 'function' must be an object");
    body = &function->get_object();
  }
  std::string name = detail::read_optional_string(*body, "name", where);
  if (name.empty()) throw invalid_argument(where + ": a tool call needs a non-empty 'name'");
  std::optional<std::string> result;
  if (const boost::json::value* text = object.if_contains("result"))
    result = text->is_string() ? std::string(text->get_string()) : json::to_compact_json(*text);
  const boost::json::value* metadata = object.if_contains("metadata");
  if (metadata != nullptr && !metadata->is_null() && !metadata->is_object())
    throw invalid_argument(where + ": 'metadata' must be an object");
  // Built in one piece: the JSON members are initialised straight from objects that already use
  // `storage` (assigning them would copy into the member's own storage instead).
  ToolCall call{detail::read_optional_string(object, "id", where), std::move(name),
                detail::read_arguments(detail::arguments_member(*body), where, storage), std::move(result),
                metadata != nullptr && metadata->is_object() ? boost::json::object(metadata->get_object(), storage)
                                                             : boost::json::object(storage)};
  return call;
}

// A list of calls stored under `key` (used only in error messages). See read_tool_call for `storage`.
inline std::vector<ToolCall> read_tool_calls(const boost::json::value& list, std::string_view key,
                                             const boost::json::storage_ptr& storage = {}) {
  if (!list.is_array()) throw invalid_argument("'" + std::string(key) + "' must be a list of tool calls");
  std::vector<ToolCall> calls;
  calls.reserve(list.get_array().size());
  std::size_t index = 0;
  for (const boost::json::value& element : list.get_array())
    calls.push_back(read_tool_call(element, detail::element_label(key, index++), storage));
  return calls;
}

// A call read in place: views into the JSON it came from, which must outlive the view (for a call
// from a test case: the evaluate call). Reading one copies nothing, except arguments sent as a JSON
// string, which are parsed into the storage given to view_tool_call. For evaluators that compare or
// check calls without keeping them; ToolCall is the copy to keep. The same shapes, the same checks
// and the same error messages as read_tool_call.
class ToolCallView {
 public:
  ToolCallView() = default;
  // `storage`: where arguments sent as a JSON string are parsed to.
  explicit ToolCallView(boost::json::storage_ptr storage) : parsed_(std::move(storage)) {}

  std::string_view id;    // empty when the source has none
  std::string_view name;  // never empty
  // The call's "result" as it is in the JSON (any kind), or nullptr when the call has none.
  // ToolCall::result holds it as text: result_text() gives the same text.
  const boost::json::value* result = nullptr;
  const boost::json::object* metadata = nullptr;  // nullptr: the call has none (or null)

  // The arguments object: the call's own, or the one parsed from a JSON string, or an empty one.
  const boost::json::object& arguments() const { return in_place_ != nullptr ? *in_place_ : parsed_; }

  // What ToolCall::result holds: a string's content, any other value as its compact JSON.
  std::optional<std::string> result_text() const {
    if (result == nullptr) return std::nullopt;
    return result->is_string() ? std::string(result->get_string()) : json::to_compact_json(*result);
  }

 private:
  template <typename Where>
  friend ToolCallView view_tool_call_with_label(const boost::json::value&, const Where&, const boost::json::storage_ptr&);
  const boost::json::object* in_place_ = nullptr;
  boost::json::object parsed_;
};

namespace detail {

// The members a call is read from, found in one pass over its object instead of a lookup per field
// (a JSON object's keys are unique, so the pass finds what if_contains would).
struct CallMembers {
  const boost::json::value* id = nullptr;
  const boost::json::value* name = nullptr;
  const boost::json::value* function = nullptr;
  const boost::json::value* arguments = nullptr;
  const boost::json::value* kwargs = nullptr;
  const boost::json::value* result = nullptr;
  const boost::json::value* metadata = nullptr;

  explicit CallMembers(const boost::json::object& object) {
    for (const boost::json::key_value_pair& member : object) {
      const boost::json::string_view key = member.key();
      const boost::json::value* value = &member.value();
      switch (key.size()) {
        case 2: if (key == "id") id = value; break;
        case 4: if (key == "name") name = value; break;
        case 6: if (key == "result") result = value; else if (key == "kwargs") kwargs = value; break;
        case 8: if (key == "function") function = value; else if (key == "metadata") metadata = value; break;
        case 9: if (key == "arguments") arguments = value; break;
        default: break;
      }
    }
  }
  // "arguments", or "kwargs" when there is no "arguments" (as arguments_member).
  const boost::json::value* arguments_or_kwargs() const { return arguments != nullptr ? arguments : kwargs; }
};

}  // namespace detail

// view_tool_call's work. `where()` names the call for an error message; it is called only when
// there is an error, so a list read without errors formats no label.
template <typename Where>
ToolCallView view_tool_call_with_label(const boost::json::value& value, const Where& where,
                                   const boost::json::storage_ptr& storage) {
  const auto fail = [&](std::string_view problem) { return invalid_argument(where().append(problem)); };
  const auto text_of = [&](const boost::json::value* text, std::string_view field) -> std::string_view {
    if (text == nullptr || text->is_null()) return {};
    if (!text->is_string()) throw fail(std::string(": '").append(field).append("' must be a string"));
    return text->get_string();
  };
  if (!value.is_object()) throw fail(": a tool call must be a JSON object");
  const detail::CallMembers members(value.get_object());
  std::optional<detail::CallMembers> nested;
  const detail::CallMembers* body = &members;
  if (members.function != nullptr && members.name == nullptr) {
    if (!members.function->is_object()) throw fail(": 'function' must be an object");
    body = &nested.emplace(members.function->get_object());
  }
  ToolCallView call(storage);
  call.name = text_of(body->name, "name");
  if (call.name.empty()) throw fail(": a tool call needs a non-empty 'name'");
  call.result = members.result;
  const boost::json::value* metadata = members.metadata;
  if (metadata != nullptr && !metadata->is_null() && !metadata->is_object()) throw fail(": 'metadata' must be an object");
  if (metadata != nullptr && metadata->is_object()) call.metadata = &metadata->get_object();
  // The checks in read_tool_call's order, so the first problem reported is the same.
  call.id = text_of(members.id, "id");
  const boost::json::value* arguments = body->arguments_or_kwargs();
  if (arguments != nullptr && arguments->is_object()) call.in_place_ = &arguments->get_object();
  else if (arguments != nullptr && !arguments->is_null()) call.parsed_ = detail::read_arguments(arguments, where(), storage);
  return call;
}

// One call as a view; `where` and `storage` as for read_tool_call (`storage` holds only arguments
// that arrive as a JSON string).
inline ToolCallView view_tool_call(const boost::json::value& value, const std::string& where,
                                   const boost::json::storage_ptr& storage = {}) {
  return view_tool_call_with_label(value, [&] { return where; }, storage);
}

// A list of calls as views, stored under `key` (used only in error messages).
inline std::vector<ToolCallView> view_tool_calls(const boost::json::value& list, std::string_view key,
                                                 const boost::json::storage_ptr& storage = {}) {
  if (!list.is_array()) throw invalid_argument("'" + std::string(key) + "' must be a list of tool calls");
  std::vector<ToolCallView> calls;
  calls.reserve(list.get_array().size());
  std::size_t index = 0;
  for (const boost::json::value& element : list.get_array()) {
    calls.push_back(view_tool_call_with_label(element, [&] { return detail::element_label(key, index); }, storage));
    ++index;
  }
  return calls;
}

// The call as a JSON tool call that read_tool_call reads back: "name" and "arguments" always,
// "id", "result" and "metadata" only when the call has them. A result is written as the text it
// was stored as.
inline boost::json::object write_tool_call(const ToolCall& call) {
  boost::json::object object;
  if (!call.id.empty()) object["id"] = call.id;
  object["name"] = call.name;
  object["arguments"] = call.arguments;
  if (call.result) object["result"] = *call.result;
  if (!call.metadata.empty()) object["metadata"] = call.metadata;
  return object;
}

inline boost::json::array write_tool_calls(const std::vector<ToolCall>& calls) {
  boost::json::array list;
  list.reserve(calls.size());
  for (const ToolCall& call : calls) list.push_back(write_tool_call(call));
  return list;
}

inline std::vector<std::string> tool_names(const std::vector<ToolCall>& calls) {
  std::vector<std::string> names;
  names.reserve(calls.size());
  for (const ToolCall& call : calls) names.push_back(call.name);
  return names;
}

}  // namespace krino::agent

#endif  // KRINO_AGENT_TOOL_CALL_HPP
