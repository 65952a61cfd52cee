#include "krino/core/task/stop_condition.hpp"

#include "krino/core/common/error.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cctype>

namespace krino::core {
namespace json = boost::json;

namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The last message of `role`, when it is the conversation's last message: a condition on the user
// is checked right after a user message, one on the assistant right after an assistant message.
const json::object* last_message_of(const json::array& messages, std::string_view role) {
  if (messages.empty()) return nullptr;
  const json::object& last = messages.back().as_object();
  return last.at("role").as_string() == role ? &last : nullptr;
}

}  // namespace

StopCondition StopCondition::parse(const json::value& value, const std::string& where) {
  if (!value.is_object() || value.get_object().size() != 1)
    throw config_error(where + ": write one condition per entry: {assistant_contains: TEXT}, {user_contains: TEXT} "
                               "or {tool_called: NAME}");
  const auto& [key, argument] = *value.get_object().begin();
  if (!argument.is_string() || argument.get_string().empty())
    throw config_error(where + "." + std::string(key) + ": must be a non-empty string");
  StopCondition condition;
  if (key == "assistant_contains") condition.kind_ = Kind::assistant_contains;
  else if (key == "user_contains") condition.kind_ = Kind::user_contains;
  else if (key == "tool_called") condition.kind_ = Kind::tool_called;
  else
    throw config_error(where + ": unknown condition '" + std::string(key) +
                       "' (assistant_contains, user_contains, tool_called)");
  condition.text_ = condition.kind_ == Kind::tool_called ? std::string(argument.get_string()) : lowered(argument.get_string());
  return condition;
}

bool StopCondition::holds(const json::array& messages) const {
  if (kind_ == Kind::tool_called) {
    for (const auto& message : messages) {
      const json::value* calls = message.as_object().if_contains("toolCalls");
      if (calls == nullptr || !calls->is_array()) continue;
      for (const auto& call : calls->get_array())
        if (call.is_object() && call.get_object().contains("name") && call.get_object().at("name") == text_.c_str()) return true;
    }
    return false;
  }
  const json::object* last = last_message_of(messages, kind_ == Kind::user_contains ? "user" : "assistant");
  if (last == nullptr) return false;
  const json::value& content = last->at("content");
  return content.is_string() && lowered(content.get_string()).find(text_) != std::string::npos;
}

std::string StopCondition::describe() const {
  switch (kind_) {
    case Kind::assistant_contains: return "assistant_contains '" + text_ + "'";
    case Kind::user_contains: return "user_contains '" + text_ + "'";
    case Kind::tool_called: return "tool_called '" + text_ + "'";
  }
  return {};
}

}  // namespace krino::core
