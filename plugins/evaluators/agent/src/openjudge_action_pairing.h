// Pairs each tool call (an action) with the tool message that answered it (its observation), as
// OpenJudge's loop-detection and information-gain graders do.
#ifndef KRINO_AGENT_OPENJUDGE_ACTION_PAIRING_H
#define KRINO_AGENT_OPENJUDGE_ACTION_PAIRING_H

#include "openjudge_messages.h"

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace krino::agent::openjudge {

struct ActionObservation {
  ToolCallView action;
  std::string observation;  // the answering message's text, "" when it has none
};

// Walks the messages in order. Assistant tool calls with an id wait under that id (a later call
// with the same id replaces the earlier one); calls without an id wait in a queue. A "tool" or
// "function" message with a tool_call_id answers the call waiting under it; one without takes the
// oldest queued call. Pairs come out in the order of the answers, so calls never answered are
// left out. Throws invalid_argument for an answer no call is waiting for, as OpenJudge raises.
std::vector<ActionObservation> pair_actions_with_observations(const boost::json::array& messages);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_ACTION_PAIRING_H
