// Where and how the OpenJudge graders find an OpenAI-style message list, for both plugins that
// implement them: the agent plugin's deterministic graders and the judge plugin's LLM graders
// (docs/plugins/agent-openjudge.md). What each does with a message's scalar content differs
// (Python str() against compact JSON, as in the graders each ports) and stays in the plugin.
#ifndef KRINO_SUPPORT_OPENJUDGE_MESSAGES_HPP
#define KRINO_SUPPORT_OPENJUDGE_MESSAGES_HPP

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <string>

namespace krino::openjudge {

// Where a test case keeps the message list: actualOutputs[messages_key]. Without the option the
// grader reads actualOutputs.conversation and, when that is absent, actualOutputs.messages.
class MessagesLocation {
 public:
  static constexpr const char* kDefaultKey = "conversation";
  static constexpr const char* kFallbackKey = "messages";

  // Reads messages_key, which every grader's schema declares with the default kDefaultKey; whether
  // the user set it (has()) decides the fall back to kFallbackKey.
  explicit MessagesLocation(const Config& config);

  // nullptr when the test case has no such key (or null there); a value that is not a list is an
  // invalid argument.
  const boost::json::array* find(const TestCase& test_case) const;
  // Says which keys were looked at, for the reason of the failed result.
  std::string describe_missing() const;

 private:
  std::string key_;
  bool falls_back_;
};

// The message inside a {"message": {...}} wrapper, else `message` itself.
const boost::json::object& unwrap_message(const boost::json::object& message);

// The call inside a {"tool_call": {...}} wrapper, else `call` itself.
const boost::json::object& unwrap_tool_call(const boost::json::object& call);

// Where a call keeps its name and arguments: its "function" object, or the call itself (flat).
const boost::json::object& call_function(const boost::json::object& call);

// A list of content parts as their "text" fields joined by newlines; parts without a string
// "text" are skipped.
std::string joined_text_parts(const boost::json::array& parts);

}  // namespace krino::openjudge

#endif  // KRINO_SUPPORT_OPENJUDGE_MESSAGES_HPP
