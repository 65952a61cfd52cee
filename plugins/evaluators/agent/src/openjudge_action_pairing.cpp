#include "openjudge_action_pairing.h"

#include "openjudge_python_repr.h"

#include <deque>
#include <map>

namespace krino::agent::openjudge {

std::vector<ActionObservation> pair_actions_with_observations(const boost::json::array& messages) {
  std::vector<ActionObservation> pairs;
  // Ids are keyed by their Python repr, so the string "1" and the number 1 stay different ids.
  std::map<std::string, ToolCallView> waiting_by_id;
  std::deque<ToolCallView> waiting_without_id;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const boost::json::object& message = message_at(messages, i);
    const std::string role = role_of(message);
    if (role == "assistant") {
      for (ToolCallView& call : assistant_tool_calls(message, i)) {
        if (call.id != nullptr && python_truthy(*call.id)) waiting_by_id[python_repr(*call.id)] = std::move(call);
        else waiting_without_id.push_back(std::move(call));
      }
      continue;
    }
    if (role != "tool" && role != "function") continue;
    const boost::json::value* answered = message.if_contains("tool_call_id");
    if (answered == nullptr) answered = message.if_contains("toolCallId");  // krino's canonical turns
    if (answered != nullptr && python_truthy(*answered)) {
      auto found = waiting_by_id.find(python_repr(*answered));
      if (found == waiting_by_id.end())
        throw invalid_argument("message " + std::to_string(i) + " answers tool call id " + python_repr(*answered) +
                               ", which no earlier assistant tool call is waiting for");
      pairs.push_back({std::move(found->second), content_text(message)});
      waiting_by_id.erase(found);
    } else {
      if (waiting_without_id.empty())
        throw invalid_argument("message " + std::to_string(i) +
                               " is a tool answer without tool_call_id, but no tool call without an id is waiting");
      pairs.push_back({std::move(waiting_without_id.front()), content_text(message)});
      waiting_without_id.pop_front();
    }
  }
  return pairs;
}

}  // namespace krino::agent::openjudge
