// A multi-turn conversation with tool use, read from a test case (usually
// actualOutputs.conversation). Header-only, C++17.
//
// Accepted shapes: a list of messages, or {"scenario": "...", "messages": [...], "metadata": {}}.
// A message is
//   {"role": "user" | "assistant" | "system" | "tool", "content": "...", "metadata": {},
//    "toolCalls" | "tool_calls": [tool calls, see tool_call.hpp],
//    "tool_call_id" | "toolCallId": "...", "name": "..."}          (the last two on tool messages)
// which is also the OpenAI Chat Completions message form. A tool message's content becomes the
// `result` of the call it answers: the latest earlier call with the same id that has no result
// yet (or, when the message has no id, with the same name). "Latest unanswered" rather than
// "first with this id" because real traces reuse ids for different calls.
//
// Besides reading, a Conversation renders itself as a transcript (to_text) or as JSON (to_json),
// and turns itself into whole-conversation test cases: to_test_case for deterministic evaluators,
// to_judge_test_case for judges. Per-turn test cases come from tool_calls_by_turn().
#ifndef KRINO_AGENT_CONVERSATION_HPP
#define KRINO_AGENT_CONVERSATION_HPP

#include <krino/agent/tool_call.hpp>
#include <krino/json_text.hpp>
#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::agent {

struct Message {
  std::string role;  // as given, lower-cased: "user", "assistant", "system", "tool", ...
  std::string content;
  std::vector<ToolCall> tool_calls;  // the calls an assistant message made
  std::string tool_call_id;          // on a tool message: the call it answers
  std::string name;                  // on a tool message: the tool's name, when given
  boost::json::object metadata;
};

// How to_text() shows the calls an assistant message made, one line under the message each.
enum class TranscriptToolCalls {
  none,            // no call lines: the transcript of the text alone
  names_only,      // "  [tool: book_hotel]": for judges that must not see the argument values
  with_arguments,  // "  [tool: book_hotel({"city":"Paris"})]", arguments as compact JSON
};

class Conversation {
 public:
  std::string scenario;
  std::vector<Message> messages;
  boost::json::object metadata;

  // Complete user/assistant exchanges: the smaller of the two message counts.
  std::size_t turn_count() const { return std::min(count("user"), count("assistant")); }

  // One list per assistant message, in order, empty for an assistant message without calls.
  // Grouped by assistant message, not by turn_count() pairs: leading or consecutive assistant
  // messages each get their own list, so entry i lines up with the i-th assistant message.
  std::vector<std::vector<ToolCall>> tool_calls_by_turn() const {
    std::vector<std::vector<ToolCall>> turns;
    for (const Message& message : messages)
      if (message.role == "assistant") turns.push_back(message.tool_calls);
    return turns;
  }

  // Every call of every message, flattened in order.
  std::vector<ToolCall> tool_calls() const {
    std::vector<ToolCall> calls;
    for (const Message& message : messages) calls.insert(calls.end(), message.tool_calls.begin(), message.tool_calls.end());
    return calls;
  }

  // The last message with `role` (lower case), or nullptr.
  const Message* last_message(std::string_view role) const {
    for (auto message = messages.rbegin(); message != messages.rend(); ++message)
      if (message->role == role) return &*message;
    return nullptr;
  }

  // A plain transcript: "Scenario: <scenario>" and a blank line when there is a scenario, then
  // each message as "<ROLE>: <content>" (the role upper-cased), messages separated by a blank
  // line, the whole trimmed. Unless `calls` is none, every call of a message adds the line
  // "\n  [tool: name]" or "\n  [tool: name(<arguments as compact JSON>)]" under it.
  // A tool message is a message like any other ("TOOL: <its content>", in every mode): its
  // content is what the tool answered, which the assistant saw, so a reader needs it to follow
  // the conversation; the call lines never repeat results.
  // Without any calls the text is the same in every mode, byte for byte.
  std::string to_text(TranscriptToolCalls calls = TranscriptToolCalls::none) const {
    std::string text;
    if (!scenario.empty()) text += "Scenario: " + scenario + "\n\n";
    bool first = true;
    for (const Message& message : messages) {
      if (!first) text += "\n\n";
      first = false;
      for (char c : message.role) text += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
      text += ": ";
      text += message.content;
      if (calls == TranscriptToolCalls::none) continue;
      for (const ToolCall& call : message.tool_calls) {
        text += "\n  [tool: " + call.name;
        if (calls == TranscriptToolCalls::with_arguments) text += "(" + json::to_compact_json(call.arguments) + ")";
        text += "]";
      }
    }
    return trim(text);
  }

