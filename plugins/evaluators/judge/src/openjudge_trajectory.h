// Reading an OpenJudge message list (OpenAI-style chat messages) for the judge plugin's OpenJudge
// graders, and rendering the parts of it a prompt shows. The same reading conventions as the agent
// plugin's deterministic OpenJudge graders (docs/plugins/agent-openjudge.md): the list lives in
// actualOutputs.conversation, else actualOutputs.messages (option messages_key names one key);
// {"message": {...}} and {"tool_call": {...}} wrappers are unwrapped; a call without a "function"
// object is read flat; content may be a string, null or a list of parts with "text". Where the list
// lives and the wrappers come from the support library both plugins link
// (plugins/support/openjudge_messages).
//
// Unlike the deterministic graders, nothing here is an error a judge could live with: a tool
// answer no call waits for is shown as a plain tool message instead of failing the item.
#ifndef KRINO_JUDGE_OPENJUDGE_TRAJECTORY_H
#define KRINO_JUDGE_OPENJUDGE_TRAJECTORY_H

#include <krino/plugin.hpp>
#include <krino/support/openjudge_messages.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace krino::judge::openjudge {

// Where a test case keeps the message list.
using ::krino::openjudge::MessagesLocation;

struct TrajectoryCall {
  std::string id;
  std::string name;
  // The arguments as given: a JSON string holding JSON is parsed, other text stays a string; null
  // when absent.
  boost::json::value arguments;
  std::optional<std::string> response;  // the content of the tool message that answered the call
};

struct TrajectoryMessage {
  std::string role;  // as given, lower-cased
  std::string content;
  std::vector<std::size_t> calls;      // an assistant message's calls: indices into Trajectory::calls
  std::optional<std::size_t> answers;  // a tool message: the call it answers, when one was waiting
  std::string tool_name;               // a tool message: the answered call's name, else its "name"
};

struct Trajectory {
  std::vector<TrajectoryMessage> messages;
  std::vector<TrajectoryCall> calls;

  // Every assistant message with tool calls is one step (numbered from 0): its calls' indices.
  std::vector<std::vector<std::size_t>> steps() const;
  // The contents of the user messages, in order.
  std::vector<std::string> user_requests() const;
};

// Reads the list. Answers pair with calls as in OpenJudge: a tool message with a tool_call_id
// answers the earliest unanswered call with that id; one without an id the earliest unanswered call
// without an id. Throws invalid_argument for a message that is not an object or a malformed
// tool_calls list.
Trajectory read_trajectory(const boost::json::array& messages);

// The user's request(s): one request verbatim, several as a numbered list.
std::string render_requests(const std::vector<std::string>& requests);

// The calls as a numbered list, "[1] name" and its arguments as pretty JSON, each followed by its
// response ("Response:\n..." or "Response: (none)") when `with_responses`.
std::string render_calls(const Trajectory& trajectory, bool with_responses);

// The messages as a transcript without system messages: "ROLE: content" blocks separated by blank
// lines; an assistant message's calls as lines "  [step i] name(<arguments as compact JSON>)" when
// `label_steps`, else "  [tool call] name(...)"; a tool message as "TOOL (name): content".
std::string render_transcript(const Trajectory& trajectory, bool label_steps);

}  // namespace krino::judge::openjudge

#endif  // KRINO_JUDGE_OPENJUDGE_TRAJECTORY_H
