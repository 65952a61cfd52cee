#include "openjudge_trajectory.h"

#include "value_rendering.h"

#include <krino/json_text.hpp>

#include <deque>
#include <krino/json_parse.hpp>

namespace krino::judge::openjudge {
namespace {

std::string lower_ascii(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

std::string upper_ascii(std::string text) {
  for (char& c : text)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return text;
}

std::string string_member(const boost::json::object& object, std::string_view key) {
  const boost::json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return {};
  return json::string_form(*value);
}

// A message's text: a string as it is, null or absent as "", a list of content parts as their
// "text" fields joined by newlines, anything else as compact JSON.
std::string content_text(const boost::json::object& message) {
  const boost::json::value* content = message.if_contains("content");
  if (content == nullptr || content->is_null()) return {};
  if (content->is_string()) return std::string(content->get_string());
  if (!content->is_array()) return json::to_compact_json(*content);
  return ::krino::openjudge::joined_text_parts(content->get_array());
}

boost::json::value read_arguments(const boost::json::value* arguments) {
  if (arguments == nullptr || arguments->is_null()) return nullptr;
  if (!arguments->is_string()) return *arguments;
  const std::string_view text = arguments->get_string();
  boost::system::error_code ec;
  boost::json::value parsed = krino::json::parse(text, ec);
  if (ec) return boost::json::value(text);
  return parsed;
}

TrajectoryCall read_call(const boost::json::value& entry, const std::string& where) {
  if (!entry.is_object()) throw invalid_argument(where + ": every tool call must be an object");
  const boost::json::object* call = &::krino::openjudge::unwrap_tool_call(entry.get_object());
  const boost::json::object* function = &::krino::openjudge::call_function(*call);
  TrajectoryCall result;
  result.id = string_member(*call, "id");
  result.name = string_member(*function, "name");
  result.arguments = read_arguments(function->if_contains("arguments"));
  return result;
}

std::string compact_arguments(const boost::json::value& arguments) {
  if (arguments.is_null()) return {};
  if (arguments.is_string()) return std::string(arguments.get_string());
  return json::to_compact_json(arguments);
}

}  // namespace

std::vector<std::vector<std::size_t>> Trajectory::steps() const {
  std::vector<std::vector<std::size_t>> result;
  for (const TrajectoryMessage& message : messages)
    if (!message.calls.empty()) result.push_back(message.calls);
  return result;
}

std::vector<std::string> Trajectory::user_requests() const {
  std::vector<std::string> requests;
  for (const TrajectoryMessage& message : messages)
    if (message.role == "user") requests.push_back(message.content);
  return requests;
}

Trajectory read_trajectory(const boost::json::array& messages) {
  Trajectory trajectory;
  std::deque<std::size_t> waiting_without_id;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const std::string where = "message " + std::to_string(i);
    if (!messages[i].is_object()) throw invalid_argument(where + " is not an object");
    const boost::json::object* object = &::krino::openjudge::unwrap_message(messages[i].get_object());
    TrajectoryMessage message;
    message.role = lower_ascii(string_member(*object, "role"));
    message.content = content_text(*object);
    if (message.role == "assistant") {
      const boost::json::value* calls = object->if_contains("tool_calls");
      if (calls != nullptr && !calls->is_null()) {
        if (!calls->is_array()) throw invalid_argument(where + ": tool_calls must be a list");
        for (const boost::json::value& entry : calls->get_array()) {
          message.calls.push_back(trajectory.calls.size());
          trajectory.calls.push_back(read_call(entry, where));
          if (trajectory.calls.back().id.empty()) waiting_without_id.push_back(message.calls.back());
        }
      }
    } else if (message.role == "tool" || message.role == "function") {
      const std::string id = string_member(*object, "tool_call_id");
      std::optional<std::size_t> answered;
      if (!id.empty()) {
        for (std::size_t c = 0; c < trajectory.calls.size() && !answered; ++c)
          if (trajectory.calls[c].id == id && !trajectory.calls[c].response) answered = c;
      } else if (!waiting_without_id.empty()) {
        answered = waiting_without_id.front();
        waiting_without_id.pop_front();
      }
      message.tool_name = string_member(*object, "name");
      if (answered) {
        trajectory.calls[*answered].response = message.content;
        message.answers = answered;
        message.tool_name = trajectory.calls[*answered].name;
      }
    }
    trajectory.messages.push_back(std::move(message));
  }
  return trajectory;
}

std::string render_requests(const std::vector<std::string>& requests) {
  if (requests.size() == 1) return requests.front();
  return render_chunks(requests);
}

std::string render_calls(const Trajectory& trajectory, bool with_responses) {
  std::string out;
  for (std::size_t i = 0; i < trajectory.calls.size(); ++i) {
    const TrajectoryCall& call = trajectory.calls[i];
    if (i > 0) out += "\n\n";
    out += "[" + std::to_string(i + 1) + "] " + call.name + "\nArguments:\n";
    out += call.arguments.is_null() ? std::string("(none)") : render_value(call.arguments);
    if (!with_responses) continue;
    out += call.response ? "\nResponse:\n" + *call.response : std::string("\nResponse: (none)");
  }
  return out;
}

std::string render_transcript(const Trajectory& trajectory, bool label_steps) {
  std::string out;
  std::size_t step = 0;
  for (const TrajectoryMessage& message : trajectory.messages) {
    if (message.role == "system") continue;
    if (!out.empty()) out += "\n\n";
    if (message.role == "tool" || message.role == "function") {
      out += "TOOL";
      if (!message.tool_name.empty()) out += " (" + message.tool_name + ")";
    } else {
      out += upper_ascii(message.role.empty() ? std::string("message") : message.role);
    }
    out += ": " + message.content;
    for (std::size_t index : message.calls) {
      const TrajectoryCall& call = trajectory.calls[index];
      out += label_steps ? "\n  [step " + std::to_string(step) + "] " : std::string("\n  [tool call] ");
      out += call.name + "(" + compact_arguments(call.arguments) + ")";
    }
    if (!message.calls.empty()) ++step;
  }
  return out;
}

}  // namespace krino::judge::openjudge