  // {"scenario", "turnCount", "messages": [{"role", "content", ...}], "metadata"?}. A message
  // carries "toolCalls" only when it made calls, "toolCallId" and "name" only when set (tool
  // messages), "metadata" only when not empty; the conversation's "metadata" likewise. So a
  // conversation without tool use has no tool keys at all, and read_conversation reads the
  // document back.
  boost::json::object to_json() const {
    boost::json::object document;
    document["scenario"] = scenario;
    document["turnCount"] = turn_count();
    boost::json::array list;
    list.reserve(messages.size());
    for (const Message& message : messages) {
      boost::json::object entry;
      entry["role"] = message.role;
      entry["content"] = message.content;
      if (!message.tool_calls.empty()) entry["toolCalls"] = write_tool_calls(message.tool_calls);
      if (!message.tool_call_id.empty()) entry["toolCallId"] = message.tool_call_id;
      if (!message.name.empty()) entry["name"] = message.name;
      if (!message.metadata.empty()) entry["metadata"] = message.metadata;
      list.push_back(std::move(entry));
    }
    document["messages"] = std::move(list);
    if (!metadata.empty()) document["metadata"] = metadata;
    return document;
  }

  // A krino.testcase/1 document for deterministic evaluators of the whole conversation:
  //   inputs.input            the LAST user message (absent when there is none): the request the
  //                           conversation ended on
  //   actualOutputs.toolCalls every call, flattened in order, with arguments and results
  //   actualOutputs.output    the last assistant message's content (absent when there is none)
  //   metadata.tools          `tools`, when given
  // No expected calls are set: add expectedOutputs.toolCalls before running an evaluator that
  // compares against them (tool_correctness, tool_trajectory).
  boost::json::object to_test_case(std::optional<boost::json::array> tools = std::nullopt) const {
    boost::json::object inputs;
    if (const Message* user = last_message("user")) inputs["input"] = user->content;
    boost::json::object actual;
    actual["toolCalls"] = write_tool_calls(tool_calls());
    if (const Message* assistant = last_message("assistant")) actual["output"] = assistant->content;
    return make_test_case(std::move(inputs), std::move(actual), std::move(tools), std::nullopt);
  }

  // A krino.testcase/1 document for a judge of the whole conversation (task completion, argument
  // hallucination):
  //   inputs.input            to_text(names_only): the transcript with "[tool: name]" lines, so
  //                           the argument values a judge assesses are not part of the text it
  //                           grounds them in
  //   actualOutputs.toolCalls every call with its arguments and result
  //   metadata.tools / .tasks `tools` and `tasks`, when given
  // There is no actualOutputs.output: the transcript already holds the final answer, and a judge
  // prompt that showed it again as "the output" would show the conversation twice. No expected
  // calls are set.
  boost::json::object to_judge_test_case(std::optional<boost::json::array> tools = std::nullopt,
                                         std::optional<std::vector<std::string>> tasks = std::nullopt) const {
    boost::json::object inputs;
    inputs["input"] = to_text(TranscriptToolCalls::names_only);
    boost::json::object actual;
    actual["toolCalls"] = write_tool_calls(tool_calls());
    return make_test_case(std::move(inputs), std::move(actual), std::move(tools), std::move(tasks));
  }

 private:
  static std::string trim(const std::string& text) {
    const char* const space = " \t\r\n";
    const std::size_t begin = text.find_first_not_of(space);
    if (begin == std::string::npos) return {};
    return text.substr(begin, text.find_last_not_of(space) - begin + 1);
  }

