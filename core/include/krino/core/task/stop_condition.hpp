#pragma once
// When a simulated conversation ends early: conditions over the conversation so far,
// checked after every message, the user's and the assistant's alike. Any one that holds stops it.
// See docs/tasks/conversation.md#how-a-conversation-runs.
//
//   stop_when:
//     - {assistant_contains: "have a great day"}   # case-insensitive, in the last assistant message
//     - {user_contains: "bye"}                      # case-insensitive, in the last user message
//     - {tool_called: book_hotel}                   # the assistant has called this tool (any turn)
#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace krino::core {

class StopCondition {
 public:
  enum class Kind { assistant_contains, user_contains, tool_called };

  // Throws a configuration error naming `where` for anything else.
  static StopCondition parse(const boost::json::value& value, const std::string& where);

  // Whether the condition holds once `messages` ({role, content, toolCalls?}) are the conversation.
  bool holds(const boost::json::array& messages) const;
  // "assistant_contains 'have a great day'": how the run reports what stopped it.
  std::string describe() const;

 private:
  Kind kind_ = Kind::assistant_contains;
  std::string text_;  // lower-cased for the *_contains kinds
};

}  // namespace krino::core
