// The deterministic tool evaluators per_turn can run on each turn of a conversation, by short
// name. The table in turn_evaluator_factory.cpp is the one place to add an evaluator: it must read
// its calls from actualOutputs.toolCalls (and expectedOutputs.toolCalls when it compares) and
// any tool definitions from metadata.tools.
#ifndef KRINO_AGENT_TURN_EVALUATOR_FACTORY_H
#define KRINO_AGENT_TURN_EVALUATOR_FACTORY_H

#include <krino/plugin.hpp>

#include <boost/json.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace krino::agent {

// One inner evaluator, created once and shared by every call: evaluate() is const and
// thread-safe, as the evaluators it wraps are.
class TurnEvaluator {
 public:
  virtual ~TurnEvaluator() = default;
  virtual EvalResult evaluate(const TestCase& test_case, CallContext& ctx) const = 0;
  // False for evaluators that read only the actual calls (tool_error, tool_efficiency).
  virtual bool reads_expected_calls() const = 0;
};

// "tool_correctness, tool_trajectory, ...": the names make_turn_evaluator accepts.
std::string turn_evaluator_names();

// Creates evaluator `name` with `options`. The options are validated against that evaluator's
// configuration schema first, and may not set the keys per_turn decides (tool_calls_key and
// tools_key: each turn's calls are always under "toolCalls", its tools under metadata "tools").
// Every problem is an INVALID_ARGUMENT that names the
// option, as "options.<path>".
std::unique_ptr<TurnEvaluator> make_turn_evaluator(std::string_view name, const boost::json::object& options);

}  // namespace krino::agent

#endif  // KRINO_AGENT_TURN_EVALUATOR_FACTORY_H
