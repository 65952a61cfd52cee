// tool_call_sequence_match: OpenJudge's ToolCallSequenceMatchGrader. Compares the tool calls of a
// conversation, step by step, with a reference sequence.
#ifndef KRINO_AGENT_OPENJUDGE_TOOL_CALL_SEQUENCE_MATCH_H
#define KRINO_AGENT_OPENJUDGE_TOOL_CALL_SEQUENCE_MATCH_H

#include <krino/evaluator_options.hpp>
#include "openjudge_messages.h"

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace krino::agent::openjudge {

// A call reduced to what the comparison uses: its name and its parsed parameters.
struct SequenceCall {
  std::string name;
  boost::json::value parameters;  // an argument string parsed as JSON; {} when absent or unparseable
};
using CallSteps = std::vector<std::vector<SequenceCall>>;

// Predicted steps: every assistant message with tool calls. Reference steps:
// expectedOutputs[reference_key], a list of steps, each a list of {"name", "arguments"} calls
// (optionally inside "function"); an object in place of a step list is a step of that one call.
//
// Jaccard mode compares the sets of all calls, ignoring steps: strict elements are
// "name: <Python repr of the parameters>", loose elements the names. Step-by-step mode averages
// over reference steps: strict gives a step 0 unless its names are a sub-multiset of the predicted
// step's names, else the mean parameter F1 of each reference call against the first predicted call
// of that name; loose gives the step's name recall (or precision, per metric_type).
class ToolCallSequenceMatchEvaluator {
 public:
  static const char* const kConfigSchema;

  explicit ToolCallSequenceMatchEvaluator(Config config);
  EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const;

 private:
  CommonOptions common_;
  MessagesLocation messages_;
  std::string reference_key_;
  bool strict_;
  bool jaccard_;
  bool precision_;  // loose step-by-step: precision instead of recall
};

// The parameters OpenJudge compares for a call's arguments (see SequenceCall).
boost::json::value call_parameters(const boost::json::value* arguments);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_TOOL_CALL_SEQUENCE_MATCH_H