  static boost::json::object make_test_case(boost::json::object inputs, boost::json::object actual,
                                              std::optional<boost::json::array> tools,
                                              std::optional<std::vector<std::string>> tasks) {
    boost::json::object meta;
    if (tools) meta["tools"] = std::move(*tools);
    if (tasks) {
      boost::json::array list;
      for (std::string& task : *tasks) list.emplace_back(std::move(task));
      meta["tasks"] = std::move(list);
    }
    boost::json::object document;
    document["inputs"] = std::move(inputs);
    document["actualOutputs"] = std::move(actual);
    document["expectedOutputs"] = boost::json::object();
    document["metadata"] = std::move(meta);
    return document;
  }

  std::size_t count(std::string_view role) const {
    return static_cast<std::size_t>(
        std::count_if(messages.begin(), messages.end(), [&](const Message& m) { return m.role == role; }));
  }
};

namespace detail {

inline std::string lower_ascii(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

inline boost::json::object read_optional_object(const boost::json::object& object, std::string_view field,
                                                const std::string& where) {
  const boost::json::value* value = object.if_contains(field);
  if (value == nullptr || value->is_null()) return {};
  if (!value->is_object()) throw invalid_argument(where + ": '" + std::string(field) + "' must be an object");
  return value->get_object();
}

inline Message read_message(const boost::json::value& value, const std::string& where) {
  if (!value.is_object()) throw invalid_argument(where + ": a message must be a JSON object");
  const boost::json::object& object = value.get_object();
  Message message;
  message.role = lower_ascii(read_optional_string(object, "role", where));
  if (message.role.empty()) throw invalid_argument(where + ": a message needs a non-empty 'role'");
  if (const auto* content = object.if_contains("content"); content != nullptr && !content->is_null())
    message.content = json::string_form(*content);
  for (std::string_view field : {"toolCalls", "tool_calls"}) {
    const boost::json::value* calls = object.if_contains(field);
    if (calls == nullptr || calls->is_null()) continue;
    if (!calls->is_array()) throw invalid_argument(where + ": '" + std::string(field) + "' must be a list of tool calls");
    std::size_t index = 0;
    for (const boost::json::value& call : calls->get_array())
      message.tool_calls.push_back(read_tool_call(call, where + "." + std::string(field) + "[" + std::to_string(index++) + "]"));
  }
  message.tool_call_id = read_optional_string(object, object.contains("toolCallId") ? "toolCallId" : "tool_call_id", where);
  message.name = read_optional_string(object, "name", where);
  message.metadata = read_optional_object(object, "metadata", where);
  return message;
}

// Gives `result` to the latest earlier unanswered call that `tool_message` answers.
inline void attach_result(std::vector<Message>& earlier, const Message& tool_message) {
  for (auto message = earlier.rbegin(); message != earlier.rend(); ++message) {
    for (auto call = message->tool_calls.rbegin(); call != message->tool_calls.rend(); ++call) {
      if (call->result) continue;
      const bool answers = tool_message.tool_call_id.empty() ? call->name == tool_message.name
                                                             : call->id == tool_message.tool_call_id;
      if (answers) {
        call->result = tool_message.content;
        return;
      }
    }
  }
}

}  // namespace detail

// The conversation stored under `key` (used only in error messages).
inline Conversation read_conversation(const boost::json::value& value, std::string_view key) {
  Conversation conversation;
  const boost::json::value* list = &value;
  if (value.is_object()) {
    const boost::json::object& object = value.get_object();
    conversation.scenario = detail::read_optional_string(object, "scenario", "'" + std::string(key) + "'");
    conversation.metadata = detail::read_optional_object(object, "metadata", "'" + std::string(key) + "'");
    list = object.if_contains("messages");
    if (list == nullptr) throw invalid_argument("'" + std::string(key) + "' has no 'messages' list");
  }
  if (!list->is_array())
    throw invalid_argument("'" + std::string(key) + "' must be a list of messages or an object with a 'messages' list");
  std::size_t index = 0;
  for (const boost::json::value& element : list->get_array()) {
    Message message = detail::read_message(element, detail::element_label(key, index++));
    if (message.role == "tool") detail::attach_result(conversation.messages, message);
    conversation.messages.push_back(std::move(message));
  }
  return conversation;
}

}  // namespace krino::agent

#endif  // KRINO_AGENT_CONVERSATION_HPP
