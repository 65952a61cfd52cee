#pragma once
// The user side of a simulated conversation: scripted messages first, in order, then
// an LLM judge playing a persona. The judge is asked through the host's judge service, so its calls
// are rate limited, retried, cached and costed like any judge call, and counted on the item.
// See docs/tasks/conversation.md#how-a-conversation-runs.
#include "krino/core/common/item_error.hpp"
#include "krino/core/task/request_template.hpp"

#include <krino/plugin.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace krino::core {

class HostServices;

// Who the simulated user is. Built-in personas have krino's own descriptions (docs/tasks/conversation.md).
struct Persona {
  std::string description;
  std::string guidelines;
};

// Throws a configuration error naming `where` for an unknown persona name, listing the known ones.
Persona builtin_persona(const std::string& name, const std::string& where);
std::vector<std::string> builtin_persona_names();

struct SimulatedUserReply {
  std::string text;    // the next message; empty when the user ended without a last word
  bool ended = false;  // the user said the stop token: the conversation is over
};

class SimulatedUser {
 public:
  // Options of the task's `user` section; throws a configuration error naming the key.
  explicit SimulatedUser(const boost::json::object& options);

  // The user's next message. `fixed_used` is how many scripted messages were already sent; the
  // scripted ones come first, then the judge. `messages` is the conversation so far
  // ({role, content} objects); `scenario` the situation rendered for this example.
  StatusOr<SimulatedUserReply, ItemError> next(const HostServices& host, const krino_call_context& ctx,
                                                   const boost::json::array& messages, const std::string& scenario,
                                                   std::size_t& fixed_used) const;

  // The prompt the judge gets (exposed for tests).
  boost::json::object judge_request(const boost::json::array& messages, const std::string& scenario) const;

 private:
  Persona persona_;
  std::optional<std::string> system_prompt_;  // replaces the persona prompt entirely
  std::vector<std::string> fixed_responses_;
  std::string judge_;       // a judge name; empty: the default judge
  std::string stop_token_;  // empty: the user never ends the conversation
  std::optional<double> temperature_;
};

}  // namespace krino::core
