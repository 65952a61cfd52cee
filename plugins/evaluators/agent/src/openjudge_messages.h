// Reading OpenAI-style chat messages the way the OpenJudge graders read them: where a test case
// keeps them, the {"message": ...} and {"tool_call": ...} wrappers (plugins/support/
// openjudge_messages), and the tool calls of assistant messages.
#ifndef KRINO_AGENT_OPENJUDGE_MESSAGES_H
#define KRINO_AGENT_OPENJUDGE_MESSAGES_H

#include <krino/plugin.hpp>
#include <krino/support/openjudge_messages.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace krino::agent::openjudge {

// Where a test case keeps the message list (shared with the judge plugin's LLM graders).
using ::krino::openjudge::MessagesLocation;

// One tool call as the graders see it. `arguments` is the function's arguments as given (a JSON
// string, an object, anything else) or nullptr when absent; `id` the call's id or nullptr.
struct ToolCallView {
  std::string name;
  const boost::json::value* arguments = nullptr;
  const boost::json::value* id = nullptr;
};

// The message at `index`, unwrapped from {"message": {...}} when it is wrapped that way.
const boost::json::object& message_at(const boost::json::array& messages, std::size_t index);

// The message's role, "" when absent or not a string.
std::string role_of(const boost::json::object& message);

// The tool calls of an assistant message ("tool_calls", or "toolCalls" as krino's canonical turns
// write it), in order; empty for other roles and for assistant messages without calls. A call may be wrapped as {"tool_call": {...}}; its name and arguments
// come from its "function" object, or from the call itself when it has none.
std::vector<ToolCallView> assistant_tool_calls(const boost::json::object& message, std::size_t index);

// The name and arguments of a call object: from its "function" object, or the object itself.
ToolCallView read_tool_call(const boost::json::object& call);

// A message's text: a string as it is, null or absent as "", a list of content parts as their
// "text" fields joined by newlines, anything else in its Python str() form.
std::string content_text(const boost::json::object& message);

// Every assistant message with tool calls is one step; steps hold their calls in order.
std::vector<std::vector<ToolCallView>> tool_call_steps(const boost::json::array& messages);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_MESSAGES_H
