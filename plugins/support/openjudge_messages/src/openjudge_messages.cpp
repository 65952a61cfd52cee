#include <krino/support/openjudge_messages.hpp>

#include <krino/evaluator_options.hpp>

namespace krino::openjudge {

MessagesLocation::MessagesLocation(const Config& config)
    : key_(read_key_option(config, "messages_key")), falls_back_(!config.has("messages_key")) {}

const boost::json::array* MessagesLocation::find(const TestCase& test_case) const {
  const boost::json::value* found = test_case.find(Section::actual_outputs, key_);
  std::string used = key_;
  if (found != nullptr && found->is_null()) found = nullptr;
  if (found == nullptr && falls_back_) {
    found = test_case.find(Section::actual_outputs, kFallbackKey);
    used = kFallbackKey;
    if (found != nullptr && found->is_null()) found = nullptr;
  }
  if (found == nullptr) return nullptr;
  if (!found->is_array()) throw invalid_argument("actualOutputs." + used + " must be a list of messages");
  return &found->get_array();
}

std::string MessagesLocation::describe_missing() const {
  // Appended piece by piece: GCC 12 misreads a chain of operator+ on literals here (-Warray-bounds).
  std::string text = "no messages to judge: actualOutputs has ";
  if (falls_back_) {
    text.append("neither '").append(kDefaultKey).append("' nor '").append(kFallbackKey).append("'");
  } else {
    text.append("no '").append(key_).append("'");
  }
  return text;
}

const boost::json::object& unwrap_message(const boost::json::object& message) {
  if (const auto* wrapped = message.if_contains("message"); wrapped != nullptr && wrapped->is_object())
    return wrapped->get_object();
  return message;
}

const boost::json::object& unwrap_tool_call(const boost::json::object& call) {
  if (const auto* wrapped = call.if_contains("tool_call"); wrapped != nullptr && wrapped->is_object())
    return wrapped->get_object();
  return call;
}

const boost::json::object& call_function(const boost::json::object& call) {
  if (const auto* function = call.if_contains("function"); function != nullptr && function->is_object())
    return function->get_object();
  return call;
}

std::string joined_text_parts(const boost::json::array& parts) {
  std::string text;
  for (const boost::json::value& part : parts) {
    const boost::json::value* part_text = part.is_object() ? part.get_object().if_contains("text") : nullptr;
    if (part_text == nullptr || !part_text->is_string()) continue;
    if (!text.empty()) text += '\n';
    text += part_text->get_string();
  }
  return text;
}

}  // namespace krino::openjudge
